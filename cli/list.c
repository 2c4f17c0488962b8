/* cellcheck list: the engines, their capabilities, and whether each can run here (or why not). */
#include <stdio.h>

#include <jansson.h>

#include "cli/commands.h"
#include "supervise/supervisor.h"
#include "cli/common.h"

#define ORACLE_CAPS "every shape, r 1..500, M0,M1, any W, H >= 2r+1"

static const char about[] =
    "The engines, their capabilities, and whether each can run here (or why\n"
    "not). With --over-devices, only the names of the engines that spread one\n"
    "grid over several devices (CELLCHECK_DEVICES=N), one a line. With --json,\n"
    "one JSON document: {\"engines\": [{name, needs, here, why_not, caps,\n"
    "summary, plugin, over_devices}]}, the oracle first.";

/* One engine's entry; NULL where jansson ran out of memory. */
static json_t *entry(const char *name, const char *needs, int here, const char *why,
                     const char *caps, const char *summary, const char *plugin, int devices) {
    return json_pack("{s:s, s:s, s:b, s:s?, s:s, s:s, s:s?, s:b}", "name", name, "needs", needs,
                     "here", here, "why_not", why, "caps", caps, "summary", summary, "plugin",
                     plugin, "over_devices", devices);
}

static int list_json(const cc_engine_set *engines) {
    json_t *list = json_array();
    int failed = !list ||
                 json_array_append_new(list, entry("oracle", "cpu", 1, NULL, ORACLE_CAPS,
                                                   "the definition", NULL, 0));
    for (const cc_engine *const *e = engines->engines; *e && !failed; e++) {
        char caps[512];
        cc_error why = {0};
        int rc = cc_call_available(*e, &why);
        cc_engine_describe_caps(*e, caps, sizeof caps);
        json_t *o = entry((*e)->name, cc_hardware_name((*e)->hardware), !rc,
                          rc ? why.msg : NULL, caps, (*e)->summary ? (*e)->summary : "",
                          cc_engine_set_origin(engines, *e), (*e)->devices != NULL);
        failed = !o || json_array_append_new(list, o);
    }
    json_t *doc = failed ? NULL : json_pack("{s:o}", "engines", list);
    if (!doc) {
        if (!failed) list = NULL; /* json_pack took it */
        json_decref(list);
        fprintf(stderr, "cellcheck: out of memory for list's JSON\n");
        return 1;
    }
    failed = json_dumpf(doc, stdout, JSON_INDENT(1) | JSON_ENSURE_ASCII) != 0;
    json_decref(doc);
    if (failed || puts("") == EOF || fflush(stdout)) {
        fprintf(stderr, "cellcheck: writing list's JSON to stdout failed\n");
        return 1;
    }
    return 0;
}

int cli_cmd_list(const cc_engine_set *engines, int argc, char **argv) {
    int over_devices = 0, json = 0;
    cc_option opts[] = {
        CC_OPTION_FLAG("over-devices", &over_devices,
                       "only the names of the engines over several devices"),
        CC_OPTION_FLAG("json", &json, "the same as one JSON document"),
    };
    cc_command cmd = {"cellcheck list", about, opts, 2};
    int status;
    if (cli_parse(&cmd, argc, argv, &status)) return status;
    if (over_devices && json) {
        cc_error err;
        cc_fail(&err, CC_ERR_ARG, "--json lists every engine with over_devices: not beside "
                                  "--over-devices");
        return cli_bad_usage(&cmd, &err);
    }
    if (json) return list_json(engines);
    if (over_devices) {
        /* From the table, not from the caps' words: what a script loops over */
        for (const cc_engine *const *e = engines->engines; *e; e++)
            if ((*e)->devices) printf("%s\n", (*e)->name);
        return 0;
    }
    printf("%-14s %-8s %-5s %s\n", "engine", "needs", "here", "capabilities / summary");
    printf("%-14s %-8s %-5s %s / the definition\n", "oracle", "cpu", "yes", ORACLE_CAPS);
    for (const cc_engine *const *e = engines->engines; *e; e++) {
        char caps[512];
        cc_error why = {0};
        int rc = cc_call_available(*e, &why);
        cc_engine_describe_caps(*e, caps, sizeof caps);
        printf("%-14s %-8s %-5s %s / %s\n", (*e)->name, cc_hardware_name((*e)->hardware),
               rc ? "no" : "yes", caps, (*e)->summary);
        if (rc) printf("%-14s %-8s %-5s not here: %s\n", "", "", "", why.msg);
        const char *origin = cc_engine_set_origin(engines, *e);
        if (origin) printf("%-14s %-8s %-5s from the plugin %s\n", "", "", "", origin);
    }
    return 0;
}
