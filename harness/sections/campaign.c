/* The seeded campaign: opt->cases cases drawn for the engine, each checked against the oracle
 * under the call patterns (harness/campaign.h); its own shards, by case index. */
#include "harness/sections/section.h"

static void run(conformance_tally *t) {
    t->campaign_rc = cc_campaign_run(t->engine, t->opt, t->campaign, t->err);
    cc_section_tally *s = &t->sections[CC_CHECK_CAMPAIGN];
    s->passed = (int)t->campaign->passed;
    s->failed = (int)t->campaign->failed;
    s->cov = t->campaign->covered;
    s->oracle_seconds = t->campaign->oracle_seconds;
    s->draw_seconds = t->campaign->draw_seconds;
    s->shrink_seconds = t->campaign->shrink_seconds;
}

/* The campaign keeps its own progress line, and starts on no worker a fault stopped. */
const conformance_section section_campaign = {
    .flags = SECTION_NOT_AFTER_FAULT, .part_of = -1, .run = run};
