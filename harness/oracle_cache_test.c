/* Checks through the oracle cache give the verdicts of checks without it: for a correct engine
 * and a wrong one, on the whole grid and on light cones, from an empty cache, a full one, one
 * whose every entry was corrupted or truncated, and one whose entries were swapped between cases
 * of the same size (each a stale result under another case's name). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, truncate */

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz/mutants/mutants.h"
#include "harness/check.h"
#include "harness/harness.h"
#include "harness/oracle_cache.h"
#include "testing/check.h"

#define CAMPAIGN_TEST_NAME "oracle_cache_test"
#include "harness/tests_shared.h"

/* Whole-grid cases (past CC_ORACLE_CACHE_MIN_WORK) of one size, and light-cone cases. */
static const char *const lines[] = {
    "rule=R1,C2,M0,S2..3,B3..3,NM size=160x120 steps=40 density=0.4000 "
    "seed=00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
    "rule=R1,C2,M0,S2..3,B3..3,NM size=160x120 steps=40 density=0.3000 "
    "seed=ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100",
    "rule=R2,C2,M1,S5..12,B6..9,NM size=640x480 steps=10 density=0.4000 "
    "seed=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
};
#define NLINES 3

typedef struct verdicts {
    int outcome[2][NLINES];
    int lightcone[2][NLINES];
    char detail[2][NLINES][160];
} verdicts;

static void run_all(checks *t, const cc_engine *const engines[2], cc_oracle_cache *cache,
                    verdicts *v) {
    cc_check_options opt;
    cc_check_options_init(&opt);
    opt.oracle_cache = cache;
    for (int e = 0; e < 2; e++)
        for (int i = 0; i < NLINES; i++) {
            cc_case c;
            cc_error err;
            cc_check_result res;
            CHECK(t, case_parse(lines[i], &c, &err) == CC_OK);
            int rc = cc_case_check_with(engines[e], &c, &opt, &res, &err);
            CHECKF(t, rc == CC_OK, "%s: %s", engines[e]->name, err.msg);
            v->outcome[e][i] = res.outcome;
            v->lightcone[e][i] = res.lightcone;
            snprintf(v->detail[e][i], sizeof v->detail[e][i], "%.150s", res.detail);
        }
}

static void same(checks *t, const char *when, const verdicts *want, const verdicts *got) {
    for (int e = 0; e < 2; e++)
        for (int i = 0; i < NLINES; i++)
            CHECKF(t,
                   want->outcome[e][i] == got->outcome[e][i] &&
                       strcmp(want->detail[e][i], got->detail[e][i]) == 0,
                   "%s: engine %d case %d: '%s', without the cache '%s'", when, e, i,
                   got->detail[e][i], want->detail[e][i]);
}

/* Calls f on every entry file of the cache. */
static int each_file(const char *dir, void (*f)(const char *path, int i), int *count) {
    char sub[1200], path[1600];
    int n = 0;
    for (int b = 0; b < 256; b++) {
        snprintf(sub, sizeof sub, "%s/%02x", dir, b);
        DIR *d = opendir(sub);
        if (!d) continue;
        struct dirent *de;
        while ((de = readdir(d)))
            if (de->d_name[0] != '.') {
                snprintf(path, sizeof path, "%s/%s", sub, de->d_name);
                f(path, n++);
            }
        closedir(d);
    }
    *count = n;
    return n;
}

/* Odd entries lose their last byte; even ones have a payload byte flipped. */
static void damage(const char *path, int i) {
    if (i % 2) {
        FILE *f = fopen(path, "rb");
        long size = -1;
        if (f && fseek(f, 0, SEEK_END) == 0) size = ftell(f);
        if (f) fclose(f);
        if (size > 0 && truncate(path, size - 1) != 0) perror(path);
        return;
    }
    int fd = open(path, O_RDWR);
    uint8_t b;
    if (fd >= 0 && pread(fd, &b, 1, 100) == 1) {
        b ^= 1;
        if (pwrite(fd, &b, 1, 100) != 1) perror(path);
    }
    if (fd >= 0) close(fd);
}

