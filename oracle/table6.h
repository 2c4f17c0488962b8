/* The Larger than Life instances of the CAT paper's Table VI: one Moore M0 rule per radius 1..16,
 * with the initial density the paper runs it at. The reference workloads of benches and goldens. */
#ifndef CELLCHECK_ORACLE_TABLE6_H
#define CELLCHECK_ORACLE_TABLE6_H

#include <stddef.h>
#include <stdint.h>

#define CC_TABLE6_COUNT 16

typedef struct cc_table6_instance {
    int32_t radius;
    const char *rule; /* as the table writes it, with commas: "R5,C2,M0,S35..59,B34..45,NM" */
    double density;   /* the paper's initial density of live cells */
    const char *name; /* "Bosco's Rule" */
} cc_table6_instance;

/* The instances in table order (radius 1..16); count is CC_TABLE6_COUNT. */
const cc_table6_instance *cc_table6_all(size_t *count);

/* The instance of radius r, or NULL when the table has none (r outside 1..16). */
const cc_table6_instance *cc_table6_find(int32_t radius);

#endif
