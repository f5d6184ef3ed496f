/* project_facts.h: what one translation unit knows of its functions that a finding of another
 * unit may need, and the questions its own findings leave to the others (project_facts.c;
 * docs/lint.md, "Facts from the other units"). Each unit records, while it is analyzed, the
 * functions it defines that end by synchronizing a stream they are given, and, for each of its
 * warnings that such a function may make a note, the question; the project pass
 * (ss_project_apply) answers the questions from every unit's facts once all units are
 * analyzed, cached or not, so a finding does not depend on the order or number of workers.
 * Private to the analyzer. */
#ifndef SS_ANALYZER_CHECKS_PROJECT_FACTS_H
#define SS_ANALYZER_CHECKS_PROJECT_FACTS_H

#include <cjson/cJSON.h>
#include <clang-c/Index.h>
#include <limits.h>
#include <stddef.h>

#include "checks.h"

/* A function that leaves a stream parameter idle: on every way out, the last thing it does
 * that may queue work on the stream is a wait for it ('wait'), or a call of a function given the
 * stream ('next'), which then must leave that parameter idle in turn. */
typedef struct ss_stream_end {
    char *usr;           /* the function (its USR: the same in every unit) */
    unsigned param;      /* its stream parameter, from 0 */
    char *wait;          /* "'cudaStreamSynchronize' at kernels.cu:394", or NULL with 'next' */
    char *next;          /* the USR of the function it ends by calling, or NULL */
    unsigned next_param; /* the parameter of 'next' that the stream is */
    char *next_name;     /* "'permute_launch()' at postprocess.cpp:120": that call */
} ss_stream_end;

/* A warning for a stream wait that may have nothing to wait for: the statement before it calls
 * a function defined elsewhere (or here) given the same stream. */
typedef struct ss_wait_question {
    char *file; /* the finding: its file as shown, line, column and rule */
    unsigned line, column;
    ss_rule_id rule;
    char *stream;   /* the stream as written */
    char *usr;      /* the function called before the wait */
    unsigned param; /* the parameter the stream is given as */
    char *callee;   /* "'PostProcessCuda::doPermuteCuda()' at line 188" */
} ss_wait_question;

/* A function that waits for the whole device on every way out, with nothing but memsets
 * queued after the wait (a wrapper of cudaDeviceSynchronize): what a call of it in a unit that
 * only declares it does. */
typedef struct ss_device_wait {
    char *usr;  /* the function (its USR) */
    char *name; /* "'SynchronizeCUDADevice()', defined in cuda_utils.cpp:13" */
    char *wait; /* "'cudaDeviceSynchronize' at cuda_utils.cpp:14" */
    int only;   /* no statement of its body may queue device work: it only waits */
    /* Run from a drained device, it reaches a wait for the whole device with work queued: its
     * own (a launch, a copy that does not drain, a library's call, a memset) or a device's it
     * switches to (ss_context_waits_own_work). A call of it then waits for that work, whatever
     * was drained before the call. 'others': the functions of other units (USRs) it calls where
     * it does so only if one of them queues work (queues 0), which the project pass asks their
     * summaries (ss_project_foreign_keeps). Where it does, or may: 'queued_wait' names the first
     * wait that finds work queued ("'cudaDeviceSynchronize' at edges.cu:9"), 'work' the first
     * work of its body before that wait ("kernel 'mirror' launched at edges.cu:8"), NULL where
     * none is there itself. */
    int queues;
    char *work, *queued_wait;
    char **others;
    size_t other_count;
} ss_device_wait;

/* Which callee a pending finding holds for (ss_project_facts's 'pending_kinds'): any wait for
 * the whole device; one that queues no work before its wait (the finding's context took the
 * call for a plain wait, "drained" words and all); one that does (the finding made without the
 * words that rest on the device's state at the call). */
enum { SS_PENDING_ANY = 0, SS_PENDING_PLAIN = 1, SS_PENDING_QUEUES = 2 };

/* A warning for work on the legacy stream (SYNC101, SYNC102) between two waits for the whole
 * device when the functions 'usrs' the unit only declares are such waits
 * (ss_context_between_waits): 'words' says so. */
typedef struct ss_between_question {
    char *file; /* the finding: its file as shown, line, column and rule */
    unsigned line, column;
    ss_rule_id rule;
    char *words;
    char **usrs;
    size_t usr_count;
} ss_between_question;

/* What a call gives the stream parameter 'param' of a function another unit may call: the
 * legacy stream, a stream parameter of the calling function passed on ('via', 'via_param'), or
 * anything else (neither). 'param' UINT_MAX: the function is named other than as a call's
 * callee (its address taken), so any stream may come to any of its parameters. */
