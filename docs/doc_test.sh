#!/usr/bin/env bash
# Runs the shell blocks of README.md and docs/*.md against the built cellcheck
# (docs/run_doc_blocks.py): every block marked `run` must end as it says, every other shell block
# must say why it cannot run here. First shows the runner failing on a page of wrong commands.
#   doc_test.sh TOOL RUNNER GOLDEN_CATALOGUE BROKEN_PAGE PAGE...
set -u
tool="$1" runner="$2" catalogue="$3" broken="$4"
shift 4
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
golden=$(dirname "$catalogue")

python=""
for candidate in /usr/bin/python3 python3; do
    if command -v "$candidate" >/dev/null 2>&1; then
        python="$candidate"
        break
    fi
done
if [ -z "$python" ]; then
    # A GPU runner's image may lack it (ci/setup.sh installs it wherever Bazel runs): skipped,
    # never passed, in the log and in the test's own test.xml.
    reason="no python3 here to run the pages' commands (ci/setup.sh installs it)"
    if [ -n "${XML_OUTPUT_FILE:-}" ]; then
        printf '%s\n' '<?xml version="1.0" encoding="UTF-8"?>' '<testsuites>' \
            '  <testsuite name="docs" tests="1" failures="0" errors="0" skipped="1">' \
            '    <testcase name="doc_test" classname="docs">' \
            "      <skipped message=\"$reason\"/>" '    </testcase>' '  </testsuite>' \
            '</testsuites>' >"$XML_OUTPUT_FILE"
    fi
    echo "SKIPPED: docs: $reason"
    exit 0
fi

# The runner can fail: of the broken page's blocks, two fail, two are badly marked, one passes
# and one is skipped.
"$python" "$runner" --tool "$tool" --golden "$golden" --scratch "$tmp/broken" "$broken" \
    >"$tmp/broken.out" 2>&1
status=$?
summary=$(tail -1 "$tmp/broken.out")
if [ "$status" -ne 1 ] || [ "$summary" != "doc commands: 3 run, 1 skipped, 4 failed" ]; then
    echo "FAIL: the runner on $broken: exit $status, '$summary'; wanted exit 1 and" \
        "'doc commands: 3 run, 1 skipped, 4 failed'"
    sed 's/^/    /' "$tmp/broken.out"
    exit 1
fi
echo "the runner fails a broken page: $summary"

exec "$python" "$runner" --tool "$tool" --golden "$golden" --scratch "$tmp/pages" --timeout 240 "$@"
