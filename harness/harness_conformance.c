/* Every engine's conformance test: its options, its main, and the skip of an engine whose
 * hardware is absent. The checks themselves are the sections of conformance_run.c. Sharded
 * through Bazel's protocol. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "harness/harness.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/junit.h"
#include "harness/lightcone.h"
#include "harness/sections/section.h"
#include "harness/step_counts.h"
#include "oracle/gridio.h"
#include "supervise/supervisor.h"


/* Under Bazel, a test skipped for absent hardware says so in its own test.xml (Bazel would
 * record it as run and passed): one test case with <skipped/>. Best effort: without the file
 * Bazel writes its own, and the SKIPPED line still tells. */
static void write_skipped_xml(const char *engine, const char *reason) {
    const char *path = getenv("XML_OUTPUT_FILE");
    if (!path || !path[0]) return;
    const char *target = getenv("TEST_TARGET");
    char *xml = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&xml, &len);
    if (!f) return;
    const char *texts[3] = {target && target[0] ? target : engine, engine, reason};
    char escaped[3][1024];
    for (int i = 0; i < 3; i++) {
        size_t o = 0;
        for (const char *c = texts[i]; *c && o + 7 < sizeof escaped[i]; c++) {
            const char *rep = *c == '&' ? "&amp;" : *c == '<' ? "&lt;" : *c == '>' ? "&gt;"
                            : *c == '"' ? "&quot;" : NULL;
            if (rep) o += (size_t)snprintf(escaped[i] + o, sizeof escaped[i] - o, "%s", rep);
            else escaped[i][o++] = (unsigned char)*c < 0x20 ? '?' : *c;
        }
        escaped[i][o] = '\0';
    }
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
            "  <testsuite name=\"%s\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"1\">\n"
            "    <testcase name=\"%s\" status=\"notrun\">\n"
            "      <skipped message=\"%s: %s\"/>\n    </testcase>\n  </testsuite>\n"
            "</testsuites>\n",
            escaped[0], escaped[0], escaped[1], escaped[2]);
    if (fclose(f) == 0) {
        cc_error err;
        if (cc_write_file_atomic(path, xml, len, &err))
            printf("note: %s: the skipped test's XML was not written: %s\n", engine, err.msg);
    }
    free(xml);
}

int cc_harness_skip(const cc_engine *engine, int *status) {
    cc_error err;
    cc_error_clear(&err);
    if (!cc_supervisor_of(engine)) {
        /* An engine's own table would be refused by every call: never a skip. */
        printf("FAILED: %s: not run by a supervisor (pass the description cc_supervised gives)\n",
               engine->name);
        *status = 1;
        return 1;
    }
    if (cc_call_available(engine, &err) == CC_OK) {
        *status = 0;
        return 0;
    }
    const char *reason = err.msg[0] ? err.msg : cc_code_name(err.code);
    if (cc_hardware_required(engine->hardware)) {
        printf("FAILED: %s: required hardware absent: %s\n", engine->name, reason);
        *status = 1;
    } else {
        write_skipped_xml(engine->name, reason);
        printf("SKIPPED: %s: %s\n", engine->name, reason);
        *status = 0;
    }
    fflush(stdout);
    return 1;
}

/* ---- The harness ------------------------------------------------------------------------ */

static int huge_option(const char *flag, const char *value, void *dest, cc_error *err) {
    int *mode = dest;
    if (strcmp(value, "auto") == 0) *mode = CC_HUGE_GRID_AUTO;
    else if (strcmp(value, "gpu") == 0) *mode = CC_HUGE_GRID_GPU;
    else if (strcmp(value, "on") == 0) *mode = CC_HUGE_GRID_ON;
    else if (strcmp(value, "off") == 0) *mode = CC_HUGE_GRID_OFF;
    else return cc_fail(err, CC_ERR_ARG, "%s: '%s' is not auto, gpu, on or off", flag, value);
    return CC_OK;
}

/* --leave-out's help: its head, then every section's id from the table (sections/list.h). */
#define LEAVE_OUT_HEAD "sections to leave out, each a gap (SECTION:asked):"
static const char leave_out_help[] = LEAVE_OUT_HEAD
#define CC_SECTION_ROW(KEY, file, id, name) " " id
#include "harness/sections/list.h"
#undef CC_SECTION_ROW
    ;