typedef struct ss_stream_arg {
    char *usr; /* the function called (its USR) */
    unsigned param;
    int legacy;
    char *via; /* the calling function's USR, when it passes its own parameter on, or NULL */
    unsigned via_param;
    /* Another stream, drained before any legacy-stream work (project_streams.c, drained_arg):
     * 'drain' says where ("JSphGpuSingle.cpp:882"), 'after' the USRs of the functions the unit
     * only declares that run between the call and that wait, which must do no device work. */
    char *drain;
    char **after;
    size_t after_count;
} ss_stream_arg;

/* A call, in a function the unit defines that another unit may call ('from', which does no
 * device work in this unit), of a function the unit only declares ('to'): USRs. */
typedef struct ss_cross_call {
    char *from;
    char *to;
} ss_cross_call;

/* A call, in a loop of the unit's function 'caller', of a function the unit only declares
 * ('usr', named 'callee'): where the loop is ("main.cpp:5"), why a wait the call makes would be
 * a note there ("set-up: ...", or NULL), and whether the loop does device work itself
 * (project_loops.c). */
typedef struct ss_loop_call {
    char *usr;
    char *callee;
    char *place;
    char *caller;
    char *note;
    int enqueues;
    /* Where the call is the function's own call ('direct'; not a call on the way to it): its
     * line, and what the statements right before it waited for, nothing queued since (a wait,
     * then no call): the arguments it waited for ('idle_args', bit i for argument i), or the
     * whole device ('idle_device'); 'idle_line' that wait's line, 0 when none. */
    int direct, idle_device;
    unsigned site_line, idle_line, idle_args;
    /* The call dispatches on a virtual method ('usr' the method it names): which override runs
     * is decided at run time. */
    int virtual_call;
    /* A direct call whose loop would be timed were 'usr' to read a clock
     * (ss_context_timed_by_callee). */
    int timed;
    /* The loop is around a loop call recorded on the same way up, whose loop does no device work
     * in the unit and gives no reason for a note: only a copy's finding looks at it. */
    int outer;
    /* The call at the loop runs on every iteration: no branch between the loop and it. */
    int every;
    /* The way from the loop passes a call under a guard that makes a SYNC402 call rare (a buffer
     * that grows, one allocated while unset, ...: ss_context_alloc_guard_words). */
    int guarded;
} ss_loop_call;

/* The 'param' of an ss_stream_arg that is a field of a type ('usr' the field's): each write of
 * the field is recorded as a call's argument would be. */
#define SS_STREAM_FIELD (UINT_MAX - 1)
/* The 'param' of a record that names a function in a call the unit cannot resolve (a template's
 * call of an overloaded name): some call may reach it, with any stream. */
#define SS_STREAM_NAMED (UINT_MAX - 2)

/* Stream parameters of functions another unit may call, each with words for a message
 * ("'stm' of 'AddDelta()'"). */
typedef struct ss_stream_params {
    char **usrs;
    unsigned *params;
    char **names;
    size_t count, cap;
} ss_stream_params;

/* A warning for work on the legacy stream (SYNC101, SYNC102) in a unit whose only other
 * streams are the stream parameters 'params' (default_stream.c): a note, with 'words', where
 * every call in the project gives each of them the legacy stream. */
typedef struct ss_param_question {
    char *file; /* the finding: its file as shown, line, column and rule */
    unsigned line, column;
    ss_rule_id rule;
    char *words;
    ss_stream_params *params;
} ss_param_question;

/* A pointer argument of a call of a function of the project (project_outputs.c): the function
 * 'usr' and its parameter 'param' (SS_OUTPUT_ANY: the call's arguments do not match its
 * parameters one to one); 'via', the calling function's USR, when it passes its own parameter
 * 'via_param' straight on and returns right after; 'reader' ("'App::run()' calls 'decode()' at
 * main.cpp:9 with 'h_count', pinned host memory, and line 10 branches on it") when the caller gives
 * it memory the unit pins and reads it before any other device work. Neither: anything else. */
typedef struct ss_output_arg {
    char *usr;
    unsigned param;
    char *via;
    unsigned via_param;
    char *reader;
} ss_output_arg;

#define SS_OUTPUT_ANY UINT_MAX

