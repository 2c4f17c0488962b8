/* Runs a command as a machine without some of the sandbox's mechanisms would: a seccomp filter
 * fails landlock_create_ruleset with ENOSYS (a kernel without Landlock) and unshare with EPERM (a
 * container that forbids namespaces), for the command and everything it starts. For the tests of
 * what a run says when parts of the sandbox cannot be enforced.
 *   deny_mechanisms COMMAND [ARG]... */
#define _GNU_SOURCE
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: deny_mechanisms COMMAND [ARG]...\n");
        return 2;
    }
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    int rc = ctx ? 0 : -ENOMEM;
    if (!rc) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(landlock_create_ruleset), 0);
    if (!rc) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(unshare), 0);
    if (!rc) rc = seccomp_load(ctx);
    if (ctx) seccomp_release(ctx);
    if (rc) {
        fprintf(stderr, "deny_mechanisms: seccomp: %s\n", strerror(-rc));
        return 2;
    }
    execvp(argv[1], argv + 1);
    fprintf(stderr, "deny_mechanisms: %s: %s\n", argv[1], strerror(errno));
    return 127;
}
