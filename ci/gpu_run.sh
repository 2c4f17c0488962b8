#!/usr/bin/env bash
# Runs a bundle made by ci/gpu_bundle.sh where the hardware is: every *_test binary, from the
# bundle's root (so golden/ is found as under Bazel), then "N passed, N failed, N skipped".
#   run.sh [--require gpu[,amx]] [--filter REGEX] [-- extra arguments for every test]
set -uo pipefail
cd "$(dirname "$0")"
require="" filter="."
while [ $# -gt 0 ]; do
    case "$1" in
    --require) require="$2"; shift 2 ;;
    --filter) filter="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
export CELLCHECK_REQUIRE="$require"
passed=0 failed=0 skipped=0
for t in bin/*_test; do
    name=$(basename "$t")
    [[ "$name" =~ $filter ]] || continue
    extra=()
    [[ "$name" == *_conformance_test ]] && extra=("$@")
    start=$(date +%s%N)
    out=$("$t" "${extra[@]}" 2>&1)
    rc=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    if [ $rc -ne 0 ]; then
        failed=$((failed + 1)); verdict=FAILED
    elif grep -q '^SKIPPED: ' <<<"$out"; then
        skipped=$((skipped + 1)); verdict=SKIPPED
    else
        passed=$((passed + 1)); verdict=PASSED
    fi
    printf '%-48s %-8s %7dms  %s\n' "$name" "$verdict" "$ms" "$(tail -n1 <<<"$out")"
    [ $rc -eq 0 ] || tail -n 30 <<<"$out" | sed 's/^/    /'
done
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
