#!/usr/bin/env bash
# Runs the tests of a bundle made by ci/gpu_bundle.sh where the hardware is, each as `bazel test`
# runs it: the program and arguments its BUILD file gives (tests.tsv, made from the BUILD files
# by ci/bundle_manifest.py), from the bundle's root, with a fresh TEST_TMPDIR and outputs
# directory, TEST_TARGET, and each shard of a sharded test as a job of its own. Tests tagged
# exclusive run alone after the rest. Ends with each failure's log tail, the slowest tests and
# "N passed, N failed, N skipped".
#   run.sh [--require gpu[,amx]] [--filter REGEX] [--jobs N] [--timeout S] [--logs DIR]
#          [-- extra arguments for every conformance test]
# --jobs defaults to the cores here; --timeout overrides each test's own limit (its Bazel size's:
# small 60 s, medium 300 s, large 900 s). A test stopped by its limit fails, named as timed out.
# --logs keeps every test's whole output there (NAME.SHARD.out).
set -uo pipefail
cd "$(dirname "$0")" || exit 1
require="" filter="." jobs=$(nproc) limit=0 logs=""
while [ $# -gt 0 ]; do
    case "$1" in
    --require) require="$2"; shift 2 ;;
    --filter) filter="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --timeout) limit="$2"; shift 2 ;;
    --logs) logs="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[ -f tests.tsv ] || { echo "run.sh: no tests.tsv here; make the bundle with ci/gpu_bundle.sh" >&2; exit 2; }
export CELLCHECK_REQUIRE="$require"
# Side by side, OpenMP engines share the cores instead of each spinning on all of them.
if [ "$jobs" -gt 1 ] && [ -z "${OMP_NUM_THREADS:-}" ]; then
    threads=$(( $(nproc) / jobs ))
    export OMP_NUM_THREADS=$(( threads > 0 ? threads : 1 ))
fi
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
root=$(pwd)

# One shard of one test: its output in $results/NAME.I.out, its verdict in NAME.I.verdict.
run_one() {
    local name="$1" label="$2" index="$3" shards="$4" seconds="$5"
    shift 5
    local tmp="$results/$name.$index.tmp" start rc verdict ms last
    mkdir -p "$tmp/tmp" "$tmp/outputs"
    start=$(date +%s%N)
    (
        export TEST_TMPDIR="$tmp/tmp" TEST_UNDECLARED_OUTPUTS_DIR="$tmp/outputs" \
            TEST_TARGET="$label" TEST_SRCDIR="$root" TEST_WORKSPACE=cellcheck
        if [ "$shards" -gt 1 ]; then
            export TEST_SHARD_INDEX="$index" TEST_TOTAL_SHARDS="$shards" \
                TEST_SHARD_STATUS_FILE="$tmp/shard_status"
        fi
        exec timeout -k 10 "$seconds" "$@"
    ) >"$results/$name.$index.out" 2>&1
    rc=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    last=$(grep -v '^[[:space:]]*$' "$results/$name.$index.out" | tail -n1)
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        verdict=TIMEOUT last="stopped by its limit of $seconds s: $last"
    elif [ $rc -ne 0 ]; then verdict=FAILED
    elif [[ "$last" == SKIPPED:\ * ]]; then verdict=SKIPPED
    else verdict=PASSED; fi
    printf '%s %s %s\n' "$verdict" "$ms" "$last" >"$results/$name.$index.verdict"
    rm -rf "$tmp"
    [ "$shards" -eq 1 ] || name="$name (shard $index)"
    printf 'done: %-40s %-8s %7dms\n' "$name" "$verdict" "$ms" >&2
}

# The jobs, the longest first so that no long one starts last: by the seconds each shard took on
# a GPU runner before (ci/perf/gpu_test_ms.tsv, written by --logs), else by its time limit;
# a test with no seconds recorded goes first. Exclusive ones run alone after the rest.
declare -A took=()
if [ -f ci/perf/gpu_test_ms.tsv ]; then
    while IFS=$'\t' read -r name index ms; do took["$name.$index"]=$ms; done <ci/perf/gpu_test_ms.tsv
