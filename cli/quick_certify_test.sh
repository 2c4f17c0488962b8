#!/usr/bin/env bash
# The port author's quick loop and the certificate's source fields: certify --quick is INCOMPLETE
# with its reductions named as gaps, says it is a quick one, and stays INCOMPLETE with every gap
# accepted; --skip leaves a section out as a gap; --source-* and the plugin's CC_PLUGIN_BUILD
# string appear in certificate.json (which validates) and certificate.md.
#   quick_certify_test.sh CELLCHECK PLUGIN SCHEMA VALIDATOR
set -u
tool=$(realpath "$1") plugin=$(realpath "$2") schema=$(realpath "$3") validator=$(realpath "$4")
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

run() { # name, want status, then the command (its --out-dir is the name's directory)
    local name=$1 want=$2
    shift 2
    mkdir -p "$tmp/$name"
    "$@" --out-dir "$tmp/$name" >"$tmp/$name/out" 2>&1
    local rc=$?
    [ "$rc" -eq "$want" ] || { fail "$name: exit $rc, not $want"; tail -n 8 "$tmp/$name/out"; }
}

quick=(--plugin "$plugin" certify --engine example.threshold --quick)
run quick 4 "$tool" "${quick[@]}" --source-name threshold --source-version 1.2.0 \
    --source-commit 0123abcd --source-flags '-O2 -march=native'
python3 "$validator" "$schema" "$tmp/quick/certificate.json" || fail "quick: certificate.json does not validate"
python3 - "$tmp/quick/certificate.json" <<'PY' || fail "quick: certificate.json"
import json, sys
c = json.load(open(sys.argv[1]))
e = c["engines"][0]
gaps = [g["id"] for g in e["gaps"]]
want = {"campaign:asked", "huge-grid:asked", "shapes:asked", "sequences:asked", "seams:asked",
        "step-counts:asked", "contexts:asked"}
checks = [
    (c["quick"] is True, "quick is %r" % c["quick"]),
    (c["cases"] == 300, "cases %r" % c["cases"]),
    (e["verdict"] == "INCOMPLETE", "verdict %s" % e["verdict"]),
    (want <= set(gaps), "gaps %s lack %s" % (gaps, want - set(gaps))),
    (not any(g["accepted"] for g in e["gaps"]), "a gap accepted"),
    (e["source"]["name"] == "threshold" and e["source"]["version"] == "1.2.0" and
     e["source"]["commit"] == "0123abcd" and e["source"]["flags"] == "-O2 -march=native",
     "source %s" % e["source"]),
    ((e["source"]["build"] or "").startswith("threshold.c, compiler "), "build %r" % e["source"]["build"]),
    (len(e["plugin"]["sha256"]) == 64, "no plugin hash"),
]
bad = [m for ok, m in checks if not ok]
for m in bad: print("  " + m)
sys.exit(1 if bad else 0)
PY
md="$tmp/quick/certificate.md"
grep -q '^- a quick certificate (`certify --quick`)' "$md" || fail "quick: the Markdown does not say it is quick"
grep -q '^- source of example.threshold: name threshold, version 1.2.0, commit 0123abcd, build flags `-O2 -march=native`, the plugin says it was built with `threshold.c, compiler ' "$md" ||
    fail "quick: the Markdown does not show the source"
! grep -q 'CERTIFIED' <(grep '^| example.threshold' "$md") || fail "quick: the table says CERTIFIED"
grep -q 'quick certificate' "$tmp/quick/out" || fail "quick: the printed certificate does not say it is quick"

# Every gap accepted: still INCOMPLETE, and why.
gaps=$(python3 -c 'import json,sys; print(",".join(g["id"] for g in json.load(open(sys.argv[1]))["engines"][0]["gaps"]))' \
    "$tmp/quick/certificate.json")
run accepted 4 "$tool" "${quick[@]}" --accept-gap "$gaps"
python3 - "$tmp/accepted/certificate.json" <<'PY' || fail "quick with every gap accepted"
import json, sys
e = json.load(open(sys.argv[1]))["engines"][0]
ok = (e["verdict"] == "INCOMPLETE" and all(g["accepted"] for g in e["gaps"]) and
      "never CERTIFIED" in e["reason"] and e["source"] == {"name": None, "version": None,
      "commit": None, "flags": None, "build": e["source"]["build"]})
if not ok: print("  ", e["verdict"], e["reason"], e["source"])
sys.exit(0 if ok else 1)
PY

# --skip: a section left out by name is a gap, and the section did not run.
accepted=huge-grid,shapes,step-counts,campaign
run skip 4 "$tool" certify --engine cpu.life-ternlog --cases 30 --leave-out "$accepted" \
    --accept-gap "$accepted" --skip seams
python3 - "$tmp/skip/certificate.json" <<'PY' || fail "--skip seams"
import json, sys
e = json.load(open(sys.argv[1]))["engines"][0]
open_gaps = [g["id"] for g in e["gaps"] if not g["accepted"]]
ok = e["verdict"] == "INCOMPLETE" and open_gaps == ["seams:asked"] and e["seams"]["passed"] == 0
if not ok: print("  ", e["verdict"], open_gaps, e["seams"])
sys.exit(0 if ok else 1)
PY

# Refused before any work.
refused() { # want-in-message, then the arguments
    local want=$1
    shift
    "$tool" "$@" >"$tmp/refused.out" 2>&1
    local rc=$?
    [ "$rc" -eq 2 ] && grep -q -- "$want" "$tmp/refused.out" || { fail "$*: exit $rc"; cat "$tmp/refused.out"; }
}
refused "a control character" certify --engine cpu.ref --source-name "$(printf 'a\tb')"
refused "more than the 127" certify --engine cpu.ref --source-commit "$(printf 'x%.0s' $(seq 200))"
refused "not with --shard or --merge" certify --engine cpu.ref --quick --shard 0/2
refused "'nope' is not a section" certify --engine cpu.ref --skip nope

echo "quick_certify_test: $failures failures"
[ "$failures" -eq 0 ]
