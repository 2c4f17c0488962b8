#!/usr/bin/env bash
# The main job: certify every engine this machine can run and print the certificate table.
# Extra arguments go to `cellcheck certify` (for example --engine cpu.ref or --cases 500).
set -euo pipefail
here=$(pwd)
cd "$(dirname "$0")/.."
bash ci/setup.sh
bazel build //cli:cellcheck
# The build server is not needed while certify runs: its memory goes back to the case past 2^32
# cells, which an engine may need nearly all of on a small machine.
bazel shutdown
exec bazel-bin/cli/cellcheck certify --out-dir "$here" "$@"
