/* callgraph.h: the call graph of one translation unit (callgraph.c): which of its functions
 * (functions, methods, constructors, function templates) call which, which of them enqueue
 * device work themselves or through the functions they call, which are reached from a loop
 * that enqueues device work, and which run once. Private to the analyzer. */
#ifndef SS_ANALYZER_CALLGRAPH_H
#define SS_ANALYZER_CALLGRAPH_H

#include <clang-c/Index.h>

#include <stddef.h>

#include "scope.h"

typedef struct ss_callgraph ss_callgraph;

/* The call graph of the functions defined in 'tu' outside system headers (device-only
 * functions left out). Calls inside a lambda count as calls of the function the lambda sits
 * in. A call is followed to the definition of the function it names (a template's
 * instantiation to the template). */
ss_callgraph *ss_callgraph_build(CXTranslationUnit tu);
void ss_callgraph_free(ss_callgraph *graph);

/* Whether the loop 'loop' does 'what' (scope.h): in its own body (ss_scope_has_work_beside,
 * 'call' as there), else in a function of the unit it calls, directly or further down.
 * '*work' receives the first such call; '*via' (may be NULL) the function of the unit the loop
 * calls that does it, or a null cursor when the loop does it itself. Returns 1 or 0. */
int ss_callgraph_loop_work(ss_callgraph *graph, CXCursor loop, ss_scope_work what, CXCursor call,
                           CXCursor *work, CXCursor *via);

/* ss_scope_has_work(function, what, first), kept for each function of the unit (a definition,
 * as ss_callgraph_callee returns them): the flows of checks/drained.c ask it of the same
 * functions again and again. Any other cursor, or a NULL 'graph', is asked afresh. */
int ss_callgraph_own_work(ss_callgraph *graph, CXCursor function, ss_scope_work what,
                          CXCursor *first);

/* Whether the function 'function' of the unit does 'what' (scope.h): in its own body, or in a
 * function of the unit it calls, directly or further down (up to eight calls). Returns 1 or 0
 * (0 for a function the unit does not define). */
int ss_callgraph_does_work(ss_callgraph *graph, CXCursor function, ss_scope_work what);

/* A loop in another function from which a function is called (through up to eight calls). */
typedef struct ss_loop_reach {
    CXCursor loop;     /* the loop */
    CXCursor work;     /* its first work (ss_callgraph_loop_work) */
    CXCursor function; /* the function the loop is in */
    char *chain;       /* "'postprocess()'" or "'postprocess()' called from 'run()'": the
                        * function and its callers up to the one the loop calls, malloc'ed */
    char *place;       /* where the loop is: "centerpoint.cpp:160" (the file's name), malloc'ed */
    /* The calls from the loop down to the function, outermost first: 'calls[i]' is made in
     * 'froms[i]', the loop for the first, else the function that makes it. */
    CXCursor calls[8];
    CXCursor froms[8];
    size_t call_count;
} ss_loop_reach;

/* Whether the named function 'function' is called, in this unit, from a loop that does
 * 'what', or from a function so called. Fills 'out' (ss_loop_reach_free). Returns 1 or 0. */
int ss_callgraph_reached_from_loop(ss_callgraph *graph, CXCursor function, ss_scope_work what,
                                   ss_loop_reach *out);

/* ss_callgraph_reached_from_loop's answer alone (the chain not kept). Returns 1 or 0. */
int ss_callgraph_loop_reaches(ss_callgraph *graph, CXCursor function, ss_scope_work what);
void ss_loop_reach_free(ss_loop_reach *reach);

/* Where 'c' is, for a message: "centerpoint.cpp:160" (its expansion location; the file's name
 * without its folder). Malloc'ed. */
char *ss_callgraph_place(CXCursor c);

/* The definition of the function of the unit that 'call' calls, or a null cursor when it calls
 * none (a library function, a call through a pointer). */
CXCursor ss_callgraph_callee(ss_callgraph *graph, CXCursor call);

/* Whether the named function 'function' is called, in this unit, from a loop that does 'what',
 * or from a function so called, along some chain of calls none of which 'skip' accepts.
 * 'skip(from, call, data)' is asked of each call on the way: 'from' is the loop for a call
 * made in the loop, else the function that makes the call (a call that runs only in some
 * cases, under a guard between 'from' and 'call', may be skipped). Returns 1 or 0. */
int ss_callgraph_reached_unless(ss_callgraph *graph, CXCursor function, ss_scope_work what,
                                int (*skip)(CXCursor from, CXCursor call, void *data), void *data);

