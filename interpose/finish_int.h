/* finish_int.h: what the finisher's files (libsyncscope_finish.so) share; internal to them.
 * finish.c runs the end of the run step by step; finish_stacks.c symbolizes the captured
 * stacks, finish_log.c builds the event log, finish_outputs.c writes the outputs and judges the
 * gate, finish_summary.c prints the summary, finish_interval.c appends interval lines. */
#ifndef SS_INTERPOSE_FINISH_INT_H
#define SS_INTERPOSE_FINISH_INT_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "capture.h"
#include "evlog.h"
#include "report.h"
#include "store.h"
#include "symbolize.h"

static inline uint64_t fin_monotonic_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* ---- finish_stacks.c: symbolization ---- */

typedef struct fin_pc_entry fin_pc_entry;
typedef struct fin_module_entry fin_module_entry;
typedef struct fin_interpreter_entry fin_interpreter_entry;

/* The addresses of the captured stacks, identified and resolved once each. */
typedef struct fin_symbolizer {
    ss_symbolizer *sym;    /* NULL without libdw or when the process's modules cannot be read */
    fin_pc_entry *entries; /* open addressing on pc, 'cap' a power of two */
    size_t count, cap;
    fin_module_entry *modules; /* the modules of the frames, in order of first use */
    size_t module_count, module_cap;
    fin_interpreter_entry *interpreters;
    size_t interpreter_count, interpreter_cap;
    uint64_t resolve_ns; /* time spent symbolizing (SYNCSCOPE_TIMING) */
    uint64_t intern_ns;  /* of which demangling and interning the names */
    char *(*demangle)(const char *, char *, size_t *, int *);
    void *cxx_runtime;            /* libstdc++ opened for its demangler, or NULL */
    char python_module[PATH_MAX]; /* the file of the Python interpreter's code, "" if none */
} fin_symbolizer;

/* Opens the process's modules; 'cache_dir': the persistent symbol cache's folder, "" for
 * none. fin_symbolizer_free releases what it holds. */
void fin_symbolizer_init(fin_symbolizer *s, const char *cache_dir);
void fin_symbolizer_free(fin_symbolizer *s);
/* The log's string id of function 'name', demangled (0 for NULL). */
uint32_t fin_intern_function(fin_symbolizer *s, ss_event_log *log, const char *name);
/* Adds the symbolized stack 'entry' (with its Python frames from 'python', the thread's
 * table) to 'log'; returns its id, 0 for an empty stack. */
uint32_t fin_add_stack(fin_symbolizer *s, ss_event_log *log, const ss_stack_entry *entry,
                       const ss_py_table *python);
/* Writes the bias of every module a frame names into the log's metadata ("base:" + path). */
void fin_add_module_bases(const fin_symbolizer *s, ss_event_log *log);
/* What the symbolization did, for SYNCSCOPE_TIMING, into 'out'. */
void fin_symbolize_text(const fin_symbolizer *s, char *out, size_t size);

/* ---- finish_log.c: building the event log ---- */

/* Sets metadata 'key' of 'log' to the decimal 'value'. */
void fin_set_meta_u64(ss_event_log *log, const char *key, uint64_t value);
/* The run's metadata (program, machine, CUDA, capture figures) into 'log'. */
void fin_add_metadata(ss_event_log *log, const ss_capture_view *v, const char *host);
/* Copies the threads' events (complete calls only) and the activity into 'log', stacks
 * symbolized by 'sym'. Returns 0, or -1 out of memory. */
int fin_build_log(const ss_capture_view *v, ss_event_log *log, fin_symbolizer *sym);

/* ---- finish_outputs.c: outputs, baselines and the gate ---- */

/* The expanded output path for 'pattern' (relative names are taken from the folder the
 * program started in) into 'out'. Returns 0, or -1 with a message printed. */
int fin_output_path(const ss_capture_view *v, const char *pattern, const char *host, char *out,
                    size_t size);
/* Writes 'log' as the trace to the file SYNCSCOPE_TRACE names, when it names one. Returns 0,
 * or -1 with a message printed. */
int fin_write_trace(const ss_capture_view *v, const char *host, const ss_event_log *log);
/* What follows the detectors: the result completed and sorted, the baselines applied, the
 * outputs written, the summary and the gate's verdict on stderr. Returns 0, or -1 when a step
 * failed (with a message printed). */
int fin_report_result(const ss_capture_view *v, const char *host, const ss_event_log *log,
                      ss_result *result);

/* ---- finish_summary.c: the summary on stderr ---- */

/* The summary of 'r'; 'written' is the result file, or NULL; 'full_names': kernel names as
 * recorded (--full-names), else shortened as the text report shows them. */
void fin_print_summary(const ss_result *r, const char *written, int full_names);

/* ---- finish_interval.c: interval lines (docs/run.md, "Interval lines") ---- */

/* Appends 'result' as one line to the interval file. Returns 0, or -1 with a message printed
 * once per process. */
int fin_append_interval(const ss_capture_view *v, const char *host, const ss_result *result,
                        int final);

#endif
