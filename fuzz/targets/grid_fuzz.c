/* Any bytes, read as RLE and as text, are either a grid that formats and reads back equal, or are
 * refused with a code and a message; read as macrocell, a grid of 0s and 1s or a refusal. Torus sizes are capped so a header cannot ask for gigabytes. */
#include <stdlib.h>

#include "fuzz/targets/fuzz_target.h"
#include "oracle/gridio.h"

#define FUZZ_CELLS_MAX (1 << 20)

static void round_trip(const cc_grid *g, const cc_rule *rule, int rle) {
    char *text = NULL;
    size_t len = 0;
    cc_error err = {0};
    cc_grid back = {0};
    int rc = rle ? cc_rle_format(g, rule, &text, &len, &err) : cc_text_format(g, &text, &len, &err);
    FUZZ_REQUIRE(rc == CC_OK);
    rc = rle ? cc_rle_parse(text, len, &back, NULL, NULL, &err) : cc_text_parse(text, len, &back, &err);
    FUZZ_REQUIRE(rc == CC_OK);
    FUZZ_REQUIRE(cc_grid_equal(g, &back));
    cc_grid_free(&back);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    cc_grid g = {0};
    cc_rule rule;
    int has_rule = 0;
    cc_error err = {0};
    if (!fuzz_refused(cc_rle_parse(text, size, &g, &rule, &has_rule, &err), &err)) {
        if (cc_grid_cells(&g) <= FUZZ_CELLS_MAX) round_trip(&g, has_rule ? &rule : NULL, 1);
        cc_grid_free(&g);
    }
    if (!fuzz_refused(cc_text_parse(text, size, &g, &err), &err)) {
        round_trip(&g, NULL, 0);
        cc_grid_free(&g);
    }
    cc_grid_meta meta;
    if (!fuzz_refused(cc_mc_parse(text, size, &g, &rule, &meta, &err), &err)) {
        FUZZ_REQUIRE(g.w >= 1 && g.h >= 1 && meta.unbounded == !meta.has_topology);
        for (size_t i = 0; i < cc_grid_cells(&g); i++) FUZZ_REQUIRE(g.cells[i] <= 1);
        cc_grid_free(&g);
    }
    return 0;
}