/* Whether the named function 'function' runs once per program: it is 'main', a constructor or
 * destructor, or a word of its name (split at '_' and before a capital: 'InitOnCUDA', 'set_up')
 * starts with init, setup, create, alloc, load, prepare, config, valid, verify, check, warmup,
 * release, destroy, cleanup, teardown, shutdown, finalize or reset (any case); or every call of it
 * in the unit is outside any loop of a function that runs once, and its address is never taken
 * (a call made in a function that runs nowhere in this unit, as ss_callgraph_uncalled says, does
 * not count). '*why' receives words for a message ("'main' runs once", "'runTest' is called
 * once, from 'main'"), malloc'ed. Returns 1 or 0. */
int ss_callgraph_runs_once(ss_callgraph *graph, CXCursor function, char **why);

/* A call made in a lambda runs when the lambda is called, not where it is written (unless it
 * is invoked there, '[&] { ... }()', or bound to a local that the function only calls, outside
 * its loops), and a lambda that a function returns, passes on or stores
 * may be called any number of times: "'NthElementGPU::getNBestList' is called from a lambda
 * that 'createGetNBestListGPUFn' returns (nth_element.cu:468)", for the named function
 * 'function' when such a call of it, or of a function that calls it (the first caller on each
 * level, up to eight levels), is in one. Malloc'ed, or NULL. */
char *ss_callgraph_lambda_words(ss_callgraph *graph, CXCursor function);

/* "is inline" or "has internal linkage" when every call of 'function' (a named function, not
 * virtual, main or an operator) is in this unit and the graph sees them all: its address is
 * not taken, no global's initializer names it and no call left unresolved in a template may
 * name it; else NULL. */
const char *ss_callgraph_only_here(ss_callgraph *graph, CXCursor function);

/* The calls of the named function 'function' in this unit: the first 'max' of them into
 * 'calls', and the function each is made in (a call inside a lambda: the function the lambda
 * sits in) into 'callers'. Returns how many calls there are, or -1 when the function's address
 * is taken (it may be called from anywhere) or it is not a function of the unit. */
long ss_callgraph_calls_of(ss_callgraph *graph, CXCursor function, CXCursor *calls,
                           CXCursor *callers, size_t max);

/* The same, but -1 too when a call of it may not be seen: another unit may call it (it has
 * external linkage and is neither inline nor a template), it is virtual, or a global's
 * initializer names it. The calls left unresolved in templates that may call it (they name it,
 * give it no more arguments than it takes, and a qualified name's overloads include it) are
 * among the calls: their arguments are as written, and some may be calls of another function
 * of that name. */
long ss_callgraph_seen_calls_of(ss_callgraph *graph, CXCursor function, CXCursor *calls,
                                CXCursor *callers, size_t max);
/* Whether 'function' is named other than as the callee of a call in this unit (its address
 * taken, a global's initializer), or is no function of the unit. Returns 1 or 0. */
int ss_callgraph_named_elsewhere(ss_callgraph *graph, CXCursor function);

/* Whether the call 'call', left unresolved in a template, takes its argument 'index' by value:
 * every function of the unit it may call (by its name, as ss_callgraph_seen_calls_of counts
 * them) has that parameter and takes it by value, and there is one. Returns 1 or 0. */
int ss_callgraph_takes_value(ss_callgraph *graph, CXCursor call, int index);

/* The functions of the unit the graph holds (definitions outside system headers): how many,
 * and the one at 'index' (below that count). */
size_t ss_callgraph_function_count(const ss_callgraph *graph);
CXCursor ss_callgraph_function(const ss_callgraph *graph, size_t index);

/* An answer a check keeps for the unit about the declaration 'decl' (compared canonically),
 * under its own tag 'kind' (an answer that costs a walk of the unit): ss_callgraph_recall
 * returns 1 and sets '*answer' when one was kept, else 0; ss_callgraph_remember keeps one. */
int ss_callgraph_recall(const ss_callgraph *graph, int kind, CXCursor decl, int *answer);
void ss_callgraph_remember(ss_callgraph *graph, int kind, CXCursor decl, int answer);

/* Whether a word of the identifier 'name' starts with init or setup, as ss_callgraph_sets_up
 * reads a function's name ('initialized', 'm_bInitDone', 'set_up'). Returns 1 or 0. */
int ss_callgraph_name_says_set_up(const char *name);

