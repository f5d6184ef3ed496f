/* stack.h: the threads that parse and walk translation units (stack.c): a large stack, as
 * clang gives itself for deep recursion, and a stack that runs out anyway turned into exit
 * status 2 naming the file instead of SIGSEGV. Private to the analyzer. */
#ifndef SS_ANALYZER_STACK_H
#define SS_ANALYZER_STACK_H

#include <pthread.h>

/* The stack of a worker: reserved, and only touched as deep as the analysis goes. An
 * expression of a million terms (`1+1+...`, 2 MB of source) needs 64 to 128 MiB in libclang
 * 16's parse; deeper ones exit 2. */
#define SS_STACK_WORKER_BYTES (1ull << 30)
/* The exit status of a stack overflow: the tool-error status of the command line. */
#define SS_STACK_EXIT_STATUS 2
/* The guard below it: a frame larger than this could step over it. */
#define SS_STACK_GUARD_BYTES (1u << 20)

/* Prepares the process for worker threads, once, before the first is started and after
 * libclang's crash recovery has been enabled (clang_createIndex enables it): libclang is told
 * to parse on the calling thread (LIBCLANG_NOTHREADS, so that the parse has the worker's
 * stack, not libclang's 8 MiB thread), and a SIGSEGV handler that runs on an alternate stack
 * is put in front of the one installed (libclang's, which recovers other crashes of a parse,
 * and the sanitizers'). */
void ss_stack_prepare(void);
/* Starts 'fn'('arg') on a thread with a stack of SS_STACK_WORKER_BYTES (the default stack
 * where that cannot be had). Returns 0, or an errno value. */
int ss_stack_thread_create(pthread_t *thread, void *(*fn)(void *), void *arg);
/* The unit the calling worker analyzes from now on ('path', shown in the message), or NULL
 * when none. A stack overflow of a worker while it has a unit ends the process with exit
 * status 2 and "syncscope: error: PATH: ...". */
void ss_stack_set_unit(const char *path);

#endif
