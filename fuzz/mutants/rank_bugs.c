/* Ranks in processes of their own, right and wrong (rank_bugs.h). Rank 0's id holds the port it
 * listens on; every other rank listens on a port of its own, tells rank 0 which, and gets the
 * table back, then the ranks connect pairwise: a stream between every two ranks, over which the
 * halo pieces of engines/slabs go in the order of the receiving slab's pieces. */
#define _GNU_SOURCE
#include "fuzz/mutants/rank_bugs.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "engines/slabs/slabs.h"
#include "oracle/grid.h"
#include "oracle/oracle.h"

#define RANKS_DEFAULT 3
#define RANKS_MAX 16
#define STEPS 4                  /* steps a launch: the halo is r x STEPS rows */
#define JOIN_WAIT_S 30.0         /* how long a rank tries to reach another before it gives up */
#define ID_MAGIC 0x6b6e6172u     /* "rank" */
#define PORT_FIRST 10000         /* rank 0's port: below Linux's ephemeral range (32768 on) */
#define PORT_COUNT 20000

typedef enum fault { FAULT_NONE, FAULT_STALE, FAULT_CRASH, FAULT_EXIT, FAULT_ABSENT } fault;

typedef struct rank_engine {
    fault bug;
    cc_rule rule;
    int32_t w, h, halo, me, ranks;
    cc_slabs cut;
    cc_grid buf;         /* its slab with its halos */
    int peer[RANKS_MAX]; /* a stream to every other rank; -1 for itself */
    int64_t launches;
} rank_engine;

static const char engine_name[] = "control.ranks";

static uint8_t *row(cc_grid *g, int32_t y) { return g->cells + (size_t)y * (size_t)g->w; }

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void destroy(void *ctx) {
    rank_engine *e = ctx;
    if (!e) return;
    for (int i = 0; i < RANKS_MAX; i++)
        if (e->peer[i] >= 0) close(e->peer[i]);
    cc_grid_free(&e->buf);
    cc_slabs_free(&e->cut);
    free(e);
}

static int devices(int32_t *count, cc_error *err) {
    const char *want = getenv("CELLCHECK_DEVICES");
    *count = RANKS_DEFAULT;
    if (!want || !*want) return CC_OK;
    char *end;
    const long n = strtol(want, &end, 10);
    if (*end || n < 1 || n > RANKS_MAX)
        return cc_fail(err, CC_ERR_ARG, "rank engine: CELLCHECK_DEVICES=%s; a number from 1 to %d",
                       want, RANKS_MAX);
    *count = (int32_t)n;
    return CC_OK;
}

static int io_fail(cc_error *err, int me, const char *what, int other) {
    return cc_fail(err, CC_ERR_IO, "rank %d: %s rank %d: %s", me, what, other, strerror(errno));
}

static int full(int fd, void *buf, size_t n, int sending) {
    uint8_t *p = buf;
    while (n) {
        ssize_t k = sending ? send(fd, p, n, MSG_NOSIGNAL) : recv(fd, p, n, 0);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            if (k == 0) errno = ECONNRESET;
            return -1;
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* A listening socket on the loopback at port (0: any), its port into *port. */
static int listen_on(uint16_t *port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(*port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) || listen(fd, RANKS_MAX) ||
        getsockname(fd, (struct sockaddr *)&a, &len)) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    *port = ntohs(a.sin_port);
    return fd;
}

/* A stream to the loopback's port, tried until JOIN_WAIT_S: the other rank may not listen yet. */
static int connect_to(uint16_t port) {
    const double until = now_s() + JOIN_WAIT_S;
    for (;;) {
        int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0) return -1;
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (connect(fd, (struct sockaddr *)&a, sizeof a) == 0) {
            int one = 1;
            setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            return fd;
        }
        int saved = errno;
        close(fd);
        if (now_s() > until) {
            errno = saved;
            return -1;
        }
        struct timespec t = {0, 10000000};
        nanosleep(&t, NULL);
    }
}

static int rank_id(uint8_t *id, cc_error *err) {
    /* A port free now on this loopback (the ranks' own, in the sandbox), below the ephemeral
     * ports the kernel hands the other ranks' listeners and connections meanwhile: rank 0
     * listens there. */
    uint16_t port = 0;
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 64; tries++) {
        uint16_t draw = 0;
        if (getrandom(&draw, sizeof draw, 0) != (ssize_t)sizeof draw) draw = (uint16_t)tries;
        port = (uint16_t)(PORT_FIRST + draw % PORT_COUNT);
        fd = listen_on(&port);
    }
    if (fd < 0) return cc_fail(err, CC_ERR_IO, "rank 0: no port to listen on: %s", strerror(errno));
    close(fd);
    const uint32_t magic = ID_MAGIC;
    memcpy(id, &magic, sizeof magic);
    memcpy(id + 4, &port, sizeof port);
    return CC_OK;
}

