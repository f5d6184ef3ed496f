/* scope.h: where a call sits (lint_scope.c): the loops around it, kernel launches, and
 * whether a loop enqueues device work. Private to the analyzer. */
#ifndef SS_ANALYZER_SCOPE_H
#define SS_ANALYZER_SCOPE_H

#include <clang-c/Index.h>
#include <stddef.h>

/* Where a call sits (lint_scope.c): loops around it within its function, also through local
 * lambdas, and whether a loop launches kernels or enqueues device work. */
typedef enum ss_scope_work {
    SS_SCOPE_LAUNCHES,   /* kernel launches: k<<<...>>>, API classes LAUNCH and GRAPH_LAUNCH */
    SS_SCOPE_ENQUEUES,   /* a launch or any call for which ss_api_enqueues() is true, except
                          * event records and stream waits (ordering, not work) */
    SS_SCOPE_DEVICE_WORK /* as SS_SCOPE_ENQUEUES, and any synchronous copy or memset too:
                          * one within the device returns before it runs (drained.c,
                          * default_stream.c) */
} ss_scope_work;

/* Whether 'c' is a for, while, do or range-for statement that may run more than once: a do
 * or while loop whose condition is the constant false ('do { ... } while (0)', after macro
 * expansion) is not. */
int ss_scope_is_loop(CXCursor c);
/* The name of the function 'call' calls, malloc'ed, or NULL: ss_ast_callee_name, and for a
 * call left unresolved in a template (type-dependent arguments) the overload set's name. */
char *ss_scope_callee_name(CXCursor call);
/* Whether 'call' calls cudaSetDevice. Returns 1 or 0. */
int ss_scope_is_set_device(CXCursor call);
/* Whether 'body' calls cudaSetDevice (a loop over the devices: each iteration works on
 * another); with 'own', not counting calls inside the loops within 'body' (an inner loop's
 * devices are its own). Returns 1 or 0. */
int ss_scope_sets_device(CXCursor body, int own);
/* The CUDA API row (rules/cuda_api.def) of the function 'call' calls, named as
 * ss_scope_callee_name names it, or NULL. */
const struct ss_api *ss_scope_callee_api(CXCursor call);
/* Whether 'c' is the configuration call of a <<<...>>> launch (__cudaPushCallConfiguration,
 * or cudaConfigureCall before CUDA 9.2). */
int ss_scope_is_launch_config(CXCursor c);
/* Whether 'call' is a k<<<...>>>(...) launch (its second child is the configuration call). */
int ss_scope_is_launch(CXCursor call);
/* The name of the kernel a k<<<...>>>(...) launch calls, as spelled ('k' for k<T><<<...>>> in
 * a template too), malloc'ed, or NULL when the callee is not named (a function pointer). */
char *ss_scope_kernel_name(CXCursor launch);
/* The named function a lambda 'function' sits in (through nested lambdas); any other
 * cursor is returned as it is. */
CXCursor ss_scope_outer_function(CXCursor function);
/* The path inside 'top' down to 'target': the nodes around it for which 'keep' says yes
 * (every node when 'keep' is NULL), outermost first; the first 'max' are written to 'out'.
 * Returns how many such nodes are on the path (more than 'max' when it is deeper), or -1 when
 * 'target' is not inside 'top'. Containment follows the tree, not source offsets. */
long ss_scope_path(CXCursor top, CXCursor target, int (*keep)(CXCursor), CXCursor *out, size_t max);
/* Writes to 'out' (at most 'max') the loops around 'c', innermost first, looking in the
 * whole named function around 'function' (the check context's function; it may be a
 * lambda). When 'c' is inside a lambda bound to a local variable ('auto step = [&]{...}'),
 * the loops around each call of that variable follow, innermost first. Returns the number
 * written. */
size_t ss_scope_enclosing_loops(CXCursor function, CXCursor c, CXCursor *out, size_t max);
/* The innermost loop around 'c' as above, or a null cursor. */
CXCursor ss_scope_enclosing_loop(CXCursor function, CXCursor c);
/* The lambda a call invokes through a local variable ('step(i)' with 'auto step = [..]..'),
 * or a null cursor. */
CXCursor ss_scope_called_lambda(CXCursor call);
/* Whether 'body' (a loop, or any statement) does 'what', directly or in the body of a local
 * lambda it calls through a variable. '*first' (may be NULL) receives the first such call,
 * or a null cursor. Returns 1 or 0. */
int ss_scope_has_work(CXCursor body, ss_scope_work what, CXCursor *first);
/* The same, for work that may run with the call 'call' inside 'body': the arm of a ?: around
 * 'call' that does not hold it is left out (one arm runs, never both), and so is 'call' itself
 * where 'body' calls cudaSetDevice (a loop over the devices runs it once on each). A null
 * 'call' is ss_scope_has_work. */
int ss_scope_has_work_beside(CXCursor body, ss_scope_work what, CXCursor call, CXCursor *first);
/* ss_scope_has_work(loop, SS_SCOPE_LAUNCHES, first). */
int ss_scope_loop_launches(CXCursor loop, CXCursor *first);
/* ss_scope_has_work(loop, SS_SCOPE_ENQUEUES, first). */
int ss_scope_loop_enqueues(CXCursor loop, CXCursor *first);
/* The line of 'c' (its expansion location), for messages. */
unsigned ss_scope_line(CXCursor c);

#endif
