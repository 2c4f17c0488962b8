#!/usr/bin/env bash
# Certifying engines from elsewhere, as their owners would, each route from a fresh install done
# as docs/porting.md says (ci/install.sh PREFIX, then PATH and PKG_CONFIG_PATH):
#   the Make plugin (pkg-config) and the CMake plugin (find_package), against the install made
#     with CUDA where nvcc is on PATH;
#   the plugin over several (emulated) devices, certified over 2 and 3 with the count in its
#     certificates, and its twin with a device seam bug caught over each;
#   the Make plugin again against a CPU-only install made on a PATH without nvcc;
#   for each: the correct engine CERTIFIED, the wrong one failed by certify with its mismatch
#     named, and the first reproducer that failing run printed, run as printed, failing alike;
#   the installed programs outside a source tree: --help, the installed goldens, the version;
#   the CUDA plugin example built with nvcc and loaded (certified on GPU runners from the bundle);
#   the external Bazel workspace's tests.
# One line per check: "EXAMPLE <name> PASSED" or "EXAMPLE <name> FAILED", then exit 1 if any failed.
# The routes run in three lanes side by side (lane, below), whose lines are printed lane by lane.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
# Seconds since the last verdict, so a slow route shows where the time went.
last_verdict=$SECONDS
verdict() { # NAME STATUS
    echo "    $1: $((SECONDS - last_verdict)) s"
    last_verdict=$SECONDS
    if [ "$2" -eq 0 ]; then echo "EXAMPLE $1 PASSED"; else echo "EXAMPLE $1 FAILED"; failed=1; fi
}
cases=${CELLCHECK_EXAMPLE_CASES:-300}
# The case past 2^32 cells needs more memory than a 24 GiB CI machine has for these engines, and
# may be too slow here: accepted by name, so the certificate says it was left out, and any other
# gap still makes it INCOMPLETE.
accept=huge-grid:memory,huge-grid:time
# Fewer campaign cases than certify's 2000 is a gap too (campaign:asked).
if [ "$cases" -lt 2000 ]; then accept=$accept,campaign:asked; fi
base_path=$PATH

# route NAME DIR CERTIFY WRONG [KINDS]: in DIR, the shell command CERTIFY certifies the example's
# correct engine and WRONG its wrong variant, which must fail with a failure of KINDS (an extended
# regular expression; default: a mismatch with the oracle); three verdicts: NAME_certified,
# NAME_wrong_caught and NAME_reproducer_fails_alike.
route() {
    local name=$1 dir=$2 certify=$3 wrong=$4 kinds=${5:-mismatch with the oracle} status
    local log=$work/$1
    (cd "$dir" && bash -c "$certify") >"$log.log" 2>&1
    status=$?
    grep -q "^1 certified, 0 failed" "$log.log" || status=1
    [ $status -eq 0 ] || tail -20 "$log.log"
    verdict "${name}_certified" $status

    (cd "$dir" && bash -c "$wrong") >"$log.wrong.log" 2>&1
    status=$?
    # The first reproducer (with the device count an engine over several devices ran with) and
    # the failure on the FAILED line just above it.
    local reproducer mismatch first='^  reproduce: (CELLCHECK_DEVICES=[0-9]+ )?cellcheck '
    reproducer=$(grep -m1 -E "$first" "$log.wrong.log" | sed 's/^  reproduce: //')
    # The replay's report names the first diverging step's cell, not the verdict's cell of the
    # final grid ("among them"): what must match is the failure and its count.
    mismatch=$(grep -m1 -B1 -E "$first" "$log.wrong.log" |
        sed -n -E "s/^FAILED: .*: (($kinds): .*)\$/\1/p" | sed 's/, among them .*//')
    if [ $status -ne 0 ] && grep -q "^0 certified, 1 failed" "$log.wrong.log" &&
        [ -n "$reproducer" ] && [ -n "$mismatch" ]; then
        status=0
    else
        tail -20 "$log.wrong.log"
        status=1
    fi
    verdict "${name}_wrong_caught" $status

    status=1
    if [ -n "$reproducer" ]; then
        (cd "$dir" && bash -c "$reproducer") >"$log.reproduce.log" 2>&1
        status=$?
        if [ $status -eq 1 ] && grep -qF "$mismatch" "$log.reproduce.log"; then
            status=0
        else
            echo "    ran: $reproducer (exit $status), expected: $mismatch"
            tail -5 "$log.reproduce.log"
            status=1
        fi
    fi
    verdict "${name}_reproducer_fails_alike" $status
}

