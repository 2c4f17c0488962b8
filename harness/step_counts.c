/* The oracle's trajectory of a case, its cycle found, and the counts that alias. */
#include "harness/step_counts.h"

#include <stdlib.h>
#include <string.h>

#include "oracle/oracle.h"

int cc_step_counts_wrong(int64_t k, const int32_t *blocks, int nblocks,
                         int64_t wrong[CC_STEP_COUNTS_WRONG_MAX]) {
    int64_t cand[64];
    int n = 0;
    cand[n++] = k - 1;
    if (k < INT64_MAX) cand[n++] = k + 1;
    if (k >= 256) cand[n++] = k & 0xff;
    if (k >= 65536) cand[n++] = k & 0xffff;
    for (int i = 0; i < nblocks && n + 3 <= 64; i++) {
        int64_t t = blocks[i];
        if (t < 2) continue;
        cand[n++] = k / t * t;
        if (k <= INT64_MAX - t) cand[n++] = (k + t - 1) / t * t;
        cand[n++] = k - t;
    }
    int out = 0;
    for (int i = 0; i < n && out < CC_STEP_COUNTS_WRONG_MAX; i++) {
        if (cand[i] < 0 || cand[i] == k) continue;
        int seen = 0;
        for (int j = 0; j < out; j++) seen |= wrong[j] == cand[i];
        if (!seen) wrong[out++] = cand[i];
    }
    return out;
}

int cc_step_counts_wrong_waited(int64_t k, int64_t wrong[CC_STEP_COUNTS_WRONG_MAX]) {
    const int64_t cand[] = {k - 1,      k < INT64_MAX ? k + 1 : -1, k & 0xffffffff,
                            k & 0xffff, k & 0xff,                  0};
    int out = 0;
    for (size_t i = 0; i < sizeof cand / sizeof *cand; i++) {
        if (cand[i] < 0 || cand[i] == k) continue;
        int seen = 0;
        for (int j = 0; j < out; j++) seen |= wrong[j] == cand[i];
        if (!seen) wrong[out++] = cand[i];
    }
    return out;
}

static uint64_t grid_hash(const cc_grid *g) {
    uint64_t h = 0x9e3779b97f4a7c15ull;
    size_t n = cc_grid_cells(g);
    for (size_t i = 0; i < n; i++) h = (h ^ g->cells[i]) * 0x100000001b3ull + (h >> 29);
    return h;
}

/* The index of count n in a trajectory whose states 0 .. mu+p-1 are distinct (p = 0: no cycle
 * seen, every state up to the last stepped distinct). */
static int64_t state_of(int64_t n, int64_t mu, int64_t p) {
    return p == 0 || n < mu + p ? n : mu + (n - mu) % p;
}

int cc_step_counts_distinct(const cc_case *c, const int64_t *wrong, int nwrong,
                            double visits_budget, int *verdict, int64_t *alias,
                            cc_grid *at_steps, cc_error *err) {
    *verdict = -1;
    *alias = -1;
    if (at_steps) *at_steps = (cc_grid){0};
    int64_t need = c->steps;
    for (int i = 0; i < nwrong; i++)
        if (wrong[i] > need) need = wrong[i];
    double per_step = (double)c->w * (double)c->h * (double)cc_rule_max_count(&c->rule);
    /* Hashes of states 0 .. need, in a table keyed by hash: a repeat, checked cell by cell,
     * is the cycle. No more states than the budget steps (a count past 2^31 has its cycle
     * found well before it, or none). */
    double states = visits_budget / (per_step > 0 ? per_step : 1.0) + 2.0;
    if ((double)need + 1.0 < states) states = (double)need + 1.0;
    size_t slots = 1;
    while ((double)slots < 2.0 * states) slots <<= 1;
    uint64_t *keys = calloc(slots, sizeof *keys);
    int64_t *at = malloc(slots * sizeof *at);
    cc_grid cur = {0}, next = {0}, back = {0};
    int rc = (!keys || !at) ? cc_fail(err, CC_ERR_NOMEM, "step counts: no memory for %lld states",
                                      (long long)need + 1)
                            : case_grid(c, &cur, err);
    if (!rc) rc = cc_grid_alloc(&next, c->w, c->h, err);
    int64_t mu = 0, p = 0, s = 0;
    for (; !rc; s++) {
        uint64_t h = grid_hash(&cur);
        size_t i = (size_t)(h & (slots - 1));
        int found = 0;
        while (at && keys[i] && !found) {
            if (keys[i] == h) {
                /* The same hash: the same grid only if its cells say so. */
                int64_t m = at[i];
                if (!(rc = case_grid(c, &back, err)) && !(rc = oracle_run(&c->rule, &back, m, err)) &&
                    memcmp(back.cells, cur.cells, cc_grid_cells(&cur)) == 0) {
                    mu = m;
                    p = s - m;
                    found = 1;
                }
                if (rc) break;
            }
            if (!found) i = (i + 1) & (slots - 1);
        }
        if (rc || found) break;
        keys[i] = h ? h : 1;
        at[i] = s;
        if (at_steps && s == c->steps && (rc = cc_grid_copy(at_steps, &cur, err))) break;
        if (s == need) break;
        if ((double)(s + 1) * per_step > visits_budget) {
            rc = CC_OK;
            goto done; /* verdict -1 */
        }
        if ((rc = oracle_step(&c->rule, &cur, &next, err))) break;
        cc_grid t = cur;
        cur = next;
        next = t;
    }
    if (!rc) {
        int64_t want = state_of(c->steps, mu, p);
        *verdict = 1;
        for (int i = 0; i < nwrong; i++)
            if (state_of(wrong[i], mu, p) == want) {
                *verdict = 0;
                *alias = wrong[i];
                break;
            }
        /* Past a cycle's first turn the grid after c->steps is an earlier state: step to it. */
        if (*verdict == 1 && at_steps && !at_steps->cells &&
            !(rc = case_grid(c, at_steps, err)))
            rc = oracle_run(&c->rule, at_steps, want, err);
    }
done:
    if (at_steps && (rc || *verdict != 1)) cc_grid_free(at_steps);
    free(keys);
    free(at);
    cc_grid_free(&cur);
    cc_grid_free(&next);
    cc_grid_free(&back);
    return rc;
}