/* The ids alone: "edge-cases seams plane ..." (past the head and its space). */
#define LEAVE_OUT_IDS (leave_out_help + sizeof LEAVE_OUT_HEAD)

/* The CC_SECTION_* bits of a list of section ids. */
static int section_bits(const char *flag, const char *value, uint32_t *out, cc_error *err) {
    uint32_t bits = 0;
    for (const char *p = value;;) {
        size_t len = strcspn(p, ",");
        int s = 0;
        while (s < CC_CHECK_SECTION_COUNT &&
               !(strlen(cc_check_section_id((cc_check_section)s)) == len &&
                 strncmp(p, cc_check_section_id((cc_check_section)s), len) == 0))
            s++;
        if (s == CC_CHECK_SECTION_COUNT)
            return cc_fail(err, CC_ERR_ARG, "%s: '%.*s' is not a section (%s)", flag,
                           len > 64 ? 64 : (int)len, p, LEAVE_OUT_IDS);
        bits |= 1u << s;
        p += len;
        if (!*p) break;
        p++;
    }
    *out = bits;
    return CC_OK;
}

static int leave_out_option(const char *flag, const char *value, void *dest, cc_error *err) {
    uint32_t bits;
    int rc = section_bits(flag, value, &bits, err);
    if (!rc) *(uint32_t *)dest |= bits;
    return rc;
}

/* Every section but those named, each left out a gap; a section run within another (the case
 * past 2^32 cells within past-tiles) keeps that one too. */
static int only_option(const char *flag, const char *value, void *dest, cc_error *err) {
    uint32_t bits;
    int rc = section_bits(flag, value, &bits, err);
    if (rc) return rc;
    for (int s = 0; s < CC_CHECK_SECTION_COUNT; s++)
        if ((bits >> s & 1u) && conformance_sections[s]->part_of >= 0)
            bits |= 1u << conformance_sections[s]->part_of;
    *(uint32_t *)dest |= CC_SECTION_ALL & ~bits;
    return CC_OK;
}

cc_option cc_leave_out_option(cc_campaign_options *opt) {
    const cc_option row = CC_OPTION_CUSTOM(
        "leave-out", "SECTION[,SECTION...]", &opt->sections_off, leave_out_option,
        leave_out_help);
    return row;
}

cc_option cc_skip_option(cc_campaign_options *opt) {
    const cc_option row = CC_OPTION_CUSTOM(
        "skip", "SECTION[,SECTION...]", &opt->sections_off, leave_out_option,
        "the same as --leave-out: sections to leave out, each a gap (SECTION:asked)");
    return row;
}

cc_option cc_only_option(cc_campaign_options *opt) {
    const cc_option row = CC_OPTION_CUSTOM(
        "only", "SECTION[,SECTION...]", &opt->sections_off, only_option,
        "run these sections alone: every other is left out, each a gap (a quick loop: the "
        "certificate is INCOMPLETE)");
    return row;
}

static int seed_option(const char *flag, const char *value, void *dest, cc_error *err) {
    int rc = case_seed_parse_hex(value, dest, err);
    return rc ? cc_prefix(err, "%s", flag) : CC_OK;
}

cc_option cc_progress_option(cc_campaign_options *opt) {
    const cc_option row = CC_OPTION_FLAG(
        "progress", &opt->progress,
        "progress on stderr (cases done, failures, rate, time left) even when it is no terminal");
    return row;
}

cc_option cc_huge_grid_option(cc_campaign_options *opt) {
    const cc_option row = CC_OPTION_CUSTOM(
        "huge-grid", "auto|gpu|on|off", &opt->huge_grid, huge_option,
        "the case past 2^32 cells (98309x43691, light cones): gpu (the conformance tests' "
        "default) for GPU engines, auto (certify's) for every engine that fits in memory");
    return row;
}

