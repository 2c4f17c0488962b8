/* What a certification covers: its sections, and the gaps where a check was left out. A
 * certificate with a gap is INCOMPLETE, never CERTIFIED, unless the user accepted that gap by
 * name (certify --accept-gap), and then it says so. */
#ifndef CELLCHECK_HARNESS_COVERAGE_H
#define CELLCHECK_HARNESS_COVERAGE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "oracle/error.h"
#include "oracle/rule.h"

/* The sections of a conformance run, in the order certify reports them: CC_CHECK_EDGE_CASES,
 * CC_CHECK_SEAMS, CC_CHECK_PLANE, CC_CHECK_PAST_TILES, CC_CHECK_PAST_2_32, CC_CHECK_SHAPES,
 * CC_CHECK_ROUND_TRIPS, CC_CHECK_STEP_COUNTS, CC_CHECK_SEQUENCES, CC_CHECK_TIMING,
 * CC_CHECK_REFUSALS, CC_CHECK_CAMPAIGN and those after them, one a line of
 * harness/sections/list.h, which says what each covers. */
typedef enum cc_check_section {
#define CC_SECTION_ROW(KEY, file, id, name) CC_CHECK_##KEY,
#include "harness/sections/list.h"
#undef CC_SECTION_ROW
    CC_CHECK_SECTION_COUNT
} cc_check_section;

/* The bits of cc_campaign_options.sections_off (fuzz/draw.h): CC_SECTION_<KEY> leaves section
 * CC_CHECK_<KEY> out, a gap (SECTION:asked); a section run inside another (huge-grid inside
 * past-tiles) is left out with it too. CC_SECTION_ALL & ~CC_SECTION_<KEY> runs that one alone. */
enum {
#define CC_SECTION_ROW(KEY, file, id, name) CC_SECTION_##KEY = 1 << CC_CHECK_##KEY,
#include "harness/sections/list.h"
#undef CC_SECTION_ROW
    CC_SECTION_ALL = (1 << CC_CHECK_SECTION_COUNT) - 1
};

/* "edge cases", "seams", "the bounded plane", "past the tiles", "past 2^32 cells", "thin and tall
 * grids", "round trips", "step counts", "call sequences", "GPU timing", "refusals", "campaign",
 * ... (harness/sections/list.h). */
const char *cc_check_section_name(cc_check_section section);

/* The section's name on a command line: "edge-cases", "seams", "plane", "past-tiles",
 * "huge-grid", "shapes", "round-trips", "step-counts", "sequences", "gpu-timing", "refusals",
 * "campaign", ... (harness/sections/list.h). */
const char *cc_check_section_id(cc_check_section section);

/* What a section's passing checks covered, along the dimensions a certificate names: every
 * checked case adds its shape, radius, centre, topology, OpenMP team, steps and cells. */
typedef struct cc_coverage {
    int cases;
    uint32_t shapes;     /* CC_SHAPE_BIT of each shape checked */
    uint32_t centres;    /* bit 0: M0, bit 1: M1 */
    uint32_t topologies; /* CC_TOPOLOGY_BIT of each */
    int32_t radius_min, radius_max;
    uint64_t teams;      /* bit t-1: an OpenMP team of t threads (t >= 64: bit 63); bit 63 also
                          * stands for larger teams */
    int default_team;    /* some case ran at the worker's default team (threads unset) */
    int64_t steps_max;
    double cells_max;
    int32_t side_max;    /* the longest side, W or H */
} cc_coverage;

/* Adds one checked case (threads 0: the worker's default team). */
void cc_coverage_add(cc_coverage *cov, const cc_rule *rule, int32_t w, int32_t h, int64_t steps,
                     int32_t threads);
void cc_coverage_merge(cc_coverage *into, const cc_coverage *from);
/* "12 cases: shapes NM,N+; r 1..64; M0,M1; torus, plane; teams 1,2,3,4; steps up to 9; up to
 * 4299161319 cells, sides up to 98309", or "none" when nothing was checked. */
void cc_coverage_describe(const cc_coverage *cov, char *buf, size_t size);

/* Why checks were left out. */
typedef enum cc_gap_kind {
    CC_GAP_ASKED = 0, /* the options left them out (--huge-grid off, a section turned off) */
    CC_GAP_MEMORY,    /* they do not fit this machine's memory */
    CC_GAP_TIME,      /* they would take past a time bound on this machine */
    CC_GAP_BUDGET,    /* they cost past one of the harness's work budgets */
    CC_GAP_BLIND,     /* no case found tells the right answer from the wrong ones */
    CC_GAP_ABSENT,    /* what they need is not here: the device to disturb, or the code that
                       * disturbs it in this program */
    CC_GAP_KIND_COUNT
} cc_gap_kind;

/* "asked", "memory", "time", "budget", "blind", "absent". */
const char *cc_gap_kind_name(cc_gap_kind kind);

/* One gap: the checks of one section left out for one kind of reason, how many, and the first
 * reason in words ("step count 65537: about 14 s on this engine at the rate ..."). */
typedef struct cc_gap {
    int section; /* cc_check_section */
    int kind;    /* cc_gap_kind */
    int count;
    int accepted; /* named by --accept-gap: the certificate may still say CERTIFIED */
    char reason[400];
} cc_gap;

/* Gaps of one engine's run, kept by value so a summary copies whole. */
#define CC_GAPS_MAX 16
typedef struct cc_gap_list {
    int n;
    int dropped; /* gaps past CC_GAPS_MAX, counted only (never silently: the verdict stays
                  * INCOMPLETE) */
    cc_gap gaps[CC_GAPS_MAX];
} cc_gap_list;

/* "step-counts:time", the gap's name for --accept-gap. */
void cc_gap_id(const cc_gap *gap, char *buf, size_t size);

/* Counts `count` checks left out of section for kind; the first reason of a (section, kind) is
 * kept. */
void cc_gap_note(cc_gap_list *list, cc_check_section section, cc_gap_kind kind, int count,
                 const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Adds every gap of from into into (a shard's gaps into the merge's), counts summed. */
void cc_gap_list_merge(cc_gap_list *into, const cc_gap_list *from);

/* Checks a --accept-gap value: comma-separated items, each a section id ("huge-grid": its every
 * gap) or SECTION:KIND ("step-counts:time"). CC_ERR_ARG naming the first unknown item. */
int cc_gap_accept_check(const char *accept, cc_error *err);

/* Marks the gaps that accept names (NULL or "": none) as accepted. */
void cc_gap_list_accept(cc_gap_list *list, const char *accept);

/* Gaps not accepted (past CC_GAPS_MAX counted as not accepted). */
int cc_gap_list_open(const cc_gap_list *list);

/* One line a gap: "  ENGINE: step-counts:time, 2 left out: step count 65537: about 14 s ...",
 * " (accepted)" after an accepted one. Prints nothing for an empty list. */
void cc_gap_list_print(FILE *f, const char *engine, const cc_gap_list *list);

#endif
