/* cellcheck list: the engines, their capabilities, and whether each can run here (or why not). */
#include <stdio.h>

#include "cli/commands.h"
#include "supervise/supervisor.h"
#include "cli/common.h"

static const char about[] =
    "The engines, their capabilities, and whether each can run here (or why\n"
    "not). With --over-devices, only the names of the engines that spread one\n"
    "grid over several devices (CELLCHECK_DEVICES=N), one a line.";

int cli_cmd_list(const cc_engine_set *engines, int argc, char **argv) {
    int over_devices = 0;
    cc_option opts[] = {
        CC_OPTION_FLAG("over-devices", &over_devices,
                       "only the names of the engines over several devices"),
    };
    cc_command cmd = {"cellcheck list", about, opts, 1};
    int status;
    if (cli_parse(&cmd, argc, argv, &status)) return status;
    if (over_devices) {
        /* From the table, not from the caps' words: what a script loops over */
        for (const cc_engine *const *e = engines->engines; *e; e++)
            if ((*e)->devices) printf("%s\n", (*e)->name);
        return 0;
    }
    printf("%-14s %-8s %-5s %s\n", "engine", "needs", "here", "capabilities / summary");
    printf("%-14s %-8s %-5s %s\n", "oracle", "cpu", "yes",
           "every shape, r 1..500, M0,M1, any W, H >= 2r+1 / the definition");
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
