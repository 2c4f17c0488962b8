// NCCL across processes (nccl_ranks.cuh).
#include <dlfcn.h>
#include <string.h>

#include "engines/cuda/common/check.cuh"
#include "engines/cuda/common/nccl_ranks.cuh"

namespace {

int fail(const cc_nccl_rank *n, ncclResult_t r, const char *engine, const char *call,
         cc_error *err) {
    return cc_fail(err, CC_ERR_DEVICE, "%s: %s failed: %s", engine, call,
                   n->error_string ? n->error_string(r) : "NCCL");
}

int load(cc_nccl_rank *n, const char *engine, cc_error *err) {
    const char *names[] = {"libnccl.so.2", "/usr/local/cuda/lib64/libnccl.so.2"};
    for (const char *name : names)
        // Never unloaded: NCCL sets itself up once a process.
        if ((n->handle = dlopen(name, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)) != nullptr) break;
    if (!n->handle)
        return cc_fail(err, CC_ERR_UNAVAILABLE, "%s: NCCL (libnccl.so.2) is not installed: %s",
                       engine, dlerror());
#define CC_NCCL_SYM(field, sym)                                                                  \
    if (!(*(void **)&n->field = dlsym(n->handle, sym)))                                          \
        return cc_fail(err, CC_ERR_UNAVAILABLE, "%s: NCCL has no %s", engine, sym);
    CC_NCCL_SYM(get_unique_id, "ncclGetUniqueId")
    CC_NCCL_SYM(comm_init_rank, "ncclCommInitRank")
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

int cc_nccl_rank_id(const char *engine, uint8_t *id, cc_error *err) {
    cc_nccl_rank n = {};
    int rc = load(&n, engine, err);
    ncclUniqueId unique;
    if (rc == CC_OK) {
        const ncclResult_t r = n.get_unique_id(&unique);
        if (r != ncclSuccess) rc = fail(&n, r, engine, "ncclGetUniqueId", err);
        else memcpy(id, &unique, sizeof unique);
    }
    if (n.handle) dlclose(n.handle);
    return rc;
}

int cc_nccl_rank_open(cc_nccl_rank *n, const char *engine, const cc_rank *rank, cc_error *err) {
    *n = cc_nccl_rank{};
    if (rank->ranks == 1) return CC_OK;
    int rc = load(n, engine, err);
    if (rc != CC_OK) return rc;
    ncclUniqueId unique;
    memcpy(&unique, rank->id, sizeof unique);
    const ncclResult_t r = n->comm_init_rank(&n->comm, rank->ranks, unique, rank->rank);
    if (r != ncclSuccess) {
        n->comm = nullptr;
        return fail(n, r, engine, "ncclCommInitRank", err);
    }
    return CC_OK;
}

void cc_nccl_rank_close(cc_nccl_rank *n) {
    if (n->comm) {
        n->comm_finalize(n->comm);
        n->comm_destroy(n->comm);
    }
    if (n->handle) dlclose(n->handle);
    *n = cc_nccl_rank{};
}

int cc_nccl_rank_exchange(const cc_nccl_rank *n, const char *engine, const cc_slabs *slabs,
                          int32_t me, cudaStream_t stream, size_t row_bytes, cc_rank_row row,
                          void *ctx, cc_error *err) {
    int rc = CC_OK;
    const cc_slab *mine = &slabs->slab[me];
    for (int32_t k = 0; k < mine->pieces && rc == CC_OK; k++) {
        const cc_slab_piece *p = &mine->piece[k];
        if (p->src_device != me) continue;
        const cudaError_t c = cudaMemcpyAsync(row(ctx, p->dst_row), row(ctx, p->src_row),
                                              (size_t)p->count * row_bytes,
                                              cudaMemcpyDeviceToDevice, stream);
        if (c != cudaSuccess) rc = cc_cuda_fail(c, engine, "the halo copy", err);
    }
    if (rc != CC_OK || !n->comm) return rc;
    ncclResult_t r = n->group_start();
    if (r != ncclSuccess) return fail(n, r, engine, "ncclGroupStart", err);
    // Between two ranks, sends and receives pair in the order they are issued: both sides go
    // through the receiving slab's pieces in order.
    for (int32_t d = 0; d < slabs->devices && r == ncclSuccess; d++) {
        const cc_slab *sl = &slabs->slab[d];
        for (int32_t k = 0; k < sl->pieces && r == ncclSuccess; k++) {
            const cc_slab_piece *p = &sl->piece[k];
            const size_t bytes = (size_t)p->count * row_bytes;
            if (d == me && p->src_device != me)
                r = n->recv(row(ctx, p->dst_row), bytes, ncclUint8, p->src_device, n->comm,
                            stream);
            else if (d != me && p->src_device == me)
                r = n->send(row(ctx, p->src_row), bytes, ncclUint8, d, n->comm, stream);
        }
    }
    if (r != ncclSuccess) rc = fail(n, r, engine, "ncclSend/ncclRecv", err);
    // Ended whatever happened inside, so that NCCL's group state is left balanced.
    r = n->group_end();
    if (r != ncclSuccess && rc == CC_OK) rc = fail(n, r, engine, "ncclGroupEnd", err);
    return rc;
}
