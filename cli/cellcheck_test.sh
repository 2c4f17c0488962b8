#!/usr/bin/env bash
# The command line as a user meets it: usage errors, run on files, check and replay, golden.
set -u
tool="$1"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect STATUS DESCRIPTION -- COMMAND...: the exit status and, on a usage error, the usage line.
expect() {
    local want="$1" what="$2"
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$got" -ne "$want" ]; then
        fail "$what: exit $got, wanted $want"
        sed 's/^/    /' "$tmp/out" "$tmp/err" | head -20
    elif [ "$want" -eq 2 ] && ! grep -q '^usage: cellcheck' "$tmp/err"; then
        fail "$what: no usage text on a wrong argument"
    fi
}

expect 2 "no command" -- "$tool"
expect 2 "unknown command" -- "$tool" frobnicate
expect 2 "unknown flag" -- "$tool" list --verbose
expect 2 "run without --in" -- "$tool" run --engine oracle --steps 1 --out "$tmp/x.txt"
expect 2 "negative steps" -- "$tool" run --engine oracle --steps -1 --in a.txt --out b.txt
expect 2 "unknown engine" -- "$tool" check --engine cpu.nothing
grep -q "cpu.ref" "$tmp/err" || fail "unknown engine: the message does not list the engines"
expect 2 "bad radius range" -- "$tool" check --engine cpu.ref --radius 9..3
grep -q "^cellcheck check: --radius: range '9..3' is empty" "$tmp/err" ||
    fail "bad radius range: the message does not name the flag and the value"
expect 2 "bad seed" -- "$tool" check --engine cpu.ref --seed xyz
expect 2 "malformed case line" -- "$tool" check --engine cpu.ref --case 'rule=B3/S23 size=8'
expect 2 "--case with --cases" -- "$tool" check --engine cpu.ref --cases 3 --case 'rule=B3/S23'
expect 2 "bench without engine" -- "$tool" bench --size 64
grep -q -- "--engine is required" "$tmp/err" || fail "bench without engine: the message does not name --engine"
expect 2 "bench with a bad size" -- "$tool" bench --engine cpu.ref --size 64y
expect 2 "bench with an unknown engine" -- "$tool" bench --engine cpu.nothing
expect 2 "gate with an unknown flag" -- "$tool" gate --baseline x
grep -q "unknown option '--baseline'" "$tmp/err" || fail "gate: the unknown flag is not named"
expect 2 "certify with a bad count" -- "$tool" certify --cases 12x
grep -q -- "--cases: '12x' is not a whole number" "$tmp/err" || fail "certify: the bad count is not named"
expect 2 "malformed rule" -- "$tool" run --engine oracle --rule B3/Q23 --steps 1 --in a.txt --out b.txt
expect 2 "a flag given twice" -- "$tool" run --engine oracle --engine cpu.ref --steps 1 --in a.txt --out b.txt
expect 2 "an abbreviated flag" -- "$tool" check --eng cpu.ref
expect 2 "a positional argument" -- "$tool" check cpu.ref

# The golden command's wrong arguments.
expect 2 "golden without a subcommand" -- "$tool" golden
expect 2 "golden with an unknown subcommand" -- "$tool" golden frobnicate
expect 2 "golden with an unknown flag" -- "$tool" golden verify --colour red
expect 2 "golden with --dir and --catalogue" -- "$tool" golden verify --dir x --catalogue y
expect 2 "golden --dir without a value" -- "$tool" golden update --dir

# --help: every command's usage and options on stdout, status 0.
for command in list run check certify bench gate "golden verify" "golden update"; do
    # shellcheck disable=SC2086 # "golden verify" is two words
    expect 0 "$command --help" -- "$tool" $command --help
    grep -q "^usage: cellcheck $command" "$tmp/out" || fail "$command --help prints no usage line"
    grep -q -- "-h, --help" "$tmp/out" || fail "$command --help lists no options"
