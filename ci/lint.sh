#!/usr/bin/env bash
# The workflow files under .github/workflows, through yamllint (Debian's package, installed by
# ci/setup.sh). Prints "CHECK workflows_yamllint PASSED" or "... FAILED" for .ci/run.
set -uo pipefail
cd "$(dirname "$0")/.."
if yamllint -s .github/workflows; then
    echo "CHECK workflows_yamllint PASSED"
else
    echo "CHECK workflows_yamllint FAILED"
    exit 1
fi
