/* The sections of a conformance run, one line each, in the order a run checks them and certify
 * reports them: CC_SECTION_ROW(KEY, file, "id", "name"). KEY makes the public CC_CHECK_<KEY>
 * (coverage.h), "id" is the section on a command line (--leave-out, --accept-gap), "name" the
 * section in reports, and file the section's own file, sections/<file>.c, which defines
 * section_<file> (sections/section.h). Adding a section is its file and one line here; shard
 * records and certificates number sections by their place, so a new one goes last.
 * Included with CC_SECTION_ROW defined by the includer; no include guard on purpose. */
CC_SECTION_ROW(EDGE_CASES, edge_cases, "edge-cases", "edge cases")   /* the largest counts, the
                                                                  * smallest sizes, primes */
CC_SECTION_ROW(SEAMS, seams, "seams", "seams")                       /* the last tile short, full
                                                                  * and long */
CC_SECTION_ROW(PLANE, plane, "plane", "the bounded plane")           /* for engines that state it */
CC_SECTION_ROW(PAST_TILES, past_tiles, "past-tiles", "past the tiles") /* sides past 1100,
                                                                    * n*tile +- 1, past 2^24 */
CC_SECTION_ROW(PAST_2_32, huge_grid, "huge-grid", "past 2^32 cells") /* the grid past 2^32 cells */
CC_SECTION_ROW(SHAPES, shapes, "shapes", "thin and tall grids")      /* thin, tall and wide grids */
CC_SECTION_ROW(ROUND_TRIPS, round_trips, "round-trips", "round trips") /* zero-step load/store */
CC_SECTION_ROW(STEP_COUNTS, step_counts, "step-counts", "step counts") /* across magnitudes */
CC_SECTION_ROW(SEQUENCES, sequences, "sequences", "call sequences")  /* drawn from the contract */
CC_SECTION_ROW(TIMING, gpu_timing, "gpu-timing", "GPU timing")       /* GPU engines: call patterns
                                                                  * and sequences under a
                                                                  * disturbed timing between
                                                                  * streams (a case's timing=) */
CC_SECTION_ROW(REFUSALS, refusals, "refusals", "refusals")           /* parameters outside the caps
                                                                  * refused at create */
CC_SECTION_ROW(CAMPAIGN, campaign, "campaign", "campaign")           /* the seeded campaign */
CC_SECTION_ROW(NAMED_RULES, named_rules, "named-rules", "named rules") /* Life, HighLife, ...,
                                                                        * Bosco's rule, by name */
CC_SECTION_ROW(FOOTPRINTS, footprints, "footprints", "footprints")   /* every radius of every
                                                                  * shape: one live cell */
CC_SECTION_ROW(CONTEXTS, contexts, "contexts", "state across contexts") /* near-duplicate grids
                                                                  * in one worker, one context
                                                                  * after another and at once */
CC_SECTION_ROW(SANDBOX, sandbox, "sandbox", "the sandbox")          /* the worker's sandbox: every
                                                                  * part in force, or a gap */
CC_SECTION_ROW(BUFFERS, buffers, "buffers", "caller buffers")        /* load's input and store's
                                                                  * output at every alignment
                                                                  * and before a guard page */
