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
COPY core/ core/
COPY docs/ docs/
COPY load/ load/
COPY merchant/ merchant/
COPY references/ references/
COPY results/ results/
COPY service/ service/
COPY suites/ suites/
COPY tsconfig.json README.md ./
RUN ln -s /opt/hps-conformance/bin/hps-conformance.mjs /usr/local/bin/hps-conformance
USER node
# Reports go to a directory the node user can write (mount a volume there, or pass --report).
WORKDIR /home/node
# The CLI is the entrypoint: `docker run IMAGE run --base-url URL --key-env VAR …` (its arguments
# follow the image name); without arguments, its help. A shell: --entrypoint /bin/sh.
ENTRYPOINT ["node", "/opt/hps-conformance/bin/hps-conformance.mjs"]
CMD ["--help"]
