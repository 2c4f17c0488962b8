#!/usr/bin/env bash
# What scripts and CI read: check --keep-going past every failing case of a wrong engine, with a
# JUnit test case per case (a <failure> for exactly the cases that failed) and the same cases in
# --json; list --json and run --json parsed and their fields compared with what the text says.
#   machine_readable_test.sh CELLCHECK RIGHT_PLUGIN WRONG_PLUGIN CONFORMANCE_DRIVER
set -u
tool=$(realpath "$1") right=$(realpath "$2") wrong=$(realpath "$3") driver=$(realpath "$4")
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
cd "$tmp" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# A wrong engine, every case run: the failures named on stderr are those of the JUnit and JSON.
"$tool" --plugin "$wrong" check --engine example.threshold --cases 30 --keep-going \
    --junit wrong.xml --json >wrong.json 2>wrong.err
rc=$?
[ "$rc" -eq 1 ] || fail "check --keep-going of a wrong engine: exit $rc, not 1"
python3 - wrong.xml wrong.json wrong.err <<'PY' || fail "the wrong engine's reports disagree"
import json, re, sys
import xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot().find("testsuite")
doc = json.load(open(sys.argv[2]))
named = set(int(n) for n in re.findall(r"^FAILED: example.threshold: case (\d+) of master seed",
                                      open(sys.argv[3]).read(), re.M))
cases = suite.findall("testcase")
failed_xml = set(int(c.get("name").split()[1]) for c in cases if c.find("failure") is not None)
failed_json = set(c["index"] for c in doc["cases"] if c["outcome"] == "failed")
checks = [
    (len(cases) == 30, "%d test cases, not 30" % len(cases)),
    ([c.get("name") for c in cases] == ["case %d" % i for i in range(30)], "cases out of order"),
    (suite.get("failures") == str(len(failed_xml)), "failures=%s" % suite.get("failures")),
    (len(named) >= 2, "only %d failures named: --keep-going stopped" % len(named)),
    (failed_xml == named, "JUnit failures %s, named %s" % (sorted(failed_xml), sorted(named))),
    (failed_json == named, "JSON failures %s, named %s" % (sorted(failed_json), sorted(named))),
    (doc["engine"] == "example.threshold" and doc["run"] == 30 and doc["keep_going"] is True,
     "JSON header %s" % {k: v for k, v in doc.items() if k != "cases"}),
    (doc["failed"] == len(named) and doc["passed"] + doc["refused"] + doc["failed"] == 30,
     "JSON totals"),
]
for c in cases:
    f = c.find("failure")
    if f is not None:
        checks.append((f.get("message").startswith("mismatch with the oracle: ") and
                       "reproduce: cellcheck --plugin" in f.text and "--case 'rule=" in f.text,
                       "failure of %s: %s / %s" % (c.get("name"), f.get("message"), f.text)))
for c in doc["cases"]:
    checks.append((c["case"].startswith("rule=") and (c["outcome"] == "failed") ==
                   (c["class"] is not None), "JSON case %s" % c))
bad = [m for ok, m in checks if not ok]
for m in bad: print("  " + m)
sys.exit(1 if bad else 0)
PY
echo "wrong engine: $(grep -c '<failure' wrong.xml) failures of $(grep -c '<testcase' wrong.xml) cases"

# Without --keep-going the campaign stops at its first failure: one case failed, fewer run.
"$tool" --plugin "$wrong" check --engine example.threshold --cases 30 --json >first.json 2>/dev/null
python3 -c 'import json,sys; d=json.load(open("first.json")); sys.exit(0 if d["failed"] == 1 and d["run"] < 30 else 1)' ||
    fail "without --keep-going the campaign did not stop at its first failure"

# A right engine: every case passes, no failure element.
"$tool" --plugin "$right" check --engine example.threshold --cases 10 --junit right.xml >right.out 2>&1 ||
    fail "check of a right engine failed"
[ "$(grep -c '<testcase' right.xml)" -eq 10 ] || fail "right engine: not 10 test cases"
! grep -q '<failure' right.xml || fail "right engine: a failure in its JUnit"

# One case replayed: one test case.
line=$(python3 -c 'import json; print([c["case"] for c in json.load(open("wrong.json"))["cases"] if c["outcome"] == "failed"][0])')
"$tool" --plugin "$wrong" check --engine example.threshold --case "$line" --junit one.xml --json \
    >one.json 2>/dev/null
