/* cellcheck certify: every check for one engine, or for every engine that can run here, into
 * one certificate record (cli/certificate/record.h), then printed and written as Markdown and
 * JSON (each file whole or not at all), and as a JUnit report or a shard file where asked. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "cli/certificate/render.h"
#include "cli/certify.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/provenance.h"
#include "golden/golden.h"
#include "harness/campaign.h"
#include "harness/harness.h"
#include "harness/junit.h"
#include "harness/oracle_cache.h"
#include "harness/progress.h"
#include "oracle/case.h"
#include "oracle/gridio.h"
#include "supervise/supervisor.h"

#define CERTIFY_DEFAULT_CASES 2000
/* certify --quick: a daily loop of a few minutes on two cores, never a certificate's worth. */
#define CERTIFY_QUICK_CASES 300

/* A --source-* value: printable, within its field of the certificate. */
static int source_check(const char *flag, const char *value, size_t room, cc_error *err) {
    if (strlen(value) >= room)
        return cc_fail(err, CC_ERR_ARG, "%s: %zu characters, more than the %zu it may have", flag,
                       strlen(value), room - 1);
    for (const char *p = value; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return cc_fail(err, CC_ERR_ARG, "%s: a control character (byte 0x%02x)", flag,
                           (unsigned)(unsigned char)*p);
    return CC_OK;
}

static void certify_engine(const cc_engine *e, cc_certificate_engine *row,
                           const cc_campaign_options *opt, const golden_catalogue *cat) {
    cc_error err = {0};
    cc_supervisor_stats before, after;
    cc_supervisor *sv = cc_supervisor_of(e);
    if (sv) {
        cc_supervisor_kept_reset(sv);
        cc_supervisor_stats_get(sv, &before);
    }
    if (cc_call_available(e, &err)) {
        row->verdict = CC_VERDICT_NOT_RUN;
        snprintf(row->reason, sizeof row->reason, "%s", err.msg);
        if (cc_hardware_required(e->hardware)) {
            row->verdict = CC_VERDICT_FAILED;
            snprintf(row->reason, sizeof row->reason, "required %s absent: %.500s",
                     cc_hardware_name(e->hardware), err.msg);
        }
        return;
    }
    const cc_oracle_cache *cache = opt->oracle_cache;
    const uint64_t reused = cache ? cache->hits : 0, computed = cache ? cache->misses : 0;
    double start = cc_now_seconds();
    printf("== certifying %s\n", e->name);
    fflush(stdout);
    int rc = cc_conformance_run(e, opt, &row->conf, &err);
    if (rc == CC_OK && row->conf.passed) {
        double golden_start = cc_now_seconds();
        rc = golden_verify_engine_shard(cat, e, stdout, opt->shard_index, opt->shard_count,
                                        &row->golden, &err);
        row->golden_seconds = cc_now_seconds() - golden_start;
        if (rc == CC_ERR_MISMATCH)
            snprintf(row->reason, sizeof row->reason, "%zu golden cases differ", row->golden.failed);
        else if (rc)
            snprintf(row->reason, sizeof row->reason, "golden: %.500s", err.msg);
        else if (row->golden.passed == 0 && opt->shard_count <= 1) {
            /* A shard's share may hold none; the merge asks it of the whole. */
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
    row->verdict = rc ? CC_VERDICT_FAILED : CC_VERDICT_CERTIFIED;
    row->seconds = cc_now_seconds() - start;
    if (sv) {
        /* What running it in workers cost: each call is a round trip, each worker a start. */
        cc_supervisor_stats_get(sv, &after);
        row->kept_bytes = after.kept_bytes_max;
        printf("== %s: %.1f s, %llu engine calls in %llu worker processes (%llu ended by a "
               "fault)\n",
               e->name, row->seconds, (unsigned long long)(after.calls - before.calls),
               (unsigned long long)(after.workers_started - before.workers_started),
               (unsigned long long)(after.faults - before.faults));
    }
    /* Where the time went, so a slow certify can be traced to its section and to its part:
     * the oracle, the engine in its worker, the exchange between them, drawing, shrinking (its
     * calls are in engine and exchange too), and the rest of the harness (comparisons, the
     * oracle of call sequences and step counts). */
    printf("== %s: seconds by section:", e->name);
    for (int s = 0; s < CC_CHECK_SECTION_COUNT; s++)
        if (row->conf.sections[s].run)
            printf(" %s %.1f,", cc_check_section_name((cc_check_section)s),
                   row->conf.sections[s].seconds);
    printf(" goldens %.1f\n", row->golden_seconds);
    printf("== %s: %-20s %8s %8s %8s %8s %8s %8s %8s\n", e->name, "section", "total", "oracle",
           "engine", "exchange", "drawing", "shrink", "rest");
    for (int s = 0; s < CC_CHECK_SECTION_COUNT; s++) {
        const cc_section_tally *t = &row->conf.sections[s];
        if (!t->run) continue;
        const double rest = t->seconds - t->oracle_seconds - t->engine_seconds -
                            t->exchange_seconds - t->draw_seconds;
        printf("== %s: %-20s %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f\n", e->name,
               cc_check_section_name((cc_check_section)s), t->seconds, t->oracle_seconds,
               t->engine_seconds, t->exchange_seconds, t->draw_seconds, t->shrink_seconds, rest);
    }
    if (cache && cache->enabled)
        printf("== %s: the oracle's results: %llu reused from its cache, %llu computed\n", e->name,
               (unsigned long long)(cache->hits - reused),
               (unsigned long long)(cache->misses - computed));
}

/* The SHA-256 of the file at path as 64 hex digits. */
static int file_sha256(const char *path, char hex[65], cc_error *err) {
    if (sodium_init() < 0) return cc_fail(err, CC_ERR_IO, "libsodium cannot start");
    FILE *f = fopen(path, "rb");
    if (!f) return cc_fail(err, CC_ERR_IO, "cannot read %s to hash it", path);
    crypto_hash_sha256_state state;
    crypto_hash_sha256_init(&state);
    unsigned char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) crypto_hash_sha256_update(&state, buf, got);
    int failed = ferror(f);
    fclose(f);
    if (failed) return cc_fail(err, CC_ERR_IO, "reading %s to hash it failed", path);
    unsigned char digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256_final(&state, digest);
    sodium_bin2hex(hex, 65, digest, sizeof digest);
    return CC_OK;
}

/* "I/N" with 0 <= I < N. */
static int shard_option(const char *flag, const char *value, void *dest, cc_error *err) {
    cc_campaign_options *opt = dest;
    unsigned index, count;
    char extra;
    if (sscanf(value, "%u/%u%c", &index, &count, &extra) != 2 || count < 1 || index >= count ||
        count > 100000)
        return cc_fail(err, CC_ERR_ARG,
                       "%s %s: I/N, shard I (0-based, as a Slurm array's task id) of N", flag,
                       value);
    opt->shard_index = index;
    opt->shard_count = count;
    return CC_OK;
}

enum { ENGINE, CASES, SEED, OUT_DIR, REPORT_DIR, CATALOGUE, HUGE_GRID, ABSENT_OK, PROGRESS,
       TIME_LIMIT, MEMORY_MARGIN, SANDBOX, JUNIT, SHARD, MERGE, ACCEPT_GAP, LEAVE_OUT, ONLY,
       SKIP, QUICK, SOURCE_NAME, SOURCE_VERSION, SOURCE_COMMIT, SOURCE_FLAGS, NOPTIONS };
/* cli_parse_campaign puts the supervision rows right after --progress. */
_Static_assert(SANDBOX == PROGRESS + CC_SUPERVISION_OPTION_COUNT,
               "a row for each supervision option");

static const char about[] =
    "Every check for one engine, or for every engine that can run here: the\n"
    "conformance checks, a campaign (2000 cases unless --cases) and the golden\n"
    "catalogue. Prints the certificate and writes certificate.md and\n"
    "certificate.json. An engine named by --engine whose hardware is absent here,\n"
    "or any engine whose hardware CELLCHECK_REQUIRE names (gpu, amx, avx2, avx512,\n"
    "cpu; comma-separated, any case), is refused before any work (exit 1);\n"
    "--absent-ok certifies the first kind as NOT RUN instead. Without --engine,\n"
    "engines that cannot run here and are not required are NOT RUN.\n"
    "An engine whose every check passed but some were left out (a gap: the case\n"
    "past 2^32 cells past this machine's memory, a step count past its time\n"
    "bound, a section left out by --leave-out, the GPU timing disturbance where\n"
    "a worker cannot run it) is INCOMPLETE, exit 4, with each gap named\n"
    "at the end; --accept-gap ID[,ID...] accepts named gaps knowingly (a\n"
    "section, huge-grid, or SECTION:KIND, step-counts:time), and the certificate\n"
    "says so. Exit: 0 every engine CERTIFIED (or NOT RUN), 1 one FAILED,\n"
    "4 one INCOMPLETE and none FAILED.\n"
    "--quick is the daily loop: 300 campaign cases, every section at its smallest;\n"
    "its certificate says so and is never CERTIFIED (INCOMPLETE, its gaps named).\n"
    "--source-name, --source-version, --source-commit and --source-flags record\n"
    "the engine's source beside its plugin's SHA-256, with the build string the\n"
    "plugin exports (CC_PLUGIN_BUILD), where it does.";

int cli_cmd_certify(const cc_engine_set *engines, int argc, char **argv) {
    cc_campaign_options opt;
    cli_campaign_options_init(&opt);
    opt.cases = CERTIFY_DEFAULT_CASES;
    opt.huge_grid = CC_HUGE_GRID_AUTO; /* every engine that fits, CPU engines too */
    /* Every case within the caps: a case outside them is refused by the entry point before
     * any engine code runs, so no engine could fail it. */
    opt.invalid_percent = 0;
    const char *engine_name = NULL, *out_dir = NULL, *catalogue = NULL, *junit = NULL,
               *merge_dir = NULL, *accept = NULL;
    int absent_ok = 0, quick = 0;
    cc_engine_source source;
    memset(&source, 0, sizeof source);
    const char *src[4] = {NULL, NULL, NULL, NULL};
    cc_option opts[NOPTIONS] = {
        [ENGINE] = cli_engine_option(&engine_name, 0,
                                     "the engine to certify, or several as A,B (default: every "
                                     "engine)"),
        [OUT_DIR] = CC_OPTION_STRING("out-dir", "DIR", &out_dir,
                                     "where certificate.md and .json go (default .)"),
        [REPORT_DIR] = CC_OPTION_STRING("report-dir", "DIR", &opt.report_dir,
                                        "where each failure's difference pictures go, with "
                                        "their legends (default: none written)"),
        [CATALOGUE] = CC_OPTION_STRING("catalogue", "FILE", &catalogue,
                                       "the golden catalogue (default golden/catalogue.txt)"),
        [HUGE_GRID] = cc_huge_grid_option(&opt),
        [ABSENT_OK] = CC_OPTION_FLAG("absent-ok", &absent_ok,
                                     "an engine asked for but unable to run here is NOT RUN, "
                                     "exit 0"),
        [JUNIT] = CC_OPTION_STRING("junit", "FILE",
                                   &junit, "also a JUnit XML report: a suite per engine, a case "
                                           "per section"),
        [SHARD] = CC_OPTION_CUSTOM("shard", "I/N", &opt, shard_option,
                                   "run shard I (0-based) of N: every Nth check and case and "
                                   "golden; writes a partial certificate and shard.txt"),
        [MERGE] = CC_OPTION_STRING("merge", "DIR",
                                   &merge_dir, "merge the shards in DIR's subdirectories (each "
                                               "with the shard.txt of a --shard run) into one "
                                               "certificate, checking they belong together"),
        [ACCEPT_GAP] = CC_OPTION_STRING("accept-gap", "ID[,ID...]", &accept,
                                        "gaps to accept knowingly: a section (huge-grid) or "
                                        "SECTION:KIND (step-counts:time); the certificate says "
                                        "which"),
        [LEAVE_OUT] = cc_leave_out_option(&opt),
        [ONLY] = cc_only_option(&opt),
        [SKIP] = cc_skip_option(&opt),
        [QUICK] = CC_OPTION_FLAG("quick", &quick,
                                 "the daily loop: 300 cases, every section at its smallest; "
                                 "never CERTIFIED"),
        [SOURCE_NAME] = CC_OPTION_STRING("source-name", "NAME", &src[0],
                                         "the port's name, recorded with the engine"),
        [SOURCE_VERSION] = CC_OPTION_STRING("source-version", "VERSION", &src[1],
                                            "the port's version"),
        [SOURCE_COMMIT] = CC_OPTION_STRING("source-commit", "COMMIT", &src[2],
                                           "the port's commit"),
        [SOURCE_FLAGS] = CC_OPTION_STRING("source-flags", "FLAGS", &src[3],
                                          "the flags the port was built with"),
    };
    cc_command cmd = {"cellcheck certify", about, opts, NOPTIONS};
    int status;
    if (cli_parse_campaign(&cmd, &opt, &opts[CASES], &opts[PROGRESS], argc, argv, &status))
        return status;
    cc_error err = {0};
    if (accept && cc_gap_accept_check(accept, &err)) return cli_bad_usage(&cmd, &err);
    char *const fields[4] = {source.name, source.version, source.commit, source.flags};
    const size_t rooms[4] = {sizeof source.name, sizeof source.version, sizeof source.commit,
                             sizeof source.flags};
    for (int i = 0; i < 4; i++) {
        if (!src[i]) continue;
        char flag[32];
        snprintf(flag, sizeof flag, "--%s", opts[SOURCE_NAME + i].name);
        if (source_check(flag, src[i], rooms[i], &err)) return cli_bad_usage(&cmd, &err);
        snprintf(fields[i], rooms[i], "%s", src[i]);
    }
    if (quick && (merge_dir || opt.shard_count > 1)) {
        cc_fail(&err, CC_ERR_ARG, "--quick is a whole run of its own: not with --shard or --merge");
        return cli_bad_usage(&cmd, &err);
    }
    if (merge_dir && (src[0] || src[1] || src[2] || src[3])) {
        cc_fail(&err, CC_ERR_ARG, "--merge takes the engine's source from the shards: give "
                                  "--source-* to each --shard run");
        return cli_bad_usage(&cmd, &err);
    }
    if (quick) {
        /* Each reduction is a gap the certificate names (campaign, huge-grid, shapes, ...). */
        if (!opts[CASES].given) opt.cases = CERTIFY_QUICK_CASES;
        if (!opts[HUGE_GRID].given) opt.huge_grid = CC_HUGE_GRID_OFF;
        opt.one_shape = 1;
        opt.quick = 1;
    }
    if (merge_dir) {
        if (engine_name || opt.shard_count > 1) {
            cc_fail(&err, CC_ERR_ARG, "--merge takes the shards as they are: no --engine or --shard");
            return cli_bad_usage(&cmd, &err);
        }
        if (!out_dir) out_dir = getenv("BUILD_WORKING_DIRECTORY");
        if (!out_dir) out_dir = ".";
        if (cc_make_directories(out_dir, &err)) {
            cc_prefix(&err, "--out-dir");
            return cli_bad_usage(&cmd, &err);
        }
        if (junit && cc_junit_path_check("--junit", junit, &err))
            return cli_bad_usage(&cmd, &err);
        return cli_certify_merge(engines, merge_dir, out_dir, junit, accept, argc, argv);
    }

    const cc_engine *const *all = engines->engines;
    int n = 0;
    while (all[n]) n++;
    /* The engines to certify, in order; the record's rows are theirs. */
    const cc_engine **chosen = calloc((size_t)(n ? n : 1), sizeof *chosen);
    if (!chosen) {
        cc_fail(&err, CC_ERR_NOMEM, "cannot allocate the certificate");
        return cli_failed(&err);
    }
    int count = 0;
    if (engine_name) {
        /* One engine, or several separated by commas, each once. */
        char names[1024];
        snprintf(names, sizeof names, "%s", engine_name);
        char *save = NULL;
        for (char *name = strtok_r(names, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
            const cc_engine *e = cli_find_engine(engines, name, &err);
            for (int i = 0; e && i < count; i++)
                if (chosen[i] == e) {
                    cc_fail(&err, CC_ERR_ARG, "--engine names %s twice", name);
                    e = NULL;
                }
            if (!e || count == n) {
                if (e) cc_fail(&err, CC_ERR_ARG, "--engine names more engines than there are");
                free(chosen);
                return cli_bad_usage(&cmd, &err);
            }
            chosen[count++] = e;
        }
    } else {
        for (int i = 0; i < n; i++) chosen[count++] = all[i];
    }

    /* Hardware asked for and absent is refused before any work, not reported as NOT RUN after
     * it: a machine whose GPU is gone must not pass a certify step. */
    for (int i = 0; i < count; i++) {
        const cc_engine *e = chosen[i];
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
            free(chosen);
            return cli_failed(&err);
        }
    }

    if (!out_dir) out_dir = getenv("BUILD_WORKING_DIRECTORY"); /* bazel run */
    if (!out_dir) out_dir = ".";
    /* Checked before the campaign, not after it. */
    if (cc_make_directories(out_dir, &err)) {
        free(chosen);
        cc_prefix(&err, "--out-dir");
        return cli_bad_usage(&cmd, &err);
    }
    /* The certificate pair and a shard's record: nothing in the way of their names either. */
    static const char *const pair[] = {"certificate.md", "certificate.json"};
    static const char *const shard_names[] = {"shard.txt"};
    if (cc_write_files_check(out_dir, "certificate", 2, pair, &err) ||
        (opt.shard_count > 1 && cc_write_files_check(out_dir, "shard", 1, shard_names, &err))) {
        free(chosen);
        cc_prefix(&err, "--out-dir");
        return cli_bad_usage(&cmd, &err);
    }
    if (opt.report_dir && cc_make_directories(opt.report_dir, &err)) {
        free(chosen);
        cc_prefix(&err, "--report-dir");
        return cli_bad_usage(&cmd, &err);
    }
    if (junit && cc_junit_path_check("--junit", junit, &err)) {
        free(chosen);
        return cli_bad_usage(&cmd, &err);
    }
    char catalogue_path[4096];
    if (catalogue) {
        snprintf(catalogue_path, sizeof catalogue_path, "%s", catalogue);
    } else if (golden_default_catalogue(".", catalogue_path, sizeof catalogue_path, &err)) {
        free(chosen);
        return cli_failed(&err);
    }
    golden_catalogue cat;
    if (golden_open(catalogue_path, &cat, stderr, &err)) {
        free(chosen);
        cc_prefix(&err, "the golden catalogue (run from the repository root, or give --catalogue)");
        return cli_failed(&err);
    }

    cc_certificate cert;
    if (cc_certificate_alloc(&cert, count, &err)) {
        free(chosen);
        golden_free(&cat);
        return cli_failed(&err);
    }
    /* Each plugin's hash, before its engines run: the file certified is the file hashed. */
    for (int i = 0; i < count; i++) {
        cc_certificate_engine *row = &cert.engine[i];
        snprintf(row->name, sizeof row->name, "%s", chosen[i]->name);
        row->hardware = chosen[i]->hardware;
        cc_engine_describe_caps(chosen[i], row->caps, sizeof row->caps);
        const char *plugin = cc_engine_set_origin(engines, chosen[i]);
        snprintf(row->plugin, sizeof row->plugin, "%s", plugin ? plugin : "");
        row->source = source;
        snprintf(row->source.build, sizeof row->source.build, "%s", cc_supervised_build(chosen[i]));
        if (plugin && file_sha256(plugin, row->plugin_sha256, &err)) {
            cc_certificate_free(&cert);
            free(chosen);
            golden_free(&cat);
            return cli_failed(&err);
        }
    }
    /* The oracle's results reused across engines, shards and runs on this machine. */
    cc_oracle_cache oracle_cache;
    if (cc_oracle_cache_open_env(&oracle_cache, &err)) {
        cc_certificate_free(&cert);
        free(chosen);
        golden_free(&cat);
        return cli_failed(&err);
    }
    opt.oracle_cache = &oracle_cache;
    for (int i = 0; i < count; i++) {
        cc_supervision_apply(chosen[i], &opt);
        /* Each engine is certified in a fresh worker: nothing of another engine's is left. */
        cc_supervisor *sv = cc_supervisor_of(chosen[i]);
        if (sv) cc_supervisor_restart(sv);
        certify_engine(chosen[i], &cert.engine[i], &opt, &cat);
        /* Fewer campaign cases than certify's own is a check left out, as a section is. */
        if (opt.cases < CERTIFY_DEFAULT_CASES && cert.engine[i].verdict == CC_VERDICT_CERTIFIED)
            cc_gap_note(&cert.engine[i].conf.gaps, CC_CHECK_CAMPAIGN, CC_GAP_ASKED, 1,
                        "%llu campaign cases, fewer than certify's %d (--cases)",
                        (unsigned long long)opt.cases, CERTIFY_DEFAULT_CASES);
        cc_certificate_settle_gaps(&cert.engine[i], accept);
        if (quick && cert.engine[i].verdict == CC_VERDICT_CERTIFIED) {
            /* Its gaps were accepted, but a quick run is not a certificate's worth of checks. */
            cert.engine[i].verdict = CC_VERDICT_INCOMPLETE;
            snprintf(cert.engine[i].reason, sizeof cert.engine[i].reason,
                     "a quick certificate (--quick): never CERTIFIED, whatever gaps are accepted");
        }
        if (sv) cli_sandbox_describe(sv, cert.prov.sandbox, sizeof cert.prov.sandbox);
    }
    free(chosen);
    char cache_line[1600];
    cc_oracle_cache_describe(&oracle_cache, cache_line, sizeof cache_line);
    printf("== %s\n", cache_line);
    cc_provenance *prov = &cert.prov;
    cli_provenance_here(prov, argc, argv);
    cli_provenance_gpu(prov, &cert);
    /* The generation's directory name (.gen-<hash>) says which goldens were in force. */
    const char *slash = strrchr(cat.dir, '/');
    snprintf(prov->golden_generation, sizeof prov->golden_generation, "%.250s",
             slash ? slash + 1 : cat.dir);
    golden_free(&cat);
    case_seed_format_hex(opt.master, prov->seed);
    prov->cases = opt.cases;
    prov->quick = quick;
    prov->shard_index = opt.shard_index;
    prov->shard_count = opt.shard_count;

    printf("\ncellcheck %scertificate (%s, %" PRIu64 " cases per engine)\n",
           quick ? "quick " : "", prov->cpu_model, opt.cases);
    if (prov->sandbox[0]) printf("workers' sandbox: %s\n", prov->sandbox);
    printf("\n");
    cc_certificate_table(stdout, &cert);
    int counts[4];
    cc_certificate_count(&cert, counts);
    int rc = cli_certificate_write(out_dir, &cert, &err);
    if (!rc && opt.shard_count > 1) rc = cli_shard_file_write(out_dir, &cert, &err);
    if (!rc && junit) rc = cli_junit_write(junit, &cert, &err);
    if (!rc) cc_certificate_print_gaps(stdout, &cert);
    cc_certificate_free(&cert);
    if (rc) return cli_failed(&err);
    printf("%d certified, %d failed, %d not run here, %d incomplete\n",
           counts[CC_VERDICT_CERTIFIED], counts[CC_VERDICT_FAILED], counts[CC_VERDICT_NOT_RUN],
           counts[CC_VERDICT_INCOMPLETE]);
    return counts[CC_VERDICT_FAILED] ? 1 : counts[CC_VERDICT_INCOMPLETE] ? CLI_EXIT_INCOMPLETE : 0;
}
