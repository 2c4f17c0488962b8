// Launching a kernel specialised per radius (CUDA C++; included by .cu files only). An engine
// writes its launch once, as a template over R in a struct,
//   struct my_launch { template <int R> static int run(const view *v, cc_error *err); };
// and cc_cuda_launch_by_radius<my_launch, 16>(engine, r, v, err) calls run<r>: one table of the
// instantiations 1..N, built at compile time, indexed by the run-time radius.
#ifndef CELLCHECK_ENGINES_CUDA_COMMON_BY_RADIUS_CUH
#define CELLCHECK_ENGINES_CUDA_COMMON_BY_RADIUS_CUH

#ifndef __CUDACC__
#error "engines/cuda/common/by_radius.cuh is CUDA C++: include it from .cu files only"
#endif

#include <array>
#include <utility>

extern "C" {
#include "oracle/error.h"
}

namespace cc_cuda_detail {

template <class Launch, class View, int... I>
constexpr std::array<int (*)(const View *, cc_error *), sizeof...(I)>
radius_table(std::integer_sequence<int, I...>) {
    return {{&Launch::template run<I + 1>...}};
}

} // namespace cc_cuda_detail

// Launch::run<radius>(v, err) for radius 1..N; CC_ERR_UNSUPPORTED, naming the engine, outside it.
template <class Launch, int N, class View>
int cc_cuda_launch_by_radius(const char *engine, int radius, const View *v, cc_error *err) {
    static constexpr auto table =
        cc_cuda_detail::radius_table<Launch, View>(std::make_integer_sequence<int, N>());
    if (radius < 1 || radius > N)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: radius %d outside 1..%d", engine, radius, N);
    return table[radius - 1](v, err);
}

#endif
