// NCCL across processes, for engines that run as one process per device (engine.h's rank_id and
// rank_create; CUDA C++, included by .cu files only): the library loaded at create, one
// communicator a rank from rank 0's unique id, and the halo exchange of row slabs (engines/slabs)
// between the ranks, each holding its own slab.
#ifndef CELLCHECK_ENGINES_CUDA_COMMON_NCCL_RANKS_CUH
#define CELLCHECK_ENGINES_CUDA_COMMON_NCCL_RANKS_CUH

#ifndef __CUDACC__
#error "engines/cuda/common/nccl_ranks.cuh is CUDA C++: include it from .cu files only"
#endif

#include <cuda_runtime.h>
#include <nccl.h>
#include <stddef.h>
#include <stdint.h>

#include "engines/cuda/common/nccl_library.cuh"

extern "C" {
#include "engines/engine.h"
#include "engines/slabs/slabs.h"
#include "oracle/error.h"
}

static_assert(sizeof(ncclUniqueId) <= CC_RANK_ID_BYTES, "NCCL's id fits a rank id");

// NCCL's functions and this rank's communicator. Zeroed: nothing open (one rank needs neither).
struct cc_nccl_rank {
    cc_nccl_library lib;
    ncclComm_t comm;
};

// Rank 0's id for the next communicator (ncclGetUniqueId), in this process: NCCL's bootstrap
// waits here for the ranks that join by it.
int cc_nccl_rank_id(const char *engine, uint8_t *id, cc_error *err);

// This rank's communicator among rank->ranks (none for one rank), on the current device.
// CC_ERR_UNAVAILABLE where NCCL is not installed. On failure, cc_nccl_rank_close cleans up.
int cc_nccl_rank_open(cc_nccl_rank *n, const char *engine, const cc_rank *rank, cc_error *err);

// Finalizes and destroys the communicator (the ranks destroy theirs together). Accepts zeroed.
void cc_nccl_rank_close(cc_nccl_rank *n);

// Where buffer row `row` of this rank's slab starts (device memory).
typedef void *(*cc_rank_row)(void *ctx, int32_t row);

// Enqueues one exchange on stream without waiting: this rank's halo pieces from the ranks that own
// their rows (its own by cudaMemcpyAsync), and its own rows to the ranks whose halos hold them, in
// one NCCL group. Rank me of slabs->devices.
int cc_nccl_rank_exchange(const cc_nccl_rank *n, const char *engine, const cc_slabs *slabs,
                          int32_t me, cudaStream_t stream, size_t row_bytes, cc_rank_row row,
                          void *ctx, cc_error *err);

#endif
