/* The failure report: where the case diverges, the case shrunk, the pictures, the reproducer. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine_set.h"
#include "harness/check.h"
#include "harness/check_in_place.h"
#include "harness/divergence.h"
#include "harness/lightcone.h"
#include "harness/replay.h"
#include "harness/report.h"
#include "harness/shrink.h"

static int is_grid_difference(cc_failure_kind kind) {
    return kind == CC_FAILURE_MISMATCH || kind == CC_FAILURE_ROUND_TRIP;
}

/* A time-out or a memory overrun costs its whole limit again on every try: not shrunk. */
static int can_shrink(cc_failure_kind kind) {
    return is_grid_difference(kind) || kind == CC_FAILURE_ENGINE_ERROR ||
           kind == CC_FAILURE_REFUSED_VALID || kind == CC_FAILURE_CALL_PATTERN ||
           kind == CC_FAILURE_CRASHED || kind == CC_FAILURE_EXITED ||
           kind == CC_FAILURE_DEVICE_ERROR || kind == CC_FAILURE_CONTRACT ||
           kind == CC_FAILURE_SANDBOX;
}

/* Each try of a fault starts a fresh worker (a GPU context each): fewer are spent on them. */
#define FAULT_SHRINK_TRIES 24

/* A case verified by light cones is too large to step whole, step by step, for the divergence
 * search; and each shrinking try may cost as much, so fewer are spent on it. */
#define LIGHTCONE_SHRINK_TRIES 24

int cc_failure_analyse(const cc_engine *engine, const cc_case *c, const cc_check_result *res,
                       const cc_campaign_options *opt, int64_t from_index, cc_failure_report *rep,
                       cc_error *err) {
    memset(rep, 0, sizeof *rep);
    snprintf(rep->engine, sizeof rep->engine, "%s", engine->name);
    if (opt->reproduce) snprintf(rep->command, sizeof rep->command, "%s", opt->reproduce);
    rep->failing = *c;
    rep->result = *res;
    rep->divergence.first_step = -1;
    rep->smallest_divergence.first_step = -1;
    if (from_index >= 0) {
        rep->from_campaign = 1;
        memcpy(rep->master, opt->master, CC_SEED_BYTES);
        rep->index = (uint64_t)from_index;
    }
    int rc = case_format(c, rep->line, sizeof rep->line, err);
    if (rc) return rc;
    rep->replay = -1;
    if (from_index >= 0) {
        rep->shard_count = opt->shard_count;
        rep->preceding = (uint64_t)from_index / (opt->shard_count ? opt->shard_count : 1);
    }
    /* A replay of a case past 2^28 cells costs as much as the case again: the history it
     * would tell about is left unknown. */
    int huge = (double)c->w * (double)c->h > (double)(1u << 28);
    if (opt->replay_alone && huge)
        snprintf(rep->replay_note, sizeof rep->replay_note,
                 "not replayed alone: past 2^28 cells, a replay costs the whole case again");
    if (opt->replay_alone && res->kind != CC_FAILURE_TIMED_OUT && !huge) {
        rep->replay = (int)cc_replay_alone(engine, c, rep->replay_note, sizeof rep->replay_note);
        /* Passing alone, its failure came from earlier work of this process: stepping and
         * shrinking it here would only measure that history. */
        if (rep->replay == CC_REPLAY_PASSED) return CC_OK;
    }
    /* The search for the first diverging step runs the oracle over the whole grid: past 2^28
     * cells it would cost minutes after the verdict (light cones found the cells instead). */
    /* Past CC_ORACLE_CYCLE_STEPS its oracle would step k times: the count is the point, and
     * neither searched nor shrunk. */
    const int long_count = c->steps > CC_ORACLE_CYCLE_STEPS;
    if (is_grid_difference(res->kind) && !res->lightcone && !huge && !long_count &&
        (rc = harness_divergence(engine, c, opt->report_dir, "", &rep->divergence, err)))
        return rc;
    rep->smallest = *c;
    snprintf(rep->smallest_line, sizeof rep->smallest_line, "%s", rep->line);
    rep->smallest_result = *res;
    if (!opt->shrink || !can_shrink(res->kind) || long_count) return CC_OK;
    int tries = opt->shrink_tries > 0 ? opt->shrink_tries : CC_CAMPAIGN_DEFAULT_SHRINK_TRIES;
    if (res->lightcone && tries > LIGHTCONE_SHRINK_TRIES) tries = LIGHTCONE_SHRINK_TRIES;
    if (cc_failure_kind_is_fault(res->kind) && tries > FAULT_SHRINK_TRIES) tries = FAULT_SHRINK_TRIES;
    const double budget = (double)c->w * (double)c->h > CC_CHECK_IN_PLACE_CELLS
                              ? CC_SHRINK_HUGE_BUDGET_S
                              : CC_SHRINK_BUDGET_S;
    if ((rc = cc_case_shrink(engine, c, res->kind, res->pattern, tries, budget, &rep->smallest,
                             &rep->shrink_tries, err)))
        return rc;
    rep->shrunk = !cc_rule_equal(&rep->smallest.rule, &c->rule) || rep->smallest.w != c->w ||
                  rep->smallest.h != c->h || rep->smallest.steps != c->steps;
    if (!rep->shrunk) return CC_OK;
    if ((rc = case_format(&rep->smallest, rep->smallest_line, sizeof rep->smallest_line, err)))
        return rc;
    if ((rc = cc_case_check(engine, &rep->smallest, &rep->smallest_result, err))) return rc;
    if (is_grid_difference(rep->smallest_result.kind) && !rep->smallest_result.lightcone)
        rc = harness_divergence(engine, &rep->smallest, opt->report_dir, "-shrunk",
                             &rep->smallest_divergence, err);
    return rc;
}

