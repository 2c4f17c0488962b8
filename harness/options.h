/* Command-line options from a table, on getopt_long: every command of cellcheck and every test
 * driver describes its flags once, and the parsing, the usage line and the --help text all come
 * from that description.
 *
 *   const char *engine = NULL;
 *   int64_t steps = 0;
 *   cc_option opts[] = {
 *       CC_OPTION_STRING("engine", "NAME", &engine, "the engine to run"),
 *       CC_OPTION_INT64("steps", "K", &steps, 0, INT64_MAX, "steps to run"),
 *   };
 *   opts[0].required = 1;
 *   cc_command cmd = {"cellcheck run", "One engine on one grid file.", opts, 2};
 *
 * Flags are "--name value" or "--name=value", each at most once; names are matched whole (no
 * abbreviations); positional arguments are refused; "--help" and "-h" ask for the help text.
 * Errors name the flag and the bad value. Nothing here prints unless asked to, or exits. */
#ifndef CELLCHECK_HARNESS_OPTIONS_H
#define CELLCHECK_HARNESS_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "oracle/error.h"

/* C++ callers (CUDA engines, ports) see C linkage. */
#ifdef __cplusplus
extern "C" {
#endif

typedef enum cc_option_kind {
    CC_OPTION_FLAG,   /* takes no value: *(int *)dest = 1 */
    CC_OPTION_STRING, /* *(const char **)dest = the value (a pointer into argv), never empty */
    CC_OPTION_INT,    /* *(int *)dest: a whole number within [min, max] */
    CC_OPTION_INT64,  /* *(int64_t *)dest: a whole number within [min, max] */
    CC_OPTION_UINT64, /* *(uint64_t *)dest: a whole number within [min, max], min >= 0 */
    CC_OPTION_RANGE,  /* *(cc_option_range *)dest: "A..B" or "A", within [min, max], A <= B */
    CC_OPTION_CUSTOM  /* parse(flag, value, dest, err), e.g. a seed or a list */
} cc_option_kind;

typedef struct cc_option_range {
    int64_t lo, hi;
} cc_option_range;

/* flag is "--name", for messages; returns CC_OK or an error whose message names flag and value. */
typedef int (*cc_option_parse_fn)(const char *flag, const char *value, void *dest, cc_error *err);

typedef struct cc_option {
    const char *name;    /* "engine" for --engine */
    cc_option_kind kind;
    const char *metavar; /* how the usage text shows the value ("NAME"); unused for a flag */
    const char *help;    /* one line for --help */
    void *dest;
    int64_t min, max;         /* the integer kinds and ranges */
    cc_option_parse_fn parse; /* CC_OPTION_CUSTOM */
    int required;             /* refused when absent */
    int given;                /* set by cc_options_parse */
} cc_option;

#define CC_OPTION_ROW(name_, kind_, metavar_, dest_, min_, max_, parse_, help_)                 \
    {.name = (name_), .kind = (kind_), .metavar = (metavar_), .help = (help_), .dest = (dest_), \
     .min = (min_), .max = (max_), .parse = (parse_), .required = 0, .given = 0}
#define CC_OPTION_FLAG(name, dest, help)                                                         \
    CC_OPTION_ROW(name, CC_OPTION_FLAG, NULL, dest, 0, 0, NULL, help)
#define CC_OPTION_STRING(name, metavar, dest, help)                                              \
    CC_OPTION_ROW(name, CC_OPTION_STRING, metavar, dest, 0, 0, NULL, help)
#define CC_OPTION_INT(name, metavar, dest, min, max, help)                                       \
    CC_OPTION_ROW(name, CC_OPTION_INT, metavar, dest, min, max, NULL, help)
#define CC_OPTION_INT64(name, metavar, dest, min, max, help)                                     \
    CC_OPTION_ROW(name, CC_OPTION_INT64, metavar, dest, min, max, NULL, help)
#define CC_OPTION_UINT64(name, metavar, dest, min, max, help)                                    \
    CC_OPTION_ROW(name, CC_OPTION_UINT64, metavar, dest, min, max, NULL, help)
#define CC_OPTION_RANGE(name, metavar, dest, min, max, help)                                     \
    CC_OPTION_ROW(name, CC_OPTION_RANGE, metavar, dest, min, max, NULL, help)
#define CC_OPTION_CUSTOM(name, metavar, dest, parse, help)                                       \
    CC_OPTION_ROW(name, CC_OPTION_CUSTOM, metavar, dest, 0, 0, parse, help)

/* The longest table a command may have. */
#define CC_OPTIONS_MAX 32

typedef struct cc_command {
    const char *name;  /* "cellcheck check": the usage line starts with it */
    const char *about; /* what the command does, for --help (may be NULL) */
    cc_option *options;
    size_t count;
} cc_command;

/* Parses argv[1..argc) (argv[0] is the command's name) into the table's destinations and marks
 * each option given. *help is set to 1, and nothing else is checked, when --help or -h is among
 * the arguments. Returns CC_OK, or CC_ERR_ARG for an unknown flag, a missing or empty value, a
 * value a flag takes none of, a flag given twice, a bad value, a positional argument, or a
 * required flag absent; CC_ERR_NOMEM or CC_ERR_ARG for a malformed table. */
int cc_options_parse(cc_command *cmd, int argc, char **argv, int *help, cc_error *err);

/* "usage: NAME --required X [--optional Y] ...", wrapped to 80 columns. */
void cc_options_usage(const cc_command *cmd, FILE *out);

/* The usage line, the about text, then one line per flag with its help (--help included). */
void cc_options_help(const cc_command *cmd, FILE *out);

/* For a command line's main: prints "NAME: message", a blank line and the usage line to errout;
 * returns 2, the exit status of a usage error. */
int cc_options_usage_error(const cc_command *cmd, const cc_error *err, FILE *errout);

/* cc_options_parse, then the usual answers: returns 0 when the command should go on, else 1 with
 * *status the exit status: 0 after printing the help text to out (--help), 2 after a usage error
 * (cc_options_usage_error). */
int cc_options_parse_or_usage(cc_command *cmd, int argc, char **argv, FILE *out, FILE *errout,
                              int *status);

/* argv[0] without its directories (for a driver's cc_command name), or fallback without one. */
const char *cc_options_program(int argc, char **argv, const char *fallback);

/* A whole number (decimal, optional '-') within [lo, hi]; the message names flag and text. */
int cc_option_parse_int64(const char *flag, const char *text, int64_t lo, int64_t hi, int64_t *out,
                          cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
