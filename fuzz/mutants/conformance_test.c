/* The conformance harness every engine runs: the correct loop passes, mutants and an engine
 * that forgets a refusal fail, an engine with narrow caps gets every limit probed, and absent
 * hardware skips or, when CELLCHECK_REQUIRE names it, fails. The engines run in workers of this
 * executable: the harness is given their supervisor's descriptions. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv, dup, fileno */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/harness.h"
#include "fuzz/mutants/mutants.h"
#include "testing/check.h"

#define CAPTURE_BYTES ((size_t)1 << 20)

/* Runs the harness with its stdout captured into `captured` (CAPTURE_BYTES); returns its exit
 * status. */
static int run_captured(char *captured, const cc_engine *engine, int argc, char **argv) {
    char path[512];
    const char *tmp = getenv("TEST_TMPDIR");
    snprintf(path, sizeof path, "%s/harness_out.txt", tmp ? tmp : "/tmp");
    fflush(stdout);
    int saved = dup(1);
    FILE *f = fopen(path, "w+");
    if (saved < 0 || !f) {
        fprintf(stderr, "cannot capture stdout\n");
        exit(1);
    }
    dup2(fileno(f), 1);
    int status = cc_harness_conformance(engine, NULL, argc, argv);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    rewind(f);
    size_t n = fread(captured, 1, CAPTURE_BYTES - 1, f);
    captured[n] = '\0';
    fclose(f);
    /* The harness's own output, for the test log. */
    const char *last = captured + n;
    while (last > captured && last[-1] == '\n') last--;
    const char *line = last;
    while (line > captured && line[-1] != '\n') line--;
    printf("[%s exit %d] %.*s\n", engine->name, status, (int)(last - line), line);
    return status;
}

static int no_gpu(cc_error *err) {
    return cc_fail(err, CC_ERR_UNAVAILABLE, "no CUDA device (test stand-in)");
}

extern const cc_engine narrow;
static int narrow_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    int rc = cc_engine_check(&narrow, rule, w, h, err);
    return rc ? rc : cc_mutant_control.create(rule, w, h, ctx, err);
}
/* Forgets that W must be a multiple of 8. */
static int forgetful_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    if (w % 8 != 0) return cc_mutant_control.create(rule, w, h, ctx, err);
    return narrow_create(rule, w, h, ctx, err);
}
const cc_engine narrow = {
    .name = "test.narrow",
    .summary = "the control loop behind narrow caps",
    .hardware = CC_HW_CPU,
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_CROSS),
             .radius_min = 2,
             .radius_max = 8,
             .centres = CC_CENTRE_M1,
             .w_multiple = 8,
             .h_multiple = 4,
             .w_max = 64,
             .h_max = 48,
             .count_max = 100},
};

/* The control loop behind the narrow caps, the same forgetting a refusal, an absent GPU, and one
 * said to be on a GPU that is always there (it runs on the CPU): the GPU timing section is its
 * dimension, and no worker of this program can disturb it. */
static cc_engine narrow_loop, forgetful_loop, absent_gpu, present_gpu;

/* Only fills tables: it runs before the worker hook, in the worker too. */
static void make_engines(void) {
    narrow_loop = cc_mutant_control;
    narrow_loop.name = narrow.name;
    narrow_loop.summary = narrow.summary;
    narrow_loop.caps = narrow.caps;
    narrow_loop.create = narrow_create;
    forgetful_loop = narrow_loop;
    forgetful_loop.name = "test.forgetful";
    forgetful_loop.create = forgetful_create;
    absent_gpu = cc_mutant_control;
    absent_gpu.name = "test.gpu";
    absent_gpu.hardware = CC_HW_GPU;
    absent_gpu.available = no_gpu;
    present_gpu = cc_mutant_control;
    present_gpu.name = "test.gpu-here";
    present_gpu.hardware = CC_HW_GPU;
}

/* The GPU timing section is a dimension of GPU engines alone, and where a worker cannot disturb
 * one (this program has no CUDA driver library linked in, whatever the machine), every check of
 * it is a gap, gpu-timing:absent, never silently nothing. */
