#!/usr/bin/env bash
# cellcheck ranks: an engine run as one process per device, each process a rank started by a
# launcher. Three ranks of the emulation (fuzz/mutants/rank_bugs.h) started by hand: the right
# engine passes on every rank; halos a launch stale fail on a rank with the cells that differ;
# a rank that crashes is named by its own process and the others fail on its broken streams;
# a rendezvous directory an earlier run used is refused before any work. Then the same three
# ranks under srun on a one-node Slurm cluster started here (overcommitted: 3 tasks on 2 cores):
# each task takes its rank from SLURM_PROCID and the count from SLURM_NTASKS; every one passes.
set -u
tool=$(realpath "$1") plugin=$(realpath "$2") slurm_local=$(realpath "$3")
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
case_line="rule=B3/S23 size=64x48 steps=9 density=0.3500 seed=9c9c01f5bc3c74945adb82a2bbc9fef69f25cbda2251c126343876691262c048"

# Three ranks of ENGINE by hand into $tmp/NAME/{0,1,2}.log with their exits in .exit.
by_hand() {
    local engine=$1 name=$2 r
    mkdir -p "$tmp/$name/rv"
    for r in 0 1 2; do
        ("$tool" --plugin "$plugin" ranks --engine "$engine" --case "$case_line" \
            --rendezvous "$tmp/$name/rv" --rank $r --ranks 3 --wait 20 >"$tmp/$name/$r.log" 2>&1
         echo $? >"$tmp/$name/$r.exit") &
    done
    wait
    for r in 0 1 2; do echo "  rank $r: exit $(cat "$tmp/$name/$r.exit"): $(head -1 "$tmp/$name/$r.log" | cut -c1-200)"; done
}

echo "== control.ranks, three ranks by hand"
by_hand control.ranks right
for r in 0 1 2; do
    [ "$(cat "$tmp/right/$r.exit")" = 0 ] || fail "control.ranks: rank $r exited $(cat "$tmp/right/$r.exit")"
    grep -q "rank $r of 3 .*: passed: its 1024 cells agree with the oracle after 9 steps" "$tmp/right/$r.log" ||
        fail "control.ranks: rank $r did not pass its 1024 cells"
done
grep -q "network: open: a rank under a launcher" "$tmp/right/0.log" ||
    fail "rank 0 does not say the network part is open"

echo "== mutant.rank-stale, three ranks by hand"
by_hand mutant.rank-stale stale
failed=0
for r in 0 1 2; do
    grep -q "FAILED: [0-9]* of its 1024 cells differ from the oracle after 9 steps" "$tmp/stale/$r.log" &&
        [ "$(cat "$tmp/stale/$r.exit")" = 1 ] && failed=$((failed + 1))
done
[ $failed -ge 1 ] || fail "mutant.rank-stale: no rank failed with the cells that differ"

echo "== mutant.rank-crash, three ranks by hand"
by_hand mutant.rank-crash crash
grep -q "rank 2 of 3 .*FAILED: mutant.rank-crash: crashed (SEGV" "$tmp/crash/2.log" ||
    fail "mutant.rank-crash: rank 2 does not say it crashed"
for r in 0 1 2; do
    [ "$(cat "$tmp/crash/$r.exit")" = 1 ] || fail "mutant.rank-crash: rank $r exited $(cat "$tmp/crash/$r.exit"), not 1"
done

echo "== a rendezvous directory used before"
"$tool" --plugin "$plugin" ranks --engine control.ranks --case "$case_line" \
    --rendezvous "$tmp/right/rv" --rank 0 --ranks 3 >"$tmp/reused.log" 2>&1
status=$?
[ $status -eq 2 ] && grep -q "holds an id already" "$tmp/reused.log" ||
    fail "a used rendezvous directory: exit $status: $(head -2 "$tmp/reused.log")"

echo "== control.ranks under srun -n 3"
# The cluster is configured machine-wide (/etc/slurm): Slurm tests take turns by this lock,
# while other tests run beside them. The daemons do not inherit it.
exec 9>/tmp/cellcheck-slurm.lock && flock 9
state=$(mktemp -d /tmp/cellcheck-slurm.XXXXXX)
trap 'bash "$slurm_local" stop "$state"; rm -rf "$state"' EXIT
if ! bash "$slurm_local" start "$state" 9>&- >"$tmp/slurm.log" 2>&1; then
    fail "no local Slurm cluster: $(tail -3 "$tmp/slurm.log")"
else
    mkdir -p "$tmp/srun/rv"
    srun -n 3 --overcommit --time=5 "$tool" --plugin "$plugin" ranks --engine control.ranks \
        --case "$case_line" --rendezvous "$tmp/srun/rv" --wait 60 >"$tmp/srun.log" 2>&1
    status=$?
    sed 's/^/  /' "$tmp/srun.log" | grep passed | cut -c1-160
    [ $status -eq 0 ] || fail "srun -n 3: exit $status: $(tail -3 "$tmp/srun.log")"
    for r in 0 1 2; do
        grep -q "rank $r of 3 .*: passed" "$tmp/srun.log" || fail "srun -n 3: rank $r did not pass"
    done
fi
echo "ranks_test: $failures failures"
[ $failures -eq 0 ]
