#!/usr/bin/env bash
# The scaling table of an engine over several devices (copied into the bundle as scaling.sh):
# `cellcheck bench` at each device count (CELLCHECK_DEVICES), the engine against its one-device
# original in the same run, at a weak-scaling size (SIDE x SIDE cells a device) and at the strong-
# scaling squares; then one table of ms a step, weak-scaling efficiency and speed-up over the
# engine on one device.
#   scaling.sh --engine NAME --reference NAME [--devices 1,2,4] [--side 32768]
#              [--strong 65536,...] [--radius 1] [--steps K] [--out FILE]
# --devices defaults to 1, 2, 4, ... up to the visible GPUs, and their number. The BENCH lines
# go to FILE (default $OUT/scaling-ENGINE.jsonl, or ./scaling-ENGINE.jsonl).
set -uo pipefail
cd "$(dirname "$0")" || exit 1
engine="" reference="" devices="" side=32768 strong=65536 radius=1 steps="" out=""
while [ $# -gt 0 ]; do
    case "$1" in
    --engine) engine="$2"; shift 2 ;;
    --reference) reference="$2"; shift 2 ;;
    --devices) devices="$2"; shift 2 ;;
    --side) side="$2"; shift 2 ;;
    --strong) strong="$2"; shift 2 ;;
    --radius) radius="$2"; shift 2 ;;
    --steps) steps="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "scaling.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
if [ -z "$engine" ] || [ -z "$reference" ]; then
    echo "usage: scaling.sh --engine NAME --reference NAME [--devices LIST] [--side N] [--strong LIST] [--radius R] [--steps K] [--out FILE]" >&2
    exit 2
fi
source ./devices.sh
[ -n "$devices" ] || devices=$(default_device_counts)
[ -n "$out" ] || out="${OUT:-.}/scaling-$engine.jsonl"
: >"$out"
status=0
for d in ${devices//,/ }; do
    sizes="${side}x$(( side * d )),$strong"
    echo "== $d device(s): $engine against $reference at $sizes, r = $radius"
    CELLCHECK_DEVICES=$d ./bin/cellcheck bench --engine "$engine" --reference "$reference" \
        --size "$sizes" --radius "$radius" ${steps:+--steps "$steps"} >"$out.tmp" 2>&1 || status=1
    grep -v '^BENCH' "$out.tmp"
    grep '^BENCH' "$out.tmp" | sed "s/^BENCH {/{\"devices\":$d,/" >>"$out"
done
rm -f "$out.tmp"
python3 - "$out" "$side" <<'PY' || status=1
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
side = int(sys.argv[2])
if not rows:
    sys.exit("scaling.sh: no benchmark rows")
one = {(r["w"], r["h"], r["radius"]): r["engine_ms_per_step"] for r in rows if r["devices"] == 1}
weak1 = {r["radius"]: r["engine_ms_per_step"] for r in rows
         if r["devices"] == 1 and r["w"] == side and r["h"] == side}
print(f"\n{rows[0]['engine']} on {rows[-1]['engine_device']}, against {rows[0]['reference']}; ms a step")
print("| devices | size | r | engine | one-device original | vs original | weak efficiency | speed-up over 1 device |")
print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
for r in rows:
    d, size, rad = r["devices"], f"{r['w']}x{r['h']}", r["radius"]
    weak = strong = ""
    if r["w"] == side and r["h"] == side * d and rad in weak1:
        weak = f"{100 * weak1[rad] / r['engine_ms_per_step']:.1f} %"
    if (r["w"], r["h"], rad) in one and d > 1:
        strong = f"{one[(r['w'], r['h'], rad)] / r['engine_ms_per_step']:.2f}x"
    print(f"| {d} | {size} | {rad} | {r['engine_ms_per_step']:.4f} | "
          f"{r['reference_ms_per_step']:.4f} | {r['speedup']:.2f}x | {weak} | {strong} |")
PY
exit $status
