/* graph_value.c: the one value a CUDA graph copies to the host, for only_tested.c. */
#include "ast.h"
#include "common.h"
#include "context_cases.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_APART = 3, MAX_CALLS = 16, NO_CLASS = -1, ANY_CALL = -2 };

/* The calls of a node that match: of the API class 'klass' (any call for ANY_CALL), or named
 * 'name' (when not NULL). */
typedef struct call_walk {
    int klass;
    const char *name;
    CXCursor found[MAX_CALLS];
    size_t count;
    int more; /* more than MAX_CALLS */
} call_walk;

static int call_named(CXCursor c, const char *name)
{
    char *callee = ss_ast_callee_name(c);
    int is = callee && strcmp(callee, name) == 0;
    free(callee);
    return is;
}

static enum CXChildVisitResult find_calls(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    call_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    int match = w->name                ? call_named(c, w->name)
                : w->klass == ANY_CALL ? 1
                                       : api && (int)api->klass == w->klass;
    if (match && w->count < MAX_CALLS)
        w->found[w->count++] = c;
    else if (match)
        w->more = 1;
    return CXChildVisit_Recurse;
}

/* The calls in 'node' (itself included) of the class 'klass' or named 'name'. */
static size_t calls_in(CXCursor node, int klass, const char *name, call_walk *w)
{
    memset(w, 0, sizeof *w);
    w->klass = klass;
    w->name = name;
    ss_ast_visit_whole(node, clang_getNullCursor(), find_calls, w);
    return w->more ? 0 : w->count;
}

/* The one call in 'node' of the class 'klass', or a null cursor. */
static CXCursor one_call(CXCursor node, int klass)
{
    call_walk w;
    return calls_in(node, klass, NULL, &w) == 1 ? w.found[0] : clang_getNullCursor();
}

/* The variable argument 'index' of 'call' names, as 'x' or '&x'; a null cursor otherwise. */
static CXCursor argument_var(CXCursor call, int index)
{
    if (index < 0 || index >= clang_Cursor_getNumArguments(call))
        return clang_getNullCursor();
    CXCursor e = ss_ast_strip(clang_Cursor_getArgument(call, (unsigned)index));
    if (clang_getCursorKind(e) == CXCursor_UnaryOperator && ss_ast_child_count(e) == 1)
        e = ss_ast_strip(ss_ast_child(e, 0));
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
        return clang_getNullCursor();
    CXCursor var = clang_getCursorReferenced(e);
    return clang_getCursorKind(var) == CXCursor_VarDecl ? var : clang_getNullCursor();
}

/* Whether the stream arguments of 'a' and 'b' (API calls with one) are written alike. */
static int same_stream(CXCursor a, CXCursor b)
{
    const ss_api *x = ss_scope_callee_api(a), *y = ss_scope_callee_api(b);
    if (x == NULL || y == NULL || x->stream_arg < 0 || y->stream_arg < 0 ||
        x->stream_arg >= clang_Cursor_getNumArguments(a) ||
        y->stream_arg >= clang_Cursor_getNumArguments(b))
        return 0;
    char *s = ss_expr_text(clang_Cursor_getArgument(a, (unsigned)x->stream_arg));
    char *t = ss_expr_text(clang_Cursor_getArgument(b, (unsigned)y->stream_arg));
    int same = s && t && strcmp(s, t) == 0;
    free(s);
    free(t);
    return same;
}

/* The calls a graph, its executable graph or a node may be handed to without adding a copy to
 * the host or changing what the graph does. */
static const char *const handle_calls[] = {"cudaStreamEndCapture",
                                           "cudaGraphCreate",
                                           "cudaGraphAddMemcpyNode",
                                           "cudaGraphAddKernelNode",
                                           "cudaGraphAddMemsetNode",
                                           "cudaGraphInstantiate",
                                           "cudaGraphInstantiateWithFlags",
                                           "cudaGraphExecUpdate",
                                           "cudaGraphLaunch",
                                           "cudaGraphDestroy",
                                           "cudaGraphExecDestroy",
                                           "cudaGraphExecKernelNodeSetParams"};

typedef struct handle_walk {
    CXCursor var;
    unsigned refs, known; /* the reads of the handle, those by handle_calls and comparisons */
    int other;            /* handed to another call */
} handle_walk;

/* Whether 'e' is the variable 'var' or its address. */
static int names_handle(CXCursor e, CXCursor var)
{
    e = ss_ast_strip(e);
    if (clang_getCursorKind(e) == CXCursor_UnaryOperator && ss_ast_child_count(e) == 1)
        e = ss_ast_strip(ss_ast_child(e, 0));
    return clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(e), var);
}

