/* The buffer bugs of buffer_bugs.h as a plugin, so certify runs on them as on any port's engines:
 *   cellcheck --plugin libbuffer_bugs_plugin.so certify --engine mutant.aligned-store */
#include "engines/plugin.h"
#include "fuzz/mutants/buffer_bugs.h"

CC_PLUGIN(cc_mutants_buffer_bugs())
