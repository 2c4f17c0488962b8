#!/usr/bin/env bash
# Installs cellcheck for projects built without Bazel:
#   PREFIX/bin/cellcheck                     the tool (certify --plugin, check, bench, ...); it
#                                            knows the reference engines (cpu.ref, and cuda.base
#                                            when built with CUDA) and the plugins it loads
#   PREFIX/bin/cellcheck-conformance         the conformance and golden tests' drivers for an
#   PREFIX/bin/cellcheck-golden              engine of a plugin (--plugin PATH --engine NAME)
#   PREFIX/include/cellcheck/...             the public headers: the contract (engines/engine.h),
#                                            the plugin ABI (engines/plugin.h), the model's types
#                                            and the harness (harness/harness.h, golden/golden.h)
#   PREFIX/lib/libcellcheck.a                the harness and all under it, position-independent
#   PREFIX/lib/pkgconfig/cellcheck.pc        pkg-config --cflags --libs cellcheck
#   PREFIX/lib/cmake/cellcheck/              find_package(cellcheck): the target cellcheck::cellcheck
#   PREFIX/share/cellcheck/golden/           the golden catalogue, its patterns and the goldens
#                                            in force (current -> .gen-..., hashes and snapshots);
#                                            the installed programs read them outside a source tree
#   PREFIX/share/man/man1/cellcheck.1        the man page (and the drivers' names for it)
#   PREFIX/share/bash-completion/completions/  bash completion: cellcheck and the drivers
#   PREFIX/share/zsh/site-functions/_cellcheck zsh completion
#   PREFIX/share/cellcheck/certificate.schema.json   certificate.json's layout (JSON Schema), and
#   PREFIX/share/cellcheck/validate_certificate.py   its validator: validate_certificate.py FILE...
# A plugin: cc -shared -fPIC my_engine.c $(pkg-config --cflags --libs cellcheck) -o my_engine.so
# Its own conformance test: a main calling cc_harness_conformance, linked with
# $(pkg-config --static --libs cellcheck) (the archive's own dependencies: libsodium, libpng, zlib,
# libseccomp).
#
#   ci/install.sh [--cpu-only | --cuda] PREFIX
# With CUDA when nvcc is on PATH (the build uses CUDA 13 at /usr/local/cuda), else CPU only, which
# needs no CUDA at all: --cpu-only asks for that wherever nvcc is, --cuda refuses to go on without it.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
    echo "usage: ci/install.sh [--cpu-only | --cuda] PREFIX" >&2
    exit 2
}
cuda=auto
prefix_arg=""
for arg in "$@"; do
    case "$arg" in
    --cpu-only) cuda=no ;;
    --cuda) cuda=yes ;;
    -h | --help)
        sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
        exit 0
        ;;
    -*)
        echo "ci/install.sh: unknown option $arg" >&2
        usage
        ;;
    *)
        [ -z "$prefix_arg" ] || { echo "ci/install.sh: one PREFIX, not '$prefix_arg' and '$arg'" >&2; usage; }
        prefix_arg=$arg
        ;;
    esac
done
[ -n "$prefix_arg" ] || usage
if [ "$cuda" = auto ]; then
    if command -v nvcc >/dev/null 2>&1; then cuda=yes; else cuda=no; fi
elif [ "$cuda" = yes ] && ! command -v nvcc >/dev/null 2>&1; then
    echo "ci/install.sh: --cuda, but nvcc is not on PATH (CUDA 13 at /usr/local/cuda/bin)" >&2
    exit 1
fi

mkdir -p "$prefix_arg"
prefix=$(cd "$prefix_arg" && pwd)
if [ "$cuda" = yes ]; then
    bash ci/setup.sh
    tool=//cli:cellcheck_installed_cuda
else
    bash ci/setup.sh --cpu-only
    tool=//cli:cellcheck_installed_cpu
fi
# Only what is installed: the tool with its reference engines, the drivers and the archive.
bazel build "$tool" //install:libcellcheck //harness:plugin_conformance //golden:plugin_golden
bin=$(bazel info bazel-bin)