# The install with CUDA where nvcc is on PATH (else CPU only), as docs/porting.md's install does.
prefix=$work/prefix
bash ci/install.sh "$prefix" >"$work/install.log" 2>&1 || { cat "$work/install.log"; exit 1; }
tail -1 "$work/install.log"
export PATH="$prefix/bin:$base_path" PKG_CONFIG_PATH="$prefix/lib/pkgconfig"

# Lane a: the Make and CMake plugins, then the installed programs (which use the Make plugin).
plugins_make_and_cmake() {
    cp -r examples/plugin_make "$work/make"
    route plugin_make "$work/make" "make -s certify CASES=$cases ACCEPT_GAPS=$accept" \
        "make -s certify-wrong CASES=$cases ACCEPT_GAPS=$accept"
    # The installed validator, with the schema beside it, on the certificate a port's make wrote: it
    # names the plugin's build string (CC_PLUGIN_BUILD in threshold.c).
    python3 "$prefix/share/cellcheck/validate_certificate.py" "$work/make/certificate.json" \
        >"$work/validate.log" 2>&1 &&
        grep -q '"build": "threshold.c, compiler ' "$work/make/certificate.json"
    status=$?
    [ $status -eq 0 ] || cat "$work/validate.log"
    verdict installed_validator_and_source $status

    cp -r examples/plugin_cmake "$work/cmake"
    (cd "$work/cmake" && cmake -S . -B build -DCMAKE_PREFIX_PATH="$prefix" -DEXAMPLE_CASES="$cases" \
        -DEXAMPLE_ACCEPT_GAPS="$accept" &&
        cmake --build build) >"$work/cmake-build.log" 2>&1
    status=$?
    [ $status -eq 0 ] || tail -20 "$work/cmake-build.log"
    verdict plugin_cmake_built $status
    route plugin_cmake "$work/cmake" "cmake --build build --target certify" \
        "cmake --build build --target certify-wrong"
    # Its conformance tests through CTest, added by the package's cellcheck_add_conformance_test:
    # the right engine passes, the wrong one (as wrong.example.rowsums) fails with its mismatch
    # named.
    (cd "$work/cmake/build" && ctest -V) >"$work/cmake-ctest.log" 2>&1
    status=$?
    grep -q "100% tests passed, 0 tests failed out of 2" "$work/cmake-ctest.log" &&
        grep -q "FAILED: wrong.example.rowsums: .*mismatch with the oracle" "$work/cmake-ctest.log" &&
        grep -q "reproduce: cellcheck --plugin [^ ]*:wrong check --engine wrong.example.rowsums" \
            "$work/cmake-ctest.log" || status=1
    [ $status -eq 0 ] || tail -30 "$work/cmake-ctest.log"
    verdict plugin_cmake_ctest $status
}

