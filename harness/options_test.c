/* The option-table parser: values of every kind, each refusal with a message that names the flag
 * and the value, --help, and the usage and help text built from the table. */
#define _POSIX_C_SOURCE 200809L
#include "harness/options.h"

#include <stdlib.h>
#include <string.h>

#include "testing/check.h"

typedef struct values {
    const char *engine;
    int64_t steps;
    uint64_t cases;
    int repeats;
    int verbose;
    cc_option_range radius;
    int parity; /* set by the custom parser */
} values;

static int parse_parity(const char *flag, const char *value, void *dest, cc_error *err) {
    if (strcmp(value, "even") && strcmp(value, "odd"))
        return cc_fail(err, CC_ERR_ARG, "%s: '%s' is neither even nor odd", flag, value);
    *(int *)dest = value[0] == 'o';
    return CC_OK;
}

/* Parses args (a NULL-terminated list after the command name) into v; returns the code. */
static int parse(values *v, int *help, cc_error *err, char **args) {
    memset(v, 0, sizeof *v);
    cc_option opts[] = {
        CC_OPTION_STRING("engine", "NAME", &v->engine, "the engine"),
        CC_OPTION_INT64("steps", "K", &v->steps, 0, 1000, "steps to run"),
        CC_OPTION_UINT64("cases", "N", &v->cases, 1, INT64_C(1) << 40, "how many cases"),
        CC_OPTION_INT("repeats", "R", &v->repeats, 1, 9, "repeats"),
        CC_OPTION_FLAG("verbose", &v->verbose, "say more"),
        CC_OPTION_RANGE("radius", "A..B", &v->radius, 1, 64, "radii"),
        CC_OPTION_CUSTOM("parity", "even|odd", &v->parity, parse_parity, "a custom value"),
    };
    opts[0].required = 1;
    cc_command cmd = {"test", NULL, opts, sizeof opts / sizeof opts[0]};
    char *argv[32] = {"test"};
    int argc = 1;
    while (args[argc - 1]) {
        argv[argc] = args[argc - 1];
        argc++;
    }
    cc_error_clear(err);
    return cc_options_parse(&cmd, argc, argv, help, err);
}

#define ARGS(...) ((char *[]){__VA_ARGS__, NULL})

static void expect_refused(checks *t, char **args, const char *want1, const char *want2) {
    values v;
    int help;
    cc_error err;
    int rc = parse(&v, &help, &err, args);
    CHECKF(t, rc == CC_ERR_ARG && strstr(err.msg, want1) && (!want2 || strstr(err.msg, want2)),
           "%s: code %d, message '%s', wanted '%s' %s", args[0], rc, err.msg, want1,
           want2 ? want2 : "");
}

static void test_values(checks *t) {
    values v;
    int help;
    cc_error err;
    CHECK(t, parse(&v, &help, &err,
                   ARGS("--engine", "cpu.ref", "--steps=12", "--cases", "2000", "--repeats", "3",
                        "--verbose", "--radius", "3..9", "--parity=odd")) == CC_OK);
    CHECK(t, !help && v.engine && strcmp(v.engine, "cpu.ref") == 0);
    CHECK(t, v.steps == 12 && v.cases == 2000 && v.repeats == 3 && v.verbose == 1);
    CHECK(t, v.radius.lo == 3 && v.radius.hi == 9 && v.parity == 1);
    CHECK(t, parse(&v, &help, &err, ARGS("--engine=x", "--radius", "5")) == CC_OK);
    CHECK(t, v.radius.lo == 5 && v.radius.hi == 5 && v.steps == 0 && v.verbose == 0);
    /* A value may start with '-': it is the flag's value, then refused or taken on its merits. */
    CHECK(t, parse(&v, &help, &err, ARGS("--engine", "-x")) == CC_OK && !strcmp(v.engine, "-x"));
    /* "--" ends the flags. */
    CHECK(t, parse(&v, &help, &err, ARGS("--engine", "x", "--")) == CC_OK);
}

