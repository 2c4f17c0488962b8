#!/usr/bin/env bash
# certify in 4 shards through a Slurm job array on a one-node cluster started here
# (ci/slurm_local.sh), merged, against one unsharded run: two CPU engines, cpu.life-ternlog
# (certified; the fastest engine, so the test stays short on a busy 2-core machine) and the
# wrong example.threshold plugin (failed). The merged certificate must match the whole
# run's verdicts, failure and reproducer, and the certified engine's counts; then each way a merge
# must refuse its shards (one missing, one twice, one of another run) is shown refused by name.
set -u
tool=$(realpath "$1") wrong_plugin=$(realpath "$2") schema=$(realpath "$3") validator=$(realpath "$4")
slurm_local=$(realpath "$5") certify_slurm=$(realpath "$6")
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
export CELLCHECK_PLUGINS="$wrong_plugin"
args=(--engine "cpu.life-ternlog,example.threshold" --cases 100 --huge-grid off --accept-gap "huge-grid,campaign")

# The cluster is configured machine-wide (/etc/slurm): Slurm tests take turns by this lock,
# while other tests run beside them. The daemons do not inherit it.
exec 9>/tmp/cellcheck-slurm.lock && flock 9
# Slurm's state in a short path: its daemons' sockets live there, and a Unix socket's path holds
# 108 bytes at most.
state=$(mktemp -d /tmp/cellcheck-slurm.XXXXXX)
trap 'bash "$slurm_local" stop "$state"; rm -rf "$state"' EXIT
bash "$slurm_local" start "$state" 9>&- || { echo "FAIL: no local Slurm cluster"; exit 1; }

mkdir -p "$tmp/whole"
start=$(date +%s)
"$tool" certify "${args[@]}" --out-dir "$tmp/whole" >"$tmp/whole.log" 2>&1
status=$?
echo "unsharded: exit $status, $(($(date +%s) - start)) s"
[ $status -eq 1 ] || fail "the unsharded run exited $status, not 1 (one engine fails)"

start=$(date +%s)
bash "$certify_slurm" --shards 4 --out-dir "$tmp/sharded" --cellcheck "$tool" --sbatch --time=10 \
    -- "${args[@]}" \
    >"$tmp/sharded.log" 2>&1
status=$?
echo "4 shards through a Slurm job array, merged: exit $status, $(($(date +%s) - start)) s"
[ $status -eq 1 ] || { fail "the sharded run exited $status, not 1"; tail -20 "$tmp/sharded.log"; }
for i in 0 1 2 3; do
    [ -f "$tmp/sharded/shards/$i/shard.txt" ] || fail "shard $i wrote no shard.txt"
    grep -q "\"shard\": {\"index\": $i, \"count\": 4}" "$tmp/sharded/shards/$i/certificate.json" ||
        fail "shard $i's certificate does not say it is shard $i of 4"
done
python3 "$validator" "$schema" "$tmp/sharded/certificate.json" || fail "the merged certificate breaks the schema"

python3 - "$tmp/whole/certificate.json" "$tmp/sharded/certificate.json" <<'PY' || fail "the merged certificate differs from the unsharded one"
import json, sys
whole, merged = (json.load(open(p)) for p in sys.argv[1:3])
bad = 0
def same(what, a, b):
    global bad
    if a != b:
        print(f"  {what}: unsharded {a!r}, merged {b!r}")
        bad += 1
same("merged_shards", 4, merged["merged_shards"])
same("engines", [e["engine"] for e in whole["engines"]], [e["engine"] for e in merged["engines"]])
for w, m in zip(whole["engines"], merged["engines"]):
    name = w["engine"]
    for key in ["verdict", "failure_class", "devices", "caps"]:
        same(f"{name} {key}", w[key], m[key])
    if w["verdict"] == "FAILED":
        for key in ["class", "section", "case", "calls", "campaign_case", "reproducer"]:
            same(f"{name} failure {key}", w["failure"][key], m["failure"][key])
        continue
    for key in ["past_the_tiles", "past_2_32_cells", "light_cones", "edge_cases", "round_trips",
                "shapes", "seams", "plane", "call_sequences", "campaign", "golden"]:
        same(f"{name} {key}", w[key], m[key])
    # The step counts run whole in one shard, as in one run; a count whose estimated time is near
    # the 5 s bound may still go either way between two runs on a loaded machine, so the counts
    # considered are compared, not how they split.
    ws, ms = w["step_counts"], m["step_counts"]
    same(f"{name} step counts considered", ws["passed"] + ws["left_out"], ms["passed"] + ms["left_out"])
    print(f"  {name}: {w['verdict']}, campaign {m['campaign']}, edge cases {m['edge_cases']}, "
          f"golden {m['golden']}, step counts {ws} unsharded, {ms} merged")
sys.exit(1 if bad else 0)
PY

# merge_refuses NAME MESSAGE: the shards in $tmp/bad refused, the message naming what is wrong.
merge_refuses() {
    mkdir -p "$tmp/out-$1"
    "$tool" certify --merge "$tmp/bad" --out-dir "$tmp/out-$1" >"$tmp/$1.log" 2>&1
    local status=$?
    if [ $status -eq 0 ] || [ $status -eq 1 ] || ! grep -qF "$2" "$tmp/$1.log"; then
        fail "$1: merge exited $status without '$2':"
        cat "$tmp/$1.log"
    elif [ -e "$tmp/out-$1/certificate.json" ]; then
        fail "$1: a refused merge wrote a certificate"
    else
        echo "refused ($1): $(grep -F "$2" "$tmp/$1.log" | head -1)"
    fi
}
reset_bad() { rm -rf "$tmp/bad" && cp -r "$tmp/sharded/shards" "$tmp/bad"; }
reset_bad && rm -rf "$tmp/bad/2"
merge_refuses missing "shard 2 of 4 is missing"
reset_bad && cp -r "$tmp/bad/1" "$tmp/bad/1-again"
merge_refuses twice "shard 1 of 4 is given twice"
reset_bad && rm -rf "$tmp/bad/3" && mkdir -p "$tmp/bad/3"
"$tool" certify "${args[@]}" --seed "$(printf '%064x' 1)" --shard 3/4 --out-dir "$tmp/bad/3" >"$tmp/foreign.log" 2>&1
merge_refuses foreign "is a shard of another run: its master seed differs"
reset_bad && sed -i 's/^shard 3 4$/shard 3 5/' "$tmp/bad/3/shard.txt"
merge_refuses count "its shard count differs"
reset_bad && sed -i 's/^devices 0$/devices 2/' "$tmp/bad/1/shard.txt" &&
    sed -i 's/^devices 0$/devices 1/' "$tmp/bad/3/shard.txt"
merge_refuses devices "devices differs from"
reset_bad && sed -i 's/^edge_passed \(.*\)$/edge_passed many/' "$tmp/bad/0/shard.txt"
merge_refuses broken "is not a line of a cellcheck shard record"

if [ $failures -gt 0 ]; then
    echo "certify_slurm_test: $failures failed"
    exit 1
fi
echo "certify_slurm_test: passed"
