#!/usr/bin/env bash
# One certification session on a GPU runner, from a bundle made by ci/gpu_bundle.sh (copied into
# the bundle as session.sh): the tests with the GPU required, compute-sanitizer on a short
# campaign of each GPU engine, `cellcheck certify` of each engine asked for (side by side, in
# lanes: its own certificate directory each), then the benchmarks, quiet, one engine at a time.
#   session.sh [--cases N] [--no-tests] [--sanitize ENGINES] [--certify ENGINES|all] [--lanes N]
#              [--gpu-lanes N] [--shards N] [--devices LIST] [--bench ENGINES] [--sizes LIST]
#              [--radii LIST]
# Engines on the GPU are certified --gpu-lanes at a time (default 2): each holds a grid past 2^32
# cells on the device for a while, and two or three fill it. --shards N certifies each engine as N
# shards side by side, merged into its certificate: shard i of an engine of one GPU on the i-th
# visible GPU (round robin), an engine over several devices seeing them all. Engines over several
# devices (`cellcheck list --over-devices`) are certified once per count in --devices (default:
# 1, 2, 4, ... up to the visible GPUs, and their number), each with its own certificate.
# ENGINES are comma-separated cellcheck names (cuda.shared,cuda.cat); logs go to $OUT or ./logs.
set -uo pipefail
cd "$(dirname "$0")" || exit 1
cases=2000 sanitize="" bench="" sizes=16384,32768 radii=1,2,4,8,16 certify="" lanes=4 gpu_lanes=2 tests=1
shards=1 devices=""
while [ $# -gt 0 ]; do
    case "$1" in
    --cases) cases="$2"; shift 2 ;;
    --sanitize) sanitize="$2"; shift 2 ;;
    --certify) certify="$2"; shift 2 ;;
    --lanes) lanes="$2"; shift 2 ;;
    --gpu-lanes) gpu_lanes="$2"; shift 2 ;;
    --shards) shards="$2"; shift 2 ;;
    --devices) devices="$2"; shift 2 ;;
    --no-tests) tests=0; shift ;;
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

if [ "$tests" -eq 1 ]; then
    ./run.sh --require gpu --logs "$logs/tests" -- --cases "$cases" 2>&1 | tee "$logs/tests.log"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
fi

