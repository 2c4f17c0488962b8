/* The engine bugs of engine_bugs.h as a plugin, so certify runs on them as on any port's engines:
 *   cellcheck --plugin libengine_bugs_plugin.so certify --engine mutant.vn-wide,control.vn-r4 */
#include "engines/plugin.h"
#include "fuzz/mutants/engine_bugs.h"

CC_PLUGIN(cc_mutants_engine_bugs())
