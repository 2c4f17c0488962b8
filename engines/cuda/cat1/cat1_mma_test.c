/* The fragment layouts cpu.cat1-emu assumes (cat1_emulate_mma_b1, cat1_emulate_mma_s8) against
 * the tensor cores: random operands, one MMA of each kind, every result compared; then operands
 * with a single bit (b1) or byte (s8) set, which place each A and B position alone. Skips without
 * a GPU (fails instead when CELLCHECK_REQUIRE names gpu). */
#include <stdio.h>
#include <string.h>

#include "engines/cuda/cat1/cat1_kernels.h"
#include "engines/cuda/cat1/cat1_program.h"
#include "engines/engine.h"
#include "testing/check.h"

static uint32_t next_random(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 32);
}

/* Runs one MMA both ways; 1 if every result agrees, -1 if the device is not there. */
static int agree(int binary, const uint32_t a[32][4], const uint32_t b[32][2], const char *what) {
    int32_t want[32][4], got[32][4];
    memset(want, 0, sizeof want);
    if (binary)
        cat1_emulate_mma_b1(want, a, b);
    else
        cat1_emulate_mma_s8(want, a, b);
    cc_error err;
    int rc = cuda_cat1_mma_probe(binary, a, b, got, &err);
    if (rc == CC_ERR_UNAVAILABLE) return -1;
    if (rc) {
        printf("%s: %s\n", what, err.msg);
        return 0;
    }
    for (int lane = 0; lane < 32; lane++)
        for (int q = 0; q < 4; q++)
            if (want[lane][q] != got[lane][q]) {
                printf("%s: lane %d d%d: the device gives %d, the emulation %d\n", what, lane, q,
                       (int)got[lane][q], (int)want[lane][q]);
                return 0;
            }
    return 1;
}

int main(void) {
    checks t = {"cat1_mma_test", 0, 0};
    cc_error err;
    if (cc_gpu_available(&err)) {
        if (cc_hardware_required(CC_HW_GPU)) {
            printf("FAILED: cat1_mma_test: a GPU is required: %s\n", err.msg);
            return 1;
        }
        printf("SKIPPED: cuda.cat1: %s\n", err.msg);
        return 0;
    }
    uint64_t seed = 0x5eedcafe;
    uint32_t a[32][4], b[32][2];
    for (int binary = 0; binary < 2; binary++) {
        for (int round = 0; round < 8; round++) {
            for (int l = 0; l < 32; l++) {
                for (int i = 0; i < 4; i++) a[l][i] = next_random(&seed);
                for (int i = 0; i < 2; i++) b[l][i] = next_random(&seed);
            }
            CHECK_EQ(&t, agree(binary, a, b, binary ? "b1 random" : "s8 random"), 1);
        }
        /* One A position at a time against an all-ones (b1) or all-one-bytes (s8) B: the result
         * shows the row each A register and bit (byte) belongs to. */
        int single = 1;
        for (int l = 0; l < 32 && single == 1; l++)
            for (int i = 0; i < 4 && single == 1; i++)
                for (int bit = 0; bit < 32; bit += binary ? 1 : 8) {
                    memset(a, 0, sizeof a);
                    for (int k = 0; k < 32; k++) b[k][0] = b[k][1] = binary ? ~0u : 0x01010101u;
                    a[l][i] = 1u << bit;
                    single = agree(binary, a, b, binary ? "b1 one A bit" : "s8 one A byte");
                    if (single != 1) break;
                }
        CHECK_EQ(&t, single, 1);
    }
    return check_summary(&t);
}
