// mutant.offset32's device code: a correct one-thread-per-cell Moore step, except that every cell
// offset is computed in 32 bits. Below 2^32 cells it is exact; past 2^32 the offsets of the last
// rows wrap onto the first ones, so those rows read wrong neighbours and write over the top of the
// grid, while the cells past the wrap are never written. Tensor-core ports with 32-bit fragment
// offsets fail the same way, only on grids larger than any the oracle steps whole.
#include <cuda_runtime.h>

#include "engines/cuda/common/check.cuh"
#include "engines/cuda/common/gpu.h"
#include "engines/cuda/devgrid/devgrid.h"
#include "fuzz/mutants/offset32.h"

namespace {

constexpr int block = 32;
constexpr const char *engine = "mutant.offset32";

__global__ void offset32_kernel(cc_devgrid_view v, int blocks_y) {
    const int x = (int)(blockIdx.x * block + threadIdx.x);
    if (x >= v.w) return;
    for (int by = blockIdx.y; by < blocks_y; by += gridDim.y) {
        const int y = by * block + (int)threadIdx.y;
        if (y >= v.h) return;
        int count = 0;
        for (int dy = -v.radius; dy <= v.radius; dy++) {
            const int row = (y + dy + v.h) % v.h;
            for (int dx = -v.radius; dx <= v.radius; dx++) {
                const int col = (x + dx + v.w) % v.w;
                count += v.in[(uint32_t)row * (uint32_t)v.w + (uint32_t)col]; // the bug
            }
        }
        const uint32_t i = (uint32_t)y * (uint32_t)v.w + (uint32_t)x; // the bug
        const int alive = v.in[i];
        v.out[i] = v.table[alive * v.table_stride + count - (v.centre ? 0 : alive)];
    }
}

int offset32_step(const cc_devgrid_view *v, cc_error *err) {
    const int blocks_x = (v->w + block - 1) / block, blocks_y = (v->h + block - 1) / block;
    offset32_kernel<<<cc_cuda_grid(blocks_x, blocks_y), dim3(block, block)>>>(*v, blocks_y);
    return cc_cuda_launched(err, engine, "offset32_kernel");
}

const cc_devgrid_ops ops = {offset32_step, nullptr};

} // namespace

extern "C" int mutant_offset32_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                      cc_error *err) {
    return cc_devgrid_create(engine, rule, w, h, (size_t)w, 0, &ops, ctx, err);
}
