/* python.h: the calling thread's Python stack, read from CPython's own thread state and
 * frames without the GIL and without allocating; internal to interpose/. */
#ifndef SS_INTERPOSE_PYTHON_H
#define SS_INTERPOSE_PYTHON_H

#include <stdint.h>

#include "sitecache.h"
#include "store.h"

/* How the interposer prints its one-line messages. */
typedef void (*ss_python_say_fn)(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Looks for a CPython interpreter in the process (its exported symbols, found with dlsym)
 * and chooses the frame layout of its version: 3.10, 3.11, 3.12 from built-in tables, 3.13
 * from the _Py_DebugOffsets it publishes. Prints nothing: a version that cannot be read is
 * reported through 'say' once, at the first capture. Safe to call again (after a fork, or
 * when an interpreter may have been loaded since); not thread-safe against a concurrent
 * ss_python_capture of another thread. */
void ss_python_init(ss_python_say_fn say);

/* Resolves the calling thread's Python frames, innermost first, into 'thread's frame table
 * (budgeted) and writes at most 'max' of their ids into 'ids'. Returns the number written:
 * 0 when the process has no interpreter, it is not initialized (or is finalizing), this
 * thread has no Python thread state or no frames, or the frames cannot be read. Never takes
 * the GIL or any lock, never calls malloc; bounded in time. */
uint32_t ss_python_capture(ss_thread_store *thread, ss_budget *budget, uint32_t *ids, uint32_t max);

/* The Python frames of another thread of the interpreter, for a call made on a thread that has
 * none (PyTorch's autograd engine, XLA's runtime threads): the stack of the oldest thread that
 * stood still while it was read (a thread waiting outside the interpreter, in the call that
 * started this work, or for the GIL) and has a frame of the program's own code. Resolves them
 * into the calling thread's table as ss_python_capture does and writes at most 'max' ids.
 * Returns the number written, 0 when there is no such thread. Every read of another thread's
 * memory goes through process_vm_readv, which fails instead of faulting: nothing is read where
 * it is not permitted. Never takes the GIL or a lock, never calls malloc. */
uint32_t ss_python_capture_other(ss_thread_store *thread, ss_budget *budget, uint32_t *ids,
                                 uint32_t max);

/* Mixes the calling thread's own Python frames into 'key' as they lie in memory (each frame's
 * code object, instruction, owner, and its code object's file and name objects), resolving
 * nothing: the frames ss_python_capture with 'max' reads, innermost first, and no other (the
 * walk stops after 'max' frames it keeps when one of them is the program's own code, else at
 * the first such frame past them; whether a file is a library's is remembered per code object
 * in 'cache'). So two calls whose keys are equal get the same frames from ss_python_capture
 * (but for a thread whose frame table is full: its walk leaves out the frames it cannot add
 * and reads on).
 * Returns the number of frames mixed, 0 when there are none or they cannot be read (then the
 * key means nothing, as when a frame's code is not a code object where the layout says it is).
 * The first keys that read whole read through process_vm_readv, as ss_python_capture's first
 * captures do, the later ones directly. Never takes the GIL or a lock, never calls malloc;
 * bounded in time. */
uint32_t ss_python_site_key(ss_site_key *key, ss_site_cache *cache, uint32_t max);

/* "3.12" for an interpreter whose frames are read, "" otherwise. */
const char *ss_python_version(void);

#endif
