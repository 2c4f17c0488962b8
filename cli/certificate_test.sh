#!/usr/bin/env bash
# Real certificates against cli/certificate.schema.json, and the JUnit report: two CPU engines
# that pass, a plugin engine that fails, and (where no GPU is) a GPU engine NOT RUN. Broken
# certificates and XML must be rejected, so each check is shown able to fail.
set -u
tool="$1" schema="$2" validator="$3" plugin="$4" wrong_plugin="$5" sections_table="$6"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# A python3 that has jsonschema (Debian's python3-jsonschema, installed by ci/setup.sh): the
# one on PATH, else the system's.
python=""
for candidate in python3 /usr/bin/python3; do
    if "$candidate" -c 'import jsonschema' 2>/dev/null; then
        python="$candidate"
        break
    fi
done
if [ -z "$python" ]; then
    echo "FAIL: no python3 with the jsonschema module (ci/setup.sh installs python3-jsonschema)"
    exit 1
fi

# certify_into DIR EXPECTED_STATUS ARGS...: one certify run with its certificates and JUnit in DIR.
certify_into() {
    local dir="$tmp/$1" want="$2"
    shift 2
    mkdir -p "$dir"
    "$tool" "$@" --cases 20 --huge-grid off --out-dir "$dir" --junit "$dir/junit.xml" \
        >"$dir/out" 2>"$dir/err"
    local got=$?
    if [ "$got" -ne "$want" ]; then
        fail "certify $*: exit $got, wanted $want"
        tail -20 "$dir/out" "$dir/err" | sed 's/^/    /'
    fi
}

# --huge-grid off leaves the case past 2^32 cells out: accepted by name, CERTIFIED; not accepted,
# INCOMPLETE (exit 4), the gap named in every certificate.
# 20 campaign cases, not 2000, are a gap too (campaign:asked), accepted in every run here.
certify_into bitslice1 0 certify --engine cpu.bitslice1 --accept-gap huge-grid,campaign
certify_into threshold 0 --plugin "$plugin" certify --engine example.threshold --accept-gap huge-grid:asked,campaign:asked
certify_into wrong 1 --plugin "$wrong_plugin" certify --engine example.threshold
certify_into incomplete 4 certify --engine cpu.bitslice1 --accept-gap campaign
certificates=("$tmp/bitslice1/certificate.json" "$tmp/threshold/certificate.json"
              "$tmp/wrong/certificate.json" "$tmp/incomplete/certificate.json")
if "$tool" list | grep -q '^cuda.base .* no '; then
    # No GPU here: the engine is NOT RUN, and its JUnit suite skipped.
    certify_into absent 0 certify --engine cuda.base --absent-ok
    certificates+=("$tmp/absent/certificate.json")
fi

# Every real certificate is valid.
"$python" "$validator" "$schema" "${certificates[@]}" >"$tmp/valid" 2>&1 ||
    { fail "a real certificate is not valid"; sed 's/^/    /' "$tmp/valid"; }

# The failing engine's certificate names its failure as the text report does.
"$python" - "$tmp/wrong/certificate.json" "$tmp/wrong/out" "$(realpath "$wrong_plugin")" >"$tmp/failure" 2>&1 <<'PY' ||
import json, sys
cert = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
e = cert["engines"][0]
f = e["failure"]
assert e["verdict"] == "FAILED", e["verdict"]
assert f["class"] == "mismatch with the oracle", f["class"]
assert f["section"] == "edge cases", f["section"]
assert f["case"] and f["case"].startswith("rule="), f["case"]
assert f["master_seed"] == cert["seed"], f["master_seed"]
# The reproducer is the first one the report prints, and it carries the plugin.
first = [l.split("reproduce: ", 1)[1] for l in text.splitlines() if l.startswith("  reproduce: ")][0]
assert f["reproducer"] == first, (f["reproducer"], first)
assert f["case"] in f["reproducer"] and "--plugin" in f["reproducer"], f["reproducer"]
assert e["plugin"]["path"] == sys.argv[3], e["plugin"]
PY
    { fail "the failing certificate's failure"; sed 's/^/    /' "$tmp/failure"; }

# The plugin's hash is the file's.
want_sha=$(sha256sum "$wrong_plugin" | cut -d' ' -f1)
grep -q "\"sha256\": \"$want_sha\"" "$tmp/wrong/certificate.json" ||
    fail "certificate.json does not carry the plugin's SHA-256 $want_sha"
