/* context_cases.h: the cases that make a finding a note where it would be a warning, one file each
 * concern, for ss_context_apply (context.c): the host needs the value at once or the function
 * hands the data to its caller (inherent.c), or goes through the buffer it copied back
 * (host_reads.c), the copy's stream or the device has nothing queued (idle.c, drained.c), a loop's
 * iterations that cost little: a buffer that only grows, a loop that times itself, a sweep over a
 * constant array of settings, warm-up rounds of a constant count (loop_notes.c), a wait that
 * times a phase under a run-time flag (timing_flag.c), and calls that run on no ordinary run:
 * teardown, dead branches, opt-in switches, functions nothing calls (rare_paths.c). Each returns
 * the words added to the message ("inherent: ...", "idle: ...", ...), malloc'ed, or NULL when its
 * case does not apply. Private to context.c and these files. */
#ifndef SS_ANALYZER_CHECKS_CONTEXT_CASES_H
#define SS_ANALYZER_CHECKS_CONTEXT_CASES_H

#include <clang-c/Index.h>
#include <stdint.h>

#include "common.h"

/* Calls that size an allocation with their arguments: the allocators of C and CUDA, and a
 * container's resize (also capitalized, as some C++ libraries name it). */
#define SS_SIZING_CALLS                                                                            \
    "malloc", "calloc", "realloc", "aligned_alloc", "cudaMalloc", "cudaMallocHost",                \
        "cudaHostAlloc", "cudaMallocManaged", "cudaMallocAsync", "cudaMallocPitch",                \
        "cudaMallocFromPoolAsync", "resize", "Resize", "reserve", "Reserve", "assign"

/* Calls that read the wall clock: a function of the program that makes one and takes nothing
 * ('double t = get_time();') reads a time stamp and does no work on the data. */
#define SS_WALL_CLOCK_CALLS "clock_gettime", "gettimeofday", "omp_get_wtime", "MPI_Wtime", "now"

/* The methods of a timer class that end or read a measurement ('Timer::Stop(TH, "fft")' in
 * SHOC, 'GpuTimer::Stop', 'CpuTimer::elapsed'): "word::method" (ss_callgraph_calls_named), a
 * method of a class whose name holds the word, case aside. A loop that calls one times its
 * iterations, as one that reads the clock itself does. */
#define SS_TIMER_CLASS_CALLS                                                                       \
    "timer::stop", "timer::elapsed", "timer::elapsedmillis", "timer::elapsed_time",                \
        "timer::elapsedtime", "timer::read", "timer::seconds"

/* The deepest path ss_context_path finds. */
enum { SS_CONTEXT_MAX_PATH = 96 };

/* The nodes from 'top' down to 'target', outermost first, into 'path' (SS_CONTEXT_MAX_PATH of
 * them). Returns how many, or -1 when the target is not there or lies deeper. */
long ss_context_path(CXCursor top, CXCursor target, CXCursor *path);

/* Whether the call 'c' (of the API 'api', or NULL) puts work on the device: a launch, an API
 * call that enqueues work (event records and stream waits aside), or a call of a function of
 * the unit that does. Returns 1 or 0. */
int ss_context_call_enqueues(ss_callgraph *graph, CXCursor c, const ss_api *api);

/* Whether something inside 'e' (not 'e' itself) names the variable or member 'decl' ('x',
 * 'obj.x'). Returns 1 or 0. */
int ss_context_mentions(CXCursor e, CXCursor decl);

/* frees.c. Whether the free 'call' surely waits for nothing (measured, docs/studies/
 * validation.md): a 'cudaFree', 'cudaFreeArray' or 'cudaFreeHost' of a null pointer as written
 * ('0', 'NULL', 'nullptr'), or a 'cudaFree' of a local variable that the named function around
 * 'function' writes only as the out-argument of stream-ordered allocations ('cudaMallocAsync',
 * 'cudaMallocFromPoolAsync', 'cuMemAllocAsync'), at least one: any other write (an initializer
 * other than a null constant, '=', '&p' handed to another call, a reference to it) or a
 * parameter, a global or a member may hold other memory. Returns 1 or 0. */
int ss_context_free_waits_for_nothing(CXCursor function, CXCursor call);

/* frees.c. Whether the free 'call' surely waits for the whole device whenever the wait 'wait'
 * before it runs, where the CUDA calls succeed: a 'cudaFree', 'cudaFreeHost' or
 * 'cudaFreeArray' of a local variable, in a function that switches no device or context
 * ('cudaSetDevice', 'cuCtxSetCurrent', 'cuCtxPushCurrent') and has no goto, that the function
 * writes once (besides a declaration without initializer or with a null constant), in a
 * statement of the wait's block or of one around it, before the wait's, where it runs
 * whenever that statement runs (no branch, loop, '?:', '&&', '||' around it); that write the
 * out-argument of a synchronizing allocator of the free's kind ('cudaMalloc',
 * 'cudaMallocPitch'; 'cudaMallocHost', 'cudaHostAlloc'; 'cudaMallocArray',
 * 'cudaMalloc3DArray'), or, for 'cudaFreeArray', an initializer that is a call, with an 'if'
 * that tests the variable for null and returns ('if (!a) { ...; return ...; }') in a block
 * around the wait between the write and the wait. Returns 1 or 0. */
int ss_context_free_waits(CXCursor function, CXCursor call, CXCursor wait);

/* frees.c. The allocation (the call of the toolkit's allocator itself, not a member or a
 * function of the project of the same name) that makes the free 'call' surely wait for the
 * whole device when it runs, as ss_context_free_waits with 'call' its own wait (but not for an
 * array a call's result initializes), and for the device current at the free: the free runs
 * once for each allocation (no loop or lambda between the block the two share and the free, no
 * other free of the variable in the function), the function holds no goto, and nothing from the
 * allocation's statement to the free's (both included) may switch the device or context: a call
 * of a switching API (ss_switches_device) or cudaDeviceReset; of a function the unit cannot follow
 * (through a pointer, a virtual or call operator, a dependent name, one it only declares outside
 * the system headers); of a library function the headers only declare named as one that sets the
 * device; or of a function that makes such a call (the unit's, followed in 'graph', or a library's
 * the headers define; not the C++ library's), three calls deep and 256 calls at most. A switch
 * elsewhere in the function (before the allocation) does not matter. A null cursor where there is
 * none. */
struct ss_callgraph;
CXCursor ss_context_free_allocation(struct ss_callgraph *graph, CXCursor function, CXCursor call);

/* frees.c. Whether the named function around 'function' switches the current device or
 * context ('cudaSetDevice', 'cuCtxSetCurrent', 'cuCtxPushCurrent') or holds a goto: a free
 * after it may not wait for the device its wait is for. Returns 1 or 0. */
int ss_context_switches_device(CXCursor function);

/* frees.c. Whether memory from 'allocator' (a name) is what the free 'free_name' takes and waits
 * for the whole device for (cudaMalloc, cudaMallocPitch for cudaFree; cudaMallocHost,
 * cudaHostAlloc for cudaFreeHost; cudaMallocArray, cudaMalloc3DArray for cudaFreeArray).
 * Returns 1 or 0. */
int ss_context_allocator_frees(const char *free_name, const char *allocator);

/* frees.c. Whether the function definition 'function' makes memory through its parameter
 * 'index', a reference to a pointer, on every way it returns other than a constant 0, where the
 * CUDA calls succeed: the parameter is the out-argument of one call ('&a'), in a statement of
 * the body that runs it whenever it runs (an 'if''s condition too: 'if (!check(
 * cudaMallocArray(&a, ...))) return false;'), every 'return' before that statement's end
 * returns a constant 0, every free given it is a statement of a block that then returns a
 * constant 0, and nothing else writes it, binds it or takes its address (a null constant
 * assigned before the call aside), no lambda, goto or switch of device or context; the
 * allocating call's name into 'allocator' ('size' bytes). Returns 1 or 0. */
int ss_context_makes_out(CXCursor function, unsigned index, char *allocator, size_t size);

/* frees.c. For the free 'call' of a local variable that the named function around 'function'
 * writes only by handing it to a reference parameter of a function ('*index' its argument),
 * in 'if (!helper(...)) return ...;' (its branch leaving the function), a statement of a block
 * around the wait 'wait', before it (no goto or switch of device in the function): that call,
 * else a null cursor. The free surely waits where the helper makes the memory with an
 * allocator of the free's kind on every way it returns other than false
 * (ss_context_makes_out). */
CXCursor ss_context_free_helper(CXCursor function, CXCursor call, CXCursor wait, unsigned *index);

