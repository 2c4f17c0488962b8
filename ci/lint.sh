#!/usr/bin/env bash
# The workflow files under .github/workflows through yamllint, and the repository's shell scripts
# (every tracked *.sh and .ci/run) through shellcheck at warning level; both Debian's packages,
# installed by ci/setup.sh; and the C, C++ and CUDA files through ci/circles.py, which fails on
# any circle of includes and calls between them; and that no two tests share a name, since the GPU
# bundle (ci/gpu_bundle.sh) lays every test out in one folder by its name. Prints "CHECK
# workflows_yamllint PASSED" or "... FAILED", and the same for the others, for .ci/run.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
status=0
if yamllint -s .github/workflows; then
    echo "CHECK workflows_yamllint PASSED"
else
    echo "CHECK workflows_yamllint FAILED"
    status=1
fi
# Warnings and errors fail; style notes (single quotes kept on purpose, ...) do not.
scripts=()
while IFS= read -r -d '' script; do scripts+=("$script"); done < <(git ls-files -z '*.sh')
if shellcheck -S warning .ci/run "${scripts[@]}"; then
    echo "CHECK scripts_shellcheck PASSED"
else
    echo "CHECK scripts_shellcheck FAILED"
    status=1
fi
if python3 ci/circles.py; then
    echo "CHECK no_circles PASSED"
else
    echo "CHECK no_circles FAILED"
    status=1
fi
shared=$(bazel query 'tests(//...)' 2>/dev/null | sed 's/.*://' | sort | uniq -d)
if [ -z "$shared" ] && bazel query 'tests(//...)' >/dev/null 2>&1; then
    echo "CHECK test_names_unique PASSED"
else
    echo "tests sharing a name (the GPU bundle holds one of each): ${shared:-bazel query failed}"
    echo "CHECK test_names_unique FAILED"
    status=1
fi
exit $status
