/* Opening a supervisor (supervisor.h): the plugin paths made absolute, the shared grid file
 * made, and a first worker asked to describe every engine it knows; and closing it. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "supervise/supervisor_internal.h"

static int describe_all(cc_supervisor *sv, cc_error *err) {
    sv_request req = {.op = SV_OP_HELLO};
    sv_reply rep;
    call_info ci = {.engine = "worker", .limit_s = sv->opt.time_floor_s};
    snprintf(ci.what, sizeof ci.what, "describing the engines");
    int rc = sv_call(sv, &req, &rep, NULL, 0, &ci, err);
    if (rc) return rc;
    size_t count = rep.count;
    sv->engines = calloc(count + 1, sizeof *sv->engines);
    sv->set.engines = calloc(count + 1, sizeof *sv->set.engines);
    sv->set.origins = calloc(count + 1, sizeof *sv->set.origins);
    if (!sv->engines || !sv->set.engines || !sv->set.origins)
        return cc_fail(err, CC_ERR_NOMEM, "out of memory for the engine descriptions");
    for (size_t i = 0; i < count; i++) {
        sv_description d;
        sv_request dr = {.op = SV_OP_DESCRIBE, .engine = (uint32_t)i};
        if ((rc = sv_call(sv, &dr, &rep, &d, sizeof d, &ci, err))) return rc;
        sv_engine *e = calloc(1, sizeof *e);
        if (!e) return cc_fail(err, CC_ERR_NOMEM, "out of memory for an engine description");
        sv->engines[sv->count++] = e;
        d.name[sizeof d.name - 1] = d.summary[sizeof d.summary - 1] = '\0';
        d.limits[sizeof d.limits - 1] = '\0';
        sv_describe(e, sv, (uint32_t)i, &d);
        sv->set.engines[sv->set.count] = &e->table;
        sv->set.origins[sv->set.count++] =
            d.plugin >= 0 && (size_t)d.plugin < sv->nplugins ? sv->plugins[d.plugin] : NULL;
    }
    sv->set.room = count + 1;
    sv->set.paths = sv->plugins;
    sv->set.prefixes = sv->prefixes;
    sv->set.plugins = sv->nplugins;
    return CC_OK;
}

int cc_supervisor_open(const char *const *plugins, size_t nplugins,
                       const cc_supervisor_options *opt, cc_supervisor **out, cc_error *err) {
    return sv_open(plugins, nplugins, opt, 0, out, err);
}

int sv_open(const char *const *plugins, size_t nplugins, const cc_supervisor_options *opt,
            pid_t join, cc_supervisor **out, cc_error *err) {
    *out = NULL;
    cc_supervisor *sv = calloc(1, sizeof *sv);
    if (!sv) return cc_fail(err, CC_ERR_NOMEM, "out of memory for the supervisor");
    sv->join = join;
    sv->sock = -1;
    sv->shm = -1;
    sv->statm = -1;
    sv->report = -1;
    sv->scratch_lock = -1;
    sv->page = (double)sysconf(_SC_PAGESIZE);
    if (opt) sv->opt = *opt;
    else cc_supervisor_options_init(&sv->opt);
    int rc = CC_OK;
    ssize_t len = readlink("/proc/self/exe", sv->exe, sizeof sv->exe - 1);
    if (len <= 0) {
        rc = cc_fail(err, CC_ERR_IO, "cannot find this executable to start workers: %s",
                     strerror(errno));
        goto fail;
    }
    sv->exe[len] = '\0';
    sv->plugins = calloc(nplugins + 1, sizeof *sv->plugins);
    sv->specs = calloc(nplugins + 1, sizeof *sv->specs);
    sv->prefixes = calloc(nplugins + 1, sizeof *sv->prefixes);
    if (!sv->plugins || !sv->specs || !sv->prefixes) {
        rc = cc_fail(err, CC_ERR_NOMEM, "out of memory for the plugin list");
        goto fail;
    }
    for (size_t i = 0; i < nplugins; i++) {
        char path[PATH_MAX], absolute[PATH_MAX];
        const char *prefix;
        if ((rc = cc_plugin_spec_split(plugins[i], path, sizeof path, &prefix, err))) goto fail;
        if (!realpath(path, absolute)) {
            rc = cc_fail(err, CC_ERR_ARG, "plugin %s cannot be loaded: no such file", path);
            goto fail;
        }
        /* One library named twice under one prefix (CELLCHECK_PLUGINS and --plugin, as a
         * reproducer run where the environment still names its plugin) is loaded once; under
         * two prefixes, twice. */
        int again = 0;
        for (size_t j = 0; j < sv->nplugins && !again; j++)
            again = !strcmp(sv->plugins[j], absolute) &&
                    !strcmp(sv->prefixes[j] ? sv->prefixes[j] : "", prefix ? prefix : "");
        if (again) continue;
        size_t len = strlen(absolute) + (prefix ? strlen(prefix) + 1 : 0) + 1;
        char *spec = malloc(len), *copy = strdup(absolute);
        if (!spec || !copy) {
            free(spec);
            free(copy);
            rc = cc_fail(err, CC_ERR_NOMEM, "out of memory for the plugin list");
            goto fail;
        }
        snprintf(spec, len, "%s%s%s", absolute, prefix ? ":" : "", prefix ? prefix : "");
        sv->prefixes[sv->nplugins] = prefix ? spec + strlen(absolute) + 1 : NULL;
        sv->specs[sv->nplugins] = spec;
        sv->plugins[sv->nplugins++] = copy;
    }
    sv->shm = memfd_create("cellcheck-grid", MFD_CLOEXEC);
    if (sv->shm < 0) {
        rc = cc_fail(err, CC_ERR_IO, "cannot make the shared grid file: %s", strerror(errno));
        goto fail;
    }
    if ((rc = sv_grow_shared(sv, SV_GRID_OFFSET + SV_GUARD_BYTES + 4096, err))) goto fail;
    if ((rc = describe_all(sv, err))) goto fail;
    *out = sv;
    return CC_OK;
fail:
    sv_close(sv);
    return rc;
}

void sv_close(cc_supervisor *sv) {
    if (!sv) return;
    sv_retire_worker(sv);
    for (size_t i = 0; i < sv->count; i++) free(sv->engines[i]);
    free(sv->engines);
    free(sv->set.engines);
    free(sv->set.origins);
    for (size_t i = 0; i < sv->nplugins; i++) {
        free(sv->plugins[i]);
        free(sv->specs[i]);
    }
    free(sv->plugins);
    free(sv->specs);
    free(sv->prefixes);
    if (sv->map) munmap(sv->map, sv->map_bytes);
    if (sv->shm >= 0) close(sv->shm);
    free(sv);
}

