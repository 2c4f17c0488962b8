/* The golden catalogue: fixed cases, the BLAKE2b-256 of the oracle's final grid for each, and RLE
 * snapshots of the small ones. Goldens change only through golden_update, written whole or not at
 * all; verifying never writes.
 *
 * catalogue.txt holds one case per line, "name case-line", '#' comments and blank lines allowed:
 *   life_soup  rule=B3/S23 size=64x80 steps=5 density=0.0700 seed=<64 hex digits>
 *   glider     rule=B3/S23 in=golden/patterns/glider.rle steps=4
 * A seeded case line is oracle/case.h's; a pattern case takes its initial grid and torus from an RLE
 * file whose path is relative to the source root (the directory above the catalogue's).
 *
 * catalogue.txt is what people edit; the goldens in force are a generation: a directory beside it,
 * .gen-<16 hex digits of the BLAKE2b of its files>, holding a copy of the catalogue it was computed
 * from, hashes.txt ("name hex" per line) and snapshots/<name>.rle, named by the relative link
 * `current`. An update writes a whole new generation, then replaces `current` by one rename, so a
 * reader, and a run killed at any moment, sees the old generation or the new one, never a mix.
 * Readers resolve `current` once and read everything from the generation it names.
 * The library, by part: catalogue.c (loading catalogue.txt), generation.c (the generation in
 * force), results.c (running a case, hashing), hashes.c (hashes.txt), verify.c, update.c; text.c
 * and internal.h are what they share. */
#ifndef CELLCHECK_GOLDEN_GOLDEN_H
#define CELLCHECK_GOLDEN_GOLDEN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engines/engine.h"
#include "oracle/case.h"
#include "oracle/error.h"
#include "oracle/grid.h"
#include "oracle/rule.h"

