#!/usr/bin/env bash
# Certifying engines from elsewhere, as their owners would: cellcheck installed under a prefix
# (ci/install.sh), the Make plugin example built with pkg-config and certified by the installed
# cellcheck, its wrong variant caught; the CUDA plugin example built with nvcc and loaded
# (certified on GPU runners from the bundle); the external Bazel workspace's tests. One line per example:
# "EXAMPLE <name> PASSED" or "EXAMPLE <name> FAILED", then exit 1 if any failed.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
verdict() { # NAME STATUS
    if [ "$2" -eq 0 ]; then echo "EXAMPLE $1 PASSED"; else echo "EXAMPLE $1 FAILED"; failed=1; fi
}
cases=${CELLCHECK_EXAMPLE_CASES:-300}

bash ci/install.sh "$work/prefix" >"$work/install.log" 2>&1 || { cat "$work/install.log"; exit 1; }
export PATH="$work/prefix/bin:$PATH" PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"

cp -r examples/plugin_make "$work/make"
(cd "$work/make" && make -s certify CASES="$cases") >"$work/make.log" 2>&1
status=$?
grep -q "1 certified, 0 failed" "$work/make.log" || status=1
[ $status -eq 0 ] || tail -20 "$work/make.log"
verdict plugin_make_certified $status

(cd "$work/make" && make -s certify-wrong CASES="$cases") >"$work/wrong.log" 2>&1
status=$?
if [ $status -ne 0 ] && grep -q "0 certified, 1 failed" "$work/wrong.log" &&
    grep -q "reproduce: cellcheck --plugin" "$work/wrong.log"; then
    status=0
else
    tail -20 "$work/wrong.log"
    status=1
fi
verdict plugin_make_wrong_caught $status

cp -r examples/plugin_cuda "$work/cuda"
(cd "$work/cuda" && make -s all) >"$work/cuda.log" 2>&1
status=$?
# It loads here too (a symbol left undefined, say a C++-mangled one, is refused at load), and says
# why it cannot run without a GPU.
if [ $status -eq 0 ]; then
    cellcheck --plugin "$work/cuda/libcuda_threshold.so" list >>"$work/cuda.log" 2>&1 &&
        grep -q "^example.cuda-threshold gpu" "$work/cuda.log" || status=1
fi
[ $status -eq 0 ] || tail -20 "$work/cuda.log"
verdict plugin_cuda_built_and_loads $status

(cd examples/bazel_workspace && bazel test //... 2>&1) >"$work/bazel.log"
status=$?
[ $status -eq 0 ] || tail -30 "$work/bazel.log"
grep -E "^//.*(PASSED|FAILED)" "$work/bazel.log" | sed 's/^/    /'
verdict bazel_workspace $status
(cd examples/bazel_workspace && bazel shutdown >/dev/null 2>&1)
exit $failed
