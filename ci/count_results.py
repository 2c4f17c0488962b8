#!/usr/bin/env python3
"""Counts a `bazel test` run from Bazel's machine-readable results, for .ci/run.

usage: count_results.py --bep FILE [--lines LOG] [--status N]

--bep:    the Build Event Protocol JSON file of the run (--build_event_json_file): each test
          target, its overall status, and the test.xml and test.log of each shard.
--lines:  a log whose "EXAMPLE <name> PASSED|FAILED" and "CHECK <name> PASSED|FAILED" lines
          (ci/examples.sh, ci/lint.sh: scripts outside Bazel) count too.
--status: the exit status of the run; non-zero with no failure counted counts one.

A test that passed is counted as skipped when its hardware was absent: its test.xml marks every
test case <skipped> (cc_harness_skip writes it so), or the last line of its output is
"SKIPPED: <what>: <reason>" (tests that print it themselves). Prints "skipped LABEL: reason" for
each, then "N passed, N failed, N skipped"; exits 0 when nothing failed, else 1."""
import argparse
import json
import os
import re
import sys
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET

PASSING = {"PASSED", "FLAKY"}


def local_path(uri):
    """The file a BEP file:// URI names, or None."""
    if not uri.startswith("file://"):
        return None
    return urllib.request.url2pathname(urllib.parse.urlparse(uri).path)


def xml_skip_reason(path):
    """The skip message where every test case of the test.xml at path is <skipped>, else None."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return None
    cases = root.findall(".//testcase")
    skipped = [c.find("skipped") for c in cases]
    if not cases or any(s is None for s in skipped):
        return None
    return skipped[0].get("message") or "skipped"


def log_skip_reason(path):
    """The last line of a test.log when it is a SKIPPED line, else None (a test may print such
    lines while checking the skip logic itself, and then go on)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = [l.rstrip("\n") for l in f]
    except OSError:
        return None
    lines = [l for l in lines if l.strip() and "src/main/tools/linux-sandbox" not in l]
    if lines and lines[-1].startswith("SKIPPED: "):
        return lines[-1][len("SKIPPED: "):]
    return None


def read_bep(path):
    """{label: overall status} and {label: [(test.xml, test.log), ...]} for every test target."""
    summaries, outputs, tests, failed_targets = {}, {}, set(), set()
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                event = json.loads(line)
            except ValueError as e:
                raise SystemExit(f"count_results: {path}:{number}: not JSON: {e}")
            ident = event.get("id", {})
            if "targetConfigured" in ident:
                configured = event.get("configured", {})
                if "testSize" in configured or configured.get("targetKind", "").endswith(" test"):
                    tests.add(ident["targetConfigured"]["label"])
            elif "targetCompleted" in ident:
                if not event.get("completed", {}).get("success", False):
                    failed_targets.add(ident["targetCompleted"]["label"])
            elif "testSummary" in ident:
                label = ident["testSummary"]["label"]
                summaries[label] = event.get("testSummary", {}).get("overallStatus", "NO_STATUS")
            elif "testResult" in ident:
                label = ident["testResult"]["label"]
                files = {o.get("name"): local_path(o.get("uri", ""))
                         for o in event.get("testResult", {}).get("testActionOutput", [])}
                outputs.setdefault(label, []).append((files.get("test.xml"), files.get("test.log")))
    # A test target that never got a summary did not build (or Bazel stopped first).
    for label in tests:
        summaries.setdefault(label, "FAILED_TO_BUILD" if label in failed_targets else "NO_STATUS")
    return summaries, outputs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bep", required=True)
    parser.add_argument("--lines")
    parser.add_argument("--status", type=int, default=0)
    args = parser.parse_args()

    passed = failed = skipped = 0
    notes = []
    summaries, outputs = ({}, {})
    if os.path.exists(args.bep) and os.path.getsize(args.bep) > 0:
        summaries, outputs = read_bep(args.bep)
    for label in sorted(summaries):
        status = summaries[label]
        if status not in PASSING:
            failed += 1
            notes.append(f"failed {label}: {status}")
            continue
        reason = None
        for xml, log in outputs.get(label, []):
            reason = (xml and xml_skip_reason(xml)) or (log and log_skip_reason(log))
            if reason:
                break
        if reason:
            skipped += 1
            notes.append(f"skipped {label}: {reason}")
        else:
            passed += 1

    if args.lines:
        verdict_line = re.compile(r"^(EXAMPLE|CHECK) (\S+) (PASSED|FAILED)$")
        with open(args.lines, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = verdict_line.match(line.rstrip("\n"))
                if m:
                    if m.group(3) == "PASSED":
                        passed += 1
                    else:
                        failed += 1

    for note in notes:
        print(note)
    if args.status != 0 and failed == 0:
        print(f"the run exited with status {args.status} before reporting a failing test")
        failed = 1
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 0 if args.status == 0 and failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
