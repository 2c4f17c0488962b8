/* The main of every engine's tests and benchmark: the harness named by CC_HARNESS, run on the
 * engine named by CC_ENGINE_UNDER_TEST (both set by cellcheck_engine in engines/defs.bzl). */
#include "engines/harness.h"

extern const cc_engine CC_ENGINE_UNDER_TEST;
#ifdef CC_ENGINE_REFERENCE
extern const cc_engine CC_ENGINE_REFERENCE;
#define CC_REFERENCE_PTR (&CC_ENGINE_REFERENCE)
#else
#define CC_REFERENCE_PTR NULL
#endif

int main(int argc, char **argv) { return CC_HARNESS(&CC_ENGINE_UNDER_TEST, CC_REFERENCE_PTR, argc, argv); }