/* Each refused with CC_ERR_ARG and a message holding want1 and want2 (when not NULL). */
static const struct refusal {
    const char *args[8];
    const char *want1, *want2;
} refusals[] = {
    {{"--engine", "x", "--colour", "red", NULL}, "unknown option '--colour'", NULL},
    {{"--engine", "x", "--colour=red", NULL}, "unknown option '--colour'", NULL},
    {{"--engin", "x", NULL}, "unknown option '--engin'", NULL},
    {{"--engine", "x", "-v", NULL}, "unknown option '-v'", NULL},
    {{"--engine", NULL}, "option --engine needs a value", NULL},
    {{"--engine", "x", "--steps", NULL}, "option --steps needs a value", NULL},
    {{"--engine=", NULL}, "option --engine has an empty value", NULL},
    {{"--engine", "x", "--verbose=yes", NULL}, "option --verbose takes no value", NULL},
    {{"--engine", "x", "--engine", "y", NULL}, "option --engine given twice", NULL},
    {{"--engine", "x", "cpu.ref", NULL}, "unexpected argument 'cpu.ref'", NULL},
    {{"--engine", "x", "--", "y", NULL}, "unexpected argument 'y'", NULL},
    {{"--steps", "1", NULL}, "--engine is required", NULL},
    /* Integers: the flag and the value in every message. */
    {{"--engine", "x", "--steps", "20x", NULL}, "--steps", "'20x' is not a whole"},
    {{"--engine", "x", "--steps", " 5", NULL}, "--steps", "' 5' is not a whole"},
    {{"--engine", "x", "--steps", "-", NULL}, "--steps", "'-' is not a whole"},
    {{"--engine", "x", "--steps", "-1", NULL}, "--steps", "-1 is outside 0..1000"},
    {{"--engine", "x", "--steps", "1001", NULL}, "--steps", "1001 is outside"},
    {{"--engine", "x", "--cases", "0", NULL}, "--cases", "0 is outside"},
    {{"--engine", "x", "--cases", "99999999999999999999", NULL},
     "--cases",
     "99999999999999999999 is outside"},
    {{"--engine", "x", "--repeats", "10", NULL}, "--repeats", "10 is outside 1..9"},
    /* Ranges. */
    {{"--engine", "x", "--radius", "9..3", NULL}, "--radius", "'9..3' is empty"},
    {{"--engine", "x", "--radius", "0..3", NULL}, "--radius", "0 is outside 1..64"},
    {{"--engine", "x", "--radius", "3..65", NULL}, "--radius", "65 is outside"},
    {{"--engine", "x", "--radius", "..", NULL}, "--radius", "'..' is not a range"},
    {{"--engine", "x", "--radius", "3..", NULL}, "--radius", "'3..' is not a range"},
    {{"--engine", "x", "--radius", "a..b", NULL}, "--radius", "'a' is not a whole"},
    /* A custom parser's message comes through. */
    {{"--engine", "x", "--parity", "both", NULL}, "--parity", "'both' is neither even nor odd"},
};

static void test_refusals(checks *t) {
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++)
        expect_refused(t, (char **)refusals[i].args, refusals[i].want1, refusals[i].want2);
}

