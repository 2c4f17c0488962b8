#!/usr/bin/env bash
# The conformance and golden drivers for plugin engines: the Make example's engine passes both,
# the same engine with a wrong seam fails conformance, a bad command line is refused, and --help
# answers without an engine. For a plugin over several devices (examples/plugin_devices), the
# reproducers of a run and of a replayed case name the device count.
set -u
conformance="$1" golden="$2" plugin="$3" wrong="$4" slabs="$5"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
out="${TEST_TMPDIR:-/tmp}/out"

"$conformance" --plugin "$plugin" --engine example.threshold --cases 60 >"$out" 2>&1 ||
    { fail "conformance of the right plugin engine"; tail -5 "$out"; }
grep -q "example.threshold: conformance PASSED" "$out" || fail "no PASSED line"
"$golden" --plugin "$plugin" --engine example.threshold --catalogue golden/catalogue.txt >"$out" 2>&1 ||
    { fail "golden of the right plugin engine"; tail -5 "$out"; }
grep -q "golden cases passed" "$out" || fail "no golden verdict"
if "$conformance" --plugin "$wrong" --engine example.threshold --cases 60 >"$out" 2>&1; then
    fail "the wrong plugin engine passed conformance"
fi
grep -q "reproduce: cellcheck --plugin /" "$out" || fail "the reproducer does not name the plugin"
"$conformance" --plugin "$plugin" >"$out" 2>&1; [ $? -eq 2 ] || fail "no --engine: not exit 2"
grep -q "engine NAME is required" "$out" || fail "no --engine: not said"
"$conformance" --plugin "$plugin" --engine no.such >"$out" 2>&1; [ $? -eq 2 ] || fail "unknown engine: not exit 2"
# --help without an engine: each driver's own flags and the driver's, exit 0.
for driver in "$conformance" "$golden"; do
    "$driver" --help >"$out" 2>&1; status=$?
    [ $status -eq 0 ] || fail "$(basename "$driver") --help: exit $status, not 0"
    grep -q "^usage: $(basename "$driver") \[--plugin PATH\]... --engine NAME" "$out" ||
        fail "$(basename "$driver") --help: no usage line: $(head -1 "$out")"
done
grep -q -- "--catalogue FILE" "$out" || fail "golden driver --help: its --catalogue not listed"
"$conformance" -h >"$out" 2>&1 || fail "conformance driver -h: not exit 0"
grep -q -- "--cases N" "$out" || fail "conformance driver -h: its --cases not listed"
CELLCHECK_PLUGINS="$plugin" "$conformance" --engine example.threshold --cases 10 >"$out" 2>&1 ||
    fail "CELLCHECK_PLUGINS not loaded"
# example.slabs-late takes halo rows from other devices one step late: caught over 2 devices.
if CELLCHECK_DEVICES=2 "$conformance" --plugin "$slabs" --engine example.slabs-late --cases 30 \
    >"$out" 2>&1; then
    fail "a plugin's device seam bug over 2 devices passed conformance"
fi
grep -q "^  reproduce: CELLCHECK_DEVICES=2 cellcheck --plugin /" "$out" ||
    fail "over 2 devices: the run's reproducer does not name the count"
line=$(sed -n "s/^  reproduce: .* --case '\(.*\)'\$/\1/p" "$out" | head -1)
CELLCHECK_DEVICES=2 "$conformance" --plugin "$slabs" --engine example.slabs-late --case "$line" \
    >"$out" 2>&1
status=$?
[ $status -eq 1 ] || fail "the replayed case over 2 devices: exit $status, not 1"
grep -q "^  reproduce: CELLCHECK_DEVICES=2 cellcheck --plugin /" "$out" ||
    fail "over 2 devices: the replayed case's reproducer does not name the count"
[ "$failures" -eq 0 ] || { echo "plugin_drivers_test: $failures failures"; exit 1; }
echo "plugin_drivers_test: all checks passed"
