# shellcheck shell=bash
# Sourced by the GPU bundle's session.sh and scaling.sh (copied into the bundle as devices.sh): the
# GPUs a run may use and the device counts an engine over several devices is run with by default.

# The ids CUDA_VISIBLE_DEVICES names, else every GPU nvidia-smi lists; a line each, none without.
visible_gpus() {
    if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then tr ',' '\n' <<<"$CUDA_VISIBLE_DEVICES" | grep .
    else nvidia-smi -L 2>/dev/null | awk '{sub(":", "", $2); print $2}'; fi
}

# 1, 2, 4, ... below the number of visible GPUs, then that number (1 with none), comma-separated.
default_device_counts() {
    local n d list=""
    n=$(visible_gpus | wc -l)
    for ((d = 1; d < n; d *= 2)); do list+="$d,"; done
    echo "$list$(( n > 0 ? n : 1 ))"
}