/* inherent.c. Whether 'c', inside the expression 'root', is written within 'decltype(...)' or
 * 'typeof(...)', where its value is not read ('static_cast<decltype(count)>(4)'). */
int ss_context_in_decltype(CXCursor root, CXCursor c);

/* inherent.c. Whether 'stmt' only waits for the device or checks an error: a call of a
 * synchronizing API in it (also inside an error-checking macro), and no other statement.
 * Returns 1 or 0. */
int ss_context_is_wait(CXCursor stmt);

/* inherent.c. Whether 'call' calls a method on the object the method it is in runs on
 * ('rotate();', 'this->rotate();'); '*is_const' tells a const one. Returns 1 or 0. */
int ss_context_calls_on_this(CXCursor call, int *is_const);

/* inherent.c. "inherent: ..." when the host uses the readback's value at once: the call is the
 * condition of a branch, the value returned, or the size of an allocation, or the next
 * statement (after waits for the device; for an asynchronous readback also after statements
 * that stand apart from the value and then a wait for the copy) does one of these with it; for
 * a pageable copy also when the next statement waits for it. Only for SYNC301, SYNC202 and
 * SYNC201. */
char *ss_context_inherent_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at);

/* inherent.c. Inside a loop, where the host needs the value to queue the next work: "inherent:
 * ..." as ss_context_inherent_words says, but only where the value sizes a launch or an
 * allocation (in the next statement, or in the branch of an 'if' that tests it); for a wait
 * (SYNC401), "inherent: it waits for the value read back at line 17, ..." where it waits for
 * an asynchronous readback of one value, within three statements before it, that the
 * statement after it needs so; "inherent: it waits for the kernel launched at line 12, which
 * writes pinned host memory, ..." where it waits for a launch given pinned host memory
 * (ss_context_pinned_writer) that the statements after it need so. */
char *ss_context_sized_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at);

/* inherent.c. For only_tested.c, the one value a readback in a loop gives the host: for SYNC301,
 * SYNC202 and SYNC201 (a copy of one value), the variable the call 'at' reads it into ('*copy'
 * is 'at'); for a wait (SYNC401), that of the asynchronous one-value readback it waits for,
 * within three statements before it, as ss_context_sized_words finds it ('*copy' is that copy).
 * The statements of the innermost block around 'at' go to 'stmts' (at most 'max'; '*count' of
 * them), and '*from' is the one that holds 'at'. A null cursor when there is no such value. */
CXCursor ss_context_loop_value(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, CXCursor *copy,
                               CXCursor *stmts, unsigned max, unsigned *count, unsigned *from);

/* only_tested.c. Inside a loop: "inherent as written: ..." where the one value a readback gives
 * the host (ss_context_loop_value; for a wait, one for a stream or an event, not the whole
 * device, and no other copy to the host in its block but in a branch that tests the value and
 * leaves the loop) is a plain local that the host tests at once to decide control flow: the
 * first statement after it that names the value (past waits, statements that call nothing,
 * prints of the value and synchronous one-value readbacks of other locals, three at most) is an
 * 'if' that tests it, or the readback ends the body of a 'while' or 'do' loop whose condition
 * tests it; and every read of the variable that the readback's value may reach (reaching
 * definitions) sits in the condition of that loop or of an 'if' one of whose branches leaves
 * the loop, calls a function or queues device work, under operators only (no call, no
 * assignment), or is printed in the loop (printf, std::cout of the C or C++ library), read at
 * or after the loop's end, or copied into another plain local whose every read is such a
 * test. Malloc'ed, or NULL. */
char *ss_context_tested_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at);

/* only_tested.c. The 'while' or 'do' loop of 'function' whose body is the block that holds
 * 'stmt' (a 'do { ... } while (0)' aside: a checking macro's block runs once), or a null cursor;
 * the loop whose condition runs next when that block ends. */
CXCursor ss_context_body_loop(CXCursor function, CXCursor stmt);

/* only_tested.c. Reached from a loop: "inherent as written: the function returns the value
 * (line 3), and every call from a loop tests it at once (...)" where the one value a readback
 * gives the host (ss_context_loop_value; SYNC301 or SYNC202) is a plain local of a function (a
 * method or conversion operator that is not virtual) whose body returns it a few statements on
 * (only statements that call nothing and do not name it between), and every chain of calls from
 * a loop that enqueues device work ends with a call whose value its caller tests at once: the
 * call is the condition of a 'while' or 'do' loop or of an 'if' that decides what runs next
 * (under the operators of a test only), or sets a plain local that the caller tests right
 * after and only tests (as ss_context_tested_words reads a readback written there). Malloc'ed,
 * or NULL. */
char *ss_context_returned_test_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at);

/* only_tested.c. Whether the wait 'at' serves the one-value readback 'copy' only: it waits for
 * one stream or one event (a wait for the whole device also waits for other streams' work,
 * which the value does not need), and no statement of 'stmts' ('n' of them, the block around
 * them) holds another copy that may copy to the host. Returns 1 or 0. */
int ss_context_wait_for_value(CXCursor function, CXCursor at, const CXCursor *stmts, unsigned n,
                              CXCursor copy);

/* only_tested.c. Whether 'var' is a plain local of a function (or a parameter taken by value)
 * of a scalar type (no static or global storage, no reference, no array, no class). Returns 1
 * or 0. */
int ss_context_plain_local(CXCursor var);

/* only_tested.c. Whether 'stmt' only prints (printf and kin, std::cout insertions of the C or
 * C++ library), computing nothing but through the C math library. Returns 1 or 0. */
int ss_context_print_statement(CXCursor stmt);

/* only_tested.c. Whether the call 'call', in a statement that calls the toolkit, is part of an
 * error check: a function of the C or C++ library ('fprintf', 'exit'), of the toolkit
 * ('cudaGetErrorString'), or one given what an API call returns ('check(cudaMemcpy(...))').
 * Returns 1 or 0. */
int ss_context_check_call(CXCursor call);

/* inherent.c. Whether 'stmt' is host code of the C or C++ library only (no function of the
 * program, no 'new', no lambda) and queues no device work, a synchronous memset or copy within
 * the device included. Returns 1 or 0. */
int ss_context_host_only(ss_check_ctx *ctx, CXCursor stmt);

/* inherent.c. How 'stmt' sizes a launch, a copy or an allocation with 'var' ("sizes a launch
 * with it"), malloc'ed, and the call that does ('*at'); or NULL. */
char *ss_context_sizing_use(ss_callgraph *graph, CXCursor stmt, CXCursor var, CXCursor *at);

/* inherent.c. Whether 'c' reads the value of 'var' (not only under 'sizeof' or 'decltype').
 * Returns 1 or 0. */
int ss_context_reads_value(CXCursor c, CXCursor var);

/* The qualified name of the Thrust function 'call' calls ("thrust::inclusive_scan"), with at
 * least two arguments (a policy and a range); malloc'ed, or NULL (drained.c). */
char *ss_context_thrust_callee(CXCursor call);

/* inherent.c. The index in 'stmts' ('n' of them) of the statement that waits for the
 * asynchronous readback 'copy' (in stmts[from]) of the value 'var', within the next three
 * statements, those between standing apart from the value or only recording events (as
 * ss_context_sized_words finds a wait's readback); 0 when there is none, or the copy is
 * synchronous. */
unsigned ss_context_readback_wait(ss_check_ctx *ctx, CXCursor copy, const CXCursor *stmts,
                                  unsigned n, unsigned from, CXCursor var);

/* chooses.c. Inside a loop: "inherent: the value chooses the next device work (...)" where the
 * one value a readback gives the host (ss_context_loop_value; a synchronous copy, or an
 * asynchronous one and the wait for it, ss_context_readback_wait; for a wait, SYNC401, "it
 * waits for the value read back at line 37, which chooses ...", a wait that serves that
 * readback only, ss_context_wait_for_value), a plain local (a parameter taken by value
 * included) whose address goes to copies only, is needed before any device work on every
 * way from the readback (from the wait, for an asynchronous one): a branch tests it ('if', one of
 * whose branches queues device work or leaves), the condition of the loop tests it, or a launch,
 * copy or allocation is sized with it or with a local computed from it; the statements between only
 * host code of the C or C++ library, waits, prints, and synchronous one-value copies (also through
 * a function of the unit that does nothing else), past the end of a branch or of the loop's body
 * into the loop's next round (once; 'while' and 'do' loops). For a getter ('int n; cudaMemcpy(&n,
 * ...); return n;', or an asynchronous copy and its wait between; called only in this unit) named
 * for a caller's loop: where each of its calls in a loop of the unit stores the value in a plain
 * local that is needed so. Malloc'ed, or NULL. */
