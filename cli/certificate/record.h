/* A certificate as one record: what `cellcheck certify` found for each engine (its verdict,
 * every section's counts, seconds and coverage, its gaps and first failure) and where the run
 * came from (the build, the machine, the goldens, the seed, the shard).
 *
 * certify fills it, or the merge of shard records does; the renderers beside it (render.h,
 * shard.h) write it as Markdown, JSON, JUnit XML or a shard file, and read nothing else. */
#ifndef CELLCHECK_CLI_CERTIFICATE_RECORD_H
#define CELLCHECK_CLI_CERTIFICATE_RECORD_H

#include <stdint.h>
#include <stdio.h>

#include "engines/engine.h"
#include "golden/golden.h"
#include "harness/harness.h"

/* The version of certificate.json's layout (cli/certificate.schema.json): raised whenever a field
 * is removed, renamed or changes its meaning, so readers can tell which layout they hold. */
#define CC_CERTIFICATE_SCHEMA_VERSION 2

/* INCOMPLETE: every check that ran passed, and some were left out (the engine's gaps) that the
 * user did not accept by name. CERTIFIED means none was left out, or only accepted ones. The
 * numbers are those of a shard file's verdict line. */
typedef enum cc_verdict {
    CC_VERDICT_CERTIFIED = 0,
    CC_VERDICT_FAILED = 1,
    CC_VERDICT_NOT_RUN = 2,
    CC_VERDICT_INCOMPLETE = 3
} cc_verdict;

/* "CERTIFIED", "FAILED", "NOT RUN", "INCOMPLETE". */
const char *cc_verdict_name(int verdict);

/* Memory kept after destroy worth a note: past what a fresh worker's allocator keeps. */
#define CC_KEPT_NOTE_BYTES (64.0 * 1048576.0)

/* The engine's own source, as its port names it (certify --source-name, --source-version,
 * --source-commit, --source-flags) and as its plugin says it was built (CC_PLUGIN_BUILD); each ""
 * where not given. The plugin's SHA-256 ties them to the file that ran. */
typedef struct cc_engine_source {
    char name[128], version[128], commit[128], flags[1024];
    char build[256];
} cc_engine_source;

/* One engine's row. The fields up to `seconds` travel in a shard file; the rest are the engine's
 * own (from the engine set), filled again where a merge reads shards back. */
typedef struct cc_certificate_engine {
    char name[64];
    char plugin_sha256[65]; /* the plugin file's SHA-256; "" for a built-in engine */
    int verdict;            /* cc_verdict */
    char reason[640];       /* why it was not run, or what failed */
    cc_conformance_summary conf; /* sections, gaps, the first failure, the campaign */
    golden_report golden;
    double golden_seconds;
    double seconds; /* 0 where nothing ran (its hardware absent) */
    cc_hardware hardware;
    char caps[512];      /* cc_engine_describe_caps: what it was certified for */
    char plugin[4096];   /* the plugin it came from, "" for a built-in engine */
    double kept_bytes;   /* the most its workers kept with no context live (a pool) */
    cc_engine_source source;
} cc_certificate_engine;

/* How the binary that ran was built (cli/version.h). */
typedef struct cc_build {
    char version[64], commit[64], compiler[256], mode[32], flags[2048];
} cc_build;

/* Where a certificate came from: the build, the date, the command line, the machine (OS, CPU, the
 * GPU and CUDA where an engine ran on one), the goldens in force, the campaign, the shard. */
typedef struct cc_provenance {
    cc_build build;
    char date[32];
    char command[1024];
    char host[256];
    char gpu[320]; /* "" where no engine ran on a GPU */
    char cuda_driver[32], cuda_runtime[32]; /* "13.0"; "" where no engine ran on a GPU */
    char os[400];  /* uname: "Linux 6.1.0-18-amd64 #1 SMP ... x86_64" */
    char cpu_model[256]; /* /proc/cpuinfo's whole "model name" */
    char cpu_vendor[64]; /* "" where unknown (then the family, model and stepping are not told) */
    int cpu_family, cpu_model_number, cpu_stepping; /* -1 where /proc/cpuinfo does not say */
    long cpu_logical;                               /* CPUs online */
    char golden_generation[256]; /* the generation golden/current named, as resolved */
    char seed[80];               /* the master seed, 64 hex digits */
    uint64_t cases;              /* campaign cases per engine */
    uint32_t shard_index, shard_count; /* a shard's partial certificate: which (count 1: whole) */
    int merged;                        /* a certificate merged from this many shards (0: none) */
    char hosts[1024];                  /* the shards' hosts, for a merged certificate */
    char sandbox[400]; /* the workers' sandbox: its parts in force, or "off (--sandbox off)" */
    int quick;         /* certify --quick: every section at its smallest, never CERTIFIED */
} cc_provenance;

typedef struct cc_certificate {
    cc_provenance prov;
    int engines;
    cc_certificate_engine *engine; /* engines of them, calloc'd */
} cc_certificate;

/* Room for n engines, zeroed; CC_ERR_NOMEM. */
int cc_certificate_alloc(cc_certificate *c, int n, cc_error *err);
void cc_certificate_free(cc_certificate *c);

/* Accepts the gaps accept names (may be NULL); an engine that passed is then CERTIFIED with no
 * gap left open, else INCOMPLETE. */
void cc_certificate_settle_gaps(cc_certificate_engine *e, const char *accept);

/* How many engines have each verdict (indexed by cc_verdict). */
void cc_certificate_count(const cc_certificate *c, int counts[4]);

/* A section's seconds (CC_CHECK_SECTION_COUNT: the goldens). */
double cc_certificate_section_seconds(const cc_certificate_engine *e, int section);

/* What an engine's failure was: its class, section, detail, case, calls, the campaign case
 * index (-1: none) and the reproducer; all "" where unknown or the engine did not fail. */
typedef struct cc_failure_view {
    const char *klass;
    const char *section;
    const char *detail;
    const char *case_line;
    const char *calls;
    int64_t index;
    const char *reproducer;
} cc_failure_view;

void cc_certificate_failure(const cc_certificate_engine *e, cc_failure_view *v);

#endif
