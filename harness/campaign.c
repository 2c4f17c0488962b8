/* The campaign loop and the check of one case line. */
#include "harness/campaign.h"
#include "harness/check_in_place.h"
#include "harness/limits.h"
#include "harness/progress.h"
#include "harness/lightcone.h"
#include "supervise/supervisor.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static FILE *out_of(const cc_campaign_options *opt) { return opt->out ? opt->out : stdout; }

int cc_campaign_run(const cc_engine *engine, const cc_campaign_options *opt,
                    cc_campaign_result *res, cc_error *err) {
    memset(res, 0, sizeof *res);
    FILE *out = out_of(opt);
    if (opt->shard_count == 0 || opt->shard_index >= opt->shard_count)
        return cc_fail(err, CC_ERR_ARG, "shard %u of %u does not exist", opt->shard_index,
                       opt->shard_count);
    char master[2 * CC_SEED_BYTES + 1];
    case_seed_format_hex(opt->master, master);
    cc_progress progress;
    cc_progress_start(&progress, opt->progress, engine->name, "campaign",
                      (opt->cases - opt->shard_index + opt->shard_count - 1) / opt->shard_count);
    cc_check_options check_opt;
    cc_check_options_init(&check_opt);
    check_opt.oracle_cache = opt->oracle_cache;
    cc_draw_caps caps; /* resolved once: every case draws from them */
    cc_draw_caps_of(engine, &caps);
    for (uint64_t i = opt->shard_index; i < opt->cases; i += opt->shard_count) {
        cc_progress_tick(&progress, res->run, res->failed);
        cc_drawn_case drawn;
        const double draw_start = cc_now_seconds();
        int rc = cc_campaign_case_with(&caps, opt, i, &drawn, err);
        res->draw_seconds += cc_now_seconds() - draw_start;
        if (rc) return cc_prefix(err, "drawing case %" PRIu64 " of master seed %s", i, master);
        char at[48];
        snprintf(at, sizeof at, "case %" PRIu64, i);
        cc_case_label(engine, at, &drawn.c);
        cc_check_result check;
        const double case_start = cc_now_seconds();
        if ((rc = cc_case_check_with(engine, &drawn.c, &check_opt, &check, err)))
            return cc_prefix(err, "checking case %" PRIu64 " of master seed %s", i, master);
        res->run++;
        if (opt->on_case) {
            const int passed = check.outcome == CC_OUTCOME_PASS;
            const cc_case_outcome o = {
                i, &drawn.c, passed ? 0 : check.outcome == CC_OUTCOME_REFUSED ? 1 : 2,
                passed ? "" : cc_failure_kind_name(check.kind), passed ? "" : check.detail,
                cc_now_seconds() - case_start};
            opt->on_case(opt->on_case_ctx, &o);
        }
        res->oracle_seconds += check.oracle_seconds;
        res->draw_seconds += check.draw_seconds;
        if (opt->verbose) {
            char line[CC_CASE_TEXT_MAX];
            case_format(&drawn.c, line, sizeof line, NULL);
            fprintf(out, "case %" PRIu64 ": %s: %s%s%s\n", i,
                    check.outcome == CC_OUTCOME_PASS      ? "pass"
                    : check.outcome == CC_OUTCOME_REFUSED ? "refused"
                                                          : "FAIL",
                    line, check.outcome == CC_OUTCOME_REFUSED ? ": " : "",
                    check.outcome == CC_OUTCOME_REFUSED ? check.detail : "");
        }
        if (check.outcome == CC_OUTCOME_PASS) {
            res->passed++;
            cc_coverage_add(&res->covered, &drawn.c.rule, drawn.c.w, drawn.c.h, drawn.c.steps,
                            drawn.c.threads);
            continue;
        }
        if (check.outcome == CC_OUTCOME_REFUSED) {
            res->refused++;
            continue;
        }
        res->failed++;
        if (!res->has_failure) {
            res->has_failure = 1;
            res->first_failure = i;
            /* The verdict first: the analysis steps and shrinks the case again, which on a
             * huge case takes minutes. */
            char at[96];
            snprintf(at, sizeof at, "case %" PRIu64 " of master seed %.16s...", i, master);
            cc_failure_print_short(out, opt->reproduce, engine->name, at, &drawn.c, &check);
            fprintf(out, "  analysing it: the full report follows\n");
            fflush(out);
            const double shrink_start = cc_now_seconds();
            rc = cc_failure_analyse(engine, &drawn.c, &check, opt, (int64_t)i, &res->failure, err);
            res->shrink_seconds += cc_now_seconds() - shrink_start;
            if (rc) return cc_prefix(err, "analysing case %" PRIu64 " of master seed %s", i, master);
            cc_failure_report_print(&res->failure, out);
        } else {
            char line[CC_CASE_TEXT_MAX];
            case_format(&drawn.c, line, sizeof line, NULL);
            fprintf(out, "FAILED: %s: case %" PRIu64 " of master seed %s: %s: %s\n  case: %s\n",
                    engine->name, i, master, cc_failure_kind_name(check.kind), check.detail, line);
        }
        /* A time-out or a memory overrun would cost its whole limit again on every case. */
        if (opt->stop_at_first_failure || check.kind == CC_FAILURE_TIMED_OUT ||
            check.kind == CC_FAILURE_OUT_OF_MEMORY)
            break;
    }
    cc_progress_end(&progress, res->run, res->failed);
    if (res->has_failure)
        return cc_fail(err, CC_ERR_MISMATCH,
                       "%s: %" PRIu64 " of %" PRIu64 " cases failed (master seed %s), first: case "
                       "%" PRIu64,
                       engine->name, res->failed, res->run, master, res->first_failure);
    return CC_OK;
}

