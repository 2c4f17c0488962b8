#!/usr/bin/env bash
# Two `golden update` at once, PAIRS times, each pair on a changed catalogue: one may be refused
# ("another golden update is running"), none may fail otherwise, and after each pair the goldens
# in force are the new catalogue's, whole, and verify passes.
#   golden_race_test.sh CELLCHECK PAIRS
set -u
tool=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
pairs=${2:-200}
work="${TEST_TMPDIR:-$(mktemp -d)}/golden_race"
rm -rf "$work" && mkdir -p "$work/golden/patterns" && cd "$work" || exit 1
printf 'x = 3, y = 3, rule = B3/S23:T\nbo$2bo$3o!\n' >golden/patterns/glider.rle
seed=0000000000000000000000000000000000000000000000000000000000000001
version() { # a small catalogue whose steps change with $1
    printf 'glider rule=B3/S23 in=golden/patterns/glider.rle steps=%d\n' "$1"
    printf 'life rule=B3/S23 size=40x30 steps=%d density=0.3000 seed=%s\n' $(($1 % 7 + 1)) "$seed"
    printf 'big rule=B3/S23 size=200x150 steps=2 density=0.3000 seed=%s\n' "$seed"
}

failures=0 refused=0 both=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
for ((i = 1; i <= pairs; i++)); do
    version "$i" >golden/catalogue.txt
    "$tool" golden update --catalogue golden/catalogue.txt >a.out 2>&1 &
    a=$!
    "$tool" golden update --catalogue golden/catalogue.txt >b.out 2>&1 &
    b=$!
    wait "$a"
    ra=$?
    wait "$b"
    rb=$?
    won=0
    for x in "a $ra" "b $rb"; do
        set -- $x
        if [ "$2" -eq 0 ]; then
            won=$((won + 1))
        elif [ "$2" -eq 1 ] && grep -q 'another golden update is running' "$1.out"; then
            refused=$((refused + 1))
        else
            fail "pair $i: update $1 exited $2: $(head -c 300 "$1.out")"
        fi
    done
    [ "$won" -ge 1 ] || fail "pair $i: neither update went through"
    [ "$won" -eq 2 ] && both=$((both + 1))
    cmp -s golden/catalogue.txt golden/current/catalogue.txt ||
        fail "pair $i: the goldens in force are not the new catalogue's"
    "$tool" golden verify --catalogue golden/catalogue.txt >v.out 2>&1 ||
        fail "pair $i: verify failed: $(head -c 300 v.out)"
    n=$(find golden -maxdepth 1 -name '.gen-*' | wc -l)
    [ "$n" -eq 1 ] || fail "pair $i: $n generations beside current"
done
echo "golden_race_test: $pairs pairs: $refused updates refused as the loser, $both pairs where" \
    "both went through one after the other, $failures failures"
# The pairs must overlap often enough to show the lock at work.
[ "$refused" -ge $((pairs / 10)) ] || fail "only $refused of $pairs pairs overlapped"
[ "$failures" -eq 0 ]
