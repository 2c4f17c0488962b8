/* The rules people run, by name: Conway's Life and its best-known Life-like relatives, hexagonal
 * Life, and the Larger than Life rules of Golly's collection, each where the engine's caps take
 * it, on two soups. The drawn sections meet such exact rules only by chance, so an engine that
 * special-cases one of them (a Life kernel picked by too loose a test, a table sized for the
 * counts Life uses) is caught here by the rule's name, in seconds. */
#include "harness/sections/section.h"

#include <stdio.h>

#include "harness/extremes.h"

static const struct {
    const char *name, *rule;
} named[] = {
    {"Life", "B3/S23"},
    {"HighLife", "B36/S23"},
    {"Day & Night", "B3678/S34678"},
    {"Seeds", "B2/S"},
    {"Life without death", "B3/S012345678"},
    {"Replicator", "B1357/S1357"},
    {"Diamoeba", "B35678/S5678"},
    {"2x2", "B36/S125"},
    {"Morley", "B368/S245"},
    {"hexagonal Life", "B2/S34H"},
    {"Majority", "R4,C0,M1,S41..81,B41..81,NM"},
    {"Bosco's rule", "R5,C0,M1,S34..58,B34..45,NM"},
    {"Waffle", "R7,C0,M1,S100..200,B75..170,NM"},
    {"Globe", "R8,C0,M0,S163..223,B74..252,NM"},
};
#define NAMED_RULES (sizeof named / sizeof named[0])

/* Two soups a rule: prime sides past a few neighbourhoods, and rows of one 64-cell word; enough
 * steps for births and deaths to reach every count. Neither is whole tiles both ways: how tiles
 * meet the torus is the seams section's, and this one is about rules. */
static const struct {
    int32_t w, h, per_r; /* sides w + per_r * r, h + per_r * r */
    int64_t steps;
    double density;
} soups[] = {{53, 41, 6, 8, 0.35}, {64, 61, 0, 5, 0.5}};

static void named_rules(conformance_tally *t) {
    const cc_engine_caps all = t->caps;
    int left = 0;
    for (size_t i = 0; i < NAMED_RULES && !t->stopped; i++) {
        cc_rule rule;
        cc_error err;
        if (cc_rule_parse(named[i].rule, &rule, &err)) {
            printf("ERROR: %s: named rules: %s: %s\n", t->engine->name, named[i].name, err.msg);
            t->infra_error++;
            continue;
        }
        const cc_engine_caps caps = cc_engine_caps_for_shape(&all, rule.shape);
        const int32_t r = rule.radius, min = 2 * r + 1;
        for (size_t s = 0; s < sizeof soups / sizeof soups[0]; s++) {
            int32_t w = cc_fit_side(soups[s].w + soups[s].per_r * r, min, caps.w_multiple,
                                    caps.w_max);
            int32_t h = cc_fit_side(soups[s].h + soups[s].per_r * r, min, caps.h_multiple,
                                    caps.h_max);
            if (caps.square_only) w = h = w > h ? w : h;
            cc_rule as_run = rule;
            if (!w || !h || !tally_rule_fits(t, &as_run, w, h)) {
                left++;
                continue;
            }
            char label[96];
            snprintf(label, sizeof label, "named rules (%s, %s)", named[i].name, named[i].rule);
            cc_case c = cc_edge_case(&as_run, w, h, soups[s].steps, soups[s].density,
                                     0x6e616d6564000000ull + 2 * i + s, t->opt->master); /* "named" */
            tally_check(t, label, &c, NULL);
            if (t->failed && t->opt->stop_at_first_failure) return;
        }
    }
    printf("%s: named rules: %d passed, of %d rules by name (Life, HighLife, ..., Globe) on two "
           "soups each; %d soups outside its caps\n",
           t->engine->name, t->sections[t->section].passed, (int)NAMED_RULES, left);
}

const conformance_section section_named_rules = {.progress = "named rules",
                                                 .part_of = -1,
                                                 .run = named_rules};
