#!/usr/bin/env bash
# cellcheck certify over a Slurm job array: shard i of N is array task i (certify --shard i/N,
# its partial certificate and shard.txt in DIR/shards/i), and when every task has ended the
# shards are merged into DIR/certificate.md and .json (certify --merge DIR/shards).
#   ci/certify_slurm.sh --shards N --out-dir DIR [--cellcheck PATH] [--sbatch "ARGS"]
#                       [-- CERTIFY ARGS...]
# --sbatch passes options to sbatch: on a GPU cluster each task asks for its GPUs there,
# "--gres=gpu:1" (one GPU a shard) or "--gres=gpu:2" for an engine over two. Plugins go through
# CELLCHECK_PLUGINS, which the tasks inherit. Exit: the merge's (0 all certified, 1 a failure, 4 a gap left open: INCOMPLETE).
set -euo pipefail
shards="" out="" cellcheck="" sbatch_args=""
while [ $# -gt 0 ]; do
    case "$1" in
    --shards) shards="$2"; shift 2 ;;
    --out-dir) out="$2"; shift 2 ;;
    --cellcheck) cellcheck="$2"; shift 2 ;;
    --sbatch) sbatch_args="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "ci/certify_slurm.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
if ! [[ "$shards" =~ ^[1-9][0-9]*$ ]] || [ -z "$out" ]; then
    echo "usage: ci/certify_slurm.sh --shards N --out-dir DIR [--cellcheck PATH] [--sbatch ARGS] [-- CERTIFY ARGS]" >&2
    exit 2
fi
[ -n "$cellcheck" ] || cellcheck=$(command -v cellcheck || echo bazel-bin/cli/cellcheck)
cellcheck=$(realpath "$cellcheck")
mkdir -p "$out/shards"
out=$(realpath "$out")
rm -rf "${out:?}/shards/"*

# The task: its index from Slurm, the count from the array; the arguments passed word for word.
job="$out/shard_job.sh"
{
    echo '#!/usr/bin/env bash'
    echo 'i=$SLURM_ARRAY_TASK_ID n=$SLURM_ARRAY_TASK_COUNT'
    printf 'dir=%q/"$i"\n' "$out/shards"
    echo 'mkdir -p "$dir"'
    printf '%q certify --shard "$i/$n" --out-dir "$dir"' "$cellcheck"
    for a in "$@"; do printf ' %q' "$a"; done
    echo ' >"$dir/log.txt" 2>&1'
    echo 'rc=$?; [ $rc -le 1 ] || [ $rc -eq 4 ] || echo "shard $i: certify exited $rc (see $dir/log.txt)" >&2'
    echo 'exit $rc'
} >"$job"
chmod +x "$job"

# --wait: sbatch returns when every task has ended; a task that certified a failure exits 1,
# which is the merge's to report, not an error of the array.
# shellcheck disable=SC2086
sbatch --wait --array="0-$((shards - 1))" --job-name=cellcheck-certify \
    -o "$out/shards/slurm-%a.out" $sbatch_args "$job" || true
"$cellcheck" certify --merge "$out/shards" --out-dir "$out"
