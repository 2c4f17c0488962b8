/* Steps a launch of cuda.life-lop3's streaming kernel: the rows of halo a band reads above and
 * below, and the levels a row passes through in registers (12: the fastest of 8, 12 and 16 on
 * the H200, life_lop3_compare). Plain C, for the kernels and the host alike. */
#ifndef CELLCHECK_ENGINES_CUDA_LIFE_LOP3_LIFE_LOP3_STEPS_H
#define CELLCHECK_ENGINES_CUDA_LIFE_LOP3_LIFE_LOP3_STEPS_H

#define LIFE_LOP3_STEPS 12

#endif