static void timing_gap(checks *t, const cc_engine *gpu_here, const cc_engine *cpu) {
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.cases = 10;
    opt.out = stdout;
    opt.sections_off = CC_SECTION_ALL & ~(CC_SECTION_TIMING | CC_SECTION_REFUSALS |
                                          CC_SECTION_CAMPAIGN);
    cc_conformance_summary sum;
    cc_error err;
    int rc = cc_conformance_run(gpu_here, &opt, &sum, &err);
    const cc_gap *gap = NULL;
    for (int g = 0; g < sum.gaps.n; g++)
        if (sum.gaps.gaps[g].section == CC_CHECK_TIMING) gap = &sum.gaps.gaps[g];
    CHECKF(t, rc == CC_OK && sum.passed, "test.gpu-here: rc %d, passed %d", rc, sum.passed);
    CHECKF(t,
           gap && gap->kind == CC_GAP_ABSENT &&
               gap->count == CC_TIMING_CASES + CC_TIMING_SEQUENCES &&
               strstr(gap->reason, "built without the GPU timing disturbance"),
           "test.gpu-here: no gpu-timing:absent gap (%s)", gap ? gap->reason : "none");
    CHECK(t, sum.timing_passed == 0 && sum.sections[CC_CHECK_TIMING].run);
    if (gap) printf("test.gpu-here: gpu-timing:absent, %d left out: %s\n", gap->count, gap->reason);
    rc = cc_conformance_run(cpu, &opt, &sum, &err);
    int timing_gaps = 0;
    for (int g = 0; g < sum.gaps.n; g++) timing_gaps += sum.gaps.gaps[g].section == CC_CHECK_TIMING;
    CHECKF(t, rc == CC_OK && sum.passed && timing_gaps == 0 && !sum.sections[CC_CHECK_TIMING].run,
           "a CPU engine: rc %d, passed %d, %d GPU timing gaps, section run %d", rc, sum.passed,
           timing_gaps, sum.sections[CC_CHECK_TIMING].run);
}

static cc_supervisor *supervisor;

/* The description of a table's engine, which the harness takes. */
static const cc_engine *described(const cc_engine *table) {
    const cc_engine *d = cc_supervised(supervisor, table);
    if (!d) {
        fprintf(stderr, "conformance_test: the worker does not know %s\n", table->name);
        exit(1);
    }
    return d;
}

