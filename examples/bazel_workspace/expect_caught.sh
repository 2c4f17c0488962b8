#!/usr/bin/env bash
# Passes when the conformance test given fails by catching its engine: a non-zero exit and a
# report of what differed from the oracle.
out=$("$1" --cases 300 2>&1)
status=$?
echo "$out" | tail -n 5
[ $status -ne 0 ] || { echo "not caught: the conformance test passed"; exit 1; }
echo "$out" | grep -q "mismatch with the oracle" || { echo "failed without a mismatch"; exit 1; }
echo "caught, as it must be"