done
grep -q -- "--dir ROOT" "$tmp/out" || fail "golden update --help does not mention --dir"
expect 0 "check --help" -- "$tool" check --help
for flag in --engine --cases --seed --radius --size --case --report-dir; do
    grep -q -- "  $flag " "$tmp/out" || fail "check --help does not mention $flag"
done
expect 0 "golden --help" -- "$tool" golden --help
expect 0 "--help" -- "$tool" --help
grep -q "^  certify " "$tmp/out" || fail "cellcheck --help does not list certify"
expect 0 "list" -- "$tool" list
grep -q '^cpu.ref ' "$tmp/out" || fail "list does not show cpu.ref"
grep -q '^cuda.base ' "$tmp/out" || fail "list does not show cuda.base"
# The engines over several devices, from their tables: the multi-GPU engines (the one that runs as
# a process per device too), nothing else.
expect 0 "list --over-devices" -- "$tool" list --over-devices
[ "$(sort "$tmp/out" | tr '\n' ' ')" = "cuda.cat1-nccl cuda.life-lop3-nccl cuda.life-lop3-ranks " ] ||
    fail "list --over-devices printed: $(tr '\n' ' ' < "$tmp/out")"

# A glider on an 8x8 torus, as text: after 4 steps it is the same shape one cell down and right.
printf '01000000\n00100000\n11100000\n00000000\n00000000\n00000000\n00000000\n00000000\n' >"$tmp/glider.txt"
printf '00000000\n00100000\n00010000\n01110000\n00000000\n00000000\n00000000\n00000000\n' >"$tmp/moved.txt"
for engine in oracle cpu.ref; do
    expect 0 "run $engine" -- "$tool" run --engine "$engine" --rule B3/S23 --steps 4 --in "$tmp/glider.txt" --out "$tmp/$engine.txt"
    cmp -s "$tmp/$engine.txt" "$tmp/moved.txt" || fail "run $engine: the glider did not move by (1,1)"
done
# Through RLE, with the rule taken from the file's header, 32 steps bring it 8 cells: home again.
expect 0 "run txt to rle" -- "$tool" run --engine oracle --rule B3/S23 --steps 0 --in "$tmp/glider.txt" --out "$tmp/glider.rle"
grep -q 'rule = B3/S23:T8,8' "$tmp/glider.rle" || fail "RLE header does not carry the rule and torus"
expect 0 "run rle" -- "$tool" run --engine cpu.ref --steps 32 --in "$tmp/glider.rle" --out "$tmp/back.txt"
cmp -s "$tmp/back.txt" "$tmp/glider.txt" || fail "32 steps on an 8x8 torus did not bring the glider home"

