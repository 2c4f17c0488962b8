#!/usr/bin/env bash
# Bazel's workspace status (--workspace_status_command in .bazelrc): the commit and version that
# cellcheck prints and writes into its certificates (cli/BUILD's stamped version_c); ci/install.sh
# writes the same version into the pkg-config and CMake files. The release number has one source,
# the file VERSION; the commit is appended as semantic versioning's build metadata
# (0.9.0+g1a2b3c4d5e6f, ".dirty" for uncommitted changes), which pkg-config --atleast-version
# and CMake's version check both order after 0.9.0 and before 0.9.1.
cd "$(dirname "$0")/.." || exit 1
release=$(tr -d ' \t\r\n' <VERSION 2>/dev/null)
case "$release" in
'' | *[!0-9.]* | .* | *. | *..*)
    echo "ci/workspace_status.sh: VERSION must hold a release number like 0.9.0, not '$release'" >&2
    exit 1
    ;;
esac
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
version=$release
if [ "$commit" != unknown ]; then
    version="$release+g$commit"
    [ -z "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] || version="$version.dirty"
fi
echo "STABLE_CELLCHECK_COMMIT $commit"
echo "STABLE_CELLCHECK_RELEASE $release"
echo "STABLE_CELLCHECK_VERSION $version"
