// mutant.launch-rows's device code: a correct one-thread-per-cell Moore step on 32x16 blocks,
// except that its launch grid has one block row per 16 rows clamped to CUDA's limit of 65535 in
// y, and no loop over the rows past it. Up to 65535 * 16 = 1,048,560 rows it is exact; past that
// the last rows are never computed and keep the values of two generations before. Any grid that
// tall is thin (2^28 cells at most in the checks), so it costs little to catch.
#include <cuda_runtime.h>

#include "engines/cuda/common/check.cuh"
#include "engines/cuda/common/gpu.h"
#include "engines/cuda/devgrid/devgrid.h"
#include "fuzz/mutants/launch_rows.h"

namespace {

constexpr int block_w = 32, block_h = 16;
constexpr int launch_y_max = 65535;
constexpr const char *engine = "mutant.launch-rows";

__global__ void launch_rows_kernel(cc_devgrid_view v) {
    const int x = (int)(blockIdx.x * block_w + threadIdx.x);
    const int y = (int)(blockIdx.y * block_h + threadIdx.y);
    if (x >= v.w || y >= v.h) return;
    int count = 0;
    for (int dy = -v.radius; dy <= v.radius; dy++) {
        const size_t row = (size_t)((y + dy + v.h) % v.h);
        for (int dx = -v.radius; dx <= v.radius; dx++) {
            const size_t col = (size_t)((x + dx + v.w) % v.w);
            count += v.in[row * v.pitch + v.lead + col];
        }
    }
    const size_t i = (size_t)y * v.pitch + v.lead + (size_t)x;
    const int alive = v.in[i];
    v.out[i] = v.table[alive * v.table_stride + count - (v.centre ? 0 : alive)];
}

int launch_rows_step(const cc_devgrid_view *v, cc_error *err) {
    const int blocks_x = (v->w + block_w - 1) / block_w;
    int blocks_y = (v->h + block_h - 1) / block_h;
    if (blocks_y > launch_y_max) blocks_y = launch_y_max; // the bug: the rows past it are lost
    launch_rows_kernel<<<dim3(blocks_x, blocks_y), dim3(block_w, block_h)>>>(*v);
    return cc_cuda_launched(err, engine, "launch_rows_kernel");
}

const cc_devgrid_ops ops = {launch_rows_step, nullptr};

} // namespace

extern "C" int mutant_launch_rows_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                         cc_error *err) {
    return cc_devgrid_create(engine, rule, w, h, (size_t)w, 0, &ops, ctx, err);
}