int main(int argc, char **argv) {
    make_engines();
    const cc_engine *tables[32] = {&cc_mutant_control, &narrow_loop, &forgetful_loop, &absent_gpu,
                                   &present_gpu};
    size_t n = 5;
    for (const cc_engine *const *m = cc_mutants_all(); *m && n + 1 < 32; m++) tables[n++] = *m;
    int status;
    if (cc_harness_supervise(argc, argv, tables, &supervisor, &status)) return status;
    checks t = {"conformance_test", 0, 0};
    const cc_engine *control = described(&cc_mutant_control);
    char *captured = malloc(CAPTURE_BYTES);
    if (!captured) {
        fprintf(stderr, "cannot allocate the capture buffer\n");
        return 1;
    }
    char *args[] = {"conformance", "--cases", "120", NULL};
    unsetenv("CELLCHECK_REQUIRE");

    CHECKF(&t, run_captured(captured, control, 3, args) == 0, "control failed:\n%s",
           captured);
    CHECKF(&t,
           strstr(captured, "mutant.control: conformance PASSED") &&
               strstr(captured, "campaign 120 cases"),
           "control summary:\n%s", captured);
    CHECKF(&t,
           strstr(captured,
                  "refused radius 17 (above 16): mutant.control: radius 17 is outside "
                  "1..16"),
           "control refusal lines:\n%s", captured);

    const cc_engine *const *mutants = cc_mutants_all();
    for (size_t i = 0; mutants[i]; i++) {
        CHECKF(&t, run_captured(captured, described(mutants[i]), 3, args) == 1, "%s passed",
               mutants[i]->name);
        CHECKF(&t,
               strstr(captured, "conformance FAILED") &&
                   strstr(captured, "reproduce: conformance --case '"),
               "%s: no failure report", mutants[i]->name);
    }

    CHECKF(&t, run_captured(captured, described(&narrow_loop), 3, args) == 0, "narrow failed:\n%s",
           captured);
    static const char *const probes[] = {
        "refused radius 1 (below 2)", "refused radius 9 (above 8)", "refused shape NN",
        "refused shape NC", "refused shape NH", "refused centre M0",
        "refused W 9 (not a multiple of 8)", "refused H 9 (not a multiple of 4)",
        "refused W 72 (above 64)", "refused H 52 (above 48)",
        "refused S 101..289 (above the count limit 100, radius 8)",
        "refused W 4 (below 2r+1 = 5)", "refused H 16 (below 2r+1 = 17)"};
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++)
        CHECKF(&t, strstr(captured, probes[i]) != NULL, "narrow: no line '%s'", probes[i]);

    /* The engine forgets that W must be a multiple of 8; the contract's create refuses for it. */
    CHECKF(&t, run_captured(captured, described(&forgetful_loop), 3, args) == 0,
           "forgetful failed:\n%s", captured);
    CHECKF(&t, strstr(captured, "refused W 9 (not a multiple of 8): test.forgetful: W 9 is not a multiple of 8"),
           "forgetful:\n%s", captured);

    /* A skip also writes the test's XML where Bazel asks (XML_OUTPUT_FILE), as skipped: here a
     * file of its own, so this test's own result is not taken for a skip. */
    const char *bazel_xml = getenv("XML_OUTPUT_FILE");
    char saved_xml[4096] = "", xml_path[4096];
    if (bazel_xml) snprintf(saved_xml, sizeof saved_xml, "%s", bazel_xml);
    const char *tmpdir = getenv("TEST_TMPDIR");
    snprintf(xml_path, sizeof xml_path, "%s/skipped.xml", tmpdir ? tmpdir : "/tmp");
    remove(xml_path);
    setenv("XML_OUTPUT_FILE", xml_path, 1);
    const cc_engine *gpu = described(&absent_gpu);
    CHECKF(&t, run_captured(captured, gpu, 3, args) == 0, "absent gpu not skipped");
    CHECKF(&t, strcmp(captured, "SKIPPED: test.gpu: no CUDA device (test stand-in)\n") == 0,
           "skip line: '%s'", captured);
    char xml[2048] = "";
    FILE *xml_file = fopen(xml_path, "r");
    if (xml_file) {
        xml[fread(xml, 1, sizeof xml - 1, xml_file)] = '\0';
        fclose(xml_file);
    }
    CHECKF(&t, strstr(xml, "<skipped message=\"test.gpu: no CUDA device (test stand-in)\"/>") != NULL,
           "the skipped test's XML: '%s'", xml);
    setenv("CELLCHECK_REQUIRE", "amx", 1);
    CHECKF(&t, run_captured(captured, gpu, 3, args) == 0,
           "gpu skip must not depend on amx being required");
    setenv("CELLCHECK_REQUIRE", "amx,gpu", 1);
    CHECKF(&t, run_captured(captured, gpu, 3, args) == 1, "required gpu absent but passed");
    CHECKF(&t,
           strcmp(captured,
                  "FAILED: test.gpu: required hardware absent: no CUDA device (test "
                  "stand-in)\n") == 0,
           "required line: '%s'", captured);
    status = -1;
    CHECKF(&t, cc_harness_skip(gpu, &status) == 1 && status == 1, "skip with require");
    unsetenv("CELLCHECK_REQUIRE");
    CHECKF(&t, cc_harness_skip(gpu, &status) == 1 && status == 0, "skip without require");
    CHECKF(&t, cc_harness_skip(control, &status) == 0 && status == 0,
           "available engine");
    if (saved_xml[0]) setenv("XML_OUTPUT_FILE", saved_xml, 1);
    else unsetenv("XML_OUTPUT_FILE");

    timing_gap(&t, described(&present_gpu), control);

    char *bad_flag[] = {"conformance", "--colour", "red", NULL};
    CHECKF(&t, run_captured(captured, control, 3, bad_flag) == 2,
           "unknown flag accepted");
    char *bad_seed[] = {"conformance", "--seed", "xyz", NULL};
    CHECKF(&t, run_captured(captured, control, 3, bad_seed) == 2, "bad seed accepted");
    char *no_value[] = {"conformance", "--cases", NULL};
    CHECKF(&t, run_captured(captured, control, 2, no_value) == 2,
           "missing value accepted");

    free(captured);
    cc_supervisor_close(supervisor);
    return check_summary(&t);
}