char *ss_context_chooses_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at,
                               const ss_loop_context *loop);

/* graph_value.c. For only_tested.c, the one value a graph copies to the host in a loop that
 * launches it and waits: for a wait (SYNC401) for one stream, stmts[*from], a cudaGraphLaunch on
 * that stream within three statements before it (those between calling nothing), no other graph
 * launch or copy to the host queued on it since the previous wait; for a copy
 * (SYNC301, SYNC201) captured between cudaStreamBeginCapture and cudaStreamEndCapture of its
 * stream, the end of the capture after it in 'stmts' ('n' of them) and then such a launch of
 * the graph and its wait. The executable graph comes from one graph (every cudaGraphInstantiate
 * into it and cudaGraphExecUpdate of it in the function; the graph, the executable graph and
 * the node handed to no call but those that capture, add a memcpy, kernel or memset node,
 * instantiate, update, launch, set a kernel node's parameters or destroy, and not assigned), which
 * holds one copy to the host, of one value: the one copy to the host captured into it (no function
 * of the program called in the capture), or its one cudaGraphAddMemcpyNode, whose parameters'
 * 'dstPtr' is make_cudaPitchedPtr(&x, size, 1, 1) (and 'kind', if set, device to host or default).
 * That copy goes to '*copy' (for a node, the make_cudaPitchedPtr call), the launch to '*launch',
 * the wait's index to '*from'; returns the variable the copy writes, or a null cursor. */
CXCursor ss_context_graph_value(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, CXCursor *copy,
                                CXCursor *launch, const CXCursor *stmts, unsigned n,
                                unsigned *from);

/* inherent.c. The launch that the wait stmts[index] waits for (the whole device, or the
 * launch's stream as written), within three statements before it, the statements between
 * standing apart from the memory, where the launch is given pinned host memory that its kernel
 * may write (the parameter is no pointer to const): a variable or field that holds pinned
 * memory by the function's data flow or by every store into it in the unit (cudaMallocHost,
 * cudaHostAlloc, ...), or the device address of such memory (cudaHostGetDevicePointer). That
 * memory (the host's variable or field) into 'memory' (SS_CONTEXT_MAX_PINNED at most, '*count'
 * of them); a null cursor when there is none. */
enum { SS_CONTEXT_MAX_PINNED = 8 };
CXCursor ss_context_pinned_writer(ss_check_ctx *ctx, const CXCursor *stmts, unsigned index,
                                  CXCursor *memory, size_t *count);

/* inherent.c. ss_context_pinned_writer where the launch may also be given managed memory
 * (cudaMallocManaged, by the function's data flow or by every store into the variable or field
 * in the unit), which the host also reads directly: 'managed' says of each of 'memory' whether
 * it is managed (1) or pinned (0). */
CXCursor ss_context_readable_writer(ss_check_ctx *ctx, const CXCursor *stmts, unsigned index,
                                    CXCursor *memory, int *managed, size_t *count);

/* inherent.c. Whether the kernel the launch 'launch' calls takes its parameter 'index' as a
 * pointer to const: the kernel does not write through it. Returns 1 or 0. */
int ss_context_const_parameter(CXCursor launch, unsigned index);

/* inherent.c. Whether the unit allocates the pinned host memory 'memory' (a variable or field)
 * with room for one element (cudaMallocHost((void **)&p, sizeof(unsigned))): one value, not a
 * buffer. Returns 1 or 0. */
int ss_context_pinned_one_value(ss_check_ctx *ctx, CXCursor memory);

/* inherent.c. The pinned host memory the pointer 'arg' of 'function' points into: the variable
 * or field it names when the function's data flow says it holds pinned host memory, or when the
 * unit stores into it only pinned allocations; the host memory whose device address it holds
 * when the unit stores into it only that address (cudaHostGetDevicePointer). A null cursor
 * otherwise (a parameter, pageable or unknown memory). */
CXCursor ss_context_pinned_memory(ss_check_ctx *ctx, CXCursor function, CXCursor arg);

/* inherent.c. ss_context_pinned_memory, or the managed memory the pointer 'arg' points into (a
 * variable or field that holds managed memory by the function's data flow or by every store
 * into it in the unit: cudaMallocManaged), '*managed' then set. */
CXCursor ss_context_readable_memory(ss_check_ctx *ctx, CXCursor function, CXCursor arg,
                                    int *managed);

/* inherent.c. "inherent: the function hands the data to its caller (...)" when the pageable
 * copy 'at' copies to the host into an out parameter (a pointer or reference parameter, also
 * through a local pointer or reference into it) or into a local the function returns, and the
 * function does no device work after it (for a copy in a loop: in the loop or after it) but
 * more copies to the host. */
char *ss_context_handover_words(ss_check_ctx *ctx, CXCursor at);

/* inherent.c. "inherent: the copy hands it to the caller through 'a' (...)" for a one-value
 * readback (SYNC301) straight into the caller's variable, through a pointer parameter ('a', 'a +
 * i', '&a[i]', '&a->n') or the address of a reference parameter not to const ('&r'), which the
 * function names nowhere after the copy, nor stores into itself before it ('a = scratch;'): the
 * value goes to the caller as it does where '*a = v;' right after a copy into a local hands it
 * over (ss_context_inherent_words). Malloc'ed, or NULL. */
char *ss_context_direct_handover_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at);

/* idle.c. Where the call 'at' (in 'loop', or NULL) has nothing queued to wait for, in words:
 * "idle: ..." for a pageable copy on a stream an earlier statement of its block synchronized
 * with nothing queued since, or on a stream that carries only copies of local arrays (a few
 * bytes) in the unit; "staging: ..." for a stream wait in a loop whose only device work is
 * copies through two host buffers that take turns (a host call overlapping the copy, a
 * 'swap'); else ss_context_drained_words. */
char *ss_context_idle_words(ss_check_ctx *ctx, ss_rule_id rule, const ss_loop_context *loop,
                            CXCursor at);

/* drained.c. For a copy (SYNC201, SYNC202, SYNC301), a wait in a loop (SYNC401) or an
 * allocation, free or registration that synchronizes the device (SYNC402,
 * ss_context_drained_call_words): "drained:
 * ..." where the device has nothing queued at the call on every way the unit reaches it (a
 * device-wide wait, or a synchronous copy where every stream blocks, drained it, in the
 * function, in a function called before, at the end of a loop's previous iteration, or before
 * every call of the function in the unit); for a copy, "drained anyway: ..." where a
 * device-wide wait follows it with no work queued between; for a stream or device-wide wait,
 * "drained anyway: the next statement, 'thrust::sort' with the synchronous policy ..." where
 * the next statement is a Thrust algorithm that synchronizes its stream when it ends, with a
 * synchronous policy on the stream all the work the wait waits for is on. None for a wait while
 * ctx->wait_after_work is set (the call's function queues work before it waits). */
char *ss_context_drained_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at);

/* drained.c. For a synchronous one-value readback (SYNC301) whose next device call, in the
 * same block with at most two statements between that stay on the host, is a synchronous copy to
 * the device, with nothing queued between on every way the unit reaches it (the drained flow
 * finds the upload drained by this readback, and it does not write what the readback read):
 * "drained anyway: the next device call, 'cudaMemcpy' at line 22, a synchronous copy to the
 * device, waits for the same work: ...": that copy returns only once the work queued before it
 * is done (held-out-18's shape AJ). Malloc'ed, or NULL. */
char *ss_context_upload_next_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at);

/* drained.c. For a wait for the whole device (SYNC401) that closes a loop's body (a statement
 * of it, written '{ ... }', run whenever the body runs, with at most two statements after it that
 * stay on the host), where every way on waits for the same work at once: around the back edge
 * (the loop's condition and increment staying on the host), the first statement of the body
 * that is not such a host statement (two at most before it), and out of the loop, the first such
 * statement after it in its block, each holding a wait for the whole device or, in a unit whose
 * synchronous copies wait for all work, a synchronous copy between the host and the device, run
 * whenever its statement runs: "drained anyway: every way on from here waits for the same work
 * at once: ..." (held-out-19's shape AM). Malloc'ed, or NULL. */
char *ss_context_closing_wait_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at);

/* drained.c. For the call 'at' in the body of a loop of ctx->function: the call that drains the
 * device on the way around the back edge of its innermost loop alone (the end of that loop's
 * previous iteration, then its body down to 'at', nothing queued between on any way), for the
 * whole device as ss_context_drained_words asks; a null cursor where that way leaves the device
 * busy. '*loop' receives that loop, '*outer' the innermost loop whose body holds it (null cursors
 * where there is none). */