# Golly's conventions. A blinker on a 3x3 bounded plane, as its header says: --rule without a
# topology takes the file's, and two steps bring the blinker back (on a 3x3 torus every cell
# neighbours every other: all alive after one step, all dead after two).
printf 'x = 3, y = 3, rule = B3/S23:P3,3\n$3o!\n' >"$tmp/blinker.rle"
expect 0 "blinker, --rule without topology" -- "$tool" run --engine cpu.ref --rule B3/S23 --steps 1 --in "$tmp/blinker.rle" --out "$tmp/blinker1.txt"
[ "$(cat "$tmp/blinker1.txt")" = "$(printf '010\n010\n010')" ] || fail "blinker on the plane, step 1: $(cat "$tmp/blinker1.txt")"
expect 0 "blinker, two steps" -- "$tool" run --engine cpu.ref --rule B3/S23 --steps 2 --in "$tmp/blinker.rle" --out "$tmp/blinker2.txt"
[ "$(cat "$tmp/blinker2.txt")" = "$(printf '000\n111\n000')" ] || fail "blinker on the plane, step 2: $(cat "$tmp/blinker2.txt")"
expect 2 "blinker, --rule of the torus" -- "$tool" run --engine cpu.ref --rule B3/S23:T --steps 2 --in "$tmp/blinker.rle" --out "$tmp/never.txt"
grep -q "names the torus, but the header of .*blinker.rle names the bounded plane" "$tmp/err" || fail "topology mismatch: both are not named"
# A glider with no topology is an unbounded pattern: refused until a grid is stated, then after
# 4 steps on a 6x6 plane it is one cell down and right; the same glider as macrocell the same.
printf 'x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n' >"$tmp/glider_free.rle"
expect 2 "unbounded pattern" -- "$tool" run --engine cpu.ref --steps 4 --in "$tmp/glider_free.rle" --out "$tmp/never.txt"
grep -q "is an unbounded pattern.*--size WxH" "$tmp/err" || fail "unbounded pattern: the refusal does not say how to state a grid"
[ ! -e "$tmp/never.txt" ] || fail "a refused run wrote its output"
moved=$(printf '000000\n001000\n000100\n011100\n000000\n000000')
expect 0 "unbounded pattern on a stated plane" -- "$tool" run --engine cpu.ref --rule B3/S23:P --size 6x6 --steps 4 --in "$tmp/glider_free.rle" --out "$tmp/moved.txt"
[ "$(cat "$tmp/moved.txt")" = "$moved" ] || fail "glider after 4 steps on a 6x6 plane: $(cat "$tmp/moved.txt")"
printf '[M2] (golly 3.3)\n#R B3/S23\n#C a glider\n.*$..*$***$\n' >"$tmp/glider.mc"
expect 0 "macrocell glider" -- "$tool" run --engine oracle --rule B3/S23:P6,6 --steps 4 --in "$tmp/glider.mc" --out "$tmp/moved_mc.txt"
[ "$(cat "$tmp/moved_mc.txt")" = "$moved" ] || fail "macrocell glider after 4 steps: $(cat "$tmp/moved_mc.txt")"
# Near the plane's edge a glider is not a glider: 8 steps on 4x4 leave a 2x2 block at the
# bottom right (hand-counted), where on the 4x4 torus it would travel on.
expect 0 "glider into the plane's corner" -- "$tool" run --engine cpu.ref --rule B3/S23:P --size 4x4 --steps 8 --in "$tmp/glider_free.rle" --out "$tmp/corner.txt"
[ "$(cat "$tmp/corner.txt")" = "$(printf '0000\n0000\n0011\n0011')" ] || fail "glider into the plane's corner: $(cat "$tmp/corner.txt")"
"$tool" run --help >"$tmp/help" 2>&1
grep -q "bounded plane" "$tmp/help" && grep -q "torus" "$tmp/help" && grep -q -- "--size" "$tmp/help" || fail "run --help does not name the plane, the torus and --size"

# Bad input loses nothing: a refused run leaves no output file behind.
printf 'x = 3, y = 2, rule = B3/S23\nooo$ooo$ooo!\n' >"$tmp/lies.rle"
expect 1 "RLE that lies about its size" -- "$tool" run --engine oracle --steps 1 --in "$tmp/lies.rle" --out "$tmp/never.txt"
[ ! -e "$tmp/never.txt" ] || fail "a refused run wrote its output"
expect 1 "rule with too large a radius for the grid" -- "$tool" run --engine oracle --rule 'R5,C2,M0,S2..3,B3..3,NM' --steps 1 --in "$tmp/glider.txt" --out "$tmp/never.txt"
expect 2 "multi-state rule (an argument no rule here can be)" -- "$tool" run --engine oracle --rule 'R2,C3,M0,S2..3,B3..3,NM' --steps 1 --in "$tmp/glider.txt" --out "$tmp/never.txt"
[ ! -e "$tmp/never.txt" ] || fail "a refused run wrote its output"

# A short campaign and the replay of one case line.
expect 0 "check cpu.ref" -- "$tool" check --engine cpu.ref --cases 40
grep -q '40 cases' "$tmp/out" || fail "check did not report 40 cases"
seed=0000000000000000000000000000000000000000000000000000000000000001
expect 0 "check --case" -- "$tool" check --engine cpu.ref --case "rule=R2,C2,M1,S5..9,B4..7,NN size=13x11 steps=3 density=0.4000 seed=$seed"
expect 0 "golden verify" -- "$tool" golden verify --dir .

