/* The tile emulation against a plain matrix product written out here from the logical matrices,
 * against hand-counted values, and against the faults the hardware raises. */
#include "engines/cpu/amx/amx_tiles_emu.h"

#include <stdint.h>
#include <string.h>

#include "testing/check.h"

/* A small deterministic generator: the same bytes on every machine. */
static uint32_t next_u32(uint32_t *s) {
    *s = *s * 1664525u + 1013904223u;
    return *s;
}

static amx_tilecfg config_all(unsigned rows, unsigned colsb) {
    amx_tilecfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.palette_id = 1;
    for (int i = 0; i < AMX_TILES; i++) {
        cfg.rows[i] = (uint8_t)rows;
        cfg.colsb[i] = (uint16_t)colsb;
    }
    return cfg;
}

/* The operand bytes the products are checked on: random, the extremes -128 and 127, or sparse
 * (three in four bytes 0, and every other k of B all 0), as band matrices are, whose zeros the
 * emulation skips. */
enum { BYTES_RANDOM, BYTES_EXTREMES, BYTES_SPARSE };

static int8_t draw(uint32_t *s, int kind) {
    const uint32_t v = next_u32(s);
    if (kind == BYTES_EXTREMES) return (int8_t)((v >> 31) ? -128 : 127);
    if (kind == BYTES_SPARSE && ((v >> 20) & 3u) != 0) return 0;
    return (int8_t)(v >> 24);
}

/* C (M x N int32) += A (M x K) times B (K x N), through tiles 0 (C), 1 (A), 2 (B), with B
 * packed here into the VNNI layout, and compared with the product summed in 64 bits. */
static void check_product(checks *t, unsigned M, unsigned K, unsigned N, uint32_t seed,
                          int kind) {
    int8_t a[16][64], bm[64][16];
    int32_t c0[16][16];
    uint32_t s = seed;
    for (unsigned m = 0; m < M; m++)
        for (unsigned k = 0; k < K; k++) a[m][k] = draw(&s, kind);
    for (unsigned k = 0; k < K; k++)
        for (unsigned n = 0; n < N; n++)
            bm[k][n] = kind == BYTES_SPARSE && k % 2 ? 0 : draw(&s, kind);
    for (unsigned m = 0; m < M; m++)
        for (unsigned n = 0; n < N; n++) c0[m][n] = (int32_t)(next_u32(&s) >> 8) - (1 << 23);

    /* Memory images: A row-major with a stride of 80 bytes, B in VNNI rows of 4N bytes with a
     * stride of 96, C with a stride of 72. */
    uint8_t amem[16 * 80], bmem[16 * 96], cmem[16 * 72], out[16 * 72];
    memset(amem, 0xAB, sizeof amem);
    memset(bmem, 0xCD, sizeof bmem);
    memset(cmem, 0xEF, sizeof cmem);
    for (unsigned m = 0; m < M; m++) memcpy(amem + m * 80, a[m], K);
    for (unsigned k = 0; k < K; k++)
        for (unsigned n = 0; n < N; n++) bmem[(k / 4) * 96 + 4 * n + k % 4] = (uint8_t)bm[k][n];
    for (unsigned m = 0; m < M; m++) memcpy(cmem + m * 72, c0[m], 4 * N);

    amx_emu_tiles tiles;
    amx_emu_init(&tiles);
    amx_tilecfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.palette_id = 1;
    cfg.rows[0] = (uint8_t)M, cfg.colsb[0] = (uint16_t)(4 * N);
    cfg.rows[1] = (uint8_t)M, cfg.colsb[1] = (uint16_t)K;
    cfg.rows[2] = (uint8_t)(K / 4), cfg.colsb[2] = (uint16_t)(4 * N);
    amx_emu_loadconfig(&tiles, &cfg);
    amx_emu_load(&tiles, 0, cmem, 72);
    amx_emu_load(&tiles, 1, amem, 80);
    amx_emu_load(&tiles, 2, bmem, 96);
    amx_emu_dpbssd(&tiles, 0, 1, 2);
    memset(out, 0x5A, sizeof out);
    amx_emu_store(&tiles, 0, out, 72);
    CHECK_EQ(t, tiles.fault, 0);

    long bad = 0;
    for (unsigned m = 0; m < M; m++)
        for (unsigned n = 0; n < N; n++) {
            int64_t want = c0[m][n];
            for (unsigned k = 0; k < K; k++) want += (int64_t)a[m][k] * (int64_t)bm[k][n];
            int32_t got;
            memcpy(&got, out + m * 72 + 4 * n, 4);
            if ((uint32_t)got != (uint32_t)(uint64_t)want) bad++;
        }
    CHECK_EQ(t, bad, 0);
    /* TILESTORED writes rows x colsb bytes and nothing else. */
    long touched = 0;
    for (unsigned m = 0; m < 16; m++)
        for (unsigned x = 0; x < 72; x++)
            if ((m >= M || x >= 4 * N) && out[m * 72 + x] != 0x5A) touched++;
    CHECK_EQ(t, touched, 0);
    /* The tile bytes past the configured shape are 0 after the load and the product. */
    long dirty = 0;
    for (unsigned m = 0; m < 16; m++)
        for (unsigned x = 0; x < 64; x++) {
            if ((m >= M || x >= K) && tiles.data[1][m][x]) dirty++;
            if ((m >= M || x >= 4 * N) && tiles.data[0][m][x]) dirty++;
        }
    CHECK_EQ(t, dirty, 0);
}