/* C++ callers (CUDA engines, ports) see C linkage. */
#ifdef __cplusplus
extern "C" {
#endif

#define GOLDEN_NAME_MAX 64
#define GOLDEN_LINE_MAX 512
#define GOLDEN_PATH_MAX 1024
#define GOLDEN_HASH_BYTES 32
#define GOLDEN_HASH_HEX (2 * GOLDEN_HASH_BYTES + 1)
/* Cases no larger than this on either side get an RLE snapshot. */
#define GOLDEN_SNAPSHOT_SIDE_MAX 128

typedef enum golden_kind {
    GOLDEN_SEEDED = 0, /* the initial grid is drawn from the case's seed and density */
    GOLDEN_PATTERN = 1 /* the initial grid is an RLE file */
} golden_kind;

typedef struct golden_entry {
    char name[GOLDEN_NAME_MAX];
    char line[GOLDEN_LINE_MAX]; /* the case line as the catalogue writes it */
    int line_number;
    golden_kind kind;
    cc_rule rule;
    int32_t w, h;
    int64_t steps;
    cc_case seeded;                /* GOLDEN_SEEDED */
    char pattern[GOLDEN_PATH_MAX]; /* GOLDEN_PATTERN: as written, relative to the root */
} golden_entry;

typedef struct golden_catalogue {
    golden_entry *entries;
    size_t count;
    char path[GOLDEN_PATH_MAX];   /* the catalogue text read */
    char dir[GOLDEN_PATH_MAX];    /* where its hashes.txt and snapshots/ are: its generation */
    char root[GOLDEN_PATH_MAX];   /* the source root: pattern paths are relative to it */
    char golden[GOLDEN_PATH_MAX]; /* the edited catalogue's directory: `current`, generations */
    char *text;                   /* the catalogue's text as read, copied into a generation */
    size_t text_len;
    /* golden_open: the edited catalogue.txt differs from the copy in force (or is missing). */
    int edited;
} golden_catalogue;

typedef struct golden_report {
    size_t checked; /* cases run */
    size_t passed;
    size_t failed;      /* wrong hash, wrong snapshot, or an error while running */
    size_t unsupported; /* refused by the engine's create (cc_engine_check and its own limits) */
    char first_case[GOLDEN_NAME_MAX + GOLDEN_LINE_MAX + 2]; /* the first failing case's name and
                                                             * line, "" when none failed */
    char first_detail[320];                                /* what was wrong with it */
} golden_report;

/* Reads and parses a catalogue text (pattern files included, for their sizes): what an update
 * computes. Duplicate names, names that are not [A-Za-z0-9_.-]+, malformed lines and unreadable
 * patterns are refused with the line number. */
int golden_load(const char *catalogue_path, golden_catalogue *cat, cc_error *err);

/* The catalogue in force beside catalogue_path (its directory's `current`): the generation's copy
 * of the catalogue, with its hashes and snapshots, resolved once so that every later read is of
 * that one generation. `current` may be a link (as updated) or a plain directory (as Bazel's
 * runfiles lay it out). When catalogue_path differs from the copy in force, cat->edited is set and
 * a note naming `cellcheck golden update` goes to log (may be NULL): the goldens in force are
 * still whole and are what is verified. Generations and temporaries that are not in force (left
 * by a killed update) are noted there too and otherwise ignored. */
int golden_open(const char *catalogue_path, golden_catalogue *cat, FILE *log, cc_error *err);
void golden_free(golden_catalogue *cat);

/* "<root>/golden/catalogue.txt" into buf. */
int golden_catalogue_path(const char *root, char *buf, size_t size, cc_error *err);

/* The catalogue a command reads when none is named: <root>/golden/catalogue.txt when it is
 * readable (a source tree), else the one installed beside the running program,
 * <dir of /proc/self/exe>/../share/cellcheck/golden/catalogue.txt (ci/install.sh's layout).
 * Neither readable: CC_ERR_IO naming both paths. */
int golden_default_catalogue(const char *root, char *buf, size_t size, cc_error *err);

/* The case's initial grid (and for pattern cases, its torus). */
int golden_initial_grid(const golden_catalogue *cat, const golden_entry *e, cc_grid *out,
                        cc_error *err);
/* The oracle's final grid. */
int golden_oracle_result(const golden_catalogue *cat, const golden_entry *e, cc_grid *out,
                         cc_error *err);
/* The engine's final grid (create, load, step, store). Returns CC_ERR_UNSUPPORTED untouched when
 * the engine refuses the case. */
int golden_engine_result(const golden_catalogue *cat, const golden_entry *e,
                         const cc_engine *engine, cc_grid *out, cc_error *err);

/* BLAKE2b-256 (crypto_generichash, no key) over the W*H row-major 0/1 bytes, as lowercase hex. */
void golden_hash_grid(const cc_grid *g, char hex[GOLDEN_HASH_HEX]);

int golden_has_snapshot(const golden_entry *e);
/* A file name an update writes before renaming it into place ("x.rle.tmp.AbC123"). */
int golden_is_temporary(const char *name);
/* "<generation>/snapshots/<name>.rle" into buf. */
int golden_snapshot_path(const golden_catalogue *cat, const golden_entry *e, char *buf, size_t size,
                         cc_error *err);

/* The oracle reproduces every hash of hashes.txt and every snapshot; hashes.txt names exactly the
 * catalogue's cases and snapshots/ holds exactly the snapshots it should. Failures go to log (may
 * be NULL), each with its case line. CC_OK, CC_ERR_MISMATCH, or the error that stopped it. */
int golden_verify_oracle(const golden_catalogue *cat, FILE *log, golden_report *report,
                         cc_error *err);

/* Whether the generation cat was opened from (golden_open) is named by the hash of its files, as
 * the update that wrote it named it: a case cut from its catalogue copy, hashes.txt and
 * snapshots alike is caught here. CC_OK for a plain directory (no name to check). */
int golden_check_generation_name(const golden_catalogue *cat, cc_error *err);

/* Every case the engine supports reproduces its hash; cases it refuses are counted in
 * report->unsupported. The engine must be available. CC_OK, CC_ERR_MISMATCH, or an error. */
int golden_verify_engine(const golden_catalogue *cat, const cc_engine *engine, FILE *log,
                         golden_report *report, cc_error *err);
/* The same for shard `index` of `count`: the catalogue's entries i with i % count == index. */
int golden_verify_engine_shard(const golden_catalogue *cat, const cc_engine *engine, FILE *log,
                               uint32_t index, uint32_t count, golden_report *report,
                               cc_error *err);

/* Recomputes every hash and snapshot of cat (as golden_load read it) with the oracle and makes
 * them, with a copy of cat's text, the generation in force: every result first, then a new
 * generation directory written whole beside cat's file, then one rename of the link `current`.
 * An update that changes nothing writes nothing. Afterwards every other generation, the
 * temporaries of killed updates and the files of the layout before generations (hashes.txt and
 * snapshots/ beside the catalogue) are removed. Prints what changed to log (may be NULL).
 * One update at a time per catalogue directory: the whole update holds an exclusive flock on
 * .update.lock there, and a second one is refused at once ("another golden update is running"),
 * having written nothing. */
int golden_update(const golden_catalogue *cat, FILE *log, cc_error *err);

/* An engine's golden test (the driver cellcheck_engine's <name>_golden_test runs): every catalogue
 * case the engine supports reproduces its golden hash. Flag: --catalogue FILE. */
int cc_harness_golden(const cc_engine *engine, const cc_engine *reference, int argc, char **argv);
/* Its --help text, for a program named program, without an engine (a plugin driver's --help). */
void cc_harness_golden_help(const char *program, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
