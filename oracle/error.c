#define _POSIX_C_SOURCE 200809L
#include "oracle/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* text (len bytes) into msg, whole when it fits; else its start and its end around " ... ", the
 * end the longer part: a long path in the middle of a message is cut, and the reason, which
 * messages end with, is kept. */
static void fit(char msg[CC_ERROR_MSG_MAX], const char *text, size_t len) {
    if (len < CC_ERROR_MSG_MAX) {
        memcpy(msg, text, len);
        msg[len] = '\0';
        return;
    }
    static const char cut[] = " ... ";
    size_t room = CC_ERROR_MSG_MAX - 1 - (sizeof cut - 1);
    size_t head = room / 3, tail = room - head;
    memcpy(msg, text, head);
    memcpy(msg + head, cut, sizeof cut - 1);
    memcpy(msg + head + sizeof cut - 1, text + len - tail, tail);
    msg[CC_ERROR_MSG_MAX - 1] = '\0';
}

/* fmt and ap, then suffix, into msg through fit(). */
static void format_fit(char msg[CC_ERROR_MSG_MAX], const char *suffix, const char *fmt,
                       va_list ap) {
    char local[4 * CC_ERROR_MSG_MAX];
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(local, sizeof local, fmt, ap);
    size_t extra = suffix ? strlen(suffix) : 0;
    if (n < 0) {
        va_end(again);
        fit(msg, "(unprintable message)", 21);
        return;
    }
    char *text = local;
    if ((size_t)n + extra >= sizeof local) {
        text = malloc((size_t)n + extra + 1);
        if (text) vsnprintf(text, (size_t)n + 1, fmt, again);
        else text = local, n = (int)sizeof local - 1, extra = 0; /* cut short rather than fail */
    }
    va_end(again);
    if (extra) memcpy(text + n, suffix, extra + 1);
    fit(msg, text, (size_t)n + extra);
    if (text != local) free(text);
}

int cc_fail(cc_error *err, int code, const char *fmt, ...) {
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        format_fit(err->msg, NULL, fmt, ap);
        va_end(ap);
        err->code = code;
    }
    return code;
}

int cc_prefix(cc_error *err, const char *fmt, ...) {
    if (!err) return CC_ERR_ARG;
    char old[CC_ERROR_MSG_MAX + 2] = ": ";
    size_t old_len = strnlen(err->msg, CC_ERROR_MSG_MAX - 1);
    memcpy(old + 2, err->msg, old_len);
    old[2 + old_len] = '\0';
    va_list ap;
    va_start(ap, fmt);
    format_fit(err->msg, old, fmt, ap);
    va_end(ap);
    return err->code;
}

void cc_error_clear(cc_error *err) {
    if (err) {
        err->code = CC_OK;
        err->msg[0] = '\0';
    }
}

const char *cc_code_name(int code) {
    switch (code) {
    case CC_OK: return "ok";
    case CC_ERR_ARG: return "bad argument";
    case CC_ERR_UNSUPPORTED: return "unsupported";
    case CC_ERR_IO: return "i/o error";
    case CC_ERR_NOMEM: return "out of memory";
    case CC_ERR_DEVICE: return "device error";
    case CC_ERR_UNAVAILABLE: return "unavailable";
    case CC_ERR_MISMATCH: return "mismatch";
    case CC_ERR_CRASHED: return "crashed";
    case CC_ERR_EXITED: return "exited";
    case CC_ERR_TIMEOUT: return "timed out";
    case CC_ERR_MEMORY_LIMIT: return "out of memory (worker limit)";
    case CC_ERR_CONTRACT: return "broke the contract";
    case CC_ERR_SANDBOX: return "broke the sandbox";
    default: return "unknown error";
    }
}
