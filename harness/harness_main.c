/* The main of every engine's tests and benchmark: the driver named by CC_HARNESS (the conformance
 * and bench drivers here, the golden driver in golden/), run on the engine named by
 * CC_ENGINE_UNDER_TEST (both set by cellcheck_engine in engines/defs.bzl). The driver runs the
 * engine in worker processes of this executable (cc_harness_drive). */
#include <string.h>

#include "engines/engine.h"
#include "supervise/worker.h"

int CC_HARNESS(const cc_engine *engine, const cc_engine *reference, int argc, char **argv);

extern const cc_engine CC_ENGINE_UNDER_TEST;
#ifdef CC_ENGINE_REFERENCE
extern const cc_engine CC_ENGINE_REFERENCE;
#define CC_REFERENCE_PTR (&CC_ENGINE_REFERENCE)
#else
#define CC_REFERENCE_PTR NULL
#endif

#define MAX_ARGS 64

int main(int argc, char **argv) {
    const cc_engine *builtins[] = {&CC_ENGINE_UNDER_TEST, CC_REFERENCE_PTR, NULL};
    int status;
    if (cc_worker_hook(argc, argv, builtins, &status)) return status;
#ifdef CC_HARNESS_REPLAY
    /* A failure is replayed alone in a fresh worker, to tell a dependence on history. */
    char replay[] = "--replay-alone";
    char *args[MAX_ARGS + 2];
    int n = 0;
    for (; n < argc && n < MAX_ARGS; n++) args[n] = argv[n];
    args[n++] = replay;
    args[n] = NULL;
    return CC_HARNESS(&CC_ENGINE_UNDER_TEST, CC_REFERENCE_PTR, n, args);
#else
    return CC_HARNESS(&CC_ENGINE_UNDER_TEST, CC_REFERENCE_PTR, argc, argv);
#endif
}
