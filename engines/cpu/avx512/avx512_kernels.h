/* The AVX-512 row kernels of cpu.avx512 (built with -mavx512f -mavx512bw). */
#ifndef CELLCHECK_ENGINES_CPU_AVX512_AVX512_KERNELS_H
#define CELLCHECK_ENGINES_CPU_AVX512_AVX512_KERNELS_H

#include "engines/cpu/sliding/sliding.h"

extern const sliding_kernels cpu_avx512_kernels;

#endif
