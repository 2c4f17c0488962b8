/* GPU engines: call patterns and call sequences under a disturbed timing between streams. */
#include "harness/sections/section.h"

#include <stdio.h>

/* The disturbances the GPU timing section turns through, one a check in turn (oracle/case.h):
 * the legacy stream held back, the copy engines and the multiprocessors occupied, alone and
 * together, with pageable and pinned host buffers, with and without pauses between calls. */
static const uint32_t timing_settings[] = {
    CC_TIMING_LEGACY,
    CC_TIMING_LEGACY | CC_TIMING_PINNED,
    CC_TIMING_COPIES | CC_TIMING_KERNEL,
    CC_TIMING_COPIES | CC_TIMING_PINNED | CC_TIMING_DELAYS,
    CC_TIMING_LEGACY | CC_TIMING_COPIES | CC_TIMING_KERNEL | CC_TIMING_PINNED,
    CC_TIMING_KERNEL | CC_TIMING_DELAYS,
    CC_TIMING_LEGACY | CC_TIMING_COPIES | CC_TIMING_DELAYS,
    CC_TIMING_COPIES | CC_TIMING_KERNEL | CC_TIMING_PINNED,
};
#define TIMING_SETTINGS (sizeof timing_settings / sizeof timing_settings[0])

/* An engine on a GPU runs the call patterns of CC_TIMING_CASES drawn cases (each case checked
 * in one call of step(k), then under every pattern its size allows) and CC_TIMING_SEQUENCES call
 * sequences again, each under one setting of timing_settings in turn; a CPU engine has no such
 * dimension. Where its worker cannot disturb it (no device to disturb, a program built without
 * the disturbance) every one of them is a gap, gpu-timing:absent. */
static void gpu_timing(conformance_tally *t, const uint8_t master[CC_SEED_BYTES]) {
    const cc_engine_caps caps = t->caps;
    cc_error err;
    if (cc_call_timing_available(t->engine, &err)) {
        cc_gap_note(&t->gaps, CC_CHECK_TIMING, CC_GAP_ABSENT, CC_TIMING_CASES + CC_TIMING_SEQUENCES,
                    "the call patterns and sequences under a disturbed timing between streams "
                    "did not run: %s",
                    err.msg);
        return;
    }
    /* Drawn as the campaign draws its valid cases (large ones too), from seeds of their own. */
    cc_campaign_options drawn = *t->opt;
    drawn.invalid_percent = 0;
    /* Under --quick, each setting once for the cases and once for the sequences. */
    const int cases = tally_quick_count(t, CC_CHECK_TIMING, CC_TIMING_CASES, (int)TIMING_SETTINGS,
                                        "drawn cases under a disturbed timing");
    const int sequences = tally_quick_count(t, CC_CHECK_TIMING, CC_TIMING_SEQUENCES,
                                            (int)TIMING_SETTINGS,
                                            "call sequences under a disturbed timing");
    for (int i = 0; i < cases && !t->stopped; i++) {
        uint8_t seed[CC_SEED_BYTES];
        case_seed_derive(master, 0x74696d696e670000ull + (uint64_t)i, seed); /* "timing" */
        cc_drawn_case d;
        if (cc_case_draw(t->engine, &drawn, seed, &d, &err)) {
            if (tally_mine(t)) {
                printf("ERROR: %s: GPU timing case %d: cannot draw it: %s\n", t->engine->name, i,
                       err.msg);
                t->infra_error++;
            }
            continue;
        }
        d.c.timing = timing_settings[(size_t)i % TIMING_SETTINGS];
        tally_check(t, "GPU timing", &d.c, &t->timing_passed);
        if (t->failed && t->opt->stop_at_first_failure) return;
    }
    for (int i = 0; i < sequences && !t->stopped; i++) {
        if (!tally_mine(t)) continue;
        uint8_t seed[CC_SEED_BYTES];
        case_seed_derive(master, 0x74696d6573657100ull + (uint64_t)i, seed); /* "timeseq" */
        cc_case c;
        if (cc_case_draw_small(t->engine, seed, &c, &err)) {
            printf("ERROR: %s: GPU timing sequence %d: cannot draw its case: %s\n",
                   t->engine->name, i, err.msg);
            t->infra_error++;
            continue;
        }
        if (!fuzz_fit_port_caps(&caps, 0, &c)) {
            t->over_cells++;
            continue;
        }
        /* Offset by one from the cases, so a setting meets other grids here. */
        c.timing = timing_settings[(size_t)(i + 1) % TIMING_SETTINGS];
        if (tally_run_sequence(t, "GPU timing", i, &c, &t->timing_passed)) return;
    }
}

static void run(conformance_tally *t) { gpu_timing(t, t->opt->master); }

const conformance_section section_gpu_timing = {.progress = "GPU timing",
                                                .flags = SECTION_GPU_ONLY,
                                                .part_of = -1,
                                                .run = run};