# Requests too large for this machine or for any budget end at once, naming the size asked for
# (they used to run on without a word, or allocate tens of gigabytes).
printf 'x = 3, y = 3, rule = B3/S23:T\nbo$2bo$3o!\n' >"$tmp/glider3.rle"
seed1=0000000000000000000000000000000000000000000000000000000000000001
expect 2 "run of 10^18 steps" -- "$tool" run --engine oracle --rule B3/S23 --steps 1000000000000000000 --in "$tmp/glider3.rle" --out "$tmp/never.rle"
grep -q "1000000000000000000 steps of 3x3 .* above the limit of 1e+15" "$tmp/err" || fail "run: the step limit is not named"
[ ! -e "$tmp/never.rle" ] || fail "a refused run wrote its output"
expect 2 "check --cases 2^40" -- "$tool" check --engine cpu.ref --cases 1099511627776
grep -q "1099511627776 is outside 1..10000000" "$tmp/err" || fail "--cases: the limit is not named"
expect 2 "check --size 2^20" -- "$tool" check --engine cpu.ref --size 1048576
grep -q "1048576 is outside 1..16384" "$tmp/err" || fail "--size: the limit is not named"
expect 2 "check --case of 10^12 steps" -- "$tool" check --engine cpu.ref --case "rule=B3/S23 size=64x64 steps=999999999999 density=0.5000 seed=$seed1"
grep -q "999999999999 steps of 64x64" "$tmp/err" || fail "check --case: the work limit is not named"
expect 1 "check --case past the memory" -- "$tool" check --engine cpu.ref --case "rule=B3/S23 size=1048576x1048576 steps=1 density=0.5000 seed=$seed1"
grep -q "cpu.ref on a 1048576x1048576 grid needs [0-9]* bytes .* of host memory: .* cpu.ref's context (its own estimate from its layout); [0-9]* bytes .* are available" "$tmp/err" || fail "check --case: the memory is not named"

# Output names and directories are checked before any work; files follow the umask.
expect 2 "run --out x.png" -- "$tool" run --engine oracle --rule B3/S23 --steps 1 --in "$tmp/glider3.rle" --out "$tmp/x.png"
grep -q "unknown grid file extension" "$tmp/err" || fail "run --out x.png: the extension is not named"
expect 2 "run into a missing directory" -- "$tool" run --engine oracle --rule B3/S23 --steps 1 --in "$tmp/glider3.rle" --out "$tmp/none/x.rle"
# A missing --out-dir or --report-dir is made with its parents; one in the way of a file is not.
expect 2 "certify into a file" -- "$tool" certify --engine cpu.ref --out-dir "$tmp/glider3.rle/x"
grep -q -- "--out-dir: $tmp/glider3.rle/x: $tmp/glider3.rle exists and is a file, not a directory" "$tmp/err" ||
    fail "certify --out-dir in a file: not named"
expect 2 "check --report-dir that is a file" -- "$tool" check --engine cpu.ref --report-dir "$tmp/glider3.rle"
grep -q -- "--report-dir: .*glider3.rle exists and is a file" "$tmp/err" || fail "check --report-dir a file: not named"
(umask 077 && "$tool" run --engine oracle --rule B3/S23 --steps 1 --in "$tmp/glider3.rle" --out "$tmp/private.rle")
[ "$(stat -c %a "$tmp/private.rle")" = 600 ] || fail "a file written under umask 077 is $(stat -c %a "$tmp/private.rle")"

# Progress on stderr when asked (stderr is no terminal here), and not otherwise.
expect 0 "check --progress" -- "$tool" check --engine cpu.bitslice1 --cases 20 --progress
grep -q "^cpu.bitslice1: campaign: 20 of 20 done, 0 failed" "$tmp/err" || fail "check --progress: no progress line"
expect 0 "check without --progress" -- "$tool" check --engine cpu.bitslice1 --cases 20
! grep -q "campaign: " "$tmp/err" || fail "progress lines without --progress off a terminal"

