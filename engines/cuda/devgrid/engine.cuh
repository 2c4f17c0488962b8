// The step and create of a byte-grid CUDA engine from its launch (CUDA C++; included by .cu files
// only). An engine writes its launch once, for every radius,
//   struct my_engine {
//       static constexpr const char *engine = "cuda.x";
//       template <int R> static int run(const cc_devgrid_view *v, cc_error *err);
//   };
// and devgrid::create<my_engine> is its cc_engine.create on rows of W bytes. A run whose kernel
// takes a step_kernel's arguments is one devgrid::launch.
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

// A step kernel: the view's grids, size and rule table (in, out, w, h, table, stride, centre) and
// the launch's block rows, which it loops over past the grid's cap (cc_cuda_grid).
typedef void (*step_kernel)(const uint8_t *, uint8_t *, int, int, const uint8_t *, int, int, int);

// Launches kernel on blocks of `threads`, each computing cells_x x cells_y cells of the view's
// grid, and checks the launch; name<r> names it in a failure.
inline int launch(step_kernel kernel, const cc_devgrid_view *v, int cells_x, int cells_y,
                  dim3 threads, const char *engine, const char *name, int r, cc_error *err) {
    const int blocks_x = (v->w + cells_x - 1) / cells_x;
    const int blocks_y = (v->h + cells_y - 1) / cells_y;
    kernel<<<cc_cuda_grid(blocks_x, blocks_y), threads>>>(v->in, v->out, v->w, v->h, v->table,
                                                          v->table_stride, v->centre, blocks_y);
    return cc_cuda_launched(err, engine, "%s<%d>", name, r);
}

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
