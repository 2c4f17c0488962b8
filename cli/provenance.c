/* The provenance of a certificate, read off this run and this machine (provenance.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli/provenance.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli/version.h"
#include "engines/cuda/common/gpu.h"
#include "engines/engine_set.h"
#include "supervise/sandbox.h"

void cli_build_of(cc_build *b) {
    snprintf(b->version, sizeof b->version, "%s", cli_version);
    snprintf(b->commit, sizeof b->commit, "%s", cli_commit);
    snprintf(b->compiler, sizeof b->compiler, "%s", cli_compiler);
    snprintf(b->mode, sizeof b->mode, "%s", cli_compilation_mode);
    snprintf(b->flags, sizeof b->flags, "%s", cli_build_flags);
}

/* The first processor's fields of /proc/cpuinfo. */
static void cpu_read(cc_provenance *p) {
    snprintf(p->cpu_model, sizeof p->cpu_model, "unknown CPU");
    p->cpu_vendor[0] = '\0';
    p->cpu_family = p->cpu_model_number = p->cpu_stepping = -1;
    p->cpu_logical = sysconf(_SC_NPROCESSORS_ONLN);
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '\n') break; /* the end of the first processor's block */
        char *colon = strchr(line, ':');
        if (!colon) continue;
        char *value = colon + 1;
        while (*value == ' ' || *value == '\t') value++;
        size_t len = strlen(value);
        while (len > 0 && (value[len - 1] == '\n' || value[len - 1] == ' ')) value[--len] = '\0';
        char *key_end = colon;
        while (key_end > line && (key_end[-1] == ' ' || key_end[-1] == '\t')) key_end--;
        *key_end = '\0';
        if (strcmp(line, "model name") == 0)
            snprintf(p->cpu_model, sizeof p->cpu_model, "%s", value);
        else if (strcmp(line, "vendor_id") == 0)
            snprintf(p->cpu_vendor, sizeof p->cpu_vendor, "%s", value);
        else if (strcmp(line, "cpu family") == 0)
            p->cpu_family = atoi(value);
        else if (strcmp(line, "model") == 0)
            p->cpu_model_number = atoi(value);
        else if (strcmp(line, "stepping") == 0)
            p->cpu_stepping = atoi(value);
    }
    fclose(f);
}

/* "13.0" from CUDA's 13000. */
static void cuda_version_text(char *buf, size_t size, int version) {
    snprintf(buf, size, "%d.%d", version / 1000, version % 1000 / 10);
}

void cli_provenance_here(cc_provenance *p, int argc, char **argv) {
    cli_build_of(&p->build);
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    strftime(p->date, sizeof p->date, "%Y-%m-%dT%H:%M:%SZ", &utc);
    char plugins[512];
    cc_plugin_args(plugins, sizeof plugins);
    size_t used = (size_t)snprintf(p->command, sizeof p->command, "cellcheck%s", plugins);
    for (int i = 0; i < argc && used < sizeof p->command; i++) {
        char word[1024];
        cc_shell_word(word, sizeof word, argv[i]);
        used += (size_t)snprintf(p->command + used, sizeof p->command - used, " %s", word);
    }
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(p->os, sizeof p->os, "%.60s %.100s %.160s %.40s", u.sysname, u.release,
                 u.version, u.machine);
    else
        snprintf(p->os, sizeof p->os, "unknown");
    cpu_read(p);
    if (gethostname(p->host, sizeof p->host) != 0) snprintf(p->host, sizeof p->host, "unknown");
    p->host[sizeof p->host - 1] = '\0';
}

void cli_provenance_gpu(cc_provenance *p, const cc_certificate *c) {
    p->gpu[0] = p->cuda_driver[0] = p->cuda_runtime[0] = '\0';
    for (int i = 0; i < c->engines; i++)
        if (c->engine[i].hardware == CC_HW_GPU && c->engine[i].seconds > 0) {
            cc_error err;
            if (cc_gpu_describe(p->gpu, sizeof p->gpu, &err))
                snprintf(p->gpu, sizeof p->gpu, "(not described: %.200s)", err.msg);
            int driver, runtime;
            if (cc_gpu_versions(&driver, &runtime, &err)) {
                snprintf(p->cuda_driver, sizeof p->cuda_driver, "unknown");
                snprintf(p->cuda_runtime, sizeof p->cuda_runtime, "unknown");
            } else {
                cuda_version_text(p->cuda_driver, sizeof p->cuda_driver, driver);
                cuda_version_text(p->cuda_runtime, sizeof p->cuda_runtime, runtime);
            }
            return;
        }
}

void cli_sandbox_describe(const cc_supervisor *sv, char *buf, size_t size) {
    char why[256], in[160], out[160];
    uint32_t parts = cc_supervisor_sandbox(sv, why, sizeof why);
    if (!strcmp(why, "off")) {
        snprintf(buf, size, "off (--sandbox off): none of its parts in force");
        return;
    }
    cc_sandbox_parts_describe(parts, in, sizeof in);
    if (parts == CC_SANDBOX_ALL) { /* a part in force may say how it is narrowed */
        snprintf(buf, size, why[0] ? "in force: %s (%.200s)" : "in force: %s", in, why);
        return;
    }
    cc_sandbox_parts_describe(CC_SANDBOX_ALL & ~parts, out, sizeof out);
    snprintf(buf, size, "in force: %s; not in force: %s (%.200s)", in, out, why);
}
