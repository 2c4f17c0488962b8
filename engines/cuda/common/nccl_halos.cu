// NCCL loaded at create, its communicators, and the halo exchange of row slabs (nccl_halos.cuh).
#include <dlfcn.h>

#include "engines/cuda/common/check.cuh"
#include "engines/cuda/common/nccl_halos.cuh"

int cc_nccl_fail(const cc_nccl *n, ncclResult_t r, const char *engine, const char *call,
                 cc_error *err) {
    return cc_fail(err, CC_ERR_DEVICE, "%s: %s failed: %s", engine, call,
                   n->error_string ? n->error_string(r) : "NCCL");
}

namespace {

int load(cc_nccl *n, const char *engine, cc_error *err) {
    const char *names[] = {"libnccl.so.2", "/usr/local/cuda/lib64/libnccl.so.2"};
    for (const char *name : names)
        // Never unloaded: NCCL sets itself up once a process, and a fresh copy each create
        // would set up (and hold) its host buffers again.
        if ((n->handle = dlopen(name, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)) != nullptr) break;
    if (!n->handle)
        return cc_fail(err, CC_ERR_UNAVAILABLE, "%s: NCCL (libnccl.so.2) is not installed: %s",
                       engine, dlerror());
#define CC_NCCL_SYM(field, sym)                                                                  \
    if (!(*(void **)&n->field = dlsym(n->handle, sym)))                                          \
        return cc_fail(err, CC_ERR_UNAVAILABLE, "%s: NCCL has no %s", engine, sym);
    CC_NCCL_SYM(comm_init_all, "ncclCommInitAll")
    CC_NCCL_SYM(comm_finalize, "ncclCommFinalize")
    CC_NCCL_SYM(comm_destroy, "ncclCommDestroy")
    CC_NCCL_SYM(group_start, "ncclGroupStart")
    CC_NCCL_SYM(group_end, "ncclGroupEnd")
    CC_NCCL_SYM(send, "ncclSend")
    CC_NCCL_SYM(recv, "ncclRecv")
    CC_NCCL_SYM(error_string, "ncclGetErrorString")
#undef CC_NCCL_SYM
    return CC_OK;
}

} // namespace

int cc_nccl_open(cc_nccl *n, const char *engine, const int *ids, int devices, cc_error *err) {
    *n = cc_nccl{};
    if (devices <= 1) return CC_OK;
    if (devices > CC_DEVICES_MAX)
        return cc_fail(err, CC_ERR_ARG, "%s: %d devices; at most %d", engine, devices,
                       CC_DEVICES_MAX);
    int rc = load(n, engine, err);
    if (rc != CC_OK) return rc;
    const ncclResult_t r = n->comm_init_all(n->comm, devices, ids);
    if (r != ncclSuccess) return cc_nccl_fail(n, r, engine, "ncclCommInitAll", err);
    n->comms = devices;
    return CC_OK;
}

void cc_nccl_close(cc_nccl *n) {
    if (n->comms) {
        n->group_start();
        for (int c = 0; c < n->comms; c++) n->comm_finalize(n->comm[c]);
        n->group_end();
        for (int c = 0; c < n->comms; c++) n->comm_destroy(n->comm[c]);
    }
    if (n->handle) dlclose(n->handle);
    *n = cc_nccl{};
}

int cc_nccl_exchange(const cc_nccl *n, const cc_halo_exchange *x, cc_error *err) {
    const char *engine = x->engine;
    if (n->comms) {
        const ncclResult_t r = n->group_start();
        if (r != ncclSuccess) return cc_nccl_fail(n, r, engine, "ncclGroupStart", err);
    }
    int rc = CC_OK;
    for (int d = 0; d < x->slabs->devices && rc == CC_OK; d++) {
        const cc_slab *sl = &x->slabs->slab[d];
        for (int32_t k = 0; k < sl->pieces && rc == CC_OK; k++) {
            const cc_slab_piece *p = &sl->piece[k];
            const int s = p->src_device;
            void *dst = x->row(x->ctx, d, p->dst_row);
            const void *src = x->row(x->ctx, s, p->src_row);
            const size_t bytes = (size_t)p->count * x->row_bytes;
            if (s == d) {
                cudaError_t c = cudaSetDevice(x->ids[d]);
                if (c == cudaSuccess)
                    c = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, x->streams[d]);
                if (c != cudaSuccess) rc = cc_cuda_fail(c, engine, "the halo copy", err);
                continue;
            }
            if (!n->comms) {
                rc = cc_fail(err, CC_ERR_ARG, "%s: a halo from device %d without NCCL", engine,
                             s);
                break;
            }
            // The same order on both sides: pieces in order, each one's send and receive.
            ncclResult_t r = n->send(src, bytes, ncclUint8, d, n->comm[s], x->streams[s]);
            if (r == ncclSuccess) r = n->recv(dst, bytes, ncclUint8, s, n->comm[d], x->streams[d]);
            if (r != ncclSuccess) rc = cc_nccl_fail(n, r, engine, "ncclSend/ncclRecv", err);
        }
    }
    if (n->comms) {
        // Ended whatever happened inside, so that NCCL's group state is left balanced.
        const ncclResult_t r = n->group_end();
        if (r != ncclSuccess && rc == CC_OK) rc = cc_nccl_fail(n, r, engine, "ncclGroupEnd", err);
    }
    return rc;
}
