#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for testing job arrays where no cluster is at hand
# (Debian's Slurm and MUNGE, which ci/setup.sh installs; root needed).
#   ci/slurm_local.sh start DIR   config, state and logs under DIR (a short path: slurmd's Unix
#                                 sockets go there, 108 bytes at most); waits until the node is idle
#   ci/slurm_local.sh stop DIR    stops the daemons started with that DIR
# start leaves a cluster that is already answering as it is (and stop then leaves it too).
set -euo pipefail
action=${1:-}
dir=${2:-}
if [ -z "$action" ] || [ -z "$dir" ]; then
    echo "usage: ci/slurm_local.sh start|stop DIR" >&2
    exit 2
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

stop() {
    for name in slurmd slurmctld munged; do
        [ -f "$dir/$name.pid" ] || continue
        kill "$(cat "$dir/$name.pid")" 2>/dev/null || true
        rm -f "$dir/$name.pid"
    done
}

if [ "$action" = stop ]; then
    stop
    exit 0
fi
if [ "$action" != start ]; then
    echo "ci/slurm_local.sh: unknown action $action (start or stop)" >&2
    exit 2
fi
for tool in slurmctld slurmd sbatch sinfo munged; do
    command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || {
        echo "ci/slurm_local.sh: $tool is not installed (ci/setup.sh installs Slurm and MUNGE)" >&2
        exit 1
    }
done
if [ "$(id -u)" -ne 0 ]; then
    echo "ci/slurm_local.sh: the daemons need root" >&2
    exit 1
fi
if sinfo -h -o %t 2>/dev/null | grep -qx idle; then
    echo "slurm: a cluster already answers; using it"
    exit 0
fi

host=$(hostname -s)
cpus=$(nproc)
memory=$(awk '/MemTotal/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)
# MUNGE: a key if there is none, its socket directory, the daemon.
if [ ! -f /etc/munge/munge.key ]; then
    dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null
    chown munge:munge /etc/munge/munge.key
    chmod 400 /etc/munge/munge.key
fi
mkdir -p /run/munge && chown munge:munge /run/munge
if ! pgrep -x munged >/dev/null; then
    su -s /bin/sh munge -c "/usr/sbin/munged --pid-file=/run/munge/munged.pid" \
        </dev/null >/dev/null 2>&1
    cp /run/munge/munged.pid "$dir/munged.pid"
fi
mkdir -p "$dir/ctld" "$dir/d" /etc/slurm
# The controller runs as root: DIR may be where no other user can reach (a test's temporary
# directory under /root).
cat >/etc/slurm/slurm.conf <<EOF
ClusterName=local
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/d
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName=$host CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
# Detached from the caller's output, which a test runner waits on.
/usr/sbin/slurmctld </dev/null >/dev/null 2>&1
/usr/sbin/slurmd </dev/null >/dev/null 2>&1
for _ in $(seq 60); do
    if sinfo -h -o %t 2>/dev/null | grep -qx idle; then
        echo "slurm: one node ($host, $cpus CPUs) idle"
        exit 0
    fi
    sleep 1
done
echo "ci/slurm_local.sh: the node did not become idle in 60 s; see $dir/slurmctld.log" >&2
stop
exit 1
