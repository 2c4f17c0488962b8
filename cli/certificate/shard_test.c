/* Shard records written and read back, and their merge: counts summed, the first failure the one
 * a whole run meets first, and every way shards can fail to belong together refused by name. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/certificate/shard.h"
#include "testing/check.h"

/* Shard `index` of `count`, two engines: "a" passing with counts from index, "b" failing at
 * check number `b_ordinal` (campaign case `b_case` if >= 0). */
static void make(cc_certificate *r, uint32_t index, uint32_t count, int64_t b_ordinal,
                 int64_t b_case) {
    memset(r, 0, sizeof *r);
    snprintf(r->prov.build.version, sizeof r->prov.build.version, "0.9");
    snprintf(r->prov.build.commit, sizeof r->prov.build.commit, "abc123");
    snprintf(r->prov.build.compiler, sizeof r->prov.build.compiler, "gcc 12");
    snprintf(r->prov.build.mode, sizeof r->prov.build.mode, "opt");
    snprintf(r->prov.build.flags, sizeof r->prov.build.flags, "-O2\twith a tab\nand a line\\");
    snprintf(r->prov.seed, sizeof r->prov.seed, "%064x", 7);
    r->prov.cases = 200;
    r->prov.shard_index = index;
    r->prov.shard_count = count;
    snprintf(r->prov.host, sizeof r->prov.host, "node%u", (unsigned)index);
    snprintf(r->prov.golden_generation, sizeof r->prov.golden_generation, ".gen-1");
    snprintf(r->prov.cpu_model, sizeof r->prov.cpu_model, "a CPU");
    snprintf(r->prov.cpu_vendor, sizeof r->prov.cpu_vendor, "GenuineIntel");
    r->prov.cpu_logical = 16;
    r->prov.cpu_family = 6;
    r->prov.cpu_model_number = 143;
    r->prov.cpu_stepping = 8;
    r->engines = 2;
    r->engine = calloc(2, sizeof *r->engine);
    cc_certificate_engine *a = &r->engine[0], *b = &r->engine[1];
    snprintf(a->name, sizeof a->name, "cpu.a");
    a->verdict = CC_VERDICT_CERTIFIED;
    a->conf.edge_passed = 10 + (int)index;
    a->conf.campaign.run = a->conf.campaign.passed = 50;
    a->conf.step_counts_max = 100 * (index + 1);
    a->conf.seam_classes = 1u << index;
    a->conf.first_index = a->conf.first_ordinal = -1;
    a->conf.passed = 1;
    a->conf.sections[0] = (cc_section_tally){.run = 1, .passed = 10 + (int)index, .seconds = 0.5,
                                             .oracle_seconds = 0.25, .engine_seconds = 0.125,
                                             .exchange_seconds = 0.0625, .draw_seconds = 0.03125,
                                             .shrink_seconds = 0.015625};
    /* Shard i checked radius i + 1 at a team of i + 1 and a grid of 100 * (i + 1) a side. */
    cc_rule rule = {0};
    rule.radius = (int32_t)index + 1;
    rule.shape = index % 2 ? CC_SHAPE_CROSS : CC_SHAPE_MOORE;
    cc_coverage_add(&a->conf.sections[0].cov, &rule, 100 * ((int32_t)index + 1), 7,
                    3 + (int64_t)index, (int32_t)index + 1);
    a->golden.passed = 3;
    a->seconds = 1.25;
    snprintf(b->name, sizeof b->name, "mutant.b");
    b->verdict = b_ordinal >= 0 || b_case >= 0 ? CC_VERDICT_FAILED : CC_VERDICT_CERTIFIED;
    b->conf.first_index = b_case;
    b->conf.first_ordinal = b_case >= 0 ? -1 : b_ordinal;
    b->conf.failed = b_case < 0 && b_ordinal >= 0;
    b->conf.campaign.has_failure = b_case >= 0;
    b->conf.passed = b->verdict == CC_VERDICT_CERTIFIED;
    snprintf(b->conf.first_reproducer, sizeof b->conf.first_reproducer,
             "cellcheck check --engine mutant.b --case 'shard %u'", (unsigned)index);
}

