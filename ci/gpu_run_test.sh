#!/usr/bin/env bash
# ci/gpu_run.sh (a bundle's run.sh) on a planted bundle: arguments after -- replace a conformance
# test's own options of the same name (session.sh passes --cases 2000 over the BUILD file's
# --cases 200, which a harness refuses as given twice), keep its other arguments, and reach only
# the conformance tests.
# usage: gpu_run_test.sh GPU_RUN_SH
set -uo pipefail
root=${TEST_TMPDIR:-$(mktemp -d)}/bundle
rm -rf "$root"
mkdir -p "$root/bin"
cp "$1" "$root/run.sh"
# A stand-in for a test: refuses an option given twice, as the harness does, and prints its
# arguments on one line.
cat >"$root/bin/echo_args" <<'STANDIN'
#!/usr/bin/env bash
declare -A seen=()
for a in "$@"; do
    if [[ "$a" == --* ]]; then
        [ -z "${seen[$a]:-}" ] || { echo "option $a given twice"; exit 2; }
        seen[$a]=1
    fi
done
echo "args: $*"
STANDIN
chmod +x "$root/bin/echo_args"
# tests.tsv: name, label, shards, seconds, tags, program and its arguments, tab-separated
{
    printf '%s\t' x_conformance_test //x:x_conformance_test 1 60 - bin/echo_args --cases 200 \
        --huge-grid
    printf 'off\n'
    printf '%s\t' x_golden_test //x:x_golden_test 1 60 - bin/echo_args --cases
    printf '3\n'
} >"$root/tests.tsv"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

out=$("$root/run.sh" --jobs 1 --logs "$root/logs" -- --cases 2000 --verbose 2>&1)
grep -q "^2 passed, 0 failed, 0 skipped$" <<<"$out" || fail "run.sh did not pass both tests: $out"
conf=$(cat "$root/logs/x_conformance_test.0.out" 2>/dev/null)
[ "$conf" = "args: --huge-grid off --cases 2000 --verbose" ] ||
    fail "the conformance test's arguments: '$conf', not '--huge-grid off --cases 2000 --verbose'"
golden=$(cat "$root/logs/x_golden_test.0.out" 2>/dev/null)
[ "$golden" = "args: --cases 3" ] || fail "the golden test's arguments: '$golden', not '--cases 3'"

if [ "$failures" -gt 0 ]; then
    echo "gpu_run_test: $failures failed"
    exit 1
fi
echo "gpu_run_test: passed"