# Lane b: the plugin over several devices, then the CPU-only install (its PATH and
# PKG_CONFIG_PATH in the lane's own shell).
plugin_devices() {
    # The plugin over several devices (examples/plugin_devices, its devices emulated on the CPU),
    # at 2 and 3 devices: example.slabs CERTIFIED with the count in its certificate and its device
    # seams in the light cones; its twin with a device seam bug, example.slabs-late, failed; the
    # twin's reproducer, run as printed where CELLCHECK_DEVICES is not set, fails alike and names
    # the count again in its own reproducer.
    cp -r examples/plugin_devices "$work/devices"
    (cd "$work/devices" && make -s all) >"$work/devices-build.log" 2>&1
    status=$?
    [ $status -eq 0 ] || tail -20 "$work/devices-build.log"
    verdict plugin_devices_built $status
    for devices in 2 3; do
        route "plugin_devices_$devices" "$work/devices" \
            "make -s certify DEVICES=$devices CASES=$cases ACCEPT_GAPS=$accept" \
            "make -s certify-late DEVICES=$devices CASES=$cases ACCEPT_GAPS=$accept" \
            'mismatch with the oracle|differs under a call pattern'
        status=0
        json=$work/devices/certified-$devices/certificate.json
        md=$work/devices/certified-$devices/certificate.md
        grep -q "\"engine\": \"example.slabs\", .*\"verdict\": \"CERTIFIED\".*\"devices\": $devices," \
            "$json" 2>/dev/null || { echo "    $json: not CERTIFIED over $devices devices"; status=1; }
        grep -q "\"seam_classes\": \"[^\"]*device seams, device corners" "$json" 2>/dev/null ||
            { echo "    $json: the light cones did not sample the device seams"; status=1; }
        grep -q "^| example.slabs | cpu x $devices | CERTIFIED |" "$md" 2>/dev/null ||
            { echo "    $md: no row for example.slabs over $devices devices"; status=1; }
        grep -q "\"devices\": $devices," "$work/devices/late-$devices/certificate.json" 2>/dev/null ||
            { echo "    the twin's certificate does not say $devices devices"; status=1; }
        grep -q "^  reproduce: CELLCHECK_DEVICES=$devices cellcheck " \
            "$work/plugin_devices_$devices.reproduce.log" ||
            { echo "    the twin's reproducer does not name $devices devices when run"; status=1; }
        verdict "plugin_devices_${devices}_counted" $status
    done
}

