// What cuda.life-lop3's engines share on the host (CUDA C++, for their .cu files): the rule's
// kernels loaded from specialised PTX, and the cut of a device's rows into bands.
#ifndef CELLCHECK_ENGINES_CUDA_LIFE_LOP3_LIFE_LOP3_MODULE_CUH
#define CELLCHECK_ENGINES_CUDA_LIFE_LOP3_LIFE_LOP3_MODULE_CUH

#include <cuda_runtime.h>

#include "engines/cuda/life_lop3/life_lop3.h"

struct life_lop3_module {
    cudaLibrary_t library;
    cudaKernel_t stream, stream1, narrow; // the streaming pair, or the narrow kernel
};

// The rule's kernels (narrow: the one for W not a multiple of 32) on the current device; engine
// names the engine in messages. On failure nothing stays loaded.
int life_lop3_module_load(const char *engine, const cc_rule *rule, int narrow,
                          life_lop3_module *m, cc_error *err);
void life_lop3_module_unload(life_lop3_module *m);

// Bands over `rows` rows of `words` words such that about cfg->warps_per_sm warps run each
// multiprocessor: a warp takes 30 word columns of a band.
struct life_lop3_bands {
    int32_t groups, bands, band_rows;
    int64_t warps;
};
void life_lop3_bands_cut(int32_t words, int32_t rows, const life_lop3_config *cfg,
                         int multiprocessors, life_lop3_bands *b);

// Launches the module's streaming kernel (full: LIFE_LOP3_STEPS steps, else one) from src to dst,
// buffers of h rows of `words` words, over rows y_first .. y_first + y_count - 1 cut into bands b,
// blocks of `threads`, on stream; checks the launch, naming engine and device (-1: not named).
int life_lop3_launch_stream(const char *engine, int device, const life_lop3_module *m,
                            const life_lop3_bands *b, int threads, int full, const void *src,
                            void *dst, int32_t words, int32_t h, int32_t y_first, int32_t y_count,
                            cudaStream_t stream, cc_error *err);

#endif