/* Whether 'function' (a definition) sets up, so that a loop in it runs when the program or an
 * object is set up, not on a hot path: a constructor, or a word of its name (split as above)
 * starts with init or setup ('contextsInit', 'init_buffers', 'set_up'). '*why' receives words
 * for a message ("'Pool::Pool' is a constructor"), malloc'ed. Returns 1 or 0. */
int ss_callgraph_sets_up(CXCursor function, char **why);

/* Whether every way into 'function' (a definition) passes through a function that sets up
 * (a word of its name starts with init or setup, as ss_callgraph_sets_up; not a constructor,
 * whose calls the graph does not all see) and that runs a bounded number of times per program,
 * as the code shows: it is called only outside loops and lambdas, from functions that are so
 * called in turn, up to 'main'. Every function on those ways (the set-up one, the ones it
 * reaches 'function' through, and those up to 'main') is called only where this graph sees it:
 * of internal linkage, or inline or a template defined in the unit's main file (not a header
 * another unit may include), not virtual, its address not taken, no global's initializer or
 * template's unresolved call naming it; no call of them is made in a lambda that is not invoked
 * where it is written, none is recursive, and none of those up to 'main' holds a goto (a loop
 * written with labels). A loop of 'function' then runs during set-up. '*why' receives words
 * for a message ("every call of 'load' comes from 'initCuda', which sets up (its name says so)
 * and is called outside any loop, from 'run', from 'main'"), malloc'ed. Returns 1 or 0. */
int ss_callgraph_only_in_set_up(ss_callgraph *graph, CXCursor function, char **why);

/* Whether the function 'f' holds a goto or a call that returns twice (setjmp): a loop may be
 * written with them. */
int ss_callgraph_holds_jump(CXCursor f);

/* The line of the first parse error of the main file in the extent of 'f' (clang's recovery
 * may have dropped a statement of it, or made a loop a block), or 0 where there is none. */
unsigned ss_callgraph_error_line(ss_callgraph *g, CXCursor f);

/* Whether 'function' (a definition) tears down, so that a loop in it runs when an object is
 * destroyed, not on a hot path: a destructor, or a word of its name (split as above) starts
 * with finalize, cleanup, teardown, shutdown, destroy, reclaim or deinit ('commReclaim'). '*why'
 * receives words for a message ("'Pool::~Pool' is a destructor"), malloc'ed. Returns 1 or 0. */
int ss_callgraph_tears_down(CXCursor function, char **why);

/* Whether the unit's main file may instantiate the function template 'function' explicitly,
 * for other units to call: its name is among the words of the main file's explicit
 * instantiation definitions ('template void f<float>(float *);', in a macro's body too; not
 * 'extern template'), read from its tokens (libclang shows no cursor for them). 1 without a
 * graph. Returns 1 or 0. */
int ss_callgraph_instantiated_here(ss_callgraph *graph, CXCursor function);

/* Whether the named function 'function' runs nowhere in this unit: it can be called only
 * where a unit calls it (inline, or of internal linkage, a template too; not virtual, not a
 * special member or operator, not 'main'), and nothing in the unit calls it or takes its address
 * (nor names it in a call left unresolved in a template), or only functions that run nowhere in
 * this unit call it (up to eight callers up). '*why' receives words for a message ("'devToDev' is
 * inline, and nothing in this unit calls it or takes its address"), malloc'ed. Returns 1 or 0. */
int ss_callgraph_uncalled(ss_callgraph *graph, CXCursor function, char **why);

/* Whether 'body' (or 'body' itself, a call) calls a function whose name (unqualified, as
 * declared, a header's version suffix aside: cuEventElapsedTime_v2 is cuEventElapsedTime) is
 * one of 'names[0..count)', itself or in a function of the unit it calls (two
 * calls deep; not with a NULL 'graph'). '*found'
 * receives the first such call, or a null cursor. Returns 1 or 0. */
int ss_callgraph_calls_named(ss_callgraph *graph, CXCursor body, const char *const *names,
                             size_t count, CXCursor *found);

/* ss_callgraph_calls_named, followed 'limit' calls deep instead of two, past the second only
 * through a function whose body is one 'return' of a value (a clock read through two wrappers
 * of the unit: 'now_us' returning 'now_ms() * 1e3', 'now_ms' calling 'clock_gettime', from a
 * function the loop calls; not a logging helper that stamps its lines). */
int ss_callgraph_calls_named_within(ss_callgraph *graph, CXCursor body, const char *const *names,
                                    size_t count, int limit, CXCursor *found);

#endif