struct ss_project_facts {
    ss_stream_end *ends;
    size_t end_count, end_cap;
    ss_wait_question *questions;
    size_t question_count, question_cap;
    ss_device_wait *waits;
    size_t wait_count, wait_cap;
    /* The findings a call of a function that the unit declares but does not define makes where
     * that function waits for the whole device (SYNC401 for a call in a loop that enqueues
     * work, its context applied as for an API call), each with the function's USR: the project
     * pass reports those whose function another unit summarized in 'waits'. */
    ss_result *pending;
    char **pending_usrs;
    int *pending_kinds; /* SS_PENDING_* of each */
    size_t pending_cap, pending_kind_cap;
    ss_between_question *between;
    size_t between_count, between_cap;
    /* The stream arguments of the unit's calls of functions another unit may call, and the
     * questions of its legacy-stream warnings about them (project_streams.c). */
    ss_stream_arg *args;
    size_t arg_count, arg_cap;
    /* The functions the unit defines that another unit may call and that do device work (a
     * launch or an asynchronous call, themselves or through the unit's functions): their USRs. */
    char **working;
    size_t working_count, working_cap;
    ss_cross_call *crosses;
    size_t cross_count, cross_cap;
    ss_param_question *param_questions;
    size_t param_question_count, param_question_cap;
    /* Of those functions, the ones whose stream parameter a question names and that only the
     * unit's own file declares (no header, no C linkage, no export attribute): their USRs. In a
     * run of the whole compile database, such a function no unit calls is given no stream at
     * all (project_streams.c). */
    char **closed;
    size_t closed_count, closed_cap;
    /* The unit's calls, in loops, of functions it only declares (also through its functions),
     * and the functions another unit may call that reach such a function; and the findings its
     * waits
     * make where a function it defines, that another unit may call, is called from a loop
     * (each with that function's USR): the project pass reports those whose function some
     * unit calls in a loop (project_loops.c). */
    ss_loop_call *loop_calls;
    size_t loop_call_count, loop_call_cap;
    ss_cross_call *reaches; /* 'from' (another unit may call it) reaches 'to' (declared only) */
    size_t reach_count, reach_cap;
    /* For each reach: its way passes a guard that makes a SYNC402 call rare (as ss_loop_call's
     * 'guarded'); such a reach is followed for every finding but a SYNC402 one. */
    int *reach_guarded;
    size_t reach_guarded_cap;
    /* The virtual methods the unit's out-of-line overrides override: a virtual call of 'from'
     * may run 'to', which the unit defines and another unit may call (project_loops.c). */
    ss_cross_call *overrides;
    size_t override_count, override_cap;
    ss_result *called;
    char **called_usrs;
    size_t called_cap;
    /* For each finding in 'called': where its wait comes before any device work of the
     * function that has it, what it waits for: SS_START_DEVICE, or the index of the parameter
     * it waits for; else SS_START_NONE (project_loops.c). */
    int *called_starts;
    size_t called_start_cap;
    /* For each finding in 'called': the USR of the function of another unit that its wait is a
     * call of (reported only where some unit summarized it in 'waits'), or NULL for a CUDA wait
     * (project_loops.c). */
    char **called_waits;
    size_t called_wait_cap;
    /* For each finding in 'called': the parameters (bit i for parameter i) through which the
     * kernel its wait waits for writes, the launch being the function's only device work
     * (project_outputs.c), and words for them ("kernel 'count' launched at line 8 writes through
     * 'n'"), or 0 and NULL. */
    unsigned *called_outputs;
    char **called_output_words;
    size_t called_output_cap, called_output_word_cap;
    /* For each finding in 'called': where the function another unit calls reads a clock
     * ("'cudaEventElapsedTime' at sift.cu:7", ss_context_clock_words), or NULL. */
    char **called_clocks;
    size_t called_clock_cap;
    /* The pointer arguments of the unit's calls of the project's functions (project_outputs.c);
     * 'outputs_known' 0 for facts from a cache entry without them. A unit with errors other than
     * headers not found ('unjudged') lists the functions it declares that take a pointer. */
    ss_output_arg *outputs;
    size_t output_count, output_cap;
    int outputs_known, unjudged;
    char **declared;
    size_t declared_count, declared_cap;
    /* The names of the unit's calls that no USR of the project's functions stands for (a callee
     * left unresolved by an error, a function a system header declares, which a project's header
     * given with -isystem is): a function of that name may be called there (project_outputs.c). */
    char **loose;
    size_t loose_count, loose_cap;
    /* What the unit's functions that another unit may call do to the device, and the questions
     * of its warnings that calls of other units' functions leave open (project_foreign.c). */
    struct ss_foreign_facts *foreign;
    /* The unit's calls of the project's functions, and the questions of its warnings that a
     * loop of a function other units may call makes (project_set_up.c). */
    struct ss_set_up_facts *set_up;
    /* The unit's functions that make memory through a reference parameter, and the questions of
     * its warnings for a wait before a free of such memory made by another unit's
     * (project_arrays.c). */
    struct ss_array_facts *arrays;
    /* The writes of bool members in the unit's functions, and the questions of its warnings under
     * an 'if' that tests such a member (project_switches.c). */
    struct ss_switch_facts *switches;
    /* Every stream that may hold the unit's work is one a copy on the legacy default stream
     * waits for (ss_context_streams_block); 0 for a unit with errors ('unjudged'). */
    int streams_block;
};

enum { SS_START_NONE = -1, SS_START_DEVICE = -2 };

