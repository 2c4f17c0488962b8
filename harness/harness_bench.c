/* The benchmark of an engine: ms per step and cells per second against its reference, measured
 * in the same run. Flags: see cc_bench_option_rows, or --help. */
#include <stdio.h>

#include "harness/bench.h"
#include "harness/harness.h"

static int bench_main(const cc_engine *engine, const cc_engine *reference, int argc,
                   char **argv) {
    int status = 0;
    cc_bench_options opt;
    cc_bench_options_init(&opt);
    cc_option rows[CC_BENCH_OPTION_COUNT];
    cc_bench_option_rows(&opt, rows);
    cc_command cmd = {cc_options_program(argc, argv, "bench"),
                      "Times the engine against its reference in the same run: median ms per\n"
                      "step and cells per second.",
                      rows, CC_BENCH_OPTION_COUNT};
    if (cc_options_parse_or_usage(&cmd, argc, argv, stdout, stderr, &status)) return status;
    if (cc_harness_skip(engine, &status)) return status;
    if (reference && reference != engine && cc_harness_skip(reference, &status)) return status;
    cc_error err = {0};
    if (cc_bench_run(engine, reference, &opt, stdout, NULL, 0, NULL, &err)) {
        printf("%s bench FAILED: %s\n", engine->name, err.msg);
        return 1;
    }
    return 0;
}

int cc_harness_bench(const cc_engine *engine, const cc_engine *reference, int argc, char **argv) {
    return cc_harness_drive(bench_main, engine, reference, argc, argv);
}
