// NCCL across processes (nccl_ranks.cuh).
#include <string.h>

#include "engines/cuda/common/check.cuh"
#include "engines/cuda/common/nccl_ranks.cuh"

int cc_nccl_rank_id(const char *engine, uint8_t *id, cc_error *err) {
    cc_nccl_library lib;
    int rc = cc_nccl_library_load(&lib, engine, err);
    ncclUniqueId unique;
    if (rc == CC_OK) {
        const ncclResult_t r = lib.get_unique_id(&unique);
        if (r != ncclSuccess) rc = cc_nccl_library_fail(&lib, r, engine, "ncclGetUniqueId", err);
        else memcpy(id, &unique, sizeof unique);
    }
    cc_nccl_library_close(&lib);
    return rc;
}

int cc_nccl_rank_open(cc_nccl_rank *n, const char *engine, const cc_rank *rank, cc_error *err) {
    *n = cc_nccl_rank{};
    if (rank->ranks == 1) return CC_OK;
    int rc = cc_nccl_library_load(&n->lib, engine, err);
    if (rc != CC_OK) return rc;
    ncclUniqueId unique;
    memcpy(&unique, rank->id, sizeof unique);
    const ncclResult_t r = n->lib.comm_init_rank(&n->comm, rank->ranks, unique, rank->rank);
    if (r != ncclSuccess) {
        n->comm = nullptr;
        return cc_nccl_library_fail(&n->lib, r, engine, "ncclCommInitRank", err);
    }
    return CC_OK;
}

void cc_nccl_rank_close(cc_nccl_rank *n) {
    if (n->comm) {
        n->lib.comm_finalize(n->comm);
        n->lib.comm_destroy(n->comm);
    }
    cc_nccl_library_close(&n->lib);
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
    ncclResult_t r = n->lib.group_start();
    if (r != ncclSuccess) return cc_nccl_library_fail(&n->lib, r, engine, "ncclGroupStart", err);
    // Between two ranks, sends and receives pair in the order they are issued: both sides go
    // through the receiving slab's pieces in order.
    for (int32_t d = 0; d < slabs->devices && r == ncclSuccess; d++) {
        const cc_slab *sl = &slabs->slab[d];
        for (int32_t k = 0; k < sl->pieces && r == ncclSuccess; k++) {
            const cc_slab_piece *p = &sl->piece[k];
            const size_t bytes = (size_t)p->count * row_bytes;
            if (d == me && p->src_device != me)
                r = n->lib.recv(row(ctx, p->dst_row), bytes, ncclUint8, p->src_device, n->comm,
                                stream);
            else if (d != me && p->src_device == me)
                r = n->lib.send(row(ctx, p->src_row), bytes, ncclUint8, d, n->comm, stream);
        }
    }
    if (r != ncclSuccess) rc = cc_nccl_library_fail(&n->lib, r, engine, "ncclSend/ncclRecv", err);
    // Ended whatever happened inside, so that NCCL's group state is left balanced.
    r = n->lib.group_end();
    if (r != ncclSuccess && rc == CC_OK)
        rc = cc_nccl_library_fail(&n->lib, r, engine, "ncclGroupEnd", err);
    return rc;
}
