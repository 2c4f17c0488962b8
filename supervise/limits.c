/* The limits a worker's call runs under: time (a floor, plus the call's work at a rate: cells
 * for create, load, store and destroy, cell-neighbour visits at the engine's slowest step for a
 * step) and memory (the resident memory at start, the live contexts' estimates, a pool's
 * allowance and a margin), and the leak check when the last context is gone. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "supervise/supervisor_internal.h"

#define DEFAULT_SECONDS_PER_VISIT 1e-7 /* 1e7 visits a second until the engine shows its rate */
#define SECONDS_PER_CELL 1e-8
#define RATE_MIN_SECONDS 0.005

double sv_time_limit(const cc_supervisor *sv, double cells) {
    return sv->opt.time_floor_s + sv->opt.time_scale * cells * SECONDS_PER_CELL;
}

double sv_step_time_limit(const sv_engine *e, double visits) {
    double spv = e->slowest_spv > 0 ? e->slowest_spv : DEFAULT_SECONDS_PER_VISIT;
    return e->sv->opt.time_floor_s + e->sv->opt.time_scale * visits * spv;
}

void sv_step_rate_note(sv_engine *e, double visits, double elapsed_s) {
    if (elapsed_s >= RATE_MIN_SECONDS && visits > 0 && elapsed_s / visits > e->slowest_spv)
        e->slowest_spv = elapsed_s / visits;
}

int sv_end_for_time(cc_supervisor *sv, const call_info *ci, cc_error *err) {
    /* A hung call cannot be stopped from inside: the group gets SIGTERM, a grace period, then
     * SIGKILL. */
    kill(-sv->pid, SIGTERM);
    sv_await_exit(sv);
    sv_end_faulted(sv, 0, NULL);
    return cc_fail(err, CC_ERR_TIMEOUT,
                   "%s: timed out in %s: no answer within its limit of %.1f s (a floor of %.1f s, "
                   "--time-limit, and 20x the work at the engine's slowest rate); its process "
                   "group was ended",
                   ci->engine, ci->what, ci->limit_s, sv->opt.time_floor_s);
}

int sv_end_at_wait(cc_supervisor *sv, const call_info *ci, cc_error *err) {
    sv_end_asked(sv);
    return cc_fail(err, CC_ERR_TIMEOUT, "%s: %s still running after the %.1f s waited for",
                   ci->engine, ci->what, ci->limit_s);
}

/* Resident private memory of the worker, in bytes, from its statm (kept open: a call's cost
 * is a few microseconds); negative when it cannot be read. */
double sv_worker_rss(cc_supervisor *sv) {
    if (sv->statm < 0) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/statm", (int)sv->pid);
        sv->statm = open(path, O_RDONLY | O_CLOEXEC);
        if (sv->statm < 0) return -1;
    }
    char buf[128];
    ssize_t n = pread(sv->statm, buf, sizeof buf - 1, 0);
    if (n <= 0) return -1;
    buf[n] = '\0';
    unsigned long size, resident, shared;
    if (sscanf(buf, "%lu %lu %lu", &size, &resident, &shared) != 3) return -1;
    return (double)(resident > shared ? resident - shared : 0) * (double)sv->page;
}

static double mib(double bytes) { return bytes / (1024.0 * 1024.0); }

/* What an engine may keep with no context live: a pool (a caching allocator, a process-wide
 * buffer) holding up to its largest context's memory, once. A leak grows past it with the
 * contexts created; a pool does not. */
static double sv_pool_allowance(const cc_supervisor *sv) { return 1.5 * sv->need_max; }

/* The memory the worker may hold now: its live contexts' and the one being created, and a
 * pool's. */
static double creating_bytes(const cc_supervisor *sv) {
    return ((const sv_header *)(const void *)sv->map)->creating_host_bytes;
}

double sv_memory_limit(const cc_supervisor *sv) {
    double creating = creating_bytes(sv);
    return sv->rss_start + sv->opt.memory_margin + 1.5 * (sv->live_need + creating) +
           sv_pool_allowance(sv);
}

int sv_end_for_memory(cc_supervisor *sv, double rss, const call_info *ci, cc_error *err) {
    double kept = sv->rss_idle - sv->rss_start;
    int leak = sv->live == 0 || kept > sv_pool_allowance(sv) + sv->opt.memory_margin / 2;
    if (leak)
        cc_fail(err, CC_ERR_MEMORY_LIMIT,
                       "%s: leaked memory across cases: the worker held %.0f MiB in %s, past its "
                       "limit of %.0f MiB; %.0f MiB were still held with no context live after "
                       "%llu creates and %llu destroys",
                       ci->engine, mib(rss), ci->what, mib(sv_memory_limit(sv)),
                       mib(kept > 0 ? kept : rss - sv->rss_start), (unsigned long long)sv->created,
                       (unsigned long long)sv->destroyed);
    else
        cc_fail(err, CC_ERR_MEMORY_LIMIT,
                   "%s: out of memory: the worker held %.0f MiB in %s, past its limit of %.0f MiB "
                   "(%.0f at start + 1.5 x %.0f the engine's estimate for its %d live contexts + "
                   "1.5 x %.0f for the one being created + 1.5 x %.0f its largest context's, kept "
                   "as a pool + a margin of %.0f)",
                   ci->engine, mib(rss), ci->what, mib(sv_memory_limit(sv)), mib(sv->rss_start),
                   mib(sv->live_need), sv->live, mib(creating_bytes(sv)), mib(sv->need_max),
                   mib(sv->opt.memory_margin));
    sv_end_faulted(sv, 0, NULL);
    return CC_ERR_MEMORY_LIMIT;
}


int sv_idle_check(cc_supervisor *sv, int rc, const call_info *ci, cc_error *err) {
    double rss = sv_worker_rss(sv);
    if (rss > 0) sv->rss_idle = rss;
    if (rss - sv->rss_start > sv->stats.kept_bytes_max)
        sv->stats.kept_bytes_max = rss - sv->rss_start;
    /* Memory still held with nothing live, past a pool's and the margin: a leak across cases. */
    if (!rc && rss - sv->rss_start > sv_pool_allowance(sv) + sv->opt.memory_margin)
        rc = sv_end_for_memory(sv, rss, ci, err);
    return rc;
}
