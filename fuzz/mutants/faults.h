/* The fault corpus: engines that crash, hang, exit, leak or scribble, one fault each, on the
 * correct per-cell loop of mutants.h. Each must end with its class from check, certify and its
 * conformance test, and cellcheck must survive it (supervise/supervisor.h). Built as the plugin
 * libfaults.so (and libfaults_gpu.so for the CUDA faults), the way a port arrives.
 *
 *   fault.none                                   no fault: the control      passes
 *   fault.crash-create ... fault.crash-destroy   SIGSEGV in that call       crashed
 *   fault.abort                                  abort() in step            crashed
 *   fault.double-free                            free twice in step         crashed
 *   fault.overrun-1, fault.overrun-64            store writes 1 or 64 bytes past the grid
 *                                                                           broke the contract
 *   fault.hang-step                              step never returns         timed out
 *   fault.sleep-create                           create sleeps an hour      timed out
 *   fault.exit0-step, fault.exit3-step           exit(0) or exit(3) in step exited
 *   fault.leak                                   keeps 256 MiB of each create  out of memory (leak)
 *   fault.write-input                            flips a cell of load's input  broke the contract
 *   fault.other-grid                             store returns the newest context's grid
 *                                                                           differs under a call pattern
 *   fault.clock                                  flips a cell when the clock's microseconds are odd
 *                                                                           mismatch with the oracle
 *   fault.store-twice                            a second store in a row gives the generation
 *                                                before                     broke the contract
 *   (libfaults_ctor.so)                          a plugin whose constructor crashes
 *   fault.cuda-illegal-address                   a kernel writes to an unmapped address
 *                                                                           device error
 *   fault.cuda-spin                              a kernel that never ends   timed out */
#ifndef CELLCHECK_FUZZ_MUTANTS_FAULTS_H
#define CELLCHECK_FUZZ_MUTANTS_FAULTS_H

#include "engines/engine.h"

/* The CPU faults and fault.none, NULL-terminated. */
const cc_engine *const *cc_faults_all(void);

#endif