CXCursor ss_context_back_edge_drain(ss_check_ctx *ctx, CXCursor at, CXCursor *loop,
                                    CXCursor *outer);

/* drained.c. Whether the device is drained right before the statement 'stmt' of ctx->function
 * on every way the unit reaches it, as ss_context_drained_words follows it (a loop's first
 * iteration set aside where the loop is in no other loop's body): the whole device where
 * 'default_only' is 0; with 1, work on the unit's default stream (legacy, or per-thread where
 * the unit compiles so) left as it is, so that drained means no other stream holds work.
 * Returns 1 or 0. */
int ss_context_drained_before(ss_check_ctx *ctx, CXCursor stmt, int default_only);

/* other_branch.c. Whether the unit starts a host thread (std::thread's or std::jthread's
 * constructor, std::async, pthread_create, thrd_create) or holds an OpenMP directive (in the
 * tree, or '#pragma omp' in the main file's text): another thread may queue work on its streams
 * while a function runs, which the drained flow does not see. Looked for once per unit. */
int ss_context_unit_threads(ss_check_ctx *ctx);

/* drained.c. ss_context_drained_before on the way around the back edge of the innermost loop
 * whose body holds 'stmt' alone (that loop's previous iteration, then its body down to 'stmt'):
 * every round of the loop but the first. 0 where 'stmt' is in no loop's body. '*outer' receives
 * the innermost loop whose body holds that loop, or a null cursor. */
int ss_context_drained_around(ss_check_ctx *ctx, CXCursor stmt, int default_only, CXCursor *outer);

/* first_round.c. For a synchronous copy to the device (SYNC202) in a loop whose rounds all but
 * the first find the device drained by the previous round (ss_context_back_edge_drain), where
 * the first round follows queued work: "drained in every round but the first; the first round
 * waits for 'merge' at line 23, once per call of 'settle' ..." where the loop is in no other
 * loop's body, or "... once per pass of the loop at line 22, work that the next launch, ...,
 * waits for anyway on the legacy default stream ..." where the work queued before the loop is
 * all on the unit's default stream and the round's next statement (two host statements between
 * at most) launches there; else NULL. Malloc'ed. */
char *ss_context_first_round_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at);

/* first_round.c. For the same copy in a loop in another loop's body where the first round's wait
 * is not one the next launch makes anyway: "drained in every round but the first; the first round
 * waits for 'merge' at line 23, once per pass of the loop at line 22, ...", the words of a
 * warning. Malloc'ed, or NULL. */
char *ss_context_first_round_stall_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at);

/* drained.c. The device-wide wait that leaves the device drained on every way out of
 * 'function' (a definition), with nothing but memsets queued after it (a synchronous copy does
 * not count: whether it waits for all work depends on the unit it is called from); a null
 * cursor when there is none. Calls of the unit's functions are followed, as for a finding. */
CXCursor ss_context_ends_drained(ss_check_ctx *ctx, CXCursor function);

/* The functions a flow took for waits for the whole device because the unit only declares them
 * (their USRs, malloc'ed): the result holds where each of them is one. */
typedef struct ss_assumed_waits {
    char **usrs;
    size_t count, cap;
} ss_assumed_waits;

/* The functions of other units a flow takes on trust (ss_context_foreign_words): their USRs
 * ('calls', by index). Where such a call finds the device busy, it is taken to drain it (by a
 * synchronous copy on the legacy stream where 'copy', else by a wait for the whole device), or
 * to leave it busy where its bit is in 'keep'; where it finds the device drained, to leave it
 * drained. After the flow: the calls the answer rests on ('needed', bits by index) and, of
 * them, those taken to drain it ('strict'). */
typedef struct ss_foreign_calls {
    ss_assumed_waits calls;
    int copy;
    uint64_t keep, needed, strict;
} ss_foreign_calls;

/* drained.c. For a copy (SYNC201, SYNC202, SYNC301) or a wait in a loop (SYNC401) where
 * ss_context_drained_words finds no drain: the "drained: ..." words where the device has
 * nothing queued at 'at' on every way the unit reaches it once each call of another unit's
 * function (ss_project_foreign_usr) is taken on trust as 'foreign' says, which then says which
 * calls the answer rests on ('copy' unset where the unit's copies do not drain). Malloc'ed, or
 * NULL. */
char *ss_context_foreign_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at,
                               ss_foreign_calls *foreign);

/* drained.c. What the function 'function' (a definition) does to the device, for the calls of
 * other units: 2 where it ends drained whatever was queued before it (the drain in '*by', and
 * '*wide' 1 where that was a wait for the whole device on every way, with nothing but copies
 * queued since), 1 where it leaves a drained device drained ('*by' the drain, a null cursor
 * where it drains nothing), 0 where neither; memsets queued at its end count as work. Its
 * unit's functions are followed as for a finding; '*worked' where it queues device work. */
int ss_context_foreign_summary(ss_check_ctx *ctx, CXCursor function, CXCursor *by, int *wide,
                               int *worked);

/* drained.c. For the calls of other units: where the first device work of the function
 * 'function' (a definition) is Thrust work that synchronizes the unit's default stream when it
 * ends (a synchronous algorithm on it, or a device vector's filling construction), followed into
 * the unit's functions and through an 'if' whose every arm opens so or only throws: "the
 * construction of a 'thrust::device_vector<float>' filled with a value, ... (at ones.cu:9)".
 * Malloc'ed, or NULL. */
char *ss_context_opening_words(ss_check_ctx *ctx, CXCursor function);

/* drained.c. For the calls of other units: where the function 'function' (a definition of a
 * free function, no default argument or attribute but '__host__' on its declarations) opens,
 * on every way through it, with a synchronous copy between the host and the device, before any
 * other device work (up to two statements that stay on the host before it; through an 'if'
 * whose every arm opens so or only throws): "a synchronous copy from the device ('cudaMemcpy'
 * at fetch.cu:5), which returns only once the work queued before it on the legacy default
 * stream is done". Malloc'ed, or NULL. */
char *ss_context_opening_copy_words(ss_check_ctx *ctx, CXCursor function, unsigned *ways,
                                    unsigned *way_count);

/* The word ss_context_opening_copy_words gives each way ('ways', SS_READ_WAYS at most): the
 * index of the pointer parameter whose memory (SS_READ_WAY_DEPTH clear: 'host') or whose
 * pointer's memory ('*host') a copy from the device (SS_READ_WAY_D2H) writes, or
 * SS_READ_WAY_NO_PARAM; with the guard of an 'if' arm the way takes ('if (send)'), the
 * parameter's index plus one at SS_READ_WAY_GUARD_SHIFT and SS_READ_WAY_TRUE where the way runs
 * when it is nonzero. */
enum {
    SS_READ_WAYS = 4,
    SS_READ_WAY_NO_PARAM = 31,
    SS_READ_WAY_DEPTH = 1 << 5,
    SS_READ_WAY_D2H = 1 << 6,
    SS_READ_WAY_GUARD_SHIFT = 7,
    SS_READ_WAY_GUARD = 31 << 7,
    SS_READ_WAY_TRUE = 1 << 12
};

/* What a caller says of the arguments of its call of a function that opens with a copy: a bit
 * each, by index; the arguments whose object (the memory a pointer argument points to, or the
 * variable an '&x' one names) it needs after a readback into it (SS_READ_ARGS_DEPTH0), or whose
 * pointer's memory ('&p': what 'p' points to) it needs (SS_READ_ARGS_DEPTH1); those that are
 * integer constants, nonzero (SS_READ_ARGS_TRUE) or zero (SS_READ_ARGS_FALSE). */
enum {
    SS_READ_ARGS_DEPTH0 = 0,
    SS_READ_ARGS_DEPTH1 = 1,
    SS_READ_ARGS_TRUE = 2,
    SS_READ_ARGS_FALSE = 3,
    SS_READ_ARGS = 4
};

/* drained.c. Whether 'c' names, through no pointer, a variable the device or another thread may
 * have written: one of global or static storage ('__managed__' ones too) or a reference. */
int ss_context_reads_shared(CXCursor c);

/* drained.c. Whether every stream that may hold the unit's work is one that a copy on the legacy
 * default stream waits for: the default stream is the legacy one, and the unit creates its
 * streams blocking, or creates none and names none, and holds no stream it did not create
 * (copies_drain, known_copies_drain). Returns 1 or 0. */