# The version Bazel stamped into the tool in this build (ci/workspace_status.sh's lines), so the
# files below say what `cellcheck --version` says even when the tree changed since.
status=$(cat "$(bazel info output_path)/stable-status.txt")
version=$(sed -n 's/^STABLE_CELLCHECK_VERSION //p' <<<"$status")
release=$(sed -n 's/^STABLE_CELLCHECK_RELEASE //p' <<<"$status")
commit=$(sed -n 's/^STABLE_CELLCHECK_COMMIT //p' <<<"$status")
if [ -z "$version" ] || [ -z "$release" ]; then
    echo "ci/install.sh: no version in Bazel's stable-status.txt (ci/workspace_status.sh)" >&2
    exit 1
fi

# Everything goes to a staging directory first: an install is whole or not at all.
stage=$(mktemp -d "$prefix/.install.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib/pkgconfig" "$stage/lib/cmake/cellcheck" \
    "$stage/include/cellcheck" "$stage/share/cellcheck"
cp "$bin/cli/${tool#//cli:}" "$stage/bin/cellcheck"
cp "$bin/harness/plugin_conformance" "$stage/bin/cellcheck-conformance"
cp "$bin/golden/plugin_golden" "$stage/bin/cellcheck-golden"
cp "$bin/install/libcellcheck.a" "$stage/lib/"
# The public headers: what harness/harness.h, golden/golden.h and engines/plugin.h include.
printf '#include "harness/harness.h"\n#include "golden/golden.h"\n#include "engines/plugin.h"\n' |
    gcc -MM -I. -x c - | tr -s ' \134' '\n' | grep '\.h$' | sort -u |
    while read -r h; do
        mkdir -p "$stage/include/cellcheck/$(dirname "$h")"
        cp "$h" "$stage/include/cellcheck/$h"
    done
# The man page, and the completions where bash-completion and zsh look under a prefix.
mkdir -p "$stage/share/man/man1" "$stage/share/bash-completion/completions" \
    "$stage/share/zsh/site-functions"
cp install/cellcheck.1 "$stage/share/man/man1/"
for driver in cellcheck-conformance cellcheck-golden; do
    echo ".so man1/cellcheck.1" >"$stage/share/man/man1/$driver.1"
done
for command in cellcheck cellcheck-conformance cellcheck-golden; do
    cp install/completion/cellcheck.bash "$stage/share/bash-completion/completions/$command"
done
cp install/completion/_cellcheck "$stage/share/zsh/site-functions/"
mkdir -p "$stage/share/cellcheck/golden"
cp -r golden/catalogue.txt golden/patterns "$stage/share/cellcheck/golden/"
generation=$(readlink golden/current)
cp -r "golden/$generation" "$stage/share/cellcheck/golden/$generation"
ln -s "$generation" "$stage/share/cellcheck/golden/current"
cp cli/certificate.schema.json cli/validate_certificate.py "$stage/share/cellcheck/"
chmod 755 "$stage/share/cellcheck/validate_certificate.py"
cuda_flag=no cmake_cuda=FALSE
[ "$cuda" = no ] || { cuda_flag=yes; cmake_cuda=TRUE; }
sed -e "s|@PREFIX@|$prefix|" -e "s|@VERSION@|$version|" -e "s|@COMMIT@|$commit|" \
    -e "s|@CUDA@|$cuda_flag|" install/cellcheck.pc.in >"$stage/lib/pkgconfig/cellcheck.pc"
sed -e "s|@VERSION@|$version|" -e "s|@COMMIT@|$commit|" -e "s|@CUDA@|$cmake_cuda|" \
    install/cellcheckConfig.cmake.in >"$stage/lib/cmake/cellcheck/cellcheckConfig.cmake"
sed -e "s|@RELEASE@|$release|" install/cellcheckConfigVersion.cmake.in \
    >"$stage/lib/cmake/cellcheck/cellcheckConfigVersion.cmake"
chmod -R u+w "$stage"
for d in bin lib include share; do
    mkdir -p "$prefix/$d"
    cp -r "$stage/$d/." "$prefix/$d/"
done
# The goldens an earlier install put in force, or laid out before generations, are not read.
find "$prefix/share/cellcheck/golden" -maxdepth 1 -name '.gen-*' ! -name "$generation" \
    -exec rm -rf {} +
rm -rf "$prefix/share/cellcheck/golden/hashes.txt" "$prefix/share/cellcheck/golden/snapshots"
if [ "$cuda" = yes ]; then what="with CUDA"; else what="CPU only"; fi
echo "installed cellcheck $version ($what) under $prefix"
