/* Call sequences: their text reads back as written and refuses what is not a call; a right
 * engine passes drawn sequences; an engine whose store spoils its next step, and one whose load
 * skips rows it loaded before, fail at the call worked out by hand, and shrink to the shortest
 * sequence that shows it, with a reproducer that runs it again. */
#define _POSIX_C_SOURCE 200809L /* fmemopen */
#include <stdio.h>
#include <string.h>

#include "fuzz/mutants/engine_bugs.h"
#include "fuzz/mutants/mutants.h"
#include "harness/harness.h"
#include "harness/sequence.h"
#include "supervise/supervisor.h"
#include "testing/check.h"

static const char life_case[] =
    "rule=B3/S23 size=24x20 steps=2 density=0.3500 seed="
    "00000000000000000000000000000000000000000000000000000000000000a1";

static void test_text(checks *t) {
    static const char text[] =
        "load#0 step(3) store store load=same step(0) B.create B.step(2) B.store B.destroy "
        "load=rows#4 store load=stored step(12) store";
    cc_call_sequence s;
    cc_error err;
    char back[CC_SEQUENCE_TEXT_MAX];
    CHECKF(t, cc_sequence_parse(text, &s, &err) == CC_OK, "parse: %s", err.msg);
    CHECK(t, s.n == 15 && s.op[1].kind == CC_OP_STEP && s.op[1].k == 3 &&
                 s.op[10].kind == CC_OP_LOAD_ROWS && s.op[10].grid == 4);
    CHECK(t, cc_sequence_format(&s, back, sizeof back) == CC_OK && strcmp(back, text) == 0);
    static const char *const bad[] = {"jump", "step(x)", "step()", "load#", "load#x", "", "B.stp(1)"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECKF(t, cc_sequence_parse(bad[i], &s, &err) == CC_ERR_ARG && err.msg[0],
               "'%s' was not refused", bad[i]);
}

static int fails_at(const cc_engine *e, const char *text, int *at, cc_failure_kind *kind) {
    cc_case c;
    cc_call_sequence s;
    cc_sequence_result res;
    cc_error err;
    if (case_parse(life_case, &c, &err) || cc_sequence_parse(text, &s, &err) ||
        cc_sequence_run(e, &c, &s, &res, &err))
        return -1;
    *at = res.at;
    *kind = res.kind;
    return res.failed;
}

int main(int argc, char **argv) {
    const cc_engine *tables[32];
    int n = 0;
    tables[n++] = &cc_mutant_control;
    for (const cc_engine *const *m = cc_mutants_all(); *m && n + 1 < 32; m++) tables[n++] = *m;
    for (const cc_engine *const *m = cc_mutants_engine_bugs(); *m && n + 1 < 32; m++)
        tables[n++] = *m;
    tables[n] = NULL;
    cc_supervisor *sv;
    int status;
    if (cc_harness_supervise(argc, argv, tables, &sv, &status)) return status;
    checks t = {"sequence_test", 0, 0};
    test_text(&t);
    const cc_engine *control = cc_supervisor_find(sv, "mutant.control");
    const cc_engine *scratch = cc_supervisor_find(sv, "mutant.store-scratch");
    const cc_engine *skip = cc_supervisor_find(sv, "mutant.load-skip");
    if (!CHECK(&t, control && scratch && skip)) return check_summary(&t);

    /* A right engine: drawn sequences on drawn seeds all agree. */
    cc_case c;
    cc_error err;
    CHECK(&t, case_parse(life_case, &c, &err) == CC_OK);
    int agreed = 0;
    for (int i = 0; i < 20; i++) {
        cc_case ci = c;
        ci.seed[0] = (uint8_t)i;
        cc_call_sequence s;
        cc_sequence_draw(&ci, 4, &s);
        cc_sequence_result res;
        if (cc_sequence_run(control, &ci, &s, &res, &err) == CC_OK && !res.failed) agreed++;
        else printf("control: %s %s\n", err.msg, res.detail);
    }
    CHECKF(&t, agreed == 20, "mutant.control agreed on %d of 20 sequences", agreed);

    /* The store that spoils the next step: the first store is right, the second (op 4) not. */
    int at = -1;
    cc_failure_kind kind = CC_FAILURE_NONE;
    CHECK(&t, fails_at(scratch, "load#0 step(1) store step(1) store", &at, &kind) == 1 && at == 4 &&
                  kind == CC_FAILURE_CALL_SEQUENCE);
    CHECK(&t, fails_at(scratch, "load#0 step(1) step(1) store", &at, &kind) == 0);
    /* The load that skips rows: load=same after two steps leaves the stepped rows. */
    CHECK(&t, fails_at(skip, "load#0 step(2) load=same store", &at, &kind) == 1 && at == 3);
    CHECK(&t, fails_at(skip, "load#0 step(2) load#1 store", &at, &kind) == 0);

    /* Shrunk: the padding goes, the failure stays. */
    cc_call_sequence s, shortest;
    cc_sequence_result res;
    CHECK(&t, cc_sequence_parse("load#0 B.create step(1) B.step(1) store B.store step(3) store "
                                "load#2 store",
                                &s, &err) == CC_OK);
    CHECK(&t, cc_sequence_run(scratch, &c, &s, &res, &err) == CC_OK && res.failed);
    int tries = 0;
    CHECK(&t, cc_sequence_shrink(scratch, &c, &s, &res, 200, &shortest, &tries, &err) == CC_OK);
    char text[CC_SEQUENCE_TEXT_MAX];
    cc_sequence_format(&shortest, text, sizeof text);
    printf("sequence_test: %d calls shrunk to '%s' in %d tries\n", s.n, text, tries);
    CHECKF(&t, shortest.n <= 5 && fails_at(scratch, text, &at, &kind) == 1,
           "shrunk to '%s'", text);

    /* The reproducer: check --calls. */
    char buf[4096] = "";
    FILE *out = fmemopen(buf, sizeof buf - 1, "w");
    int rc = cc_sequence_check_line(scratch, life_case, "load#0 step(1) store step(2) store", NULL, out,
                                    &err);
    fclose(out);
    CHECKF(&t, rc == CC_ERR_MISMATCH && strstr(buf, "--calls 'load#0 step(1) store step(") &&
                   strstr(buf, "differs along a call sequence"),
           "rc %d: %s", rc, buf);
    out = fmemopen(buf, sizeof buf - 1, "w");
    rc = cc_sequence_check_line(control, life_case, "load#0 step(1) store step(2) store", NULL, out, &err);
    fclose(out);
    CHECKF(&t, rc == CC_OK && strstr(buf, "PASSED"), "rc %d: %s", rc, buf);
    CHECK(&t, cc_sequence_check_line(control, life_case, "load#0 jump", NULL, NULL, &err) == CC_ERR_ARG);
    cc_supervisor_close(sv);
    return check_summary(&t);
}