static enum CXChildVisitResult find_handle(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    handle_walk *h = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    char op[8];
    if (k == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(c), h->var))
        h->refs++;
    else if (k == CXCursor_CallExpr) {
        char *name = ss_ast_callee_name(c);
        int known = 0;
        for (size_t i = 0; name && i < sizeof handle_calls / sizeof handle_calls[0]; i++)
            known |= strcmp(name, handle_calls[i]) == 0;
        free(name);
        for (int i = 0, n = clang_Cursor_getNumArguments(c); i < n; i++) {
            if (!names_handle(clang_Cursor_getArgument(c, (unsigned)i), h->var))
                continue;
            h->known += known;
            h->other |= !known;
        }
    } else if (k == CXCursor_BinaryOperator && ss_ast_child_count(c) == 2 &&
               ss_ast_binary_op(c, op, sizeof op) == 0 &&
               (strcmp(op, "==") == 0 || strcmp(op, "!=") == 0)) {
        h->known +=
            names_handle(ss_ast_child(c, 0), h->var) + names_handle(ss_ast_child(c, 1), h->var);
    }
    return CXChildVisit_Recurse;
}

/* Whether the graph, executable graph or node 'var' goes anywhere in 'function' but to
 * handle_calls and comparisons ('graphExec == NULL'): to a function of the program that may add
 * nodes, an assignment ('exec = spare;'), a call that changes a node's parameters. */
static int handle_escapes(CXCursor function, CXCursor var)
{
    handle_walk h = {var, 0, 0, 0};
    clang_visitChildren(ss_ast_body(function), find_handle, &h);
    return h.other || h.refs != h.known;
}

/* The graph the executable graph 'exec' is made from in 'function': the graph every
 * cudaGraphInstantiate into '&exec' and every cudaGraphExecUpdate of 'exec' names; a null
 * cursor when they name different ones or none. */
static CXCursor graph_of(CXCursor function, CXCursor exec)
{
    CXCursor graph = clang_getNullCursor(), body = ss_ast_body(function);
    call_walk made, updated;
    if (ss_ast_is_null(exec) || handle_escapes(function, exec))
        return clang_getNullCursor();
    size_t n = calls_in(body, SS_CLASS_GRAPH_INSTANTIATE, NULL, &made);
    size_t m = calls_in(body, NO_CLASS, "cudaGraphExecUpdate", &updated);
    if (made.more || updated.more)
        return clang_getNullCursor();
    for (size_t i = 0; i < n + m; i++) {
        CXCursor call = i < n ? made.found[i] : updated.found[i - n];
        if (!clang_equalCursors(argument_var(call, 0), exec))
            continue;
        CXCursor g = argument_var(call, 1);
        if (ss_ast_is_null(g) || (!ss_ast_is_null(graph) && !clang_equalCursors(g, graph)))
            return clang_getNullCursor();
        graph = g;
    }
    return ss_ast_is_null(graph) || handle_escapes(function, graph) ? clang_getNullCursor() : graph;
}

/* Whether 'call' copies to the host or may (device to host, default, not known). */
static int copies_to_host(CXCursor function, CXCursor call)
{
    const ss_api *api = ss_scope_callee_api(call);
    CXCursor dst, src;
    int kind = ss_copy_kind(function, call, api, &dst, &src);
    return kind == SS_COPY_KIND_D2H || kind == SS_COPY_KIND_DEFAULT || kind == SS_COPY_KIND_UNKNOWN;
}

/* Whether the call 'c' calls the toolkit or its libraries: an API row, or a 'cu' name
 * ('cublasSscal', 'cusparseSpMV'). */
static int toolkit_call(CXCursor c)
{
    char *name = ss_ast_callee_name(c);
    int is = ss_scope_callee_api(c) != NULL || (name && strncmp(name, "cu", 2) == 0);
    free(name);
    return is;
}