void ss_project_facts_free(ss_project_facts *facts);

/* The USR (malloc'ed) of the function 'call' calls when the unit declares it but does not
 * define it and another unit's definition is what runs (external linkage, not inline, not
 * virtual, no template nor a member of one, not an operator), else NULL. */
char *ss_project_declared_only(CXCursor call);

/* After the unit's walk: records in ctx->streams->facts the functions the unit defines (outside
 * system headers) that leave a stream parameter idle, and the stream arguments of its calls
 * (ss_project_record_args); frees ctx->stream_params (only a unit with ctx->streams has any). */
void ss_project_summarize(ss_check_ctx *ctx);

/* After the context of the finding 'f' for the call 'at' is applied (ss_context_apply): a
 * warning for a stream wait (SYNC401) whose statement, in its block, follows a call of a project
 * function given the same stream (written without a call; nothing between but declarations
 * without calls) records the question in ctx->streams->facts. */
void ss_project_ask(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const ss_finding *f);

struct ss_assumed_waits; /* context_cases.h */

/* After the context of the warning 'f' (SYNC101 or SYNC102) is applied: when it is still a
 * warning, records the question that 'words' (ss_context_between_waits) answers where every
 * function of 'assumed' is a wait for the whole device; takes the USRs of 'assumed'. */
void ss_project_ask_between(ss_check_ctx *ctx, ss_rule_id rule, const ss_finding *f,
                            const char *words, struct ss_assumed_waits *assumed);

/* The project pass: for each of the 'count' units ('facts[i]' may be NULL), each question
 * whose function leaves the stream idle by the facts of all units (through up to eight calls)
 * makes its warning in 'results[i]' a note that says so ("idle: ..."); each pending finding
 * whose function a unit summarized as a wait for the whole device is added to 'results[i]',
 * naming that function and its wait ("through 'f()', defined in utils.cpp:13, ..."), the form
 * made for a function that queues work before its wait where any unit's summary of it says so
 * (SS_PENDING_*); each
 * warning between two waits of such functions (ss_project_ask_between) becomes a note. Run
 * before the units' results are merged; the facts of the first unit (in the run's order) that
 * has them are used, so the findings do not depend on the number of workers. 'scope' says what
 * the run covers (SS_PROJECT_*). */
void ss_project_apply(ss_project_facts *const *facts, ss_result *const *results, size_t count,
                      unsigned scope);

/* What a run covers (ss_project_apply's 'scope'): the run has a compile database and leaves
 * none of its units out (SS_PROJECT_COMPLETE; never without a database, whose files named may
 * be some of the project's units only), and every unit of it is linted without errors
 * (SS_PROJECT_WHOLE). */
#define SS_PROJECT_COMPLETE 1u
#define SS_PROJECT_WHOLE 2u
/* And every entry of the database is a unit the run analyzes (none in Fortran or assembly, whose
 * calls go unseen), each file under one command (a file listed twice with two commands is
 * analyzed under the first only). */
#define SS_PROJECT_EVERY_ENTRY 4u

/* A new entry of each kind in 'facts', zeroed, to fill (project_facts.c); a pending finding
 * with the USR 'usr' (copied) of its function and its SS_PENDING_* 'kind'. */
ss_stream_end *ss_project_add_end(ss_project_facts *facts);
ss_wait_question *ss_project_add_question(ss_project_facts *facts);
ss_device_wait *ss_project_add_wait(ss_project_facts *facts);
ss_between_question *ss_project_add_between(ss_project_facts *facts);
ss_finding *ss_project_add_pending(ss_project_facts *facts, const char *usr, int kind);

/* project_streams.c. The stream parameters a unit's legacy-stream warnings rest on: added once
 * each (the strings copied), the last ones dropped down to 'count', freed. */
void ss_stream_params_add(ss_stream_params **params, const char *usr, unsigned param,
                          const char *name);
void ss_stream_params_truncate(ss_stream_params *params, size_t count);
void ss_stream_params_free(ss_stream_params *params);

/* The USR (malloc'ed) of 'decl' when it is a function of the project that another unit may call
 * (external linkage, not inline, not virtual, no template nor a member of one, not an
 * operator), else NULL (project_facts.c). */
char *ss_project_stream_param_usr(CXCursor decl);

/* Records the function 'function' (its USR 'usr') in ctx->streams->facts->closed when only the
 * unit's own file declares it: every declaration in the main file, C++ linkage, no visibility or
 * export attribute (project_streams.c). */
void ss_project_note_closed(ss_check_ctx *ctx, CXCursor function, const char *usr);

/* The USR (malloc'ed) of 'decl' when it is a function of the project whose calls a summary may
 * follow (declared outside the system headers, not virtual, not an operator; a constructor
 * too), else NULL (project_facts.c). */