/* Under bazel test the picture is written into the test's outputs directory, which is gone once
 * the test ends: the report names where Bazel keeps it instead. */
static void print_picture(FILE *out, const char *indent, const char *png) {
    const char *outputs = getenv("TEST_UNDECLARED_OUTPUTS_DIR"), *target = getenv("TEST_TARGET");
    const char *shard = getenv("TEST_SHARD_INDEX"), *shards = getenv("TEST_TOTAL_SHARDS");
    size_t n = outputs ? strlen(outputs) : 0;
    if (n && target && strncmp(png, outputs, n) == 0 && png[n] == '/') {
        /* //pkg:name keeps its logs in bazel-testlogs/pkg/name, a shard's in shard_I_of_N. */
        char dir[512], where[64] = "";
        snprintf(dir, sizeof dir, "%s", target[0] == '/' && target[1] == '/' ? target + 2 : target);
        char *colon = strrchr(dir, ':');
        if (colon) {
            *colon = '/';
            if (colon == dir) memmove(dir, dir + 1, strlen(dir));
        }
        int i = shard ? atoi(shard) : 0, count = shards ? atoi(shards) : 0;
        if (count > 1) snprintf(where, sizeof where, "/shard_%d_of_%d", i + 1, count);
        fprintf(out,
                "%sdifference picture: %s in bazel-testlogs/%s%s/test.outputs/outputs.zip (its "
                "window and colours in the .txt beside it)\n",
                indent, png + n + 1, dir, where);
        return;
    }
    fprintf(out, "%sdifference picture: %s (its window and colours in the .txt beside it)\n",
            indent, png);
}

static void print_divergence(const cc_divergence *d, const cc_case *c, const char *indent,
                             FILE *out) {
    if (d->known) {
        if (d->first_step == 0)
            fprintf(out, "%sfirst diverging step: 0 (store right after load)\n", indent);
        else
            fprintf(out, "%sfirst diverging step: %" PRId64 " of %" PRId64 "%s\n", indent,
                    d->first_step, c->steps,
                    d->single_steps_agree
                        ? " (step(1) repeated agrees with the oracle; step(k) in one call does "
                          "not)"
                        : "");
        fprintf(out, "%sfirst differing cell, at step %" PRId64 ": (x=%d, y=%d): engine %d, oracle %d%s\n",
                indent, d->first_step, (int)d->x, (int)d->y, d->engine_value, d->oracle_value,
                d->engine_value > 1 ? " (store did not write it)" : "");
        fprintf(out, "%sdiffering cells: %" PRIu64 " at step %" PRId64 ", %" PRIu64
                     " after step(%" PRId64 ") in one call\n",
                indent, d->differing_first, d->first_step, d->differing_end, c->steps);
    }
    if (d->png[0]) print_picture(out, indent, d->png);
    if (d->note[0]) fprintf(out, "%snote: %s\n", indent, d->note);
}

/* The plugins this process loaded (cellcheck exports them in CELLCHECK_PLUGINS), so that the
 * command finds a plugin's engine when it is run again. */
