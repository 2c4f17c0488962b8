// NCCL loaded at create, its communicators, and the halo exchange of row slabs (nccl_halos.cuh).
#include "engines/cuda/common/check.cuh"
#include "engines/cuda/common/nccl_halos.cuh"

namespace {

// Peer access is enabled once a process, and enabling it again is an error (which the driver
// reports and compute-sanitizer counts). So each device is asked first whether it maps memory of
// the other already: the address through which it may use a probe allocated there, which the
// runtime gives as NULL until peer access is enabled. (The driver's access flags say read-write
// before it is: measured on two H200s, with copies staged through the host, 32 us for 384 KiB
// against 4 us.)
int reach_peer(const char *engine, int peer, void *probe, cc_error *err) {
    cudaPointerAttributes a;
    cudaError_t c = cudaPointerGetAttributes(&a, probe);
    if (c != cudaSuccess) return cc_cuda_fail(c, engine, "cudaPointerGetAttributes", err);
    if (a.devicePointer) return CC_OK;
    c = cudaDeviceEnablePeerAccess(peer, 0);
    if (c != cudaSuccess) return cc_cuda_fail(c, engine, "cudaDeviceEnablePeerAccess", err);
    return CC_OK;
}

// Peer access both ways between every pair (where the hardware has none, the copies still work,
// staged by the driver), and each device's two events.
int open_peer(cc_nccl *n, const char *engine, const int *ids, int devices, cc_error *err) {
    void *probe[CC_DEVICES_MAX] = {};
    int rc = CC_OK;
    for (int s = 0; s < devices && rc == CC_OK; s++) {
        cudaError_t c = cudaSetDevice(ids[s]);
        if (c == cudaSuccess) c = cudaMalloc(&probe[s], 256);
        if (c != cudaSuccess) rc = cc_cuda_fail(c, engine, "the peer-access probe", err);
    }
    for (int d = 0; d < devices && rc == CC_OK; d++) {
        cudaError_t c = cudaSetDevice(ids[d]);
        if (c != cudaSuccess) rc = cc_cuda_fail(c, engine, "cudaSetDevice", err);
        for (int s = 0; s < devices && rc == CC_OK; s++) {
            if (s == d) continue;
            int can = 0;
            c = cudaDeviceCanAccessPeer(&can, ids[d], ids[s]);
            if (c != cudaSuccess) rc = cc_cuda_fail(c, engine, "cudaDeviceCanAccessPeer", err);
            else if (can) rc = reach_peer(engine, ids[s], probe[s], err);
        }
        if (rc != CC_OK) break;
        n->ids[d] = ids[d];
        c = cudaEventCreateWithFlags(&n->written[d], cudaEventDisableTiming);
        if (c == cudaSuccess) c = cudaEventCreateWithFlags(&n->copied[d], cudaEventDisableTiming);
        if (c != cudaSuccess) rc = cc_cuda_fail(c, engine, "cudaEventCreateWithFlags", err);
        n->peer = d + 1;
    }
    for (int s = 0; s < devices; s++)
        if (probe[s] && cudaSetDevice(ids[s]) == cudaSuccess) (void)cudaFree(probe[s]);
    return rc;
}

// Every stream waits for the event of every other device.
int wait_all(const cc_nccl *n, const cc_halo_exchange *x, const cudaEvent_t *events, cc_error *err) {
    for (int d = 0; d < n->peer; d++) {
        CC_CUDA_CHECK(x->engine, cudaSetDevice(x->ids[d]));
        for (int s = 0; s < n->peer; s++)
            if (s != d) CC_CUDA_CHECK(x->engine, cudaStreamWaitEvent(x->streams[d], events[s], 0));
    }
    return CC_OK;
}

int record_all(const cc_nccl *n, const cc_halo_exchange *x, const cudaEvent_t *events,
               cc_error *err) {
    for (int d = 0; d < n->peer; d++) {
        CC_CUDA_CHECK(x->engine, cudaSetDevice(x->ids[d]));
        CC_CUDA_CHECK(x->engine, cudaEventRecord(events[d], x->streams[d]));
    }
    return CC_OK;
}

// The peer exchange: every device's own work recorded, each waits for the others' before its
// copies in, and each waits for the others' copies before its next writes.
int exchange_peer(const cc_nccl *n, const cc_halo_exchange *x, cc_error *err) {
    int rc = record_all(n, x, n->written, err);
    if (rc == CC_OK) rc = wait_all(n, x, n->written, err);
    for (int d = 0; d < x->slabs->devices && rc == CC_OK; d++) {
        const cc_slab *sl = &x->slabs->slab[d];
        CC_CUDA_CHECK(x->engine, cudaSetDevice(x->ids[d]));
        for (int32_t k = 0; k < sl->pieces && rc == CC_OK; k++) {
            const cc_slab_piece *p = &sl->piece[k];
            const cudaError_t c = cudaMemcpyAsync(
                x->row(x->ctx, d, p->dst_row), x->row(x->ctx, p->src_device, p->src_row),
                (size_t)p->count * x->row_bytes, cudaMemcpyDeviceToDevice, x->streams[d]);
            if (c != cudaSuccess) rc = cc_cuda_fail(c, x->engine, "the halo's peer copy", err);
        }
    }
    if (rc == CC_OK) rc = record_all(n, x, n->copied, err);
    if (rc == CC_OK) rc = wait_all(n, x, n->copied, err);
    return rc;
}

} // namespace

