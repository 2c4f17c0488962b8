/* Progress of long work on stderr (a campaign's cases, certify's sections): done of total,
 * failures so far, the rate and the time left, at most once a second; on a terminal by default,
 * or when asked (--progress), never when told not to. */
#ifndef CELLCHECK_HARNESS_PROGRESS_H
#define CELLCHECK_HARNESS_PROGRESS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cc_progress {
    int on;
    const char *engine, *what;
    uint64_t total;
    double start, last; /* seconds, monotonic */
} cc_progress;

/* Seconds on the monotonic clock. */
double cc_now_seconds(void);

/* mode: 0 when stderr is a terminal, 1 always, -1 never. */
void cc_progress_start(cc_progress *p, int mode, const char *engine, const char *what,
                       uint64_t total);
void cc_progress_tick(cc_progress *p, uint64_t done, uint64_t failed);
void cc_progress_end(cc_progress *p, uint64_t done, uint64_t failed);
/* One line now: "engine: what" (a section starting). */
void cc_progress_note(int mode, const char *engine, const char *what);

#ifdef __cplusplus
}
#endif

#endif