void cc_reproducer_format(char *buf, size_t size, const char *command, const char *engine,
                          const char *line, const char *calls) {
    int used;
    if (command && command[0]) {
        used = snprintf(buf, size, "%s --case '%s'", command, line);
        if (calls && used >= 0 && (size_t)used < size)
            snprintf(buf + used, size - (size_t)used, " --calls '%s'", calls);
        return;
    }
    char plugins[4096];
    cc_plugin_args(plugins, sizeof plugins);
    used = snprintf(buf, size, "cellcheck%s check --engine %s --case '%s'", plugins, engine, line);
    if (calls && used >= 0 && (size_t)used < size)
        snprintf(buf + used, size - (size_t)used, " --calls '%s'", calls);
}

void cc_print_reproducer(FILE *out, const char *label, const char *command, const char *engine,
                         const char *line) {
    if (!out) out = stdout;
    char text[CC_REPRODUCER_TEXT_MAX];
    cc_reproducer_format(text, sizeof text, command, engine, line, NULL);
    fprintf(out, "  %s: %s\n", label, text);
}

void cc_failure_print_short(FILE *out, const char *command, const char *engine,
                            const char *section, const cc_case *c, const cc_check_result *res) {
    if (!out) out = stdout;
    char line[CC_CASE_TEXT_MAX];
    if (case_format(c, line, sizeof line, NULL)) snprintf(line, sizeof line, "(unprintable)");
    fprintf(out, "FAILED: %s: %s%s%s: %s\n", engine, section ? section : "", section ? ": " : "",
            cc_failure_kind_name(res->kind), res->detail);
    cc_print_reproducer(out, "reproduce", command, engine, line);
}

/* The verdict's detail; where the search found the first diverging step, without the final
 * grid's cell, so that the report names one first difference, the search's. */
static int detail_length(const cc_check_result *res, const cc_divergence *d) {
    return d->known && res->detail_cell > 0 ? res->detail_cell : (int)strlen(res->detail);
}

void cc_failure_report_print(const cc_failure_report *rep, FILE *out) {
    if (!out) out = stdout;
    char master[2 * CC_SEED_BYTES + 1];
    fprintf(out, "FAILED: %s: %s: %.*s\n", rep->engine, cc_failure_kind_name(rep->result.kind),
            detail_length(&rep->result, &rep->divergence), rep->result.detail);
    if (rep->from_campaign) {
        case_seed_format_hex(rep->master, master);
        fprintf(out, "  master seed %s, case %" PRIu64 "\n", master, rep->index);
    }
    fprintf(out, "  case: %s\n", rep->line);
    if (rep->replay == CC_REPLAY_PASSED) {
        fprintf(out, "  depends on process history: the case passes when replayed alone in a fresh "
                     "worker process; its first worker ran it after the conformance sections");
        if (rep->from_campaign && rep->preceding > 0) {
            fprintf(out, " and %" PRIu64 " earlier campaign cases of this process:", rep->preceding);
            uint64_t step = rep->shard_count ? rep->shard_count : 1, first = rep->index % step;
            for (uint64_t j = 0, i = first; i < rep->index; j++, i += step) {
                if (j == 8 && rep->preceding > 10) {
                    i = rep->index - step;
                    fprintf(out, " ...");
                }
                fprintf(out, " %" PRIu64, i);
            }
        }
        fprintf(out, "\n");
    } else if (rep->replay == CC_REPLAY_FAILED) {
        fprintf(out, "  replayed alone in a fresh worker process: fails there too\n");
    } else if (rep->replay == CC_REPLAY_UNKNOWN) {
        fprintf(out, "  replay alone: %s\n", rep->replay_note);
    }
    if (rep->result.lightcone) {
        char classes[160];
        cc_seam_classes_describe(rep->result.seam_classes, classes, sizeof classes);
        fprintf(out, "  verified by light cones: %" PRIu64 " cells (%s)\n", rep->result.verified,
                classes);
    }
    print_divergence(&rep->divergence, &rep->failing, "  ", out);
    if (rep->shrunk) {
        fprintf(out, "  shrunk (%d cases tried): %s\n", rep->shrink_tries, rep->smallest_line);
        fprintf(out, "    %s: %.*s\n", cc_failure_kind_name(rep->smallest_result.kind),
                detail_length(&rep->smallest_result, &rep->smallest_divergence),
                rep->smallest_result.detail);
        print_divergence(&rep->smallest_divergence, &rep->smallest, "    ", out);
    } else if (rep->shrink_tries > 0) {
        fprintf(out, "  shrinking found nothing smaller (%d cases tried)\n", rep->shrink_tries);
    }
    cc_print_reproducer(out, "reproduce", rep->command, rep->engine, rep->line);
    if (rep->shrunk)
        cc_print_reproducer(out, "reproduce shrunk", rep->command, rep->engine, rep->smallest_line);
    fflush(out);
}
