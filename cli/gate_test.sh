#!/usr/bin/env bash
# The performance gate: the committed baselines hold on this machine (lines for other devices are
# skipped), and the gate fails when a bound is broken or a line is malformed.
set -u
tool="$1"
baselines="$2"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
# The gate times CPU engines on one thread whatever the environment asks (their baselines were
# measured so): a team of two here must not decide a ratio.
export OMP_NUM_THREADS=2
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

skip=""
"$tool" gate --baselines "$baselines" >"$tmp/out" 2>&1
status=$?
cat "$tmp/out"
case $status in
0) ;;
3) skip="SKIPPED: gate: no line of the committed baselines is for this machine's device" ;;
*) fail "the committed baselines do not hold here (status $status)" ;;
esac

# A baselines file with no line for this device gates nothing, and must not pass for it.
printf '# only comments\n' >"$tmp/none.txt"
"$tool" gate --baselines "$tmp/none.txt" >"$tmp/out" 2>&1
[ $? -eq 3 ] || fail "a gate that applied no line did not exit 3"
grep -q 'nothing was gated' "$tmp/out" || fail "a gate that applied no line does not say so"

# An empty device applies everywhere; these bounds cannot hold.
printf ' | cpu.amx-emu | flat | 64 | 1,16 | 0.001\n' >"$tmp/flat.txt"
"$tool" gate --baselines "$tmp/flat.txt" >"$tmp/flat.out" 2>&1 && fail "an impossible flatness bound passed"
grep -q '^FAILED  line 1 cpu.amx-emu' "$tmp/flat.out" || fail "the broken flatness bound is not reported"
printf ' | cpu.bitslice2 | cpu.ref | 64 | 1 | 1e9\n' >"$tmp/speed.txt"
"$tool" gate --baselines "$tmp/speed.txt" >"$tmp/out" 2>&1 && fail "an impossible speed-up bound passed"
grep -q '^FAILED  line 1 cpu.bitslice2 over cpu.ref' "$tmp/out" || fail "the broken speed-up bound is not reported"
grep -q '^FAILED  line 1 cpu.bitslice2 over cpu.ref r=1 64x64, 1 thread:' "$tmp/out" ||
    fail "the CPU engines were not timed on one thread: $(grep '^FAILED' "$tmp/out")"
grep -q '(64x64, 1 thread)$' "$tmp/flat.out" ||
    fail "the flatness line was not timed on one thread: $(cat "$tmp/flat.out")"
printf ' | cpu.bitslice2 | cpu.ref | 64 | 1\n' >"$tmp/short.txt"
"$tool" gate --baselines "$tmp/short.txt" >"$tmp/out" 2>&1 && fail "a line with five fields was accepted"
grep -q 'line 1: 5 fields' "$tmp/out" || fail "the malformed line's message does not say what is wrong"
printf ' | cpu.nothing | flat | 64 | 1,16 | 1.5\n' >"$tmp/engine.txt"
"$tool" gate --baselines "$tmp/engine.txt" >"$tmp/out" 2>&1 && fail "an unknown engine was accepted"
grep -q "no engine named 'cpu.nothing'" "$tmp/out" || fail "the unknown engine is not named"
# A radius with no workload (the gate's rules are Table VI's, r <= 16) is refused on every machine,
# though the line names a device that is not here.
printf 'NO SUCH DEVICE | cuda.runsum | flat | 32768 | 5,32 | 1.1\n' >"$tmp/radius.txt"
"$tool" gate --baselines "$tmp/radius.txt" >"$tmp/out" 2>&1 &&
    fail "a radius with no workload was accepted"
grep -q "line 1: cuda.runsum: radius 32: Table VI has rules for radius 1..16 only" "$tmp/out" ||
    fail "the radius with no workload is not named: $(cat "$tmp/out")"
# A rules claim: each rule after the first against it, on one grid; an impossible bound fails
# for each, and a rules line that names radii, or one rule, is refused as malformed.
printf ' | cpu.bitslice2 | rules B3/S23,B3678/S34678,B2/S | 64 | - | 0.001\n' >"$tmp/rules.txt"
"$tool" gate --baselines "$tmp/rules.txt" >"$tmp/out" 2>&1 && fail "an impossible rules bound passed"
[ "$(grep -c '^FAILED  line 1 cpu.bitslice2: t(B.*) / t(B3/S23) = ' "$tmp/out")" -eq 2 ] ||
    fail "the broken rules bound is not reported for each rule: $(cat "$tmp/out")"
# Rules whose text holds commas, separated by ';': Moore against the cross at r = 2.
moore='R2,C2,M0,S7..12,B8..11,NM' cross='R2,C2,M0,S2..4,B2..3,N+'
printf ' | cpu.runsum-emu | rules %s; %s | 64 | - | 0.001\n' "$moore" "$cross" >"$tmp/rules.txt"
"$tool" gate --baselines "$tmp/rules.txt" >"$tmp/out" 2>&1 && fail "an impossible rules bound passed"
grep -qF "FAILED  line 1 cpu.runsum-emu: t($cross) / t($moore) = " "$tmp/out" ||
    fail "rules separated by ';' were not each timed: $(cat "$tmp/out")"
printf ' | cpu.bitslice2 | rules B3/S23,B2/S | 64 | 1 | 2\n' >"$tmp/rules.txt"
"$tool" gate --baselines "$tmp/rules.txt" >"$tmp/out" 2>&1 && fail "a rules line with radii was accepted"
grep -q "line 1: radii '1': a rules claim takes its rules' radii" "$tmp/out" ||
    fail "the rules line with radii is not named: $(cat "$tmp/out")"
printf ' | cpu.bitslice2 | rules B3/S23 | 64 | - | 2\n' >"$tmp/rules.txt"
"$tool" gate --baselines "$tmp/rules.txt" >"$tmp/out" 2>&1 && fail "a rules line of one rule was accepted"
grep -q "a rules claim needs two rules or more" "$tmp/out" || fail "the one-rule line is not named"

if [ "$failures" -gt 0 ]; then
    echo "gate_test: $failures failures"
    exit 1
fi
echo "gate_test: all checks passed"
# Last, so the test counts as skipped by name when the machine's own baselines could not be tried.
[ -z "$skip" ] || echo "$skip"
