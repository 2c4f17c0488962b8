/* A plugin whose constructor crashes while it is being loaded (faults.h). */
#include "engines/plugin.h"
#include "fuzz/mutants/mutants.h"

static int *volatile nowhere;

__attribute__((constructor)) static void crash_on_load(void) { *nowhere = 1; }

static const cc_engine *const engines[] = {&cc_mutant_control, NULL};
CC_PLUGIN(engines)
