/* The checks of a conformance run as a library call: every section of the table
 * (sections/list.h) in turn on one tally, then the summary. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "harness/harness.h"
#include "harness/progress.h"
#include "harness/sections/section.h"
#include "supervise/supervisor.h"

/* The seconds of the sections run inside section s. */
/* What the sections run inside section s spent so far: their seconds, engine and exchange. */
static cc_section_tally parts_spent(const conformance_tally *t, int s) {
    cc_section_tally sum = {0};
    for (int p = 0; p < CC_CHECK_SECTION_COUNT; p++)
        if (conformance_sections[p]->part_of == s) {
            sum.seconds += t->sections[p].seconds;
            sum.engine_seconds += t->sections[p].engine_seconds;
            sum.exchange_seconds += t->sections[p].exchange_seconds;
        }
    return sum;
}

int cc_reproduce_command(const cc_engine *engine, const char *base, char *buf, size_t size,
                         int32_t *devices, cc_error *err) {
    *devices = 0;
    if (size) buf[0] = '\0';
    if (!engine->devices) return CC_OK;
    int rc = cc_call_devices(engine, devices, err);
    if (rc) return cc_prefix(err, "%s: devices", engine->name);
    if (base && base[0]) {
        snprintf(buf, size, "CELLCHECK_DEVICES=%d %s", (int)*devices, base);
    } else {
        char plugins[4096];
        cc_plugin_args(plugins, sizeof plugins);
        snprintf(buf, size, "CELLCHECK_DEVICES=%d cellcheck%s check --engine %s", (int)*devices,
                 plugins, engine->name);
    }
    return CC_OK;
}

