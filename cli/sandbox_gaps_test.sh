#!/usr/bin/env bash
# What certify says of the workers' sandbox (supervise/sandbox.h): every part in force here
# (CERTIFIED); on a machine without Landlock and namespaces (deny_mechanisms) the missing part is
# the gap sandbox:absent with why, and INCOMPLETE; --sandbox off is the gap sandbox:asked; a gap
# accepted by name is CERTIFIED again, and says so.
#   sandbox_gaps_test.sh CELLCHECK DENY_MECHANISMS
set -u
tool=$(realpath "$1") deny=$(realpath "$2")
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# A fast certify: the slow sections left out and accepted, so the sandbox decides the verdict.
accepted=huge-grid,shapes,step-counts,campaign
fast=(--engine cpu.life-ternlog --cases 30 --leave-out "$accepted")

run() { # name, want status, verdict, then the command
    local name=$1 want=$2 verdict=$3
    shift 3
    mkdir -p "$tmp/$name"
    "$@" --out-dir "$tmp/$name" >"$tmp/$name/out" 2>&1
    local rc=$?
    if [ "$rc" -ne "$want" ]; then fail "$name: exit $rc, not $want"; tail -n 5 "$tmp/$name/out"; fi
    if ! grep -Eq "^\| cpu.life-ternlog \| [a-z0-9]+ \| $verdict" "$tmp/$name/certificate.md"; then
        fail "$name: not $verdict"
        grep "^| cpu.life-ternlog" "$tmp/$name/certificate.md"
    fi
    echo "$name: exit $rc, $(grep -o "workers' sandbox: .*" "$tmp/$name/certificate.md" | head -n1)"
}

run all-in-force 0 CERTIFIED "$tool" certify "${fast[@]}" --accept-gap "$accepted"
# Where the CUDA driver is, the network part says how it is narrowed (developing.md).
narrowed='$'
[ -e /dev/nvidiactl ] && narrowed=' \(network: narrowed: unix SOCK_SEQPACKET sockets stay open for the CUDA driver'
grep -Eq "workers' sandbox: in force: network, filesystem, environment, processes, signals, privileges, limits$narrowed" \
    "$tmp/all-in-force/certificate.md" || fail "all-in-force: the provenance does not list every part"

run no-landlock 4 INCOMPLETE "$deny" "$tool" certify "${fast[@]}" --accept-gap "$accepted"
grep -q 'sandbox:absent.*not in force on this machine: filesystem (.*Landlock is not in this kernel' \
    "$tmp/no-landlock/out" || fail "no-landlock: no gap sandbox:absent naming the filesystem and why"
grep -q '"sandbox": "in force: network, environment, processes, signals, privileges, limits; not in force: filesystem' \
    "$tmp/no-landlock/certificate.json" || fail "no-landlock: certificate.json's sandbox does not say it"
grep -o 'sandbox:absent.*' "$tmp/no-landlock/out" | head -n1 | sed 's/^/  /'

run accepted 0 CERTIFIED "$deny" "$tool" certify "${fast[@]}" --accept-gap "$accepted,sandbox"
grep -q 'sandbox:absent.*(accepted)' "$tmp/accepted/out" || fail "accepted: the gap is not shown accepted"

run off 4 INCOMPLETE "$tool" certify "${fast[@]}" --accept-gap "$accepted" --sandbox off
grep -q 'sandbox:asked.*--sandbox off' "$tmp/off/out" || fail "off: no gap sandbox:asked"

echo "sandbox_gaps_test: $failures failures"
[ "$failures" -eq 0 ]
