#!/usr/bin/env bash
# One certification session on a GPU runner, from a bundle made by ci/gpu_bundle.sh (copied into
# the bundle as session.sh): the tests with the GPU required, compute-sanitizer on a short
# campaign of each GPU engine, then the benchmarks, quiet, one engine at a time.
#   session.sh [--cases N] [--sanitize ENGINES] [--bench ENGINES] [--sizes LIST] [--radii LIST]
# ENGINES are comma-separated cellcheck names (cuda.shared,cuda.cat); logs go to $OUT or ./logs.
set -uo pipefail
cd "$(dirname "$0")"
cases=2000 sanitize="" bench="" sizes=16384,32768 radii=1,2,4,8,16
while [ $# -gt 0 ]; do
    case "$1" in
    --cases) cases="$2"; shift 2 ;;
    --sanitize) sanitize="$2"; shift 2 ;;
    --bench) bench="$2"; shift 2 ;;
    --sizes) sizes="$2"; shift 2 ;;
    --radii) radii="$2"; shift 2 ;;
    *) echo "session.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
logs="${OUT:-logs}"
mkdir -p "$logs"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
status=0

./run.sh --require gpu --jobs 4 -- --cases "$cases" 2>&1 | tee "$logs/tests.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1

# A test binary is named after its engine: cuda.shared1 -> shared1_conformance_test.
binary() { local n="${1#*.}"; echo "bin/${n//-/_}_conformance_test"; }
pids=()
for e in ${sanitize//,/ }; do
    for tool in memcheck racecheck; do
        (compute-sanitizer --tool "$tool" --error-exitcode 1 "$(binary "$e")" --cases 20 \
            >"$logs/$tool-$e.log" 2>&1
         rc=$?
         echo "$tool $e: exit $rc, $(grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY' "$logs/$tool-$e.log")"
         exit $rc) &
        pids+=($!)
    done
done
for p in "${pids[@]}"; do wait "$p" || status=1; done

for e in ${bench//,/ }; do
    ./bin/cellcheck bench --engine "$e" --size "$sizes" --radius "$radii" --steps 5 --repeats 3 \
        >"$logs/bench-$e.log" 2>&1 || status=1
    grep -v '^BENCH' "$logs/bench-$e.log" | grep -E '^ *[0-9]+ |bench:|error|cellcheck:'
done
exit $status
