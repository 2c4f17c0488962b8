#!/usr/bin/env bash
# The fault corpus (faults.h) against cellcheck check, its reproducer, certify and the
# conformance driver: each fault gets its class, within its time limit plus 5 s, with exit
# status 1 (never 0, never a signal).
#   faults_test.sh cpu CELLCHECK CONFORMANCE LIBFAULTS LIBFAULTS_CTOR
#     the CPU faults; fault.none and fault.none-pool pass; a plugin whose constructor crashes is refused by name
#   faults_test.sh gpu CELLCHECK CONFORMANCE LIBFAULTS_GPU
#     the CUDA faults: a kernel with an illegal address is a device error, one that never ends
#     times out, device memory leaked per context is a leak and a device pool passes; without a
#     GPU: SKIPPED, unless CELLCHECK_REQUIRE names gpu
set -uo pipefail
mode=$1
cellcheck=$(realpath "$2") conformance=$(realpath "$3") plugin=$(realpath "$4")
# Run from the workspace's root (Bazel's runfiles, or a GPU bundle's root): certify reads golden/.
[ -f golden/catalogue.txt ] || { echo "faults_test: run me where golden/catalogue.txt is" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Runs a command, recording its status in $rc, its output in $tmp/out and its seconds in $secs.
timed() {
    local start
    start=$(date +%s.%N)
    "$@" >"$tmp/out" 2>&1
    rc=$?
    secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
}

# The most a run may take: a time-out's limit plus 5 s; a failure that is not a time-out, its
# whole report (a replay alone, the divergence search, the shrinking) within 20 s, which on a
# CI machine's two cores shared with other tests takes several times its 1.5 s alone.
bound_of() {
    local limit
    limit=$(grep -o 'within its limit of [0-9.]* s' "$tmp/out" | head -n1 | grep -o '[0-9.]*' | head -n1)
    if [ -n "$limit" ]; then awk -v l="$limit" 'BEGIN { print l + 5 }'; else echo 20; fi
}

check_run() { # what fault class
    local what=$1 fault=$2 class=$3
    if [ "$rc" -ne 1 ]; then fail "$what $fault: exit $rc, not 1"; sed 's/^/    /' "$tmp/out" | tail -n 5; return; fi
    if ! grep -Eq "$class" "$tmp/out"; then fail "$what $fault: no '$class' in its output"; sed 's/^/    /' "$tmp/out" | head -n 8; fi
    local bound
    bound=$(bound_of)
    if awk -v s="$secs" -v b="$bound" 'BEGIN { exit !(s > b) }'; then fail "$what $fault: $secs s, past $bound s"; fi
    echo "  $what: exit 1, '$(grep -Eo "$class" "$tmp/out" | head -n1)', ${secs} s"
}

# fault name, then the classes it must get (an extended regular expression over the verdict).
if [ "$mode" = gpu ]; then
    if ! "$cellcheck" --plugin "$plugin" list | grep -Eq '^fault.cuda-spin +gpu +yes'; then
        why=$("$cellcheck" --plugin "$plugin" list | grep -A1 '^fault.cuda-spin' | sed -n 's/.*not here: //p')
        if [[ ",${CELLCHECK_REQUIRE:-}," == *,gpu,* ]]; then
            echo "FAILED: fault.cuda-spin: required hardware absent: ${why:-no GPU}"
            exit 1
        fi
        echo "SKIPPED: fault.cuda-*: ${why:-no GPU}"
        exit 0
    fi
    needs=gpu cases=50
    limits=(--time-limit 5)
    faults=(
        "fault.cuda-illegal-address|FAILED: fault.cuda-illegal-address: device error.*illegal"
        "fault.cuda-spin|FAILED: fault.cuda-spin: timed out.*step"
        "fault.cuda-leak|FAILED: fault.cuda-leak: out of memory.*leaked memory across cases"
    )
else
    ctor=$(realpath "$5")
    needs=cpu cases=100
    limits=(--time-limit 2 --memory-margin 512)
    faults=(
    "fault.crash-create|FAILED: fault.crash-create: crashed"
    "fault.crash-load|FAILED: fault.crash-load: crashed"
    "fault.crash-step|FAILED: fault.crash-step: crashed"
    "fault.crash-store|FAILED: fault.crash-store: crashed"
    "fault.crash-destroy|FAILED: fault.crash-destroy: crashed"
    "fault.abort|FAILED: fault.abort: crashed.*ABRT"
    "fault.double-free|FAILED: fault.double-free: crashed.*ABRT"
    "fault.overrun-1|FAILED: fault.overrun-1: broke the contract.*wrote past the grid"
    "fault.overrun-64|FAILED: fault.overrun-64: broke the contract.*wrote past the grid"
    "fault.hang-step|FAILED: fault.hang-step: timed out.*step"
    "fault.sleep-create|FAILED: fault.sleep-create: timed out.*create"
    "fault.exit0-step|FAILED: fault.exit0-step: exited without answering.*status 0"
    "fault.exit3-step|FAILED: fault.exit3-step: exited without answering.*status 3"
    "fault.leak|FAILED: fault.leak: out of memory.*leaked"
    "fault.write-input|FAILED: fault.write-input: broke the contract.*wrote into load's input"
    "fault.other-grid|FAILED: fault.other-grid: differs under a call pattern"
    "fault.clock|FAILED: fault.clock: (mismatch with the oracle|differs under a call pattern)"
    "fault.store-twice|FAILED: fault.store-twice: broke the contract.*two stores in a row"
    )
fi

for entry in "${faults[@]}"; do
    fault=${entry%%|*} class=${entry#*|}
    echo "$fault"
    timed "$cellcheck" --plugin "$plugin" check --engine "$fault" --cases "$cases" "${limits[@]}"
    check_run check "$fault" "$class"
    # The reproducer replays the same class (a clock-dependent engine fails alone only by luck:
    # up to five tries).
    repro=$(grep -m1 '^  reproduce: ' "$tmp/out" | sed 's/^  reproduce: cellcheck //')
    if [ -z "$repro" ]; then
        fail "check $fault: no reproducer printed"
    else
        for _ in 1 2 3 4 5; do
            eval "timed \"\$cellcheck\" $repro \"\${limits[@]}\""
            [ "$rc" -eq 1 ] && break
            [ "$fault" = fault.clock ] || break
        done
        check_run reproducer "$fault" "$class"
    fi
    mkdir -p "$tmp/cert"
    timed "$cellcheck" --plugin "$plugin" certify --engine "$fault" --cases "$cases" --out-dir "$tmp/cert" "${limits[@]}"
    check_run certify "$fault" "$class"
    short=$(echo "$class" | sed -E 's/^FAILED: [^ ]+ //; s/\.\*.*//')
    if ! grep -Eq "^\| $fault \| $needs \| FAILED \(($short)\)" "$tmp/cert/certificate.md"; then
        fail "certify $fault: its certificate row does not name '$short'"
        grep "$fault" "$tmp/cert/certificate.md" | head -n 2
    fi
    if ! grep -Eq "\"failure_class\": \"($short)\"" "$tmp/cert/certificate.json"; then
        fail "certify $fault: certificate.json does not name '$short'"
    fi
    timed "$conformance" --plugin "$plugin" --engine "$fault" --cases "$cases" "${limits[@]}"
    check_run conformance "$fault" "$class"
done

if [ "$mode" = gpu ]; then
    # A device pool is not a leak: fault.cuda-pool keeps a quarter of the device from its first
    # create to its worker's end, where fault.cuda-leak (a fifth a create) is FAILED above.
    echo "fault.cuda-pool (a quarter of the device kept as a pool)"
    timed "$cellcheck" --plugin "$plugin" check --engine fault.cuda-pool --cases "$cases" "${limits[@]}"
    if [ "$rc" -ne 0 ]; then fail "check fault.cuda-pool: exit $rc"; tail -n 8 "$tmp/out"; fi
    echo "faults_test gpu: $failures failures"
    [ "$failures" -eq 0 ]
    exit
fi

echo "fault.none (the control)"
timed "$cellcheck" --plugin "$plugin" check --engine fault.none --cases "$cases" "${limits[@]}"
if [ "$rc" -ne 0 ] || ! grep -q "0 failed" "$tmp/out"; then fail "check fault.none: exit $rc"; tail -n 5 "$tmp/out"; fi
timed "$conformance" --plugin "$plugin" --engine fault.none --cases "$cases" "${limits[@]}"
if [ "$rc" -ne 0 ]; then fail "conformance fault.none: exit $rc"; tail -n 5 "$tmp/out"; fi

# A pool is not a leak: fault.none-pool keeps two bytes a cell of its largest grid after destroy
# (8 MiB at the campaign's largest grids), past a margin of 4 MiB; certified, where fault.leak
# (256 MiB a create) is FAILED above.
echo "fault.none-pool (a process-wide pool past the margin)"
mkdir -p "$tmp/pool"
timed "$cellcheck" --plugin "$plugin" certify --engine fault.none-pool --cases "$cases" \
    --leave-out huge-grid,shapes --accept-gap huge-grid,shapes,campaign --time-limit 2 --memory-margin 4 \
    --out-dir "$tmp/pool"
if [ "$rc" -ne 0 ] || ! grep -Eq "^\| fault.none-pool \| cpu \| CERTIFIED" "$tmp/pool/certificate.md"; then
    fail "certify fault.none-pool: exit $rc"
    tail -n 8 "$tmp/out"
fi

echo "a plugin whose constructor crashes"
for cmd in list "check --engine mutant.control" "certify --engine mutant.control"; do
    timed "$cellcheck" --plugin "$ctor" $cmd
    if [ "$rc" -ne 1 ] || ! grep -q "loading plugin $ctor.*crashed (SEGV" "$tmp/out"; then
        fail "cellcheck --plugin libfaults_ctor.so $cmd: exit $rc"
        head -n 3 "$tmp/out"
    else
        echo "  $cmd: exit 1, $(head -n1 "$tmp/out")"
    fi
done
timed "$conformance" --plugin "$ctor" --engine mutant.control
if [ "$rc" -eq 0 ] || ! grep -q "crashed (SEGV" "$tmp/out"; then
    fail "conformance --plugin libfaults_ctor.so: exit $rc"
fi

echo "faults_test cpu: $failures failures"
[ "$failures" -eq 0 ]