char *ss_project_function_usr(CXCursor decl);

/* The finding of 'rule' at 'file', 'line', 'column' in 'r', or NULL (project_facts.c): the first
 * that is a warning, else the first. A wait that another unit's loops reach through several
 * functions has one finding per way at one place, and a question asked for each: each answer
 * takes a warning still left, so that the report, which keeps the highest severity of a
 * place, shows a note only where every way's answer makes one. */
ss_finding *ss_project_find_finding(ss_result *r, ss_rule_id rule, const char *file, unsigned line,
                                    unsigned column);

/* project_streams.c. After the unit's walk: records in 'facts' the stream argument of each of
 * the unit's calls of a function another unit may call (ss_stream_arg), and each reference to
 * such a function that is not a call's callee. */
void ss_project_record_args(ss_check_ctx *ctx, ss_project_facts *facts);

/* project_streams.c. When the warning 'f' (SYNC101 or SYNC102) rests only on the stream
 * parameters in ctx->stream_params, records the question: 'words' its note's reason. */
void ss_project_ask_params(ss_check_ctx *ctx, ss_rule_id rule, const ss_finding *f,
                           const char *words);

/* project_streams.c. The project pass for those questions: each warning whose parameters every
 * call in the project (one at least each) gives the legacy stream, through up to four
 * parameters passed on, becomes a note, where the run leaves no unit out (SS_PROJECT_COMPLETE
 * in 'scope'); in a SS_PROJECT_WHOLE run, a parameter of a closed function
 * (ss_project_note_closed) that no unit calls counts too. */
void ss_project_apply_params(ss_project_facts *const *facts, ss_result *const *results,
                             size_t count, unsigned scope);

/* project_streams.c. Frees the facts' stream arguments and questions, and adds an entry of each
 * kind to fill. */
void ss_project_streams_free(ss_project_facts *facts);
ss_stream_arg *ss_project_add_arg(ss_project_facts *facts);
ss_param_question *ss_project_add_param_question(ss_project_facts *facts);

/* project_loops.c. For a call of a function the unit only declares: up the unit's call graph
 * from it (up to eight calls), records the loops around it or around a call of a function that
 * leads to it (loop calls), and the functions another unit may call that reach it (reaches). */
void ss_project_record_loop_call(ss_check_ctx *ctx, CXCursor call);

/* project_loops.c. For a wait (SYNC401's APIs, 'api' its row) in no loop that enqueues device
 * work: for each function of the unit that another unit may call (external linkage, not
 * inline, not virtual, no template), that does device work and reaches the wait's function
 * (itself, or up to eight calls down), keeps aside the finding the wait makes on every call of
 * it, its context applied: a warning, or a note where the context gives a reason. */
void ss_project_loop_wait(ss_check_ctx *ctx, CXCursor call, const ss_api *api);

/* project_loops.c. For a synchronous copy that blocks the host (SYNC202's, 'api' its row) for
 * which the unit makes no finding (no loop of its function launches kernels, no stream beside
 * the legacy one): as ss_project_loop_wait, for each function of the unit another unit may
 * call that reaches it, whether or not it does device work; the project pass reports it only
 * where the loop that calls the function queues device work. */
void ss_project_loop_copy(ss_check_ctx *ctx, CXCursor call, const ss_api *api);

/* project_loops.c. For a call of SYNC402's ('api' its row: cudaMalloc, cudaFree, ...) in no loop
 * of its unit that enqueues device work: as ss_project_loop_copy, the pass reporting it only
 * where the loop that calls the function queues device work; 'hint' the fix it suggests. Not
 * kept where a guard makes it rare, as within a loop (a buffer that grows, one allocated while
 * unset, a key that changes, a queue refilled when empty; ss_context_alloc_guard_words): in its
 * function, or on every way up to the function another unit calls. */
void ss_project_loop_alloc(ss_check_ctx *ctx, CXCursor call, const ss_api *api, const char *hint);

/* project_loops.c. The project pass for those findings: each whose function some unit calls in a
 * loop is added to its unit's result, naming that loop (the first, in the run's order, that
 * gives no reason for a note; else a note with that loop's reason; a note too where every
 * caller reads its kernel's output right after, ss_project_outputs_read, 'scope' the run's).
 * Not where the loop does device work itself and the function is a wait for the whole device
 * (reported at the call). */
void ss_project_apply_loops(ss_project_facts *const *facts, ss_result *const *results, size_t count,
                            unsigned scope);

/* project_outputs.c. For the wait 'wait' (of 'api') in 'fn': where it is a
 * cudaStreamSynchronize of the stream of the launch right before it, that launch is the
 * function's only device work, and the kernel is given parameters of 'fn' that it may write
 * (no pointer to const; named once in the body): those parameters (bit i for parameter i), with
 * words for them in '*words' (malloc'ed); else 0 and NULL. */