grep -q "SHA-256 $want_sha" "$tmp/wrong/certificate.md" ||
    fail "certificate.md does not carry the plugin's SHA-256 $want_sha"
for want in '^- built with: .*, .* mode, flags `' '^- goldens: ' '^- OS: ' '^- CPU: '; do
    grep -q "$want" "$tmp/bitslice1/certificate.md" || fail "certificate.md lacks '$want'"
done
# The Markdown renders as a job summary: the heading first, one table, no line but a blank one
# between blocks.
"$python" - "$tmp/wrong/certificate.md" >"$tmp/markdown" 2>&1 <<'PY' ||
import sys
lines = open(sys.argv[1]).read().split("\n")
assert lines[0] == "# cellcheck certificate", lines[0]
assert lines[-1] == "" and lines[-2] != "", "the file ends with one line break"
tables = [i for i, l in enumerate(lines) if l.startswith("| engine |")]
assert len(tables) == 1, tables
assert lines[tables[0] - 1] == "" and lines[tables[0] + 1].startswith("| --- |")
for a, b in zip(lines, lines[1:]):
    assert a or b, "two blank lines in a row"
PY
    { fail "certificate.md as Markdown"; sed 's/^/    /' "$tmp/markdown"; }

# The gaps: an accepted one leaves the engine CERTIFIED and says it was accepted; one not
# accepted makes it INCOMPLETE in the JSON, the Markdown and the run's last lines.
"$python" - "$tmp" >"$tmp/gaps" 2>&1 <<'PY' ||
import json, sys
tmp = sys.argv[1]
accepted = json.load(open(f"{tmp}/bitslice1/certificate.json"))["engines"][0]
assert accepted["verdict"] == "CERTIFIED", accepted["verdict"]
assert [(g["id"], g["accepted"]) for g in accepted["gaps"]] == [("huge-grid:asked", True), ("campaign:asked", True)], accepted["gaps"]
open_gap = json.load(open(f"{tmp}/incomplete/certificate.json"))["engines"][0]
assert open_gap["verdict"] == "INCOMPLETE", open_gap["verdict"]
assert [(g["id"], g["accepted"], g["count"]) for g in open_gap["gaps"]] == [("huge-grid:asked", False, 1), ("campaign:asked", True, 1)], open_gap["gaps"]
assert "--huge-grid off" in open_gap["gaps"][0]["reason"], open_gap["gaps"][0]["reason"]
md = open(f"{tmp}/incomplete/certificate.md").read()
assert "| INCOMPLETE (1 gaps) |" in md, "the table's verdict"
assert "- cpu.bitslice1, `huge-grid:asked`: 1 left out: left out by --huge-grid off" in md, md
assert "accepted by --accept-gap" in open(f"{tmp}/bitslice1/certificate.md").read()
out = open(f"{tmp}/incomplete/out").read().rstrip("\n").split("\n")
assert out[-1] == "0 certified, 0 failed, 0 not run here, 1 incomplete", out[-1]
assert out[-3] == "  cpu.bitslice1: huge-grid:asked, 1 left out: left out by --huge-grid off", out[-3]
assert out[-2].startswith("  cpu.bitslice1: campaign:asked, 1 left out: 20 campaign cases"), out[-2]
assert out[-4].startswith("Gaps (checks left out"), out[-4]
PY
    { fail "the gaps in the certificates"; sed 's/^/    /' "$tmp/gaps"; }

# Broken certificates are rejected: a required field missing, a wrong type, a failure without
# its reproducer, a FAILED engine without a failure, CERTIFIED over a gap left open, INCOMPLETE
# naming no gap.
"$python" - "$tmp/wrong/certificate.json" "$tmp" <<'PY'
import json, sys
base = json.load(open(sys.argv[1]))
def broken(name, change):
    c = json.loads(json.dumps(base))
    change(c)
    json.dump(c, open(f"{sys.argv[2]}/broken-{name}.json", "w"))
broken("no-schema-version", lambda c: c.pop("schema_version"))
broken("cases-string", lambda c: c.__setitem__("cases", "20"))
broken("no-reproducer", lambda c: c["engines"][0]["failure"].pop("reproducer"))
broken("failed-without-failure", lambda c: c["engines"][0].__setitem__("failure", None))
broken("bad-sha256", lambda c: c["engines"][0]["plugin"].__setitem__("sha256", "xyz"))
base = json.load(open(f"{sys.argv[2]}/bitslice1/certificate.json"))
broken("certified-open-gap", lambda c: c["engines"][0]["gaps"][0].__setitem__("accepted", False))
broken("incomplete-no-gap", lambda c: (c["engines"][0].__setitem__("verdict", "INCOMPLETE"),
                                       c["engines"][0].__setitem__("gaps", [])))