void cc_campaign_option_rows(cc_campaign_options *opt, cc_option rows[CC_CAMPAIGN_OPTION_COUNT]) {
    const cc_option table[CC_CAMPAIGN_OPTION_COUNT] = {
        CC_OPTION_UINT64("cases", "N", &opt->cases, 1, CC_CAMPAIGN_CASES_MAX,
                         "how many seeded cases to run"),
        CC_OPTION_CUSTOM("seed", "HEX", opt->master, seed_option,
                         "the master seed, 64 hex digits"),
    };
    memcpy(rows, table, sizeof table);
}

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* What a reproducer runs: this test binary, which knows its engine wherever it was built (a port's
 * own workspace too). Run by `bazel test` as the test itself, its target with `bazel run`;
 * elsewhere (another test's script, a bundle) the binary's own path. "" for an engine from a
 * plugin, which cellcheck loads as the plugin's users do. */
static void reproducer_command(const char *argv0, char *out, size_t size) {
    char plugins[16];
    cc_plugin_args(plugins, sizeof plugins);
    const char *target = getenv("TEST_TARGET"), *binary = getenv("TEST_BINARY");
    if (plugins[0])
        out[0] = '\0';
    else if (target && target[0] && binary && !strcmp(base_name(binary), base_name(argv0)))
        /* bazel run takes a sharded test only with sharding off. */
        snprintf(out, size, "bazel run --test_sharding_strategy=disabled %s --", target);
    else
        snprintf(out, size, "%s", argv0);
}

/* The conformance driver's option table, writing into opt. */
typedef struct conformance_table {
    cc_option rows[CC_CAMPAIGN_OPTION_COUNT + 8 + CC_SUPERVISION_OPTION_COUNT];
    cc_command cmd;
    const char *case_line, *calls; /* --case and --calls */
    const char *junit;             /* --junit FILE */
} conformance_table;

static void conformance_table_init(conformance_table *t, cc_campaign_options *opt,
                                   const char *program) {
    memset(t, 0, sizeof *t);
    const cc_option rows[CC_CAMPAIGN_OPTION_COUNT + 8] = {
        [CC_CAMPAIGN_OPTION_COUNT] = CC_OPTION_STRING("report-dir", "DIR", &opt->report_dir,
                                                      "where failure reports are written"),
        [CC_CAMPAIGN_OPTION_COUNT + 1] = CC_OPTION_FLAG("verbose", &opt->verbose,
                                                        "print every case as it runs"),
        [CC_CAMPAIGN_OPTION_COUNT + 2] = CC_OPTION_FLAG(
            "replay-alone", &opt->replay_alone,
            "replay a failing case alone in a fresh worker process"),
        [CC_CAMPAIGN_OPTION_COUNT + 3] = cc_huge_grid_option(opt),
        [CC_CAMPAIGN_OPTION_COUNT + 4] = cc_progress_option(opt),
        [CC_CAMPAIGN_OPTION_COUNT + 5] = CC_OPTION_STRING(
            "case", "LINE", &t->case_line, "replay one case: the line a failure prints"),
        [CC_CAMPAIGN_OPTION_COUNT + 6] = CC_OPTION_STRING(
            "calls", "SEQUENCE", &t->calls, "with --case, run that call sequence on it"),
        [CC_CAMPAIGN_OPTION_COUNT + 7] = CC_OPTION_STRING(
            "junit", "FILE", &t->junit,
            "also a JUnit XML report: a test case per section, its failure with the case and "
            "reproducer"),
    };
    memcpy(t->rows, rows, sizeof rows);
    cc_campaign_option_rows(opt, t->rows);
    cc_supervision_option_rows(opt, t->rows + CC_CAMPAIGN_OPTION_COUNT + 8);
    t->cmd = (cc_command){program,
                          "The engine's conformance test: edge cases, seams, shapes, zero-step\n"
                          "round trips, step counts, call sequences, then a seeded campaign\n"
                          "against the oracle. With --case, replays the one case a failure\n"
                          "printed.",
                          t->rows, sizeof t->rows / sizeof t->rows[0]};
}

void cc_harness_conformance_help(const char *program, FILE *out) {
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    conformance_table t;
    conformance_table_init(&t, &opt, program);
    cc_options_help(&t.cmd, out);
}

/* A test case per section: failed where its checks failed (the first failure's words, case and
 * reproducer on the section it was met in), skipped where it did not run (left out, or not
 * reached after a fault stopped the checks). */
static int write_junit(const cc_engine *engine, const cc_conformance_summary *sum,
                       const char *master, const char *path, cc_error *err) {
    cc_junit j;
    cc_junit_init(&j, engine->name);
    for (int s = 0; s < CC_CHECK_SECTION_COUNT; s++) {
        const cc_section_tally *tally = &sum->sections[s];
        const char *name = cc_check_section_name((cc_check_section)s);
        const int first = !sum->passed && sum->first_section == (cc_check_section)s &&
                          sum->first_kind != CC_FAILURE_NONE;
        if (tally->failed > 0 || first) {
            char text[CC_CASE_TEXT_MAX + CC_REPRODUCER_TEXT_MAX + 160];
            snprintf(text, sizeof text, "case: %s\nmaster seed: %s\nreproduce: %s",
                     first && sum->first_case[0] ? sum->first_case : "(none)", master,
                     first && sum->first_reproducer[0] ? sum->first_reproducer : "(none)");
            char message[700];
            snprintf(message, sizeof message, "%d failed%s%s", tally->failed,
                     first ? ": " : "", first ? sum->first_failure : "");
            cc_junit_add(&j, name, tally->seconds, CC_JUNIT_FAILED, message, text);
        } else if (!tally->run) {
            cc_junit_add(&j, name, 0.0, CC_JUNIT_SKIPPED,
                         "not run: left out, not a dimension of this engine, or not reached "
                         "after a fault",
                         NULL);
        } else {
            cc_junit_add(&j, name, tally->seconds, CC_JUNIT_PASSED, NULL, NULL);
        }
    }
    int rc = cc_junit_write(&j, path, err);
    cc_junit_free(&j);
    return rc;
}

static int conformance_main(const cc_engine *engine, const cc_engine *reference, int argc,
                           char **argv) {
    (void)reference;
    int status = 0;
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    cc_error err;
    if (cc_campaign_options_from_env(&opt, &err)) {
        fprintf(stderr, "%s conformance: %s\n", engine->name, err.msg);
        return 2;
    }
    conformance_table t;
    conformance_table_init(&t, &opt, cc_options_program(argc, argv, "conformance"));
    cc_command cmd = t.cmd;
    if (cc_options_parse_or_usage(&cmd, argc, argv, stdout, stderr, &status)) return status;
    const char *case_line = t.case_line, *calls = t.calls;
    cc_supervision_apply(engine, &opt);
    if (calls && !case_line) {
        fprintf(stderr, "%s conformance: --calls needs --case\n", engine->name);
        return 2;
    }
    if (opt.report_dir && cc_make_directories(opt.report_dir, &err)) {
        fprintf(stderr, "%s conformance: --report-dir %s\n", engine->name, err.msg);
        return 2;
    }
    if (t.junit && (case_line || cc_junit_path_check("--junit", t.junit, &err))) {
        fprintf(stderr, "%s conformance: %s\n", engine->name,
                case_line ? "--junit reports the sections: --case replays one case" : err.msg);
        return 2;
    }
    if (cc_harness_skip(engine, &status)) return status;
    char command[512];
    reproducer_command(argv[0], command, sizeof command);
    if (command[0]) opt.reproduce = command;
    if (case_line) {
        /* An engine over several devices: a replayed case's reproducer names the count, as the
         * conformance run's own do (cc_conformance_run). */
        char with_devices[CC_REPRODUCER_TEXT_MAX];
        int32_t devices;
        if (cc_reproduce_command(engine, opt.reproduce, with_devices, sizeof with_devices,
                                 &devices, &err)) {
            fprintf(stderr, "%s conformance: %s\n", engine->name, err.msg);
            return 2;
        }
        if (with_devices[0]) opt.reproduce = with_devices;
        int rc = calls ? cc_sequence_check_line(engine, case_line, calls, opt.reproduce, stdout, &err)
                       : cc_campaign_check_line(engine, case_line, &opt, NULL, &err);
        if (rc == CC_OK) return 0;
        if (rc != CC_ERR_MISMATCH) {
            fprintf(stderr, "%s conformance: %s\n", engine->name, err.msg);
            return 2;
        }
        return 1;
    }
    char master[2 * CC_SEED_BYTES + 1], caps[256];
    case_seed_format_hex(opt.master, master);
    cc_engine_describe_caps(engine, caps, sizeof caps);
    printf("%s: %s\n  caps: %s\n  master seed %s, shard %u of %u\n", engine->name,
           engine->summary ? engine->summary : "", caps, master, opt.shard_index + 1,
           opt.shard_count);
    fflush(stdout);

    /* The oracle's results reused across this machine's runs (harness/oracle_cache.h). */
    cc_oracle_cache oracle_cache;
    if (cc_oracle_cache_open_env(&oracle_cache, &err)) {
        fprintf(stderr, "%s conformance: %s\n", engine->name, err.msg);
        return 2;
    }
    opt.oracle_cache = &oracle_cache;
    cc_conformance_summary sum;
    int rc = cc_conformance_run(engine, &opt, &sum, &err);
    char cache_line[1600];
    cc_oracle_cache_describe(&oracle_cache, cache_line, sizeof cache_line);
    printf("%s: %s\n", engine->name, cache_line);
    if (rc) printf("ERROR: %s: %s\n", engine->name, err.msg);
    char classes[160];
    cc_seam_classes_describe(sum.seam_classes, classes, sizeof classes);
    char tile[48], huge[240];
    cc_conformance_geometry(&sum, tile, sizeof tile, huge, sizeof huge);
    printf("%s: past the tiles (%s): %d cases passed; past 2^32 cells: %s; light cones verified "
           "%" PRIu64 " cells (%s)\n",
           engine->name, tile, sum.scale_passed, huge, sum.lightcone_cells,
           classes[0] ? classes : "none");
    if (sum.devices)
        printf("%s: over %d devices (CELLCHECK_DEVICES=%d)%s: device seams in the edge cases, past "
               "the tiles and in the light cones\n",
               engine->name, (int)sum.devices, (int)sum.devices,
               sum.ranks > 1 ? ", one worker process (rank) a device" : "");
    if (sum.plane_passed)
        printf("%s: the bounded plane: %d cases passed\n", engine->name, sum.plane_passed);
    printf("%s: seams: %d grids passed (the last tile short, full and long, %d grids each: a "
           "one-cell error right half the time passes them with probability 2^-%d)\n",
           engine->name, sum.seams_passed, CC_SEAM_GRIDS, CC_SEAM_GRIDS);
    printf("%s: thin and tall grids: %d passed; step counts: %d passed (largest %" PRId64
           ", %d left out; past 2^31: %d answered, %d still running at %.1f s); call sequences: "
           "%d passed\n",
           engine->name, sum.shapes_passed, sum.step_counts, sum.step_counts_max,
           sum.step_counts_blind, sum.step_counts_long - sum.step_counts_running,
           sum.step_counts_running, CC_LONG_COUNT_WAIT_S, sum.sequences);
    printf("%s: %s: %d edge cases passed, %d zero-step round trips passed, %d refusals checked, "
           "campaign %" PRIu64 " cases (%" PRIu64 " passed, %" PRIu64
           " refused as required, %" PRIu64 " failed), master seed %s, shard %u of %u\n",
           engine->name, sum.passed ? "conformance PASSED" : "conformance FAILED",
           sum.edge_passed, sum.round_trips, sum.refusals, sum.campaign.run, sum.campaign.passed,
           sum.campaign.refused, sum.campaign.failed, master, opt.shard_index + 1,
           opt.shard_count);
    /* A test's own options leave checks out on purpose; certify makes such a run INCOMPLETE. */
    if (sum.gaps.n || sum.gaps.dropped) {
        printf("%s: %d gaps (checks left out):\n", engine->name, sum.gaps.n);
        cc_gap_list_print(stdout, engine->name, &sum.gaps);
    }
    fflush(stdout);
    if (t.junit && (rc = write_junit(engine, &sum, master, t.junit, &err))) {
        fprintf(stderr, "%s conformance: %s\n", engine->name, err.msg);
        return 2;
    }
    return sum.passed ? 0 : 1;
}

int cc_harness_conformance(const cc_engine *engine, const cc_engine *reference, int argc, char **argv) {
    return cc_harness_drive(conformance_main, engine, reference, argc, argv);
}
