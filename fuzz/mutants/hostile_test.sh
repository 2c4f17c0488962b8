#!/usr/bin/env bash
# The hostile corpus (hostile.c) against cellcheck check, certify and the conformance driver,
# inside the workers' sandbox (supervise/sandbox.h). Every run must end with exit status 1 and
# the verdict that names the attempt, and afterwards: no secret in any output or certificate, no
# connection accepted by the listeners, no file changed outside the workers' scratch directories
# (which are gone), no process of the corpus alive.
#   hostile_test.sh CELLCHECK CONFORMANCE LIBHOSTILE LIBHOSTILE_CTOR [--sandbox off]
# With --sandbox off (passed on to every run) it shows what the sandbox stops: it must fail.
set -uo pipefail
cellcheck=$(realpath "$1") conformance=$(realpath "$2") plugin=$(realpath "$3") ctor=$(realpath "$4")
shift 4
sandbox=("$@")
[ -f golden/catalogue.txt ] || { echo "hostile_test: run me where golden/catalogue.txt is" >&2; exit 2; }
tmp=$(mktemp -d "${TEST_TMPDIR:-/tmp}/hostile.XXXXXX")
# A unix socket's path is short (108 bytes): its own directory under /tmp, outside any scratch.
sock_dir=$(mktemp -d /tmp/hostile-sock.XXXXXX)
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The targets, and secrets no output may hold.
secret_file="secret-file-$RANDOM$RANDOM$RANDOM"
secret_token="secret-token-$RANDOM$RANDOM$RANDOM"
mkdir -p "$tmp/home" "$tmp/cert" "$tmp/scratch-parent"
echo "$secret_file" >"$tmp/home/secret"
export HOSTILE_SECRET_TOKEN=$secret_token
export HOSTILE_SECRET_FILE=$tmp/home/secret
export HOSTILE_UNIX=$sock_dir/listener.sock
export HOSTILE_CERT_DIR=$tmp/cert
HOSTILE_GOLDEN_DIR=$(realpath golden)
export HOSTILE_GOLDEN_DIR
export HOSTILE_PID_FILE=$tmp/sleepers
export HOSTILE_MARK=$tmp/shell-ran
# The targets reach the workers by name (the secret's variable does not).
export CELLCHECK_WORKER_ENV=HOSTILE_SECRET_FILE,HOSTILE_UNIX,HOSTILE_CERT_DIR,HOSTILE_GOLDEN_DIR,HOSTILE_PID_FILE,HOSTILE_MARK,HOSTILE_PORT
# The workers' scratch directories go under TMPDIR: all must be gone afterwards.
export TMPDIR=$tmp/scratch-parent

# Listeners on 127.0.0.1 and on a unix socket outside any scratch directory; each connection
# accepted is a line of $tmp/accepted.
python3 - "$tmp" "$HOSTILE_UNIX" <<'EOF' &
import os, select, socket, sys
tmp = sys.argv[1]
tcp = socket.socket(); tcp.bind(("127.0.0.1", 0)); tcp.listen(16)
uds = socket.socket(socket.AF_UNIX); uds.bind(sys.argv[2]); uds.listen(16)
with open(os.path.join(tmp, "port.tmp"), "w") as f: f.write(str(tcp.getsockname()[1]))
os.rename(os.path.join(tmp, "port.tmp"), os.path.join(tmp, "port"))
while not os.path.exists(os.path.join(tmp, "stop")):
    ready, _, _ = select.select([tcp, uds], [], [], 0.2)
    for s in ready:
        c, _ = s.accept()
        with open(os.path.join(tmp, "accepted"), "a") as f: f.write("tcp\n" if s is tcp else "unix\n")
        c.close()
EOF
listener=$!
for _ in $(seq 50); do [ -f "$tmp/port" ] && break; sleep 0.1; done
HOSTILE_PORT=$(cat "$tmp/port")
export HOSTILE_PORT
cleanup() {
    touch "$tmp/stop"
    wait "$listener" 2>/dev/null
    # Sleepers that escaped (only without the sandbox) are ended here, after they were counted.
    [ -f "$tmp/sleepers" ] && while read -r pid; do kill -9 "$pid" 2>/dev/null; done <"$tmp/sleepers"
    rm -f "$HOSTILE_GOLDEN_DIR/planted"
    rm -rf "$tmp" "$sock_dir"
}
trap cleanup EXIT

# Everything outside the scratch directories that a worker could change, before the runs.
snapshot() {
    find "$tmp/home" "$HOSTILE_GOLDEN_DIR/" -newer "$tmp/port" -o -name planted 2>/dev/null | sort
}
before=$(snapshot)

runs=0
run() { # what, then the command; output in $tmp/out, status in $rc
    local what=$1
    shift
    "$@" "${sandbox[@]}" >"$tmp/out" 2>&1
    rc=$?
    runs=$((runs + 1))
    cat "$tmp/out" >>"$tmp/all-output"
    if grep -q -e "$secret_file" -e "$secret_token" "$tmp/out"; then fail "$what: a secret in its output"; fi
}

