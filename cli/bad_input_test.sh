#!/usr/bin/env bash
# Every bad input of testdata/bad_inputs.txt: the exit status it must have, the words its message
# must hold, within 2 s each (none may hang or start large work before refusing).
#   bad_input_test.sh CELLCHECK TABLE
set -u
tool=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
table=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
work="${TEST_TMPDIR:-$(mktemp -d)}/bad_inputs"
mkdir -p "$work" && cd "$work" || exit 1

# The files the table names.
printf 'x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n' >ok.rle
printf '010\n001\n111\n' >ok.txt
printf 'x=477477,y=7272\n,y=7272\n!' >lie.rle
printf 'x=477477,y=727272\n!' >huge.rle
printf 'x = 3, y = 3\nbo$2bo$3o' >trunc.rle
printf 'x = 3, y = 3\nbo$2bz$3o!' >token.rle
printf 'x = 3, y = 3\nbo$2bC$3o!' >multi.rle
printf 'x = 0, y = 3\n!' >x0.rle
printf 'x = 99999999999, y = 3\n!' >hugex.rle
printf 'x = 3, y = 3\n0o!' >count0.rle
printf 'x = 3, y = 1\no$o!' >rows.rle
printf 'x = 3, y = 3\n4o!' >long.rle
printf 'bo$2bo$3o!' >noheader.rle
: >empty.rle
printf '#C only\n#C comments\n' >comments.rle
printf 'x = 3, y = 3, rule = Q\nbo!' >badrule.rle
printf 'x = 3, y = 3, rule = B3/S23:T2,2\n3o!' >badtorus.rle
printf 'x = 9, y = 3\n2 3o!' >twocounts.rle
printf 'x = 3, y = 3\no2!' >countbang.rle
printf '010\n01\n111\n' >ragged.txt
printf '010\n0x1\n111\n' >chars.txt
: >emptyt.txt
printf '\n\n' >blank.txt
printf '012\n001\n111\n' >two.txt
printf 'gpu | cuda.base | flat | 32768 | 1 | 2.0 | extra\n' >gate1.txt
printf 'NVIDIA H100 | cpu.nothing | flat | 32768 | 1 | 2.0\n' >gate2.txt
printf 'x | cpu.ref | flat | 32 | 1 | -3\n' >gate3.txt

entries=0 failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
while IFS='|' read -r want words args; do
    case "$want" in '#'* | '') continue ;; esac
    entries=$((entries + 1))
    start=$(date +%s%N)
    eval "timeout 2 \"\$tool\" $args" >out 2>&1
    got=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    if [ "$got" -eq 124 ]; then
        fail "cellcheck $args: still running after 2 s"
        continue
    fi
    [ "$got" -eq "$want" ] || fail "cellcheck $args: exit $got, want $want: $(head -c 300 out)"
    IFS=';' read -ra need <<<"$words"
    for w in "${need[@]}"; do
        grep -qF -- "$w" out || fail "cellcheck $args: the message lacks '$w': $(head -c 300 out)"
    done
    [ "$want" -ne 2 ] || grep -q '^usage: cellcheck' out || fail "cellcheck $args: no usage line"
    echo "ok ${ms}ms: cellcheck $args"
done <"$table"
echo "bad_input_test: $entries bad inputs, $failures failures"
[ "$entries" -ge 130 ] || fail "only $entries entries"
[ "$failures" -eq 0 ]