int ss_context_streams_block(ss_check_ctx *ctx);

/* drained.c. For the calls of other units: whether the function 'function' (a definition), run
 * from a drained device, reaches a wait for the whole device with work queued (memsets too): its
 * own launches, copies, library calls, or the work of a device it switches to, followed as for a
 * finding; a synchronous copy that drains the device before the wait leaves nothing queued
 * there. Returns 2 where it does so whatever the calls of other units' functions do (2 too where
 * the flow runs out of its budget, a summary's); 1 where it does so only if one of those calls
 * queues work ('*others' then receives their USRs, for the project pass to ask, as for a
 * finding: ss_project_foreign_keeps); else 0. '*wait' receives the first wait found with work
 * queued (a null cursor where there is none), '*from' the call of the body of 'function' on the
 * way to it (the wait itself where the body makes it). A call of such a function waits for more
 * than what was queued at the call. */
int ss_context_waits_own_work(ss_check_ctx *ctx, CXCursor function, CXCursor *wait, CXCursor *from,
                              ss_assumed_waits *others);

/* drained.c. For the calls of other units: whether the function 'function' (a definition), run
 * from a drained device, queues work on the unit's default stream only, or waits for what it
 * queues elsewhere (the flow of a Thrust algorithm's wait, ss_context_foreign_summary's budget).
 * Returns 1 or 0. */
int ss_context_foreign_default_only(ss_check_ctx *ctx, CXCursor function);

/* drained.c. For work on the legacy stream (SYNC101, SYNC102) at 'at': "between waits: ..."
 * where, on every way the unit reaches it, a wait for the whole device came before it and
 * another comes after it, with no work on any other stream queued between them (work on the
 * legacy stream aside), so that the legacy stream serializes nothing; else NULL. With
 * 'assumed' not NULL, a call of a function the unit only declares counts as such a wait and
 * its USR is added to 'assumed'. */
char *ss_context_between_waits(ss_check_ctx *ctx, CXCursor at, ss_assumed_waits *assumed);
void ss_assumed_waits_free(ss_assumed_waits *a);

/* drained.c. For an allocation, free or registration that synchronizes the device (SYNC402) at
 * 'at': "drained: ..., the free waits for nothing else" where the device has nothing queued
 * there (memsets aside) on every way the unit reaches it; NULL for a device configuration
 * (cudaDeviceSetLimit, cudaDeviceReset). No allocation is taken for a drain, nor a free but
 * one that surely frees memory a synchronizing allocator gave (ss_context_free_waits). With
 * 'assumed' not NULL, a call of a function the unit only declares counts as a wait for the
 * whole device, and the USRs of those the answer rests on are left in 'assumed'
 * (ss_context_between_waits). */
char *ss_context_drained_call_words(ss_check_ctx *ctx, CXCursor at, ss_assumed_waits *assumed);

/* drained.c. For such a call at 'at' in a unit that creates no stream and names none but the
 * legacy one, where a synchronous copy on the legacy stream drained the device and nothing is
 * queued since, but no wait for the whole device came before that copy (so the copy does not
 * answer for other units' streams, which the call waits for too): the words of
 * ss_context_drained_call_words as if it did, for the project pass to give where every unit of
 * a whole run queues its work on streams that block (ss_project_ask_streams_block); else NULL.
 * Only in a run that records facts for the project pass (ctx->streams). */
char *ss_context_drained_call_blocking_words(ss_check_ctx *ctx, CXCursor at);

/* drained.c. For work on the legacy stream (SYNC101, SYNC102) at 'at': "after a join: ..."
 * where, on every way the unit reaches it, a wait for the whole device (or a loop that sets
 * each device and waits for it) came before it with no work on another stream queued since,
 * and none is queued after it to the end of its function, nor after the calls of its function
 * in the unit's callers (work on the legacy stream aside); else NULL. */
char *ss_context_after_join(ss_check_ctx *ctx, CXCursor at);

/* drained.c. Whether 'decl' is a constructor, destructor, conversion or operator, or one the
 * compiler writes: a value's own plumbing, not a function that queues work. Returns 1 or 0. */
int ss_context_special_member(CXCursor decl);

/* drained.c. Whether 'call', of no API of the table and no function of the unit, may queue
 * device work: it is given a stream, it calls through a pointer, it is a function of a GPU
 * library, or one declared outside the system headers (the project's, defined in another unit;
 * its special members aside). Returns 1 or 0. */
int ss_context_library_enqueues(CXCursor call);

/* idle.c. Whether the call 'call' waits for the stream written 'stream': its
 * cudaStreamSynchronize (the stream as written), or a device-wide wait. Returns 1 or 0. */
int ss_context_waits_for_stream(CXCursor call, const char *stream);

/* idle.c. Whether the call 'call' is given a call of the API table: an error-checking wrapper
 * ('check(cudaStreamSynchronize(s), ...)'). Returns 1 or 0. */
int ss_context_wraps_api(CXCursor call);

/* idle.c. Whether 'stmt' does device work: a launch or a call that enqueues work, or a call of
 * a function of the unit that does. Returns 1 or 0. */
int ss_context_does_device_work(ss_callgraph *graph, CXCursor stmt);

/* host_reads.c. Whether every chain of calls from a loop that enqueues device work down to
 * 'function' ends with a call that 'skip' accepts (ss_callgraph_reached_unless), the calls of
 * 'function' listed first into 'calls' and 'callers' (at most 'max', '*count' of them, for
 * 'skip' to find its call's caller with ss_context_caller_of). 0 where it has no call, more
 * than 'max', or its address is taken. */
int ss_context_every_loop_call(ss_callgraph *graph, CXCursor function, CXCursor *calls,
                               CXCursor *callers, size_t max, long *count,
                               int (*skip)(CXCursor from, CXCursor call, void *data), void *data);

/* host_reads.c. The function the call 'call' is made in, as ss_callgraph_calls_of lists the
 * calls ('calls', 'count' of them) and their callers ('callers'); a null cursor when 'call' is
 * not among them. */
CXCursor ss_context_caller_of(const CXCursor *calls, const CXCursor *callers, long count,
                              CXCursor call);

/* host_reads.c. The index of the parameter 'param' among those of 'function' (a function
 * template's too), or -1. */
int ss_context_parameter_index(CXCursor function, CXCursor param);

/* host_reads.c. The statements of the innermost block written '{ ... }' around 'at' in
 * 'function' (an error-checking macro's own block left out, and the empty statements), into
 * 'stmts' (at most 'max'); '*index' receives the one that holds 'at'. Returns how many, or 0
 * when there is no such block or 'at' is past the first 'max'. */
unsigned ss_context_statements_around(CXCursor function, CXCursor at, CXCursor *stmts, unsigned max,
                                      unsigned *index);

/* host_reads.c. "inherent: the next statement needs the value (line 29 reads 'losses' in a
 * loop)" for a synchronous copy to the host (SYNC202), or a wait right after an asynchronous
 * one (SYNC401), of a buffer (not one value: SYNC301's) that a statement soon after (up to
 * three, with no device work between but waits) goes through as a whole: a loop that names it,
 * or a host function given it ("passes 'h' to 'std::max_element()'"); not when the data goes
 * back to the device in the same iteration (a copy to the device from it in the loop). Also
 * for an event wait (SYNC401) whose event the unit records, in any of its functions, only
 * right after such a copy on the record's stream with nothing queued between, the buffer read
 * being the copy's or one swapped with it after the record (": the unit records 'e' only right
 * after the copy into 'h_tmp' on 's' (line 60), which line 90 swaps with it, ..."). */
char *ss_context_host_read_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at);

/* host_reads.c. The most records of one event that ss_context_event_uploads looks at. */
enum { SS_CONTEXT_MAX_RECORDS = 8 };

/* An upload an event wait waits for: the copy to the device, the event's record right after
 * it, and the function that holds them. */
typedef struct ss_event_upload {
    CXCursor copy, record, function;
} ss_event_upload;

/* host_reads.c. For the event wait 'at' whose event the unit records (in any of its functions,
 * naming it only in CUDA's event calls; SS_CONTEXT_MAX_RECORDS records at most) only right after
 * a copy to the device on the record's stream, nothing queued between: each record with its
 * copy, into 'out'. Returns how many, or 0 when it is not so. */
int ss_context_event_uploads(ss_check_ctx *ctx, CXCursor at, ss_event_upload *out);

/* host_reads.c. Whether 'stmt' may queue device work: itself, through a function of the unit,
 * a library or another unit. Returns 1 or 0. */
