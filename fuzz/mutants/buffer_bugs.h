/* Engines wrong only for a caller's buffer placed other than the harness placed it before the
 * caller-buffers section (a page-aligned shared grid with readable bands around it): the
 * per-cell loop of mutants.h at Life-like rules (Moore, r = 1, M0), its load and store moving
 * 16 bytes at a time as SIMD ports do.
 *   mutant.aligned-store   store writes with aligned 16-byte stores (_mm_store_si128): it
 *                          faults on an output not 16-byte aligned
 *   mutant.tail-overread   load reads its input in whole 16-byte chunks (_mm_loadu_si128), the
 *                          last one past the last cell when W * H is not a multiple of 16
 *   control.simd-copy      unaligned 16-byte loads and stores, the tail byte by byte: right */
#ifndef CELLCHECK_FUZZ_MUTANTS_BUFFER_BUGS_H
#define CELLCHECK_FUZZ_MUTANTS_BUFFER_BUGS_H

#include "engines/engine.h"

/* The two mutants, then the control; NULL-terminated. */
const cc_engine *const *cc_mutants_buffer_bugs(void);

#endif
