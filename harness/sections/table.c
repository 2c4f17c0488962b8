/* Every section, in the order of list.h: the run iterates it. */
#include "harness/sections/section.h"

const conformance_section *const conformance_sections[CC_CHECK_SECTION_COUNT] = {
#define CC_SECTION_ROW(KEY, file, id, name) [CC_CHECK_##KEY] = &section_##file,
#include "harness/sections/list.h"
#undef CC_SECTION_ROW
};
