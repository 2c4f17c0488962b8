/* The one file of cpu.life-ternlog built for AVX-512: called only once CPUID and XGETBV have said
 * AVX-512F is there. */
#ifndef CELLCHECK_ENGINES_CPU_LIFE_TERNLOG_KERNELS_H
#define CELLCHECK_ENGINES_CPU_LIFE_TERNLOG_KERNELS_H

#include "engines/cpu/bitrows/bitrows.h"

/* One step: every row of b->next from b->cur, by b->net. 0, or CC_ERR_NOMEM when a thread's
 * buffers cannot be had. */
int life_ternlog_step_rows_avx512(const bitrows *b);

#endif
