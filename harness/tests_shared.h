/* What the campaign's tests share (campaign_test, campaign_cases_test, case_check_test, shrink_test):
 * the supervisor of their workers, the description of a table's engine, and a caps-only engine.
 * Define CAMPAIGN_TEST_NAME (the test's name, for messages) before including it. */
#ifndef CELLCHECK_HARNESS_TESTS_SHARED_H
#define CELLCHECK_HARNESS_TESTS_SHARED_H

#include <stdio.h>
#include <stdlib.h>

#include "fuzz/mutants/mutants.h"
#include "harness/harness.h"

static cc_supervisor *supervisor;

/* The description of a table's engine, which the harness takes. */
static inline const cc_engine *described(const cc_engine *table) {
    const cc_engine *d = cc_supervised(supervisor, table);
    if (!d) {
        fprintf(stderr, "%s: the worker does not know %s\n", CAMPAIGN_TEST_NAME, table->name);
        exit(1);
    }
    return d;
}

static inline int no_hw(cc_error *err) {
    (void)err;
    return CC_OK;
}

/* A caps-only engine: drawing never calls its functions. */
static inline cc_engine general_caps(void) {
    cc_engine e = cc_mutant_control;
    e.name = "test.general";
    e.available = no_hw;
    return e;
}

/* The Moore work of a case, cells x (2r+1)^2 x steps. */
static inline double case_cost(const cc_case *c) {
    double side = 2.0 * c->rule.radius + 1;
    return (double)c->w * c->h * side * side * (double)c->steps;
}

#endif
