#!/usr/bin/env bash
# Coverage-guided fuzzing of the parsers with libFuzzer (clang 14, address and undefined-behaviour
# sanitizers, 2 GB of memory), starting from fuzz/corpus/. New inputs go to a scratch directory; a
# finding leaves its input in the current directory; every target runs, then a summary, and the
# exit is non-zero if any target found something.
#   ci/fuzz.sh [SECONDS_PER_TARGET]   default 60
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
seconds="${1:-60}"
if [ ! -f /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a ] || ! command -v clang-14 >/dev/null; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends clang-14 libclang-rt-14-dev libsodium-dev
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
types=(oracle/error.c oracle/files.c oracle/grid.c oracle/gridio.c oracle/gridtext.c oracle/rle.c
       oracle/rule.c oracle/rule_text.c)
# shellcheck disable=SC2054 # the commas belong to -fsanitize=
flags=(-std=c11 -O1 -g -I. -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined)
# Every target runs even when one finds something; the summary says what each found.
summary=() status=0
for target in rule grid case; do
    srcs=("${types[@]}" "fuzz/targets/${target}_fuzz.c")
    [ "$target" = grid ] || srcs+=(fuzz/targets/text_target.c)
    [ "$target" = case ] && srcs+=(oracle/case.c)
    clang-14 "${flags[@]}" "${srcs[@]}" -l:libsodium.a -lm -o "$out/$target"
    mkdir -p "$out/$target-corpus"
    echo "fuzzing $target for ${seconds}s"
    if "$out/$target" -max_total_time="$seconds" -max_len=4096 -rss_limit_mb=2048 \
        -malloc_limit_mb=2048 "$out/$target-corpus" "fuzz/corpus/$target" 2>"$out/$target.log"; then
        summary+=("$target: no finding, $(grep -c . "$out/$target.log") log lines, $(ls "$out/$target-corpus" | wc -l) new inputs")
    else
        status=1
        summary+=("$target: FOUND: $(grep -m1 -E 'ERROR|SUMMARY|Test unit written' "$out/$target.log")")
        tail -n 30 "$out/$target.log"
    fi
done
echo "fuzz summary (${seconds}s a target):"
printf '  %s\n' "${summary[@]}"
exit $status
