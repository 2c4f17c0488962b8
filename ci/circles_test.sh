#!/usr/bin/env bash
# ci/circles.py on planted trees: a circle through an include one way and a macro the other, one
# through a private header, and a tree without one (a local variable named like another file's
# function, a test that uses both sides) that it must pass.
# usage: circles_test.sh CIRCLES_PY
set -uo pipefail
circles=$1
root=${TEST_TMPDIR:-$(mktemp -d)}/circles
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

plant() { # plant DIR FILE TEXT
    mkdir -p "$(dirname "$1/$2")"
    printf '%s\n' "$3" >"$1/$2"
}

# expect NAME STATUS PATTERN...: the check's status on $root/NAME and lines its output must hold.
expect() {
    local name=$1 want=$2 out status
    shift 2
    out=$(python3 "$circles" "$root/$name" 2>&1)
    status=$?
    [ "$status" -eq "$want" ] || fail "$name: exit $status, expected $want; output:"$'\n'"$out"
    for pattern in "$@"; do
        grep -qxF -- "$pattern" <<<"$out" || fail "$name: no line '$pattern' in:"$'\n'"$out"
    done
}

# The oracle's old loop: files.c asks gridio for the cell limit, gridio calls files.c.
plant "$root/loop" fmt/files.h '#define FILES_CELLS_MAX 30
int files_read(const char *path);'
plant "$root/loop" fmt/files.c '#include "fmt/gridio.h"
int files_read(const char *path) { return path ? GRID_CELLS_MAX : 0; }'
plant "$root/loop" fmt/gridio.h '#include "fmt/files.h"
#define GRID_CELLS_MAX (1 << 30)
int grid_read(const char *path);'
plant "$root/loop" fmt/gridio.c '#include "fmt/gridio.h"
int grid_read(const char *path) { return files_read(path); }'
expect loop 1 "circle 1: 2 units: fmt/files.c, fmt/gridio.c" \
    '  fmt/files.c -> fmt/gridio.c: #include "fmt/gridio.h", GRID_CELLS_MAX' \
    '  fmt/gridio.c -> fmt/files.c: #include "fmt/files.h", files_read' \
    "1 circle(s) among 2 units (4 files)"

# A private header belongs to the unit whose name it extends: rle.c takes show_byte from
# gridio_internal.h, that is from gridio, which calls rle.c.
plant "$root/private" fmt/gridio.h 'int grid_read(const char *text);'
plant "$root/private" fmt/gridio_internal.h 'static inline char show_byte(char c) { return c; }'
plant "$root/private" fmt/gridio.c '#include "fmt/gridio.h"
#include "fmt/rle.h"
int grid_read(const char *text) { return rle_parse(text); }'
plant "$root/private" fmt/rle.h 'int rle_parse(const char *text);'
plant "$root/private" fmt/rle.c '#include "fmt/rle.h"
#include "fmt/gridio_internal.h"
int rle_parse(const char *text) { return show_byte(*text); }'
expect private 1 "circle 1: 2 units: fmt/gridio.c, fmt/rle.c" \
    '  fmt/rle.c -> fmt/gridio.c: #include "fmt/gridio_internal.h", show_byte'

# The same formats with what they share below them: no circle. rle.c's local `grid_read` is its
# own, not gridio's function, and the test above both ties nothing back.
plant "$root/layered" fmt/format.h '#define GRID_CELLS_MAX (1 << 30)
static inline char show_byte(char c) { return c; }'
plant "$root/layered" fmt/gridio.h '#include "fmt/format.h"
int grid_read(const char *text);'
plant "$root/layered" fmt/gridio.c '#include "fmt/gridio.h"
#include "fmt/rle.h"
int grid_read(const char *text) { return rle_parse(text) < GRID_CELLS_MAX; }'
plant "$root/layered" fmt/rle.h '#include "fmt/format.h"
int rle_parse(const char *text);'
plant "$root/layered" fmt/rle.c '#include "fmt/rle.h"
int rle_parse(const char *text) { int grid_read = show_byte(*text); return grid_read; }'
plant "$root/layered" fmt/gridio_test.c '#include "fmt/gridio.h"
#include "fmt/rle.h"
int main(void) { return grid_read("x") != rle_parse("x"); }'
expect layered 0 "no circle among 4 units (6 files)"

if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all circle checks passed"