/* Every rank's stream to every other: rank 0 gathers the ports the others listen on and hands
 * the table out; then rank i connects to each rank j < i (j = 0 has its stream already). */
static int join(rank_engine *e, const uint8_t *id, cc_error *err) {
    uint32_t magic;
    uint16_t ports[RANKS_MAX] = {0};
    memcpy(&magic, id, sizeof magic);
    memcpy(&ports[0], id + 4, sizeof ports[0]);
    if (e->ranks == 1) {
        /* One rank joins no one, so it is handed no id (engine.h): zeros. */
        for (int i = 0; i < CC_RANK_ID_BYTES; i++)
            if (id[i])
                return cc_fail(err, CC_ERR_ARG, "rank 0 of 1: handed an id (byte %d is %d), "
                                                "though one rank joins no one", i, id[i]);
        /* Nor is its worker made a rank (the variable is supervise/sandbox.h's
         * CC_SANDBOX_JOIN_ENV): a GPU rank's sandbox keeps sockets open for NCCL. */
        const char *rank_worker = getenv("CELLCHECK_RANK_NAMESPACES");
        if (rank_worker)
            return cc_fail(err, CC_ERR_ARG, "rank 0 of 1: its worker was started as a rank "
                                            "(CELLCHECK_RANK_NAMESPACES=%s), though one rank "
                                            "joins no one", rank_worker);
        return CC_OK;
    }
    if (magic != ID_MAGIC) return cc_fail(err, CC_ERR_ARG, "rank %d: not a rank id", e->me);
    int32_t me = e->me;
    uint16_t mine = me == 0 ? ports[0] : 0;
    int lfd = listen_on(&mine);
    if (lfd < 0) return io_fail(err, me, "cannot listen for", me);
    int rc = CC_OK;
    if (me == 0) {
        for (int32_t n = 1; rc == CC_OK && n < e->ranks; n++) {
            int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
            int32_t who = -1;
            uint16_t port = 0;
            if (fd < 0 || full(fd, &who, sizeof who, 0) || full(fd, &port, sizeof port, 0))
                rc = io_fail(err, me, "no greeting from", (int)n);
            else if (who < 1 || who >= e->ranks || e->peer[who] >= 0)
                rc = cc_fail(err, CC_ERR_IO, "rank 0: a greeting from rank %d", (int)who);
            else {
                e->peer[who] = fd;
                ports[who] = port;
                fd = -1;
            }
            if (fd >= 0) close(fd);
        }
        for (int32_t r = 1; rc == CC_OK && r < e->ranks; r++)
            if (full(e->peer[r], ports, sizeof ports, 1)) rc = io_fail(err, me, "cannot send to", r);
    } else {
        int fd = connect_to(ports[0]);
        if (fd < 0) rc = io_fail(err, me, "cannot reach", 0);
        else {
            e->peer[0] = fd;
            if (full(fd, &me, sizeof me, 1) || full(fd, &mine, sizeof mine, 1) ||
                full(fd, ports, sizeof ports, 0))
                rc = io_fail(err, me, "no table of ports from", 0);
        }
        for (int32_t j = 1; rc == CC_OK && j < me; j++) {
            if ((e->peer[j] = connect_to(ports[j])) < 0 || full(e->peer[j], &me, sizeof me, 1))
                rc = io_fail(err, me, "cannot reach", j);
        }
        for (int32_t n = me + 1; rc == CC_OK && n < e->ranks; n++) {
            int fd2 = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
            int32_t who = -1;
            if (fd2 < 0 || full(fd2, &who, sizeof who, 0)) rc = io_fail(err, me, "no greeting from", n);
            else if (who <= me || who >= e->ranks || e->peer[who] >= 0)
                rc = cc_fail(err, CC_ERR_IO, "rank %d: a greeting from rank %d", me, (int)who);
            else {
                e->peer[who] = fd2;
                fd2 = -1;
            }
            if (fd2 >= 0) close(fd2);
        }
    }
    close(lfd);
    return rc;
}