static enum CXChildVisitResult find_api_call(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_CallExpr && toolkit_call(c)) {
        *(int *)data = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether 'call' calls a function of the program, which may queue more work on a captured
 * stream: no API of the toolkit or its libraries ('cu' names), no launch, no system header's,
 * nor an error check around an API call ('check(cudaMemcpyAsync(...), ...)'). */
static int program_call(CXCursor call)
{
    CXCursor callee = clang_getCursorReferenced(call);
    char *name = ss_ast_callee_name(call);
    enum CXCursorKind k = clang_getCursorKind(callee);
    int library = name == NULL || k == CXCursor_Constructor || k == CXCursor_Destructor ||
                  k == CXCursor_ConversionFunction || strncmp(name, "cu", 2) == 0 ||
                  strncmp(name, "operator", 8) == 0;
    free(name);
    if (library || ss_scope_callee_api(call) != NULL || ss_scope_is_launch(call) ||
        ss_scope_is_launch_config(call) ||
        (!ss_ast_is_null(callee) &&
         clang_Location_isInSystemHeader(clang_getCursorLocation(callee))))
        return 0;
    int wraps = 0;
    clang_visitChildren(call, find_api_call, &wraps);
    return !wraps;
}

/* A call of the program (program_call) between the offsets 'from' and 'to'. */
typedef struct program_walk {
    unsigned from, to;
    int found;
} program_walk;

static enum CXChildVisitResult find_program_call(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    program_walk *p = data;
    unsigned o = ss_ast_offset(c);
    if (clang_getCursorKind(c) != CXCursor_CallExpr || o <= p->from || o >= p->to ||
        !program_call(c))
        return CXChildVisit_Recurse;
    p->found = 1;
    return CXChildVisit_Break;
}

/* The one copy to the host that the capture ended by 'end' holds, between the last
 * cudaStreamBeginCapture of its stream before it and 'end', when it copies one value; a null
 * cursor when there is none or more. */
static CXCursor captured_copy(ss_check_ctx *ctx, CXCursor end)
{
    CXCursor body = ss_ast_body(ctx->function), begin = clang_getNullCursor(), copy;
    call_walk w;
    size_t n = calls_in(body, SS_CLASS_CAPTURE_BEGIN, NULL, &w);
    unsigned at = ss_ast_offset(end), from = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned o = ss_ast_offset(w.found[i]);
        if (o < at && o >= from && same_stream(w.found[i], end)) {
            begin = w.found[i];
            from = o;
        }
    }
    program_walk p = {from, at, 0};
    if (!ss_ast_is_null(begin))
        clang_visitChildren(body, find_program_call, &p);
    if (p.found)
        return clang_getNullCursor(); /* it may capture more work */
    n = ss_ast_is_null(begin) ? 0 : calls_in(body, SS_CLASS_COPY, NULL, &w);
    copy = clang_getNullCursor();
    for (size_t i = 0; i < n; i++) {
        unsigned o = ss_ast_offset(w.found[i]);
        if (o <= from || o >= at || !copies_to_host(ctx->function, w.found[i]))
            continue;
        if (!ss_ast_is_null(copy))
            return clang_getNullCursor(); /* two copies to the host */
        copy = w.found[i];
    }
    const ss_api *api = ss_ast_is_null(copy) ? NULL : ss_scope_callee_api(copy);
    return api && ss_check_copies_one_value(ctx, copy, api) ? copy : clang_getNullCursor();
}

/* Where the assignment 'c' sets the member 'field' of the variable 'var' ('p.dstPtr = ...', an
 * 'operator=' for a member of a class type): its value, or a null cursor. */
static CXCursor member_set(CXCursor c, CXCursor var, const char *field)
{
    char op[8];
    CXCursor lhs, value;
    if (clang_getCursorKind(c) == CXCursor_BinaryOperator && ss_ast_child_count(c) == 2 &&
        ss_ast_binary_op(c, op, sizeof op) == 0 && strcmp(op, "=") == 0) {
        lhs = ss_ast_strip(ss_ast_child(c, 0));
        value = ss_ast_child(c, 1);
    } else if (clang_getCursorKind(c) == CXCursor_CallExpr && call_named(c, "operator=") &&
               clang_Cursor_getNumArguments(c) == 2) {
        lhs = ss_ast_strip(clang_Cursor_getArgument(c, 0));
        value = clang_Cursor_getArgument(c, 1);
    } else
        return clang_getNullCursor();
    if (clang_getCursorKind(lhs) != CXCursor_MemberRefExpr || ss_ast_child_count(lhs) != 1)
        return clang_getNullCursor();
    CXString name = clang_getCursorSpelling(lhs);
    int named = strcmp(clang_getCString(name), field) == 0;
    clang_disposeString(name);
    CXCursor base = ss_ast_strip(ss_ast_child(lhs, 0));
    if (!named || clang_getCursorKind(base) != CXCursor_DeclRefExpr ||
        !clang_equalCursors(clang_getCursorReferenced(base), var))
        return clang_getNullCursor();
    return value;
}

typedef struct params_walk {
    CXCursor params;
    CXCursor pitched; /* the make_cudaPitchedPtr of 'params.dstPtr = ...' */
    int sets, other_kind;
} params_walk;

