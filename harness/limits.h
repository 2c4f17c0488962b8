/* What one request may ask of this machine, checked before anything large is allocated or
 * started, each refusal naming the size asked for, what it needs and what there is:
 *   - work, in cell-neighbour visits: steps * W * H * (the neighbourhood + 1);
 *   - host memory, against MemAvailable (/proc/meminfo), or CELLCHECK_MEMORY_AVAILABLE (bytes)
 *     where it is set: what the request holds itself plus the engine's own estimate of its
 *     context (cc_engine.memory, from its layout), or a generic figure for an engine without one.
 *     Device memory is checked by the GPU driver at create, before it allocates anything.
 * The caps (README, "Limits"):
 *   run:            at most CC_RUN_WORK_MAX visits (about an hour of a fast GPU engine)
 *   check --case:   at most CC_CHECK_WORK_MAX visits, and the grids in host memory
 *   check --cases:  at most CC_CAMPAIGN_CASES_MAX (harness.h); --size up to CC_CAMPAIGN_SIDE_MAX
 *   bench, golden update: the run cap and the memory limit for each grid they run
 * and, for run, check --case, bench and golden update, a time budget (--budget SECONDS, default
 * CC_TIME_BUDGET_DEFAULT): work whose estimated time passes it is refused before it starts, with
 * the estimate. The estimate is a lower bound, from the fastest rate an engine of its kind runs
 * at (CC_RATE_*) and a floor per step; run also times the engine on the first steps of the real
 * grid and refuses from that measured rate. */
#ifndef CELLCHECK_HARNESS_LIMITS_H
#define CELLCHECK_HARNESS_LIMITS_H

#include <stdint.h>
#include <stdio.h>

#include "engines/engine.h"
#include "oracle/error.h"
#include "oracle/rule.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CC_RUN_WORK_MAX 1e15
#define CC_CHECK_WORK_MAX 1e15
#define CC_CAMPAIGN_SIDE_MAX 16384

#define CC_TIME_BUDGET_DEFAULT 3600.0 /* seconds: one hour */
#define CC_TIME_BUDGET_MAX 1e9
/* Cell-neighbour visits a second no engine of the kind is known to pass (bit-sliced r = 1
 * engines on wide vector units and GPUs come closest), and the least a step can cost. */
#define CC_RATE_ORACLE 1e10
#define CC_RATE_CPU 1e12
#define CC_RATE_GPU 1e14
#define CC_STEP_SECONDS_MIN 1e-7

/* A lower bound of the seconds steps of engine (NULL: the oracle) take on W x H. */
double cc_time_lower_bound(const cc_engine *engine, const cc_rule *rule, int32_t w, int32_t h,
                           int64_t steps);
/* CC_ERR_ARG when seconds pass budget (0: the default): what, the estimate, the budget, basis
 * (how it was estimated), and how to raise it. */
int cc_limit_time(const char *what, double seconds, double budget, const char *basis,
                  cc_error *err);
/* --budget SECONDS (an option parser): a number of seconds in 1..CC_TIME_BUDGET_MAX into the
 * double at dest. */
int cc_budget_parse(const char *flag, const char *value, void *dest, cc_error *err);
/* seconds as a person reads a duration: "40 s", "12 minutes", "4.2 hours", "3.1 days". */
void cc_format_duration(double seconds, char *buf, size_t size);

/* steps * W * H * (neighbourhood + 1). */
double cc_work_visits(const cc_rule *rule, int32_t w, int32_t h, int64_t steps);

/* CC_ERR_ARG, naming what, the request and the cap, when the work is above max. */
int cc_limit_work(const char *what, const cc_rule *rule, int32_t w, int32_t h, int64_t steps,
                  double max, cc_error *err);

/* Bytes of host memory available now: CELLCHECK_MEMORY_AVAILABLE when it is set (a whole number
 * of bytes; tests act out a small machine with it), else MemAvailable, else the physical memory;
 * 0 when nothing says. */
double cc_memory_available(void);
/* CC_OK when CELLCHECK_MEMORY_AVAILABLE is unset, empty or a number of bytes in 1..1e18; else
 * CC_ERR_ARG with its value, so a malformed stand-in is refused rather than ignored. */
int cc_memory_setting_check(cc_error *err);

/* Every setting read from the environment checked before any work: no CELLCHECK_ name within two
 * edits of a setting that is not one (a misspelt one), then CELLCHECK_REQUIRE and
 * CELLCHECK_MEMORY_AVAILABLE. CC_ERR_ARG naming the first that is wrong. Other CELLCHECK_ names
 * (a wrapper's own) are listed in ignored (may be NULL), for the caller to name. */
int cc_settings_check(char *ignored, size_t size, cc_error *err);

/* What a context of the engine on rule and W x H holds: its own estimate where it states one
 * (*stated = 1), else the generic one. */
cc_memory cc_engine_memory_need(const cc_engine *engine, const cc_rule *rule, int32_t w, int32_t h,
                                int *stated);

/* CC_ERR_NOMEM, before anything is allocated, when grids byte grids of W x H that the caller holds
 * plus the engine's host memory for that size are more than is available; the message names the
 * size, the bytes needed (and of what) and the bytes available. */
int cc_limit_engine_memory(const char *what, const cc_engine *engine, const cc_rule *rule,
                           int32_t w, int32_t h, double grids, cc_error *err);

/* The host memory a WxH request needs, bytes_per_cell a cell, against what is available now:
 * CC_ERR_NOMEM, naming the size, the bytes needed and the bytes available, when it is more. */
int cc_limit_memory(const char *what, int32_t w, int32_t h, double bytes_per_cell, cc_error *err);

/* One case past 2^32 cells at a time among this user's cellcheck processes on this machine: two
 * certifies that each pass the memory check alone would together exhaust it, and the kernel would
 * kill one engine mid-case, a crash that is not the engine's. The turn is an exclusive flock on
 * large-case.lock in $XDG_CACHE_HOME/cellcheck (else ~/.cache/cellcheck), taken before the memory
 * check; a wait for it is said on out, naming who waits. Returns the descriptor holding it, for
 * cc_limit_large_turn_end, or -1 with why in note where no lock could be had (the case then runs
 * without one, as before). The kernel lets it go when the process ends, however it ends. */
int cc_limit_large_turn(const char *who, FILE *out, char *note, size_t size);
void cc_limit_large_turn_end(int fd);

#ifdef __cplusplus
}
#endif

#endif