static int make(fault bug, const cc_rule *rule, int32_t w, int32_t h, const cc_rank *rank,
                void **ctx, cc_error *err) {
    if (bug == FAULT_ABSENT && rank->rank == rank->ranks - 1)
        for (;;) pause(); /* never joins: the others wait on it */
    rank_engine *e = calloc(1, sizeof *e);
    if (!e) return cc_fail(err, CC_ERR_NOMEM, "rank engine: no memory");
    for (int i = 0; i < RANKS_MAX; i++) e->peer[i] = -1;
    e->bug = bug;
    e->rule = *rule;
    e->w = w;
    e->h = h;
    e->halo = rule->radius * STEPS;
    e->me = rank->rank;
    e->ranks = rank->ranks;
    int rc = e->ranks > RANKS_MAX
                 ? cc_fail(err, CC_ERR_UNSUPPORTED, "rank engine: %d ranks; at most %d",
                           (int)e->ranks, RANKS_MAX)
                 : cc_slabs_cut(h, e->ranks, e->halo, &e->cut, err);
    if (rc == CC_OK) rc = cc_grid_alloc(&e->buf, w, rank->rows + 2 * e->halo, err);
    if (rc == CC_OK) rc = join(e, rank->id, err);
    if (rc != CC_OK) {
        destroy(e);
        return rc;
    }
    *ctx = e;
    return CC_OK;
}

/* One rank's bytes to or from another, queued: the pieces in the receiving slab's order. */
typedef struct queue {
    uint8_t *bytes;
    size_t n, done;
} queue;

static size_t piece_bytes(const rank_engine *e, const cc_slab_piece *p) {
    return (size_t)p->count * (size_t)e->w;
}

/* Every halo from the rank that owns its rows: local pieces copied, the others sent and received
 * at once over the streams (blocking sends could wait on each other). */
static int exchange(rank_engine *e, cc_error *err) {
    queue out[RANKS_MAX] = {{0}}, in[RANKS_MAX] = {{0}};
    const cc_slab *mine = &e->cut.slab[e->me];
    for (int32_t d = 0; d < e->ranks; d++) {
        if (d == e->me) continue;
        const cc_slab *s = &e->cut.slab[d];
        for (int32_t k = 0; k < s->pieces; k++)
            if (s->piece[k].src_device == e->me) out[d].n += piece_bytes(e, &s->piece[k]);
    }
    for (int32_t k = 0; k < mine->pieces; k++)
        if (mine->piece[k].src_device != e->me)
            in[mine->piece[k].src_device].n += piece_bytes(e, &mine->piece[k]);
    int rc = CC_OK;
    for (int32_t d = 0; d < e->ranks; d++) {
        out[d].bytes = out[d].n ? malloc(out[d].n) : NULL;
        in[d].bytes = in[d].n ? malloc(in[d].n) : NULL;
        if ((out[d].n && !out[d].bytes) || (in[d].n && !in[d].bytes))
            rc = cc_fail(err, CC_ERR_NOMEM, "rank %d: no memory for halos", e->me);
    }
    for (int32_t d = 0; rc == CC_OK && d < e->ranks; d++) {
        if (d == e->me) continue;
        const cc_slab *s = &e->cut.slab[d];
        size_t at = 0;
        for (int32_t k = 0; k < s->pieces; k++) {
            const cc_slab_piece *p = &s->piece[k];
            if (p->src_device != e->me) continue;
            memcpy(out[d].bytes + at, row(&e->buf, p->src_row), piece_bytes(e, p));
            at += piece_bytes(e, p);
        }
    }
    for (;;) {
        struct pollfd fds[2 * RANKS_MAX];
        int peers[2 * RANKS_MAX], n = 0;
        for (int32_t d = 0; rc == CC_OK && d < e->ranks; d++) {
            short ev = (short)((out[d].done < out[d].n ? POLLOUT : 0) |
                               (in[d].done < in[d].n ? POLLIN : 0));
            if (!ev) continue;
            fds[n] = (struct pollfd){.fd = e->peer[d], .events = ev};
            peers[n++] = d;
        }
        if (rc != CC_OK || n == 0) break;
        if (poll(fds, (nfds_t)n, -1) < 0) {
            if (errno == EINTR) continue;
            rc = io_fail(err, e->me, "poll toward", peers[0]);
            break;
        }
        for (int i = 0; rc == CC_OK && i < n; i++) {
            const int d = peers[i];
            if (fds[i].revents & POLLOUT) {
                ssize_t k = send(fds[i].fd, out[d].bytes + out[d].done, out[d].n - out[d].done,
                                 MSG_NOSIGNAL | MSG_DONTWAIT);
                if (k > 0) out[d].done += (size_t)k;
                else if (k < 0 && errno != EAGAIN && errno != EINTR)
                    rc = io_fail(err, e->me, "cannot send halos to", d);
            }
            if (rc == CC_OK && (fds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
                ssize_t k = recv(fds[i].fd, in[d].bytes + in[d].done, in[d].n - in[d].done,
                                 MSG_DONTWAIT);
                if (k > 0) in[d].done += (size_t)k;
                else if (k == 0 || (errno != EAGAIN && errno != EINTR)) {
                    if (k == 0) errno = ECONNRESET;
                    rc = io_fail(err, e->me, "no halos from", d);
                }
            }
        }
    }
    size_t at[RANKS_MAX] = {0};
    for (int32_t k = 0; rc == CC_OK && k < mine->pieces; k++) {
        const cc_slab_piece *p = &mine->piece[k];
        uint8_t *to = row(&e->buf, p->dst_row);
        if (p->src_device == e->me) {
            memmove(to, row(&e->buf, p->src_row), piece_bytes(e, p));
        } else {
            memcpy(to, in[p->src_device].bytes + at[p->src_device], piece_bytes(e, p));
            at[p->src_device] += piece_bytes(e, p);
        }
    }
    for (int32_t d = 0; d < e->ranks; d++) {
        free(out[d].bytes);
        free(in[d].bytes);
    }
    return rc;
}

static int load(void *ctx, const uint8_t *cells, cc_error *err) {
    (void)err;
    rank_engine *e = ctx;
    memcpy(row(&e->buf, e->halo), cells, (size_t)e->cut.slab[e->me].rows * (size_t)e->w);
    return CC_OK;
}

static int step(void *ctx, int64_t k, cc_error *err) {
    rank_engine *e = ctx;
    while (k > 0) {
        const int64_t n = k >= STEPS ? STEPS : 1;
        const int last = e->me == e->ranks - 1;
        if (e->bug == FAULT_CRASH && last && e->launches == 1) raise(SIGSEGV);
        int rc = e->bug == FAULT_STALE && e->launches % 2 == 1 ? CC_OK : exchange(e, err);
        /* The buffer stepped as a torus of its own: its wrap spoils r rows a step from either
         * end, no more than the halo in a launch. */
        if (rc == CC_OK) rc = oracle_run(&e->rule, &e->buf, n, err);
        if (rc != CC_OK) return rc;
        e->launches++;
        k -= n;
    }
    return CC_OK;
}

static int store(void *ctx, uint8_t *cells, cc_error *err) {
    (void)err;
    rank_engine *e = ctx;
    if (e->bug == FAULT_EXIT && e->me == e->ranks - 1) _exit(3);
    memcpy(cells, row(&e->buf, e->halo), (size_t)e->cut.slab[e->me].rows * (size_t)e->w);
    return CC_OK;
}

/* The engine alone in one process: one rank, no streams. */
static int create_alone(fault bug, const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                        cc_error *err) {
    cc_rank one = {.rank = 0, .ranks = 1, .row0 = 0, .rows = h};
    return make(bug == FAULT_ABSENT ? FAULT_NONE : bug, rule, w, h, &one, ctx, err);
}

#define FAULT_FUNCTIONS(tag, bug)                                                                 \
    static int tag##_create(const cc_rule *r, int32_t w, int32_t h, void **c, cc_error *e) {     \
        return create_alone(bug, r, w, h, c, e);                                                 \
    }                                                                                            \
    static int tag##_rank_create(const cc_rule *r, int32_t w, int32_t h, const cc_rank *rank,   \
                                 void **c, cc_error *e) {                                        \
        return make(bug, r, w, h, rank, c, e);                                                   \
    }
