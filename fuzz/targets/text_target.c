/* The entry point of the text parsers' targets: the input's bytes as a NUL-terminated string. */
#include <stdlib.h>
#include <string.h>

#include "fuzz/targets/fuzz_target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    fuzz_check_text(text);
    free(text);
    return 0;
}
