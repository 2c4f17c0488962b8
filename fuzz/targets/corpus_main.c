/* Replays every file of the corpus directories given as arguments through the fuzz target, so the
 * corpus is a regression test where libFuzzer is not installed. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/targets/fuzz_target.h"
#include "oracle/gridio.h"

int main(int argc, char **argv) {
    long inputs = 0;
    for (int i = 1; i < argc; i++) {
        DIR *dir = opendir(argv[i]);
        if (!dir) {
            fprintf(stderr, "corpus directory %s cannot be opened\n", argv[i]);
            return 1;
        }
        for (struct dirent *e; (e = readdir(dir));) {
            if (e->d_name[0] == '.') continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            char *text = NULL;
            size_t len = 0;
            cc_error err = {0};
            if (cc_read_file(path, &text, &len, &err)) {
                fprintf(stderr, "%s\n", err.msg);
                closedir(dir);
                return 1;
            }
            LLVMFuzzerTestOneInput((const uint8_t *)text, len);
            free(text);
            inputs++;
        }
        closedir(dir);
    }
    if (inputs == 0) {
        fprintf(stderr, "no corpus inputs: nothing was checked\n");
        return 1;
    }
    printf("%ld corpus inputs replayed, every property held\n", inputs);
    return 0;
}
