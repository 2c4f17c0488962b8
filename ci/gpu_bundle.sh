#!/usr/bin/env bash
# Builds the tests and the cellcheck tool here, and lays them out with their data in a bundle
# directory (default gpu-bundle/, git-ignored) as `bazel test` gives it to them (tests.tsv, from the
# BUILD files), with run.sh and session.sh and the nvcc plugin example (plugins/), for a GPU
# machine that has no Bazel. cellcheck benchmarks every engine, so the per-engine *_bench
# binaries stay behind: with them a family of CUDA engines no longer fits one transfer.
#   ci/gpu_bundle.sh [--out DIR] [TARGET_PATTERN ...]   default: every test in the tree
# On the GPU machine:  DIR/run.sh [--require gpu,amx] [--filter REGEX] [-- extra conformance args]
set -euo pipefail
cd "$(dirname "$0")/.."
out=gpu-bundle
if [ "${1:-}" = "--out" ]; then
    out="$2"
    shift 2
fi
bash ci/setup.sh
patterns=("$@")
[ ${#patterns[@]} -gt 0 ] || patterns=(//...)

union=$(printf '%s + ' "${patterns[@]}" | sed 's/ + $//')
# The tests, and the binaries session.sh, scaling.sh and devices.sh run beside them.
mapfile -t tools < <(bazel query "kind('cc_binary', $union)" 2>/dev/null |
    grep -E '_tile_bench$|_compare$|//cli:cellcheck$|//harness:plugin_conformance$')
bazel build "${tools[@]}" //cli:cellcheck
bazel build --build_tests_only "${patterns[@]}"

rm -rf "$out"
mkdir -p "$out/bin"
bin=$(bazel info bazel-bin)
for t in "${tools[@]}" //cli:cellcheck; do
    path="${t#//}"
    cp "$bin/${path/://}" "$out/bin/"
done
# The goldens as the checkout holds them (the generation in force and the link naming it), for
# cellcheck certify; the tests' own data is laid out beside them by bundle_manifest.py.
mkdir -p "$out/golden"
cp -r golden/catalogue.txt golden/patterns "$out/golden/"
generation=$(readlink golden/current)
cp -r "golden/$generation" "$out/golden/$generation"
ln -s "$generation" "$out/golden/current"
# Every test with the program, arguments and data its BUILD file gives it; refuses a test that
# would start without them.
query=$(mktemp)
bazel query "tests($union)" --output=xml >"$query" 2>/dev/null
# Tests of host tools a GPU runner's image lacks (a Slurm cluster, Python's jsonschema) stay out,
# named; CI runs them on every change.
python3 ci/bundle_manifest.py --query "$query" --bin "$bin" --out "$out" \
    --leave-out needs-slurm --leave-out needs-jsonschema || { rm -f "$query"; exit 1; }
rm -f "$query"
mkdir -p "$out/ci/perf" && cp ci/perf/* "$out/ci/perf/"
# The nvcc plugin example, built against an installed cellcheck as its owners would build it,
# right and wrong: bin/cellcheck --plugin plugins/libcuda_threshold.so certify ...
prefix=$(mktemp -d)
bash ci/install.sh "$prefix" >/dev/null
cp -r examples/plugin_cuda "$prefix/build"
PKG_CONFIG_PATH="$prefix/lib/pkgconfig" make -s -C "$prefix/build" all
mkdir -p "$out/plugins"
cp "$prefix/build/"*.so "$out/plugins/"
rm -rf "$prefix"
cp ci/gpu_run.sh "$out/run.sh"
cp ci/gpu_session.sh "$out/session.sh"
cp ci/gpu_scaling.sh "$out/scaling.sh"
cp ci/gpu_devices.sh "$out/devices.sh"
chmod -R u+w "$out"
du -sh "$out"