# Provenance: the version, and where a certificate came from.
expect 0 "--version" -- "$tool" --version
# The release of VERSION, then the commit as build metadata where there is one: 0.9.0+g1a2b3c4d5e6f.
grep -Eq '^cellcheck [0-9]+\.[0-9]+\.[0-9]+(\+g[0-9a-f]{12,}(\.dirty)?)? \(commit ([0-9a-f]{12,}|unknown)\)$' "$tmp/out" ||
    fail "--version: $(cat "$tmp/out")"
cp "$tmp/out" "$tmp/version"
expect 0 "-V" -- "$tool" -V
cmp -s "$tmp/out" "$tmp/version" || fail "-V is not --version: $(cat "$tmp/out")"
expect 0 "certify with provenance" -- "$tool" certify --engine cpu.bitslice1 --cases 5 --huge-grid off \
    --accept-gap huge-grid,campaign --out-dir "$tmp/cert/made/here"
for want in "^- cellcheck .* (commit " "^- date: 20[0-9-]*T[0-9:]*Z" "^- command: \`cellcheck certify --engine cpu.bitslice1 --cases 5" "^- CPU: " "^- GPU: none ran"; do
    grep -q "$want" "$tmp/cert/made/here/certificate.md" || fail "certificate.md lacks '$want'"
done
grep -q '"commit": "' "$tmp/cert/made/here/certificate.json" || fail "certificate.json lacks the commit"

# Plugins: listed with where they came from, checked like a built-in engine, named in reproducers;
# a missing file or a second copy of an engine refused as a wrong argument.
plugin="$2" wrong_plugin="$3"
expect 0 "list with a plugin" -- "$tool" --plugin "$plugin" list
grep -q "^example.threshold .*any W = H" "$tmp/out" || fail "list does not show the plugin's engine and caps"
grep -q "from the plugin /" "$tmp/out" || fail "list does not say which plugin an engine came from"
expect 0 "check a plugin engine" -- "$tool" --plugin="$plugin" check --engine example.threshold --cases 30
expect 1 "check a wrong plugin engine" -- "$tool" --plugin "$wrong_plugin" check --engine example.threshold --cases 30
grep -q "reproduce: cellcheck --plugin /.*check --engine example.threshold --case" "$tmp/out" ||
    fail "the reproducer does not name the plugin"
# certify --report-dir: the failure's difference pictures, each with its legend beside it.
expect 1 "certify a wrong plugin engine with pictures" -- "$tool" --plugin "$wrong_plugin" certify \
    --engine example.threshold --cases 30 --huge-grid off --report-dir "$tmp/pictures" --out-dir "$tmp"