FAULT_FUNCTIONS(control, FAULT_NONE)
FAULT_FUNCTIONS(stale, FAULT_STALE)
FAULT_FUNCTIONS(crash, FAULT_CRASH)
FAULT_FUNCTIONS(exit, FAULT_EXIT)
FAULT_FUNCTIONS(absent, FAULT_ABSENT)

#define RANK_ENGINE(name_, summary_, tag)                                                        \
    {.name = name_,                                                                              \
     .summary = summary_,                                                                        \
     .caps = {.radius_max = 4, .steps_per_launch = STEPS},                                       \
     .create = tag##_create,                                                                     \
     .load = load,                                                                               \
     .step = step,                                                                               \
     .store = store,                                                                             \
     .destroy = destroy,                                                                         \
     .devices = devices,                                                                         \
     .rank_id = rank_id,                                                                         \
     .rank_create = tag##_rank_create}

static const cc_engine rank_engines[] = {
    RANK_ENGINE(engine_name, "emulated ranks (3, or CELLCHECK_DEVICES=N), one process each, "
                             "halos over the loopback every launch",
                control),
    RANK_ENGINE("mutant.rank-stale", "every other launch without its exchange", stale),
    RANK_ENGINE("mutant.rank-crash", "the last rank dies of SIGSEGV in its second launch", crash),
    RANK_ENGINE("mutant.rank-exit", "the last rank calls _exit(3) in store", exit),
    RANK_ENGINE("mutant.rank-absent", "the last rank never joins", absent),
};

const cc_engine *const *cc_mutants_rank_bugs(void) {
    static const cc_engine *const list[] = {&rank_engines[0], &rank_engines[1], &rank_engines[2],
                                            &rank_engines[3], &rank_engines[4], NULL};
    return list;
}