static void round_trip(checks *t) {
    cc_certificate r, back;
    make(&r, 2, 4, 17, -1);
    const char *tmp = getenv("TEST_TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/shard.txt", tmp ? tmp : "/tmp");
    FILE *f = fopen(path, "w");
    if (!CHECK(t, f != NULL)) return;
    cc_shard_write(f, &r);
    fclose(f);
    cc_error err;
    if (CHECKF(t, cc_shard_read(path, &back, &err) == CC_OK, "%s", err.msg)) {
        CHECK(t, !strcmp(back.prov.build.flags, r.prov.build.flags));
        CHECK_EQ(t, back.prov.shard_index, 2u);
        CHECK_EQ(t, back.prov.shard_count, 4u);
        /* The merged certificate tells the shards' CPU from these (it said 0 logical CPUs). */
        CHECK_EQ(t, back.prov.cpu_logical, 16L);
        CHECK(t, !strcmp(back.prov.cpu_vendor, "GenuineIntel"));
        CHECK_EQ(t, back.prov.cpu_model_number, 143);
        CHECK_EQ(t, back.prov.cpu_stepping, 8);
        CHECK_EQ(t, back.engines, 2);
        CHECK_EQ(t, back.engine[0].conf.edge_passed, 12);
        CHECK_EQ(t, back.engine[0].conf.sections[0].passed, 12);
        /* The time's parts read back as written (binary fractions, exact). */
        CHECK(t, back.engine[0].conf.sections[0].oracle_seconds == 0.25 &&
                     back.engine[0].conf.sections[0].engine_seconds == 0.125 &&
                     back.engine[0].conf.sections[0].exchange_seconds == 0.0625 &&
                     back.engine[0].conf.sections[0].draw_seconds == 0.03125 &&
                     back.engine[0].conf.sections[0].shrink_seconds == 0.015625);
        CHECKF(t, !memcmp(&back.engine[0].conf.sections[0].cov, &r.engine[0].conf.sections[0].cov,
                          sizeof(cc_coverage)),
               "coverage read back differs: %d cases", back.engine[0].conf.sections[0].cov.cases);
        CHECK_EQ(t, back.engine[1].conf.first_ordinal, 17);
        CHECK(t, !strcmp(back.engine[1].conf.first_reproducer, r.engine[1].conf.first_reproducer));
        cc_certificate_free(&back);
    }
    /* Cut short: refused, with the file named. */
    f = fopen(path, "w");
    fprintf(f, "cellcheck-shard 1\nshard 0 2\nengine cpu.a\nedge_passed 3\n");
    fclose(f);
    CHECK(t, cc_shard_read(path, &back, &err) == CC_ERR_ARG && strstr(err.msg, path));
    f = fopen(path, "w");
    fprintf(f, "cellcheck-shard 1\nshard 0 2\nengine cpu.a\nedge_passed many\nend\n");
    fclose(f);
    CHECK(t, cc_shard_read(path, &back, &err) == CC_ERR_ARG && strstr(err.msg, ":4"));
    cc_certificate_free(&r);
}

