/* Loading plugins: a plugin engine is found and held to the same checks as a built-in one (the
 * right version passes, the one with a wrong seam is caught); every bad library is refused with
 * its path and the reason, and leaves the set as it was. The loader is tested here; the checks
 * run on a supervisor's worker that loads the plugin itself.
 * A plugin built against plugin ABI 4's frozen layout loads as well: its tables converted, its
 * caps and functions where they belong, its right engine passing and its wrong one caught.
 * argv: threshold.so threshold_wrong.so bad_abi.so no_export.so no_step.so twice.so name_bar.so
 * name_newline.so negative_cap.so abi4.so */
#define _POSIX_C_SOURCE 200809L /* realpath */
#include "engines/engine_set.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/harness.h"
#include "supervise/supervisor.h"
#include "supervise/worker.h"
#include "testing/check.h"

static void expect_refused(checks *t, cc_engine_set *set, const char *path, const char *says) {
    size_t before = set->count;
    cc_error err;
    cc_error_clear(&err);
    int rc = cc_engine_set_load(set, path, &err);
    printf("%s: %s\n", path, err.msg);
    CHECKF(t, rc != CC_OK, "%s was loaded", path);
    CHECKF(t, strstr(err.msg, path) != NULL, "the message does not name %s: %s", path, err.msg);
    CHECKF(t, strstr(err.msg, says) != NULL, "the message does not say '%s': %s", says, err.msg);
    CHECKF(t, set->count == before, "%zu engines after a refusal, %zu before", set->count, before);
}

/* The conformance checks on the engine named name of the plugin at path, loaded by a worker. */
static int conformance(checks *t, const char *path, const char *name,
                       cc_conformance_summary *sum, cc_error *err) {
    cc_supervisor *sv;
    int rc = cc_supervisor_open(&path, 1, NULL, &sv, err);
    if (rc) return rc;
    const cc_engine *e = cc_supervisor_find(sv, name);
    if (!e) {
        cc_supervisor_close(sv);
        return cc_fail(err, CC_ERR_ARG, "the worker that loaded %s does not know %s", path, name);
    }
    /* The description says where it came from and carries the caps the plugin states. */
    const char *origin = cc_engine_set_origin(cc_supervisor_set(sv), e);
    char absolute[PATH_MAX];
    CHECKF(t, origin && realpath(path, absolute) && strcmp(origin, absolute) == 0,
           "%s: origin '%s' is not %s made absolute", name, origin ? origin : "(none)", path);
    /* The caps the plugin states, as the worker described them: the threshold kernel's limits,
     * or ABI 4's tables converted. */
    if (strncmp(name, "example.", 8) == 0) CHECK(t, e->caps.square_only && e->caps.s_ranges_max == 1);
    else CHECK(t, e->caps.radius_max == 3 && e->caps.tile_w == 16 && e->caps.cells_max == 1 << 24);
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.cases = 100;
    opt.shrink = 0;
    rc = cc_conformance_run(e, &opt, sum, err);
    cc_supervisor_close(sv);
    return rc;
}

/* The plugin built for ABI 4: loaded, its two tables converted with every field in place, no
 * limit of one shape; in a worker, its right engine passes the checks and its wrong one fails. */
