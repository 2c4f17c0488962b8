/* Running a golden case: its initial grid, the oracle's and an engine's final grids, the
 * BLAKE2b-256 of a grid, and where its snapshot lives (see golden.h). */
#define _POSIX_C_SOURCE 200809L

#include "golden/golden.h"
#include "supervise/supervisor.h"

#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "golden/internal.h"
#include "oracle/gridio.h"
#include "oracle/oracle.h"

int golden_initial_grid(const golden_catalogue *cat, const golden_entry *e, cc_grid *out,
                        cc_error *err) {
    if (e->kind == GOLDEN_SEEDED) {
        int rc = case_grid(&e->seeded, out, err);
        return rc ? cc_prefix(err, "%s", e->name) : CC_OK;
    }
    char path[GOLDEN_PATH_MAX];
    int rc = golden_resolve_pattern(cat, e->pattern, path, sizeof path, err);
    if (!rc) rc = cc_grid_read_file(path, out, NULL, NULL, err);
    if (rc) return cc_prefix(err, "%s", e->name);
    if (out->w != e->w || out->h != e->h) {
        cc_grid_free(out);
        return cc_fail(err, CC_ERR_IO, "%s: %s changed size while in use", e->name, path);
    }
    return CC_OK;
}

int golden_oracle_result(const golden_catalogue *cat, const golden_entry *e, cc_grid *out,
                         cc_error *err) {
    int rc = golden_initial_grid(cat, e, out, err);
    if (rc) return rc;
    if ((rc = oracle_run(&e->rule, out, e->steps, err))) {
        cc_grid_free(out);
        return cc_prefix(err, "%s: oracle", e->name);
    }
    return CC_OK;
}

int golden_engine_result(const golden_catalogue *cat, const golden_entry *e,
                         const cc_engine *engine, cc_grid *out, cc_error *err) {
    int rc = cc_engine_check(engine, &e->rule, e->w, e->h, err);
    if (rc) return rc;
    if ((rc = golden_initial_grid(cat, e, out, err))) return rc;
    cc_context *ctx = NULL;
    if ((rc = cc_call_create(engine, &e->rule, e->w, e->h, &ctx, err))) {
        cc_grid_free(out);
        return rc;
    }
    if (!(rc = cc_call_load(ctx, out->cells, err)) && !(rc = cc_call_step(ctx, e->steps, err)))
        rc = cc_call_store(ctx, out->cells, err);
    cc_call_destroy(ctx, NULL);
    if (rc) {
        cc_grid_free(out);
        return cc_prefix(err, "%s: %s", e->name, engine->name);
    }
    return CC_OK;
}

void golden_hash_grid(const cc_grid *g, char hex[GOLDEN_HASH_HEX]) {
    unsigned char digest[GOLDEN_HASH_BYTES];
    /* No sodium_init needed: it only selects faster BLAKE2b code, the digest is the same. */
    crypto_generichash(digest, sizeof digest, g->cells, (unsigned long long)cc_grid_cells(g), NULL,
                       0);
    sodium_bin2hex(hex, GOLDEN_HASH_HEX, digest, sizeof digest);
}

int golden_is_temporary(const char *name) { return strstr(name, ".tmp.") != NULL; }

int golden_has_snapshot(const golden_entry *e) {
    return e->w <= GOLDEN_SNAPSHOT_SIDE_MAX && e->h <= GOLDEN_SNAPSHOT_SIDE_MAX;
}

int golden_snapshot_path(const golden_catalogue *cat, const golden_entry *e, char *buf, size_t size,
                         cc_error *err) {
    int n = snprintf(buf, size, "%s/%s/%s.rle", cat->dir, SNAPSHOT_DIR, e->name);
    if (n < 0 || (size_t)n >= size)
        return cc_fail(err, CC_ERR_ARG, "snapshot path for %s is too long", e->name);
    return CC_OK;
}