fi
declare -A line_of=()
declare -a names=()
jobs_file="$results/jobs"
: >"$jobs_file"
while IFS= read -r line; do
    IFS=$'\t' read -ra f <<<"$line"
    name="${f[0]}" shards="${f[2]}" seconds="${f[3]}" tags="${f[4]}"
    [[ "$name" =~ $filter ]] || continue
    [[ ",$tags," == *,exclusive,* ]] && exclusive=1 || exclusive=0
    line_of["$name"]=$line
    names+=("$name")
    echo "$shards" >"$results/$name.shards"
    for ((i = 0; i < shards; i++)); do
        printf '%s\t%s\t%s\t%s\n' "$exclusive" "${took[$name.$i]:-$((seconds * 1000000))}" "$name" "$i" >>"$jobs_file"
    done
done <tests.tsv

# overriding ARRAY EXTRA...: the test's own arguments in ARRAY with EXTRA after them, each option
# EXTRA names taken out of the test's first (with its value), so that `-- --cases 2000` replaces the
# --cases its BUILD file gives instead of being refused as given twice.
overriding() {
    local -n args="$1"
    shift
    local -A named=()
    local a kept=() i
    for a in "$@"; do [[ "$a" == --* ]] && named["$a"]=1; done
    kept=("${args[0]}")
    for ((i = 1; i < ${#args[@]}; i++)); do
        if [ -n "${named[${args[i]}]:-}" ]; then
            [[ $((i + 1)) -lt ${#args[@]} && "${args[i + 1]}" != --* ]] && i=$((i + 1))
            continue
        fi
        kept+=("${args[i]}")
    done
    args=("${kept[@]}" "$@")
}

launch() {
    local exclusive="$1" width ms name index
    shift
    width=$([ "$exclusive" -eq 1 ] && echo 1 || echo "$jobs")
    while IFS=$'\t' read -r _ ms name index; do
        IFS=$'\t' read -ra f <<<"${line_of[$name]}"
        local label="${f[1]}" shards="${f[2]}" seconds="${f[3]}" cmd=("${f[@]:5}")
        [[ "$name" == *_conformance_test ]] && overriding cmd "$@"
        [ "$limit" -gt 0 ] && seconds="$limit"
        while [ "$(jobs -rp | wc -l)" -ge "$width" ]; do wait -n; done
        run_one "$name" "$label" "$index" "$shards" "$seconds" "${cmd[@]}" &
    done < <(awk -F'\t' -v x="$exclusive" '$1 == x' "$jobs_file" | sort -t$'\t' -k2,2nr)
    wait
}
launch 0 "$@"
launch 1 "$@"

passed=0 failed=0 skipped=0
: >"$results/times"
for name in "${names[@]}"; do
    shards=$(cat "$results/$name.shards")
    verdict=PASSED ms=0 last=""
    for ((i = 0; i < shards; i++)); do
        read -r v t l <"$results/$name.$i.verdict"
        [ "$t" -gt "$ms" ] && ms=$t
        case "$v" in
        FAILED | TIMEOUT)
            verdict=$v last=$l
            [ "$shards" -eq 1 ] || last="shard $i: $l"
            ;;
        SKIPPED) [ "$verdict" = PASSED ] && verdict=SKIPPED last=$l ;;
        *) [ -n "$last" ] || last=$l ;;
        esac
    done
    case "$verdict" in
    PASSED) passed=$((passed + 1)) ;;
    SKIPPED) skipped=$((skipped + 1)) ;;
    *) failed=$((failed + 1)) ;;
    esac
    printf '%s %s\n' "$ms" "$name" >>"$results/times"
    printf '%-40s %-8s %7dms  %s\n' "$name" "$verdict" "$ms" "$last"
    if [ "$verdict" = FAILED ] || [ "$verdict" = TIMEOUT ]; then
        for ((i = 0; i < shards; i++)); do
            grep -q '^\(FAILED\|TIMEOUT\) ' "$results/$name.$i.verdict" || continue
            [ "$shards" -gt 1 ] && echo "    ---- shard $i of $shards"
            tail -n 30 "$results/$name.$i.out" | sed 's/^/    /'
        done
    fi
done
if [ -n "$logs" ]; then
    mkdir -p "$logs" && cp "$results"/*.out "$logs/" && echo "every test's output: $logs"
    # Each shard's milliseconds, the order hint for the next run (ci/perf/gpu_test_ms.tsv).
    for v in "$results"/*.verdict; do
        base=$(basename "$v" .verdict)
        read -r _ ms _ <"$v"
        printf '%s\t%s\t%s\n' "${base%.*}" "${base##*.}" "$ms"
    done | sort >"$logs/gpu_test_ms.tsv"
fi
echo "slowest (the longest shard of each):"
sort -nr "$results/times" | head -n 5 | awk '{printf "    %-40s %8.1f s\n", $2, $1 / 1000}'
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