PY
for broken in no-schema-version cases-string no-reproducer failed-without-failure bad-sha256 \
    certified-open-gap incomplete-no-gap; do
    "$python" "$validator" "$schema" "$tmp/broken-$broken.json" >"$tmp/out-$broken" 2>&1
    status=$?
    [ "$status" -eq 1 ] || fail "a certificate with $broken: validator exit $status, wanted 1"
    grep -q "^INVALID " "$tmp/out-$broken" || fail "a certificate with $broken was not rejected"
done

# The JUnit reports: well-formed, one suite per engine, one case per section; the failing one
# names its section, case and reproducer; the absent engine is skipped.
"$python" - "$tmp" "$tmp/wrong/certificate.json" "$sections_table" <<'PY' >"$tmp/junit" 2>&1 ||
import json, os, re, sys
import xml.etree.ElementTree as ET
tmp = sys.argv[1]
# The sections as the table of the harness names them, in its order, then the goldens.
rows = re.findall(r'^CC_SECTION_ROW\(\w+, \w+, "[^"]+", "([^"]+)"\)', open(sys.argv[3]).read(), re.M)
assert len(rows) >= 13 and rows[0] == "edge cases", rows
sections = rows + ["goldens"]
def suite(name):
    root = ET.parse(f"{tmp}/{name}/junit.xml").getroot()
    assert root.tag == "testsuites", root.tag
    suites = root.findall("testsuite")
    assert len(suites) == 1, len(suites)
    names = [c.get("name") for c in suites[0].findall("testcase")]
    assert [n for n in names if not n.startswith("gap ")] == sections, names
    return suites[0]
for name in ["bitslice1", "threshold"]:
    s = suite(name)
    assert s.get("failures") == "0" and not s.findall(".//failure"), name
failure = json.load(open(sys.argv[2]))["engines"][0]["failure"]
s = suite("wrong")
assert s.get("name") == "example.threshold" and s.get("failures") == "1", s.attrib
failed = [c for c in s.findall("testcase") if c.find("failure") is not None]
assert [c.get("name") for c in failed] == ["edge cases"], [c.get("name") for c in failed]
f = failed[0].find("failure")
assert f.get("type") == "mismatch with the oracle", f.get("type")
assert "case: " + failure["case"] in f.text, f.text
assert "reproduce: " + failure["reproducer"] in f.text, f.text
# Each gap is a skipped case of its own, named as --accept-gap takes it.
s = suite("incomplete")
gaps = [c for c in s.findall("testcase") if c.get("name").startswith("gap ")]
assert [c.get("name") for c in gaps] == ["gap huge-grid:asked", "gap campaign:asked"], [c.get("name") for c in gaps]
assert "--huge-grid off" in gaps[0].find("skipped").get("message")
assert s.findall("properties/property[@name='verdict']")[0].get("value") == "INCOMPLETE"
if os.path.exists(f"{tmp}/absent/junit.xml"):
    s = suite("absent")
    assert all(c.find("skipped") is not None for c in s.findall("testcase")), "absent not skipped"
# The parser this check relies on rejects a malformed report.
try:
    ET.fromstring("<testsuites><testsuite></testsuites>")
    raise SystemExit("malformed XML was accepted")
except ET.ParseError:
    pass
PY
    { fail "the JUnit reports"; sed 's/^/    /' "$tmp/junit"; }

# --junit is checked before any work, and a refused run writes nothing.
mkdir -p "$tmp/refused"
"$tool" certify --engine cpu.bitslice1 --out-dir "$tmp/refused" --junit "$tmp/refused" \
    >"$tmp/refused.out" 2>&1
status=$?
[ "$status" -eq 2 ] || fail "--junit naming a directory: exit $status, wanted 2"
grep -q -- "--junit $tmp/refused is not a regular file" "$tmp/refused.out" ||
    fail "--junit naming a directory: the message does not say so"
[ -z "$(ls -A "$tmp/refused")" ] || fail "a refused certify wrote $(ls -A "$tmp/refused")"

if [ "$failures" -gt 0 ]; then
    echo "certificate_test: $failures failures"
    exit 1
fi
echo "certificate_test: all checks passed"
