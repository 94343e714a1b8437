# The hps-conformance image: the package as `npm install` would ship it (package.json "files"),
# its production dependencies from the lockfile, the CLI on PATH. Node: the current LTS line.
#   docker build -t registry.example/hps-conformance:0.1.0 .      (from the repository root)
# registry.example stands for your registry; the Kubernetes manifests (docs/examples/kubernetes/) and
# the CI examples (docs/examples/ci/) name the image so. test/deploy/dockerfile.test.ts keeps the COPY
# lines equal to "files". The base is pinned by digest (a multi-platform index of node:24-slim);
# refresh it deliberately (docker buildx imagetools inspect node:24-slim) and rebuild.
# Runtime dependencies are "dependencies" only (npm ci --omit=dev); vitest (and vite, pinned with it)
# is one on purpose: `run` executes the suites through vitest's Node API.
FROM node:24-slim@sha256:a9f5f7c91a432850b2a8a7797adf5eadb6c733ceed61167806cee7ea7fbc29df
WORKDIR /opt/hps-conformance
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY bin/ bin/
COPY catalogue/ catalogue/
COPY cli/ cli/
COPY merchant/client/ merchant/client/
COPY core/ core/
COPY docs/examples/ docs/examples/
COPY service/generators/ service/generators/
COPY load/ load/
COPY service/mutation/ service/mutation/
COPY merchant/receiver/ merchant/receiver/
COPY references/service/ references/service/
COPY references/receiver/ references/receiver/
COPY results/render/ results/render/
COPY catalogue/report/ catalogue/report/
COPY service/harness/ service/harness/
COPY catalogue/schemas/ catalogue/schemas/
COPY references/seams/ references/seams/
COPY service/sink/ service/sink/
COPY suites/ suites/
COPY core/targets/ core/targets/
COPY results/verdict/ results/verdict/
COPY service/judge/ service/judge/
COPY deploy/ deploy/
COPY docs/ docs/
COPY tsconfig.json README.md ./
RUN ln -s /opt/hps-conformance/bin/hps-conformance.mjs /usr/local/bin/hps-conformance
USER node
# Reports go to a directory the node user can write (mount a volume there, or pass --report).
WORKDIR /home/node
# The CLI is the entrypoint: `docker run IMAGE run --base-url URL --key-env VAR …` (its arguments
# follow the image name); without arguments, its help. A shell: --entrypoint /bin/sh.
ENTRYPOINT ["node", "/opt/hps-conformance/bin/hps-conformance.mjs"]
CMD ["--help"]
