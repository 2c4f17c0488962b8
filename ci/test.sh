#!/usr/bin/env bash
# The README's test command: set up what is missing, then run every test.
# Extra arguments go to `bazel test` (for example --config=gpu).
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/setup.sh
exec bazel test --keep_going //... "$@"