unsigned ss_project_output_params(ss_check_ctx *ctx, CXCursor fn, CXCursor wait, const ss_api *api,
                                  char **words);

/* project_outputs.c. After the unit's walk: records in 'facts' the pointer arguments of the
 * unit's calls of the project's functions (ss_output_arg), and whether the unit can be judged. */
void ss_project_record_outputs(ss_check_ctx *ctx, ss_project_facts *facts);

/* project_outputs.c. "inherent: ..." (malloc'ed) when, in a run that leaves no unit out
 * (SS_PROJECT_COMPLETE in 'scope'), every call of 'usr' in the project gives one of the
 * parameters 'outputs' memory its caller pins and reads right after, itself or through
 * functions that pass it straight on ('words': what the kernel writes); else NULL. */
char *ss_project_outputs_read(ss_project_facts *const *facts, size_t count, const char *usr,
                              unsigned outputs, const char *words, unsigned scope);

/* project_outputs.c. Frees the pointer arguments; their cache form, and back. */
void ss_project_outputs_free(ss_project_facts *facts);
void ss_project_outputs_encode(const ss_project_facts *facts, cJSON *o);
void ss_project_outputs_decode(const cJSON *o, ss_project_facts *facts, int *bad);

/* project_loops.c. Frees the loop calls and the findings kept aside. */
void ss_project_loops_free(ss_project_facts *facts);
/* project_loops.c. The loop calls and the findings kept aside as the cache stores them
 * ("loopCalls", "calledInLoops": absent when there are none), and back ('*bad' set when
 * malformed). */
void ss_project_loops_encode(const ss_project_facts *facts, cJSON *o);
void ss_project_loops_decode(const cJSON *o, ss_project_facts *facts, int *bad);
/* What ss_project_decode_pairs gives each [from, to] pair of strings it reads. */
typedef void (*ss_project_pair_fn)(ss_project_facts *facts, const char *from, const char *to);
void ss_project_decode_pairs(const cJSON *o, const char *key, ss_project_pair_fn add,
                             ss_project_facts *facts, int *bad);
/* The facts of the unit being analyzed, made on first use; NULL without a project pass
 * (project_cache.c). */
ss_project_facts *ss_project_unit_facts(ss_check_ctx *ctx);
/* What ss_project_decode_items gives each item of the array it reads. */
typedef void (*ss_project_item_fn)(const cJSON *item, ss_project_facts *facts, int *bad);
/* Reads the array 'key' of 'o' (absent: none) item by item with 'decode', until '*bad' is set;
 * sets it when 'key' is not an array (project_cache.c). */
void ss_project_decode_items(const cJSON *o, const char *key, ss_project_item_fn decode,
                             ss_project_facts *facts, int *bad);

/* A finding kept aside for the function 'usr' (copied), zeroed, to fill (project_facts.c). */
ss_finding *ss_project_add_called(ss_project_facts *facts, const char *usr);

/* Adds to 'r' a copy of the finding 'from', its message followed by 'more'; returns the copy
 * (project_facts.c). */
ss_finding *ss_project_add_copy(ss_result *r, const ss_finding *from, const char *more);

/* The summary of 'usr' as a wait for the whole device (the first unit's that has one), or NULL
 * where no unit summarized it so (project_facts.c). */
const ss_device_wait *ss_project_device_wait(ss_project_facts *const *facts, size_t count,
                                             const char *usr);

/* project_foreign.c. The USR (malloc'ed) of the function of another unit that 'call' calls,
 * whose summary a flow may take on trust: one the unit only declares (ss_project_declared_only),
 * or a member of a class template's specialization whose member the unit only declares (another
 * unit's explicit instantiation runs); else NULL. */
char *ss_project_foreign_usr(CXCursor call);

/* project_foreign.c. Where the drained flow finds nothing drained at 'at'
 * (ss_context_drained_words): the question the project pass would answer, were other units'
 * functions to do what the flow takes them to (ss_context_foreign_words), kept until
 * ss_project_ask_foreign. */
void ss_project_foreign_question(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at);

/* project_foreign.c. For a wait (SYNC401, at 'at') that Thrust work after it would make again
 * ("drained anyway", 'words') were other units' functions to do what the flow takes them to:
 * adds to the question kept for it (ss_project_foreign_question) the way that rests on the calls
 * 'calls' needs (as ss_context_foreign_words leaves them; NULL for none) and on 'usr' (NULL for
 * none), a function of another unit whose first device work is such Thrust work on this unit's
 * default stream; with 'copy', a synchronous copy between the host and the device on that
 * stream instead (SS_OPENING_COPY in 'kind'; ss_context_opening_copy_words), which every unit
 * that defines 'usr' must say; SS_OPENING_COPY_BLOCKING, such a copy where no drain before the
 * wait answers, and every unit of a whole run must queue its work on streams that block
 * (ss_project_facts's 'streams_block'). For a copy, 'args' (SS_READ_ARGS of them, context_cases.h)
 * say which arguments' objects the caller needs after the call and which are constants: every
 * way of that function must copy from the device into one it needs, in a run of every entry
 * of the database (NULL for Thrust). */
