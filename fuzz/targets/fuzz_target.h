/* Coverage-guided fuzz targets for the parsers. Each defines LLVMFuzzerTestOneInput (the text
 * parsers' targets through text_target.c); built with clang -fsanitize=fuzzer by ci/fuzz.sh they
 * explore, and linked with corpus_main.c they replay their corpus as an ordinary test. A violated
 * property traps: that is how libFuzzer sees it. */
#ifndef CELLCHECK_FUZZ_TARGETS_FUZZ_TARGET_H
#define CELLCHECK_FUZZ_TARGETS_FUZZ_TARGET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "oracle/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_REQUIRE(cond)                                                          \
    do {                                                                            \
        if (!(cond)) {                                                              \
            fprintf(stderr, "%s:%d: property violated: %s\n", __FILE__, __LINE__, #cond); \
            __builtin_trap();                                                       \
        }                                                                           \
    } while (0)

/* Whether a parser refused the input (rc non-zero); a refusal must carry its code and a message. */
static inline int fuzz_refused(int rc, const cc_error *err) {
    if (rc == CC_OK) return 0;
    FUZZ_REQUIRE(err->code == rc && err->msg[0] != '\0');
    return 1;
}

/* The text parsers' targets define this and link text_target.c, whose LLVMFuzzerTestOneInput
 * hands it the input as a NUL-terminated string. */
void fuzz_check_text(const char *text);

#endif
