/* The CUDA engine bugs as a plugin, so certify runs on them as on any port's engines:
 *   cellcheck --plugin libgpu_bugs.so certify --engine mutant.offset32 */
#include "engines/plugin.h"
#include "fuzz/mutants/launch_rows.h"
#include "fuzz/mutants/legacy_load.h"
#include "fuzz/mutants/offset32.h"

static const cc_engine *const gpu_bugs[] = {&cc_mutant_offset32, &cc_mutant_launch_rows,
                                            &cc_mutant_legacy_load, NULL};

CC_PLUGIN(gpu_bugs)