int cc_campaign_check_line(const cc_engine *engine, const char *line,
                           const cc_campaign_options *opt, cc_failure_report *rep,
                           cc_error *err) {
    FILE *out = out_of(opt);
    cc_case c;
    int rc = case_parse(line, &c, err);
    if (rc) return rc;
    /* The harness holds three copies of the grid beside the engine's context, one and an eighth
     * past 2^30 cells of a uniform grid (check_in_place.c). */
    double grids = (double)c.w * (double)c.h > CC_CHECK_IN_PLACE_CELLS &&
                           c.grid_kind == CC_GRID_UNIFORM ? CC_CHECK_IN_PLACE_GRIDS : 3.0;
    if ((rc = cc_limit_work("check --case", &c.rule, c.w, c.h, c.steps, CC_CHECK_WORK_MAX, err)) ||
        (rc = cc_limit_engine_memory("check --case", engine, &c.rule, c.w, c.h, grids, err)))
        return rc;
    cc_check_result check;
    if ((rc = cc_case_check(engine, &c, &check, err))) return rc;
    char text[CC_CASE_TEXT_MAX];
    if ((rc = case_format(&c, text, sizeof text, err))) return rc;
    if (check.outcome == CC_OUTCOME_PASS) {
        fprintf(out, "PASSED: %s: %s\n", engine->name, text);
        cc_check_result_describe(&check, out);
        return CC_OK;
    }
    if (check.outcome == CC_OUTCOME_REFUSED) {
        fprintf(out, "REFUSED as required (outside the engine's caps): %s: %s\n  %s\n",
                engine->name, text, check.detail);
        return CC_OK;
    }
    cc_failure_report local;
    cc_failure_report *r = rep ? rep : &local;
    if ((rc = cc_failure_analyse(engine, &c, &check, opt, -1, r, err))) return rc;
    cc_failure_report_print(r, out);
    return cc_fail(err, CC_ERR_MISMATCH, "%s: %s: %s", engine->name,
                   cc_failure_kind_name(check.kind), text);
}
