/* The main of every engine's tests and benchmark: the driver named by CC_HARNESS (the conformance
 * and bench drivers here, the golden driver in golden/), run on the engine named by
 * CC_ENGINE_UNDER_TEST (both set by cellcheck_engine in engines/defs.bzl). */
#include "engines/engine.h"

int CC_HARNESS(const cc_engine *engine, const cc_engine *reference, int argc, char **argv);

extern const cc_engine CC_ENGINE_UNDER_TEST;
#ifdef CC_ENGINE_REFERENCE
extern const cc_engine CC_ENGINE_REFERENCE;
#define CC_REFERENCE_PTR (&CC_ENGINE_REFERENCE)
#else
#define CC_REFERENCE_PTR NULL
#endif

int main(int argc, char **argv) { return CC_HARNESS(&CC_ENGINE_UNDER_TEST, CC_REFERENCE_PTR, argc, argv); }