enum { SS_OPENING_THRUST = 0, SS_OPENING_COPY = 1, SS_OPENING_COPY_BLOCKING = 2 };
struct ss_foreign_calls;
void ss_project_foreign_opening(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const char *words,
                                const struct ss_foreign_calls *calls, const char *usr, int kind,
                                const unsigned *args);

/* project_foreign.c. For the SYNC402 warning 'f' that a synchronous copy on the legacy stream
 * would make a note ('words', ss_context_drained_call_blocking_words) were no stream of the
 * program to hold work that such a copy does not wait for: the question, which the project
 * pass answers in a run of every entry of the database where every unit queues its work on
 * streams that block (ss_project_facts's 'streams_block'). */
void ss_project_ask_streams_block(ss_check_ctx *ctx, ss_rule_id rule, const ss_finding *f,
                                  const char *words);

/* project_foreign.c. After the context of the finding 'f' for the call 'at' is applied: records
 * the question kept for it when 'f' is still a warning; drops it otherwise. */
void ss_project_ask_foreign(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const ss_finding *f);

/* project_foreign.c. After the unit's walk (a unit without errors: ss_project_record_outputs's
 * 'unjudged' unset): records in 'facts' what each function the unit defines that another unit
 * may call does to the device (ss_context_foreign_summary). */
void ss_project_summarize_foreign(ss_check_ctx *ctx, ss_project_facts *facts);

/* project_foreign.c. The project pass for those questions: each warning whose functions of other
 * units all do what the flow took them to, by the first unit's summary of each (by every unit's,
 * for a copy a function opens with), becomes a note with the question's words and what each of
 * them does; a way that needs every unit's streams to block holds only in a run of every entry
 * of the database ('scope' SS_PROJECT_EVERY_ENTRY) whose units all say so. */
void ss_project_apply_foreign(ss_project_facts *const *facts, ss_result *const *results,
                              size_t count, unsigned scope);

/* project_foreign.c. Whether the function 'usr' of another unit leaves a drained device drained
 * by its summary (the weakest where several units define it: find_end): it queues no device
 * work, or waits for what it queues. 0 where no unit of the run summarized it. */
int ss_project_foreign_keeps(ss_project_facts *const *facts, size_t count, const char *usr);

/* project_foreign.c. Drops the questions of 'facts' for the finding of 'rule' at 'file', 'line',
 * 'column': a finding whose "drained" way no longer holds (a call of another unit's function
 * that queues work before its wait, apply_waits). */
void ss_project_foreign_forget(ss_project_facts *facts, ss_rule_id rule, const char *file,
                               unsigned line, unsigned column);

/* project_foreign.c. Frees the summaries and questions; their cache form, and back. */
void ss_project_foreign_free(ss_project_facts *facts);
void ss_project_foreign_encode(const ss_project_facts *facts, cJSON *o);
void ss_project_foreign_decode(const cJSON *o, ss_project_facts *facts, int *bad);

/* project_set_up.c. Where the warning for 'at' ('rule') would come from the loop 'loop' (its
 * context applied), in a function another unit may call: the question the project pass
 * answers, kept until ss_project_ask_set_up; 'message' the finding's message before the words
 * that say it runs on every iteration. */
struct ss_loop_context;
void ss_project_set_up_question(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at,
                                const struct ss_loop_context *loop, const char *message);

/* project_set_up.c. After the context of the finding 'f' for the call 'at' is applied: records
 * the question kept for it when 'f' is still a warning; drops it otherwise. */
void ss_project_ask_set_up(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const ss_finding *f);

/* project_set_up.c. After the unit's walk (and ss_project_record_outputs, which says whether
 * the unit has errors): records in 'facts' each call of a function of the project, with its
 * caller, whether it may repeat (in a loop, a lambda, a function with a goto; every call of a
 * unit with errors) and whether the caller's name says set-up; and whether the unit defines
 * 'main'. */
void ss_project_record_set_up_calls(ss_check_ctx *ctx, ss_project_facts *facts);

/* project_set_up.c. The project pass for those questions, in a run of the whole program
 * (SS_PROJECT_WHOLE and SS_PROJECT_EVERY_ENTRY in 'scope'; a unit defines 'main'), every unit's
 * calls known: each warning whose loop's function is called, in the whole project, only outside
 * loops by functions whose name says set-up and that run a bounded number of times, every chain
 * of calls up from them ending at a 'main' that nothing calls or names, or by functions so
 * called in turn, becomes a note that says so. A function named other than as a call's callee
 * (ss_project_called_unseen) keeps the warning. */
