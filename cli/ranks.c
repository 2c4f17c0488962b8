/* cellcheck ranks: one rank of an engine that runs as one process per device, started by a
 * launcher (srun, mpirun) or by hand: every process runs this command on the same case, rank 0
 * hands its id to the others through a file in a directory they share, each steps its slab in a
 * worker of its own and checks it against the oracle. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "engines/slabs/slabs.h"
#include "oracle/case.h"
#include "oracle/cells.h"
#include "oracle/oracle.h"
#include "supervise/supervisor.h"

static const char about[] =
    "One rank of an engine that runs as one process per device (cellcheck list says which):\n"
    "each process of a launcher's job (srun -n N, mpirun -n N) runs this command on the same\n"
    "case. The rank and rank count come from --rank and --ranks, else from the launcher\n"
    "(SLURM_PROCID and SLURM_NTASKS, OMPI_COMM_WORLD_RANK and _SIZE, PMI_RANK and PMI_SIZE), the\n"
    "device from --device, else the launcher's local rank (SLURM_LOCALID, OMPI_COMM_WORLD_\n"
    "LOCAL_RANK), else 0. Rank 0 writes the id the ranks join by into the --rendezvous\n"
    "directory, which every rank reads (a fresh directory each run, on a filesystem they all\n"
    "see). Each rank steps its slab of rows in a worker of its own, which keeps the host's\n"
    "network (the sandbox's network part is not in force), and compares it with the oracle's.\n"
    "Exit 0 when its slab is right, 1 when it differs or the engine failed, 2 for bad input.";

#define ID_FILE "rank-id"

typedef struct launch {
    int64_t rank, ranks, device;
} launch;

/* The first of names that the environment sets to a number, into *out; 0 when none is. */
static int from_env(const char *const *names, int64_t *out) {
    for (; *names; names++) {
        const char *v = getenv(*names);
        char *end;
        if (!v || !*v) continue;
        errno = 0;
        long long n = strtoll(v, &end, 10);
        if (!errno && !*end && n >= 0) {
            *out = n;
            return 1;
        }
    }
    return 0;
}

static int place(launch *l, int rank_given, int ranks_given, int device_given, cc_error *err) {
    static const char *const rank_names[] = {"SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
                                             NULL};
    static const char *const size_names[] = {"SLURM_NTASKS", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
                                             NULL};
    static const char *const local_names[] = {"SLURM_LOCALID", "OMPI_COMM_WORLD_LOCAL_RANK",
                                              NULL};
    if (!rank_given && !from_env(rank_names, &l->rank))
        return cc_fail(err, CC_ERR_ARG, "no rank: give --rank, or run under srun or mpirun");
    if (!ranks_given && !from_env(size_names, &l->ranks))
        return cc_fail(err, CC_ERR_ARG, "no rank count: give --ranks, or run under srun or mpirun");
    if (!device_given && !from_env(local_names, &l->device)) l->device = 0;
    if (l->ranks < 1 || l->rank >= l->ranks)
        return cc_fail(err, CC_ERR_ARG, "rank %lld of %lld: a rank is 0 .. ranks - 1",
                       (long long)l->rank, (long long)l->ranks);
    return CC_OK;
}

/* Rank 0's id, written whole (a temporary file renamed) into dir, which must not hold one yet: a
 * rank of this run must never read an earlier run's. */