static void abi4(checks *t, const char *path) {
    cc_engine_set set;
    cc_error err;
    cc_engine_set_init(&set, &err);
    size_t before = set.count;
    if (!CHECKF(t, cc_engine_set_load(&set, path, &err) == CC_OK, "ABI 4 plugin: %s", err.msg))
        return;
    CHECK_EQ(t, set.count, before + 2);
    const char *names[2] = {"v4.loop", "v4.edge"};
    for (int i = 0; i < 2; i++) {
        const cc_engine *e = cc_engine_set_find(&set, names[i]);
        if (!CHECKF(t, e != NULL, "%s not found in the ABI 4 plugin", names[i])) continue;
        CHECK_EQ(t, e->hardware, CC_HW_CPU);
        CHECK_EQ(t, e->caps.shapes, CC_SHAPE_BIT(CC_SHAPE_MOORE) |
                                        CC_SHAPE_BIT(CC_SHAPE_VON_NEUMANN) |
                                        CC_SHAPE_BIT(CC_SHAPE_CROSS));
        CHECK_EQ(t, e->caps.radius_max, 3);
        CHECK_EQ(t, e->caps.tile_w, 16);
        CHECK_EQ(t, e->caps.cells_max, 1 << 24);
        CHECK(t, e->caps.limits && strcmp(e->caps.limits, "built against plugin ABI 4") == 0);
        for (int s = 0; s < CC_SHAPE_COUNT; s++)
            CHECK(t, e->caps.shape_limits[s].radius_max == 0 &&
                         e->caps.shape_limits[s].w_max == 0 &&
                         e->caps.shape_limits[s].cells_max == 0);
        CHECK(t, e->available && e->create && e->load && e->step && e->store && e->destroy &&
                     e->memory && !e->timed_step && !e->device_name && !e->devices);
        CHECK(t, strstr(e->summary, "built for ABI 4") != NULL);
        cc_memory need = {0, 0};
        e->memory(NULL, 100, 10, &need);
        CHECKF(t, need.host_bytes >= 2000.0 && need.device_bytes == 0.0,
               "%s: memory() as converted gives %g host bytes", e->name, need.host_bytes);
        char caps[256];
        cc_engine_describe_caps(e, caps, sizeof caps);
        CHECKF(t, strstr(caps, "r 1..3") != NULL, "%s: caps described as '%s'", e->name, caps);
    }
    cc_engine_set_free(&set);

    cc_conformance_summary sum;
    CHECKF(t, conformance(t, path, "v4.loop", &sum, &err) == CC_OK, "%s", err.msg);
    CHECKF(t, sum.passed && sum.refusals > 0, "v4.loop: passed %d, %d refusals: %s", sum.passed,
           sum.refusals, sum.first_failure);
    printf("v4.loop (ABI 4): %s, %d refusals, campaign %llu passed\n",
           sum.passed ? "passed" : "FAILED", sum.refusals,
           (unsigned long long)sum.campaign.passed);
    CHECKF(t, conformance(t, path, "v4.edge", &sum, &err) == CC_OK, "%s", err.msg);
    CHECKF(t, !sum.passed && sum.first_kind == CC_FAILURE_MISMATCH,
           "v4.edge (wrong) was not caught: passed %d, '%s'", sum.passed, sum.first_failure);
    printf("v4.edge (ABI 4, wrong): %s: %s\n", sum.passed ? "passed" : "FAILED",
           sum.first_failure);
}

/* A plugin built for ABI 5 loads with no ranks, whatever lies past its tables; one of ABI 6 with
 * rank_id and no rank_create is refused, naming what is missing. */
static void abi5(checks *t, const char *v5, const char *half) {
    cc_engine_set set;
    cc_error err;
    cc_engine_set_init(&set, &err);
    if (CHECKF(t, cc_engine_set_load(&set, v5, &err) == CC_OK, "ABI 5 plugin: %s", err.msg)) {
        const cc_engine *e = cc_engine_set_find(&set, "v5.table");
        if (CHECKF(t, e != NULL, "v5.table not found in the ABI 5 plugin")) {
            CHECK(t, e->create && e->destroy && e->caps.radius_max == 2);
            CHECKF(t, !e->rank_id && !e->rank_create,
                   "v5.table: the bytes past a version-5 table were read as rank_id and "
                   "rank_create");
            printf("v5.table (ABI 5): loaded, no ranks\n");
        }
    }
    CHECK_REFUSED(t, cc_engine_set_load(&set, half, &err), &err, "rank_id but no rank_create",
                  "an ABI 6 engine with rank_id and no rank_create");
    cc_engine_set_free(&set);
}

