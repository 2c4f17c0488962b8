/* Whether the machine has a CUDA device new enough for an engine: every CUDA engine's
 * cc_engine.available goes through here, so they all refuse a missing driver or an old device
 * with the same words. */
#ifndef CELLCHECK_ENGINES_CUDA_DEVGRID_PROBE_H
#define CELLCHECK_ENGINES_CUDA_DEVGRID_PROBE_H

#ifdef __cplusplus
extern "C" {
#endif

#include "oracle/error.h"

/* 0 when device 0 exists and has compute capability >= major.minor; otherwise
 * CC_ERR_UNAVAILABLE with what was found. engine (may be NULL) names who needs that capability
 * in the message. */
int cc_cuda_probe(const char *engine, int major, int minor, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
