/* The benchmark of an engine: ms per step and cells per second against its reference, measured
 * in the same run. Flags: see cc_bench_parse_args. */
#include <stdio.h>

#include "harness/bench.h"
#include "harness/harness.h"

int cc_harness_bench(const cc_engine *engine, const cc_engine *reference, int argc, char **argv) {
    int status = 0;
    if (cc_harness_skip(engine, &status)) return status;
    if (reference && reference != engine && cc_harness_skip(reference, &status)) return status;
    cc_bench_options opt;
    cc_bench_options_init(&opt);
    cc_error err = {0};
    if (cc_bench_parse_args(argc - 1, argv + 1, &opt, &err)) {
        fprintf(stderr,
                "%s bench: %s\nusage: %s [--radius A,B,...] [--size N|WxH,...] [--steps K] "
                "[--repeats R] [--warmup W]\n",
                engine->name, err.msg, argc > 0 ? argv[0] : "bench");
        return 2;
    }
    if (cc_bench_run(engine, reference, &opt, stdout, NULL, 0, NULL, &err)) {
        printf("%s bench FAILED: %s\n", engine->name, err.msg);
        return 1;
    }
    return 0;
}
