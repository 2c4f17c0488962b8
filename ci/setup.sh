#!/usr/bin/env bash
# Installs what building and testing cellcheck needs on a fresh Debian bookworm machine:
# Bazel 4 (bazel-bootstrap), libsodium, libpng, zlib, jansson and libseccomp (static libraries
# and headers), OpenMP (with gcc), Make, pkg-config and CMake (for the examples), the linters
# yamllint and shellcheck (ci/lint.sh), and Python 3 with jsonschema (the certificate schema's
# test, .ci/run's count).
# CUDA 13 is expected at /usr/local/cuda; without it the CUDA targets cannot build, and only
# `ci/setup.sh --cpu-only` (what a CPU-only ci/install.sh runs) goes on without it.
set -euo pipefail
cpu_only=0
case "${1:-}" in
--cpu-only) cpu_only=1 ;;
'') ;;
*)
    echo "usage: ci/setup.sh [--cpu-only]" >&2
    exit 2
    ;;
esac

need=()
command -v bazel >/dev/null 2>&1 || need+=(bazel-bootstrap)
[ -f /usr/lib/x86_64-linux-gnu/libsodium.a ] || need+=(libsodium-dev)
[ -f /usr/lib/x86_64-linux-gnu/libpng.a ] || need+=(libpng-dev)
[ -f /usr/lib/x86_64-linux-gnu/libz.a ] || need+=(zlib1g-dev)
# certificate.json is written through jansson (cli/certificate/json.c).
[ -f /usr/lib/x86_64-linux-gnu/libjansson.a ] || need+=(libjansson-dev)
# The workers' seccomp filter goes through libseccomp (supervise/sandbox_filter.c), linked
# statically: the GPU bundle runs where the library is not installed.
[ -f /usr/lib/x86_64-linux-gnu/libseccomp.a ] || need+=(libseccomp-dev)
# The examples of engines from elsewhere build with Make and pkg-config, or CMake.
command -v make >/dev/null 2>&1 || need+=(make)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
command -v cmake >/dev/null 2>&1 || need+=(cmake)
# The workflow files' linter, and the shell scripts' (ci/lint.sh).
command -v yamllint >/dev/null 2>&1 || need+=(yamllint)
command -v shellcheck >/dev/null 2>&1 || need+=(shellcheck)
# Python 3 with jsonschema: certificates validated against cli/certificate.schema.json
# (//cli:certificate_test) and .ci/run's count of Bazel's results (ci/count_results.py).
/usr/bin/python3 -c 'import jsonschema' >/dev/null 2>&1 || need+=(python3 python3-jsonschema)
command -v gcc >/dev/null 2>&1 || need+=(gcc)
# Slurm and MUNGE: certify's shards run through a job array on a one-node cluster in a test
# (ci/slurm_local.sh, //cli:certify_slurm_test).
command -v sbatch >/dev/null 2>&1 || need+=(slurmctld slurmd slurm-client munge)
if [ ${#need[@]} -gt 0 ]; then
    echo "setup: installing ${need[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${need[@]}"
fi

if [ "$cpu_only" -eq 0 ] && [ ! -x /usr/local/cuda/bin/nvcc ]; then
    echo "setup: /usr/local/cuda/bin/nvcc not found; the CUDA engines need CUDA 13 there" >&2
    exit 1
fi