pictures=$(find "$tmp/pictures" -name '*.png' | wc -l)
[ "$pictures" -ge 1 ] || fail "certify --report-dir wrote no difference picture"
for png in "$tmp/pictures"/*.png; do
    grep -q "^red: alive in the engine's grid only" "${png%.png}.txt" 2>/dev/null ||
        fail "no legend beside $png"
done
grep -q "difference picture: $tmp/pictures/" "$tmp/out" || fail "the report does not name the picture"
expect 2 "certify --report-dir that is not a directory" -- "$tool" certify --engine cpu.ref \
    --report-dir "$tmp/glider3.rle"
expect 2 "a missing plugin" -- "$tool" --plugin "$tmp/none.so" list
grep -q "plugin $tmp/none.so cannot be loaded" "$tmp/err" || fail "a missing plugin is not named"
# One library named twice is loaded once (a reproducer run where CELLCHECK_PLUGINS still names
# it); two libraries with one engine name are refused.
expect 0 "a plugin twice" -- "$tool" --plugin "$plugin" --plugin "$plugin" list
[ "$(grep -c '^example.threshold ' "$tmp/out")" -eq 1 ] || fail "a plugin named twice lists its engine $(grep -c '^example.threshold ' "$tmp/out") times"
expect 2 "two plugins, one engine name" -- "$tool" --plugin "$plugin" --plugin "$wrong_plugin" list
grep -q "engine name example.threshold is taken already" "$tmp/err" || fail "a duplicate engine is not named"
CELLCHECK_PLUGINS="$plugin" expect 0 "CELLCHECK_PLUGINS" -- "$tool" check --engine example.threshold --cases 5

# Under prefixes (--plugin PATH:PREFIX): one plugin twice, both listed and checked; a wrong twin
# beside its original, caught, its reproducer naming the prefix and failing alike as printed.
expect 0 "one plugin under two prefixes" -- "$tool" --plugin "$plugin:a" --plugin "$plugin:b" list
for name in a.example.threshold b.example.threshold; do
    grep -q "^$name .*any W = H" "$tmp/out" || fail "list under two prefixes lacks $name"
done
for name in a.example.threshold b.example.threshold; do
    expect 0 "check $name" -- "$tool" --plugin "$plugin:a" --plugin "$plugin:b" check --engine "$name" --cases 10
done
CELLCHECK_PLUGINS="$plugin:a" expect 0 "a prefix in CELLCHECK_PLUGINS" -- "$tool" check --engine a.example.threshold --cases 5
expect 1 "a wrong twin beside its original" -- "$tool" --plugin "$plugin" --plugin "$wrong_plugin:twin" \
    check --engine twin.example.threshold --cases 30 --report-dir "$tmp/twin/pictures"
cp "$tmp/out" "$tmp/twin.out"
reproducer=$(sed -n 's/^  reproduce: //p' "$tmp/twin.out" | head -1)
case "$reproducer" in
    "cellcheck --plugin /"*" --plugin /"*":twin check --engine twin.example.threshold --case '"*) ;;
    *) fail "the twin's reproducer does not name its prefix: $reproducer" ;;
esac
[ -n "$(find "$tmp/twin/pictures" -name 'twin.example.threshold-*.png')" ] ||
    fail "check --report-dir: no picture in the directory it made"
(eval "\"\$tool\"${reproducer#cellcheck}") >"$tmp/twin.replay" 2>&1
[ $? -eq 1 ] && grep -q "^FAILED: twin.example.threshold: mismatch with the oracle" "$tmp/twin.replay" ||
    fail "the twin's reproducer, run as printed, did not fail alike: $(head -3 "$tmp/twin.replay")"
expect 2 "a prefix with a dot" -- "$tool" --plugin "$plugin:a.b" list
grep -q "'a.b' after ':' is no prefix" "$tmp/err" || fail "a wrong prefix is not named"

# One failure report names one first difference: the first diverging step's first cell. The
# verdict printed before the analysis names a cell of the final grid, never as the first.
report=$(sed -n '/analysing it: the full report follows/,/^  reproduce: /p' "$tmp/twin.out")
[ "$(grep -c "^  first differing cell, at step [0-9]*: (x=" <<<"$report")" -eq 1 ] ||
    fail "the report does not name exactly one first differing cell: $report"
# The shrunk case's own, under it, is the only other.
[ "$(grep -c "first differing cell" <<<"$report")" -eq "$(grep -c "^  shrunk (" <<<"$report" | awk '{ print $1 + 1 }')" ] ||
    fail "first differing cells besides the case's and the shrunk case's: $report"
! grep -q "first (" "$tmp/twin.out" || fail "a cell besides the first difference is called the first: $(grep "first (" "$tmp/twin.out")"
grep -q "^FAILED: twin.example.threshold: .*cells differ from the oracle after [0-9]* steps, among them (" "$tmp/twin.out" ||
    fail "the verdict does not name a cell of the final grid"
! grep -q "among them" <<<"$report" || fail "the full report names the final grid's cell beside the first difference"

# A plugin over several devices (examples/plugin_devices: example.slabs, and example.slabs-late,
# whose halo rows from other devices are one step late, so right over one device): the count
# reaches the workers, check's reproducers name it and run as printed where the environment does
# not, light cones sample the device seams, and the certificate names the count.
slabs="$4"
mkdir -p "$tmp/bin" && ln -sf "$(cd "$(dirname "$tool")" && pwd)/$(basename "$tool")" "$tmp/bin/cellcheck"
expect 0 "list --over-devices with a plugin" -- "$tool" --plugin "$slabs" list --over-devices
[ "$(sort "$tmp/out" | tr '\n' ' ')" = "cuda.cat1-nccl cuda.life-lop3-nccl cuda.life-lop3-ranks example.slabs example.slabs-late " ] ||
    fail "list --over-devices with a plugin printed: $(tr '\n' ' ' < "$tmp/out")"
CELLCHECK_DEVICES=2 expect 1 "a plugin's device seam bug over 2 devices" -- \
    "$tool" --plugin "$slabs" check --engine example.slabs-late --cases 30
reproducer=$(sed -n 's/^  reproduce: //p' "$tmp/out" | head -1)
# The replay's report names the first difference, not the verdict's cell of the final grid.
failure=$(sed -n -E 's/^FAILED: .*: ((mismatch with the oracle|differs under a call pattern): .*)$/\1/p' \
    "$tmp/out" | head -1 | sed 's/, among them .*//')
