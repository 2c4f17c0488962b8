#!/usr/bin/env bash
# Builds the test binaries and the cellcheck tool here, and copies them with their data into a
# bundle directory (default gpu-bundle/, git-ignored), with run.sh and session.sh and the nvcc
# plugin example (plugins/), for a GPU machine that has no Bazel. cellcheck benchmarks every engine, so the per-engine *_bench
# binaries stay behind: with them a family of CUDA engines no longer fits one transfer.
#   ci/gpu_bundle.sh [--out DIR] [TARGET_PATTERN ...]   default: every test in the tree
# On the GPU machine:  DIR/run.sh [--require gpu,amx] [--filter REGEX] [-- extra test args]
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

query="kind('cc_test|cc_binary', $(printf '%s + ' "${patterns[@]}" | sed 's/ + $//'))"
mapfile -t targets < <(bazel query "$query" 2>/dev/null |
    grep -E '_test$|_tile_bench$|_compare$|//cli:cellcheck$|:libplugin_test_[a-z_]*\.so$|:libfaults[a-z_]*\.so$|:libgpu_bugs\.so$|//harness:plugin_conformance$')
[ ${#targets[@]} -gt 0 ] || { echo "gpu_bundle: no targets match ${patterns[*]}" >&2; exit 1; }
bazel build "${targets[@]}" //cli:cellcheck

# The binaries share one bin/: two of one name (cpu.bitslice1's and cuda.bitslice1's tests, say)
# would leave one of them silently untested.
dups=$(printf '%s\n' "${targets[@]}" | sed 's#.*[:/]##' | sort | uniq -d)
if [ -n "$dups" ]; then
    echo "gpu_bundle: these test binaries would overwrite each other in bin/: $dups" >&2
    printf '%s\n' "${targets[@]}" | grep -E "[:/]($(echo $dups | tr ' ' '|'))$" >&2
    exit 1
fi

rm -rf "$out"
mkdir -p "$out/bin"
bin=$(bazel info bazel-bin)
for t in "${targets[@]}" //cli:cellcheck; do
    path="${t#//}"
    cp "$bin/${path/://}" "$out/bin/"
done
# The goldens: the catalogue, its patterns, and the generation in force with the link naming it.
mkdir -p "$out/golden"
cp -r golden/catalogue.txt golden/patterns "$out/golden/"
generation=$(readlink golden/current)
cp -r "golden/$generation" "$out/golden/$generation"
ln -s "$generation" "$out/golden/current"
mkdir -p "$out/fuzz" && cp -r fuzz/corpus "$out/fuzz/corpus"
# The fault corpus's tests are scripts over cellcheck and the fault plugins (run.sh passes them).
cp fuzz/mutants/faults_test.sh "$out/bin/faults_test"
cp fuzz/mutants/faults_test.sh "$out/bin/faults_gpu_test"
mkdir -p "$out/ci" && cp -r ci/perf "$out/ci/perf"
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
