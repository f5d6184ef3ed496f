/* store.h: the capture's memory: a byte budget, per-thread event buffers, per-thread stack
 * tables and the kernel-name table. Pure C (no CUDA), shared by the capture library and its
 * exit-time finisher; internal to interpose/. */
#ifndef SS_INTERPOSE_STORE_H
#define SS_INTERPOSE_STORE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "evlog.h"

/* Every byte the capture takes is counted against 'cap'; past it, events are dropped and
 * counted. Memory comes from mmap, never from the program's malloc, and is given back only
 * when the process ends. */
typedef struct ss_budget {
    _Atomic uint64_t used;
    uint64_t cap;
    _Atomic uint64_t dropped_events;
    _Atomic uint64_t dropped_stacks;
    _Atomic uint64_t refused_buffers; /* CUPTI activity buffers not given (records lost) */
    /* Set when a chunk of events was refused and none fits in what is left: the budget only
     * grows, so every later chunk would be refused too, and an event past the cap is dropped
     * without asking again (no page-size query, no add and take back on 'used' per call). */
    atomic_int events_full;
} ss_budget;

/* Events per chunk of an event buffer. */
#define SS_CHUNK_EVENTS 2048

typedef struct ss_chunk {
    struct ss_chunk *next;
    _Atomic uint32_t count; /* events reserved so far; published with release order */
    uint32_t cap;
    ss_event events[];
} ss_chunk;

/* A single-writer list of chunks. The finisher reads it once the program has ended. */
typedef struct ss_evbuf {
    _Atomic(ss_chunk *) head;
    ss_chunk *tail;
} ss_evbuf;

/* Kinds of call a thread counts past the memory cap (ss_thread_store.tallies). */
#define SS_TALLY_SLOTS 256

/* Frames kept per stack; deeper stacks are cut at the outer end. */
#define SS_STACK_DEPTH 48
/* Hash slots of one thread's stack table (a power of two) and the stacks it holds. */
#define SS_STACK_SLOTS 4096
#define SS_STACK_MAX 3072
#define SS_STACK_BLOCK 64

/* Python frames kept per stack at most (SYNCSCOPE_PYTHON_DEPTH is capped to this). */
#define SS_PY_DEPTH_MAX 32

typedef struct ss_stack_entry {
    uint32_t depth;
    uint32_t py_depth; /* Python frames in 'py' */
    uint32_t py_other; /* 1: they are another thread's (ss_python_capture_other) */
    uint64_t hash;
    uint64_t pcs[SS_STACK_DEPTH];
    uint32_t py[SS_PY_DEPTH_MAX]; /* Python frame ids (ss_py_table), innermost first */
} ss_stack_entry;

/* Stacks of one thread, deduplicated by their program counters and Python frames. Ids
 * start at 1. */
typedef struct ss_stack_table {
    uint32_t slots[SS_STACK_SLOTS]; /* stack id, 0 for an empty slot */
    ss_stack_entry *blocks[SS_STACK_MAX / SS_STACK_BLOCK];
    _Atomic uint32_t count;
} ss_stack_table;

/* Python frames of one thread, resolved when they were captured (the code objects may be
 * gone by the end of the run): (code object, instruction offset) -> (file, function, line),
 * with the texts copied once into 'text'. Ids start at 1; text offset 0 is "". */
#define SS_PY_SLOTS 4096
#define SS_PY_FRAMES 3072
#define SS_PY_TEXT_SIZE (256u << 10)

typedef struct ss_py_frame {
    uint64_t code;  /* code object address */
    uint64_t check; /* its file and name object addresses mixed: detects a reused address */
    int32_t offset; /* instruction offset in bytes, -1 before the first instruction */
    uint32_t line;  /* 0: unknown */
    uint32_t file;  /* offsets into 'text' */
    uint32_t function;
} ss_py_frame;

typedef struct ss_py_table {
    uint32_t slots[SS_PY_SLOTS];      /* frame id by (code, offset), 0: empty */
    uint32_t text_slots[SS_PY_SLOTS]; /* text offset by the text's hash, 0: empty */
    uint32_t count;
    uint32_t text_used;
    char *text; /* SS_PY_TEXT_SIZE bytes, budgeted */
    ss_py_frame frames[SS_PY_FRAMES + 1];
} ss_py_table;

