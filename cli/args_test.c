#include "cli/args.h"

#include <string.h>

#include "testing/check.h"

static int parse(int argc, char **argv, cli_flag *flags, int n, cc_error *err) {
    for (int i = 0; i < n; i++) flags[i].value = NULL;
    cc_error_clear(err);
    return cli_parse_flags(argc, argv, flags, n, err);
}

int main(void) {
    checks t = {"args_test", 0, 0};
    cli_flag flags[] = {{"--engine", NULL}, {"--cases", NULL}};
    cc_error err;

    char *ok[] = {"--engine", "cpu.ref", "--cases=12"};
    CHECK(&t, parse(3, ok, flags, 2, &err) == CC_OK);
    CHECK(&t, flags[0].value && strcmp(flags[0].value, "cpu.ref") == 0);
    CHECK(&t, flags[1].value && strcmp(flags[1].value, "12") == 0);

    char *unknown[] = {"--engin", "x"};
    CHECK(&t, parse(2, unknown, flags, 2, &err) == CC_ERR_ARG &&
                  strstr(err.msg, "unknown option '--engin'"));
    char *missing[] = {"--engine"};
    CHECK(&t, parse(1, missing, flags, 2, &err) == CC_ERR_ARG && strstr(err.msg, "needs a value"));
    char *twice[] = {"--cases", "1", "--cases", "2"};
    CHECK(&t, parse(4, twice, flags, 2, &err) == CC_ERR_ARG && strstr(err.msg, "given twice"));
    char *positional[] = {"cpu.ref"};
    CHECK(&t, parse(1, positional, flags, 2, &err) == CC_ERR_ARG &&
                  strstr(err.msg, "unexpected argument"));

    int64_t v, lo, hi;
    CHECK(&t, cli_parse_int64("--cases", "2000", 0, 1000000, &v, &err) == CC_OK && v == 2000);
    CHECK(&t, cli_parse_int64("--cases", "20x", 0, 1000000, &v, &err) == CC_ERR_ARG &&
                  strstr(err.msg, "not an integer"));
    CHECK(&t, cli_parse_int64("--cases", "-1", 0, 1000000, &v, &err) == CC_ERR_ARG &&
                  strstr(err.msg, "outside"));
    CHECK(&t,
          cli_parse_int64("--cases", "99999999999999999999", 0, 1000000, &v, &err) == CC_ERR_ARG);
    CHECK(&t, cli_parse_range("--radius", "3..9", 1, 64, &lo, &hi, &err) == CC_OK && lo == 3 &&
                  hi == 9);
    CHECK(&t,
          cli_parse_range("--radius", "5", 1, 64, &lo, &hi, &err) == CC_OK && lo == 5 && hi == 5);
    CHECK(&t, cli_parse_range("--radius", "9..3", 1, 64, &lo, &hi, &err) == CC_ERR_ARG &&
                  strstr(err.msg, "empty"));
    CHECK(&t, cli_parse_range("--radius", "0..3", 1, 64, &lo, &hi, &err) == CC_ERR_ARG);
    CHECK(&t, cli_parse_range("--radius", "..", 1, 64, &lo, &hi, &err) == CC_ERR_ARG);

    return check_summary(&t);
}
