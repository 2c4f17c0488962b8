// mutant.legacy-load's device code (legacy_load.h): a correct one-thread-per-cell Moore step on a
// stream of its own created cudaStreamNonBlocking, and a load whose copy goes on the legacy
// default stream without a wait, the race of an engine that mixes the two. Everything else is
// right: every CUDA call and launch is checked, steps and stores wait for their own stream.
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>

#include <vector>

#include "engines/cuda/common/check.cuh"
#include "engines/cuda/devgrid/devgrid.h"
#include "fuzz/mutants/legacy_load.h"

namespace {

constexpr const char *engine = "mutant.legacy-load";
constexpr int block_w = 32, block_h = 8;

struct legacy_load {
    int32_t w, h, radius, stride, centre;
    uint8_t *grid[2]; // ping-pong, each w * h bytes
    int cur;
    uint8_t *table;   // next state: table[alive * stride + count]
    cudaStream_t stream; // cudaStreamNonBlocking: never waits for the legacy stream
    int has_stream;
    char device[256];
};

__global__ void step_kernel(const uint8_t *in, uint8_t *out, int32_t w, int32_t h, int32_t r,
                            const uint8_t *table, int32_t stride, int centre) {
    const int64_t x = (int64_t)blockIdx.x * block_w + threadIdx.x;
    if (x >= w) return;
    for (int64_t y = (int64_t)blockIdx.y * block_h + threadIdx.y; y < h;
         y += (int64_t)gridDim.y * block_h) {
        int count = 0;
        for (int dy = -r; dy <= r; dy++) {
            const int64_t row = (y + dy + h) % h;
            for (int dx = -r; dx <= r; dx++) count += in[row * w + (x + dx + w) % w];
        }
        const int alive = in[y * w + x];
        out[y * w + x] = table[alive * stride + count - (centre ? 0 : alive)];
    }
}

void release(legacy_load *e) {
    // Teardown cannot report: each step is tried whatever the last one gave.
    if (e->has_stream) {
        (void)cudaStreamSynchronize(e->stream);
        (void)cudaStreamDestroy(e->stream);
    }
    (void)cudaDeviceSynchronize();
    for (int i = 0; i < 2; i++)
        if (e->grid[i]) (void)cudaFree(e->grid[i]);
    if (e->table) (void)cudaFree(e->table);
    free(e);
}

int set_up(legacy_load *e, const cc_rule *rule, cc_error *err) {
    const size_t n = (size_t)e->w * (size_t)e->h;
    CC_CUDA_CHECK(engine, cudaSetDevice(0));
    cudaDeviceProp prop;
    CC_CUDA_CHECK(engine, cudaGetDeviceProperties(&prop, 0));
    snprintf(e->device, sizeof e->device, "%s", prop.name);
    size_t free_bytes = 0, total = 0;
    CC_CUDA_CHECK(engine, cudaMemGetInfo(&free_bytes, &total));
    if ((double)n * 2.0 + 4096.0 > (double)free_bytes)
        return cc_fail(err, CC_ERR_NOMEM,
                       "%s: the grid's two copies take %.0f MiB, the device has %.0f MiB free",
                       engine, 2.0 * (double)n / 1048576.0, (double)free_bytes / 1048576.0);
    for (int i = 0; i < 2; i++) {
        CC_CUDA_CHECK(engine, cudaMalloc((void **)&e->grid[i], n));
        CC_CUDA_CHECK(engine, cudaMemset(e->grid[i], 0, n));
    }
    std::vector<uint8_t> table(2 * (size_t)e->stride);
    int rc = cc_devgrid_build_table(rule, table.data(), table.size(), err);
    if (rc) return rc;
    CC_CUDA_CHECK(engine, cudaMalloc((void **)&e->table, table.size()));
    CC_CUDA_CHECK(engine,
                  cudaMemcpy(e->table, table.data(), table.size(), cudaMemcpyHostToDevice));
    CC_CUDA_CHECK(engine, cudaStreamCreateWithFlags(&e->stream, cudaStreamNonBlocking));
    e->has_stream = 1;
    // The zeroed grids and the table are on the device before any step.
    CC_CUDA_CHECK(engine, cudaDeviceSynchronize());
    return CC_OK;
}

} // namespace

extern "C" int mutant_legacy_load_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                         cc_error *err) {
    legacy_load *e = (legacy_load *)calloc(1, sizeof *e);
    if (!e) return cc_fail(err, CC_ERR_NOMEM, "%s: out of host memory", engine);
    e->w = w;
    e->h = h;
    e->radius = rule->radius;
    e->stride = cc_rule_max_count(rule) + 1;
    e->centre = rule->centre;
    int rc = set_up(e, rule, err);
    if (rc) {
        release(e);
        return rc;
    }
    *ctx = e;
    return CC_OK;
}

extern "C" int mutant_legacy_load_load(void *ctx, const uint8_t *cells, cc_error *err) {
    legacy_load *e = (legacy_load *)ctx;
    CC_CUDA_CHECK(engine, cudaSetDevice(0));
    // The bug: on the legacy default stream, and nothing waits for it; e->stream, created
    // non-blocking, does not.
    CC_CUDA_CHECK(engine, cudaMemcpyAsync(e->grid[e->cur], cells, (size_t)e->w * (size_t)e->h,
                                          cudaMemcpyHostToDevice, 0));
    return CC_OK;
}

extern "C" int mutant_legacy_load_step(void *ctx, int64_t k, cc_error *err) {
    legacy_load *e = (legacy_load *)ctx;
    CC_CUDA_CHECK(engine, cudaSetDevice(0));
    const int blocks_x = (e->w + block_w - 1) / block_w, blocks_y = (e->h + block_h - 1) / block_h;
    for (int64_t i = 0; i < k; i++) {
        step_kernel<<<cc_cuda_grid(blocks_x, blocks_y), dim3(block_w, block_h), 0, e->stream>>>(
            e->grid[e->cur], e->grid[1 - e->cur], e->w, e->h, e->radius, e->table, e->stride,
            e->centre);
        int rc = cc_cuda_launched(err, engine, "step_kernel");
        if (rc) return rc;
        e->cur = 1 - e->cur;
    }
    CC_CUDA_CHECK(engine, cudaStreamSynchronize(e->stream));
    return CC_OK;
}

extern "C" int mutant_legacy_load_store(void *ctx, uint8_t *cells, cc_error *err) {
    legacy_load *e = (legacy_load *)ctx;
    CC_CUDA_CHECK(engine, cudaSetDevice(0));
    CC_CUDA_CHECK(engine, cudaMemcpyAsync(cells, e->grid[e->cur], (size_t)e->w * (size_t)e->h,
                                          cudaMemcpyDeviceToHost, e->stream));
    CC_CUDA_CHECK(engine, cudaStreamSynchronize(e->stream));
    return CC_OK;
}

extern "C" void mutant_legacy_load_destroy(void *ctx) {
    if (ctx) release((legacy_load *)ctx);
}

extern "C" const char *mutant_legacy_load_device_name(void *ctx) {
    return ((legacy_load *)ctx)->device;
}