static int publish(const char *dir, const uint8_t *id, cc_error *err) {
    char path[4096], tmp[4096 + 16];
    snprintf(path, sizeof path, "%s/" ID_FILE, dir);
    snprintf(tmp, sizeof tmp, "%s.%ld", path, (long)getpid());
    if (access(path, F_OK) == 0)
        return cc_fail(err, CC_ERR_ARG, "--rendezvous %s holds an id already (an earlier run's?): "
                                        "give each run a fresh directory", dir);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return cc_fail(err, CC_ERR_IO, "cannot write %s: %s", tmp, strerror(errno));
    const ssize_t n = write(fd, id, CC_RANK_ID_BYTES);
    const int synced = fsync(fd);
    close(fd);
    if (n != CC_RANK_ID_BYTES || synced != 0 || rename(tmp, path) != 0) {
        unlink(tmp);
        return cc_fail(err, CC_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    }
    return CC_OK;
}

/* The id rank 0 wrote into dir, waited for up to wait_s seconds. */
static int await_id(const char *dir, double wait_s, uint8_t *id, cc_error *err) {
    char path[4096];
    snprintf(path, sizeof path, "%s/" ID_FILE, dir);
    for (double waited = 0; waited <= wait_s; waited += 0.05) {
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            const ssize_t n = read(fd, id, CC_RANK_ID_BYTES);
            close(fd);
            if (n == CC_RANK_ID_BYTES) return CC_OK;
            return cc_fail(err, CC_ERR_IO, "%s holds %zd bytes, not an id", path, n);
        }
        struct timespec t = {0, 50000000};
        nanosleep(&t, NULL);
    }
    return cc_fail(err, CC_ERR_TIMEOUT, "no id from rank 0 in %s after %.0f s", path, wait_s);
}

/* The rank's run: its context, its slab loaded, stepped and stored into got. */
static int run_rank(const cc_engine *e, const cc_case *c, const cc_rank *r, const cc_grid *init,
                    uint8_t *got, cc_error *err) {
    cc_context *ctx = NULL;
    int rc = cc_call_rank_create(e, &c->rule, c->w, c->h, r, &ctx, err);
    const size_t at = (size_t)r->row0 * (size_t)c->w;
    if (!rc) rc = cc_call_load(ctx, init->cells + at, err);
    if (!rc && c->steps > 0) rc = cc_call_step(ctx, c->steps, err);
    if (!rc) rc = cc_call_store(ctx, got, err);
    cc_error ignored;
    const int destroyed = cc_call_destroy(ctx, &ignored);
    return rc ? rc : destroyed ? (*err = ignored, destroyed) : CC_OK;
}