int ss_context_queues_work(ss_callgraph *graph, CXCursor stmt);

/* device_sum.c. "inherent: the host needs the value to launch the next kernel: ..." for a
 * readback of one value (SYNC301) into an element of a buffer, in a loop that sets the device
 * on each iteration, whose values the host then combines in a loop (what it assigns from them
 * carries them on) and passes to the next kernel launch, with no device work between (waits,
 * error checks and host statements only, up to ten statements); for a wait (SYNC401) in a
 * statement right after such a loop that does no device work, "inherent: it waits for the
 * values ..."; for a wait right before such a readback in its block, where a device-wide wait
 * in a loop over the devices comes between the readbacks and the launch, "subsumed: ...". */
char *ss_context_device_sum_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at);

/* overlap.c. For a stream wait in a loop (SYNC401): "overlapped: ..." where the next statement
 * launches on another stream that still has work queued in this iteration (no wait for it
 * since) and the last work queued on the waited stream is an upload into what that launch
 * reads; "own upload: ..." where the only work queued on the waited stream since an earlier
 * wait for it (in this iteration, or at the end of the previous one) is uploads of a constant
 * size, 64 KiB in all at most. Streams are compared as written (a variable that holds one
 * constant read as that constant); a function given a stream, or one of the unit that queues
 * work or waits, ends the walk back. For an event wait: ss_context_event_upload_words. */
char *ss_context_overlap_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at);

/* overlap.c. For an event wait (SYNC401), in a loop or called from one in another unit: "own
 * upload: ..." where the unit records the event only right after uploads from one host buffer
 * (ss_context_event_uploads), each with device work queued after the record, and the host
 * stores into that buffer right after the wait (no device work between): the host waits until
 * its own earlier upload has read the buffer it rewrites, while the device works through what
 * is queued behind the event. */
char *ss_context_event_upload_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at);

/* attach.c. "inherent: the host may touch 'p' only once its attach to the host ..." for
 * a stream wait (SYNC401) after calls that attach managed memory to the host on that stream
 * ('cudaStreamAttachMemAsync(s, p, 0, cudaMemAttachHost)'), when a statement soon after (up to
 * three, no device work between) touches an attached pointer on the host, and nothing but
 * such attaches was queued in the function since the last wait for the stream (or a
 * device-wide one), or since its start; a loop of the function counts as a whole (its earlier
 * iterations). The callers' work before the call is not followed. */
char *ss_context_attach_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at);

/* rare_paths.c. The name of the environment variable the expression 'expr' (under 'parent')
 * reads: a getenv call in it ('getenv("APP_DEBUG") != NULL'), or a variable it names that can
 * hold a switch and whose initializer has one, through up to three variables; the getenv call's
 * line into '*line'. Malloc'ed, or NULL where it reads none. */
char *ss_context_getenv_read(CXCursor expr, CXCursor parent, unsigned *line);

/* rare_paths.c. Whether the call 'call' is of getenv or secure_getenv. */
int ss_context_is_getenv(CXCursor call);

/* rare_paths.c. The condition of the 'if' statement 'stmt' when 'branch' is the branch taken
 * when it holds, else a null cursor. */
CXCursor ss_context_then_condition(CXCursor stmt, CXCursor branch);

/* rare_paths.c. The branch of the 'if' statement 'if_stmt' that runs only when a CUDA call
 * failed, as a checking function or macro writes it: the condition tests a variable or
 * parameter of a CUDA error type, a call that returns one or its assignment to such a variable
 * ('e != cudaSuccess', 'e != 0', 'e', '(e = cudaGetLastError()) != cudaSuccess'; 'e == cudaSuccess'
 * for the 'else' branch), and the branch reports the error (cudaGetErrorString, cudaGetErrorName,
 * ..., also in a function of the unit it calls) or ends in a throw or a call that does not return.
 * Its index among the statement's children, or 0 where there is none; '*throws' set to whether
 * that branch ends in a throw. */
unsigned ss_context_failure_branch(ss_callgraph *g, CXCursor if_stmt, int *throws);

/* rare_paths.c. "teardown: the loop at allocator.h:187 runs when an object is destroyed:
 * 'Allocator::~Allocator' is a destructor" when the loop is in a destructor and, for a loop
 * elsewhere, every chain of calls from a loop that enqueues device work starts in a
 * destructor's loop. */
char *ss_context_teardown_words(ss_check_ctx *ctx, const ss_loop_context *loop);

/* rare_paths.c. The named function a statement of its body sits in: the declaration libclang
 * keeps with the statement, followed out of local declarations (and out of lambdas). */
CXCursor ss_context_function_of(CXCursor stmt);

/* clean_up.c. "clean-up: the only device work of the loop at line 17 is freeing memory, ..." when
 * the call 'at' gives memory back (an API of class FREE, HOST_FREE or HOST_UNREGISTER), it is not
 * in a lambda, every loop around it in its function does no device work but give memory back
 * (itself and in the unit's functions it calls: no launch, copy, memset, allocation,
 * registration or other enqueued work; waits and event records aside), and every chain of
 * calls from a loop of the unit that enqueues device work down to its function starts in a
 * loop that does the same ('loop' names the loop in the words). Malloc'ed, or NULL. */
char *ss_context_clean_up_words(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at);

/* rare_paths.c. "exit: the branch at line 250 leaves the loop ('break' at line 265): it runs
 * once per run of the loop at line 244, not on every iteration" when 'at' sits in the block
 * of an 'if' in 'loop' (in its own function, nested in no other loop there) that ends with a
 * 'break' out of that loop or a 'return', and the function is not called from a loop of the
 * unit that enqueues device work (context.c makes a SYNC301 readback there a note, and keeps
 * the other rules' own severity). Malloc'ed, or NULL. */
char *ss_context_exit_words(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at);

/* loop_notes.c. For a wait (SYNC401) whose statement is followed in its block, past statements
 * that stay on the host (ss_context_host_only: event creation, error checks, prints), by a
 * statement that records the event an elapsed-time call of the function reads as its start
 * ('cudaEventRecord(start)' ... 'cudaEventElapsedTime(&ms, start, stop)'): "the next device
 * call, 'cudaEventRecord' at line 258, records the event that starts a timed region: the wait
 * lets the region start on an idle device, part of a measurement" (a benchmark's warm-up
 * before its timed launches; held-out-34's shape CK). The record is a statement of its own (not
 * in a loop or under a condition) and a loop that does device work follows it before the
 * elapsed-time call: a region that runs the work once (a stage timing its own step) is no
 * benchmark. A wait before a clock the host reads is not taken for one: a loop that times its
 * phases that way stalls on every iteration.
 * Malloc'ed, or NULL. */
char *ss_context_settle_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at);

/* rare_paths.c. For ss_context_apply, after the cases above: a finding that is a warning
 * ('f'), whose call runs on no ordinary run, becomes a note whose message is 'before' (the
 * message before the context was added) and why: the function can run only where a unit
 * calls it and nothing here does ("not called in this unit: ..."), or a guard on the way to
 * the call, in its function or on every chain of calls from a loop, is a branch that never
 * runs ("dead: ...") or a switch the environment must set ("opt-in: ..."). A function marked
 * hot keeps its warning. */
void ss_context_rare_apply(ss_check_ctx *ctx, CXCursor at, ss_finding *f, const char *before);

/* loop_notes.c. "grow-only: ..." (or "lazy: ...") when the call 'at' runs when a buffer grows
 * (or only while it is unset): a grow guard around it inside the loop (or, for a loop
 * elsewhere, in its function), or, for a loop elsewhere, a grow guard on every chain of calls
 * from a loop that enqueues device work down to its function (the words name the one on the
 * loop's chain). */
char *ss_context_grow_only_words(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at);

/* loop_notes.c. For a call that a loop of another unit runs (ctx->loop_elsewhere): the words
 * ss_context_grow_only_words gives for a grow or lazy guard in the call's own function ("grow-only:
 * it runs when the buffer grows (...)", "lazy: it runs only while ..."), which a loop of the
 * unit that reaches the function through a chain of calls gives too; not where the guard keeps
 * the size in a local of automatic storage, new on every call. Malloc'ed, or NULL. */
char *ss_context_grow_only_here_words(ss_check_ctx *ctx, CXCursor at);

