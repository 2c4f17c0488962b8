#include "oracle/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int cc_fail(cc_error *err, int code, const char *fmt, ...) {
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->code = code;
    }
    return code;
}

int cc_prefix(cc_error *err, const char *fmt, ...) {
    if (!err) return CC_ERR_ARG;
    char out[sizeof err->msg];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out, sizeof out, fmt, ap);
    va_end(ap);
    /* Truncation is acceptable: the message stays NUL-terminated and starts with the context. */
    size_t used = n < 0 ? 0 : ((size_t)n < sizeof out ? (size_t)n : sizeof out - 1);
    const char *sep = ": ";
    for (size_t i = 0; sep[i] && used + 1 < sizeof out; i++) out[used++] = sep[i];
    size_t old_len = 0;
    while (old_len < sizeof err->msg - 1 && err->msg[old_len]) old_len++;
    size_t room = sizeof out - 1 - used;
    if (old_len > room) old_len = room;
    memcpy(out + used, err->msg, old_len);
    out[used + old_len] = '\0';
    memcpy(err->msg, out, sizeof out);
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
    default: return "unknown error";
    }
}
