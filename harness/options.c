/* Command-line options from a table, on getopt_long (see options.h). */
#define _GNU_SOURCE /* getopt_long */

#include "harness/options.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* getopt_long's value for table row i: above every character, so never a short option. */
#define ROW_VAL(i) (0x100 + (int)(i))
#define WRAP_COLUMNS 80
#define HELP_COLUMN 26

int cc_option_parse_int64(const char *flag, const char *text, int64_t lo, int64_t hi, int64_t *out,
                          cc_error *err) {
    const char *digits = text[0] == '-' ? text + 1 : text;
    if (!*digits) return cc_fail(err, CC_ERR_ARG, "%s: '%s' is not a whole number", flag, text);
    for (const char *p = digits; *p; p++)
        if (*p < '0' || *p > '9')
            return cc_fail(err, CC_ERR_ARG, "%s: '%s' is not a whole number", flag, text);
    errno = 0;
    long long v = strtoll(text, NULL, 10);
    if (errno == ERANGE || v < lo || v > hi)
        return cc_fail(err, CC_ERR_ARG, "%s: %s is outside %lld..%lld", flag, text, (long long)lo,
                       (long long)hi);
    *out = v;
    return CC_OK;
}

static int parse_range(const char *flag, const char *text, int64_t min, int64_t max,
                       cc_option_range *out, cc_error *err) {
    const char *dots = strstr(text, "..");
    if (!dots) {
        int rc = cc_option_parse_int64(flag, text, min, max, &out->lo, err);
        if (!rc) out->hi = out->lo;
        return rc;
    }
    char lo_text[32];
    size_t n = (size_t)(dots - text);
    if (n == 0 || n >= sizeof lo_text || !dots[2])
        return cc_fail(err, CC_ERR_ARG, "%s: '%s' is not a range A..B or a number A", flag, text);
    memcpy(lo_text, text, n);
    lo_text[n] = '\0';
    cc_option_range r;
    int rc = cc_option_parse_int64(flag, lo_text, min, max, &r.lo, err);
    if (!rc) rc = cc_option_parse_int64(flag, dots + 2, min, max, &r.hi, err);
    if (rc) return rc;
    if (r.lo > r.hi) return cc_fail(err, CC_ERR_ARG, "%s: range '%s' is empty", flag, text);
    *out = r;
    return CC_OK;
}

/* One value into its row's destination. */
static int store_value(const cc_option *o, const char *flag, const char *value, cc_error *err) {
    int64_t v;
    int rc;
    switch (o->kind) {
    case CC_OPTION_FLAG: *(int *)o->dest = 1; return CC_OK;
    case CC_OPTION_STRING: *(const char **)o->dest = value; return CC_OK;
    case CC_OPTION_INT:
        if ((rc = cc_option_parse_int64(flag, value, o->min, o->max, &v, err))) return rc;
        *(int *)o->dest = (int)v;
        return CC_OK;
    case CC_OPTION_INT64:
        if ((rc = cc_option_parse_int64(flag, value, o->min, o->max, &v, err))) return rc;
        *(int64_t *)o->dest = v;
        return CC_OK;
    case CC_OPTION_UINT64:
        if ((rc = cc_option_parse_int64(flag, value, o->min, o->max, &v, err))) return rc;
        *(uint64_t *)o->dest = (uint64_t)v;
        return CC_OK;
    case CC_OPTION_RANGE: return parse_range(flag, value, o->min, o->max, o->dest, err);
    case CC_OPTION_CUSTOM: return o->parse(flag, value, o->dest, err);
    }
    return cc_fail(err, CC_ERR_ARG, "%s: unknown option kind %d", flag, (int)o->kind);
}

