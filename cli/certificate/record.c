/* The certificate record's own rules (record.h): verdict names, gaps settled, failures told. */
#include "cli/certificate/record.h"

#include <stdlib.h>
#include <string.h>

const char *cc_verdict_name(int verdict) {
    return verdict == CC_VERDICT_CERTIFIED    ? "CERTIFIED"
           : verdict == CC_VERDICT_FAILED     ? "FAILED"
           : verdict == CC_VERDICT_INCOMPLETE ? "INCOMPLETE"
                                              : "NOT RUN";
}

int cc_certificate_alloc(cc_certificate *c, int n, cc_error *err) {
    memset(c, 0, sizeof *c);
    c->engine = calloc((size_t)(n > 0 ? n : 1), sizeof *c->engine);
    if (!c->engine) return cc_fail(err, CC_ERR_NOMEM, "cannot allocate the certificate");
    c->engines = n;
    return CC_OK;
}

void cc_certificate_free(cc_certificate *c) {
    free(c->engine);
    memset(c, 0, sizeof *c);
}

void cc_certificate_settle_gaps(cc_certificate_engine *e, const char *accept) {
    cc_gap_list_accept(&e->conf.gaps, accept);
    if (e->verdict == CC_VERDICT_CERTIFIED || e->verdict == CC_VERDICT_INCOMPLETE)
        e->verdict = cc_gap_list_open(&e->conf.gaps) ? CC_VERDICT_INCOMPLETE : CC_VERDICT_CERTIFIED;
}

void cc_certificate_count(const cc_certificate *c, int counts[4]) {
    memset(counts, 0, 4 * sizeof *counts);
    for (int i = 0; i < c->engines; i++)
        if (c->engine[i].verdict >= 0 && c->engine[i].verdict < 4) counts[c->engine[i].verdict]++;
}

double cc_certificate_section_seconds(const cc_certificate_engine *e, int section) {
    return section == CC_CHECK_SECTION_COUNT ? e->golden_seconds
                                             : e->conf.sections[section].seconds;
}

void cc_certificate_failure(const cc_certificate_engine *e, cc_failure_view *v) {
    memset(v, 0, sizeof *v);
    v->klass = v->section = v->detail = v->case_line = v->calls = v->reproducer = "";
    v->index = -1;
    if (e->verdict != CC_VERDICT_FAILED) return;
    v->detail = e->reason;
    if (e->seconds == 0) {
        v->klass = "hardware absent";
        return;
    }
    const cc_conformance_summary *c = &e->conf;
    if (!c->passed && (c->failed > 0 || c->campaign.has_failure)) {
        v->klass = c->first_kind != CC_FAILURE_NONE ? cc_failure_kind_name(c->first_kind)
                                                    : "accepted a parameter outside its caps";
        v->section = cc_check_section_name(c->first_section);
        v->detail = c->first_failure;
        v->case_line = c->first_case;
        v->calls = c->first_calls;
        v->index = c->first_index;
        v->reproducer = c->first_reproducer;
    } else if (c->passed) {
        v->klass = "golden mismatch";
        v->section = "goldens";
        if (e->golden.first_case[0]) {
            v->detail = e->golden.first_detail;
            v->case_line = e->golden.first_case;
        }
    } else {
        v->klass = "could not check";
    }
}
