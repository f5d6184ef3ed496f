/* checks.h: what a static check is given (the per-unit context), how it reports, and the
 * table of checks made from checks.def. Private to the analyzer. */
#ifndef SS_ANALYZER_CHECKS_H
#define SS_ANALYZER_CHECKS_H

#include <clang-c/Index.h>
#include <stddef.h>
#include <stdint.h>

#include "report.h"
#include "rules.h"

/* A blocking stream other translation units may share (SYNC103 across units,
 * checks/stream_create.c): one a global variable with external linkage holds, or one a
 * function with external linkage creates and hands out (returns it, or through a pointer or
 * reference parameter). */
typedef struct ss_shared_stream {
    char *key;  /* the USR of that variable or function: the same in every unit */
    char *name; /* as a message names it: 'g_stream' or 'make_stream()' */
    char *file; /* the SYNC103 finding at its creation: its file as shown, line, column */
    unsigned line, column;
} ss_shared_stream;

/* What a translation unit tells the others about its streams: the blocking streams it creates
 * that others may share (those whose own unit has no legacy-stream work), the shared streams
 * it refers to (keys as above: variables it names, functions it calls), and, when it refers
 * to any, its legacy-stream work in words ("b.cu (lines 4 and 9)"). Cached with the unit. */
typedef struct ss_project_facts ss_project_facts;

typedef struct ss_tu_streams {
    ss_shared_stream *created;
    size_t created_count;
    char **used;
    size_t used_count;
    char *legacy;
    /* The facts of its functions that the project pass gives the findings of every unit, and
     * the questions its own warnings leave to it (checks/project_facts.h), or NULL. */
    ss_project_facts *facts;
} ss_tu_streams;

void ss_tu_streams_free(ss_tu_streams *streams);
/* Adds 'key' to what 'streams' uses, once. */
void ss_tu_streams_use(ss_tu_streams *streams, const char *key);
/* Adds a created stream (the strings are copied). */
void ss_tu_streams_create(ss_tu_streams *streams, const char *key, const char *name,
                          const char *file, unsigned line, unsigned column);

/* SYNC103 across units: for each blocking stream one unit of 'units' ('count' of them, NULL
 * entries skipped) creates and another refers to, where that other unit has legacy-stream
 * work, the creation's finding in 'out' says so and loses its fix-it, as it does for the
 * unit's own legacy-stream work (ss_lint_fix_refused). Where 'unlinted' units of the compile
 * database were left out of the run, a stream others may share loses its fix-it too, and the
 * finding says why. */
void ss_streams_relate(const ss_tu_streams *const *units, size_t count, size_t unlinted,
                       ss_result *out);

