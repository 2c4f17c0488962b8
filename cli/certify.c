/* cellcheck certify: every check for one engine, or for every engine that can run here, then a
 * certificate table printed and written as Markdown and JSON (each file whole or not at all). */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "supervise/supervisor.h"
#include "cli/common.h"
#include "cli/version.h"
#include "engines/cuda/common/gpu.h"
#include "harness/bench.h"
#include "harness/campaign.h"
#include "harness/harness.h"
#include "harness/lightcone.h"
#include "golden/golden.h"
#include "oracle/gridio.h"

#define CERTIFY_DEFAULT_CASES 2000

typedef enum { VERDICT_CERTIFIED, VERDICT_FAILED, VERDICT_NOT_RUN } verdict;

typedef struct engine_row {
    const cc_engine *engine;
    verdict v;
    char reason[640]; /* why it was not run, or what failed */
    cc_conformance_summary conf;
    golden_report golden;
    double seconds;
} engine_row;

static const char *verdict_name(verdict v) {
    return v == VERDICT_CERTIFIED ? "CERTIFIED" : v == VERDICT_FAILED ? "FAILED" : "NOT RUN";
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void certify_engine(engine_row *row, const cc_campaign_options *opt,
                           const golden_catalogue *cat) {
    const cc_engine *e = row->engine;
    cc_error err = {0};
    cc_supervisor_stats before, after;
    cc_supervisor *sv = cc_supervisor_of(e);
    if (sv) cc_supervisor_stats_get(sv, &before);
    if (cc_call_available(e, &err)) {
        row->v = VERDICT_NOT_RUN;
        snprintf(row->reason, sizeof row->reason, "%s", err.msg);
        if (cc_hardware_required(e->hardware)) {
            row->v = VERDICT_FAILED;
            snprintf(row->reason, sizeof row->reason, "required %s absent: %.500s",
                     cc_hardware_name(e->hardware), err.msg);
        }
        return;
    }
    double start = now_s();
    printf("== certifying %s\n", e->name);
    fflush(stdout);
    int rc = cc_conformance_run(e, opt, &row->conf, &err);
    if (rc == CC_OK && row->conf.passed) {
        rc = golden_verify_engine(cat, e, stdout, &row->golden, &err);
        if (rc == CC_ERR_MISMATCH)
            snprintf(row->reason, sizeof row->reason, "%zu golden cases differ", row->golden.failed);
        else if (rc)
            snprintf(row->reason, sizeof row->reason, "golden: %.500s", err.msg);
        else if (row->golden.passed == 0) {
            rc = CC_ERR_MISMATCH;
            snprintf(row->reason, sizeof row->reason, "no golden case fits the engine");
        }
    } else if (rc) {
        snprintf(row->reason, sizeof row->reason, "conformance could not run: %.500s", err.msg);
    } else {
        rc = CC_ERR_MISMATCH;
        if (row->conf.first_kind != CC_FAILURE_NONE)
            snprintf(row->reason, sizeof row->reason, "%s%s: %.560s",
                     cc_failure_kind_name(row->conf.first_kind),
                     row->conf.stopped ? " (its checks stopped there)" : "",
                     row->conf.first_failure);
        else
            snprintf(row->reason, sizeof row->reason, "conformance failed (see the report above)");
    }
    row->v = rc ? VERDICT_FAILED : VERDICT_CERTIFIED;
    row->seconds = now_s() - start;
    if (sv) {
        /* What running it in workers cost: each call is a round trip, each worker a start. */
        cc_supervisor_stats_get(sv, &after);
        printf("== %s: %.1f s, %llu engine calls in %llu worker processes (%llu ended by a "
               "fault)\n",
               e->name, row->seconds, (unsigned long long)(after.calls - before.calls),
               (unsigned long long)(after.workers_started - before.workers_started),
               (unsigned long long)(after.faults - before.faults));
    }
}

static void json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

/* The table: printed, and the body of certificate.md. */
static void write_table(FILE *f, const engine_row *rows, int n) {
    fprintf(f, "| engine | needs | verdict | edge cases | past the tiles | past 2^32 cells | "
               "past 2^16 rows, columns, tiles | seams | step counts (largest) | call sequences | "
               "light-cone cells | round trips | campaign passed / failed | "
               "golden passed / not supported | seconds |\n");
    fprintf(f, "| --- | --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: "
               "| ---: | ---: | ---: |\n");
    for (int i = 0; i < n; i++) {
        const engine_row *r = &rows[i];
        if (r->v == VERDICT_NOT_RUN || (r->v == VERDICT_FAILED && r->seconds == 0)) {
            fprintf(f, "| %s | %s | %s | | | | | | | | | | | | |\n", r->engine->name,
                    cc_hardware_name(r->engine->hardware), verdict_name(r->v));
            continue;
        }
        const cc_campaign_result *c = &r->conf.campaign;
        char tile[48], huge[240], classes[160], verdict[80];
        cc_conformance_geometry(&r->conf, tile, sizeof tile, huge, sizeof huge);
        cc_seam_classes_describe(r->conf.seam_classes, classes, sizeof classes);
        if (r->v == VERDICT_FAILED && r->conf.first_kind != CC_FAILURE_NONE)
            snprintf(verdict, sizeof verdict, "FAILED (%s)", cc_failure_kind_name(r->conf.first_kind));
        else
            snprintf(verdict, sizeof verdict, "%s", verdict_name(r->v));
        fprintf(f,
                "| %s | %s | %s | %d | %d (%s) | %s | %d | %d | %d (%" PRId64 ")%s | %d | %" PRIu64
                " (%s) | %d | %" PRIu64 " / %" PRIu64 " | %zu / %zu | %.1f |\n",
                r->engine->name, cc_hardware_name(r->engine->hardware), verdict,
                r->conf.edge_passed, r->conf.scale_passed, tile, huge, r->conf.shapes_passed,
                r->conf.seams_passed, r->conf.step_counts, r->conf.step_counts_max,
                r->conf.step_counts_blind ? " (some left out)" : "", r->conf.sequences,
                r->conf.lightcone_cells, classes[0] ? classes : "none", r->conf.round_trips,
                c->passed, c->failed, r->golden.passed, r->golden.unsupported, r->seconds);
    }
    for (int i = 0; i < n; i++)
        if (rows[i].reason[0])
            fprintf(f, "\n- %s, %s: %s", rows[i].engine->name, verdict_name(rows[i].v),
                    rows[i].reason);
    fprintf(f, "\n\nSeams: the grid's last tile one cell short, full and one cell long on each "
               "axis (nine alignments of the torus seams against the stated tile), %d grids "
               "each; a one-cell error at a seam whose stale value is right half the time passes "
               "all %d with probability 2^-%d (%.1e).\n",
            CC_SEAM_GRIDS, CC_SEAM_GRIDS, CC_SEAM_GRIDS, 1.0 / (double)(1u << CC_SEAM_GRIDS));
    fprintf(f, "\nWhat each engine was certified for (its caps):\n");
    for (int i = 0; i < n; i++) {
        char caps[512];
        cc_engine_describe_caps(rows[i].engine, caps, sizeof caps);
        fprintf(f, "\n- %s: %s", rows[i].engine->name, caps);
    }
    fprintf(f, "\n");
}

/* Where a certificate came from: cellcheck's commit and version, the date, the command line, the
 * GPU where one ran (the CPU and the seed are written beside). */
typedef struct provenance {
    char date[32];
    char command[1024];
    char gpu[320]; /* "" where no engine ran on a GPU */
} provenance;

static void provenance_init(provenance *p, const engine_row *rows, int n, int argc, char **argv) {
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    strftime(p->date, sizeof p->date, "%Y-%m-%dT%H:%M:%SZ", &utc);
    char plugins[512];
    cc_plugin_args(plugins, sizeof plugins);
    size_t used = (size_t)snprintf(p->command, sizeof p->command, "cellcheck%s", plugins);
    for (int i = 0; i < argc && used < sizeof p->command; i++) {
        char word[1024];
        cc_shell_word(word, sizeof word, argv[i]);
        used += (size_t)snprintf(p->command + used, sizeof p->command - used, " %s", word);
    }
    p->gpu[0] = '\0';
    for (int i = 0; i < n; i++)
        if (rows[i].engine->hardware == CC_HW_GPU && rows[i].seconds > 0) {
            cc_error err;
            if (cc_gpu_describe(p->gpu, sizeof p->gpu, &err))
                snprintf(p->gpu, sizeof p->gpu, "(not described: %.200s)", err.msg);
            break;
        }
}

static int write_certificates(const char *dir, const engine_row *rows, int n,
                              const cc_campaign_options *opt, const char *cpu,
                              const provenance *prov, cc_error *err) {
    char seed[2 * CC_SEED_BYTES + 1];
    case_seed_format_hex(opt->master, seed);
    char *md = NULL, *json = NULL;
    size_t md_len = 0, json_len = 0;
    FILE *f = open_memstream(&md, &md_len);
    if (!f) return cc_fail(err, CC_ERR_NOMEM, "cannot build the certificate in memory");
    fprintf(f, "# cellcheck certificate\n\n- cellcheck %s (commit %s)\n- date: %s\n- command: `%s`\n"
               "- CPU: %s\n- GPU: %s\n- campaign: %" PRIu64 " cases per engine, master seed %s\n\n",
            cli_version, cli_commit, prov->date, prov->command, cpu,
            prov->gpu[0] ? prov->gpu : "none ran", opt->cases, seed);
    write_table(f, rows, n);
    fclose(f);

    f = open_memstream(&json, &json_len);
    if (!f) {
        free(md);
        return cc_fail(err, CC_ERR_NOMEM, "cannot build the certificate in memory");
    }
    fprintf(f, "{\n  \"cellcheck\": {\"version\": ");
    json_string(f, cli_version);
    fprintf(f, ", \"commit\": ");
    json_string(f, cli_commit);
    fprintf(f, "},\n  \"date\": \"%s\",\n  \"command\": ", prov->date);
    json_string(f, prov->command);
    fprintf(f, ",\n  \"gpu\": ");
    json_string(f, prov->gpu);
    fprintf(f, ",\n  \"cpu\": ");
    json_string(f, cpu);
    fprintf(f, ",\n  \"cases\": %" PRIu64 ",\n  \"seed\": \"%s\",\n  \"engines\": [", opt->cases,
            seed);
    for (int i = 0; i < n; i++) {
        const engine_row *r = &rows[i];
        const cc_campaign_result *c = &r->conf.campaign;
        fprintf(f, "%s\n    {\"engine\": ", i ? "," : "");
        json_string(f, r->engine->name);
        fprintf(f, ", \"needs\": \"%s\", \"verdict\": \"%s\", \"failure_class\": ",
                cc_hardware_name(r->engine->hardware), verdict_name(r->v));
        if (r->v == VERDICT_FAILED && r->conf.first_kind != CC_FAILURE_NONE)
            json_string(f, cc_failure_kind_name(r->conf.first_kind));
        else
            fprintf(f, "null");
        fprintf(f, ", \"reason\": ");
        json_string(f, r->reason);
        char caps[512];
        cc_engine_describe_caps(r->engine, caps, sizeof caps);
        fprintf(f, ", \"caps\": ");
        json_string(f, caps);
        char tile[48], huge[240], classes[160];
        cc_conformance_geometry(&r->conf, tile, sizeof tile, huge, sizeof huge);
        cc_seam_classes_describe(r->conf.seam_classes, classes, sizeof classes);
        fprintf(f, ", \"past_the_tiles\": {\"passed\": %d, \"tile_w\": %d, \"tile_h\": %d}, ",
                r->conf.scale_passed, (int)r->conf.tile_w, (int)r->conf.tile_h);
        fprintf(f, "\"past_2_32_cells\": ");
        json_string(f, huge);
        fprintf(f, ", \"light_cones\": {\"cells\": %" PRIu64 ", \"seam_classes\": ",
                r->conf.lightcone_cells);
        json_string(f, classes);
        fprintf(f,
                "}, \"edge_cases\": %d, \"round_trips\": %d, \"shapes\": %d, "
                "\"seams\": {\"passed\": %d, \"grids_per_alignment\": %d}, "
                "\"step_counts\": {\"passed\": %d, \"largest\": %" PRId64
                ", \"left_out\": %d}, \"call_sequences\": %d, "
                "\"campaign\": {\"run\": %" PRIu64 ", \"passed\": %" PRIu64
                ", \"failed\": %" PRIu64 "}, "
                "\"golden\": {\"passed\": %zu, \"failed\": %zu, \"unsupported\": %zu}, "
                "\"seconds\": %.3f}",
                r->conf.edge_passed, r->conf.round_trips, r->conf.shapes_passed,
                r->conf.seams_passed, CC_SEAM_GRIDS, r->conf.step_counts, r->conf.step_counts_max, r->conf.step_counts_blind,
                r->conf.sequences, c->run, c->passed, c->failed, r->golden.passed,
                r->golden.failed, r->golden.unsupported, r->seconds);
    }
    fprintf(f, "\n  ]\n}\n");
    fclose(f);

    /* The Markdown and the JSON as one pair: both new or both old, whenever the run stops. */
    const char *const names[] = {"certificate.md", "certificate.json"};
    const char *const texts[] = {md, json};
    const size_t lens[] = {md_len, json_len};
    int rc = cc_write_files_atomic(dir, "certificate", 2, names, texts, lens, err);
    if (!rc) printf("wrote %s/certificate.md and %s/certificate.json\n", dir, dir);
    free(md);
    free(json);
    return rc;
}

enum { ENGINE, CASES, SEED, OUT_DIR, CATALOGUE, HUGE_GRID, ABSENT_OK, PROGRESS, TIME_LIMIT,
       MEMORY_MARGIN, NOPTIONS };

static const char about[] =
    "Every check for one engine, or for every engine that can run here: the\n"
    "conformance checks, a campaign (2000 cases unless --cases) and the golden\n"
    "catalogue. Prints the certificate and writes certificate.md and\n"
    "certificate.json. An engine named by --engine whose hardware is absent here,\n"
    "or any engine whose hardware CELLCHECK_REQUIRE names (gpu, amx, avx2, avx512,\n"
    "cpu; comma-separated, any case), is refused before any work (exit 1);\n"
    "--absent-ok certifies the first kind as NOT RUN instead. Without --engine,\n"
    "engines that cannot run here and are not required are NOT RUN.";

int cli_cmd_certify(const cc_engine_set *engines, int argc, char **argv) {
    cc_campaign_options opt;
    cli_campaign_options_init(&opt);
    opt.cases = CERTIFY_DEFAULT_CASES;
    opt.huge_grid = CC_HUGE_GRID_AUTO; /* every engine that fits, CPU engines too */
    /* Every case within the caps: a case outside them is refused by the entry point before
     * any engine code runs, so no engine could fail it. */
    opt.invalid_percent = 0;
    const char *engine_name = NULL, *out_dir = NULL, *catalogue = NULL;
    int absent_ok = 0;
    cc_option opts[NOPTIONS] = {
        [ENGINE] = cli_engine_option(&engine_name, 0,
                                     "the engine to certify (default: every engine)"),
        [OUT_DIR] = CC_OPTION_STRING("out-dir", "DIR", &out_dir,
                                     "where certificate.md and .json go (default .)"),
        [CATALOGUE] = CC_OPTION_STRING("catalogue", "FILE", &catalogue,
                                       "the golden catalogue (default golden/catalogue.txt)"),
        [HUGE_GRID] = cc_huge_grid_option(&opt),
        [ABSENT_OK] = CC_OPTION_FLAG("absent-ok", &absent_ok,
                                     "an engine asked for but unable to run here is NOT RUN, "
                                     "exit 0"),
    };
    cc_command cmd = {"cellcheck certify", about, opts, NOPTIONS};
    int status;
    if (cli_parse_campaign(&cmd, &opt, &opts[CASES], &opts[PROGRESS], argc, argv, &status))
        return status;
    cc_error err = {0};

    const cc_engine *const *all = engines->engines;
    int n = 0;
    while (all[n]) n++;
    engine_row *rows = calloc((size_t)n, sizeof *rows);
    if (!rows) {
        cc_fail(&err, CC_ERR_NOMEM, "cannot allocate the certificate");
        return cli_failed(&err);
    }
    int count = 0;
    if (engine_name) {
        const cc_engine *e = cli_find_engine(engines, engine_name, &err);
        if (!e) {
            free(rows);
            return cli_bad_usage(&cmd, &err);
        }
        rows[count++].engine = e;
    } else {
        for (int i = 0; i < n; i++) rows[count++].engine = all[i];
    }

    /* Hardware asked for and absent is refused before any work, not reported as NOT RUN after
     * it: a machine whose GPU is gone must not pass a certify step. */
    for (int i = 0; i < count; i++) {
        const cc_engine *e = rows[i].engine;
        int required = cc_hardware_required(e->hardware);
        if (((engine_name && !absent_ok) || required) && cc_call_available(e, &err)) {
            if (cc_hardware_required(e->hardware))
                cc_prefix(&err, "%s not run here (CELLCHECK_REQUIRE names %s)", e->name,
                          cc_hardware_name(e->hardware));
            else
                cc_prefix(&err,
                          "%s not run here (asked for by --engine, needs %s; --absent-ok "
                          "certifies it as NOT RUN)",
                          e->name, cc_hardware_name(e->hardware));
            free(rows);
            return cli_failed(&err);
        }
    }

    if (!out_dir) out_dir = getenv("BUILD_WORKING_DIRECTORY"); /* bazel run */
    if (!out_dir) out_dir = ".";
    /* Checked before the campaign, not after it. */
    struct stat out_st;
    if (stat(out_dir, &out_st) != 0 || !S_ISDIR(out_st.st_mode) || access(out_dir, W_OK) != 0) {
        free(rows);
        cc_fail(&err, CC_ERR_ARG, "--out-dir %s is not a writable directory", out_dir);
        return cli_bad_usage(&cmd, &err);
    }
    char catalogue_path[4096];
    if (catalogue) {
        snprintf(catalogue_path, sizeof catalogue_path, "%s", catalogue);
    } else if (golden_default_catalogue(".", catalogue_path, sizeof catalogue_path, &err)) {
        free(rows);
        return cli_failed(&err);
    }
    golden_catalogue cat;
    if (golden_open(catalogue_path, &cat, stderr, &err)) {
        free(rows);
        cc_prefix(&err, "the golden catalogue (run from the repository root, or give --catalogue)");
        return cli_failed(&err);
    }

    for (int i = 0; i < count; i++) {
        cc_supervision_apply(rows[i].engine, &opt);
        /* Each engine is certified in a fresh worker: nothing of another engine's is left. */
        cc_supervisor *sv = cc_supervisor_of(rows[i].engine);
        if (sv) cc_supervisor_restart(sv);
        certify_engine(&rows[i], &opt, &cat);
    }
    golden_free(&cat);

    char cpu[256];
    cc_bench_cpu_model(cpu, sizeof cpu);
    printf("\ncellcheck certificate (%s, %" PRIu64 " cases per engine)\n\n", cpu, opt.cases);
    write_table(stdout, rows, count);
    int failed = 0, certified = 0;
    for (int i = 0; i < count; i++) {
        failed += rows[i].v == VERDICT_FAILED;
        certified += rows[i].v == VERDICT_CERTIFIED;
    }
    provenance prov;
    provenance_init(&prov, rows, count, argc, argv);
    int rc = write_certificates(out_dir, rows, count, &opt, cpu, &prov, &err);
    free(rows);
    if (rc) return cli_failed(&err);
    printf("%d certified, %d failed, %d not run here\n", certified, failed,
           count - certified - failed);
    return failed ? 1 : 0;
}