static enum CXChildVisitResult find_params(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    params_walk *w = data;
    CXCursor value = member_set(c, w->params, "dstPtr");
    if (!ss_ast_is_null(value)) {
        CXCursor call = ss_ast_strip(value);
        w->sets++;
        if (clang_getCursorKind(call) == CXCursor_CallExpr &&
            call_named(call, "make_cudaPitchedPtr"))
            w->pitched = call;
        return CXChildVisit_Continue;
    }
    value = member_set(c, w->params, "kind");
    if (!ss_ast_is_null(value)) {
        char *text = ss_expr_text(value);
        w->other_kind |= text == NULL || (strcmp(text, "cudaMemcpyDeviceToHost") != 0 &&
                                          strcmp(text, "cudaMemcpyDefault") != 0);
        free(text);
        return CXChildVisit_Continue;
    }
    return CXChildVisit_Recurse;
}

/* The make_cudaPitchedPtr(&x, size, 1, 1) of the one memcpy node added to 'graph' in the
 * function, when its destination is that one value on the host (its 'dstPtr' set once, its
 * 'kind' device to host or default); a null cursor otherwise. */
static CXCursor node_copy(ss_check_ctx *ctx, CXCursor graph)
{
    call_walk w;
    CXCursor body = ss_ast_body(ctx->function), node = clang_getNullCursor();
    size_t n = calls_in(body, NO_CLASS, "cudaGraphAddMemcpyNode", &w);
    for (size_t i = 0; i < n; i++) {
        if (!clang_equalCursors(argument_var(w.found[i], 1), graph))
            continue;
        if (!ss_ast_is_null(node))
            return clang_getNullCursor();
        node = w.found[i];
    }
    params_walk p = {argument_var(node, 4), clang_getNullCursor(), 0, 0};
    if (ss_ast_is_null(node) || ss_ast_is_null(p.params) ||
        handle_escapes(ctx->function, argument_var(node, 0)))
        return clang_getNullCursor();
    clang_visitChildren(body, find_params, &p);
    long long size = 0, x = 0, y = 0;
    if (p.sets != 1 || p.other_kind || ss_ast_is_null(p.pitched) ||
        clang_Cursor_getNumArguments(p.pitched) != 4 ||
        ss_ast_is_null(argument_var(p.pitched, 0)) ||
        ss_ast_eval_int(clang_Cursor_getArgument(p.pitched, 1), &size) != 0 ||
        ss_ast_eval_int(clang_Cursor_getArgument(p.pitched, 2), &x) != 0 ||
        ss_ast_eval_int(clang_Cursor_getArgument(p.pitched, 3), &y) != 0 || size <= 0 ||
        size > 16 || x != 1 || y != 1)
        return clang_getNullCursor();
    return p.pitched;
}

/* The copy to the host the graph 'graph' holds: captured (its one cudaStreamEndCapture into
 * '&graph'), or its one memcpy node; a null cursor when there is none or more. */
static CXCursor graph_copy(ss_check_ctx *ctx, CXCursor graph)
{
    call_walk w;
    CXCursor end = clang_getNullCursor();
    size_t n = calls_in(ss_ast_body(ctx->function), SS_CLASS_CAPTURE_END, NULL, &w);
    for (size_t i = 0; i < n; i++) {
        if (!clang_equalCursors(argument_var(w.found[i], 1), graph))
            continue;
        if (!ss_ast_is_null(end))
            return clang_getNullCursor();
        end = w.found[i];
    }
    CXCursor node = node_copy(ctx, graph);
    if (!ss_ast_is_null(end) && !ss_ast_is_null(node))
        return clang_getNullCursor();
    return ss_ast_is_null(end) ? node : captured_copy(ctx, end);
}

/* Whether the statement 'stmt' queues on the stream of 'launch' more work whose end a wait for
 * it waits for and the host may read: another graph launch, a copy to the host (1); whether it
 * waits for that stream or the device, or begins or ends a capture (its steps run later), in
 * '*stop' and '*capture'. */
static int queues_more(CXCursor function, CXCursor stmt, CXCursor launch, int *stop, int *capture)
{
    call_walk w;
    size_t n = calls_in(stmt, ANY_CALL, NULL, &w);
    if (w.more)
        return 1;
    int more = 0;
    /* Back in time: the statement's last call first ('{ ...; cudaMemcpyAsync(&x, ...);
     * cudaStreamSynchronize(s); break; }' waited for what it queued). */
    for (size_t i = n; i-- > 0 && !*stop && !more;) {
        const ss_api *api = ss_scope_callee_api(w.found[i]);
        int klass = api ? (int)api->klass : NO_CLASS;
        if (klass == SS_CLASS_CAPTURE_BEGIN || klass == SS_CLASS_CAPTURE_END)
            *capture = klass == SS_CLASS_CAPTURE_END; /* met first, going back */
        else if (klass == SS_CLASS_DEVICE_SYNC ||
                 (klass == SS_CLASS_STREAM_SYNC && same_stream(w.found[i], launch)))
            *stop = 1;
        else if (!*capture && !ss_ast_same_node(w.found[i], launch) &&
                 (klass == SS_CLASS_GRAPH_LAUNCH ||
                  (klass == SS_CLASS_COPY && copies_to_host(function, w.found[i]))) &&
                 same_stream(w.found[i], launch))
            more = 1;
    }
    return more;
}

