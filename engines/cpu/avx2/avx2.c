/* cpu.avx2: the CAT paper's OMP+AVX256 engine. OpenMP bands of rows; in each band the counts
 * slide down one row at a time (engines/cpu/sliding), so a step costs about the same per cell at
 * every radius; the vector work is 32 cells at a time in AVX2 (avx2_kernels.c, the only code
 * built for AVX2, called only once CPUID and XGETBV have said it is there). */
#include "engines/cpu/avx2/avx2_kernels.h"
#include "engines/cpu/sliding/sliding.h"
#include "engines/engine.h"

SLIDING_ENGINE(cc_engine_cpu_avx2, "cpu.avx2",
               "CPU OpenMP + AVX2: counts sliding down bands of rows, 32 cells a vector",
               CC_HW_AVX2, &cpu_avx2_kernels);