installed_tools() {
    # The installed programs, run outside any source tree.
    status=0
    outside=$work/outside
    mkdir -p "$outside"
    for command in "cellcheck" "cellcheck list" "cellcheck run" "cellcheck check" "cellcheck certify" \
        "cellcheck golden" "cellcheck golden verify" "cellcheck golden update" "cellcheck bench" \
        "cellcheck gate" "cellcheck-conformance" "cellcheck-golden"; do
        # shellcheck disable=SC2086 # a command and its subcommands, split on purpose
        (cd "$outside" && $command --help) >"$work/help.log" 2>&1
        help_status=$?
        if [ $help_status -ne 0 ] || ! grep -q "^usage: " "$work/help.log"; then
            echo "    $command --help: exit $help_status: $(head -1 "$work/help.log")"
            status=1
        fi
    done
    # The goldens installed under PREFIX/share/cellcheck, not a checkout's.
    if ! (cd "$outside" && cellcheck golden verify) >"$work/verify.log" 2>&1 ||
        ! grep -q "of $prefix/bin/../share/cellcheck/golden/" "$work/verify.log"; then
        echo "    golden verify:"
        tail -3 "$work/verify.log"
        status=1
    fi
    if ! (cd "$outside" && cellcheck-golden --plugin "$work/make/libthreshold.so" \
        --engine example.threshold) >"$work/golden.log" 2>&1 ||
        ! grep -q "golden cases passed" "$work/golden.log"; then
        echo "    cellcheck-golden:"
        tail -3 "$work/golden.log"
        status=1
    fi
    if (cd "$outside" && cellcheck-golden --plugin "$work/make/libthreshold_wrong.so" \
        --engine example.threshold) >"$work/golden-wrong.log" 2>&1 ||
        ! grep -q "golden cases FAILED" "$work/golden-wrong.log"; then
        echo "    cellcheck-golden, wrong engine:"
        tail -3 "$work/golden-wrong.log"
        status=1
    fi
    verdict installed_tools_outside_checkout $status

    # A port author's day with the installed tools: a Golly RLE without a topology is refused as
    # an unbounded pattern, and runs on the grid --size states (a glider, by hand one cell down and
    # right after 4 steps); a quick certify with the port's source named (INCOMPLETE, never
    # CERTIFIED); a wrong engine's every failure in JUnit (--keep-going); list as JSON; the man
    # page and completions.
    status=0
    printf 'x = 3, y = 3, rule = B3/S23\nbob$2bo$3o!\n' >"$work/glider.rle"
    if (cd "$outside" && cellcheck run --engine oracle --steps 4 --in "$work/glider.rle" \
        --out "$work/glider-out.txt") >"$work/unbounded.log" 2>&1 ||
        ! grep -q "unbounded pattern" "$work/unbounded.log"; then
        echo "    an RLE without :T or :P was not refused as an unbounded pattern:"
        tail -3 "$work/unbounded.log"
        status=1
    fi
    printf '00000000\n00100000\n00010000\n01110000\n00000000\n00000000\n00000000\n00000000\n' \
        >"$work/glider-want.txt"
    if ! (cd "$outside" && cellcheck run --engine oracle --steps 4 --size 8x8 --in "$work/glider.rle" \
        --out "$work/glider-out.txt") >"$work/sized.log" 2>&1 ||
        [ "$(tr -cd '01' <"$work/glider-out.txt")" != "$(tr -cd '01' <"$work/glider-want.txt")" ]; then
        echo "    the glider on --size 8x8 after 4 steps is not one cell down and right:"
        cat "$work/sized.log" "$work/glider-out.txt" 2>/dev/null | head -12
        status=1
    fi
    (cd "$outside" && cellcheck --plugin "$work/make/libthreshold.so" certify --quick \
        --engine example.threshold --source-name threshold --source-version 1.0 \
        --out-dir "$work/quick/new") >"$work/quick.log" 2>&1
    quick_status=$?
    if [ $quick_status -ne 4 ] || ! grep -q '"quick": true' "$work/quick/new/certificate.json" ||
        ! grep -q '"name": "threshold"' "$work/quick/new/certificate.json" ||
        ! python3 "$prefix/share/cellcheck/validate_certificate.py" \
            "$work/quick/new/certificate.json" >>"$work/quick.log" 2>&1; then
        echo "    certify --quick: exit $quick_status (not 4), or no quick flag, source or valid JSON:"
        tail -5 "$work/quick.log"
        status=1
    fi
    (cd "$outside" && cellcheck --plugin "$work/make/libthreshold_wrong.so" check \
        --engine example.threshold --cases 30 --keep-going --junit "$work/check.xml") \
        >"$work/keep-going.log" 2>&1
    if [ $? -ne 1 ] || [ "$(grep -c '<failure' "$work/check.xml" 2>/dev/null)" -lt 2 ]; then
        echo "    check --keep-going --junit on the wrong engine: not exit 1 with its failures in JUnit"
        tail -3 "$work/keep-going.log"
        status=1
    fi
    (cd "$outside" && cellcheck list --json) >"$work/list.json" 2>"$work/list.err" &&
        python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert "cpu.ref" in str(d)' \
            "$work/list.json" || { echo "    list --json: not JSON naming cpu.ref"; status=1; }
    for f in share/man/man1/cellcheck.1 share/bash-completion/completions/cellcheck \
        share/zsh/site-functions/_cellcheck; do
        [ -s "$prefix/$f" ] || { echo "    not installed: $f"; status=1; }
    done
    verdict installed_daily_loop $status

    # One version: the release of VERSION and the commit, alike in the tool, pkg-config and CMake.
    status=0
    release=$(tr -d '[:space:]' <VERSION)
    version=$(pkg-config --modversion cellcheck)
    next_minor=$(awk -F. '{ print $1 "." $2 + 1 ".0" }' <<<"$release")
    case "$version" in "$release+g"*) ;; *) echo "    pkg-config version $version, not $release+g<commit>"; status=1 ;; esac
    cellcheck --version | grep -qF "cellcheck $version (commit " ||
        { echo "    cellcheck --version: $(cellcheck --version), pkg-config: $version"; status=1; }
    pkg-config --atleast-version="$release" cellcheck ||
        { echo "    pkg-config --atleast-version=$release refused $version"; status=1; }
    pkg-config --atleast-version="$next_minor" cellcheck &&
        { echo "    pkg-config --atleast-version=$next_minor accepted $version"; status=1; }
    grep -q "^set(PACKAGE_VERSION \"$release\")" "$prefix/lib/cmake/cellcheck/cellcheckConfigVersion.cmake" ||
        { echo "    cellcheckConfigVersion.cmake does not say $release"; status=1; }
    verdict install_version $status

    cp -r examples/plugin_cuda "$work/cuda"
    (cd "$work/cuda" && make -s all) >"$work/cuda.log" 2>&1
    status=$?
    # It loads here too (a symbol left undefined, say a C++-mangled one, is refused at load), and
    # says why it cannot run without a GPU.
    if [ $status -eq 0 ]; then
        cellcheck --plugin "$work/cuda/libcuda_threshold.so" list >>"$work/cuda.log" 2>&1 &&
            grep -q "^example.cuda-threshold gpu" "$work/cuda.log" || status=1
    fi
    [ $status -eq 0 ] || tail -20 "$work/cuda.log"
    verdict plugin_cuda_built_and_loads $status
}

