// What cuda.life-lop3's kernels share (CUDA C++, included by its .cu files compiled to PTX):
// the placeholder the engine replaces with the rule's gates (life_lop3_ptx.h). Nothing here
// includes the project's headers: the kernels are compiled alone, with -ptx.
#ifndef CELLCHECK_ENGINES_CUDA_LIFE_LOP3_LIFE_LOP3_NET_CUH
#define CELLCHECK_ENGINES_CUDA_LIFE_LOP3_LIFE_LOP3_NET_CUH

#include <stdint.h>

namespace life_lop3 {

constexpr unsigned full_warp = 0xffffffffu;
constexpr int lanes = 32;

// The rule's network on the row sums of the rows above (a), at (b) and below (d), and the centre
// cell: the next state of 32 cells.
__device__ __forceinline__ uint32_t rule_net(uint32_t a0, uint32_t a1, uint32_t b0, uint32_t b1,
                                             uint32_t d0, uint32_t d1, uint32_t alive) {
    uint32_t next;
    asm("// cellcheck.lifenet %0, %1, %2, %3, %4, %5, %6, %7;"
        : "=r"(next)
        : "r"(a0), "r"(a1), "r"(b0), "r"(b1), "r"(d0), "r"(d1), "r"(alive));
    return next;
}

} // namespace life_lop3

#endif
