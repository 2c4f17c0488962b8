// NCCL's functions from libnccl.so.2 (nccl_library.cuh).
#include <dlfcn.h>

#include "engines/cuda/common/nccl_library.cuh"

int cc_nccl_library_load(cc_nccl_library *lib, const char *engine, cc_error *err) {
    *lib = cc_nccl_library{};
    const char *names[] = {"libnccl.so.2", "/usr/local/cuda/lib64/libnccl.so.2"};
    for (const char *name : names)
        if ((lib->handle = dlopen(name, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)) != nullptr) break;
    if (!lib->handle)
        return cc_fail(err, CC_ERR_UNAVAILABLE, "%s: NCCL (libnccl.so.2) is not installed: %s",
                       engine, dlerror());
#define CC_NCCL_SYM(field, sym)                                                                  \
    if (!(*(void **)&lib->field = dlsym(lib->handle, sym)))                                      \
        return cc_fail(err, CC_ERR_UNAVAILABLE, "%s: NCCL has no %s", engine, sym);
    CC_NCCL_SYM(get_unique_id, "ncclGetUniqueId")
    CC_NCCL_SYM(comm_init_rank, "ncclCommInitRank")
    CC_NCCL_SYM(comm_init_all, "ncclCommInitAll")
    CC_NCCL_SYM(comm_finalize, "ncclCommFinalize")
    CC_NCCL_SYM(comm_destroy, "ncclCommDestroy")
    CC_NCCL_SYM(group_start, "ncclGroupStart")
    CC_NCCL_SYM(group_end, "ncclGroupEnd")
    CC_NCCL_SYM(send, "ncclSend")
    CC_NCCL_SYM(recv, "ncclRecv")
    CC_NCCL_SYM(error_string, "ncclGetErrorString")
    CC_NCCL_SYM(get_version, "ncclGetVersion")
#undef CC_NCCL_SYM
    return CC_OK;
}

void cc_nccl_library_close(cc_nccl_library *lib) {
    if (lib->handle) dlclose(lib->handle);
    *lib = cc_nccl_library{};
}

int cc_nccl_library_fail(const cc_nccl_library *lib, ncclResult_t r, const char *engine,
                         const char *call, cc_error *err) {
    return cc_fail(err, CC_ERR_DEVICE, "%s: %s failed: %s", engine, call,
                   lib->error_string ? lib->error_string(r) : "NCCL");
}

int cc_nccl_library_version(int *version, cc_error *err) {
    cc_nccl_library lib;
    *version = 0;
    int rc = cc_nccl_library_load(&lib, "NCCL", err);
    if (rc == CC_OK) {
        const ncclResult_t r = lib.get_version(version);
        if (r != ncclSuccess) rc = cc_nccl_library_fail(&lib, r, "NCCL", "ncclGetVersion", err);
    }
    cc_nccl_library_close(&lib);
    return rc;
}
