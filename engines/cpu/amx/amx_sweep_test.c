/* Every radius 1..64 of the tile program against the oracle. The program changes shape with r
 * (one, two or three band windows; where a window starts) and with W mod 64 and H mod 16 (how
 * much of the last strip and slab is padding), so each radius runs at its smallest torus and at
 * sizes just past a strip and a slab, with a rule whose sets sit where the counts are, so that a
 * count off by one changes cells. Runs cpu.amx-emu, and cpu.amx where this CPU has AMX. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "testing/check.h"
#include "oracle/oracle.h"

extern const cc_engine cc_engine_cpu_amx_emu;
extern const cc_engine cc_engine_cpu_amx;

static uint32_t next_u32(uint64_t *s) {
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(*s >> 32);
}

/* Moore at radius r, M1 on odd r; B and S around the mean count of a half-full grid. */
static cc_rule sweep_rule(int32_t r) {
    cc_rule rule;
    memset(&rule, 0, sizeof rule);
    rule.shape = CC_SHAPE_MOORE;
    rule.radius = r;
    rule.centre = r % 2;
    int32_t max = cc_rule_max_count(&rule), mid = max / 2, spread = 1;
    while ((spread + 1) * (spread + 1) * 4 <= max) spread++; /* about the standard deviation */
    cc_set_add(&rule.birth, mid - spread, mid + spread / 2, NULL);
    cc_set_add(&rule.survive, mid - spread / 2, mid + spread, NULL);
    return rule;
}

/* One step of engine on a random grid, checked against the oracle: every cell when that is
 * cheap, else the border rows and columns (where the torus wraps) and random cells. */
static void sweep_case(checks *t, const cc_engine *engine, int32_t r, int32_t w, int32_t h,
                       uint64_t seed) {
    cc_rule rule = sweep_rule(r);
    cc_error err = {0, ""};
    cc_grid g = {0, 0, NULL}, got = {0, 0, NULL};
    char rule_text[CC_RULE_TEXT_MAX] = "?";
    cc_rule_print(&rule, rule_text, sizeof rule_text, NULL);
    if (cc_grid_alloc(&g, w, h, &err) || cc_grid_alloc(&got, w, h, &err)) {
        CHECK(t, !"grid allocation");
        goto done;
    }
    uint64_t s = seed;
    for (size_t i = 0; i < cc_grid_cells(&g); i++) g.cells[i] = (uint8_t)(next_u32(&s) >> 31);
    /* About half alive (on grids large enough to say), or the rule's sets would miss the counts. */
    size_t population = cc_grid_population(&g), cells = cc_grid_cells(&g);
    CHECK(t, cells < 100 || (population * 10 > cells * 4 && population * 10 < cells * 6));

    void *ctx = NULL;
    int rc = engine->create(&rule, w, h, &ctx, &err);
    if (!rc) rc = engine->load(ctx, g.cells, &err);
    if (!rc) rc = engine->step(ctx, 1, &err);
    if (!rc) rc = engine->store(ctx, got.cells, &err);
    if (ctx) engine->destroy(ctx);
    if (!CHECK_EQ(t, rc, CC_OK)) {
        fprintf(stderr, "  %s: %s %dx%d: %s\n", engine->name, rule_text, (int)w, (int)h, err.msg);
        goto done;
    }

    long side = 2 * r + 1, checked = 0, bad = 0;
    int all = (long)w * h * side * side <= 4000000;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            int border = x == 0 || y == 0 || x == w - 1 || y == h - 1;
            if (!all && !border && next_u32(&s) % 64 != 0) continue;
            int alive = g.cells[(size_t)y * (size_t)w + (size_t)x];
            int32_t count = oracle_count(&rule, &g, x, y);
            int want = cc_set_has(alive ? &rule.survive : &rule.birth, count);
            int have = got.cells[(size_t)y * (size_t)w + (size_t)x];
            checked++;
            if (have != want && bad++ == 0)
                fprintf(stderr, "  %s: %s %dx%d seed %llu: cell (%d, %d) is %d, the oracle says %d "
                                "(count %d)\n",
                        engine->name, rule_text, (int)w, (int)h, (unsigned long long)seed, (int)x,
                        (int)y, have, want, (int)count);
        }
    CHECK_EQ(t, bad, 0);
    CHECK(t, checked > 0);
done:
    cc_grid_free(&g);
    cc_grid_free(&got);
}

static void sweep(checks *t, const cc_engine *engine) {
    for (int32_t r = 1; r <= engine->caps.radius_max; r++) {
        int32_t min = 2 * r + 1;
        uint64_t seed = 1000u + (uint64_t)r;
        sweep_case(t, engine, r, min, min + r % 5, seed);
        /* Just past a strip of 64 columns and a slab of 16 rows. */
        int32_t w = (min + 63) / 64 * 64 + 1, h = (min + 15) / 16 * 16 + 1;
        sweep_case(t, engine, r, w, h, seed + 7);
    }
}

int main(void) {
    checks t = {"amx_sweep_test", 0, 0};
    sweep(&t, &cc_engine_cpu_amx_emu);
    cc_error err = {0, ""};
    if (cc_engine_cpu_amx.available(&err) == CC_OK) {
        sweep(&t, &cc_engine_cpu_amx);
    } else if (cc_hardware_required(CC_HW_AMX)) {
        fprintf(stderr, "cpu.amx is required (CELLCHECK_REQUIRE) but unavailable: %s\n", err.msg);
        t.failed++;
    } else {
        printf("SKIPPED: cpu.amx: %s\n", err.msg);
    }
    return check_summary(&t);
}