/* One host thread's part of the capture. Threads register themselves once; the struct
 * stays valid after the thread ends. */
typedef struct ss_thread_store {
    struct ss_thread_store *next;
    uint32_t index; /* 1, 2, ... in registration order */
    ss_evbuf events;
    ss_stack_table stacks;
    ss_py_table *python;  /* made at the first Python frame, NULL until then */
    char name[16];        /* the thread's name when it registered ("" when unknown) */
    uint32_t started_by;  /* the thread that started it (threads.c), 0 when unknown */
    uint32_t start_stack; /* that thread's stack then, an id of its table; 0: none */
    /* syncscope's own time in the callbacks of this thread's kernel-launch calls and their
     * count (trace metadata self_launch_ns, self_launches, self_slow_launches); written by the
     * thread only, read once the threads are done */
    uint64_t self_launch_ns;
    uint64_t self_launches;
    uint64_t self_slow_launches; /* launches whose own time was over 20 us, not counted */
    /* syncscope's own time after the return of this thread's calls whose stack it took (the
     * stack's capture) and their count (trace metadata self_stack_ns, self_stacks,
     * self_slow_stacks); written by the thread only, read once the threads are done */
    uint64_t self_stack_ns;
    uint64_t self_stacks;
    uint64_t self_slow_stacks; /* those whose own time was over 100 us, not counted */
    /* SYNCSCOPE_TIMING (capture_timing.c): the callbacks that did syncscope's work on this
     * thread (an entry or an exit), their own time (the thread's first call, its stacks and
     * the light mode's driver questions included), and of it the thread's registration, the
     * stacks' (how many, a thread's start taken too, the unwinding and the Python frames) and
     * the light mode's questions to the driver (the calls whose memory kinds were asked, the
     * calls probed for pending work, entry and exit, and their time); written by the thread
     * only, read at the end */
    uint64_t timed_callbacks;
    _Atomic uint64_t timed_own_ns; /* written by its thread alone (relaxed), read by others */
    uint64_t timed_setup_ns;       /* of it, the thread's registration at its first call */
    uint64_t timed_stacks;
    uint64_t timed_unwound; /* of them, those unwound whole (not found in the site cache) */
    uint64_t timed_unwind_ns;
    uint64_t timed_python_ns;
    uint64_t timed_kinds, timed_kinds_ns;
    uint64_t timed_probes, timed_probes_ns;
    uint64_t timed_questions; /* cuStreamQuery asked by those probes */
    /* driver callbacks CUPTI made inside a runtime call (its entry and exit each), which
     * return at once but for a launch's parameters */
    uint64_t timed_nested;
    /* The light mode's calls past the memory cap, counted by kind (ss_tally; capture_tally):
     * slots 0 to tally_used - 1, each filled in by its thread before tally_used is raised
     * past it (release), then only added to; 'tally_keys' the hash of each slot's kind. A call
     * of a kind that finds no slot is dropped and counted (budget.dropped_events). */
    ss_tally tallies[SS_TALLY_SLOTS];
    uint64_t tally_keys[SS_TALLY_SLOTS];
    _Atomic uint32_t tally_used;
    /* A counted call waits for the thread's next call before it is tallied (its kind names
     * both neighbours): 'tally_held' when 'tally_holding', with the word of the call before
     * it and whether it was long (ss_tally.long_calls); 'tally_last' is the thread's last call
     * (a kept event, which stays where it is, or the held copy; NULL: none), whose word is
     * made only past the cap. The finisher tallies a call still held as its thread's last. */
    ss_ev_api tally_held;
    uint64_t tally_held_prev;
    const ss_ev_api *tally_last;
    int tally_holding, tally_held_long;
} ss_thread_store;

/* Kernel names: keyed by the address CUPTI gives (the same for every record of a kernel),
 * copied into budgeted memory. Ids start at 1. Written under the caller's lock. */
#define SS_NAME_SLOTS 16384
#define SS_NAME_MAX 12288
#define SS_NAME_TEXT_MAX 8192

