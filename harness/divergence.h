/* Where a failing case first diverges from the oracle, and the picture of the difference. */
#ifndef CELLCHECK_HARNESS_DIVERGENCE_H
#define CELLCHECK_HARNESS_DIVERGENCE_H

#include <stdint.h>

#include "engines/engine.h"
#include "oracle/case.h"
#include "oracle/error.h"

/* C++ callers (CUDA engines, ports) see C linkage. */
#ifdef __cplusplus
extern "C" {
#endif

typedef struct cc_divergence {
    int known;                   /* 0: not a grid difference (an error or a refusal) */
    int64_t first_step;          /* first step whose grids differ; 0: right after load */
    int single_steps_agree;      /* step(1) repeated matched the oracle at every step; only
                                  * step(j) in one call differs, first at j = first_step */
    int32_t x, y;                /* first differing cell (row-major order) at first_step */
    uint8_t engine_value, oracle_value;
    uint64_t differing_first;    /* cells differing at first_step */
    uint64_t differing_end;      /* cells differing after step(steps) in one call */
    char png[1024];              /* the difference picture at first_step, or "" */
    char note[512];              /* why the analysis stopped short (an engine error), or "" */
} cc_divergence;

/* How long the divergence search may run before it reports what it found so far. */
#define CC_DIVERGENCE_BUDGET_S 30.0

/* Where a failing case first diverges: the round trip, then step(1) repeated, then step(j) in
 * one call. Writes the difference picture into report_dir (when not NULL) with tag in its name. */
int harness_divergence(const cc_engine *engine, const cc_case *c, const char *report_dir,
                       const char *tag, cc_divergence *d, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