const char *cc_nccl_transport(const cc_nccl *n) {
    return n->comms ? "NCCL" : n->peer ? "peer copies" : "one device";
}

int cc_nccl_open(cc_nccl *n, const char *engine, const int *ids, int devices, cc_error *err) {
    *n = cc_nccl{};
    if (devices <= 1) return CC_OK;
    if (devices > CC_DEVICES_MAX)
        return cc_fail(err, CC_ERR_ARG, "%s: %d devices; at most %d", engine, devices,
                       CC_DEVICES_MAX);
    const int halos = cc_halos_setting();
    if (halos < 0)
        return cc_fail(err, CC_ERR_ARG, "%s: CELLCHECK_HALOS=%s; \"peer\" (the default) or \"nccl\"",
                       engine, getenv("CELLCHECK_HALOS"));
    if (halos == CC_HALOS_PEER) return open_peer(n, engine, ids, devices, err);
    int rc = cc_nccl_library_load(&n->lib, engine, err);
    if (rc != CC_OK) return rc;
    const ncclResult_t r = n->lib.comm_init_all(n->comm, devices, ids);
    if (r != ncclSuccess)
        return cc_nccl_library_fail(&n->lib, r, engine, "ncclCommInitAll", err);
    n->comms = devices;
    return CC_OK;
}

void cc_nccl_close(cc_nccl *n) {
    for (int d = 0; d < n->peer; d++) {
        if (cudaSetDevice(n->ids[d]) != cudaSuccess) continue;
        if (n->written[d]) (void)cudaEventDestroy(n->written[d]);
        if (n->copied[d]) (void)cudaEventDestroy(n->copied[d]);
    }
    if (n->comms) {
        n->lib.group_start();
        for (int c = 0; c < n->comms; c++) n->lib.comm_finalize(n->comm[c]);
        n->lib.group_end();
        for (int c = 0; c < n->comms; c++) n->lib.comm_destroy(n->comm[c]);
    }
    cc_nccl_library_close(&n->lib);
    *n = cc_nccl{};
}

int cc_nccl_exchange(const cc_nccl *n, const cc_halo_exchange *x, cc_error *err) {
    if (n->peer) return exchange_peer(n, x, err);
    const char *engine = x->engine;
    if (n->comms) {
        const ncclResult_t r = n->lib.group_start();
        if (r != ncclSuccess)
            return cc_nccl_library_fail(&n->lib, r, engine, "ncclGroupStart", err);
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
            ncclResult_t r = n->lib.send(src, bytes, ncclUint8, d, n->comm[s], x->streams[s]);
            if (r == ncclSuccess)
                r = n->lib.recv(dst, bytes, ncclUint8, s, n->comm[d], x->streams[d]);
            if (r != ncclSuccess)
                rc = cc_nccl_library_fail(&n->lib, r, engine, "ncclSend/ncclRecv", err);
        }
    }
    if (n->comms) {
        // Ended whatever happened inside, so that NCCL's group state is left balanced.
        const ncclResult_t r = n->lib.group_end();
        if (r != ncclSuccess && rc == CC_OK)
            rc = cc_nccl_library_fail(&n->lib, r, engine, "ncclGroupEnd", err);
    }
    return rc;
}
