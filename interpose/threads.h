/* threads.h: which thread started which, for findings on helper threads (docs/run.md, "Helper
 * threads"); internal to interpose/. */
#ifndef SS_INTERPOSE_THREADS_H
#define SS_INTERPOSE_THREADS_H

#include <stdint.h>

/* capture_callbacks.c: the calling thread's index and its stack now (an id of its own stack table),
 * for a thread it starts. Both 0 when the run records no such thing: the process is not observed,
 * --no-cross-thread, the thread is inside syncscope or the capture's memory is spent. */
void ss_capture_starter(uint32_t *thread, uint32_t *stack);

/* threads.c: the thread that started the calling thread and its stack then, as
 * ss_capture_starter gave them in that thread's pthread_create; 0 and 0 when unknown (the
 * main thread, a thread started before syncscope was loaded or when no slot was free). */
void ss_threads_started_by(uint32_t *thread, uint32_t *stack);

#endif