int cli_cmd_ranks(const cc_engine_set *engines, int argc, char **argv) {
    const char *name = NULL, *line = NULL, *dir = NULL;
    launch l = {0, 0, 0};
    int64_t wait_s = 60;
    cc_option opts[] = {
        cli_engine_option(&name, 1, "the engine (one that runs as ranks)"),
        CC_OPTION_STRING("case", "'CASE LINE'", &line, "the case every rank runs"),
        CC_OPTION_STRING("rendezvous", "DIR", &dir,
                         "a fresh directory all ranks see, where rank 0 writes the id"),
        CC_OPTION_INT64("rank", "R", &l.rank, 0, 1 << 20, "this process's rank"),
        CC_OPTION_INT64("ranks", "N", &l.ranks, 1, 1 << 20, "how many ranks the job has"),
        CC_OPTION_INT64("device", "D", &l.device, 0, 1 << 20, "this rank's device on its host"),
        CC_OPTION_INT64("wait", "SECONDS", &wait_s, 0, 86400,
                        "how long a rank waits for rank 0's id (default 60)"),
    };
    opts[1].required = opts[2].required = 1;
    cc_command cmd = {"cellcheck ranks", about, opts, sizeof opts / sizeof opts[0]};
    int status;
    if (cli_parse(&cmd, argc, argv, &status)) return status;
    cc_error err = {0};
    cc_case c;
    const cc_engine *e = NULL;
    if (place(&l, opts[3].given, opts[4].given, opts[5].given, &err) ||
        case_parse(line, &c, &err) || !(e = cli_find_engine(engines, name, &err)))
        return cli_bad_usage(&cmd, &err);
    if (!cc_call_ranked(e)) {
        cc_fail(&err, CC_ERR_ARG, "%s does not run as ranks (it has no rank_id and rank_create)",
                e->name);
        return cli_bad_usage(&cmd, &err);
    }
    if (cc_engine_check(e, &c.rule, c.w, c.h, &err)) return cli_bad_usage(&cmd, &err);
    if (l.ranks > c.h) {
        cc_fail(&err, CC_ERR_ARG, "%lld ranks for %d rows: a rank holds one row at least",
                (long long)l.ranks, (int)c.h);
        return cli_bad_usage(&cmd, &err);
    }
    struct stat st;
    char id_path[4096];
    snprintf(id_path, sizeof id_path, "%s/" ID_FILE, dir);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        cc_fail(&err, CC_ERR_ARG, "--rendezvous %s is not a directory", dir);
    else if (l.rank == 0 && access(id_path, F_OK) == 0)
        cc_fail(&err, CC_ERR_ARG, "--rendezvous %s holds an id already (an earlier run's?): give "
                                  "each run a fresh directory", dir);
    if (err.code) return cli_bad_usage(&cmd, &err);
    if (cli_unavailable(e, "", &err)) return cli_failed(&err);
    cc_supervisor *sv = cc_supervisor_of(e);
    cc_supervisor_options so = cc_supervisor_get_options(sv);
    so.launcher_rank = 1;
    cc_supervisor_set_options(sv, &so);
    cc_rank r = {.rank = (int32_t)l.rank, .ranks = (int32_t)l.ranks, .device = (int32_t)l.device};
    r.row0 = cc_slabs_first_row(c.h, r.ranks, r.rank);
    r.rows = cc_slabs_first_row(c.h, r.ranks, r.rank + 1) - r.row0;
    /* One rank joins no one: its id stays zeros (engine.h). */
    int rc = r.ranks == 1   ? CC_OK
             : r.rank == 0 ? cc_call_rank_id(e, r.id, &err)
                           : await_id(dir, (double)wait_s, r.id, &err);
    if (!rc && r.rank == 0) rc = publish(dir, r.id, &err);
    char where[160];
    snprintf(where, sizeof where, "%s: rank %d of %d (device %d, rows %d..%d)", e->name,
             (int)r.rank, (int)r.ranks, (int)r.device, (int)r.row0, (int)(r.row0 + r.rows - 1));
    if (rc) return fprintf(stderr, "%s: %s\n", where, err.msg), 1;
    cc_grid init = {0}, want = {0};
    const size_t slab = (size_t)r.rows * (size_t)c.w;
    uint8_t *got = malloc(slab ? slab : 1);
    if (!got) rc = cc_fail(&err, CC_ERR_NOMEM, "no memory for a slab of %zu cells", slab);
    if (!rc) rc = case_grid(&c, &init, &err);
    if (!rc) rc = cc_grid_copy(&want, &init, &err);
    if (!rc) rc = run_rank(e, &c, &r, &init, got, &err);
    if (!rc && (rc = oracle_run(&c.rule, &want, c.steps, &err))) cc_prefix(&err, "the oracle");
    size_t first = 0, differ = 0;
    if (!rc)
        differ = cc_cells_count_differing(got, want.cells + (size_t)r.row0 * (size_t)c.w, slab,
                                          &first);
    char why[512];
    const uint32_t parts = cc_supervisor_sandbox(sv, why, sizeof why);
    if (rc) printf("%s: FAILED: %s\n", where, err.msg);
    else if (differ)
        printf("%s: FAILED: %zu of its %zu cells differ from the oracle after %lld steps, first "
               "(%d,%d): %d, not %d\n",
               where, differ, slab, (long long)c.steps, (int)(first % (size_t)c.w),
               (int)(r.row0 + (int32_t)(first / (size_t)c.w)), got[first],
               want.cells[(size_t)r.row0 * (size_t)c.w + first]);
    else printf("%s: passed: its %zu cells agree with the oracle after %lld steps\n", where, slab,
                (long long)c.steps);
    printf("%s: sandbox parts 0x%x; %s\n", where, (unsigned)parts, why[0] ? why : "all in force");
    free(got);
    cc_grid_free(&init);
    cc_grid_free(&want);
    return rc || differ ? 1 : 0;
}
