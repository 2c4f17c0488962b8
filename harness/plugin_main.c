/* The main of a test driver (CC_HARNESS: the conformance driver, or the golden one in golden/) for
 * an engine of a plugin, which no test binary was compiled with:
 *   DRIVER [--plugin PATH]... --engine NAME [the driver's own flags]
 * CELLCHECK_PLUGINS=a.so:b.so loads plugins too. ci/install.sh installs the two drivers as
 * cellcheck-conformance and cellcheck-golden. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine_set.h"
#include "harness/replay.h"

int CC_HARNESS(const cc_engine *engine, const cc_engine *reference, int argc, char **argv);

#define MAX_ARGS 64

static const cc_engine *find(const char *name, void *arg) { return cc_engine_set_find(arg, name); }

/* The value of --NAME VALUE or --NAME=VALUE at argv[*i], advancing *i past it; NULL otherwise. */
static const char *flag_value(const char *name, int argc, char **argv, int *i) {
    size_t n = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, "--", 2) != 0 || strncmp(a + 2, name, n) != 0) return NULL;
    if (a[2 + n] == '=') {
        (*i)++;
        return a + 3 + n;
    }
    if (a[2 + n] != '\0' || *i + 1 >= argc) return NULL;
    *i += 2;
    return argv[*i - 1];
}

static int usage_error(const char *program, const char *msg) {
    fprintf(stderr, "%s: %s\nusage: %s [--plugin PATH]... --engine NAME [options]\n", program, msg,
            program);
    return 2;
}

int main(int argc, char **argv) {
    cc_engine_set set;
    cc_error err = {0};
    int status = 2;
    if (cc_engine_set_init(&set, &err) ||
        cc_engine_set_load_list(&set, getenv("CELLCHECK_PLUGINS"), &err)) {
        fprintf(stderr, "%s: %s\n", argv[0], err.msg);
        cc_engine_set_free(&set);
        return 2;
    }
    if (cc_replay_hook(find, &set, &status)) {
        cc_engine_set_free(&set);
        return status;
    }
    const char *engine_name = NULL, *value;
    int i = 1;
    while (i < argc) {
        if ((value = flag_value("plugin", argc, argv, &i))) {
            if (cc_engine_set_load_file(&set, value, &err)) goto bad;
        } else if ((value = flag_value("engine", argc, argv, &i))) {
            engine_name = value;
        } else {
            break;
        }
    }
    const cc_engine *engine = engine_name ? cc_engine_set_find(&set, engine_name) : NULL;
    if (!engine) {
        cc_fail(&err, CC_ERR_ARG, engine_name ? "no engine named %s in the plugins loaded"
                                              : "--engine NAME is required%s",
                engine_name ? engine_name : "");
        goto bad;
    }
    if (cc_engine_set_export(&set, &err)) goto bad;
    char *args[MAX_ARGS + 2];
    int n = 0;
    args[n++] = argv[0];
    for (; i < argc && n < MAX_ARGS; i++) args[n++] = argv[i];
#ifdef CC_HARNESS_REPLAY
    char replay[] = "--replay-alone"; /* this main replays a case alone when asked to */
    args[n++] = replay;
#endif
    args[n] = NULL;
    status = CC_HARNESS(engine, NULL, n, args);
    cc_engine_set_free(&set);
    return status;
bad:
    status = usage_error(argv[0], err.msg);
    cc_engine_set_free(&set);
    return status;
}
