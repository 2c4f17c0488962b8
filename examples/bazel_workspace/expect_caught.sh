#!/usr/bin/env bash
# Passes when the conformance test given fails by catching its engine: a non-zero exit and a
# report of what differed from the oracle; and its reproducer, run as printed, fails the same way.
out=$("$1" --cases 300 2>&1)
status=$?
echo "$out" | tail -n 5
[ $status -ne 0 ] || { echo "not caught: the conformance test passed"; exit 1; }
echo "$out" | grep -q "mismatch with the oracle" || { echo "failed without a mismatch"; exit 1; }
repro=$(echo "$out" | grep -m1 '^  reproduce: ' | sed 's/^  reproduce: //')
[ -n "$repro" ] || { echo "no reproducer printed"; exit 1; }
case "$repro" in "$1 --case '"*) ;; *) echo "the reproducer does not run this binary: $repro"; exit 1 ;; esac
again=$(eval "$repro" 2>&1)
[ $? -eq 1 ] || { echo "the reproducer did not fail: $again"; exit 1; }
echo "$again" | grep -q "mismatch with the oracle" || { echo "the reproducer failed otherwise: $again"; exit 1; }
echo "caught, as it must be; the reproducer fails the same way: $repro"
