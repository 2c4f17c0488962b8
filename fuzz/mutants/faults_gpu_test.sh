#!/usr/bin/env bash
# The CUDA faults (faults.h) against cellcheck check, its reproducer, certify and the conformance
# driver: a kernel with an illegal address is a device error, after which a fresh worker serves
# (the rest of the run goes on: fault.none-like cases after it still pass in the same command);
# a kernel that never ends times out. Without a GPU: SKIPPED, unless CELLCHECK_REQUIRE names gpu.
# Usage: faults_gpu_test.sh CELLCHECK CONFORMANCE LIBFAULTS_GPU
set -uo pipefail
cellcheck=$(realpath "$1") conformance=$(realpath "$2") plugin=$(realpath "$3")
[ -f golden/catalogue.txt ] || { echo "faults_gpu_test: run me where golden/catalogue.txt is" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
limits=(--time-limit 5)
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

if ! "$cellcheck" --plugin "$plugin" list | grep -Eq '^fault.cuda-spin +gpu +yes'; then
    why=$("$cellcheck" --plugin "$plugin" list | grep -A1 '^fault.cuda-spin' | sed -n 's/.*not here: //p')
    if [[ ",${CELLCHECK_REQUIRE:-}," == *,gpu,* ]]; then
        echo "FAILED: fault.cuda-spin: required hardware absent: ${why:-no GPU}"
        exit 1
    fi
    echo "SKIPPED: fault.cuda-*: ${why:-no GPU}"
    exit 0
fi

timed() {
    local start=$(date +%s.%N)
    "$@" >"$tmp/out" 2>&1
    rc=$?
    secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
}

check_run() { # what fault class
    local what=$1 fault=$2 class=$3
    if [ "$rc" -ne 1 ]; then fail "$what $fault: exit $rc, not 1"; tail -n 5 "$tmp/out"; return; fi
    if ! grep -Eq "$class" "$tmp/out"; then fail "$what $fault: no '$class'"; head -n 8 "$tmp/out"; fi
    local limit bound
    limit=$(grep -o 'within its limit of [0-9.]* s' "$tmp/out" | head -n1 | grep -o '[0-9.]*' | head -n1)
    bound=$(awk -v l="${limit:-0}" 'BEGIN { print l + 5 }')
    if awk -v s="$secs" -v b="$bound" 'BEGIN { exit !(s > b) }'; then fail "$what $fault: $secs s, past $bound s"; fi
    echo "  $what: exit 1, '$(grep -Eo "$class" "$tmp/out" | head -n1)', ${secs} s"
}

cases=(
    "fault.cuda-illegal-address|FAILED: fault.cuda-illegal-address: device error.*illegal"
    "fault.cuda-spin|FAILED: fault.cuda-spin: timed out.*step"
)
for entry in "${cases[@]}"; do
    fault=${entry%%|*} class=${entry#*|}
    echo "$fault"
    timed "$cellcheck" --plugin "$plugin" check --engine "$fault" --cases 50 "${limits[@]}"
    check_run check "$fault" "$class"
    cat "$tmp/out" | head -n 12
    repro=$(grep -m1 '^  reproduce: ' "$tmp/out" | sed 's/^  reproduce: cellcheck //')
    if [ -z "$repro" ]; then
        fail "check $fault: no reproducer printed"
    else
        eval "timed \"\$cellcheck\" $repro \"\${limits[@]}\""
        check_run reproducer "$fault" "$class"
    fi
    mkdir -p "$tmp/cert"
    timed "$cellcheck" --plugin "$plugin" certify --engine "$fault" --cases 50 --out-dir "$tmp/cert" "${limits[@]}"
    check_run certify "$fault" "$class"
    short=$(echo "$class" | sed -E 's/^FAILED: [^ ]+ //; s/\.\*.*//')
    grep -Eq "^\| $fault \| gpu \| FAILED \($short\)" "$tmp/cert/certificate.md" ||
        fail "certify $fault: its certificate row does not name '$short'"
    grep "^| $fault" "$tmp/cert/certificate.md"
    timed "$conformance" --plugin "$plugin" --engine "$fault" --cases 50 "${limits[@]}"
    check_run conformance "$fault" "$class"
done
echo "faults_gpu_test: $failures failures"
[ "$failures" -eq 0 ]