cpu_only() {
    # A CPU-only install on a PATH without nvcc: found absent, nothing of CUDA built or installed.
    no_nvcc_path=""
    IFS=: read -ra dirs <<<"$base_path"
    for d in "${dirs[@]}"; do
        [ -x "$d/nvcc" ] || no_nvcc_path="${no_nvcc_path:+$no_nvcc_path:}$d"
    done
    cpu_prefix=$work/cpu-prefix
    PATH=$no_nvcc_path bash ci/install.sh "$cpu_prefix" >"$work/cpu-install.log" 2>&1
    status=$?
    tail -1 "$work/cpu-install.log"
    export PATH="$cpu_prefix/bin:$no_nvcc_path" PKG_CONFIG_PATH="$cpu_prefix/lib/pkgconfig"
    cellcheck list >"$work/cpu-list.log" 2>&1
    if [ $status -ne 0 ] || ! grep -q "(CPU only) under $cpu_prefix\$" "$work/cpu-install.log" ||
        [ "$(pkg-config --variable=cuda cellcheck)" != no ] ||
        ! grep -q "^cpu.ref " "$work/cpu-list.log" || grep -q "^cuda\." "$work/cpu-list.log"; then
        tail -20 "$work/cpu-install.log" "$work/cpu-list.log"
        status=1
    fi
    verdict cpu_only_install_without_nvcc $status
    cp -r examples/plugin_make "$work/cpu-make"
    route cpu_only_plugin_make "$work/cpu-make" "make -s certify CASES=$cases ACCEPT_GAPS=$accept" \
        "make -s certify-wrong CASES=$cases ACCEPT_GAPS=$accept"
}

# Lanes of routes that share nothing: a plugin's engine runs on one thread, so one certify at a
# time left a core of this 2-core machine mostly idle. Their cases past 2^32 cells take turns
# (docs/certificate.md), so two certifies never hold that memory at once. Each lane's lines go to
# its own file, printed whole once all are done.
lane() { # NAME FUNCTION...: the functions in order in a shell of its own; exit 1 if one failed
    local name=$1
    shift
    (
        failed=0 last_verdict=$SECONDS
        for step in "$@"; do "$step"; done
        exit $failed
    ) >"$work/lane-$name.out" 2>&1
}
bazel_workspace() {
    (cd examples/bazel_workspace && bazel test //... 2>&1) >"$work/bazel.log"
    status=$?
    [ $status -eq 0 ] || tail -30 "$work/bazel.log"
    grep -E "^//.*(PASSED|FAILED)" "$work/bazel.log" | sed 's/^/    /'
    verdict bazel_workspace $status
    (cd examples/bazel_workspace && bazel shutdown >/dev/null 2>&1)
}

lane a plugins_make_and_cmake installed_tools &
lane_a=$!
lane b plugin_devices cpu_only &
lane_b=$!
# A third lane: the external workspace's build fills the time the other two wait for a turn.
lane c bazel_workspace &
lane_c=$!
wait $lane_a || failed=1
wait $lane_b || failed=1
wait $lane_c || failed=1
cat "$work/lane-a.out" "$work/lane-b.out" "$work/lane-c.out"
cd "$root" && exit $failed