# A test binary is named after its engine's target: the whole name where the target carries it
# (cuda.base -> cuda_base_conformance_test, cuda.hexlut -> cuda_hexlut_...: cpu.hexlut has
# hexlut_...), else the name past the dot (cuda.shared1 -> shared1_conformance_test).
binary() {
    local whole="${1//[.-]/_}" n="${1#*.}"
    if [ -x "bin/${whole}_conformance_test" ]; then echo "bin/${whole}_conformance_test"
    else echo "bin/${n//-/_}_conformance_test"; fi
}
# Under racecheck the worker's host memory grows with the grid the program hands to CUDA (seen:
# cuda.runsum's case past 2^32 cells went past margins of 1024 and 4096 MiB in load, 4125 MiB, and
# passed with 16384), so the sanitizers run with a margin past that case's grids. They run outside
# the sandbox: a sandboxed worker never answers under compute-sanitizer (1 x H200: available()
# timed out after 60 s, and the sanitizer said the target ended before its first CUDA call), while
# outside it memcheck finds fault.cuda-illegal-address's writes (97 invalid __global__ writes).
pids=()
for e in ${sanitize//,/ }; do
    for tool in memcheck racecheck; do
        (compute-sanitizer --tool "$tool" --error-exitcode 1 "$(binary "$e")" --cases 20 \
            --memory-margin 16384 --sandbox off \
            >"$logs/$tool-$e.log" 2>&1
         rc=$?
         echo "$tool $e: exit $rc, $(grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY' "$logs/$tool-$e.log")"
         exit $rc) &
        pids+=($!)
    done
done
for p in "${pids[@]}"; do wait "$p" || status=1; done

# The GPUs shards go round, and the default device counts.
source ./devices.sh
mapfile -t gpus < <(visible_gpus)
[ -n "$devices" ] || devices=$(default_device_counts)

# certify ENGINE [DEVICES]: the engine's row of its certificate, or why it ended without one, in
# $dir/row; whole, or in --shards shards merged.
certify_one() {
    local e="$1" d="${2:-}" dir="$logs/cert-$1${2:+-x$2}" rc
    mkdir -p "$dir"
    local env=(CELLCHECK_REQUIRE=gpu)
    [ -z "$d" ] || env+=("CELLCHECK_DEVICES=$d")
    if [ "$shards" -le 1 ]; then
        env "${env[@]}" ./bin/cellcheck certify --engine "$e" --out-dir "$dir" >"$dir/log" 2>&1
        rc=$?
    else
        local pids=() i
        for ((i = 0; i < shards; i++)); do
            local one=("${env[@]}")
            [ -n "$d" ] || [ ${#gpus[@]} -eq 0 ] ||
                one+=("CUDA_VISIBLE_DEVICES=${gpus[i % ${#gpus[@]}]}")
            mkdir -p "$dir/shards/$i"
            env "${one[@]}" ./bin/cellcheck certify --engine "$e" --shard "$i/$shards" \
                --out-dir "$dir/shards/$i" >"$dir/shards/$i/log" 2>&1 &
            pids+=($!)
        done
        # A shard's verdict is in its record; the merge refuses a shard that wrote none.
        for p in "${pids[@]}"; do wait "$p"; done
        ./bin/cellcheck certify --merge "$dir/shards" --out-dir "$dir" >"$dir/log" 2>&1
        rc=$?
    fi
    { grep -m1 "^| $e |" "$dir/certificate.md" 2>/dev/null || echo "| $e | no certificate"; } \
        >"$dir/row"
    echo "$rc" >"$dir/rc"
}
if [ -n "$certify" ]; then
    [ "$certify" = all ] &&
        certify=$(./bin/cellcheck list | awk 'NR > 1 && $1 != "oracle" && $3 == "yes" {print $1}')
    # Side by side, OpenMP engines share the cores; the GPU engines go in a queue of their own.
    export OMP_NUM_THREADS=$(( $(nproc) / lanes > 0 ? $(nproc) / lanes : 1 ))
    gpu_engines=$(./bin/cellcheck list | awk '$2 == "gpu" {print $1}')
    multi_engines=$(./bin/cellcheck list --over-devices)
    queue() { # LANES ENGINE[:DEVICES]...
        local n="$1"
        shift
        for e in "$@"; do
            while [ "$(jobs -rp | wc -l)" -ge "$n" ]; do wait -n; done
            certify_one "${e%%:*}" "$([[ $e == *:* ]] && echo "${e#*:}")" &
        done
        wait
    }
    on_gpu=() on_cpu=() runs=()
    for e in ${certify//,/ }; do
        if grep -qx "$e" <<<"$multi_engines"; then
            for d in ${devices//,/ }; do on_gpu+=("$e:$d"); runs+=("$e-x$d"); done
            continue
        fi
        runs+=("$e")
        if grep -qx "$e" <<<"$gpu_engines"; then on_gpu+=("$e"); else on_cpu+=("$e"); fi
    done
    queue "$gpu_lanes" "${on_gpu[@]}" &
    queue "$lanes" "${on_cpu[@]}" &
    wait
    unset OMP_NUM_THREADS
    for e in "${runs[@]}"; do
        echo "$(cat "$logs/cert-$e/row") exit $(cat "$logs/cert-$e/rc")"
        [ "$(cat "$logs/cert-$e/rc")" = 0 ] || status=1
    done
fi

for e in ${bench//,/ }; do
    ./bin/cellcheck bench --engine "$e" --size "$sizes" --radius "$radii" --steps 5 --repeats 3 \
        >"$logs/bench-$e.log" 2>&1 || status=1
    grep -v '^BENCH' "$logs/bench-$e.log" | grep -E '^ *[0-9]+ |bench:|error|cellcheck:'
done
exit $status
