/* A case's label in the supervisor's in-flight lines, and the small cases the patterns and
 * sequences draw (check.h). */
#include "harness/check.h"

#include <stdio.h>

#include "harness/campaign_options.h"
#include "supervise/supervisor.h"

void cc_case_label(const cc_engine *engine, const char *where, const cc_case *c) {
    cc_supervisor *sv = cc_supervisor_of(engine);
    if (!sv) return;
    char line[CC_CASE_TEXT_MAX], label[CC_CASE_TEXT_MAX + 64];
    case_format(c, line, sizeof line, NULL);
    snprintf(label, sizeof label, "%s: %s", where, line);
    cc_supervisor_label(sv, label);
}

int cc_case_draw_small(const cc_engine *engine, const uint8_t seed[CC_SEED_BYTES], cc_case *out,
                       cc_error *err) {
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.invalid_percent = 0;
    opt.large_percent = -1;
    cc_drawn_case d;
    int rc = cc_case_draw(engine, &opt, seed, &d, err);
    if (!rc) *out = d.c;
    return rc;
}

