/* Gaps: noted and merged by section and kind, named for --accept-gap, accepted only by a name
 * that matches, and counted as open otherwise. */
#include "harness/coverage.h"

#include <stdio.h>
#include <string.h>

#include "testing/check.h"

/* What ran, by hand: three cases, merged with a fourth. */
static void coverage(checks *t) {
    cc_coverage a = {0}, b = {0};
    char text[400];
    cc_coverage_describe(&a, text, sizeof text);
    CHECKF(t, !strcmp(text, "none"), "empty: '%s'", text);
    cc_rule r = {0};
    r.shape = CC_SHAPE_MOORE;
    r.radius = 5;
    cc_coverage_add(&a, &r, 98309, 43691, 1, 0);
    r.radius = 2;
    r.centre = 1;
    r.topology = CC_TOPOLOGY_PLANE;
    cc_coverage_add(&a, &r, 7, 9, 65537, 3);
    r.shape = CC_SHAPE_HEX;
    r.radius = 1;
    cc_coverage_add(&b, &r, 5, 5, 2, 100);
    cc_coverage_merge(&a, &b);
    cc_coverage_describe(&a, text, sizeof text);
    CHECKF(t, !strcmp(text, "3 cases: shapes NM,NH; r 1..5; M0,M1; torus, plane; teams 3,64+,default; "
                            "steps up to 65537; up to 4295218519 cells, sides up to 98309"),
           "described as '%s'", text);
}

int main(void) {
    checks t = {"coverage_test", 0, 0};
    coverage(&t);
    cc_gap_list a = {0};
    cc_gap_note(&a, CC_CHECK_STEP_COUNTS, CC_GAP_TIME, 1, "step count %d: about %d s", 65537, 14);
    cc_gap_note(&a, CC_CHECK_STEP_COUNTS, CC_GAP_TIME, 1, "step count %d: about %d s", 89720, 34);
    cc_gap_note(&a, CC_CHECK_PAST_2_32, CC_GAP_MEMORY, 1, "does not fit");
    CHECKF(&t, a.n == 2, "two (section, kind) pairs make %d gaps", a.n);
    CHECKF(&t, a.gaps[0].count == 2, "the step counts' gap counts %d", a.gaps[0].count);
    CHECKF(&t, strcmp(a.gaps[0].reason, "step count 65537: about 14 s") == 0,
           "the first reason is kept: '%s'", a.gaps[0].reason);
    char id[64];
    cc_gap_id(&a.gaps[0], id, sizeof id);
    CHECKF(&t, strcmp(id, "step-counts:time") == 0, "id '%s'", id);
    cc_gap_id(&a.gaps[1], id, sizeof id);
    CHECKF(&t, strcmp(id, "huge-grid:memory") == 0, "id '%s'", id);
    CHECK(&t, cc_gap_list_open(&a) == 2);

    /* Accepting: a section names its every gap, SECTION:KIND only that one. */
    cc_error err;
    CHECK(&t, cc_gap_accept_check("huge-grid,step-counts:time", &err) == CC_OK);
    CHECK(&t, cc_gap_accept_check("step-counts:blind", &err) == CC_OK);
    CHECK(&t, cc_gap_accept_check("huge", &err) == CC_ERR_ARG && strstr(err.msg, "'huge'"));
    CHECK(&t, cc_gap_accept_check("step-counts:slow", &err) == CC_ERR_ARG);
    CHECK(&t, cc_gap_accept_check("seams,", &err) == CC_OK);
    CHECK(&t, cc_gap_accept_check(",seams", &err) == CC_ERR_ARG);
    cc_gap_list b = a;
    cc_gap_list_accept(&b, "step-counts:blind");
    CHECKF(&t, cc_gap_list_open(&b) == 2, "a kind that is not there accepted a gap");
    cc_gap_list_accept(&b, "huge-grid");
    CHECKF(&t, cc_gap_list_open(&b) == 1 && b.gaps[1].accepted, "huge-grid not accepted");
    cc_gap_list_accept(&b, "step-counts:time");
    CHECK(&t, cc_gap_list_open(&b) == 0);

    /* Merging shards: counts add up, an option's gap that every shard notes stays one. */
    cc_gap_list m = {0}, s = {0};
    cc_gap_note(&s, CC_CHECK_PAST_2_32, CC_GAP_ASKED, 1, "--huge-grid off");
    cc_gap_list_merge(&m, &a);
    cc_gap_list_merge(&m, &a);
    cc_gap_list_merge(&m, &s);
    cc_gap_list_merge(&m, &s);
    CHECKF(&t, m.n == 3 && m.gaps[0].count == 4 && m.gaps[2].count == 1,
           "merged: %d gaps, counts %d and %d", m.n, m.gaps[0].count, m.gaps[2].count);

    /* Past the list's room a gap is still counted, and open. */
    cc_gap_list full = {0};
    for (int i = 0; i < CC_GAPS_MAX + 2; i++)
        cc_gap_note(&full, (cc_check_section)(i % CC_CHECK_SECTION_COUNT),
                    (cc_gap_kind)(i / CC_CHECK_SECTION_COUNT), 1, "gap %d", i);
    CHECKF(&t, full.n == CC_GAPS_MAX && full.dropped == 2, "%d kept, %d dropped", full.n,
           full.dropped);
    char every[512] = "";
    for (int s = 0; s < CC_CHECK_SECTION_COUNT; s++)
        snprintf(every + strlen(every), sizeof every - strlen(every), "%s%s", s ? "," : "",
                 cc_check_section_id((cc_check_section)s));
    cc_gap_list_accept(&full, every);
    CHECKF(&t, cc_gap_list_open(&full) == 1, "dropped gaps counted as accepted");
    CHECK(&t, strcmp(cc_check_section_id(CC_CHECK_PAST_2_32), "huge-grid") == 0);
    CHECK(&t, strcmp(cc_check_section_name(CC_CHECK_STEP_COUNTS), "step counts") == 0);
    /* A GPU engine certified without its timing disturbance: "gpu-timing:absent". */
    cc_gap_list g = {0};
    cc_gap_note(&g, CC_CHECK_TIMING, CC_GAP_ABSENT, 1, "no device");
    char gid[64];
    cc_gap_id(&g.gaps[0], gid, sizeof gid);
    CHECKF(&t, strcmp(gid, "gpu-timing:absent") == 0, "id %s", gid);
    CHECK(&t, cc_gap_accept_check("gpu-timing:absent", &err) == CC_OK);
    cc_gap_list_accept(&g, "gpu-timing:absent");
    CHECK(&t, cc_gap_list_open(&g) == 0);
    return check_summary(&t);
}