static void copy_entry(const char *from, const char *to) {
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    char buf[8192];
    size_t n;
    while (in && out && (n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n) break;
    if (in) fclose(in);
    if (out) fclose(out);
}

int main(int argc, char **argv) {
    const cc_engine *edge = NULL;
    for (const cc_engine *const *m = cc_mutants_all(); *m; m++)
        if (strcmp((*m)->name, "mutant.edge") == 0) edge = *m;
    const cc_engine *tables[3] = {&cc_mutant_control, edge, NULL};
    int status;
    if (cc_harness_supervise(argc, argv, tables, &supervisor, &status)) return status;
    checks t = {"oracle_cache_test", 0, 0};
    const cc_engine *const engines[2] = {described(&cc_mutant_control), described(edge)};
    const char *tmp = getenv("TEST_TMPDIR");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/oracle.XXXXXX", tmp ? tmp : "/tmp");
    if (!CHECK(&t, mkdtemp(dir) != NULL)) return check_summary(&t);

    verdicts none, first, second, damaged, swapped;
    run_all(&t, engines, NULL, &none);
    /* The cases say what they exercise: the control passes, mutant.edge fails, on both paths. */
    for (int i = 0; i < NLINES; i++) {
        CHECKF(&t, none.outcome[0][i] == CC_OUTCOME_PASS, "control: %s", none.detail[0][i]);
        CHECKF(&t, none.outcome[1][i] == CC_OUTCOME_FAIL, "mutant.edge passed case %d", i);
    }
    CHECK(&t, !none.lightcone[0][0] && none.lightcone[0][2]);

    cc_oracle_cache cache;
    cc_oracle_cache_open(&cache, dir, 64u << 20);
    run_all(&t, engines, &cache, &first);
    same(&t, "an empty cache", &none, &first);
    /* Each case's result is computed once and reused for the second engine. */
    CHECK_EQ(&t, cache.stored, NLINES);
    CHECK_EQ(&t, cache.hits, NLINES);

    cc_oracle_cache again;
    cc_oracle_cache_open(&again, dir, 64u << 20);
    run_all(&t, engines, &again, &second);
    same(&t, "a full cache", &none, &second);
    CHECK_EQ(&t, again.hits, 2 * NLINES);
    CHECK_EQ(&t, again.stored, 0);

    int n = 0;
    each_file(dir, damage, &n);
    CHECK_EQ(&t, n, NLINES);
    cc_oracle_cache_open(&again, dir, 64u << 20);
    run_all(&t, engines, &again, &damaged);
    same(&t, "a damaged cache", &none, &damaged);
    CHECK_EQ(&t, again.rejected, NLINES);
    CHECK_EQ(&t, again.stored, NLINES);

    /* The first case's entry under the second's name: the same size, another grid. */
    cc_case c0, c1;
    cc_oracle_key k0, k1;
    char p0[1200], p1[1200];
    case_parse(lines[0], &c0, NULL);
    case_parse(lines[1], &c1, NULL);
    cc_oracle_key_of(&c0, "grid", NULL, 0, &k0);
    cc_oracle_key_of(&c1, "grid", NULL, 0, &k1);
    cc_oracle_cache_path(&again, &k0, p0, sizeof p0);
    cc_oracle_cache_path(&again, &k1, p1, sizeof p1);
    copy_entry(p0, p1);
    cc_oracle_cache_open(&again, dir, 64u << 20);
    run_all(&t, engines, &again, &swapped);
    same(&t, "a cache with a stale entry", &none, &swapped);
    CHECK_EQ(&t, again.rejected, 1);
    char line[1600];
    cc_oracle_cache_describe(&again, line, sizeof line);
    printf("%s\n", line);

    cc_supervisor_close(supervisor);
    return check_summary(&t);
}