case "$reproducer" in
"CELLCHECK_DEVICES=2 cellcheck --plugin /"*" check --engine example.slabs-late --case '"*) ;;
*) fail "check over 2 devices: the reproducer does not name the count: '$reproducer'" ;;
esac
(unset CELLCHECK_DEVICES && PATH="$tmp/bin:$PATH" bash -c "$reproducer") >"$tmp/replay" 2>&1
status=$?
if [ "$status" -ne 1 ] || [ -z "$failure" ] || ! grep -qF "$failure" "$tmp/replay"; then
    fail "the reproducer over 2 devices, run as printed: exit $status, not failing with '$failure'"
fi
grep -q "^  reproduce: CELLCHECK_DEVICES=2 cellcheck --plugin /" "$tmp/replay" ||
    fail "the replayed case's own reproducer does not name 2 devices"
line=$(sed -n "s/.* --case '\(.*\)'\$/\1/p" <<<"$reproducer")
CELLCHECK_DEVICES=1 expect 0 "the same case over one device" -- \
    "$tool" --plugin "$slabs" check --engine example.slabs-late --case "$line"
big="rule=B3/S23 size=1024x1025 steps=8 density=0.3500 seed=3bbafe4f7e5a36a07222730f08f5bcea17b04270ae756cebc5840c3167fafd02"
CELLCHECK_DEVICES=3 expect 0 "light cones on a plugin over 3 devices" -- \
    "$tool" --plugin "$slabs" check --engine example.slabs --case "$big"
grep -q "verified by light cones: .*device seams, device corners" "$tmp/out" ||
    fail "the light cones of a plugin over 3 devices did not sample its device seams"
CELLCHECK_DEVICES=3 expect 1 "light cones on a plugin's device seam bug over 3 devices" -- \
    "$tool" --plugin "$slabs" check --engine example.slabs-late --case "$big"
mkdir -p "$tmp/devices-cert"
CELLCHECK_DEVICES=2 expect 1 "certify a plugin's device seam bug over 2 devices" -- \
    "$tool" --plugin "$slabs" certify --engine example.slabs-late --cases 30 --huge-grid off \
    --out-dir "$tmp/devices-cert"
grep -q '"engine": "example.slabs-late", .*"devices": 2,' "$tmp/devices-cert/certificate.json" ||
    fail "certificate.json does not say example.slabs-late ran over 2 devices"
grep -q '"reproducer": "CELLCHECK_DEVICES=2 cellcheck --plugin /' "$tmp/devices-cert/certificate.json" ||
    fail "certificate.json's reproducer does not name 2 devices"
grep -q "^| example.slabs-late | cpu x 2 | FAILED" "$tmp/devices-cert/certificate.md" ||
    fail "certificate.md does not say example.slabs-late failed over 2 devices"

if [ "$failures" -gt 0 ]; then
    echo "cellcheck_test: $failures failures"
    exit 1
fi
echo "cellcheck_test: all checks passed"