int cc_conformance_run(const cc_engine *engine, const cc_campaign_options *opt,
                       cc_conformance_summary *sum, cc_error *err) {
    memset(sum, 0, sizeof *sum);
    conformance_tally t;
    memset(&t, 0, sizeof t);
    t.engine = engine;
    t.caps = cc_engine_caps_resolved(engine);
    /* An engine over several devices: how many, for the seams and for the reproducers, which
     * name the count so that they run with it again. */
    cc_campaign_options with_devices = *opt;
    char command[CC_REPRODUCER_TEXT_MAX];
    const int devices_rc =
        cc_reproduce_command(engine, opt->reproduce, command, sizeof command, &t.devices, err);
    if (devices_rc) return devices_rc;
    if (command[0]) {
        with_devices.reproduce = command;
        opt = &with_devices;
    }
    t.opt = opt;
    t.campaign = &sum->campaign;
    t.campaign_rc = CC_OK;
    t.err = err;
    /* Stopping at the first failure (the default) stops the sections after it too: its report is
     * printed, and an engine that failed has failed. */
    for (int s = 0; s < CC_CHECK_SECTION_COUNT; s++) {
        const conformance_section *sec = conformance_sections[s];
        if (sec->part_of >= 0) continue; /* run, timed and left out with the other */
        if ((sec->flags & SECTION_GPU_ONLY) && engine->hardware != CC_HW_GPU) continue;
        /* The sections a caller turned off are not run, whatever else happens. */
        const int off = (opt->sections_off & (1u << s)) != 0;
        if (off) {
            cc_gap_note(&t.gaps, (cc_check_section)s, CC_GAP_ASKED, 1, "left out by the options");
            for (int p = 0; p < CC_CHECK_SECTION_COUNT; p++)
                if (conformance_sections[p]->part_of == s)
                    cc_gap_note(&t.gaps, (cc_check_section)p, CC_GAP_ASKED, 1, "%s",
                                conformance_sections[p]->left_out_note);
        }
        if (off || (t.failed && opt->stop_at_first_failure) ||
            ((sec->flags & SECTION_NOT_AFTER_FAULT) && t.stopped))
            continue;
        if (sec->progress) cc_progress_note(opt->progress, engine->name, sec->progress);
        t.section = (cc_check_section)s;
        t.sections[s].run = 1;
        /* A section run inside this one is timed as its own. */
        const tally_clock mark = tally_clock_now(&t);
        const cc_section_tally parts = parts_spent(&t, s);
        sec->run(&t);
        /* Undisturbed, in the shared grid, again after the GPU timing and buffers sections. */
        cc_supervisor_timing(cc_supervisor_of(engine), 0);
        cc_supervisor_buffers(cc_supervisor_of(engine), 0);
        tally_clock_add(&t, &mark, &t.sections[s]);
        const cc_section_tally parts_after = parts_spent(&t, s);
        t.sections[s].seconds -= parts_after.seconds - parts.seconds;
        t.sections[s].engine_seconds -= parts_after.engine_seconds - parts.engine_seconds;
        t.sections[s].exchange_seconds -= parts_after.exchange_seconds - parts.exchange_seconds;
    }
    const int rc = t.campaign_rc;
    /* What follows (the goldens) runs at the worker's default team again, undisturbed. */
    cc_supervisor_team(cc_supervisor_of(engine), 0);
    cc_supervisor_timing(cc_supervisor_of(engine), 0);
    cc_supervisor_buffers(cc_supervisor_of(engine), 0);
    if (opt->same_team && engine->hardware != CC_HW_GPU)
        cc_gap_note(&t.gaps, CC_CHECK_CAMPAIGN, CC_GAP_ASKED, 1,
                    "every case at the worker's default OpenMP team, not at 1, 2, 3 and every "
                    "core");
    sum->devices = t.devices;
    sum->ranks = cc_call_ranked(engine) && t.devices > 0 ? t.devices : 1;
    sum->first_kind = t.first_kind;
    snprintf(sum->first_failure, sizeof sum->first_failure, "%s", t.first_failure);
    sum->first_section = t.first_section;
    snprintf(sum->first_case, sizeof sum->first_case, "%s", t.first_case);
    snprintf(sum->first_calls, sizeof sum->first_calls, "%s", t.first_calls);
    sum->first_index = -1;
    sum->first_ordinal = t.failed ? t.first_ordinal : -1;
    sum->stopped = t.stopped;
    if (!t.failed && sum->campaign.has_failure) {
        const cc_failure_report *f = &sum->campaign.failure;
        sum->first_kind = f->result.kind;
        sum->first_section = CC_CHECK_CAMPAIGN;
        snprintf(sum->first_failure, sizeof sum->first_failure, "campaign case %" PRIu64 ": %.500s",
                 sum->campaign.first_failure, f->result.detail);
        snprintf(sum->first_case, sizeof sum->first_case, "%s", f->line);
        sum->first_index = (int64_t)sum->campaign.first_failure;
    }
    if (sum->first_case[0])
        cc_reproducer_format(sum->first_reproducer, sizeof sum->first_reproducer, opt->reproduce,
                             engine->name, sum->first_case,
                             sum->first_calls[0] ? sum->first_calls : NULL);
    memcpy(sum->sections, t.sections, sizeof sum->sections);
    sum->edge_passed = t.edge_passed;
    sum->scale_passed = t.scale_passed;
    sum->huge_passed = t.huge_passed;
    snprintf(sum->huge_note, sizeof sum->huge_note, "%s", t.huge_note);
    sum->gaps = t.gaps;
    const cc_engine_caps caps = cc_engine_caps_resolved(engine);
    sum->tile_w = caps.tile_w;
    sum->tile_h = caps.tile_h;
    sum->lightcone_cells = t.lightcone_cells;
    sum->seam_classes = t.seam_classes;
    sum->round_trips = t.round_trips;
    sum->sequences = t.sequences;
    sum->transitions = t.transitions;
    sum->timing_passed = t.timing_passed;
    sum->shapes_passed = t.shapes_passed;
    sum->seams_passed = t.seams_passed;
    sum->plane_passed = t.plane_passed;
    sum->step_counts = t.counts_passed;
    sum->step_counts_blind = t.counts_blind;
    sum->step_counts_max = t.counts_max;
    sum->step_counts_long = t.counts_long;
    sum->step_counts_running = t.counts_running;
    sum->refusals = t.refusals;
    sum->failed = t.failed;
    sum->infra_errors = t.infra_error + t.edge_refused;
    sum->passed = t.failed == 0 && sum->infra_errors == 0 && rc == CC_OK;
    return rc == CC_ERR_MISMATCH ? CC_OK : rc;
}

void cc_conformance_geometry(const cc_conformance_summary *sum, char *tile, size_t tile_size,
                             char *huge, size_t huge_size) {
    if (sum->tile_w > 1 || sum->tile_h > 1)
        snprintf(tile, tile_size, "tile %dx%d", (int)sum->tile_w, (int)sum->tile_h);
    else
        snprintf(tile, tile_size, "no tile declared, 64x64 assumed");
    if (sum->huge_passed)
        snprintf(huge, huge_size, "passed");
    else
        snprintf(huge, huge_size, "not run: %s", sum->huge_note[0] ? sum->huge_note : "failed or not reached");
}
