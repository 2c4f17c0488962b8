/* Which devices an engine over several GPUs of one host uses: the first N that CUDA shows
 * (CUDA_VISIBLE_DEVICES), N from CELLCHECK_DEVICES or else every visible one, at most
 * CC_DEVICES_MAX. Plain C without CUDA, so a memory estimate can count devices without starting
 * CUDA in its caller; the count a create will use, from CUDA itself, is cc_gpu_devices (gpu.h). */
#ifndef CELLCHECK_ENGINES_CUDA_COMMON_DEVICES_H
#define CELLCHECK_ENGINES_CUDA_COMMON_DEVICES_H

#ifdef __cplusplus
extern "C" {
#endif

/* The most devices one context spreads over. */
#define CC_DEVICES_MAX 16

/* What each device in use costs the process on the host beyond the grids, for memory estimates:
 * its CUDA context and NCCL's buffers (1059 MiB were held in a create of cuda.life-lop3-nccl on
 * two H200s). */
#define CC_DEVICE_HOST_BYTES (640.0 * 1024 * 1024)

/* CELLCHECK_DEVICES read against the `visible` devices (0: not known): the count to use
 * (`visible` when it is unset or empty), or -1 when it is not a whole number from 1 to visible.
 * Not capped at CC_DEVICES_MAX: callers cap what they use. */
int cc_devices_setting(int visible);

/* How halos travel between the devices of one process, from CELLCHECK_HALOS: "peer" (unset or
 * empty: the default) copies them directly between the devices' memories (CUDA peer access, the
 * path NCCL itself takes between GPUs of one process, set up in microseconds); "nccl" sends them
 * with NCCL's send and receive over communicators made at each create (about 0.5 s a create on
 * two H100s, so a certification's thousands of creates take hours). -1: neither. */
enum { CC_HALOS_PEER = 0, CC_HALOS_NCCL = 1 };
int cc_halos_setting(void);

/* The devices a create will use, without starting CUDA: CUDA_VISIBLE_DEVICES's entries, else the
 * driver's GPUs in /proc/driver/nvidia/gpus, then CELLCHECK_DEVICES where it is one of them; at
 * least 1 and at most CC_DEVICES_MAX. For estimates: a create counts with CUDA. */
int cc_devices_expected(void);

#ifdef __cplusplus
}
#endif

#endif
