/* cellcheck check: a seeded campaign of one engine against the oracle, or one case replayed. */
#include <stdio.h>
#include <string.h>

#include "cli/args.h"
#include "cli/commands.h"
#include "harness/campaign.h"

int cli_campaign_flags(const char *cases, const char *seed, cc_campaign_options *opt,
                       cc_error *err) {
    if (cases) {
        int64_t n;
        int rc = cli_parse_int64("--cases", cases, 1, INT64_C(1) << 40, &n, err);
        if (rc) return rc;
        opt->cases = (uint64_t)n;
    }
    return seed ? case_seed_parse_hex(seed, opt->master, err) : CC_OK;
}

int cli_cmd_check(int argc, char **argv) {
    cli_flag flags[] = {{"--engine", NULL}, {"--cases", NULL},  {"--seed", NULL},
                        {"--radius", NULL}, {"--size", NULL},   {"--case", NULL},
                        {"--report-dir", NULL}};
    enum { ENGINE, CASES, SEED, RADIUS, SIZE, CASE, REPORT_DIR, NFLAGS };
    cc_error err = {0};
    if (cli_parse_flags(argc, argv, flags, NFLAGS, &err)) return cli_bad_usage(&err);
    if (!flags[ENGINE].value) {
        cc_fail(&err, CC_ERR_ARG, "check needs --engine");
        return cli_bad_usage(&err);
    }
    if (flags[CASE].value && (flags[CASES].value || flags[SEED].value || flags[RADIUS].value ||
                              flags[SIZE].value)) {
        cc_fail(&err, CC_ERR_ARG, "--case replays one case: --cases, --seed, --radius and --size do not apply");
        return cli_bad_usage(&err);
    }
    const cc_engine *engine = cli_find_engine(flags[ENGINE].value, &err);
    if (!engine) return cli_bad_usage(&err);

    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.report_dir = flags[REPORT_DIR].value;
    if (cli_campaign_flags(flags[CASES].value, flags[SEED].value, &opt, &err))
        return cli_bad_usage(&err);
    if (flags[RADIUS].value &&
        cc_parse_int_range(flags[RADIUS].value, &opt.radius_lo, &opt.radius_hi, &err))
        return cli_bad_usage(&err);
    if (flags[SIZE].value && cc_parse_int_range(flags[SIZE].value, &opt.size_lo, &opt.size_hi, &err))
        return cli_bad_usage(&err);

    if (cc_engine_available(engine, &err)) {
        cc_prefix(&err, "%s cannot run here", engine->name);
        return cli_failed(&err);
    }
    int rc;
    if (flags[CASE].value) {
        rc = cc_campaign_check_line(engine, flags[CASE].value, &opt, NULL, &err);
        if (rc == CC_ERR_ARG) return cli_bad_usage(&err);
        return rc == CC_OK ? 0 : rc == CC_ERR_MISMATCH ? 1 : cli_failed(&err);
    }
    char seed_hex[2 * CC_SEED_BYTES + 1];
    case_seed_format_hex(opt.master, seed_hex);
    cc_campaign_result res;
    rc = cc_campaign_run(engine, &opt, &res, &err);
    if (rc && rc != CC_ERR_MISMATCH) return cli_failed(&err);
    printf("%s: %llu cases (seed %s): %llu passed, %llu refused as required, %llu failed\n",
           engine->name, (unsigned long long)res.run, seed_hex, (unsigned long long)res.passed,
           (unsigned long long)res.refused, (unsigned long long)res.failed);
    return rc == CC_OK ? 0 : 1;
}
