/* The rank engines of rank_bugs.h as a plugin, so certify runs on them as on any port's engines:
 *   CELLCHECK_DEVICES=2 cellcheck --plugin librank_bugs_plugin.so certify --engine control.ranks */
#include "engines/plugin.h"
#include "fuzz/mutants/rank_bugs.h"

CC_PLUGIN(cc_mutants_rank_bugs())
