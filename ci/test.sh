#!/usr/bin/env bash
# The README's test command: set up what is missing, run every test, then the examples of
# engines from elsewhere (ci/examples.sh). Extra arguments go to `bazel test` (for example
# --config=gpu).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
bash ci/setup.sh || exit 1
bazel test --keep_going //... "$@"
status=$?
bash ci/examples.sh || status=1
bash ci/lint.sh || status=1
exit $status