static void check_hand_counted(checks *t) {
    /* A row of 64 ones times a VNNI B of ones: every output is 64. A row of -1 against 2s: -128
     * per output, plus the initial 1000. */
    amx_emu_tiles tiles;
    amx_emu_init(&tiles);
    amx_tilecfg cfg = config_all(16, 64);
    amx_emu_loadconfig(&tiles, &cfg);
    uint8_t ones[16 * 64], twos[16 * 64], minus[16 * 64];
    memset(ones, 1, sizeof ones);
    memset(twos, 2, sizeof twos);
    memset(minus, 0xFF, sizeof minus);
    int32_t c[16][16];
    amx_emu_zero(&tiles, 3);
    amx_emu_load(&tiles, 4, ones, 64);
    amx_emu_load(&tiles, 5, ones, 64);
    amx_emu_dpbssd(&tiles, 3, 4, 5);
    amx_emu_store(&tiles, 3, c, 64);
    CHECK_EQ(t, c[0][0], 64);
    CHECK_EQ(t, c[15][15], 64);
    CHECK_EQ(t, c[7][3], 64);

    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 16; n++) c[m][n] = 1000;
    amx_emu_load(&tiles, 3, c, 64);
    amx_emu_load(&tiles, 4, minus, 64);
    amx_emu_load(&tiles, 5, twos, 64);
    amx_emu_dpbssd(&tiles, 3, 4, 5);
    amx_emu_store(&tiles, 3, c, 64);
    CHECK_EQ(t, c[0][0], 1000 - 128);
    CHECK_EQ(t, c[15][15], 1000 - 128);

    /* The accumulation wraps modulo 2^32: INT32_MAX + 64 ones. */
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 16; n++) c[m][n] = INT32_MAX;
    amx_emu_load(&tiles, 3, c, 64);
    amx_emu_load(&tiles, 4, ones, 64);
    amx_emu_load(&tiles, 5, ones, 64);
    amx_emu_dpbssd(&tiles, 3, 4, 5);
    amx_emu_store(&tiles, 3, c, 64);
    CHECK_EQ(t, c[2][9], INT32_MIN + 63);
    CHECK_EQ(t, tiles.fault, 0);

    /* The VNNI layout: B's row k holds k = 4k'..4k'+3 of column n in bytes 4n..4n+3. With A's row
     * m selecting only k = 5 (row 1, byte 1 of each column's dword), C[m][n] is B's byte 4n+1 of
     * row 1. */
    uint8_t a[16 * 64], b[16 * 64];
    memset(a, 0, sizeof a);
    for (int m = 0; m < 16; m++) a[m * 64 + 5] = 1;
    for (int i = 0; i < 16 * 64; i++) b[i] = (uint8_t)(i % 101);
    amx_emu_zero(&tiles, 0);
    amx_emu_load(&tiles, 1, a, 64);
    amx_emu_load(&tiles, 2, b, 64);
    amx_emu_dpbssd(&tiles, 0, 1, 2);
    amx_emu_store(&tiles, 0, c, 64);
    CHECK_EQ(t, c[0][0], (64 + 1) % 101);
    CHECK_EQ(t, c[3][7], (64 + 4 * 7 + 1) % 101);
    CHECK_EQ(t, tiles.fault, 0);
}

static void check_faults(checks *t) {
    uint8_t mem[16 * 64];
    memset(mem, 0, sizeof mem);
    amx_emu_tiles tiles;

    amx_emu_init(&tiles);
    amx_emu_load(&tiles, 0, mem, 64);
    CHECK(t, tiles.fault && strstr(tiles.fault_msg, "not configured"));

    amx_emu_init(&tiles);
    amx_tilecfg cfg = config_all(16, 64);
    amx_emu_loadconfig(&tiles, &cfg);
    amx_emu_dpbssd(&tiles, 0, 0, 1);
    CHECK(t, tiles.fault && strstr(tiles.fault_msg, "distinct"));

    amx_emu_init(&tiles);
    cfg = config_all(16, 64);
    cfg.rows[2] = 8; /* b must have colsb(a)/4 = 16 rows */
    cfg.colsb[2] = 64;
    amx_emu_loadconfig(&tiles, &cfg);
    CHECK_EQ(t, tiles.fault, 0);
    amx_emu_dpbssd(&tiles, 0, 1, 2);
    CHECK(t, tiles.fault && strstr(tiles.fault_msg, "shapes"));

    amx_emu_init(&tiles);
    cfg = config_all(16, 64);
    cfg.rows[5] = 17;
    amx_emu_loadconfig(&tiles, &cfg);
    CHECK(t, tiles.fault && strstr(tiles.fault_msg, "tile 5"));

    amx_emu_init(&tiles);
    cfg = config_all(16, 64);
    cfg.palette_id = 2;
    amx_emu_loadconfig(&tiles, &cfg);
    CHECK(t, tiles.fault && strstr(tiles.fault_msg, "palette"));

    amx_emu_init(&tiles);
    cfg = config_all(16, 64);
    amx_emu_loadconfig(&tiles, &cfg);
    amx_emu_release(&tiles);
    amx_emu_zero(&tiles, 0);
    CHECK(t, tiles.fault && strstr(tiles.fault_msg, "not configured"));
}

int main(void) {
    checks t = {"amx_tiles_emu_test", 0, 0};
    for (uint32_t seed = 1; seed <= 20; seed++) {
        check_product(&t, 16, 64, 16, seed, BYTES_RANDOM);
        check_product(&t, 16, 64, 16, seed, BYTES_SPARSE);
    }
    check_product(&t, 16, 64, 16, 99, BYTES_EXTREMES);
    check_product(&t, 5, 12, 3, 7, BYTES_RANDOM);
    check_product(&t, 1, 4, 1, 8, BYTES_EXTREMES);
    check_product(&t, 11, 36, 9, 9, BYTES_RANDOM);
    check_product(&t, 11, 36, 9, 10, BYTES_SPARSE);
    check_hand_counted(&t);
    check_faults(&t);
    return check_summary(&t);
}
