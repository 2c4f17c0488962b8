/* cellcheck bench: one engine against its reference engine, timed in the same run. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "harness/bench.h"

int cli_cmd_bench(int argc, char **argv) {
    cc_error err = {0};
    const char *engine_name = NULL, *reference_name = NULL;
    /* --engine and --reference are ours; the rest are the benchmark's own flags. */
    char *rest[64];
    int nrest = 0;
    for (int i = 0; i < argc; i++) {
        const char **slot = !strcmp(argv[i], "--engine")      ? &engine_name
                            : !strcmp(argv[i], "--reference") ? &reference_name
                                                              : NULL;
        if (slot) {
            if (i + 1 >= argc) {
                cc_fail(&err, CC_ERR_ARG, "option %s needs a value", argv[i]);
                return cli_bad_usage(&err);
            }
            *slot = argv[++i];
        } else if (nrest < (int)(sizeof rest / sizeof rest[0])) {
            rest[nrest++] = argv[i];
        } else {
            cc_fail(&err, CC_ERR_ARG, "too many arguments");
            return cli_bad_usage(&err);
        }
    }
    if (!engine_name) {
        cc_fail(&err, CC_ERR_ARG, "bench needs --engine");
        return cli_bad_usage(&err);
    }
    cc_bench_options opt;
    cc_bench_options_init(&opt);
    if (cc_bench_parse_args(nrest, rest, &opt, &err)) return cli_bad_usage(&err);
    const cc_engine *engine = cli_find_engine(engine_name, &err);
    if (!engine) return cli_bad_usage(&err);
    if (!reference_name) reference_name = cc_bench_default_reference(engine);
    const cc_engine *reference = cli_find_engine(reference_name, &err);
    if (!reference) return cli_bad_usage(&err);
    if (cc_engine_available(engine, &err)) {
        cc_prefix(&err, "%s cannot run here", engine->name);
        return cli_failed(&err);
    }
    if (cc_engine_available(reference, &err)) {
        cc_prefix(&err, "reference %s cannot run here", reference->name);
        return cli_failed(&err);
    }
    if (cc_bench_run(engine, reference, &opt, stdout, NULL, 0, NULL, &err)) return cli_failed(&err);
    return 0;
}