/* What one translation unit knows while its checks run (tu.c). */
typedef struct ss_check_ctx {
    CXTranslationUnit tu;
    ss_result *result;
    int per_thread;             /* the default stream is per-thread in this TU */
    int torch;                  /* the TU includes ATen/torch headers */
    CXCursor function;          /* innermost function-like cursor around the call, or null */
    char *function_name;        /* the named function around the call, or NULL */
    unsigned readback_bytes;    /* SYNC301: the largest device-to-host copy that is a readback
                                 * (the file's effective readback-bytes setting) */
    int stream_use;             /* SYNC101/SYNC102: 0 not looked at yet, 1 the unit uses a stream
                                 * other than the legacy one, 2 it does not, 3 none but
                                 * non-blocking ones, 4 none but stream_params */
    int blocking_stream;        /* SYNC102: 0 not looked at yet, the line of the first blocking
                                 * stream the unit creates, or -1 when it creates none */
    struct ss_callgraph *graph; /* the unit's call graph (callgraph.h), built when a check
                                 * first needs it (ss_check_graph), or NULL */
    const char *const *hot_functions; /* the file's hot-functions patterns (context.h) */
    size_t hot_count;
    /* Set by a check just before it reports, for ss_context_apply (context.h), and cleared by
     * ss_check_report: the message already names the loop the call runs in; the finding is a
     * legacy-stream note because nothing else in the unit uses another stream. */
    int loop_said;
    int legacy_note;
    /* Set by a loop check just before it reports, and cleared as loop_said: the loop that
     * does device work around the call (ss_check_loop, SS_SCOPE_ENQUEUES), which the severity
     * then takes instead of walking the loops again. */
    const struct ss_loop_context *loop;
    /* Set while project_loops.c keeps a finding aside for a loop in another unit that calls a
     * function reaching the call: per iteration there, so the context takes it as in a loop
     * (a warning, or a note where the device has nothing queued or the call runs on no
     * ordinary run), never "once". */
    int loop_elsewhere;
    /* With loop_elsewhere: the guard on the way from the function another unit calls down to
     * the call ("lazy: it runs only while the buffer is unset (...)"), which makes the finding
     * a note when nothing closer does, or NULL. */
    const char *elsewhere_guard;
    /* Set while project_facts.c keeps aside the finding that a call of another unit's wait for
     * the whole device makes were that function to queue work of its own before its wait: the
     * device then holds work at that wait whatever it held at the call, and no "drained" words
     * are looked for (ss_context_drained_words). */
    int wait_after_work;
    /* Whether a synchronous copy waits for all work (checks/drained.c): 0 not looked at yet,
     * 1 yes (the unit creates its streams blocking), 2 no, 3 yes (all of the unit's work is
     * queued on the legacy stream). */
    int copy_drain;
    /* What checks/drained.c learned of the unit (unit_bits): 0 not looked at yet, else bit 1
     * set and bit 2 where its code may hold a stream it did not create (a stream parameter,
     * member, global, or a call's or member's stream value: perhaps non-blocking), bit 4 where
     * it calls cudaHostRegister. */
    int foreign_streams;
    /* What the unit does with cuBLAS handles (checks/common.h, ss_cublas_unit): 0 not looked at
     * yet, else SS_CUBLAS_LOOKED with the facts' bits. */
    int cublas;
    /* What the checks learned of the unit's cuBLAS handles (ss_cublas_own_handle,
     * ss_cublas_legacy_handle), or NULL: made before the walk, as 'memo'. */
    struct ss_cublas_memo *cublas_memo;
    /* SYNC101/SYNC102 (checks/at_hand.c): 0 not looked at yet, 1 a function of the unit uses a
     * namespace-scope stream of it that may be another than the legacy one, 2 none does. */
    int global_stream;
    /* SYNC101/SYNC102 (checks/at_hand.c): the class last asked whether it keeps a stream or a
     * member function of it has one at hand, and the answer: 0 none asked yet, 1 yes, 2 no. */
    CXCursor stream_class;
    int stream_class_answer;
    /* Filled for SYNC103 across units when not NULL (ss_stream_note_use, stream_create.c). */
    ss_tu_streams *streams;
    /* SYNC101/SYNC102 (stream_use 4): the stream parameters of functions other units may call
     * that are the unit's only other streams (checks/project_facts.h), or NULL. */
    struct ss_stream_params *stream_params;
    /* What the checks learn of the whole unit once and ask again at many calls (how it stores
     * into a pointer, checks/inherent.c), or NULL: made before the walk, so that copies of the
     * context share it. */
    struct ss_check_memo *memo;
    /* SYNC101/SYNC102 (checks/convention.c): each file's count of legacy-stream work and work on
     * other streams, counted when first asked, or NULL; made before the walk, as 'memo'. */
    struct ss_convention *convention;
    /* SYNC101/SYNC102 (checks/other_branch.c): the unit's calls on other streams, found when
     * first asked, or NULL; made before the walk, as 'memo'. */
    struct ss_branch_memo *branch;
    /* checks/drained.c: the flows of the unit's functions followed for its questions
     * (remembered_flow), or NULL; made before the walk, as 'memo'. */
    struct ss_drain_memo *drain_memo;
} ss_check_ctx;

/* What the checks learn of a unit's cuBLAS handles (checks/lint_common.c), empty;
 * ss_cublas_memo_free frees it (NULL is fine). */
