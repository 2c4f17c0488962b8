/* The main of every engine's tests and benchmark: the driver named by CC_HARNESS (the conformance
 * and bench drivers here, the golden driver in golden/), run on the engine named by
 * CC_ENGINE_UNDER_TEST (both set by cellcheck_engine in engines/defs.bzl). */
#include <string.h>

#include "engines/engine.h"
#include "harness/replay.h"

int CC_HARNESS(const cc_engine *engine, const cc_engine *reference, int argc, char **argv);

extern const cc_engine CC_ENGINE_UNDER_TEST;
#ifdef CC_ENGINE_REFERENCE
extern const cc_engine CC_ENGINE_REFERENCE;
#define CC_REFERENCE_PTR (&CC_ENGINE_REFERENCE)
#else
#define CC_REFERENCE_PTR NULL
#endif

static const cc_engine *find_under_test(const char *name, void *arg) {
    (void)arg;
    return strcmp(name, CC_ENGINE_UNDER_TEST.name) == 0 ? &CC_ENGINE_UNDER_TEST : NULL;
}

#define MAX_ARGS 64

int main(int argc, char **argv) {
    int status;
    if (cc_replay_hook(find_under_test, NULL, &status)) return status;
#ifdef CC_HARNESS_REPLAY
    /* This main replays a case alone when asked to, so the driver may ask for it. */
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
