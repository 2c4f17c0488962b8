/* The rule type: shape, radius, centre handling and the S and B count sets. */
#ifndef CELLCHECK_ORACLE_RULE_H
#define CELLCHECK_ORACLE_RULE_H

#include <stddef.h>
#include <stdint.h>

#include "oracle/error.h"

/* C++ callers (CUDA engines, ports) see C linkage. */
#ifdef __cplusplus
extern "C" {
#endif

typedef enum cc_shape {
    CC_SHAPE_MOORE = 0,       /* NM: the (2r+1)^2 square */
    CC_SHAPE_VON_NEUMANN = 1, /* NN: |dx|+|dy| <= r */
    CC_SHAPE_CROSS = 2,       /* N+: dx == 0 or dy == 0, within r */
    CC_SHAPE_CIRCULAR = 3,    /* NC: dx^2+dy^2 <= r^2+r */
    CC_SHAPE_HEX = 4          /* NH, r = 1: Moore minus (+1,-1) and (-1,+1), y downward */
} cc_shape;

#define CC_SHAPE_COUNT 5
#define CC_SHAPE_BIT(s) (1u << (unsigned)(s))

/* Where a grid's edges lead, as Golly's rule suffix writes it (":T" torus, ":P" plane). */
typedef enum cc_topology {
    CC_TOPOLOGY_TORUS = 0, /* the default: opposite edges meet */
    CC_TOPOLOGY_PLANE = 1  /* a bounded plane: every cell outside the grid is dead, always */
} cc_topology;

#define CC_TOPOLOGY_COUNT 2
#define CC_TOPOLOGY_BIT(t) (1u << (unsigned)(t))

/* Golly's Larger than Life limit. */
#define CC_RADIUS_MAX 500

/* A set of neighbour counts as sorted, disjoint, non-adjacent inclusive ranges. Life-like sets
 * need at most 5 ranges ({0,2,4,6,8}); Larger than Life sets are one range. */
#define CC_SET_MAX_RANGES 8

typedef struct cc_range {
    int32_t lo, hi;
} cc_range;

typedef struct cc_set {
    int n;
    cc_range r[CC_SET_MAX_RANGES];
} cc_set;

typedef struct cc_rule {
    cc_shape shape;
    int32_t radius;
    int centre; /* 1: M1, a live centre counts towards its own count; 0: M0 */
    cc_set survive; /* S: an alive cell stays alive iff its count is in S */
    cc_set birth;   /* B: a dead cell becomes alive iff its count is in B */
    cc_topology topology;
} cc_rule;

/* Maximum length of a printed rule, including the terminating NUL. */
#define CC_RULE_TEXT_MAX 96

/* Is (dx, dy) in the neighbourhood of shape and radius r? (0,0) is not: the centre is separate. */
int cc_shape_contains(cc_shape shape, int32_t r, int32_t dx, int32_t dy);

/* Number of neighbours of the shape at radius r, centre excluded. */
int32_t cc_shape_size(cc_shape shape, int32_t r);

/* Largest count a cell can reach: the shape's size, plus one under M1. */
int32_t cc_rule_max_count(const cc_rule *rule);

const char *cc_shape_code(cc_shape shape); /* "NM", "NN", "N+", "NC", "NH" */
const char *cc_topology_name(cc_topology topology); /* "torus", "bounded plane" */

int cc_set_has(const cc_set *set, int32_t count);
void cc_set_clear(cc_set *set);
/* Adds [lo, hi], merging with overlapping or adjacent ranges. Fails if the set would need more
 * than CC_SET_MAX_RANGES ranges. */
int cc_set_add(cc_set *set, int32_t lo, int32_t hi, cc_error *err);
int cc_set_equal(const cc_set *a, const cc_set *b);
/* The set as one interval lo..hi, as a threshold kernel (SMIN..SMAX) tests it: its lowest to its
 * highest count; lo > hi for an empty set. Exact for a set of at most one interval, which is
 * what an engine whose caps say s_ranges_max = b_ranges_max = 1 receives. */
void cc_set_hull(const cc_set *set, int32_t *lo, int32_t *hi);

/* Checks radius, shape and that both sets lie within 0..max count; the message names the limit. */
int cc_rule_validate(const cc_rule *rule, cc_error *err);

/* Parses any notation of DESIGN.md:
 *   Larger than Life  "R5,C2,M0,S34..58,B34..45,NM" (also without commas, and "NN", "N+", "NC")
 *   Life-like         "B3/S23" (Moore, r = 1, M0)
 *   hexagonal         "B2/S34H"
 * C0, C1, C2 mean 2 states; C > 2 is refused as unsupported. Any of them may end in Golly's
 * topology suffix: ":T" the torus (the default), ":P" the bounded plane, either with the grid's
 * sides as ":P64,48". */
int cc_rule_parse(const char *text, cc_rule *out, cc_error *err);

/* cc_rule_parse, and the sides the topology suffix states (0 and 0 where it states none), for
 * a reader to hold against the grid's own size. */
int cc_rule_parse_sized(const char *text, cc_rule *out, int32_t *w, int32_t *h, cc_error *err);

/* cc_rule_parse_sized, and *stated: 1 when the text names its topology (":T", ":P", with sides or
 * without), so that a reader knows whether the rule or a file's header decides it. */
int cc_rule_parse_stated(const char *text, cc_rule *out, int *stated, int32_t *w, int32_t *h,
                         cc_error *err);

/* Prints the canonical form: "B3/S23" for Moore r = 1 M0, "B2/S34H" for hex, otherwise
 * "R5,C2,M0,S34..58,B34..45,NM", with ":P" after it on the bounded plane. A Larger than Life set that is not a single non-empty range
 * cannot be written in that notation and is refused. */
int cc_rule_print(const cc_rule *rule, char *buf, size_t size, cc_error *err);

int cc_rule_equal(const cc_rule *a, const cc_rule *b);

#ifdef __cplusplus
}
#endif

#endif