/* loop_notes.c. For a call 'call' in 'caller' on the way from a function another unit's loop
 * calls down to a finding (project_loops.c): "lazy: it runs only while ... (file.cu:30 ...)" or
 * "grow-only: it runs when the buffer grows (...)" where a guard between the two makes the call
 * run only while a buffer is unset, its set-up flag says it has not run, or when the buffer
 * grows, as ss_context_grow_only_words finds one on a chain of calls from a loop of the unit
 * (the branch must make a buffer larger, or set the flag); a size or pointer kept in a local of
 * automatic storage is new on every call and guards nothing. Malloc'ed, or NULL. */
char *ss_context_way_guard_words(ss_check_ctx *ctx, CXCursor caller, CXCursor call);

/* loop_notes.c. For a SYNC402 call that a loop of another unit may run, 'at' (in 'function') being
 * that call or a call on the way down to it (in this unit or another): "grow-only: ...", "lazy:
 * ...", "change-only: ..." or "refill: ..." where a guard between the two makes it run only when a
 * buffer grows, while it is unset, when a key changes or when a queue it fills is empty, as
 * ss_context_grow_only_words and ss_context_refill_words find one inside a loop, 'at' counting as
 * what makes the buffer larger; a size or pointer kept in a local of automatic storage is new on
 * every call and guards nothing. Malloc'ed, or NULL. */
char *ss_context_alloc_guard_words(ss_check_ctx *ctx, CXCursor function, CXCursor at);

/* loop_notes.c. Whether a statement of the branch that the 'if' 'guard' takes when its condition
 * holds (a child of the branch's block of its own, or the branch itself; not one inside a
 * lambda, a nested branch or a loop) answers 'does' (given 'data') and runs whenever the branch
 * does: no statement before it may leave the branch or the function ('return', 'goto', 'break',
 * 'continue'; a 'throw' too where the unit has a 'try' in its own code, else it leaves the
 * loop as well), and the branch holds no label a jump may enter by. Returns 1 or 0. */
int ss_context_branch_does(CXCursor guard, int (*does)(CXCursor stmt, void *data), void *data);

/* set_up_key.c. "line 28 tests whether 'configured' holds 'stage', a constant key, and line 32
 * inserts it" ("file.cu:28" with 'file_place') when the 'if' 'if_stmt' of 'function' takes
 * its branch only while a lasting set or map (a member, a global or a static local of a class
 * of the C++ library whose name ends in set or map) lacks a constant key ('!s.count(K)',
 * 's.count(K) == 0', 's.find(K) == s.end()'; K an integer literal, an enumerator, or a const
 * local initialized with one), and a statement of the branch inserts the same key into the same
 * set whenever the branch runs (ss_context_branch_does; 'insert', 'emplace', 'try_emplace');
 * the set's object outlives the call (ss_context_object_lasts; with 'elsewhere', where another
 * unit may call the function, ss_context_object_lasts_anywhere); and no function of the unit
 * but a teardown run outside the loops names the set otherwise than to look a key up or insert
 * one (an erase, a clear, an assignment, a swap, a reference or address taken), nor replaces a
 * whole object of its class. Malloc'ed, or NULL. */
char *ss_context_set_up_key_words(ss_callgraph *graph, CXCursor function, CXCursor if_stmt,
                                  int file_place, int elsewhere);

/* set_up_flag.c. Whether 'decl' keeps its value from one call to the next and is no reference:
 * a member, a global, a 'static' local. Returns 1 or 0. */
int ss_context_lasting_decl(CXCursor decl);

/* set_up_flag.c. Whether 'fn' tears down by its name (ss_callgraph_tears_down: shutdown,
 * finalize, ...; not a destructor, whose object may live for one iteration), only the unit may
 * call it (nor its address taken), and no loop of the unit that enqueues device work reaches
 * it. Returns 1 or 0. */
int ss_context_tears_down_once(ss_callgraph *graph, CXCursor fn);

/* set_up_flag.c. Whether the call 'c' overwrites or replaces an object of the class 'record'
 * (a null cursor: none): an assignment operator ('cache = Cache{};', 'ptr =
 * std::make_unique<State>()', a 'reset'), a memset, memcpy or bzero of it, a swap or exchange
 * given one. Returns 1 or 0. */
int ss_context_overwrites_class(CXCursor c, CXCursor record);

/* set_up_flag.c. Whether the object whose member the expression 'flag' names ('state.initialized',
 * 'h.infos') outlives a call of 'function': not a local or by-value parameter of it (nor a member
 * of one); for a reference parameter, no call of the function in the unit (32 at most) gives it
 * such an object of the caller ('State s; init(s);'). A variable, or an object of 'this', is
 * taken on trust. Returns 1 or 0. */
int ss_context_object_lasts(ss_callgraph *graph, CXCursor function, CXCursor flag);

/* set_up_flag.c. Whether the object whose member the expression 'flag' names outlives the call
 * whoever calls the function (a loop of another unit): a global or a static local (or a member
 * of one), or a reference local initialized from a call ('State &state = GetState();'), which
 * returns by reference what outlives it. Not a member of 'this' or of a parameter. */
int ss_context_object_lasts_anywhere(CXCursor flag);

/* set_up_flag.c. "line 14 returns early while 'state.initialized' is true, and line 21 sets it
 * so" ("file.cu:14" with 'file_place') when the call 'at' of 'function' (not in a loop or lambda
 * of it: the caller sees to that) follows among the statements of the function's body, before
 * the one that holds it ('holder'), an 'if' that only returns while a lasting bool (a member, a
 * global or a static local, no reference) whose name says set-up (a word starting with init or
 * setup) holds a value, with no else; and the function stores that value in the flag (written
 * the same way) after the 'if', outside lambdas; and no function of the unit that a loop
 * enqueueing device work reaches, or that stores it in a loop, stores the other value in that
 * flag (of any object); with 'elsewhere' (a loop of another unit runs the call), where another
 * unit may call the function itself, the flag's object outlives the call whoever calls it
 * (ss_context_object_lasts_anywhere). Malloc'ed, or NULL. */
char *ss_context_set_up_flag_words(ss_callgraph *graph, CXCursor function, CXCursor holder,
                                   CXCursor at, int file_place, int elsewhere);

/* peer_staging.c. "staged: the loop at line 520 only moves data between devices through host
 * memory (...)" for a wait (SYNC401), a synchronous copy (SYNC202) or a copy on the legacy stream
 * (SYNC102) in a loop (the innermost around 'at', in its own function) that switches devices
 * ('cudaSetDevice') and whose only device work is copies through named host buffers, each both
 * copied into from a device and copied out of to a device, with a switch between the two for
 * one of them: a transfer between devices staged through the host, whose remedy is a peer copy.
 * Malloc'ed, or NULL. */
char *ss_context_peer_staging_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at);

/* refill.c. "refill: ..." when the call 'at' runs only when a queue has run dry: in the branch
 * of an 'if' whose condition holds only while a container is empty ('q.empty()', 'q.size() ==
 * 0', alone or under '&&') and that adds to that container inside a loop (a 'push', 'push_back',
 * 'emplace', ... in a loop of the branch, or of a function of the unit it calls, two calls
 * down): inside the loop, or, for a loop elsewhere, on every chain of calls from a loop that
 * enqueues device work down to its function (the words name the one on the loop's chain). */
char *ss_context_refill_words(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at);

/* refill.c. For a call that a loop of another unit runs (ctx->loop_elsewhere): the words
 * ss_context_refill_words gives for a refill guard in the call's own function. Malloc'ed, or
 * NULL. */
char *ss_context_refill_here_words(ss_check_ctx *ctx, CXCursor at);

/* refill.c. "refill: it runs only when a queue it fills is empty (...)" where such a guard lies
 * between 'from' (a function or a loop) and the call 'at'. Malloc'ed, or NULL. */
char *ss_context_refill_guard_words(ss_check_ctx *ctx, CXCursor from, CXCursor at);

/* loop_notes.c. "once per pass: the loop at line 30 blocks the host on each of its iterations
 * (line 33), so this call adds one stall per pass of the loop at line 25, not one per step" when
 * the call 'at' runs once per pass of 'loop' (no other loop between them, in its function nor
 * in a function of the chain of calls from the loop) and beside it, in the loop's body or in a
 * function of that chain, an inner loop runs whenever the call does (a statement of the same
 * block, in no branch: before the call with no label between, or after it with no 'return',
 * 'goto', 'break' or 'continue' on the way), or in a function of the unit such a statement
 * surely calls (two calls down at most), that on each of its iterations surely queues device
 * work and surely blocks the host (a wait for the device, a stream or an event, or a
 * synchronous copy between the host and the device; itself or in the unit's functions it calls,
 * three calls down at most), and that runs neither a constant few times (below 16) nor once per
 * device. Malloc'ed, or NULL. */
char *ss_context_per_pass_words(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at);