typedef struct ss_name_table {
    uint64_t keys[SS_NAME_SLOTS];
    uint32_t ids[SS_NAME_SLOTS];
    const char *texts[SS_NAME_MAX + 1];
    uint32_t count;
    char *arena; /* current block of text */
    size_t arena_used, arena_size;
} ss_name_table;

typedef struct ss_store {
    ss_budget budget;
    _Atomic(ss_thread_store *) threads; /* newest first */
    _Atomic uint32_t thread_count;
    ss_evbuf activity; /* GPU records, written under the capture's activity lock */
    ss_name_table names;
    ss_name_table ranges; /* NVTX range and scope names, written under a lock of their own */
} ss_store;

/* Sets the cap and clears the counters. */
void ss_budget_init(ss_budget *budget, uint64_t cap);

/* 'size' zeroed bytes counted against the cap, or NULL when they would pass it or the
 * system has none. */
void *ss_budget_alloc(ss_budget *budget, size_t size);

/* Bytes taken so far. */
uint64_t ss_budget_used(const ss_budget *budget);

/* Initializes 'store' (which must be zeroed, e.g. static storage) with the memory cap. */
void ss_store_init(ss_store *store, uint64_t cap);

/* A new thread store (budgeted) registered with 'store', or NULL past the cap. Lock-free. */
ss_thread_store *ss_store_add_thread(ss_store *store);

/* A slot for one event at the end of 'buf', zeroed, or NULL when the cap is reached (the
 * drop is counted). Only the buffer's one writer may call this. Bounded: at most one
 * chunk allocation, once per SS_CHUNK_EVENTS events. */
ss_event *ss_evbuf_reserve(ss_evbuf *buf, ss_budget *budget);

/* Number of events in 'buf'. */
uint64_t ss_evbuf_count(const ss_evbuf *buf);

/* The id of the stack of 'depth' program counters (cut to SS_STACK_DEPTH), adding it when
 * new; 0 when the table is full or the cap is reached (counted in dropped_stacks). */
uint32_t ss_stack_intern(ss_stack_table *table, ss_budget *budget, const uint64_t *pcs,
                         uint32_t depth);

/* The same for a stack with Python frames: 'py' holds 'py_depth' ids of the thread's
 * ss_py_table (cut to SS_PY_DEPTH_MAX), innermost first, of this thread ('py_other' 0) or of
 * another thread that waited meanwhile ('py_other' 1); two stacks are the same when their
 * program counters, their Python frames and whose frames those are all are. */
uint32_t ss_stack_intern_py(ss_stack_table *table, ss_budget *budget, const uint64_t *pcs,
                            uint32_t depth, const uint32_t *py, uint32_t py_depth,
                            uint32_t py_other);

/* The stack with id 'id' (1 ... count), or NULL. */
const ss_stack_entry *ss_stack_get(const ss_stack_table *table, uint32_t id);

/* The id of the name at 'key' (copying 'text' the first time), or 0 when the table is
 * full or the cap is reached. */
uint32_t ss_name_intern(ss_name_table *table, ss_budget *budget, uint64_t key, const char *text);

/* The name with id 'id', or NULL. */
const char *ss_name_get(const ss_name_table *table, uint32_t id);

/* The Python frame table of 'thread', made (budgeted) at the first call; NULL past the cap.
 * Only the thread itself may call this. */
ss_py_table *ss_py_table_of(ss_thread_store *thread, ss_budget *budget);

/* The id of the frame at ('code', 'offset') whose file and name objects gave 'check', or 0
 * when it is not in 'table' yet. */
uint32_t ss_py_find(const ss_py_table *table, uint64_t code, int32_t offset, uint64_t check);

/* Adds a resolved frame ('file' and 'function' are copied; NULL means unknown) and returns
 * its id, or 0 when the table or its text space is full. */
uint32_t ss_py_add(ss_py_table *table, uint64_t code, int32_t offset, uint64_t check,
                   const char *file, const char *function, uint32_t line);

/* The frame with id 'id', or NULL. */
const ss_py_frame *ss_py_get(const ss_py_table *table, uint32_t id);

/* The text at 'offset' of 'table' ("" for 0 or an offset out of range). */
const char *ss_py_text(const ss_py_table *table, uint32_t offset);

#endif
