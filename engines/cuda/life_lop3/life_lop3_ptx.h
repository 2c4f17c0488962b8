/* cuda.life-lop3's kernels specialised to one rule: the PTX built from life_lop3_kernels.cu holds
 * a placeholder line, `// cellcheck.lifenet out, a0, a1, b0, b1, d0, d1, alive;`, wherever the
 * rule is applied; each is replaced by the rule's network (engines/lifenet) as LOP3 instructions
 * on those registers. The driver then compiles the PTX for the device at create. Host code only:
 * tested on any machine. */
#ifndef CELLCHECK_ENGINES_CUDA_LIFE_LOP3_LIFE_LOP3_PTX_H
#define CELLCHECK_ENGINES_CUDA_LIFE_LOP3_LIFE_LOP3_PTX_H

#include "engines/lifenet/lifenet.h"
#include "oracle/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The placeholder's text, up to its operands. */
#define LIFE_LOP3_PTX_SITE "// cellcheck.lifenet "

/* The kernels' PTX as built (NUL-terminated strings, generated from life_lop3_stream.cu and
 * life_lop3_narrow.cu): the streaming kernels (life_lop3_stream, LIFE_LOP3_STEPS steps, and
 * life_lop3_stream1, one step) for W a multiple of 32, and the one-step kernel for any other W
 * (life_lop3_narrow). Each is loaded only for the grids that need it. */
extern const char life_lop3_stream_ptx[];
extern const char life_lop3_narrow_ptx[];
/* The same for hexagonal rules. */
extern const char life_lop3_stream_hex_ptx[];
extern const char life_lop3_narrow_hex_ptx[];

/* ptx with every placeholder replaced by net; *out is malloc'd (the caller frees it) and *sites
 * says how many were replaced. Refuses (CC_ERR_ARG, naming the line) a placeholder whose
 * operands are not eight registers, and PTX with none. */
int life_lop3_ptx_specialise(const char *ptx, const lifenet *net, char **out, int *sites,
                             cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
