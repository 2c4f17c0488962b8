/* cpu.amx: the CAT-CPU tile program of amx_program.h on the AMX tiles of the CPU (Intel Sapphire
 * Rapids and later). Only the tile program is built for AMX and AVX-512; the checks that decide
 * whether it may run are plain x86-64 code, so they run on any CPU. */
#define _GNU_SOURCE /* syscall */

#include <cpuid.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engines/cpu/amx/amx_engine.h"

/* Linux (5.16 and later): a process asks once for the right to use the AMX tile data state. */
#define ARCH_GET_XCOMP_PERM 0x1022
#define ARCH_REQ_XCOMP_PERM 0x1023
#define XFEATURE_XTILECFG 17
#define XFEATURE_XTILEDATA 18

#pragma GCC push_options
#pragma GCC target("amx-tile,amx-int8,avx512f,avx512bw")
#include <immintrin.h>

/* The tile intrinsics are asm statements that do not tell the compiler they read memory: the
 * barrier keeps every store to an operand before the load that reads it. */
#define AMX_MEMORY_BARRIER() __asm__ volatile("" ::: "memory")
#define AMX_TILE_CONFIG(tiles, cfg) \
    do {                            \
        (void)(tiles);              \
        AMX_MEMORY_BARRIER();       \
        _tile_loadconfig(cfg);      \
    } while (0)
#define AMX_TILE_RELEASE(tiles) _tile_release()
#define AMX_TILE_ZERO(tiles, t) _tile_zero(t)
#define AMX_TILE_LOAD(tiles, t, base, stride) \
    do {                                      \
        AMX_MEMORY_BARRIER();                 \
        _tile_loadd(t, (base), (long)(stride)); \
    } while (0)
#define AMX_TILE_STORE(tiles, t, base, stride) _tile_stored(t, (base), (long)(stride))
#define AMX_TILE_DPBSSD(tiles, c, a, b) _tile_dpbssd(c, a, b)
#define AMX_TILE_FAULT(tiles) ((void)(tiles), (const char *)NULL)

#include "engines/cpu/amx/amx_program.h"

static int amx_hw_run_step(amx_engine *e, cc_error *err) { return amx_program_step(e, err); }

#pragma GCC pop_options

static uint64_t read_xcr0(void) {
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

/* The CPU, the OS's saved state, and this process's permission: AMX-TILE, AMX-INT8 and the
 * AVX-512 the rest of the step uses. Asks for the permission (once per process; asking again is
 * harmless), so it must run before any tile instruction. */
static int amx_hw_available(cc_error *err) {
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return cc_fail(err, CC_ERR_UNAVAILABLE, "CPUID has no leaf 7, so no AMX");
    int tile = (d >> 24) & 1, int8 = (d >> 25) & 1, bf16 = (d >> 22) & 1;
    int avx512f = (b >> 16) & 1, avx512bw = (b >> 30) & 1;
    if (!tile || !int8)
        return cc_fail(err, CC_ERR_UNAVAILABLE,
                       "this CPU has no AMX (CPUID.(EAX=7,ECX=0):EDX AMX-TILE bit 24 = %d, "
                       "AMX-INT8 bit 25 = %d, AMX-BF16 bit 22 = %d)",
                       tile, int8, bf16);
    if (!avx512f || !avx512bw)
        return cc_fail(err, CC_ERR_UNAVAILABLE,
                       "this CPU lacks AVX-512F/BW (CPUID.(EAX=7,ECX=0):EBX bit 16 = %d, "
                       "bit 30 = %d)",
                       avx512f, avx512bw);
    if (!__get_cpuid(1, &a, &b, &c, &d) || !((c >> 27) & 1))
        return cc_fail(err, CC_ERR_UNAVAILABLE,
                       "the OS has not enabled XSAVE (CPUID.1:ECX.OSXSAVE bit 27 = 0)");
    uint64_t xcr0 = read_xcr0();
    const uint64_t need = (1u << XFEATURE_XTILECFG) | (1u << XFEATURE_XTILEDATA) | 0xE6u;
    if ((xcr0 & need) != need)
        return cc_fail(err, CC_ERR_UNAVAILABLE,
                       "the OS does not manage the AMX and AVX-512 state (XCR0 = %#llx, "
                       "needs bits 1, 2, 5-7, 17 and 18)",
                       (unsigned long long)xcr0);
    if (syscall(SYS_arch_prctl, ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) != 0) {
        int e = errno;
        return cc_fail(err, CC_ERR_UNAVAILABLE,
                       "Linux refused arch_prctl(ARCH_REQ_XCOMP_PERM, "
                       "XFEATURE_XTILEDATA): %s (errno %d)%s",
                       strerror(e), e,
                       e == EINVAL ? "; the kernel predates AMX support (Linux 5.16)" : "");
    }
    unsigned long perm = 0;
    if (syscall(SYS_arch_prctl, ARCH_GET_XCOMP_PERM, &perm) != 0 ||
        !((perm >> XFEATURE_XTILEDATA) & 1))
        return cc_fail(err, CC_ERR_UNAVAILABLE,
                       "arch_prctl(ARCH_GET_XCOMP_PERM) does not show the tile data "
                       "permission after it was granted (mask %#lx)",
                       perm);
    return CC_OK;
}

static int amx_hw_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    *ctx = NULL;
    /* No tile instruction may run before the permission: asked here too, for callers that
     * create without asking available() first. */
    int rc = amx_hw_available(err);
    if (rc) return cc_prefix(err, "cpu.amx");
    amx_engine *e;
    rc = amx_engine_create("cpu.amx", rule, w, h, 0, amx_hw_run_step, &e, err);
    if (rc) return rc;
    *ctx = e;
    return CC_OK;
}

const cc_engine cc_engine_cpu_amx = {
    .name = "cpu.amx",
    .summary = "CAT-CPU: AMX INT8 band tiles, INT32 tile sums, 64x64 super-fragments, AVX-512 rule",
    .hardware = CC_HW_AMX,
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE),
             .radius_max = AMX_RADIUS_MAX,
             .centres = CC_CENTRE_M0 | CC_CENTRE_M1},
    .available = amx_hw_available,
    .create = amx_hw_create,
    .memory = amx_engine_memory,
    AMX_FUNCTIONS,
};
