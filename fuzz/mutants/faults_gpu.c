/* The CUDA faults of faults.h: mutant.control on the host, one bad kernel in step. */
#include "fuzz/mutants/faults_gpu.h"

#include "engines/cuda/common/gpu.h"
#include "engines/plugin.h"
#include "fuzz/mutants/mutants.h"

#define BASE (&cc_mutant_control)

static int base_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    return BASE->create(rule, w, h, ctx, err);
}
static int base_load(void *ctx, const uint8_t *cells, cc_error *err) {
    return BASE->load(ctx, cells, err);
}
static int base_store(void *ctx, uint8_t *cells, cc_error *err) {
    return BASE->store(ctx, cells, err);
}
static void base_destroy(void *ctx) { BASE->destroy(ctx); }

static int illegal_address_step(void *ctx, int64_t k, cc_error *err) {
    int rc = faults_gpu_illegal_address(err);
    return rc ? rc : BASE->step(ctx, k, err);
}

static int spin_step(void *ctx, int64_t k, cc_error *err) {
    int rc = faults_gpu_spin(err);
    return rc ? rc : BASE->step(ctx, k, err);
}

static int leak_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    int rc = faults_gpu_leak(err);
    return rc ? rc : BASE->create(rule, w, h, ctx, err);
}

static int pool_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    int rc = faults_gpu_pool(err);
    return rc ? rc : BASE->create(rule, w, h, ctx, err);
}

#define GPU_FAULT(name_, summary_, create_, step_)                                              \
    {                                                                                           \
        .name = name_, .summary = summary_, .hardware = CC_HW_GPU,                              \
        .caps = {.radius_max = 16, .centres = CC_CENTRE_M0 | CC_CENTRE_M1},                     \
        .available = cc_gpu_available, .create = create_, .load = base_load,                    \
        .step = step_, .store = base_store, .destroy = base_destroy                             \
    }

static int base_step(void *ctx, int64_t k, cc_error *err) { return BASE->step(ctx, k, err); }

static const cc_engine gpu_faults[] = {
    GPU_FAULT("fault.cuda-illegal-address", "a kernel writes to an unmapped address in step",
              base_create, illegal_address_step),
    GPU_FAULT("fault.cuda-spin", "a kernel that never ends in step", base_create, spin_step),
    GPU_FAULT("fault.cuda-leak", "a fifth of the device's memory allocated in create, never freed",
              leak_create, base_step),
    GPU_FAULT("fault.cuda-pool", "a quarter of the device's memory kept as the process's pool",
              pool_create, base_step),
};

static const cc_engine *const gpu_fault_list[] = {&gpu_faults[0], &gpu_faults[1], &gpu_faults[2],
                                                  &gpu_faults[3], NULL};

CC_PLUGIN(gpu_fault_list)