static void test_help(checks *t) {
    values v;
    int help;
    cc_error err;
    /* --help wins over a missing required flag, and -h means the same. */
    CHECK(t, parse(&v, &help, &err, ARGS("--help")) == CC_OK && help == 1);
    CHECK(t, parse(&v, &help, &err, ARGS("--steps", "3", "-h")) == CC_OK && help == 1);
    CHECK(t, parse(&v, &help, &err, ARGS("--engine", "x")) == CC_OK && help == 0);

    cc_option opts[] = {
        CC_OPTION_STRING("engine", "NAME", &v.engine, "the engine to check"),
        CC_OPTION_UINT64("cases", "N", &v.cases, 1, 100, "how many cases"),
        CC_OPTION_FLAG("verbose", &v.verbose, "say more"),
        CC_OPTION_RANGE("a-very-long-option-name", "A..B", &v.radius, 1, 2, "a long one"),
    };
    opts[0].required = 1;
    cc_command cmd = {"tool sub", "What the command does.", opts, 4};
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cc_options_help(&cmd, f);
    fclose(f);
    CHECKF(t, strncmp(text, "usage: tool sub --engine NAME [--cases N] [--verbose]", 53) == 0,
           "usage line: %s", text);
    CHECKF(t, strstr(text, "\n                [--a-very-long-option-name A..B]\n") != NULL,
           "the usage line is not wrapped under the command: %s", text);
    CHECK(t, strstr(text, "What the command does.") != NULL);
    static const char *const lines[] = {"--engine NAME", "the engine to check", "--cases N",
                                        "how many cases", "--verbose", "say more",
                                        "--a-very-long-option-name A..B", "a long one",
                                        "-h, --help"};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        CHECKF(t, strstr(text, lines[i]) != NULL, "--help does not mention '%s':\n%s", lines[i],
               text);
    for (char *p = text; (p = strchr(p, '\n')) != NULL; p++) {
        char *next = strchr(p + 1, '\n');
        CHECKF(t, !next || next - p - 1 <= 80, "a help line is over 80 columns: %.*s",
               next ? (int)(next - p - 1) : 0, p + 1);
    }
    free(text);

    text = NULL;
    f = open_memstream(&text, &len);
    cc_options_usage(&cmd, f);
    fclose(f);
    CHECKF(t, strncmp(text, "usage: tool sub ", 16) == 0 && !strstr(text, "options:"),
           "usage: %s", text);
    free(text);
}

static void test_bad_table(checks *t) {
    int flag = 0;
    cc_option opts[] = {CC_OPTION_CUSTOM("x", "X", &flag, NULL, "no parser")};
    cc_command cmd = {"bad", NULL, opts, 1};
    char *argv[] = {"bad"};
    int help;
    cc_error err;
    CHECKF(t, cc_options_parse(&cmd, 1, argv, &help, &err) == CC_ERR_ARG &&
                  strstr(err.msg, "malformed"),
           "a custom row without a parser: %s", err.msg);
}

/* What a main does with the parse: --help to out with status 0, a usage error to errout with 2. */
static void test_exit_status(checks *t) {
    const char *name = NULL;
    cc_option opts[] = {CC_OPTION_STRING("name", "NAME", &name, "a name")};
    cc_command cmd = {"tool", NULL, opts, 1};
    char *out_text = NULL, *err_text = NULL;
    size_t out_len = 0, err_len = 0;
    int status = -1;

    FILE *out = open_memstream(&out_text, &out_len), *errout = open_memstream(&err_text, &err_len);
    char *help[] = {"tool", "--help"};
    CHECK(t, cc_options_parse_or_usage(&cmd, 2, help, out, errout, &status) == 1 && status == 0);
    fclose(out);
    fclose(errout);
    CHECKF(t, strstr(out_text, "usage: tool [--name NAME]") && strstr(out_text, "a name") &&
                  err_len == 0,
           "--help: out '%s', err '%s'", out_text, err_text);
    free(out_text);
    free(err_text);

    out = open_memstream(&out_text, &out_len);
    errout = open_memstream(&err_text, &err_len);
    char *bad[] = {"tool", "--nmae", "x"};
    CHECK(t, cc_options_parse_or_usage(&cmd, 3, bad, out, errout, &status) == 1 && status == 2);
    fclose(out);
    fclose(errout);
    CHECKF(t,
           out_len == 0 &&
               strncmp(err_text, "tool: unknown option '--nmae'\n\nusage: tool", 41) == 0,
           "usage error: out '%s', err '%s'", out_text, err_text);
    free(out_text);
    free(err_text);

    char *good[] = {"tool", "--name", "x"};
    CHECK(t, cc_options_parse_or_usage(&cmd, 3, good, stdout, stderr, &status) == 0 &&
                 status == 0 && name && strcmp(name, "x") == 0);

    CHECK(t, strcmp(cc_options_program(1, (char *[]){"bazel-bin/a/b_test"}, "x"), "b_test") == 0);
    CHECK(t, strcmp(cc_options_program(0, NULL, "fallback"), "fallback") == 0);
}

int main(void) {
    checks t = {"options_test", 0, 0};
    test_values(&t);
    test_refusals(&t);
    test_help(&t);
    test_bad_table(&t);
    test_exit_status(&t);
    return check_summary(&t);
}