void ss_project_apply_set_up(ss_project_facts *const *facts, ss_result *const *results,
                             size_t count, unsigned scope);

/* project_set_up.c. Frees the calls and questions; their cache form, and back. */
void ss_project_set_up_free(ss_project_facts *facts);
void ss_project_set_up_encode(const ss_project_facts *facts, cJSON *o);
void ss_project_set_up_decode(const cJSON *o, ss_project_facts *facts, int *bad);

/* project_outputs.c. Whether some unit names 'usr' other than as a call's callee (its address
 * taken, an overloaded name), or may hide a call of it: facts missing or without the calls'
 * arguments, a call left unresolved of its name, or a unit with errors that declares it. */
int ss_project_called_unseen(ss_project_facts *const *facts, size_t count, const char *usr);

/* The facts as the cache stores them, and back (project_cache.c): 'facts' NULL gives a JSON null.
 * Decoding returns 0 with '*facts' set (NULL for none), or -1 when 'o' is malformed. */
cJSON *ss_project_facts_encode(const ss_project_facts *facts);
int ss_project_facts_decode(const cJSON *o, ss_project_facts **facts);

/* project_arrays.c. For a wait (SYNC401 at 'at') right before the free 'free_name' of memory that
 * the function of another unit 'usr' makes through its parameter 'param' (tested: 'if
 * (!make(...)) return ...;'): the question the project pass answers, kept until
 * ss_project_ask_array; 'words' the note's ("drained anyway: ..."). */
void ss_project_array_question(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const char *usr,
                               unsigned param, const char *free_name, const char *words);

/* project_arrays.c. For a wait (SYNC401 at 'at') that ends the function 'usr', which another
 * unit may call, made a note because every call of it in the unit is followed by a free that
 * waits ('words' the note's, drained.c caller_free_words): the question the project pass
 * answers, kept until ss_project_ask_array; the pass makes it a warning again where a loop of
 * another unit calls the function. */
void ss_project_drain_question(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const char *usr,
                               const char *words);

/* project_arrays.c. After the context of the finding 'f' for the call 'at' is applied: records
 * the question kept for it when 'f' is still a warning (a note holding its words, for
 * ss_project_drain_question's); drops it otherwise. */
void ss_project_ask_array(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const ss_finding *f);

/* project_arrays.c. After the unit's walk: records in 'facts' each reference parameter of the
 * functions the unit defines that another unit may call through which the function makes
 * memory on every way it returns other than false (ss_context_makes_out), and the allocator. */
void ss_project_record_array_outs(ss_check_ctx *ctx, ss_project_facts *facts);

/* project_arrays.c. The project pass for those questions: each warning whose function a unit's
 * facts say makes the memory with an allocator of the free's kind becomes a note with the
 * question's words. */
void ss_project_apply_arrays(ss_project_facts *const *facts, ss_result *const *results,
                             size_t count);

/* project_arrays.c. Frees the facts and questions; their cache form, and back. */
void ss_project_arrays_free(ss_project_facts *facts);
void ss_project_arrays_encode(const ss_project_facts *facts, cJSON *o);
void ss_project_arrays_decode(const cJSON *o, ss_project_facts *facts, int *bad);

/* project_switches.c. After the context of the finding 'f' for the call 'at' is applied: when
 * 'f' is still a warning and the call is in the true branch of an 'if' (between its function and
 * it) whose condition is a bool member, false by default ('bool cudaSync = false;'), records the
 * question (the first such 'if'). */
void ss_project_ask_switch(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const ss_finding *f);

/* project_switches.c. After the unit's walk: records in 'facts' each write of a bool member in
 * the unit's functions: an assignment from getenv (through up to three variables: its name),
 * or any other (an assignment of another value than 0, a compound assignment, a constructor's
 * initializer, an address or reference taken, an increment). */
void ss_project_record_switches(ss_check_ctx *ctx, ss_project_facts *facts);

/* project_switches.c. The project pass for those questions, in a run that leaves no unit out
 * (SS_PROJECT_COMPLETE in 'scope'): each warning whose member some unit sets from getenv and
 * none writes otherwise becomes a note, "opt-in: it runs only when the environment sets
 * 'FASTLLM_CUDA_SYNC' (...)". */
void ss_project_apply_switches(ss_project_facts *const *facts, ss_result *const *results,
                               size_t count, unsigned scope);

/* project_switches.c. Frees the facts and questions; their cache form, and back. */
void ss_project_switches_free(ss_project_facts *facts);
void ss_project_switches_encode(const ss_project_facts *facts, cJSON *o);
void ss_project_switches_decode(const cJSON *o, ss_project_facts *facts, int *bad);

#endif
