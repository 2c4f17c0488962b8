#!/usr/bin/env bash
# Every bad input of testdata/bad_inputs.txt: the exit status it must have, the words its message
# must hold, within 2 s each (none may hang or start large work before refusing). The plugins
# given are linked into the working directory as NAME.so, less their libplugin_test_ prefix.
#   bad_input_test.sh CELLCHECK TABLE [PLUGIN.so...]
set -u
tool=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
table=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
shift 2
plugins=()
for plugin in "$@"; do plugins+=("$(cd "$(dirname "$plugin")" && pwd)/$(basename "$plugin")"); done
work="${TEST_TMPDIR:-$(mktemp -d)}/bad_inputs"
# The table sets every setting it tests; none comes from the caller (a GPU runner's
# CELLCHECK_REQUIRE would change the answers).
while IFS='=' read -r name _; do unset "$name"; done < <(env | grep '^CELLCHECK_')
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
for plugin in ${plugins[@]+"${plugins[@]}"}; do
    name=$(basename "$plugin")
    ln -s "$plugin" "${name#libplugin_test_}"
done

# The files the table names.
printf 'x = 3, y = 3, rule = B3/S23:T\nbo$2bo$3o!\n' >ok.rle
# Golly's conventions: a pattern with no topology, a blinker on a plane, macrocell files.
printf 'x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n' >unbounded.rle
printf 'x = 3, y = 3, rule = B3/S23:P3,3\n$3o!\n' >blinker_plane.rle
printf '[M2] (golly 3.3)\n#R B3/S23\n.*$..*$***$\n' >glider.mc
printf '[M2] (golly 3.3)\n#R B3/S23\n1 0 1 0 0\n' >multi.mc
printf 'x = 3, y = 3, rule = B3/S23:P\nbo$2bo$3o!\n' >noside.rle
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

# Files that are not regular, or larger than what they say they hold.
mkfifo fifo.rle fifo.txt fifo_out.rle
mkdir dir.rle dir_out.rle dir.so catdir
# Output directories whose certificate or shard record has a directory in its way.
mkdir -p blocked/certificate.md blocked_set/.certificate blocked_shard/shard.txt
ln -s /dev/zero zero.rle
ln -s /dev/zero zero.txt
ln -s loop.rle loop.rle
ln -s dir_out.rle link_out.rle
head -c 2097152 /dev/zero | tr '\0' '#' >padded.rle
printf 'x = 3, y = 3\nbo$2bo$3o!\n' | dd of=padded.rle conv=notrunc status=none
printf 'x = 3, y = 3\nbo$2bo$3o!\n' >sparse.rle
truncate -s 3G sparse.rle
truncate -s 3G sparse.txt
printf '\xef\xbb\xbfx = 3, y = 3, rule = B3/S23:T3,3\nbo$2bo$3o!\n' >bom.rle
printf '\xef\xbb\xbf010\n001\n111\n' >bom.txt
printf '\xef\xbb\xbf\xef\xbb\xbfx = 3, y = 3\nbo$2bo$3o!\n' >bom2.rle
printf 'x = 3, y = 3\nb\0o!\n' >nul.rle
printf 'x = 3, y = 3\n' >bodyless.rle
printf 'x = 3, y = 3, rule = B3/S23:T3,3\r\nbo$2bo$3o!\r\n' >crlf.rle
printf '0000\n0110\n0110\n0000\n' >block.txt
long=$(printf 'd%.0s' $(seq 1 250))
# shellcheck disable=SC2034 # the cases' lines name $deep, through eval
deep=$(for i in $(seq 1 15); do printf '/%s' "$long"; done)  # 3765 characters
: >"plain_file"
# Catalogues for the golden commands' limits, each alone in a tree of its own.
seed=0000000000000000000000000000000000000000000000000000000000000001
catalogue() { mkdir -p "$1/golden" && printf '%s\n' "$2" >"$1/golden/catalogue.txt"; }
catalogue huge "big rule=B3/S23 size=40000x40000 steps=1 density=0.5000 seed=$seed"
catalogue slow "slow rule=B3/S23 size=64x64 steps=10000000000 density=0.5000 seed=$seed"
catalogue capped "capped rule=B3/S23 size=64x64 steps=1000000000000000000 density=0.5000 seed=$seed"
catalogue cut "a rule=B3/S23 size=8x8 steps=1 density=0.5000 seed=$seed
b rule=B3/S23 size=9x9 steps=2 density=0.5000 seed=$seed"
"$tool" golden update --catalogue cut/golden/catalogue.txt >/dev/null 2>&1 || echo "cannot set up cut/"
gen=cut/golden/$(readlink cut/golden/current)
for f in "$gen/catalogue.txt" "$gen/hashes.txt" cut/golden/catalogue.txt; do
    grep -v '^b ' "$f" >cut.tmp && cat cut.tmp >"$f"
