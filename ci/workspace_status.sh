#!/usr/bin/env bash
# Bazel's workspace status (--workspace_status_command in .bazelrc): the commit and version that
# cellcheck prints and writes into its certificates (cli/BUILD's stamped version_c).
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
version=$(git describe --always --dirty 2>/dev/null || echo unknown)
echo "STABLE_CELLCHECK_COMMIT $commit"
echo "STABLE_CELLCHECK_VERSION $version"
