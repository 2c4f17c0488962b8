#!/usr/bin/env bash
# Builds the test binaries, the benchmarks and the cellcheck tool here, and copies them with their
# data into gpu-bundle/ (git-ignored), with run.sh, for a GPU machine that has no Bazel.
#   ci/gpu_bundle.sh [TARGET_PATTERN ...]      default: every test and benchmark in the tree
# On the GPU machine:  gpu-bundle/run.sh [--require gpu,amx] [--filter REGEX] [-- extra test args]
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/setup.sh
patterns=("$@")
[ ${#patterns[@]} -gt 0 ] || patterns=(//...)

query="kind('cc_test|cc_binary', $(printf '%s + ' "${patterns[@]}" | sed 's/ + $//'))"
mapfile -t targets < <(bazel query "$query" 2>/dev/null | grep -E '_test$|_bench$|//cli:cellcheck$')
[ ${#targets[@]} -gt 0 ] || { echo "gpu_bundle: no targets match ${patterns[*]}" >&2; exit 1; }
bazel build "${targets[@]}" //cli:cellcheck

rm -rf gpu-bundle
mkdir -p gpu-bundle/bin
bin=$(bazel info bazel-bin)
for t in "${targets[@]}" //cli:cellcheck; do
    path="${t#//}"
    cp "$bin/${path/://}" gpu-bundle/bin/
done
cp -r golden gpu-bundle/golden
cp ci/gpu_run.sh gpu-bundle/run.sh
chmod -R u+w gpu-bundle
du -sh gpu-bundle
