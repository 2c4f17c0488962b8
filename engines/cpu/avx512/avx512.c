/* cpu.avx512: the CAT paper's OMP+AVX512 engine. OpenMP bands of rows; in each band the counts
 * slide down one row at a time (engines/cpu/sliding), so a step costs about the same per cell at
 * every radius; the vector work is 64 cells at a time in AVX-512 (avx512_kernels.c, the only code
 * built for AVX-512, called only once CPUID and XGETBV have said it is there). */
#include "engines/cpu/avx512/avx512_kernels.h"
#include "engines/cpu/sliding/sliding.h"
#include "engines/engine.h"

SLIDING_ENGINE(cc_engine_cpu_avx512, "cpu.avx512",
               "CPU OpenMP + AVX-512: counts sliding down bands of rows, 64 cells a vector",
               CC_HW_AVX512, &cpu_avx512_kernels);