done
rm -f "$gen/snapshots/b.rle" cut.tmp
catalogue locked "a rule=B3/S23 size=8x8 steps=1 density=0.5000 seed=$seed"
catalogue dangling "a rule=B3/S23 size=8x8 steps=1 density=0.5000 seed=$seed"
ln -s .gen-0000000000000000 dangling/golden/current
# An update in another process holds the lock of locked/ while the table runs.
: >locked/golden/.update.lock
flock locked/golden/.update.lock sleep 600 &
holder=$!
trap 'kill $holder 2>/dev/null' EXIT
[ -e threshold_wrong.so ] && cp threshold_wrong.so "my lib.so"

# What the machine has, as the tool itself answers it: whether the engine needing HW runs here.
here() { "$tool" list | awk -v hw="$1" '$2 == hw {print $3; exit}'; }
declare -A present=()
entries=0 failures=0 unchecked=0
failed_lines=()
fail() { echo "FAIL: $*"; failures=$((failures + 1)); failed_lines+=("$*"); }
while IFS='|' read -r want words args; do
    case "$want" in '#'* | '') continue ;; esac
    # [HW] entries hold where HW is here, [!HW] where it is not; on a machine with HW a [!HW]
    # entry runs with CELLCHECK_ABSENT=HW, so both answers are checked where HW is.
    if [[ "$want" =~ ^\[(!?)([a-z0-9]+)\](.*)$ ]]; then
        negated=${BASH_REMATCH[1]} hw=${BASH_REMATCH[2]} want=${BASH_REMATCH[3]}
        [ -n "${present[$hw]:-}" ] || present[$hw]=$(here "$hw")
        case "${present[$hw]}" in yes | no) ;; *) fail "no engine in 'cellcheck list' needs $hw"; continue ;; esac
        if [ -z "$negated" ] && [ "${present[$hw]}" = no ]; then
            echo "not checked here (no $hw on this machine): cellcheck $args"
            unchecked=$((unchecked + 1))
            continue
        fi
        if [ -n "$negated" ] && [ "${present[$hw]}" = yes ]; then
            if [[ "$args" == *CELLCHECK_ABSENT=* ]]; then args=${args/CELLCHECK_ABSENT=/CELLCHECK_ABSENT=$hw,}
            elif [ "${args#ENV }" != "$args" ]; then args="ENV CELLCHECK_ABSENT=$hw ${args#ENV }"
            else args="ENV CELLCHECK_ABSENT=$hw -- $args"; fi
        fi
    fi
    entries=$((entries + 1))
    start=$(date +%s%N)
    # "ENV NAME=VALUE... -- ARGS" runs ARGS with those settings, as a CI environment would.
    if [ "${args#ENV }" != "$args" ]; then
        settings=${args%% -- *}
        eval "timeout 2 env ${settings#ENV } \"\$tool\" ${args#* -- }" >out 2>&1
    else
        eval "timeout 2 \"\$tool\" $args" >out 2>&1
    fi
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
# Why a GPU engine does not run, in words that say what is true: no driver at all is named so.
if [ "$(here gpu)" = no ] && ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
    entries=$((entries + 1))
    "$tool" list >out 2>&1
    grep -q 'not here: no CUDA driver (libcuda.so.1' out ||
        fail "cellcheck list on a machine without libcuda.so.1 does not say 'no CUDA driver': $(grep -m1 'not here' out)"
fi
# Every failure again at the end, where a log's tail shows it.
for line in ${failed_lines[@]+"${failed_lines[@]}"}; do echo "FAIL: $line"; done
echo "bad_input_test: $entries bad inputs, $failures failures ($unchecked need hardware this machine lacks)"
[ "$entries" -ge 220 ] || fail "only $entries entries"
[ "$failures" -eq 0 ]
