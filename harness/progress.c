/* Progress lines on stderr (progress.h). */
#define _POSIX_C_SOURCE 200809L
#include "harness/progress.h"

#include <inttypes.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

double cc_now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int wanted(int mode) { return mode > 0 || (mode == 0 && isatty(2)); }

void cc_progress_start(cc_progress *p, int mode, const char *engine, const char *what,
                       uint64_t total) {
    p->on = wanted(mode);
    p->engine = engine;
    p->what = what;
    p->total = total;
    p->start = p->last = cc_now_seconds();
}

static void line(const cc_progress *p, uint64_t done, uint64_t failed, double t) {
    double rate = t > p->start ? (double)done / (t - p->start) : 0.0;
    double left = rate > 0 && p->total > done ? (double)(p->total - done) / rate : 0.0;
    fprintf(stderr, "%s: %s: %" PRIu64 " of %" PRIu64 " done, %" PRIu64 " failed, %.1f/s, %.0f s left\n",
            p->engine, p->what, done, p->total, failed, rate, left);
}

void cc_progress_tick(cc_progress *p, uint64_t done, uint64_t failed) {
    if (!p->on) return;
    double t = cc_now_seconds();
    if (t - p->last < 1.0) return;
    p->last = t;
    line(p, done, failed, t);
}

void cc_progress_end(cc_progress *p, uint64_t done, uint64_t failed) {
    if (p->on) line(p, done, failed, cc_now_seconds());
}

void cc_progress_note(int mode, const char *engine, const char *what) {
    if (!wanted(mode)) return;
    fprintf(stderr, "%s: %s\n", engine, what);
}
