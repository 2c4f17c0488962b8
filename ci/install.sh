#!/usr/bin/env bash
# Installs cellcheck for projects built without Bazel:
#   PREFIX/bin/cellcheck                     the tool (certify --plugin, check, bench, ...)
#   PREFIX/bin/cellcheck-conformance         the conformance and golden tests' drivers for an
#   PREFIX/bin/cellcheck-golden              engine of a plugin (--plugin PATH --engine NAME)
#   PREFIX/include/cellcheck/...             the public headers: the contract (engines/engine.h),
#                                            the plugin ABI (engines/plugin.h), the model's types
#                                            and the harness (harness/harness.h, golden/golden.h)
#   PREFIX/lib/libcellcheck.a                the harness and all under it, position-independent
#   PREFIX/lib/pkgconfig/cellcheck.pc        pkg-config --cflags --libs cellcheck
#   PREFIX/share/cellcheck/golden/           the golden catalogue, its patterns and the goldens
#                                            in force (current -> .gen-..., hashes and snapshots)
# A plugin: cc -shared -fPIC my_engine.c $(pkg-config --cflags --libs cellcheck) -o my_engine.so
# Its own conformance test: a main calling cc_harness_conformance, linked the same way.
#   ci/install.sh PREFIX
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 1 ] || { echo "usage: ci/install.sh PREFIX" >&2; exit 2; }
mkdir -p "$1"
prefix=$(cd "$1" && pwd)
bash ci/setup.sh
bazel build //cli:cellcheck //install:libcellcheck //harness:plugin_conformance //golden:plugin_golden
bin=$(bazel info bazel-bin)

# Everything goes to a staging directory first: an install is whole or not at all.
stage=$(mktemp -d "$prefix/.install.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib/pkgconfig" "$stage/include/cellcheck" "$stage/share/cellcheck"
cp "$bin/cli/cellcheck" "$stage/bin/"
cp "$bin/harness/plugin_conformance" "$stage/bin/cellcheck-conformance"
cp "$bin/golden/plugin_golden" "$stage/bin/cellcheck-golden"
cp "$bin/install/libcellcheck.a" "$stage/lib/"
# The public headers: what harness/harness.h, golden/golden.h and engines/plugin.h include.
printf '#include "harness/harness.h"\n#include "golden/golden.h"\n#include "engines/plugin.h"\n' |
    gcc -MM -I. -x c - | tr ' \\' '\n\n' | grep '\.h$' | sort -u |
    while read -r h; do
        mkdir -p "$stage/include/cellcheck/$(dirname "$h")"
        cp "$h" "$stage/include/cellcheck/$h"
    done
mkdir -p "$stage/share/cellcheck/golden"
cp -r golden/catalogue.txt golden/patterns "$stage/share/cellcheck/golden/"
generation=$(readlink golden/current)
cp -r "golden/$generation" "$stage/share/cellcheck/golden/$generation"
ln -s "$generation" "$stage/share/cellcheck/golden/current"
version=$(git describe --always --dirty 2>/dev/null || echo unknown)
sed -e "s|@PREFIX@|$prefix|" -e "s|@VERSION@|$version|" install/cellcheck.pc.in \
    >"$stage/lib/pkgconfig/cellcheck.pc"
chmod -R u+w "$stage"
for d in bin lib include share; do
    mkdir -p "$prefix/$d"
    cp -r "$stage/$d/." "$prefix/$d/"
done
# The goldens an earlier install put in force, or laid out before generations, are not read.
find "$prefix/share/cellcheck/golden" -maxdepth 1 -name '.gen-*' ! -name "$generation" \
    -exec rm -rf {} +
rm -rf "$prefix/share/cellcheck/golden/hashes.txt" "$prefix/share/cellcheck/golden/snapshots"
echo "installed cellcheck $version under $prefix"
