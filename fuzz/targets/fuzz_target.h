/* Coverage-guided fuzz targets for the parsers. Each defines LLVMFuzzerTestOneInput; built with
 * clang -fsanitize=fuzzer by ci/fuzz.sh they explore, and linked with corpus_main.c they replay
 * their corpus as an ordinary test. A violated property traps: that is how libFuzzer sees it. */
#ifndef CELLCHECK_FUZZ_TARGETS_FUZZ_TARGET_H
#define CELLCHECK_FUZZ_TARGETS_FUZZ_TARGET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_REQUIRE(cond)                                                          \
    do {                                                                            \
        if (!(cond)) {                                                              \
            fprintf(stderr, "%s:%d: property violated: %s\n", __FILE__, __LINE__, #cond); \
            __builtin_trap();                                                       \
        }                                                                           \
    } while (0)

#endif
