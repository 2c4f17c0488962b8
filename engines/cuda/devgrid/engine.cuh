// The step and create of a byte-grid CUDA engine from its launch (CUDA C++; included by .cu files
// only). An engine writes its launch once, for every radius,
//   struct my_engine {
//       static constexpr const char *engine = "cuda.x";
//       template <int R> static int run(const cc_devgrid_view *v, cc_error *err);
//   };
// and devgrid::create<my_engine> is its cc_engine.create on rows of W bytes.
#ifndef CELLCHECK_ENGINES_CUDA_DEVGRID_ENGINE_CUH
#define CELLCHECK_ENGINES_CUDA_DEVGRID_ENGINE_CUH

#ifndef __CUDACC__
#error "engines/cuda/devgrid/engine.cuh is CUDA C++: include it from .cu files only"
#endif

#include "engines/cuda/common/by_radius.cuh"
#include "engines/cuda/common/check.cuh"
#include "engines/cuda/devgrid/devgrid.h"
#include "engines/cuda/devgrid/tile.h"

namespace devgrid {

// One step: Launch::run<view->radius>.
template <class Launch> int step(const cc_devgrid_view *v, cc_error *err) {
    return cc_cuda_launch_by_radius<Launch, radius_max>(Launch::engine, v->radius, v, err);
}

template <class Launch> constexpr cc_devgrid_ops ops = {step<Launch>, nullptr};

// cc_engine.create: rows of w bytes, cell 0 first.
template <class Launch>
int create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    return cc_devgrid_create(Launch::engine, rule, w, h, (size_t)w, 0, &ops<Launch>, ctx, err);
}

} // namespace devgrid

#endif