static int check_table(const cc_command *cmd, cc_error *err) {
    if (cmd->count > CC_OPTIONS_MAX)
        return cc_fail(err, CC_ERR_ARG, "%s: %zu options, at most %d", cmd->name, cmd->count,
                       CC_OPTIONS_MAX);
    for (size_t i = 0; i < cmd->count; i++) {
        const cc_option *o = &cmd->options[i];
        if (!o->name || !o->dest || (o->kind == CC_OPTION_CUSTOM && !o->parse) ||
            (o->kind != CC_OPTION_FLAG && !o->metavar) ||
            (o->kind == CC_OPTION_INT && (o->min < INT32_MIN || o->max > INT32_MAX)) ||
            (o->kind == CC_OPTION_UINT64 && o->min < 0))
            return cc_fail(err, CC_ERR_ARG, "%s: option table row %zu is malformed", cmd->name, i);
    }
    return CC_OK;
}

/* The flag as the user wrote it, without any "=value", for messages. */
static int flag_len(const char *arg) {
    const char *eq = strchr(arg, '=');
    size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
    return n > 200 ? 200 : (int)n;
}

int cc_options_parse(cc_command *cmd, int argc, char **argv, int *help, cc_error *err) {
    *help = 0;
    int rc = check_table(cmd, err);
    if (rc) return rc;
    struct option longopts[CC_OPTIONS_MAX + 2];
    size_t n = 0;
    for (; n < cmd->count; n++) {
        cmd->options[n].given = 0;
        longopts[n] = (struct option){cmd->options[n].name,
                                      cmd->options[n].kind == CC_OPTION_FLAG ? no_argument
                                                                             : required_argument,
                                      NULL, ROW_VAL(n)};
    }
    longopts[n++] = (struct option){"help", no_argument, NULL, 'h'};
    longopts[n] = (struct option){NULL, 0, NULL, 0};

    /* '+': stop at the first positional argument (refused below) rather than permuting argv;
     * ':': report a missing value apart from an unknown flag. optind 0 starts afresh. */
    opterr = 0;
    optind = 0;
    for (;;) {
        int at = optind ? optind : 1;
        int c = getopt_long(argc, argv, "+:h", longopts, NULL);
        if (c == -1) break;
        if (c == 'h') {
            *help = 1;
            return CC_OK;
        }
        if (c == ':') {
            if (optopt >= ROW_VAL(0))
                return cc_fail(err, CC_ERR_ARG, "option --%s needs a value",
                               cmd->options[optopt - ROW_VAL(0)].name);
            return cc_fail(err, CC_ERR_ARG, "option '%.*s' needs a value", flag_len(argv[at]),
                           argv[at]);
        }
        if (c == '?') {
            if (optopt >= ROW_VAL(0))
                return cc_fail(err, CC_ERR_ARG, "option --%s takes no value",
                               cmd->options[optopt - ROW_VAL(0)].name);
            if (optopt > 0 && optopt < ROW_VAL(0))
                return cc_fail(err, CC_ERR_ARG, "unknown option '-%c'", optopt);
            return cc_fail(err, CC_ERR_ARG, "unknown option '%.*s'", flag_len(argv[at]), argv[at]);
        }
        cc_option *o = &cmd->options[c - ROW_VAL(0)];
        /* getopt_long takes any unambiguous prefix; a flag must be spelled out. */
        size_t name_len = strlen(o->name);
        const char *arg = argv[at];
        if (strncmp(arg, "--", 2) != 0 || strncmp(arg + 2, o->name, name_len) != 0 ||
            (arg[2 + name_len] != '\0' && arg[2 + name_len] != '='))
            return cc_fail(err, CC_ERR_ARG, "unknown option '%.*s'", flag_len(arg), arg);
        char flag[80];
        snprintf(flag, sizeof flag, "--%s", o->name);
        if (o->given) return cc_fail(err, CC_ERR_ARG, "option %s given twice", flag);
        o->given = 1;
        if (o->kind != CC_OPTION_FLAG && !*optarg)
            return cc_fail(err, CC_ERR_ARG, "option %s has an empty value", flag);
        if ((rc = store_value(o, flag, optarg, err))) return rc;
    }
    if (optind < argc) return cc_fail(err, CC_ERR_ARG, "unexpected argument '%s'", argv[optind]);
    for (size_t i = 0; i < cmd->count; i++)
        if (cmd->options[i].required && !cmd->options[i].given)
            return cc_fail(err, CC_ERR_ARG, "--%s is required", cmd->options[i].name);
    return CC_OK;
}

