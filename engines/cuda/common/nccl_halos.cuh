// NCCL for the engines over several GPUs of one host (CUDA C++; included by .cu files only): the
// library loaded at create, one communicator a device, and the halo exchange of row slabs
// (engines/slabs), which every such engine does the same way; only where a row lives differs.
#ifndef CELLCHECK_ENGINES_CUDA_COMMON_NCCL_HALOS_CUH
#define CELLCHECK_ENGINES_CUDA_COMMON_NCCL_HALOS_CUH

#ifndef __CUDACC__
#error "engines/cuda/common/nccl_halos.cuh is CUDA C++: include it from .cu files only"
#endif

#include <cuda_runtime.h>
#include <nccl.h>
#include <stddef.h>
#include <stdint.h>

#include "engines/cuda/common/nccl_library.cuh"

extern "C" {
#include "engines/cuda/common/devices.h"
#include "engines/slabs/slabs.h"
#include "oracle/error.h"
}

// NCCL's functions, from the library loaded at cc_nccl_open, and the communicators over the
// devices. Zeroed: nothing open (one device needs neither).
struct cc_nccl {
    cc_nccl_library lib;
    ncclComm_t comm[CC_DEVICES_MAX];
    int comms; // communicators made: 0 or the devices
    // Peer copies (CC_HALOS_PEER over several devices): each device's event after its own work
    // and after the copies into it, so that a copy waits for its source's writes and the source's
    // next writes wait for the copies out of it.
    int peer;
    int ids[CC_DEVICES_MAX];
    cudaEvent_t written[CC_DEVICES_MAX], copied[CC_DEVICES_MAX];
};

// For more than one device, by CELLCHECK_HALOS (devices.h): peer copies (the default) enable peer
// access between every pair of ids[0 .. devices-1] and make the events that order the copies;
// NCCL is loaded (libnccl.so.2, else CUDA's copy; CC_ERR_UNAVAILABLE where neither is) with one
// communicator for each device, rank d on ids[d]. For one device, nothing: its halos are copies
// on the device. A CELLCHECK_HALOS that is neither is refused (CC_ERR_ARG). On failure,
// cc_nccl_close cleans up.
int cc_nccl_open(cc_nccl *n, const char *engine, const int *ids, int devices, cc_error *err);

// Finalizes the communicators together (a finalize waits on its peers), destroys them. Teardown
// cannot report. Accepts a zeroed cc_nccl.
void cc_nccl_close(cc_nccl *n);

// "peer copies", "NCCL" or "one device": how this context's halos travel, for its device name.
const char *cc_nccl_transport(const cc_nccl *n);

// Where buffer row `row` of slab `device`'s grid starts (device memory of that slab's device).
typedef void *(*cc_halo_row)(void *ctx, int device, int32_t row);

// One exchange: every slab's halo rows from the slabs that own them.
struct cc_halo_exchange {
    const char *engine;
    const cc_slabs *slabs;
    const int *ids;              // the CUDA device of each slab
    const cudaStream_t *streams; // each slab's stream, which its copies and NCCL calls go on
    size_t row_bytes;            // a row, contiguous; consecutive rows are consecutive
    cc_halo_row row;
    void *ctx;
};

// Enqueues the exchange without waiting: pieces from the slab itself (one device, or thin slabs
// around the torus) by cudaMemcpyAsync, the others by peer copies or ncclSend/ncclRecv in one
// group.
int cc_nccl_exchange(const cc_nccl *n, const cc_halo_exchange *x, cc_error *err);

#endif