static void merge(checks *t) {
    cc_certificate s[4], m;
    const char *names[4] = {"s0", "s1", "s2", "s3"};
    /* mutant.b fails in shards 1 (check 9), 2 (check 5) and 3 (campaign case 0): a whole run
     * meets check 5 first, every check before the campaign. */
    make(&s[0], 0, 4, -1, -1);
    make(&s[1], 1, 4, 9, -1);
    make(&s[2], 2, 4, 5, -1);
    make(&s[3], 3, 4, -1, 0);
    cc_error err;
    if (CHECKF(t, cc_shards_merge(s, names, 4, &m, &err) == CC_OK, "%s", err.msg)) {
        CHECK_EQ(t, m.prov.shard_count, 1u);
        CHECK_EQ(t, m.prov.merged, 4);
        CHECKF(t, !strcmp(m.prov.hosts, "node0, node1, node2, node3"), "hosts: %s", m.prov.hosts);
        CHECK_EQ(t, m.prov.cpu_logical, 16L);
        CHECK(t, !strcmp(m.prov.cpu_vendor, "GenuineIntel"));
        CHECK_EQ(t, m.engine[0].verdict, CC_VERDICT_CERTIFIED);
        CHECK_EQ(t, m.engine[0].conf.edge_passed, 10 + 11 + 12 + 13);
        CHECK_EQ(t, (int)m.engine[0].conf.campaign.run, 200);
        CHECK_EQ(t, (int)m.engine[0].conf.step_counts_max, 400);
        CHECK_EQ(t, m.engine[0].conf.seam_classes, 0xfu);
        CHECK_EQ(t, m.engine[0].conf.sections[0].passed, 46);
        CHECK(t, m.engine[0].conf.sections[0].oracle_seconds == 1.0 &&
                     m.engine[0].conf.sections[0].shrink_seconds == 0.0625);
        const cc_coverage *v = &m.engine[0].conf.sections[0].cov;
        CHECK_EQ(t, v->cases, 4);
        CHECK_EQ(t, (int)v->radius_min, 1);
        CHECK_EQ(t, (int)v->radius_max, 4);
        CHECK_EQ(t, (int)v->teams, 0xf);
        CHECK_EQ(t, (int)v->steps_max, 6);
        CHECK_EQ(t, (int)v->side_max, 400);
        CHECK_EQ(t, v->shapes, CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_CROSS));
        CHECK_EQ(t, (int)m.engine[0].golden.passed, 12);
        CHECK_EQ(t, m.engine[1].verdict, CC_VERDICT_FAILED);
        CHECKF(t, strstr(m.engine[1].conf.first_reproducer, "'shard 2'") != NULL, "%s",
               m.engine[1].conf.first_reproducer);
        cc_certificate_free(&m);
    }
    /* Shards on hosts of different CPU counts: no one count is told. */
    s[3].prov.cpu_logical = 8;
    if (CHECKF(t, cc_shards_merge(s, names, 4, &m, &err) == CC_OK, "%s", err.msg)) {
        CHECK_EQ(t, m.prov.cpu_logical, 0L);
        CHECK(t, strstr(m.prov.cpu_model, "several") != NULL);
        cc_certificate_free(&m);
    }
    s[3].prov.cpu_logical = 16;
    /* Each refusal, named: a shard missing, one given twice, one of another run. */
    CHECK(t, cc_shards_merge(s, names, 3, &m, &err) == CC_ERR_ARG &&
                 strstr(err.msg, "shard 3 of 4 is missing"));
    cc_certificate twice[4] = {s[0], s[1], s[1], s[3]};
    CHECK(t, cc_shards_merge(twice, names, 4, &m, &err) == CC_ERR_ARG &&
                 strstr(err.msg, "shard 1 of 4 is given twice (s2)"));
    const struct {
        const char *field;
        char *text;
    } foreign[] = {{"master seed", s[2].prov.seed},
                   {"commit", s[2].prov.build.commit},
                   {"goldens", s[2].prov.golden_generation}};
    for (size_t i = 0; i < sizeof foreign / sizeof foreign[0]; i++) {
        char keep[80];
        snprintf(keep, sizeof keep, "%s", foreign[i].text);
        foreign[i].text[0] ^= 1;
        CHECKF(t, cc_shards_merge(s, names, 4, &m, &err) == CC_ERR_ARG &&
                      strstr(err.msg, "s2 is a shard of another run") &&
                      strstr(err.msg, foreign[i].field),
               "%s: %s", foreign[i].field, err.msg);
        snprintf(foreign[i].text, sizeof keep, "%s", keep);
    }
    s[2].prov.shard_count = 5;
    CHECK(t, cc_shards_merge(s, names, 4, &m, &err) == CC_ERR_ARG &&
                 strstr(err.msg, "shard count"));
    s[2].prov.shard_count = 4;
    s[2].prov.cases = 2000;
    CHECK(t, cc_shards_merge(s, names, 4, &m, &err) == CC_ERR_ARG && strstr(err.msg, "case count"));
    s[2].prov.cases = 200;
    snprintf(s[2].engine[1].plugin_sha256, sizeof s[2].engine[1].plugin_sha256, "00ff");
    CHECK(t, cc_shards_merge(s, names, 4, &m, &err) == CC_ERR_ARG && strstr(err.msg, "engines"));
    s[2].engine[1].plugin_sha256[0] = '\0';
    snprintf(s[2].engine[0].name, sizeof s[2].engine[0].name, "cpu.other");
    CHECK(t, cc_shards_merge(s, names, 4, &m, &err) == CC_ERR_ARG && strstr(err.msg, "engines"));
    snprintf(s[2].engine[0].name, sizeof s[2].engine[0].name, "cpu.a");
    /* Shards of an engine over several devices run with two device counts: the merge would have
     * named one of them in the certificate. A shard that does not say (0) is not a difference. */
    s[1].engine[1].conf.devices = 2;
    s[3].engine[1].conf.devices = 2;
    CHECKF(t, cc_shards_merge(s, names, 4, &m, &err) == CC_OK, "%s", err.msg);
    if (m.engines == 2) CHECK_EQ(t, m.engine[1].conf.devices, 2);
    cc_certificate_free(&m);
    s[3].engine[1].conf.devices = 1;
    CHECKF(t, cc_shards_merge(s, names, 4, &m, &err) == CC_ERR_ARG &&
                  strstr(err.msg, "s3 is a shard of another run") &&
                  strstr(err.msg, "devices differs from s1's (1 against 2)"),
           "%s", err.msg);
    s[3].engine[1].conf.devices = 2;
    snprintf(s[0].engine[0].conf.huge_note, sizeof s[0].engine[0].conf.huge_note, "too slow here");
    snprintf(s[2].engine[0].conf.huge_note, sizeof s[2].engine[0].conf.huge_note, "does not fit");
    CHECKF(t, cc_shards_merge(s, names, 4, &m, &err) == CC_ERR_ARG && strstr(err.msg, "huge_note"),
           "%s", err.msg);
    for (int i = 0; i < 4; i++) cc_certificate_free(&s[i]);
}

