#!/usr/bin/env bash
# The supported Node lines besides the one CI runs on: a subset of the tests (the CLI end to end, the
# catalogue, the schemas and the OpenAPI mock, the profile, the generators' specs, the packed install,
# the GitHub Action run locally, the CI examples and deploy files)
# on each, with Node taken from the npm registry's `node` package (npx -p node@N). Each line takes
# about two minutes; `npm test` on the machine's own Node runs everything.
#   .ci/test-node-versions.sh            # 22 and 24
#   .ci/test-node-versions.sh 24         # one line
set -euo pipefail
cd "$(dirname "$0")/.."

SUBSET=(
  test/catalogue.test.ts
  test/cli-help.test.ts
  test/cli-surface.test.ts
  test/serve-run-parity.test.ts
  test/profile.test.ts
  test/schemas
  test/pack-install.test.ts
  test/action.test.ts
  test/ci-examples.test.ts
  test/deploy
  generators
)
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(22 24)
for v in "${versions[@]}"; do
  start=$(date +%s)
  # the tests start children with the Node that runs them (process.execPath): all on node@$v
  npx -y -p "node@$v" -- node --version
  npx -y -p "node@$v" -- node node_modules/vitest/vitest.mjs run --config vitest.config.ts "${SUBSET[@]}"
  echo "node $v: subset passed in $(( $(date +%s) - start )) s"
done