typedef struct ss_cublas_memo ss_cublas_memo;
ss_cublas_memo *ss_cublas_memo_new(void);
void ss_cublas_memo_free(ss_cublas_memo *memo);

/* A unit's counts for ss_context_convention_words (checks/convention.c), empty;
 * ss_convention_free frees them (NULL is fine). */
typedef struct ss_convention ss_convention;
ss_convention *ss_convention_new(void);
void ss_convention_free(ss_convention *counts);

/* The unit's calls on other streams for checks/other_branch.c, not looked for yet;
 * ss_branch_memo_free frees them (NULL is fine). */
typedef struct ss_branch_memo ss_branch_memo;
ss_branch_memo *ss_branch_memo_new(void);
void ss_branch_memo_free(ss_branch_memo *memo);

/* The flows checks/drained.c remembers for a unit, none yet; ss_drain_memo_free frees them
 * (NULL is fine). */
typedef struct ss_drain_memo ss_drain_memo;
ss_drain_memo *ss_drain_memo_new(void);
void ss_drain_memo_free(ss_drain_memo *memo);

/* A unit's memo (ss_check_ctx's 'memo'), empty; ss_check_memo_free frees it (NULL is fine). */
struct ss_check_memo *ss_check_memo_new(void);
void ss_check_memo_free(struct ss_check_memo *memo);

/* While the unit is walked: 'ref', a reference (DeclRefExpr), names a shared stream's
 * variable or a function that hands one out: it is added to ctx->streams' uses. */
void ss_stream_note_use(ss_check_ctx *ctx, CXCursor ref);
/* After the walk: the unit's legacy-stream work in words, when it uses a shared stream. */
void ss_stream_note_legacy(ss_check_ctx *ctx, const char *main_file);

/* Adds a finding of 'rule' at 'at' (its expansion location) to the context's result
 * (checks/record.c), unless it lies in a system header, with the severity its context gives it
 * (context.h). 'message' and 'hint' are copied; 'hint' may be NULL. */
void ss_check_report(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const char *message,
                     const char *hint);

/* A check's entry point. 'call' is the call expression it was dispatched for; 'api' is the
 * callee's row of rules/cuda_api.def, or NULL (see the 'on' column of checks.def). */
typedef void ss_check_fn(ss_check_ctx *ctx, CXCursor call, const ss_api *api);

/* Which call expressions a check is given (checks.def's 'on' column). */
typedef enum ss_check_on {
    SS_CHECK_API,    /* calls of a CUDA API of one of the row's classes */
    SS_CHECK_CALL,   /* every call but a <<<...>>> launch */
    SS_CHECK_LAUNCH, /* k<<<...>>>(...) launches */
} ss_check_on;

/* The bit of API class 'klass' (without SS_CLASS_) in checks.def's 'classes' column. */
#define SS_CHECK_ON(klass) (UINT64_C(1) << SS_CLASS_##klass)
/* The bit of rule 'rule' (without SS_RULE_) in checks.def's 'rules' column. */
#define SS_CHECK_RULE(rule) (UINT64_C(1) << SS_RULE_##rule)

/* One row of checks.def. */
typedef struct ss_check {
    const char *family; /* analyzer/checks/<family>.c */
    const char *name;   /* the entry function's name */
    ss_check_fn *entry;
    ss_check_on on;
    uint64_t classes; /* SS_CHECK_ON bits, for SS_CHECK_API */
    uint64_t rules;   /* SS_CHECK_RULE bits */
} ss_check;

/* The entry functions, each in analyzer/checks/<family>.c. */
#define SS_CHECK(family, entry, on, classes, rules) ss_check_fn entry;
#include "checks.def"

/* The table of checks (checks.c), in checks.def's order; 'count' receives the number of
 * rows. */
const ss_check *ss_checks_all(size_t *count);

/* Runs the checks that take the call expression 'call' (checks.c), as checks.def says: a
 * launch's LAUNCH rows; else the CALL rows, then the API rows of the callee's class. */
void ss_checks_dispatch(ss_check_ctx *ctx, CXCursor call);

#endif
