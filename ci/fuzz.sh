#!/usr/bin/env bash
# Coverage-guided fuzzing of the parsers with libFuzzer (clang 14, address and undefined-behaviour
# sanitizers), starting from fuzz/corpus/. New inputs go to a scratch directory; a crash leaves its
# input in the current directory and a non-zero exit.
#   ci/fuzz.sh [SECONDS_PER_TARGET]   default 60
set -euo pipefail
cd "$(dirname "$0")/.."
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
flags=(-std=c11 -O1 -g -I. -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined)
for target in rule grid case; do
    srcs=("${types[@]}" "fuzz/targets/${target}_fuzz.c")
    [ "$target" = grid ] || srcs+=(fuzz/targets/text_target.c)
    [ "$target" = case ] && srcs+=(oracle/case.c)
    clang-14 "${flags[@]}" "${srcs[@]}" -l:libsodium.a -lm -o "$out/$target"
    mkdir -p "$out/$target-corpus"
    echo "fuzzing $target for ${seconds}s"
    "$out/$target" -max_total_time="$seconds" -max_len=4096 "$out/$target-corpus" "fuzz/corpus/$target"
done