/* loop_notes.c. "the loop times its iterations ('cudaEventElapsedTime' at line 20): ..." when
 * the loop reads a clock (itself or in a function it calls), or is timed by the statements
 * right after it; NULL otherwise, and also for a loop that reads a clock but runs more of the
 * program's device work outside the region it times (not a benchmark: '*not_timed' receives
 * words that say so, malloc'ed; else NULL), where the call 'at' that records the event opening
 * or closing that region gets "it bounds the region the loop times (lines 20 to 31): ...". */
char *ss_context_timing_words(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at,
                              char **not_timed);

/* timing_flag.c. For a wait (SYNC401) that times the GPU's work under a run-time flag: "for
 * timing under a flag: the wait is followed by a host clock read ('timer()' at line 104, ...)
 * and runs only when 'g.profiling' is set (line 102), which nothing in the loop at line 30, nor
 * the functions it calls, changes: ..." where the wait is a statement of the block of an 'if'
 * (its then-branch, written '{ ... }') whose condition reads a bool flag (a variable, or a field
 * through members of a variable, a parameter or 'this'), the statement after it reads a host
 * clock (a clock of the C library, POSIX, OpenMP, MPI or std::chrono, in a function of the unit
 * two calls down too, or an elapsed time 'f() - start' of a function 'f' without arguments that
 * returns a floating-point value and set 'start'), the block does no device work but waits, and
 * nothing in 'loop' (with the unit's functions it calls, none it cannot follow; no alias of the
 * flag anywhere in the unit) may change the flag; NULL for a loop of another unit: a field or a
 * global that no code of the unit changes. Malloc'ed, or NULL. */
char *ss_context_timing_flag_words(ss_check_ctx *ctx, ss_rule_id rule, const ss_loop_context *loop,
                                   CXCursor at);

/* host_reads.c. Whether 'target', inside the statement or expression 'stmt', runs whenever
 * 'stmt' runs (at each node on the way down): not in an 'if''s branch, a '?:' arm, the right
 * operand of '&&' or '||', a loop's or a 'switch''s body or a lambda, nor after a statement of
 * its block that may leave it; 'if (n > 0) cudaMemcpy(...)' copies on some ways only. An error
 * check's condition, 'if ((e = cudaMemcpy(...)) != 0)', and a 'do { ... } while (0)' macro's
 * body run. Returns 1 or 0. */
int ss_context_runs_whenever(CXCursor stmt, CXCursor target);

/* host_reads.c. Whether the statement 'stmt' may leave the block it is in, past the statements
 * after it: a 'return' or 'goto', a 'break' of no loop or 'switch' inside it, a 'continue' of no
 * loop inside it. Returns 1 or 0. */
int ss_context_may_leave(CXCursor stmt);

/* loop_notes.c. "'cudaEventElapsedTime' at sift.cu:7" when the function 'function' reads an
 * event's elapsed time (itself or in a function of the unit it calls, as ss_context_timing_words
 * asks of a loop; a wall clock does not count here), else NULL. Malloc'ed. */
char *ss_context_clock_words(ss_check_ctx *ctx, CXCursor function);

/* loop_notes.c. For a loop whose body calls 'usr', a function another unit defines: whether,
 * were that function to read a clock, ss_context_timing_words would find the loop timed: its
 * body's statements outside those from the first to the last that call 'usr' (the region it
 * would time) call no function of the unit that enqueues device work and no other function of
 * another unit (whose work is not seen here). Returns 1 or 0. */
int ss_context_timed_by_callee(ss_check_ctx *ctx, CXCursor loop, const char *usr);

/* loop_notes.c. "periodic: it runs once in a while (line 1805 tests 'step % every == 0')" when
 * the call 'at' runs in its loop only under an 'if' whose condition tests a remainder against 0
 * (a divisor not a constant below 8: 'i % 2' alternates); for a loop elsewhere, when every
 * chain of calls from a loop that enqueues device work passes such a test in its loop
 * (logging, evaluation, checkpoints every N steps). */
char *ss_context_periodic_words(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at);

/* loop_notes.c. "one pass: the branch at line 389 runs on one iteration of the loop at line
 * 363 only (it tests 'i==0'), once per run of that loop: ..." when the call 'at' (in 'loop', of
 * its own function) sits in the then-branch of an 'if' whose condition holds on one iteration
 * of the outermost loop around it at most (its counter compared with '==' to a value the loop
 * does not change, or '!counter'; alone or an operand of '&&'), no loop inside that branch
 * around the call enqueues device work, and the function is reached from no loop of the unit
 * that enqueues device work. Where a loop lies between the outermost loop and the call, the
 * words say "on that pass only (as often as the loop at line N repeats it there)" instead of
 * "once per run of that loop". Malloc'ed, or NULL. */
char *ss_context_one_pass_words(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at);

/* loop_notes.c. "bounded: the loop at line 31 runs once per element of 'block_sizes' (4, a
 * constant array), and 'main' runs once" when the loop sweeps over an array of constant size
 * (at most 16 elements: a benchmark's or a test's settings), or "... runs once per device
 * (line 7 sets the device to 'devs[devi]')" over the devices (each iteration sets the device
 * to the variable it steps through, or to an element it indexes), lies in no other loop, is in a
 * function that runs once (ss_callgraph_runs_once), and the call 'at' is in no other loop on
 * the way (in its function, and in each function of the chain of calls from the loop): what
 * runs on its iterations costs a fixed few calls in a run. Also "bounded: the loop at line 29
 * runs at most 4 times (a constant count), outside any other loop, beside the loop at line 44,
 * whose count is not bounded; and 'main' runs once" for priming or warm-up rounds: a loop with a
 * constant count of at most 16 (literal, macro or constexpr bounds with a constant step, or a
 * range-for over a fixed-size array), in no other loop, in a function that runs once and marked
 * hot by no configuration, the loops between it and the call running once per device or a
 * constant few times and the call in no loop of the functions on the way (whose function no
 * other loop of the unit reaches), where the same function has a loop beside it that enqueues
 * device work and whose count is not bounded (itself, or in a function it calls). */
char *ss_context_bounded_words(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at);

/* loop_notes.c. "once: the loop at line 45 copies a different piece on each iteration (by 'i'),
 * its only device work, and 'main' runs once: one transfer in pieces, made once" for a copy
 * (SYNC201, SYNC202) in a 'for' loop of its own function (not a lambda) with a counter, inside
 * no other loop of it, whose every call is a copy whose both sides name the counter or a
 * variable the loop's body declares that is a buffer of its own or set from the counter, an
 * error check's, a function of the C or C++ library (not a GPU library's, a function object's
 * call or one given a lambda) or a non-virtual one of the unit that does no device work, the
 * body changing the counter only by steps its way, the function running once
 * (ss_callgraph_runs_once) and called from no loop of the unit that enqueues device work.
 * Malloc'ed, or NULL. */
char *ss_context_pieces_words(ss_check_ctx *ctx, ss_rule_id rule, const ss_loop_context *loop,
                              CXCursor at);

/* at_hand.c. For work on the legacy stream (SYNC101, SYNC102) in ctx->function: "no stream
 * at hand: ..." where its function (for a lambda, the named function it sits in) takes no
 * stream that may be another than the legacy one nor a record that keeps one (by value,
 * reference or pointer), keeps none (a local) and passes none to any call (a getter's stream
 * too); for a member function, its class keeps no stream field and no other member function of
 * it that the unit defines has one; the unit keeps no namespace-scope stream that may be
 * another than the legacy one; and no function of the unit that calls it (up to three calls
 * up) has one or is a member of a class that keeps one; else NULL. What the unit cannot decide
 * (a parameter another unit may give a stream, a field) counts as a stream. */
char *ss_context_no_stream_at_hand(ss_check_ctx *ctx);

/* default_stream.c. Whether the stream expression 'expr' (a stream, or an array of or pointer
 * to them) in 'function' may hold a stream other than the legacy one, decided in this unit
 * alone: a parameter another unit may give a stream, and a field, may. Returns 1 or 0. */
int ss_check_other_stream_here(ss_check_ctx *ctx, CXCursor function, CXCursor expr);
/* default_stream.c. The same for the parameter 'param' of 'function' (an array of or pointer
 * to streams: 1). */
int ss_check_other_stream_param(ss_check_ctx *ctx, CXCursor function, CXCursor param);
/* default_stream.c. The name of the first field of the record type 'record' that is a stream
 * (malloc'ed), or NULL (no record, or none). */
char *ss_check_record_stream_field(CXType record);

#endif