/* "--name METAVAR" (or "--name") into buf. */
static void flag_text(const cc_option *o, char *buf, size_t size) {
    if (o->kind == CC_OPTION_FLAG)
        snprintf(buf, size, "--%s", o->name);
    else
        snprintf(buf, size, "--%s %s", o->name, o->metavar);
}

void cc_options_usage(const cc_command *cmd, FILE *out) {
    int indent = (int)strlen("usage: ") + (int)strlen(cmd->name);
    if (indent > WRAP_COLUMNS / 2) indent = (int)strlen("usage: "); /* a long program path */
    int column = fprintf(out, "usage: %s", cmd->name);
    for (size_t i = 0; i < cmd->count; i++) {
        const cc_option *o = &cmd->options[i];
        char item[160], text[128];
        flag_text(o, text, sizeof text);
        snprintf(item, sizeof item, o->required ? "%s" : "[%s]", text);
        int len = (int)strlen(item);
        if (column + 1 + len > WRAP_COLUMNS && column > indent) {
            fprintf(out, "\n%*s", indent, "");
            column = indent;
        }
        column += fprintf(out, " %s", item);
    }
    fputc('\n', out);
}

void cc_options_help(const cc_command *cmd, FILE *out) {
    cc_options_usage(cmd, out);
    if (cmd->about) fprintf(out, "\n%s\n", cmd->about);
    fprintf(out, "\noptions:\n");
    for (size_t i = 0; i <= cmd->count; i++) {
        char text[128];
        const char *help;
        if (i < cmd->count) {
            flag_text(&cmd->options[i], text, sizeof text);
            help = cmd->options[i].help ? cmd->options[i].help : "";
        } else {
            snprintf(text, sizeof text, "-h, --help");
            help = "print this help and exit";
        }
        int width = fprintf(out, "  %s", text);
        if (width + 2 > HELP_COLUMN) {
            fprintf(out, "\n%*s", HELP_COLUMN, "");
        } else {
            fprintf(out, "%*s", HELP_COLUMN - width, "");
        }
        /* A help text of several lines keeps its column. */
        for (const char *line = help, *end;; line = end + 1) {
            end = strchr(line, '\n');
            if (!end) {
                fprintf(out, "%s\n", line);
                break;
            }
            fprintf(out, "%.*s\n%*s", (int)(end - line), line, HELP_COLUMN, "");
        }
    }
}

int cc_options_usage_error(const cc_command *cmd, const cc_error *err, FILE *errout) {
    fprintf(errout, "%s: %s\n\n", cmd->name, err->msg);
    cc_options_usage(cmd, errout);
    fprintf(errout, "(%s --help says more)\n", cmd->name);
    return 2;
}

int cc_options_parse_or_usage(cc_command *cmd, int argc, char **argv, FILE *out, FILE *errout,
                              int *status) {
    cc_error err;
    cc_error_clear(&err);
    int help = 0;
    if (cc_options_parse(cmd, argc, argv, &help, &err)) {
        *status = cc_options_usage_error(cmd, &err, errout);
        return 1;
    }
    if (help) {
        cc_options_help(cmd, out);
        *status = 0;
        return 1;
    }
    *status = 0;
    return 0;
}

const char *cc_options_program(int argc, char **argv, const char *fallback) {
    if (argc < 1 || !argv[0] || !*argv[0]) return fallback;
    const char *slash = strrchr(argv[0], '/');
    return slash && slash[1] ? slash + 1 : argv[0];
}