/* Whether work other than the graph launch stmts[at] that the wait stmts[wait] waits for was
 * queued on its stream since the previous wait for it: back from the launch, around the loop's
 * block to the wait, past what a capture records. */
static int waits_for_more(CXCursor function, const CXCursor *stmts, unsigned n, unsigned at,
                          unsigned wait)
{
    CXCursor launch = one_call(stmts[at], SS_CLASS_GRAPH_LAUNCH);
    int stop = 0, capture = 0;
    for (unsigned back = 0; back < n && !stop; back++) {
        unsigned s = (at + n - back) % n;
        if (back > 0 && s == wait)
            break;
        if (queues_more(function, stmts[s], launch, &stop, &capture))
            return 1;
    }
    return 0;
}

/* The graph launch that the wait stmts[index] waits for: within MAX_APART statements before it,
 * on the stream the wait names, the statements between calling nothing, no other work the host
 * may read queued on the stream since the previous wait (waits_for_more). */
static CXCursor launch_waited(CXCursor function, const CXCursor *stmts, unsigned n, unsigned index)
{
    CXCursor wait = one_call(stmts[index], SS_CLASS_STREAM_SYNC);
    if (ss_ast_is_null(wait))
        return clang_getNullCursor();
    for (unsigned back = 1; back <= MAX_APART && back <= index; back++) {
        CXCursor launch = one_call(stmts[index - back], SS_CLASS_GRAPH_LAUNCH);
        if (!ss_ast_is_null(launch))
            return same_stream(launch, wait) &&
                           !waits_for_more(function, stmts, n, index - back, index)
                       ? launch
                       : clang_getNullCursor();
        call_walk w;
        if (calls_in(stmts[index - back], ANY_CALL, NULL, &w) != 0 || w.more)
            return clang_getNullCursor();
    }
    return clang_getNullCursor();
}

/* The variable the graph copy 'copy' writes: '&x' of a copy or of make_cudaPitchedPtr. */
static CXCursor copy_target(CXCursor copy)
{
    const ss_api *api = ss_scope_callee_api(copy);
    CXCursor var = argument_var(copy, api ? api->dst_arg : 0);
    return ss_ast_is_null(var) ? ss_ast_named_variable(clang_Cursor_getArgument(copy, 0)) : var;
}

CXCursor ss_context_graph_value(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, CXCursor *copy,
                                CXCursor *launch, const CXCursor *stmts, unsigned n, unsigned *from)
{
    CXCursor none = clang_getNullCursor();
    unsigned wait = *from;
    *launch = none;
    if (rule != SS_RULE_SYNC_IN_LOOP) {
        /* A captured copy: the capture's end, the launch of its graph and the wait after. */
        CXCursor end = none;
        for (unsigned s = *from + 1; s < n && ss_ast_is_null(end); s++)
            end = one_call(stmts[s], SS_CLASS_CAPTURE_END);
        CXCursor graph = ss_ast_is_null(end) ? none : argument_var(end, 1);
        for (wait = *from + 1; wait < n && !ss_ast_is_null(graph); wait++) {
            CXCursor l = launch_waited(ctx->function, stmts, n, wait);
            if (!ss_ast_is_null(l) &&
                clang_equalCursors(graph_of(ctx->function, argument_var(l, 0)), graph))
                break;
        }
        if (ss_ast_is_null(graph) || wait >= n || !ss_ast_same_node(graph_copy(ctx, graph), at))
            return none;
    }
    *launch = launch_waited(ctx->function, stmts, n, wait);
    CXCursor graph =
        ss_ast_is_null(*launch) ? none : graph_of(ctx->function, argument_var(*launch, 0));
    *copy = ss_ast_is_null(graph) ? none : graph_copy(ctx, graph);
    if (ss_ast_is_null(*copy) || (rule != SS_RULE_SYNC_IN_LOOP && !ss_ast_same_node(*copy, at)))
        return none;
    *from = wait;
    return copy_target(*copy);
}