/* Gaps travel in the record, reason escaped, and the merge joins them: a gap in one shard makes
 * the merged engine INCOMPLETE, where every shard's engine alone passed. */
static void gaps(checks *t) {
    cc_certificate s[2], back, m;
    const char *names[2] = {"s0", "s1"};
    make(&s[0], 0, 2, -1, -1);
    make(&s[1], 1, 2, -1, -1);
    cc_gap_note(&s[1].engine[0].conf.gaps, CC_CHECK_STEP_COUNTS, CC_GAP_BLIND, 2,
                "step count 17:\tno case\ntells it");
    s[1].engine[0].verdict = CC_VERDICT_INCOMPLETE;
    const char *tmp = getenv("TEST_TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/shard-gaps.txt", tmp ? tmp : "/tmp");
    FILE *f = fopen(path, "w");
    if (!CHECK(t, f != NULL)) return;
    cc_shard_write(f, &s[1]);
    fclose(f);
    cc_error err;
    if (CHECKF(t, cc_shard_read(path, &back, &err) == CC_OK, "%s", err.msg)) {
        const cc_gap_list *g = &back.engine[0].conf.gaps;
        CHECKF(t, g->n == 1 && g->gaps[0].count == 2 && g->gaps[0].kind == CC_GAP_BLIND &&
                      !strcmp(g->gaps[0].reason, "step count 17:\tno case\ntells it"),
               "read back: %d gaps, '%s'", g->n, g->n ? g->gaps[0].reason : "");
        CHECK_EQ(t, back.engine[0].verdict, CC_VERDICT_INCOMPLETE);
        cc_certificate_free(&back);
    }
    if (CHECKF(t, cc_shards_merge(s, names, 2, &m, &err) == CC_OK, "%s", err.msg)) {
        CHECK_EQ(t, m.engine[0].verdict, CC_VERDICT_INCOMPLETE);
        CHECK_EQ(t, m.engine[0].conf.gaps.n, 1);
        CHECK_EQ(t, m.engine[1].verdict, CC_VERDICT_CERTIFIED);
        cc_certificate_free(&m);
    }
    /* A gap line that is not one is refused. */
    f = fopen(path, "w");
    fprintf(f, "cellcheck-shard 1\nshard 0 2\nengine cpu.a\ngap 7 9 1 0 why\nend\n");
    fclose(f);
    CHECK(t, cc_shard_read(path, &back, &err) == CC_ERR_ARG && strstr(err.msg, ":4"));
    for (int i = 0; i < 2; i++) cc_certificate_free(&s[i]);
}

int main(void) {
    checks t = {"shard_test", 0, 0};
    round_trip(&t);
    merge(&t);
    gaps(&t);
    return check_summary(&t);
}
