/* pointers.h: the device pointers a call is handed (SS_EV_ARGS events): the address range of
 * the device allocations seen so far and the kernels' parameter layouts; internal to
 * interpose/. Lock-free and allocation-free: called on the launch path. */
#ifndef SS_INTERPOSE_POINTERS_H
#define SS_INTERPOSE_POINTERS_H

#include <stdint.h>

#include "evlog.h"

/* Widens the address range of device allocations by the allocation of 'bytes' at 'base'. */
void ss_pointers_note_alloc(uint64_t base, uint64_t bytes);

/* Fills 'out' (kind, complete, count, values) for a launch of the CUfunction 'function' with
 * the driver's 'kernel_params' (void **, one pointer per parameter) or, when that is 0, its
 * 'extra' array (the parameters in one buffer): every 8-byte word of every parameter that lies
 * in the address range of the allocations seen so far, at most SS_ARGS_MAX of them.
 * 'out->complete' is 1 only when every parameter was read (its layout known from
 * cuFuncGetParamInfo) and every such word was kept. The parameter layout of each function is
 * asked for once and kept in a fixed table. */
void ss_pointers_launch(ss_ev_args *out, uint64_t function, uint64_t kernel_params, uint64_t extra);

/* capture_driver.c: the program's CUDA driver's function 'name': the one the program's global
 * scope has, else the loaded libcuda.so.1's (the driver stays loaded: the program holds it);
 * NULL when neither has it. Loads nothing (RTLD_NOLOAD). Also the light mode's lookups. */
void *ss_capture_driver_symbol(const char *name);

#endif