[ $? -eq 1 ] || fail "a failing case replayed did not exit 1"
python3 -c 'import json,sys; d=json.load(open("one.json")); sys.exit(0 if d["failed"] == 1 and d["cases"][0]["case"] == sys.argv[1] else 1)' "$line" ||
    fail "the replayed case's JSON"
[ "$(grep -c '<failure' one.xml)" -eq 1 ] || fail "the replayed case's JUnit has no failure"

# Refused before any work.
"$tool" check --engine cpu.ref --case "$line" --keep-going >/dev/null 2>err.txt
[ $? -eq 2 ] && grep -q -- "--keep-going goes on past a failing case" err.txt || fail "--keep-going with --case"
"$tool" check --engine cpu.ref --cases 5 --junit "$tmp/no/such/dir/j.xml" >/dev/null 2>err.txt
[ $? -eq 2 ] && grep -q "not a writable directory" err.txt || fail "--junit into a missing directory"

# list --json: the engines of the text, with the plugin's.
"$tool" --plugin "$right" list --json >list.json || fail "list --json failed"
"$tool" --plugin "$right" list >list.txt
python3 - list.json list.txt <<'PY' || fail "list --json"
import json, sys
doc = json.load(open(sys.argv[1]))
names = [e["name"] for e in doc["engines"]]
text = [l.split()[0] for l in open(sys.argv[2]).read().splitlines()[1:] if l and not l.startswith(" ")]
plugin = [e for e in doc["engines"] if e["name"] == "example.threshold"]
ok = names == text and names[0] == "oracle" and "cpu.ref" in names and len(plugin) == 1
ok = ok and plugin[0]["plugin"].endswith(".so") and plugin[0]["here"] is True
ok = ok and all(set(e) == {"name", "needs", "here", "why_not", "caps", "summary", "plugin",
                           "over_devices"} for e in doc["engines"])
if not ok: print("  list --json: %s\n  text: %s" % (names, text))
sys.exit(0 if ok else 1)
PY

# run --json: a glider after 4 steps, the same 5 cells, one cell over on each side.
printf '00000000\n00100000\n00010000\n01110000\n00000000\n00000000\n00000000\n00000000\n' >glider.txt
"$tool" run --engine cpu.ref --rule B3/S23 --steps 4 --in glider.txt --out g.txt --json >run.json ||
    fail "run --json failed"
python3 - run.json <<'PY' || fail "run --json: $(cat run.json)"
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if (d["engine"], d["rule"], d["topology"], d["steps"], d["width"], d["height"],
               d["alive_before"], d["alive_after"], d["out"]) ==
         ("cpu.ref", "B3/S23", "torus", 4, 8, 8, 5, 5, "g.txt") and d["seconds"] >= 0 else 1)
PY
cmp -s g.txt <(printf '00000000\n00000000\n00010000\n00001000\n00111000\n00000000\n00000000\n00000000\n') ||
    fail "run --json changed the grid written"

# The conformance driver's JUnit: a test case per section, the wrong engine's failure on the
# section that met it with its case and reproducer, the sections after it skipped.
"$driver" --plugin "$wrong" --engine example.threshold --cases 20 --junit conf.xml >conf.out 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "the conformance driver on a wrong engine: exit $rc, not 1"
python3 - conf.xml conf.out <<'PY' || fail "the conformance driver's JUnit"
import re, sys
import xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot().find("testsuite")
cases = suite.findall("testcase")
failed = [c for c in cases if c.find("failure") is not None]
skipped = [c for c in cases if c.find("skipped") is not None]
out = open(sys.argv[2]).read()
ok = (len(cases) >= 15 and len(failed) == 1 and suite.get("failures") == "1" and
      len(skipped) == len(cases) - 1 - sum(1 for c in cases[:cases.index(failed[0])]))
f = failed[0].find("failure") if failed else None
ok = ok and f is not None and "case: rule=" in f.text and "reproduce: cellcheck --plugin" in f.text
ok = ok and f.get("message").split(": ", 1)[1].split(":")[0] in out
if not ok:
    print("  %d cases, %d failed, %d skipped" % (len(cases), len(failed), len(skipped)))
sys.exit(0 if ok else 1)
PY
"$driver" --plugin "$wrong" --engine example.threshold --junit "$tmp/no/such/dir/c.xml" >/dev/null 2>err.txt
[ $? -eq 2 ] && grep -q "not a writable directory" err.txt || fail "the driver's --junit into a missing directory"

echo "machine_readable_test: $failures failures"
[ "$failures" -eq 0 ]
