#!/usr/bin/env bash
# Runs a bundle made by ci/gpu_bundle.sh where the hardware is: every *_test binary, from the
# bundle's root (so golden/ is found as under Bazel), then "N passed, N failed, N skipped".
#   run.sh [--require gpu[,amx]] [--filter REGEX] [--jobs N] [--timeout S] [-- extra arguments
#          for every conformance test]
# Each test's verdict is printed as it ends; --timeout stops a test that runs past S seconds
# (it fails, named as timed out).
set -uo pipefail
cd "$(dirname "$0")" || exit 1
require="" filter="." jobs=1 limit=0
while [ $# -gt 0 ]; do
    case "$1" in
    --require) require="$2"; shift 2 ;;
    --filter) filter="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --timeout) limit="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
export CELLCHECK_REQUIRE="$require"
# Side by side, OpenMP engines share the cores instead of each spinning on all of them.
if [ "$jobs" -gt 1 ] && [ -z "${OMP_NUM_THREADS:-}" ]; then
    threads=$(( $(nproc) / jobs ))
    export OMP_NUM_THREADS=$(( threads > 0 ? threads : 1 ))
fi
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT

# One test: its output in $results/NAME.out, its verdict line in $results/NAME.verdict.
run_one() {
    local t="$1" name
    name=$(basename "$t")
    shift
    local start
    start=$(date +%s%N)
    if [ "$limit" -gt 0 ]; then
        timeout -k 10 "$limit" "$t" "$@" >"$results/$name.out" 2>&1
    else
        "$t" "$@" >"$results/$name.out" 2>&1
    fi
    local rc=$? verdict
    local ms=$(( ($(date +%s%N) - start) / 1000000 ))
    local last
    last=$(grep -v '^[[:space:]]*$' "$results/$name.out" | tail -n1)
    if [ "$limit" -gt 0 ] && { [ $rc -eq 124 ] || [ $rc -eq 137 ]; }; then
        verdict=FAILED last="timed out after $limit s: $last"
    elif [ $rc -ne 0 ]; then verdict=FAILED
    elif [[ "$last" == SKIPPED:\ * ]]; then verdict=SKIPPED
    else verdict=PASSED; fi
    printf '%s %s %s\n' "$verdict" "$ms" "$last" >"$results/$name.verdict"
    printf 'done: %-40s %-8s %7dms\n' "$name" "$verdict" "$ms" >&2
}

for t in bin/*_test; do
    name=$(basename "$t")
    [[ "$name" =~ $filter ]] || continue
    extra=()
    # As under Bazel (engines/defs.bzl): the case past 2^32 cells is certify's.
    [[ "$name" == *_conformance_test ]] && extra=(--huge-grid off "$@")
    # The parsers' corpus tests take their corpus directory, as Bazel's args give it.
    [[ "$name" == *_fuzz_corpus_test ]] && extra=("fuzz/corpus/${name%_fuzz_corpus_test}")
    # The plugin loader's test takes its plugins, as Bazel's args give them.
    [[ "$name" == plugin_test ]] && extra=(bin/libplugin_test_{threshold,threshold_wrong,bad_abi,no_export,no_step,twice}.so)
    # The fault corpus's scripts take cellcheck, the conformance driver and the fault plugins.
    [[ "$name" == faults_test ]] && extra=(cpu bin/cellcheck bin/plugin_conformance bin/libfaults.so bin/libfaults_ctor.so)
    [[ "$name" == faults_gpu_test ]] && extra=(gpu bin/cellcheck bin/plugin_conformance bin/libfaults_gpu.so)
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    run_one "$t" "${extra[@]}" &
done
wait

passed=0 failed=0 skipped=0
for v in "$results"/*.verdict; do
    [ -f "$v" ] || continue
    name=$(basename "$v" .verdict)
    read -r verdict ms last <"$v"
    case "$verdict" in
    PASSED) passed=$((passed + 1)) ;;
    SKIPPED) skipped=$((skipped + 1)) ;;
    *) failed=$((failed + 1)) ;;
    esac
    printf '%-40s %-8s %7dms  %s\n' "$name" "$verdict" "$ms" "$last"
    [ "$verdict" != FAILED ] || tail -n 30 "$results/$name.out" | sed 's/^/    /'
done
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
