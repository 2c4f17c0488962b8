/* The AVX2 row kernels of cpu.avx2 (built with -mavx2). */
#ifndef CELLCHECK_ENGINES_CPU_AVX2_AVX2_KERNELS_H
#define CELLCHECK_ENGINES_CPU_AVX2_AVX2_KERNELS_H

#include "engines/cpu/sliding/sliding.h"

extern const sliding_kernels cpu_avx2_kernels;

#endif
