/* certify --merge DIR: the shard files in DIR's subdirectories read into records, merged into
 * one record, and written as the one certificate a whole run would have written (certify.h). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/certificate/render.h"
#include "cli/certificate/shard.h"
#include "cli/certify.h"
#include "cli/common.h"
#include "cli/provenance.h"
#include "cli/version.h"
#include "oracle/case.h"

static int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every DIR/<sub>/shard.txt, sorted by name. */
static int find_shards(const char *dir, char ***paths, int *n, cc_error *err) {
    *paths = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d) return cc_fail(err, CC_ERR_IO, "--merge %s is not a directory that can be read", dir);
    int rc = CC_OK, room = 0;
    for (struct dirent *ent; rc == CC_OK && (ent = readdir(d)) != NULL;) {
        if (ent->d_name[0] == '.') continue;
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s/shard.txt", dir, ent->d_name);
        if (stat(path, &st) != 0) continue;
        if (*n == room) {
            room = room ? 2 * room : 16;
            char **more = realloc(*paths, (size_t)room * sizeof *more);
            if (!more) {
                rc = cc_fail(err, CC_ERR_NOMEM, "--merge: out of memory");
                break;
            }
            *paths = more;
        }
        if (!((*paths)[*n] = strdup(path))) rc = cc_fail(err, CC_ERR_NOMEM, "--merge: out of memory");
        else (*n)++;
    }
    closedir(d);
    if (rc == CC_OK && *n == 0)
        rc = cc_fail(err, CC_ERR_ARG, "--merge %s holds no shard (no %s/*/shard.txt)", dir, dir);
    if (rc == CC_OK) qsort(*paths, (size_t)*n, sizeof **paths, by_name);
    return rc;
}

static void free_paths(char **paths, int n) {
    for (int i = 0; i < n; i++) free(paths[i]);
    free(paths);
}

/* The merged record's engines as this binary knows them (hardware, caps, plugin path), and the
 * provenance of this merge: the date, the command and the OS here, the CPU of the shards. */
static int complete(cc_certificate *m, const cc_engine_set *engines, int argc, char **argv,
                    cc_error *err) {
    /* The engines are this binary's: the shards must come from the same build. */
    cc_build here;
    cli_build_of(&here);
    const cc_build *b = &m->prov.build;
    if (strcmp(b->commit, here.commit) || strcmp(b->version, here.version) ||
        strcmp(b->flags, here.flags) || strcmp(b->compiler, here.compiler))
        return cc_fail(err, CC_ERR_ARG,
                       "--merge: the shards come from cellcheck %s (commit %s), not from this "
                       "build, %s (commit %s)",
                       b->version, b->commit, here.version, here.commit);
    for (int i = 0; i < m->engines; i++) {
        cc_certificate_engine *r = &m->engine[i];
        const cc_engine *e = cli_find_engine(engines, r->name, err);
        if (!e) return cc_prefix(err, "--merge: the shards certified %s", r->name);
        const char *plugin = cc_engine_set_origin(engines, e);
        snprintf(r->plugin, sizeof r->plugin, "%s", plugin ? plugin : "");
        r->hardware = e->hardware;
        cc_engine_describe_caps(e, r->caps, sizeof r->caps);
        if (r->verdict == CC_VERDICT_CERTIFIED && r->golden.passed == 0) {
            r->verdict = CC_VERDICT_FAILED;
            snprintf(r->reason, sizeof r->reason, "no golden case fits the engine");
        }
    }
    /* The seed as one run writes it. */
    uint8_t master[CC_SEED_BYTES];
    if (case_seed_parse_hex(m->prov.seed, master, err)) return cc_prefix(err, "--merge");
    case_seed_format_hex(master, m->prov.seed);
    cc_provenance here_prov;
    memset(&here_prov, 0, sizeof here_prov);
    cli_provenance_here(&here_prov, argc, argv);
    cc_provenance *p = &m->prov;
    snprintf(p->date, sizeof p->date, "%s", here_prov.date);
    snprintf(p->command, sizeof p->command, "%s", here_prov.command);
    snprintf(p->os, sizeof p->os, "%s", here_prov.os);
    /* The CPU's details are this machine's, not the shards': the vendor left out says so. */
    p->cpu_vendor[0] = '\0';
    p->cpu_family = here_prov.cpu_family;
    p->cpu_model_number = here_prov.cpu_model_number;
    p->cpu_stepping = here_prov.cpu_stepping;
    p->cpu_logical = 0;
    p->cuda_driver[0] = p->cuda_runtime[0] = '\0';
    return CC_OK;
}

int cli_certify_merge(const cc_engine_set *engines, const char *dir, const char *out_dir,
                      const char *junit, const char *accept, int argc, char **argv) {
    cc_error err = {0};
    char **paths = NULL;
    int n = 0;
    if (find_shards(dir, &paths, &n, &err)) return cli_failed(&err) + 1; /* bad input */
    cc_certificate *shards = calloc((size_t)n, sizeof *shards), merged;
    memset(&merged, 0, sizeof merged);
    if (!shards) {
        free_paths(paths, n);
        cc_fail(&err, CC_ERR_NOMEM, "--merge: out of memory");
        return cli_failed(&err);
    }
    int rc = CC_OK, read = 0;
    for (; read < n && rc == CC_OK; read++) rc = cc_shard_read(paths[read], &shards[read], &err);
    if (rc) read--;
    if (rc == CC_OK) rc = cc_shards_merge(shards, (const char *const *)paths, n, &merged, &err);
    if (rc == CC_OK) rc = complete(&merged, engines, argc, argv, &err);
    int counts[4] = {0};
    if (rc == CC_OK) {
        for (int i = 0; i < merged.engines; i++)
            cc_certificate_settle_gaps(&merged.engine[i], accept);
        printf("cellcheck certificate merged from %d shards (%" PRIu64 " cases per engine)\n\n", n,
               merged.prov.cases);
        cc_certificate_table(stdout, &merged);
        cc_certificate_print_gaps(stdout, &merged);
        cc_certificate_count(&merged, counts);
        rc = cli_certificate_write(out_dir, &merged, &err);
        if (!rc && junit) rc = cli_junit_write(junit, &merged, &err);
    }
    if (rc == CC_OK)
        printf("%d certified, %d failed, %d not run here, %d incomplete\n",
               counts[CC_VERDICT_CERTIFIED], counts[CC_VERDICT_FAILED],
               counts[CC_VERDICT_NOT_RUN], counts[CC_VERDICT_INCOMPLETE]);
    for (int i = 0; i < read; i++) cc_certificate_free(&shards[i]);
    free(shards);
    cc_certificate_free(&merged);
    free_paths(paths, n);
    /* Shards that do not make one run are bad input (2), not a failed engine (1). */
    if (rc) return cli_failed(&err) + (rc == CC_ERR_ARG);
    return counts[CC_VERDICT_FAILED] ? 1 : counts[CC_VERDICT_INCOMPLETE] ? CLI_EXIT_INCOMPLETE : 0;
}
