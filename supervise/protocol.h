/* What the supervisor and its workers say to each other: fixed-size requests and replies over a
 * socket pair (both ends are this executable, so the layouts agree), grids through a shared
 * memory file. Not part of any interface. */
#ifndef CELLCHECK_SUPERVISE_PROTOCOL_H
#define CELLCHECK_SUPERVISE_PROTOCOL_H

#include <errno.h>
#include <stdint.h>
#include <sys/socket.h>

#include "engines/engine.h"
#include "oracle/error.h"

/* The flag a worker is started with: EXE --cellcheck-worker SOCKET_FD SHM_FD PARENT_PID SANDBOX
 * [PLUGIN]..., SANDBOX "off" or REPORT_FD:SCRATCH_DIR (supervise/sandbox.h). */
#define SV_WORKER_FLAG "--cellcheck-worker"

/* The shared file: a header page, then a guard band, the grid, another guard band. */
#define SV_HEADER_BYTES 4096u
#define SV_GUARD_BYTES 4096u
#define SV_GRID_OFFSET (SV_HEADER_BYTES + SV_GUARD_BYTES)
#define SV_GUARD_BYTE 0x5a   /* what the guard bands hold */
#define SV_UNWRITTEN 0xa5    /* what store's grid holds before store: neither 0 nor 1 */

/* The header page, written by the worker: where it is, for a parent whose worker died. */
typedef struct sv_header {
    volatile int32_t loading_plugin; /* index of the plugin being loaded, -1 when none */
    int32_t pad;
    /* The host memory the context being created needs (its engine's estimate, else the
     * generic figure): the supervisor's memory limit counts it while create runs. */
    volatile double creating_host_bytes;
} sv_header;

enum sv_op {
    SV_OP_HELLO = 1,   /* -> count: engines known; rc: a plugin refused; sandbox: its parts in
                        * force, text: why any other is not */
    SV_OP_DESCRIBE,    /* engine -> the description */
    SV_OP_AVAILABLE,   /* engine */
    SV_OP_MEMORY,      /* engine, rule, w, h -> stated, memory */
    SV_OP_CREATE,      /* engine, rule, w, h -> ctx, memory (the host bytes it was counted for) */
    SV_OP_LOAD,        /* ctx; the grid at SV_GRID_OFFSET */
    SV_OP_STEP,        /* ctx, k */
    SV_OP_TIMED_STEP,  /* ctx, k -> ms, engine_clock */
    SV_OP_STORE,       /* ctx; the grid into SV_GRID_OFFSET */
    SV_OP_DESTROY,     /* ctx */
    SV_OP_DEVICE_NAME, /* ctx -> text */
    SV_OP_DEVICES,     /* engine -> count */
    SV_OP_TIMING,      /* engine: can this worker disturb its timing (its devices, this build)? */
    SV_OP_RANK_ID,     /* engine -> count: CC_RANK_ID_BYTES, text: the id (rank 0's worker) */
    SV_OP_RANK_CREATE  /* engine, rule, w, h, rank -> as SV_OP_CREATE, for one rank's slab */
};

typedef struct sv_request {
    uint32_t op;
    uint32_t engine;
    uint32_t ctx;
    uint32_t timing; /* CC_TIMING_* (oracle/case.h) this call runs under; 0: undisturbed */
    int32_t buffers; /* CC_BUFFERS_* (oracle/case.h): where load's input and store's output lie
                      * for the engine; 0: the shared grid itself */
    int32_t pad;
    int64_t k;
    cc_rule rule;
    int32_t w, h;
    uint64_t shm_bytes; /* the shared file's size: the worker maps it again when it grew */
    cc_rank rank;       /* SV_OP_RANK_CREATE */
} sv_request;

#define SV_TEXT_MAX 256
_Static_assert(CC_RANK_ID_BYTES <= SV_TEXT_MAX, "a rank id travels in a reply's text");

typedef struct sv_reply {
    int32_t rc;
    uint32_t ctx;
    uint32_t count;
    int32_t stated;
    int32_t engine_clock;
    uint32_t sandbox; /* CC_SANDBOX_* (HELLO) */
    double ms;
    double engine_s; /* the worker's wall time in serving the call: the engine's entry point */
    cc_memory memory;
    cc_error err;
    char text[SV_TEXT_MAX];
} sv_reply;

enum sv_has {
    SV_HAS_AVAILABLE = 1u,
    SV_HAS_TIMED_STEP = 2u,
    SV_HAS_DEVICE_NAME = 4u,
    SV_HAS_MEMORY = 8u,
    SV_HAS_DEVICES = 16u,
    SV_HAS_RANKS = 32u
};

typedef struct sv_description {
    char name[64];
    char summary[SV_TEXT_MAX];
    char limits[SV_TEXT_MAX];
    int32_t has_limits;
    int32_t plugin; /* index of the plugin it came from, -1 when built in */
    char build[SV_TEXT_MAX]; /* its plugin's CC_PLUGIN_BUILD string, "" where none */
    uint32_t has;   /* SV_HAS_* */
    int32_t hardware;
    cc_engine_caps caps; /* limits NULL */
} sv_description;

/* Writes all n bytes to the socket; -1 once the other end is gone (never SIGPIPE). */
static inline int sv_write_full(int fd, const void *buf, size_t n) {
    const uint8_t *p = buf;
    while (n) {
        ssize_t put = send(fd, p, n, MSG_NOSIGNAL);
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) return -1;
        p += put;
        n -= (size_t)put;
    }
    return 0;
}

#endif
