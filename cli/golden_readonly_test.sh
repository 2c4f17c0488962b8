#!/usr/bin/env bash
# Goldens a user cannot write: `golden verify` and an update with nothing to change succeed and
# say so (no lock is taken, nothing is written); an update that would change them is refused,
# naming why, with the goldens in force untouched.
#   golden_readonly_test.sh CELLCHECK
set -u
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# The tree and the tool where an unprivileged user can reach them.
work=$(mktemp -d /tmp/golden_readonly.XXXXXX)
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
chmod 755 "$work"
cp "$1" "$work/cellcheck"
tool=$work/cellcheck
mkdir -p "$work/same/golden" "$work/changed/golden"
seed=0000000000000000000000000000000000000000000000000000000000000001
for tree in same changed; do
    printf 'life rule=B3/S23 size=40x30 steps=3 density=0.3000 seed=%s\n' "$seed" \
        >"$work/$tree/golden/catalogue.txt"
    (cd "$work/$tree" && "$tool" golden update --catalogue golden/catalogue.txt >/dev/null) ||
        fail "cannot set up $tree/"
done
# changed/: its catalogue now asks for one step more than the goldens in force hold.
printf 'life rule=B3/S23 size=40x30 steps=4 density=0.3000 seed=%s\n' "$seed" \
    >"$work/changed/golden/catalogue.txt"
in_force=$(readlink "$work/changed/golden/current")
chmod -R a-w "$work/same" "$work/changed"
# Root writes anything: the commands run as nobody there.
as_user=()
if [ "$(id -u)" = 0 ]; then
    as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    "${as_user[@]}" true || { echo "FAIL: cannot run as an unprivileged user"; exit 1; }
fi
run() { (cd "$work/$1" && "${as_user[@]}" "$tool" golden "$2" --catalogue golden/catalogue.txt) 2>&1; }

out=$(run same update); rc=$?
echo "same, update: exit $rc: $out"
[ $rc = 0 ] || fail "an update with nothing to change exited $rc"
grep -q "unchanged, nothing written" <<<"$out" || fail "the update did not say nothing changed"
grep -q "read-only here" <<<"$out" || fail "the update did not say it ran read-only"
[ -e "$work/same/golden/.update.lock" ] || true
out=$(run same verify); rc=$?
echo "same, verify: exit $rc"
[ $rc = 0 ] || fail "verify exited $rc: $out"

out=$(run changed update); rc=$?
echo "changed, update: exit $rc: $out"
[ $rc != 0 ] || fail "an update that would change read-only goldens exited 0"
grep -q "would change" <<<"$out" || fail "the refusal does not say the goldens would change"
grep -q "Permission denied\|Read-only" <<<"$out" || fail "the refusal does not say why"
[ "$(readlink "$work/changed/golden/current")" = "$in_force" ] || fail "the goldens in force moved"

echo "$failures failed"
[ $failures = 0 ]
