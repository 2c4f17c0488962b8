/* The engine contract. An engine is a table of C functions plus a statement of what it can do.
 *
 * The portable grid form is row-major uint8_t cells, 0 or 1, no halo, on a W x H torus. load and
 * store speak that form; any internal layout is the engine's own business. Anything an engine
 * cannot do is refused at create with a message naming the limit. */
#ifndef CELLCHECK_ENGINES_ENGINE_H
#define CELLCHECK_ENGINES_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "oracle/error.h"
#include "oracle/rule.h"

/* C++ callers (CUDA engines, ports) see C linkage. */
#ifdef __cplusplus
extern "C" {
#endif

/* The hardware an engine needs beyond a plain x86-64 CPU; CELLCHECK_REQUIRE names these. */
typedef enum cc_hardware {
    CC_HW_CPU = 0,
    CC_HW_GPU = 1, /* a CUDA device of compute capability 9.0 or newer */
    CC_HW_AMX = 2, /* AMX tiles and the Linux permission to use them */
    CC_HW_AVX2 = 3,
    CC_HW_AVX512 = 4
} cc_hardware;

#define CC_CENTRE_M0 1u
#define CC_CENTRE_M1 2u

/* A limit that holds for one neighbourhood shape only, on top of the engine-wide caps: a kernel
 * whose von Neumann path is safe up to r = 4, or on rows up to 65536 cells. Each field narrows
 * the engine-wide limit of the same name and never widens it; 0 means "as the engine-wide caps"
 * (a negative value is refused, as for every cap). */
typedef struct cc_shape_limits {
    int32_t radius_min, radius_max; /* the shape's radii, within the engine's */
    int32_t w_max, h_max;           /* the shape's largest W and H */
    int64_t cells_max;              /* the shape's largest W*H */
} cc_shape_limits;

/* What an engine can do. Every field left out of a designated initializer (zero) means "no limit":
 * every shape, radii 1..CC_RADIUS_MAX, M0 and M1, any W and H, any count; except the topology,
 * where zero means the torus alone, the one every engine was written for. */
typedef struct cc_engine_caps {
    uint32_t shapes;            /* CC_SHAPE_BIT(...) of every shape it simulates; 0: all */
    int32_t radius_min, radius_max; /* 0: 1 and CC_RADIUS_MAX */
    uint32_t centres;           /* CC_CENTRE_M0 | CC_CENTRE_M1; 0: both */
    uint32_t topologies;        /* CC_TOPOLOGY_BIT(...) of the grids' edges it simulates: the
                                 * torus, the bounded plane; 0: the torus only */
    int32_t w_multiple, h_multiple; /* W and H must be multiples of these (0 or 1: any) */
    int32_t w_max, h_max;       /* 0: no limit beyond CC_GRID_SIDE_MAX */
    int32_t count_max;          /* largest count the rule's sets may name (0: no limit) */
    /* The engine's block geometry, in cells: the tile (or word, or block of threads) that its
     * layout or its kernels cut the grid into. Not a limit: the case generator draws sides at
     * multiples of it plus and minus one and puts seams inside tiles. 0: none stated. */
    int32_t tile_w, tile_h;
    /* The steps one launch (or one pass over the grid) runs, where the engine blocks steps in
     * time: not a limit; the step-count checks draw n*t - 1 and n*t + 1 around it. 0: none
     * stated. */
    int32_t steps_per_launch;
    /* What ports of fixed-function kernels often cannot do: */
    int square_only;            /* 1: W must equal H (solvers that take one side n) */
    int32_t s_ranges_max, b_ranges_max; /* the most intervals S and B may have (threshold kernels:
                                         * SMIN..SMAX is 1); 0: any */
    int no_b0;                  /* 1: B may not contain 0 (a kernel that skips empty regions) */
    int64_t cells_max;          /* the largest W*H, e.g. what a fixed buffer holds; 0: no limit */
    const char *limits;         /* anything else, in words, or NULL */
    /* Limits of one shape only, indexed by cc_shape: .shape_limits[CC_SHAPE_VON_NEUMANN] =
     * {.radius_max = 4}. All zero: every shape takes the engine-wide limits. */
    cc_shape_limits shape_limits[CC_SHAPE_COUNT];
} cc_engine_caps;

/* The memory a context needs, in bytes (cc_engine.memory). */
typedef struct cc_memory {
    double host_bytes;   /* on the host, beyond the caller's own grids */
    double device_bytes; /* on the device (0 for an engine on the CPU) */
} cc_memory;

/* Where one rank of an engine that runs as one process per device stands (cc_engine.rank_create).
 * The ranks cut the rows as engines/slabs/slabs.h does over `ranks` devices; each holds only
 * its own slab, so its load and store speak W x rows cells, rows row0 .. row0 + rows - 1 of the
 * grid. */
#define CC_RANK_ID_BYTES 128
typedef struct cc_rank {
    int32_t rank, ranks; /* this process's place: 0 .. ranks - 1 */
    int32_t device;      /* the device it runs on, among those this host shows it */
    int32_t row0, rows;  /* its slab of the grid's H rows */
    /* What the ranks join by: rank 0's rank_id, handed to every rank of this create (an NCCL
     * unique id, for example). */
    uint8_t id[CC_RANK_ID_BYTES];
} cc_rank;

/* An engine's table, written with designated initializers. Callers go through the entry points
 * below (cc_engine_create, cc_engine_load, ...), which do the generic checks once, so an engine's
 * own functions receive only rules and sizes within its caps, 0/1 cells and k >= 0. */
typedef struct cc_engine {
    const char *name;    /* stable: "cpu.ref", "cuda.base", ... */
    const char *summary; /* one line */
    cc_hardware hardware; /* omitted: a plain CPU */
    cc_engine_caps caps;

    /* Is the hardware here? 0 if so; otherwise CC_ERR_UNAVAILABLE and the reason in err.
     * NULL: always. */
    int (*available)(cc_error *err);
    /* Refuses, with the limit named, anything the caps cannot say; sets *ctx on success. */
    int (*create)(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err);
    int (*load)(void *ctx, const uint8_t *cells, cc_error *err);
    /* k steps, any k from 0 to INT64_MAX (the contract's largest), whatever the engine does
     * internally per launch. */
    int (*step)(void *ctx, int64_t k, cc_error *err);
    int (*store)(void *ctx, uint8_t *cells, cc_error *err);
    void (*destroy)(void *ctx);
    /* Optional, for benchmarks: run k steps and report the time they took on the engine's own
     * clock (CUDA events on a GPU), transfers excluded. NULL: the caller times step() itself. */
    int (*timed_step)(void *ctx, int64_t k, double *ms, cc_error *err);
    /* Optional, for benchmarks: the device a created context runs on ("NVIDIA H100 80GB HBM3").
     * NULL: a CPU engine, described by the host's CPU model. */
    const char *(*device_name)(void *ctx);
    /* Optional: what a context of rule on W x H would hold, from the engine's own layout (grids,
     * halos, padding, tables, staging), so a caller can refuse a size before anything large is
     * allocated. Given a rule and size within the caps; allocates nothing. NULL: callers assume
     * a generic figure (harness/limits.h). */
    void (*memory)(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need);
    /* Optional, for an engine that spreads one grid over several devices: sets *count to the
     * devices a create here would use (CELLCHECK_DEVICES=N, else every visible one). Such an
     * engine cuts the rows as engines/slabs/slabs.h does over min(*count, H) devices and exchanges
     * halos of r x caps.steps_per_launch rows every caps.steps_per_launch steps; the harness puts
     * its device seams there and names the count in certificates and reproducers. NULL: one
     * device, no slabs. */
    int (*devices)(int32_t *count, cc_error *err);
    /* Optional, both or neither, for an engine that runs as one process per device (a rank
     * each), the way it would run under a launcher (srun, mpirun) across hosts: the supervisor
     * starts devices() workers, asks rank 0's for rank_id, hands that id to every rank's
     * rank_create at once, then calls load, step, store and destroy on every rank at once (the
     * calls are collective: a rank may wait in them for the others). create is still the engine
     * on one process, for callers that are not the supervisor. rank_id: the bytes the ranks of
     * one create join by, made in rank 0's process just before its rank_create (a fresh one
     * every create of two ranks or more; one rank joins no one, so its id is zeros and rank_id
     * is not called). rank_create: as create, for the rank and slab in *rank; W and H are the
     * whole grid's, within the caps. */
    int (*rank_id)(uint8_t *id, cc_error *err);
    int (*rank_create)(const cc_rule *rule, int32_t w, int32_t h, const cc_rank *rank,
                       void **ctx, cc_error *err);
} cc_engine;

/* One live instance of an engine: what the entry points need to check each call. */
typedef struct cc_context {
    const cc_engine *engine;
    void *ctx; /* the engine's own */
    cc_rule rule;
    int32_t w, h;
    int loaded; /* step and store before the first load are refused */
} cc_context;

/* What an engine without its own estimate (cc_engine.memory) is taken to hold: two bytes a
 * cell, on the host for an engine on the CPU, on the device for one on a GPU. The memory limits
 * before work (harness/limits.h) and a worker's memory limit (supervise/) both count it. */
#define CC_GENERIC_ENGINE_BYTES_PER_CELL 2.0
cc_memory cc_engine_memory_generic(const cc_engine *engine, int32_t w, int32_t h);

/* The entry points that call an engine's functions are declared in engines/entry.h, for the
 * worker processes that run engines (supervise/) and an engine's own tests; everything above
 * the engines calls through the supervisor (supervise/supervisor.h). */


/* The engine's caps with every omitted field replaced by the limit it stands for; each
 * shape_limits[s] holds what shape s is held to: the engine-wide limits narrowed by its own
 * (radius_min and radius_max always set, w_max, h_max and cells_max 0 where no limit). */
cc_engine_caps cc_engine_caps_resolved(const cc_engine *engine);

/* Resolved caps as they stand for one shape: radius_min, radius_max, w_max, h_max and cells_max
 * are that shape's (the engine-wide ones narrowed by shape_limits[shape]); the rest as in caps.
 * What a section or a draw that has picked its shape reads its limits from. caps: resolved. */
cc_engine_caps cc_engine_caps_for_shape(const cc_engine_caps *caps, cc_shape shape);

/* Does shape_limits[shape] narrow anything (radii, W, H or cells) of the engine-wide caps?
 * caps: resolved. */
int cc_engine_caps_shape_narrowed(const cc_engine_caps *caps, cc_shape shape);

/* Checks what the caps state against themselves: no negative limit (0 means none; a typo must not
 * lift one), no radius_min above radius_max, no topology bit past the bounded plane, and for each
 * shape the caps name a radius range left by its shape_limits. The message names the field. */
int cc_engine_caps_check(const cc_engine *engine, cc_error *err);

/* Do rule and W x H fit the engine's caps (rule valid, shape, radius, centre, sets, W, H >= 2r+1,
 * multiples and maxima, and the shape's own limits)? The message names the limit that failed. cc_engine_create starts with it;
 * the campaign uses it to know which cases must be refused. */
int cc_engine_check(const cc_engine *engine, const cc_rule *rule, int32_t w, int32_t h,
                    cc_error *err);
/* The same check on caps resolved already (cc_engine_caps_resolved), for a caller that holds them:
 * engine names the engine in the message. */
int cc_engine_check_resolved(const char *engine, const cc_engine_caps *caps, const cc_rule *rule,
                             int32_t w, int32_t h, cc_error *err);

/* The cell and step-count checks cc_engine_load and cc_engine_step run (engines need not). */
int cc_engine_check_cells(const char *engine, const uint8_t *cells, size_t n, cc_error *err);
int cc_engine_check_steps(const char *engine, int64_t k, cc_error *err);

const char *cc_hardware_name(cc_hardware hw); /* "cpu", "gpu", "amx", "avx2", "avx512" */

/* Does CELLCHECK_REQUIRE (a comma-separated list such as "gpu,amx", in any case) name this
 * hardware? */
int cc_hardware_required(cc_hardware hw);
/* Does CELLCHECK_ABSENT (the same form) name this hardware? Engines that need it are then
 * unavailable, as on a machine without it: a machine with AMX shows what one without it does. */
int cc_hardware_hidden(cc_hardware hw);
/* CC_OK when every item of CELLCHECK_REQUIRE and CELLCHECK_ABSENT names a hardware (or they are
 * unset or empty) and CELLCHECK_ABSENT does not name cpu; else CC_ERR_ARG naming the first
 * problem, so a typo cannot switch a requirement off. Hardware in both is required and absent,
 * as on a machine without it. */
int cc_require_check(cc_error *err);

/* The cores this process may run on (its CPU affinity; the online cores where that cannot be
 * read), at least 1: what a worker's "every core" and the harness's spare core count. */
long cc_cores_available(void);

/* Describes caps in one line ("shapes NM,NN; r 1..64; M0,M1; any W, H"). */
void cc_engine_describe_caps(const cc_engine *engine, char *buf, size_t size);

/* Every engine built into this binary (the registry), NULL-terminated. */
const cc_engine *const *cc_engines_all(void);
const cc_engine *cc_engine_find(const char *name);

#ifdef __cplusplus
}
#endif

#endif