int main(int argc, char **argv) {
    int status;
    if (cc_worker_hook(argc, argv, NULL, &status)) return status;
    checks t = {"plugin_test", 0, 0};
    if (!CHECKF(&t, argc == 13, "want 12 plugin paths, got %d", argc - 1)) return check_summary(&t);
    cc_engine_set set;
    cc_error err;
    if (!CHECKF(&t, cc_engine_set_init(&set, &err) == CC_OK, "%s", err.msg)) return 1;
    CHECK_EQ(&t, set.count, 0); /* no registry in this binary */

    CHECKF(&t, cc_engine_set_load(&set, argv[1], &err) == CC_OK, "%s", err.msg);
    const cc_engine *e = cc_engine_set_find(&set, "example.threshold");
    if (CHECKF(&t, e != NULL, "example.threshold not found after loading %s", argv[1])) {
        CHECK(&t, cc_engine_set_origin(&set, e) && !strcmp(cc_engine_set_origin(&set, e), argv[1]));
        CHECK(&t, e->caps.square_only && e->caps.s_ranges_max == 1);
        cc_conformance_summary sum;
        CHECKF(&t, conformance(&t, argv[1], "example.threshold", &sum, &err) == CC_OK, "%s",
               err.msg);
        CHECKF(&t, sum.passed, "the plugin engine failed its checks");
        printf("example.threshold: %s, %d refusals, campaign %llu passed\n",
               sum.passed ? "passed" : "FAILED", sum.refusals,
               (unsigned long long)sum.campaign.passed);
    }
    char *list = cc_engine_set_plugin_list(&set);
    CHECK(&t, list && !strcmp(list, argv[1]));
    free(list);

    /* Loaded twice: the name is taken, by that plugin. */
    expect_refused(&t, &set, argv[1], "engine name example.threshold is taken already");

    cc_engine_set wrong;
    cc_engine_set_init(&wrong, &err);
    CHECKF(&t, cc_engine_set_load(&wrong, argv[2], &err) == CC_OK, "%s", err.msg);
    e = cc_engine_set_find(&wrong, "example.threshold");
    if (CHECK(&t, e != NULL)) {
        cc_conformance_summary sum;
        CHECKF(&t, conformance(&t, argv[2], "example.threshold", &sum, &err) == CC_OK, "%s",
               err.msg);
        CHECKF(&t, !sum.passed, "the plugin engine with a wrong seam passed");
    }
    cc_engine_set_free(&wrong);

    abi4(&t, argv[10]);
    abi5(&t, argv[11], argv[12]);

    char abi_refusal[128];
    snprintf(abi_refusal, sizeof abi_refusal, "built for plugin ABI 999; this cellcheck speaks %d",
             CC_PLUGIN_ABI_VERSION);
    expect_refused(&t, &set, argv[3], abi_refusal);
    expect_refused(&t, &set, argv[4], "does not export cellcheck_plugin_abi()");
    expect_refused(&t, &set, argv[5], "engine bad.engine has no step function");
    expect_refused(&t, &set, argv[6], "engine name bad.engine is taken already (by another "
                                      "engine of this plugin)");
    expect_refused(&t, &set, argv[7], "engine name holds '|' at 3");
    expect_refused(&t, &set, argv[8], "engine name holds byte 0x0a at 3");
    expect_refused(&t, &set, argv[9], "negative cap radius_max = -1");
    expect_refused(&t, &set, "/nonexistent/plugin.so", "cannot be loaded");
    /* Not a shared library: this test's own executable. */
    expect_refused(&t, &set, argv[0], "cannot be loaded");
    CHECK_EQ(&t, set.count, 1);
    cc_engine_set_free(&set);

    /* By file: the same library twice (CELLCHECK_PLUGINS and --plugin) is loaded once; a path
     * with ':' would split CELLCHECK_PLUGINS, so it is refused before anything is opened. */
    cc_engine_set twice;
    CHECK_EQ(&t, cc_engine_set_init(&twice, &err), CC_OK);
    size_t built_in = twice.count;
    CHECKF(&t, cc_engine_set_load_file(&twice, argv[1], &err) == CC_OK, "%s", err.msg);
    CHECKF(&t, cc_engine_set_load_file(&twice, argv[1], &err) == CC_OK,
           "the same plugin named twice: %s", err.msg);
    CHECK_EQ(&t, twice.count, built_in + 1);
    CHECK_EQ(&t, twice.plugins, 1);
    CHECK_EQ(&t, cc_engine_set_load_file(&twice, "./a:b.so", &err), CC_ERR_ARG);
    CHECKF(&t, strstr(err.msg, "'b.so' after ':' is no prefix") != NULL, "%s", err.msg);
    cc_engine_set_free(&twice);

    /* Under prefixes: the same library twice, and its wrong twin, side by side by name. */
    cc_engine_set twins;
    CHECK_EQ(&t, cc_engine_set_init(&twins, &err), CC_OK);
    char spec[PATH_MAX + 32], right[PATH_MAX], wrong_path[PATH_MAX];
    CHECK(&t, realpath(argv[1], right) && realpath(argv[2], wrong_path));
    CHECKF(&t, cc_engine_set_load_file(&twins, argv[1], &err) == CC_OK, "%s", err.msg);
    snprintf(spec, sizeof spec, "%s:again", argv[1]);
    CHECKF(&t, cc_engine_set_load_file(&twins, spec, &err) == CC_OK, "%s", err.msg);
    CHECKF(&t, cc_engine_set_load_file(&twins, spec, &err) == CC_OK, "%s", err.msg);
    snprintf(spec, sizeof spec, "%s:twin", argv[2]);
    CHECKF(&t, cc_engine_set_load_file(&twins, spec, &err) == CC_OK, "%s", err.msg);
    CHECK_EQ(&t, twins.plugins, 3);
    const cc_engine *again = cc_engine_set_find(&twins, "again.example.threshold");
    const cc_engine *twin = cc_engine_set_find(&twins, "twin.example.threshold");
    const cc_engine *plain = cc_engine_set_find(&twins, "example.threshold");
    if (CHECK(&t, again && twin && plain)) {
        CHECK(&t, again->create == plain->create && again->caps.square_only);
        CHECK(&t, twin->create != plain->create);
        CHECK_STR(&t, cc_engine_set_origin(&twins, twin), wrong_path);
    }
    list = cc_engine_set_plugin_list(&twins);
    char want_list[3 * PATH_MAX + 32];
    snprintf(want_list, sizeof want_list, "%s:%s:again:%s:twin", right, right, wrong_path);
    if (CHECK(&t, list != NULL)) {
        CHECK_STR(&t, list, want_list);
        /* And read back: three plugins, two with their prefixes. */
        const char *specs[8];
        CHECK_EQ(&t, cc_plugin_list_split(list, specs, 8), 3);
        snprintf(spec, sizeof spec, "%s:again", right);
        CHECK_STR(&t, specs[1], spec);
    }
    free(list);
    snprintf(spec, sizeof spec, "%s:again", argv[2]);
    CHECK_EQ(&t, cc_engine_set_load_file(&twins, spec, &err), CC_ERR_ARG);
    CHECKF(&t, strstr(err.msg, "engine name again.example.threshold is taken already"), "%s",
           err.msg);
    CHECK_EQ(&t, twins.plugins, 3);
    const char *prefix;
    char file[PATH_MAX];
    CHECK_EQ(&t, cc_plugin_spec_split("lib.so:a.b", file, sizeof file, &prefix, &err), CC_ERR_ARG);
    CHECK_EQ(&t, cc_plugin_spec_split("lib.so:", file, sizeof file, &prefix, &err), CC_ERR_ARG);
    CHECK_EQ(&t, cc_plugin_spec_split("lib.so:abcdefghijklmnopq", file, sizeof file, &prefix, &err),
             CC_ERR_ARG);
    CHECK_EQ(&t, cc_plugin_spec_split("lib.so:x-1", file, sizeof file, &prefix, &err), CC_OK);
    CHECK(&t, prefix && !strcmp(prefix, "x-1") && !strcmp(file, "lib.so"));
    cc_engine_set_free(&twins);

    /* Shell words: plain ones as they are, others quoted so that sh reads them back. */
    char word[64];
    cc_shell_word(word, sizeof word, "lib/libmine.so");
    CHECK_STR(&t, word, "lib/libmine.so");
    cc_shell_word(word, sizeof word, "my lib.so");
    CHECK_STR(&t, word, "'my lib.so'");
    cc_shell_word(word, sizeof word, "it's.so");
    CHECK_STR(&t, word, "'it'\\''s.so'");
    cc_shell_word(word, sizeof word, "");
    CHECK_STR(&t, word, "''");
    return check_summary(&t);
}