expect() { # what, the verdict's extended regular expression
    local what=$1 class=$2
    if [ "$rc" -ne 1 ]; then fail "$what: exit $rc, not 1"; tail -n 3 "$tmp/out" | sed 's/^/    /'; return; fi
    if ! grep -Eq "$class" "$tmp/out"; then
        fail "$what: no '$class' in its output"
        grep -E 'FAILED|broke|error' "$tmp/out" | head -n 3 | sed 's/^/    /'
        return
    fi
    echo "  $what: exit 1: $(grep -Eo "$class" "$tmp/out" | head -n1)"
}

cases=(--cases 20 --time-limit 10)
corpus=(
    "hostile.read-secret|reading $tmp/home/secret: Permission denied; HOSTILE_SECRET_TOKEN: unset"
    "hostile.connect-tcp|connect to 127.0.0.1:$HOSTILE_PORT: Connection refused"
    "hostile.connect-unix|socket\(AF_UNIX\): Permission denied"
    "hostile.write-files|writing $tmp/cert/planted: Permission denied"
    "hostile.fork-sleeper|broke the sandbox: tried clone\(2\) of a new process \(fork\)"
    "hostile.signal-parent|broke the sandbox: tried kill\(2\) toward pid [0-9]+ \(the supervisor\) with SIGTERM"
    "hostile.shell|broke the sandbox: tried execve\(2\) of another program"
)
for entry in "${corpus[@]}"; do
    engine=${entry%%|*} class=${entry#*|}
    echo "$engine"
    run "check $engine" "$cellcheck" --plugin "$plugin" check --engine "$engine" "${cases[@]}"
    expect "check" "FAILED: $engine: .*$class"
    # The slow sections left out: without the sandbox (the mutant run) an engine passes them.
    run "certify $engine" "$cellcheck" --plugin "$plugin" certify --engine "$engine" "${cases[@]}" \
        --leave-out huge-grid,shapes,step-counts --out-dir "$tmp/cert"
    expect "certify" "FAILED: $engine: .*$class"
    cat "$tmp/cert/certificate.md" "$tmp/cert/certificate.json" >>"$tmp/all-output" 2>/dev/null
    if ! grep -Eq "^\| $engine \| cpu \| FAILED" "$tmp/cert/certificate.md"; then
        fail "certify $engine: its certificate row is not FAILED"
    fi
    run "conformance $engine" "$conformance" --plugin "$plugin" --engine "$engine" "${cases[@]}"
    expect "conformance" "$class"
done

echo "a plugin that tries it all in its constructor"
for cmd in list "check --engine mutant.control" "certify --engine mutant.control --out-dir $tmp/cert"; do
    # shellcheck disable=SC2086
    run "$cmd (constructor)" "$cellcheck" --plugin "$ctor" $cmd
    expect "$cmd" "loading plugin $ctor: worker: broke the sandbox: tried clone\(2\) of a new process \(fork\) in start-up"
done
# The driver refuses a plugin that cannot be loaded as an argument (exit 2, as for faults_test's
# constructor), never 0.
run "conformance (constructor)" "$conformance" --plugin "$ctor" --engine mutant.control
if [ "$rc" -eq 0 ] || ! grep -q "loading plugin $ctor: worker: broke the sandbox: tried clone(2)" "$tmp/out"; then
    fail "conformance (constructor): exit $rc"
else echo "  conformance: exit $rc: $(grep -o 'broke the sandbox: tried clone(2)[^;]*' "$tmp/out" | head -n1)"; fi

echo "after $runs runs"
sleep 0.5 # a sleeper that escaped has written its pid by now
if grep -rq -e "$secret_file" -e "$secret_token" "$tmp/all-output" "$tmp/cert"; then
    fail "a secret reached an output or a certificate"
else
    echo "  no secret in any output or certificate"
fi
if [ -s "$tmp/accepted" ]; then fail "the listeners accepted: $(sort "$tmp/accepted" | uniq -c | tr '\n' ' ')"
else echo "  no connection reached the listeners"; fi
after=$(snapshot)
planted=$(find "$tmp" "$HOSTILE_GOLDEN_DIR/" -name planted 2>/dev/null)
if [ "$before" != "$after" ] || [ -n "$planted" ] || [ -e "$tmp/shell-ran" ]; then
    fail "files changed outside the scratch directories: ${planted:-} $([ -e "$tmp/shell-ran" ] && echo "$tmp/shell-ran")"
else echo "  no file changed outside the scratch directories"; fi
left=$(find "$TMPDIR" -mindepth 1 -maxdepth 1 | wc -l)
if [ "$left" -ne 0 ]; then fail "$left scratch directories left behind"; else echo "  every scratch directory removed"; fi
alive=0
if [ -f "$tmp/sleepers" ]; then
    while read -r pid; do kill -0 "$pid" 2>/dev/null && alive=$((alive + 1)); done <"$tmp/sleepers"
    fail "$(wc -l <"$tmp/sleepers") sleepers started, $alive still alive"
else echo "  no process of the corpus started or survived"; fi

echo "hostile_test: $failures failures"
[ "$failures" -eq 0 ]
