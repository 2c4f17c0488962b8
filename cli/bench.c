/* cellcheck bench: one engine against its reference engine, timed in the same run. */
#include <stdio.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "harness/bench.h"

enum { ENGINE, REFERENCE, BENCH_ROWS, NOPTIONS = BENCH_ROWS + CC_BENCH_OPTION_COUNT };

static const char about[] =
    "Median ms per step and cells per second of the engine and of its\n"
    "reference engine, timed in the same run on the Table VI workloads.";

int cli_cmd_bench(const cc_engine_set *engines, int argc, char **argv) {
    cc_bench_options opt;
    cc_bench_options_init(&opt);
    const char *engine_name = NULL, *reference_name = NULL;
    cc_option opts[NOPTIONS] = {
        [ENGINE] = cli_engine_option(&engine_name, 1, "the engine to time"),
        [REFERENCE] = CC_OPTION_STRING("reference", "NAME", &reference_name,
                                       "what it is timed against (cpu.ref or cuda.base)"),
    };
    cc_bench_option_rows(&opt, &opts[BENCH_ROWS]);
    cc_command cmd = {"cellcheck bench", about, opts, NOPTIONS};
    int status;
    if (cli_parse(&cmd, argc, argv, &status)) return status;
    cc_error err = {0};
    const cc_engine *engine = cli_find_engine(engines, engine_name, &err);
    if (!engine) return cli_bad_usage(&cmd, &err);
    if (!reference_name) reference_name = cc_bench_default_reference(engine);
    const cc_engine *reference = cli_find_engine(engines, reference_name, &err);
    if (!reference) return cli_bad_usage(&cmd, &err);
    if (cli_unavailable(engine, "", &err) || cli_unavailable(reference, "reference ", &err))
        return cli_failed(&err);
    int rc = cc_bench_run(engine, reference, &opt, stdout, NULL, 0, NULL, &err);
    /* Limits and options asked for wrongly (the work cap, the budget) are the arguments' fault. */
    if (rc == CC_ERR_ARG) return cli_bad_usage(&cmd, &err);
    if (rc) return cli_failed(&err);
    return 0;
}
