/* default_stream.c: SYNC101 (kernel launches on the legacy default stream) and SYNC102
 * (asynchronous calls on the legacy default stream). */
#include "ast.h"
#include "callgraph.h"
#include "checks.h"
#include "common.h"
#include "context_cases.h"
#include "dataflow.h"
#include "log.h"
#include "project_facts.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

static const char *hint_for(const ss_check_ctx *ctx)
{
    if (ctx->torch)
        return "launch on at::cuda::getCurrentCUDAStream() (a custom operator must run on the "
               "caller's current stream)";
    if (ctx->per_thread)
        return "use cudaStreamPerThread or an explicit stream instead of cudaStreamLegacy";
    return "pass an explicit stream created with cudaStreamNonBlocking, or compile with "
           "--default-stream per-thread";
}

/* The config struct's stream field, when 'arg' points to a launch configuration
 * (cudaLaunchKernelEx). Returns the field name (malloc'ed) or NULL. */
typedef struct stream_field {
    char *name;
} stream_field;

static enum CXVisitorResult find_stream_field(CXCursor c, CXClientData data)
{
    stream_field *f = data;
    if (!ss_check_is_stream_type(clang_getCursorType(c)))
        return CXVisit_Continue;
    CXString n = clang_getCursorSpelling(c);
    f->name = ss_xstrdup(clang_getCString(n));
    clang_disposeString(n);
    return CXVisit_Break;
}

char *ss_check_record_stream_field(CXType record)
{
    record = clang_getCanonicalType(record);
    if (record.kind != CXType_Record)
        return NULL;
    stream_field f = {NULL};
    clang_Type_visitFields(record, find_stream_field, &f);
    return f.name;
}

static char *config_stream_field(CXCursor arg)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(ss_ast_strip(arg)));
    if (t.kind != CXType_Pointer)
        t = clang_getCanonicalType(clang_getCursorType(arg));
    if (t.kind != CXType_Pointer)
        return NULL;
    return ss_check_record_stream_field(clang_getPointeeType(t));
}

/* Walking a translation unit for work on a stream other than the legacy one; 'ctx' is a copy
 * of the check context whose function follows the walk (for the reaching definitions), 'owner'
 * the check context itself (it keeps the call graph). */
typedef struct stream_use_walk {
    ss_check_ctx ctx;
    ss_check_ctx *owner;
    int found;
    int nonblocking;     /* a non-blocking stream was left out */
    int here_only;       /* leave nothing to the project pass: what the unit cannot decide may be
                          * another stream (ss_check_other_stream_here) */
    ss_stream_use *uses; /* every such call, not the first (ss_check_stream_uses) */
    size_t count, cap;
} stream_use_walk;

static int other_stream_arg(stream_use_walk *w, CXCursor function, CXCursor arg, int depth);

/* The position of the parameter 'param' among those of 'function', or -1. */
typedef struct param_walk {
    CXCursor param;
    int seen;
    int index;
    int modified;
    ss_callgraph *graph;
} param_walk;

static enum CXChildVisitResult find_param(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    param_walk *p = data;
    if (clang_getCursorKind(c) != CXCursor_ParmDecl)
        return CXChildVisit_Continue;
    if (clang_equalCursors(c, p->param))
        p->index = p->seen;
    p->seen++;
    return CXChildVisit_Continue;
}

/* Whether the function or function template 'fn' takes its parameter 'index' by value (it has
 * one, not a reference). */
static int takes_value(CXCursor fn, int index)
{
    int seen = 0;
    for (unsigned k = 0; k < ss_ast_child_count(fn); k++) {
        CXCursor c = ss_ast_child(fn, k);
        if (clang_getCursorKind(c) != CXCursor_ParmDecl || seen++ != index)
            continue;
        CXType t = clang_getCanonicalType(clang_getCursorType(c));
        return t.kind != CXType_LValueReference && t.kind != CXType_RValueReference;
    }
    return 0;
}

/* Whether the call 'call' may take its argument 'arg' by reference: unless the function it
 * calls is known and takes it by value (every function an overloaded name may call, in a
 * template, or the one the call graph resolves it to), it is a CUDA API (left unresolved in a
 * template too), whose streams are values, or it is left unresolved in a template and every
 * function of the unit it may call takes it by value (ss_callgraph_takes_value). */
static int by_reference(ss_callgraph *graph, CXCursor call, CXCursor arg)
{
    CXCursor callee = clang_getCursorReferenced(call);
    int count = clang_Cursor_getNumArguments(call);
    for (int i = 0; i < count; i++) {
        if (!clang_equalCursors(clang_Cursor_getArgument(call, (unsigned)i), arg))
            continue;
        if (ss_ast_is_null(callee))
            callee = ss_callgraph_callee(graph, call); /* a template's call the graph resolves */
        if (ss_ast_is_null(callee))
            return ss_scope_callee_api(call) == NULL && !ss_callgraph_takes_value(graph, call, i);
        if (clang_getCursorKind(callee) != CXCursor_OverloadedDeclRef)
            return !takes_value(callee, i);
        unsigned n = clang_getNumOverloadedDecls(callee);
        for (unsigned k = 0; k < n; k++) {
            if (!takes_value(clang_getOverloadedDecl(callee, k), i))
                return 1;
        }
        return n == 0;
    }
    return 1;
}

/* Whether the parameter may be written in the function: named not as a value (through an
 * implicit conversion) but as the operand of an assignment, '&', '++', or a reference
 * argument of a call. */
static enum CXChildVisitResult find_param_write(CXCursor c, CXCursor parent, CXClientData data)
{
    param_walk *p = data;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr &&
        clang_equalCursors(clang_getCursorReferenced(c), p->param)) {
        enum CXCursorKind k = clang_getCursorKind(parent);
        if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator ||
            k == CXCursor_UnaryOperator ||
            (k == CXCursor_CallExpr && by_reference(p->graph, parent, c))) {
            p->modified = 1;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* Whether the call argument 'arg', made in 'caller', is the parameter 'param' of 'function'
 * itself: 'function' calling itself, or a function of the same name, with it. */
static int passes_itself(CXCursor function, CXCursor caller, CXCursor arg, CXCursor param)
{
    CXCursor e = ss_ast_strip(arg);
    return clang_equalCursors(caller, function) && clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(e), param);
}

/* Whether the stream parameter 'index' of 'function' may be left to the project pass: another
 * unit may call 'function' (ss_project_stream_param_usr), the unit names it only as the callee
 * of its calls, and there is a project pass (ctx->streams). Then the parameter is added to the
 * unit's ctx->stream_params: the calls of all units decide it (project_streams.c). Returns 1
 * or 0. */
static int assume_elsewhere(stream_use_walk *w, CXCursor function, int index)
{
    if (w->owner->streams == NULL || w->here_only ||
        ss_callgraph_named_elsewhere(ss_check_graph(w->owner), function))
        return 0;
    char *usr = ss_project_stream_param_usr(function);
    if (usr == NULL)
        return 0;
    CXString param = clang_getCursorSpelling(clang_Cursor_getArgument(function, (unsigned)index));
    char *name = ss_qualified_name(function);
    char *words = ss_xasprintf("'%s' of '%s()'", clang_getCString(param), name ? name : "?");
    ss_stream_params_add(&w->owner->stream_params, usr, (unsigned)index, words);
    ss_project_note_closed(w->owner, function, usr);
    free(words);
    free(name);
    free(usr);
    clang_disposeString(param);
    return 1;
}

/* Whether the stream field 'field' ('t.stm', 'this->stream': a member of a type of the project)
 * may be left to the project pass, which follows every write of it in the project (ss_stream_arg
 * with SS_STREAM_FIELD): then it is added to ctx->stream_params. Returns 1 or 0. */
static int assume_field(stream_use_walk *w, CXCursor field)
{
    if (w->owner->streams == NULL || w->here_only ||
        clang_getCursorKind(field) != CXCursor_FieldDecl || ss_ast_in_system_header(field))
        return 0;
    CXString usr = clang_getCursorUSR(field);
    CXString name = clang_getCursorSpelling(field);
    char *type = ss_qualified_name(clang_getCursorSemanticParent(field));
    char *words = ss_xasprintf("'%s' of '%s'", clang_getCString(name), type ? type : "?");
    int ok = clang_getCString(usr)[0] != '\0';
    if (ok)
        ss_stream_params_add(&w->owner->stream_params, clang_getCString(usr), SS_STREAM_FIELD,
                             words);
    free(words);
    free(type);
    clang_disposeString(name);
    clang_disposeString(usr);
    return ok;
}

/* Whether the stream parameter 'param' of 'function' may hold a stream other than the legacy
 * one: unless every call of the function in the unit is seen (its address not taken, not
 * virtual; a call left unresolved in a template that may call it counts with its arguments as
 * written: ss_callgraph_seen_calls_of) and each passes a legacy stream
 * (ss_stream_all_legacy), leaves it to a legacy default, or passes on a parameter of its own
 * caller that holds one in turn (up to four calls up), and the function writes nothing to it.
 * A function nothing in the unit calls passes no stream. Returns 1 or 0. */
static int other_stream_param(stream_use_walk *w, CXCursor function, CXCursor param, int depth)
{
    param_walk p = {param, 0, -1, 0, ss_check_graph(w->owner)};
    clang_visitChildren(function, find_param, &p);
    if (p.index < 0 || depth > 4)
        return 1;
    clang_visitChildren(function, find_param_write, &p);
    enum { MAX_CALLS = 64 };
    CXCursor calls[MAX_CALLS], callers[MAX_CALLS];
    long n =
        ss_callgraph_seen_calls_of(ss_check_graph(w->owner), function, calls, callers, MAX_CALLS);
    if (n < 0 && !p.modified && assume_elsewhere(w, function, p.index))
        n = ss_callgraph_calls_of(ss_check_graph(w->owner), function, calls, callers, MAX_CALLS);
    if (p.modified || n < 0 || n > MAX_CALLS)
        return 1;
    for (long i = 0; i < n; i++) {
        int count = clang_Cursor_getNumArguments(calls[i]);
        /* An operator's call ('gemm()') passes the object first. */
        int at = p.index + (count > p.seen ? count - p.seen : 0);
        CXCursor arg =
            at < count ? clang_Cursor_getArgument(calls[i], (unsigned)at) : clang_getNullCursor();
        if (ss_ast_is_null(arg) || ss_check_is_omitted(arg)) {
            /* Left to the default: the parameter's initializer, a constant. */
            CXCursor init = clang_getNullCursor();
            unsigned k = ss_ast_child_count(param);
            if (k > 0)
                init = ss_ast_child(param, k - 1);
            ss_stream_value v =
                ss_ast_is_null(init) || !clang_isExpression(clang_getCursorKind(init))
                    ? SS_STREAM_UNKNOWN
                    : ss_stream_constant(ss_ast_strip(init));
            if (!ss_stream_is_legacy(v, 0))
                return 1;
        } else if (passes_itself(function, callers[i], arg, param)) {
            continue; /* the function passing its own parameter on, to itself or its namesake */
        } else if (other_stream_arg(w, callers[i], arg, depth + 1)) {
            return 1;
        }
    }
    return 0;
}

/* Whether the stream argument 'arg' (in 'function') may be a stream other than the legacy
 * default stream: anything but an omitted stream, 0/NULL/nullptr and cudaStreamLegacy (or a
 * variable that always holds one of those), and a parameter of 'function' that no call of it
 * in the unit gives another stream (other_stream_param). cudaStreamPerThread is another
 * stream here: the legacy stream synchronizes with it. */
static int other_stream_arg(stream_use_walk *w, CXCursor function, CXCursor arg, int depth)
{
    if (ss_check_is_omitted(arg))
        return 0;
    /* Not per-thread: a unit compiled per-thread counts as using other streams anyway. */
    if (ss_stream_all_legacy(ss_stream_values(function, arg), 0))
        return 0;
    CXCursor e = ss_ast_strip(arg);
    CXCursor ref = clang_getCursorReferenced(e);
    if (clang_getCursorKind(e) == CXCursor_MemberRefExpr)
        return !assume_field(w, ref);
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr ||
        clang_getCursorKind(ref) != CXCursor_ParmDecl || ss_ast_is_null(function))
        return 1;
    return other_stream_param(w, function, ref, depth);
}

int ss_check_other_stream_param(ss_check_ctx *ctx, CXCursor function, CXCursor param)
{
    stream_use_walk w = {*ctx, ctx, 0, 0, 1, NULL, 0, 0};
    if (!ss_check_is_stream_type(clang_getCursorType(param)))
        return 1; /* an array of or pointer to streams: what it holds is not followed */
    /* No call in the unit: nothing here says what it is given (a template instantiated for
     * other units, a function the unit only defines). */
    CXCursor calls[1], callers[1];
    if (ss_callgraph_seen_calls_of(ss_check_graph(ctx), function, calls, callers, 1) == 0)
        return 1;
    return other_stream_param(&w, function, param, 0);
}

int ss_check_other_stream_here(ss_check_ctx *ctx, CXCursor function, CXCursor expr)
{
    stream_use_walk w = {*ctx, ctx, 0, 0, 1, NULL, 0, 0};
    CXCursor e = ss_ast_strip(expr);
    CXCursor ref = clang_getCursorReferenced(e);
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr ||
        clang_getCursorKind(ref) != CXCursor_ParmDecl)
        return other_stream_arg(&w, function, expr, 0);
    if (ss_check_is_stream_type(clang_getCursorType(ref)) &&
        ss_stream_all_legacy(ss_stream_values(function, expr), 0))
        return 0;
    return ss_check_other_stream_param(ctx, function, ref);
}

/* The uses of a local stream variable in the function it is declared in (scoped_stream). */
typedef struct scope_walk {
    CXCursor var;
    ss_callgraph *graph;
    unsigned refs, args; /* references to it; of them, arguments of calls */
    unsigned creates, destroys;
    unsigned create_at, destroy_at; /* offsets */
    unsigned first_use, last_work, last_sync;
    int escapes; /* '&s' given to a call that does not create it */
} scope_walk;

/* Whether 'arg' names the walk's variable: 1 by value, 2 its address ('&s'), else 0. */
static int names_var(const scope_walk *w, CXCursor arg)
{
    CXCursor e = ss_ast_strip(arg);
    int address = 0;
    if (clang_getCursorKind(e) == CXCursor_UnaryOperator && ss_ast_child_count(e) == 1) {
        e = ss_ast_strip(ss_ast_child(e, 0));
        address = 1;
    }
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr ||
        !clang_equalCursors(clang_getCursorReferenced(e), w->var))
        return 0;
    return address ? 2 : 1;
}

static void note_use(scope_walk *w, CXCursor call, int how)
{
    const ss_api *api = ss_scope_callee_api(call);
    unsigned at = ss_ast_offset(call);
    char *callee = ss_scope_callee_name(call);
    int creates = how == 2 && ss_check_stream_creation(call, api) != 0;
    w->args++;
    if (creates) {
        w->creates++;
        w->create_at = at;
    } else if (how == 2) {
        w->escapes = 1;
    } else if (callee && (ss_api_name_is(callee, "cudaStreamDestroy") ||
                          ss_api_name_is(callee, "cuStreamDestroy"))) {
        w->destroys++;
        w->destroy_at = at;
    } else if (api != NULL && api->klass == SS_CLASS_STREAM_SYNC) {
        w->last_sync = at > w->last_sync ? at : w->last_sync;
    } else {
        w->last_work = at > w->last_work ? at : w->last_work;
    }
    if (!creates && at < w->first_use)
        w->first_use = at;
    free(callee);
}

static enum CXChildVisitResult find_var_uses(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    scope_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(c), w->var))
        w->refs++;
    if (k != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    int count = clang_Cursor_getNumArguments(c);
    for (int i = 0; i < count; i++) {
        int how = names_var(w, clang_Cursor_getArgument(c, (unsigned)i));
        if (how)
            note_use(w, c, how);
    }
    return CXChildVisit_Recurse;
}

/* Whether the call 'c' queues work on a stream other than the walk's variable, or calls a
 * function of the unit that queues work (itself). */
static int other_work(const scope_walk *w, CXCursor c)
{
    const ss_api *api = NULL;
    if (!ss_scope_is_launch(c)) {
        api = ss_scope_callee_api(c);
        if (api == NULL) {
            CXCursor callee = ss_callgraph_callee(w->graph, c);
            CXCursor first;
            return !ss_ast_is_null(callee) &&
                   ss_callgraph_own_work(w->graph, callee, SS_SCOPE_ENQUEUES, &first);
        }
        if (!ss_api_enqueues(api) && api->klass != SS_CLASS_COPY && api->klass != SS_CLASS_MEMSET)
            return 0;
    }
    CXCursor arg = ss_check_stream_arg(c, api);
    return ss_ast_is_null(arg) || names_var(w, arg) != 1;
}

static enum CXChildVisitResult find_other_work(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    scope_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    unsigned at = ss_ast_offset(c);
    if (at > w->create_at && at < w->destroy_at && other_work(w, c)) {
        w->escapes = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether the stream variable 'var' lives and dies inside one call of 'function': a local of
 * it (not static), created once ('&s' given to a creation, before any other use), its work
 * waited for (a stream synchronization after its last work) and then destroyed (its last
 * use), named only as the argument of calls, and with no other work queued by 'function'
 * between the creation and the destruction (on the legacy stream or another one, itself or
 * in a function of the unit it calls). Such a stream cannot overlap anything outside the
 * call; the caller sees the call as one synchronous operation, ordered after the legacy
 * stream's earlier work (which its input usually comes from). Returns 1 or 0. */
static int scoped_stream(ss_check_ctx *owner, CXCursor function, CXCursor var)
{
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(var);
    unsigned fb, fe, vb, ve;
    if (clang_getCursorKind(var) != CXCursor_VarDecl || ss_ast_is_null(function) ||
        (sc != CX_SC_None && sc != CX_SC_Auto && sc != CX_SC_Register))
        return 0;
    ss_ast_range(function, &fb, &fe);
    ss_ast_range(var, &vb, &ve);
    if (vb < fb || ve > fe)
        return 0;
    scope_walk w = {.var = var, .graph = ss_check_graph(owner), .first_use = ~0u};
    clang_visitChildren(function, find_var_uses, &w);
    if (w.escapes || w.refs != w.args || w.creates != 1 || w.destroys != 1 ||
        w.create_at >= w.first_use || w.last_sync <= w.last_work || w.last_sync <= w.create_at ||
        w.destroy_at <= w.last_sync)
        return 0;
    clang_visitChildren(function, find_other_work, &w);
    return !w.escapes;
}

CXCursor ss_check_stream_var(CXCursor arg)
{
    CXCursor e = ss_ast_strip(arg);
    if (clang_getCursorKind(e) == CXCursor_UnaryOperator && ss_ast_child_count(e) == 1)
        e = ss_ast_strip(ss_ast_child(e, 0));
    CXCursor var = clang_getCursorReferenced(e);
    return clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
                   clang_getCursorKind(var) == CXCursor_VarDecl
               ? var
               : clang_getNullCursor();
}

/* Whether the stream creation 'call' ('api' its row) in 'function' creates a stream that lives
 * and dies inside one call of it (scoped_stream). */
static int scoped_creation(ss_check_ctx *owner, CXCursor function, CXCursor call, const ss_api *api)
{
    if (api->dst_arg < 0 || clang_Cursor_getNumArguments(call) <= api->dst_arg)
        return 0;
    CXCursor var = ss_check_stream_var(clang_Cursor_getArgument(call, (unsigned)api->dst_arg));
    return !ss_ast_is_null(var) && scoped_stream(owner, function, var);
}

/* Whether the variable 'var' holds only non-blocking streams (nonblocking_var). */
typedef struct nonblocking_walk {
    CXCursor var;
    int created;
    int other;
} nonblocking_walk;

static enum CXChildVisitResult find_var_writes(CXCursor c, CXCursor parent, CXClientData data)
{
    nonblocking_walk *w = data;
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr) {
        const ss_api *api = ss_scope_callee_api(c);
        int creation = ss_check_stream_creation(c, api);
        if (creation != 0 && api->dst_arg >= 0 && clang_Cursor_getNumArguments(c) > api->dst_arg &&
            clang_equalCursors(
                ss_check_stream_var(clang_Cursor_getArgument(c, (unsigned)api->dst_arg)), w->var)) {
            w->created = 1;
            w->other = creation != 3;
            return w->other ? CXChildVisit_Break : CXChildVisit_Continue;
        }
    }
    if (k == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(c), w->var) &&
        clang_getCursorKind(parent) != CXCursor_UnexposedExpr) {
        w->other = 1; /* written, its address taken or bound to a reference: anything */
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether the stream argument 'arg' names a variable that holds only non-blocking streams: a
 * local variable, or one of internal linkage, with no initializer, that the unit gives at least
 * one stream created with a constant flags argument that has cudaStreamNonBlocking's bit
 * (cuStreamCreate's CU_STREAM_NON_BLOCKING the same) and otherwise only reads by value (no
 * assignment, no other '&', no reference to it; a creation with other flags makes it blocking).
 * Such a stream does not synchronize with the legacy stream. A parameter, a member or a
 * variable another unit may set may hold any stream. */
static int nonblocking_var(ss_check_ctx *owner, CXCursor arg)
{
    CXCursor e = ss_ast_strip(arg);
    CXCursor var = clang_getCursorReferenced(e);
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr ||
        clang_getCursorKind(var) != CXCursor_VarDecl)
        return 0;
    enum CXLinkageKind linkage = clang_getCursorLinkage(var);
    if (linkage != CXLinkage_NoLinkage && linkage != CXLinkage_Internal)
        return 0;
    for (unsigned i = 0; i < ss_ast_child_count(var); i++)
        if (clang_isExpression(clang_getCursorKind(ss_ast_child(var, i))))
            return 0; /* an initializer */
    nonblocking_walk w = {var, 0, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(owner->tu), find_var_writes, &w);
    return w.created && !w.other;
}

/* Whether 'call' creates a stream or passes a stream other than the legacy default stream
 * (a launch, a copy, an event record, ... on it) that the legacy stream can hold up. Work on
 * the legacy stream itself, an asynchronous copy on stream 0 included, is not: it runs in
 * order with the legacy stream's other work, which holds nothing else up. Nor is a stream that
 * lives and dies inside one call (scoped_stream), nor a non-blocking one (created with
 * cudaStreamNonBlocking, its creation and its variable's work: nonblocking_var), which does
 * not synchronize with the legacy stream. */
static int uses_other_stream(stream_use_walk *w, CXCursor call)
{
    const ss_api *api = NULL;
    if (!ss_scope_is_launch(call)) {
        api = ss_scope_callee_api(call);
        if (api == NULL)
            return 0;
        if (api->klass == SS_CLASS_STREAM_CREATE && ss_check_stream_creation(call, api) == 3) {
            w->nonblocking = 1;
            return 0;
        }
        if (api->klass == SS_CLASS_STREAM_CREATE)
            return !scoped_creation(w->owner, w->ctx.function, call, api);
    }
    CXCursor arg = ss_check_stream_arg(call, api);
    if (ss_ast_is_null(arg) || !other_stream_arg(w, w->ctx.function, arg, 0))
        return 0;
    if (nonblocking_var(w->owner, arg)) {
        w->nonblocking = 1;
        return 0;
    }
    CXCursor var = ss_check_stream_var(arg);
    return ss_ast_is_null(var) || !scoped_stream(w->owner, w->ctx.function, var);
}

/* Whether 'function' has no code that runs in this unit: the call graph's answer
 * (ss_callgraph_uncalled: an inline or internal function, or a function template the unit
 * neither instantiates nor calls, that nothing which runs here calls). */
static int no_code_here(stream_use_walk *w, CXCursor function)
{
    char *why = NULL;
    int uncalled = ss_callgraph_uncalled(ss_check_graph(w->owner), function, &why);
    free(why);
    return uncalled;
}

static enum CXChildVisitResult find_stream_use(CXCursor c, CXCursor parent, CXClientData data)
{
    stream_use_walk *w = data;
    /* Asked of the unit's top-level declarations only, as the AST walk does: the location of
     * a node deep in a left-nested expression takes time in its depth to find. */
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    if (ss_ast_is_function(c) && ss_ast_is_device_only(c))
        return CXChildVisit_Continue; /* a stream there is the device's (dynamic parallelism) */
    if (ss_ast_is_function(c)) {
        CXCursor outer = w->ctx.function;
        int nonblocking = w->nonblocking;
        size_t params = w->owner->stream_params ? w->owner->stream_params->count : 0;
        w->ctx.function = c;
        clang_visitChildren(c, find_stream_use, w);
        w->ctx.function = outer;
        /* A template this unit never instantiates, or a function it never runs, has no code
         * here: what it does with streams happens only in the units that use it. */
        size_t now = w->owner->stream_params ? w->owner->stream_params->count : 0;
        if ((w->found || w->nonblocking > nonblocking || now > params) && ss_ast_is_null(outer) &&
            no_code_here(w, c)) {
            w->found = 0;
            w->nonblocking = nonblocking;
            ss_stream_params_truncate(w->owner->stream_params, params);
        }
        return w->found ? CXChildVisit_Break : CXChildVisit_Continue;
    }
    if (clang_getCursorKind(c) == CXCursor_CallExpr && uses_other_stream(w, c)) {
        w->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Each call that uses another stream (uses_other_stream), kept in w->uses; those of a
 * top-level function with no code here are dropped again, as find_stream_use forgets them. */
static enum CXChildVisitResult collect_stream_use(CXCursor c, CXCursor parent, CXClientData data)
{
    stream_use_walk *w = data;
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    if (ss_ast_is_function(c) && ss_ast_is_device_only(c))
        return CXChildVisit_Continue;
    if (ss_ast_is_function(c)) {
        CXCursor outer = w->ctx.function;
        size_t count = w->count;
        w->ctx.function = c;
        clang_visitChildren(c, collect_stream_use, w);
        w->ctx.function = outer;
        if (w->count > count && ss_ast_is_null(outer) && no_code_here(w, c))
            w->count = count;
        return CXChildVisit_Continue;
    }
    if (clang_getCursorKind(c) == CXCursor_CallExpr && uses_other_stream(w, c)) {
        if (w->count == w->cap) {
            w->cap = w->cap ? 2 * w->cap : 8;
            w->uses = ss_xreallocarray(w->uses, w->cap, sizeof *w->uses);
        }
        w->uses[w->count].call = c;
        w->uses[w->count].function = w->ctx.function;
        w->count++;
    }
    return CXChildVisit_Recurse;
}

size_t ss_check_stream_uses(ss_check_ctx *ctx, ss_stream_use **uses)
{
    stream_use_walk w = {*ctx, ctx, 0, 0, 1, NULL, 0, 0};
    w.ctx.function = clang_getNullCursor();
    clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), collect_stream_use, &w);
    *uses = w.uses;
    return w.count;
}

/* Whether the translation unit (outside system headers) creates a stream or passes a stream
 * other than the legacy default stream. A PyTorch extension counts as doing so (its caller's
 * streams are not in the unit), and so does a unit compiled with the per-thread default
 * stream (its default-stream work is on another stream than the legacy one). Computed once
 * per unit. */
static int unit_uses_streams(ss_check_ctx *ctx)
{
    if (ctx->stream_use == 0) {
        stream_use_walk w = {*ctx, ctx, 0, 0, 0, NULL, 0, 0};
        w.ctx.function = clang_getNullCursor();
        clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_stream_use, &w);
        int params = ctx->stream_params && ctx->stream_params->count > 0;
        ctx->stream_use = w.found || ctx->torch || ctx->per_thread ? 1
                          : params                                 ? 4
                          : w.nonblocking                          ? 3
                                                                   : 2;
    }
    return ctx->stream_use == 1 || ctx->stream_use == 4;
}

/* The reason of a legacy-stream note whose unit's only other streams are stream parameters
 * that every call in the project gives the legacy stream (ss_project_ask_params). */
static const char params_words[] =
    "the only other streams this translation unit uses are stream parameters and fields that "
    "every call and write in the project gives the legacy stream, so it holds nothing up yet";

/* Reports 'message' at 'at' as a note that says why ('why'): legacy-stream work that holds
 * nothing up. */
static void report_quiet(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const char *message,
                         const char *why, const char *hint)
{
    char *quiet = ss_xasprintf("%s; %s", message, why);
    size_t before = ctx->result->count;
    ctx->legacy_note = 1;
    ss_check_report(ctx, rule, at, quiet, hint);
    ctx->legacy_note = 0;
    if (ctx->result->count > before)
        ctx->result->findings[ctx->result->count - 1].severity = SS_SEV_NOTE;
    free(quiet);
}

/* Makes the warning 'f', legacy-stream work at 'at' in ctx->function, a note where its code had
 * no stream at hand to queue it on instead (ss_context_no_stream_at_hand), where its file
 * queues most of its work on the legacy stream (ss_context_convention_words), or where no other
 * stream of the unit can hold work on its path (ss_context_other_branch_words): whether the unit's
 * other streams have work when it runs is a run-time question, and no stream argument was left
 * out (a note then, so the project pass is not asked about it). Comes after every other
 * reason for a note, and after the context's: a note keeps its own words. Returns 1 when it made it
 * a note. */
static int quiet_unhanded(ss_check_ctx *ctx, CXCursor at, ss_finding *f)
{
    if (f->severity != SS_SEV_WARNING)
        return 0;
    char *words = ss_context_no_stream_at_hand(ctx);
    if (words == NULL)
        words = ss_context_convention_words(ctx, at);
    if (words == NULL)
        words = ss_context_other_branch_words(ctx, at);
    if (words == NULL)
        return 0;
    char *longer = ss_xasprintf("%s; %s", f->message, words);
    free(f->message);
    f->message = longer;
    f->severity = SS_SEV_NOTE;
    free(words);
    return 1;
}

/* Reports a SYNC101 or SYNC102 finding ('rule'; 'values' the stream's, ss_stream_values): a
 * warning where the unit uses another stream that the legacy stream can hold up, else a note
 * that says why; a note too where the program names the legacy stream itself
 * (cudaStreamLegacy, every value of the stream): it asks for the legacy stream's ordering on
 * purpose. */
static void report_legacy(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const char *message,
                          unsigned values, const char *given)
{
    const char *why = given;
    if (why == NULL && !unit_uses_streams(ctx))
        why = ctx->stream_use == 3
                  ? "the other streams this translation unit uses are non-blocking "
                    "('cudaStreamNonBlocking'), which do not synchronize with the legacy one, "
                    "so it holds nothing up yet"
                  : "nothing in this translation unit uses a stream other than the legacy one, "
                    "so it holds nothing up yet";
    else if (why == NULL && values == SS_STREAM_BIT(SS_STREAM_LEGACY))
        why = "deliberate: the program names the legacy stream ('cudaStreamLegacy'), whose "
              "ordering with the other streams it asks for";
    /* Between two waits for the whole device, with no work on another stream between: a note
     * now, or, where a wait is a call of a function the unit only declares, a question for
     * the project pass. */
    ss_assumed_waits assumed = {0};
    char *between = why ? NULL : ss_context_between_waits(ctx, at, &assumed);
    char *joined = why || (between && assumed.count == 0) ? NULL : ss_context_after_join(ctx, at);
    if (between && assumed.count == 0)
        why = between;
    else if (joined)
        why = joined;
    if (why == NULL) {
        size_t count = ctx->result->count;
        ss_check_report(ctx, rule, at, message, hint_for(ctx));
        if (ctx->result->count > count && quiet_unhanded(ctx, at, &ctx->result->findings[count]))
            count = ctx->result->count; /* a note now: nothing left to ask */
        if (ctx->stream_use == 4 && ctx->result->count > count)
            ss_project_ask_params(ctx, rule, &ctx->result->findings[count], params_words);
        if (between && ctx->result->count > count)
            ss_project_ask_between(ctx, rule, &ctx->result->findings[count], between, &assumed);
        ss_assumed_waits_free(&assumed);
        free(between);
        return;
    }
    ss_assumed_waits_free(&assumed);
    report_quiet(ctx, rule, at, message, why, hint_for(ctx));
    free(between);
    free(joined);
}

/* The stream of the launch configuration 'arg' ('&cfg', cudaLaunchKernelEx): the values
 * (ss_stream_values) of its stream field 'field', traced through the local struct's
 * definitions that reach 'call'. '*text' receives "cfg.field" (malloc'ed), or NULL when the
 * text cannot be read. */
static unsigned config_stream(ss_check_ctx *ctx, CXCursor call, CXCursor arg, const char *field,
                              char **text)
{
    ss_location loc;
    CXCursor e = ss_ast_strip(arg);
    unsigned values = SS_STREAM_BIT(SS_STREAM_UNKNOWN);
    if (clang_getCursorKind(e) == CXCursor_UnaryOperator && ss_location_of(e, field, &loc) == 0) {
        CXType vt = clang_getCanonicalType(clang_getCursorType(loc.var));
        if (vt.kind == CXType_Record)
            values = ss_stream_location_values(ctx->function, &loc, call);
        ss_location_free(&loc);
    }
    char *cfg = ss_expr_text(ss_ast_child(e, 0));
    *text = cfg ? ss_xasprintf("%s.%s", cfg, field) : NULL;
    free(cfg);
    return values;
}

/* The first blocking stream the unit creates (cudaStreamCreate, or a flags argument of 0),
 * one that lives and dies inside one call left out (scoped_stream). */
typedef struct blocking_walk {
    ss_check_ctx *owner;
    CXCursor function; /* the function the walk is in */
    CXCursor found;
} blocking_walk;

static enum CXChildVisitResult find_blocking(CXCursor c, CXCursor parent, CXClientData data)
{
    blocking_walk *w = data;
    /* System headers are left at the unit's top level, as find_stream_use does. */
    if ((clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_ast_in_system_header(c)) ||
        (ss_ast_is_function(c) && ss_ast_is_device_only(c)))
        return CXChildVisit_Continue;
    if (ss_ast_is_function(c)) {
        CXCursor outer = w->function;
        w->function = c;
        clang_visitChildren(c, find_blocking, w);
        w->function = outer;
        return ss_ast_is_null(w->found) ? CXChildVisit_Continue : CXChildVisit_Break;
    }
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    if (ss_check_stream_creation(c, api) != 1 || scoped_creation(w->owner, w->function, c, api))
        return CXChildVisit_Recurse; /* no creation, not blocking, flags not known, or scoped */
    w->found = c;
    return CXChildVisit_Break;
}

/* Reports the SYNC102 finding 'message' of a synchronous call queued on the legacy stream: a
 * note between two waits for the whole device, or after one with no work on another stream
 * after it, as for a launch; else the severity of the loop around it (the call itself is the
 * loop's device work: the context's own search wants work queued asynchronously, which this
 * call is not by its API's row, so a set-up loop of such copies is a note as a set-up loop of
 * launches is); a warning with no stream at hand is a note too. */
static void report_device_side(ss_check_ctx *ctx, CXCursor call, const char *message,
                               const char *fix)
{
    char *why = ss_context_between_waits(ctx, call, NULL);
    if (why == NULL)
        why = ss_context_after_join(ctx, call);
    size_t count = ctx->result->count;
    ss_loop_context loop;
    int looped = why == NULL && ss_check_loop(ctx, call, SS_SCOPE_DEVICE_WORK, &loop);
    if (why) {
        report_quiet(ctx, SS_RULE_DEFAULT_STREAM_ASYNC_CALL, call, message, why, fix);
    } else {
        ctx->loop = looped ? &loop : NULL;
        ss_check_report(ctx, SS_RULE_DEFAULT_STREAM_ASYNC_CALL, call, message, fix);
    }
    if (looped)
        ss_loop_context_free(&loop);
    if (why == NULL && ctx->result->count > count)
        quiet_unhanded(ctx, call, &ctx->result->findings[count]);
    free(why);
}

const char *ss_default_stream_device_side(CXCursor function, CXCursor call, const ss_api *api,
                                          CXCursor *target)
{
    if (api->sync != SS_SYNC_ALWAYS || ss_ast_is_null(function) || api->dst_arg < 0 ||
        clang_Cursor_getNumArguments(call) <= api->dst_arg)
        return NULL;
    CXCursor dst = clang_Cursor_getArgument(call, (unsigned)api->dst_arg);
    *target = dst;
    if (api->klass == SS_CLASS_MEMSET)
        return ss_check_is_device_pointer(function, dst) ? "sets device memory" : NULL;
    if (api->klass != SS_CLASS_COPY)
        return NULL;
    CXCursor src;
    int kind = ss_copy_kind(function, call, api, &dst, &src);
    *target = dst;
    if (kind == SS_COPY_KIND_D2D ||
        (kind == SS_COPY_KIND_DEFAULT && ss_check_is_device_pointer(function, dst) &&
         ss_check_is_device_pointer(function, src)))
        return "copies device to device";
    return NULL;
}

/* SYNC102 for the synchronous forms that do not block the host but are queued on the legacy
 * stream: a device-to-device copy or a memset of device memory, in a unit that creates a
 * blocking stream, with which it serializes (rules.md, SYNC102 and SYNC202). */
static void device_side_sync_call(ss_check_ctx *ctx, CXCursor call, const ss_api *api)
{
    CXCursor dst;
    const char *what =
        ctx->per_thread ? NULL : ss_default_stream_device_side(ctx->function, call, api, &dst);
    if (what == NULL)
        return;
    if (ctx->blocking_stream == 0) {
        blocking_walk w = {ctx, clang_getNullCursor(), clang_getNullCursor()};
        clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_blocking, &w);
        ctx->blocking_stream = ss_ast_is_null(w.found) ? -1 : (int)ss_scope_line(w.found);
    }
    if (ctx->blocking_stream < 0)
        return;
    char *at = ss_check_where(ctx);
    char *target = ss_expr_text(dst);
    char *message =
        ss_xasprintf("'%s' %s %s ('%s') without blocking the host, on the legacy "
                     "default stream: it serializes with the blocking streams this "
                     "unit creates (line %d)",
                     api->name, at, what, target ? target : "...", ctx->blocking_stream);
    /* The driver's twin is the call's own Async form (cuMemsetD32Async, cuMemcpyDtoDAsync). */
    char *fix =
        api->domain == SS_DOMAIN_DRV
            ? ss_xasprintf("use %sAsync on the stream that uses the memory", api->name)
            : ss_xasprintf("use %s on the stream that uses the memory",
                           api->klass == SS_CLASS_MEMSET ? "cudaMemsetAsync" : "cudaMemcpyAsync");
    report_device_side(ctx, call, message, fix);
    free(fix);
    free(message);
    free(target);
    free(at);
}

/* A call of cudaEventElapsedTime (or the driver's) that reads the event variable or member
 * 'decl', in the unit. */
typedef struct elapsed_walk {
    CXCursor decl;
    CXCursor found;
} elapsed_walk;

static enum CXChildVisitResult find_elapsed(CXCursor c, CXCursor parent, CXClientData data)
{
    elapsed_walk *w = data;
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    char *name = ss_scope_callee_name(c);
    int elapsed = name && (ss_api_name_is(name, "cudaEventElapsedTime") ||
                           ss_api_name_is(name, "cuEventElapsedTime"));
    free(name);
    for (int i = 1; elapsed && i < clang_Cursor_getNumArguments(c); i++) {
        CXCursor e = ss_ast_strip(clang_Cursor_getArgument(c, (unsigned)i));
        if (clang_equalCursors(clang_getCursorReferenced(e), w->decl)) {
            w->found = c;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* For an event record ('api' its row) whose event, a variable or member, the unit reads with
 * cudaEventElapsedTime: "a timing event: ...". On the legacy stream the record marks the point
 * after the earlier work of every blocking stream, which a timer of the whole device (a step's
 * time) asks for. Malloc'ed, or NULL. */
static char *timing_words(ss_check_ctx *ctx, CXCursor call, const ss_api *api)
{
    if (api->klass != SS_CLASS_EVENT_RECORD || clang_Cursor_getNumArguments(call) < 1)
        return NULL;
    CXCursor e = ss_ast_strip(clang_Cursor_getArgument(call, 0));
    CXCursor decl = clang_getCursorReferenced(e);
    enum CXCursorKind k = clang_getCursorKind(decl);
    if ((clang_getCursorKind(e) != CXCursor_DeclRefExpr &&
         clang_getCursorKind(e) != CXCursor_MemberRefExpr) ||
        (k != CXCursor_VarDecl && k != CXCursor_FieldDecl))
        return NULL;
    elapsed_walk w = {decl, clang_getNullCursor()};
    clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_elapsed, &w);
    if (ss_ast_is_null(w.found))
        return NULL;
    CXString name = clang_getCursorSpelling(decl);
    char *place = ss_callgraph_place(w.found);
    char *words = ss_xasprintf("a timing event: the elapsed time at %s reads '%s'; recorded on "
                               "the legacy stream, it marks the point after the earlier work of "
                               "every blocking stream, as a timer of the whole device asks",
                               place, clang_getCString(name));
    free(place);
    clang_disposeString(name);
    return words;
}

/* SYNC101 and SYNC102 (checks.def): an API call ('api' is its row) whose stream argument is
 * the legacy default stream; SYNC101 for launches, graph launches and host functions, SYNC102
 * for the asynchronous classes, and for the synchronous copies and memsets that stay on the
 * device (device_side_sync_call). */
void ss_check_default_stream_call(ss_check_ctx *ctx, CXCursor call, const ss_api *api)
{
    if (api->stream_arg < 0) {
        device_side_sync_call(ctx, call, api);
        return;
    }
    ss_rule_id rule = (api->klass == SS_CLASS_LAUNCH || api->klass == SS_CLASS_GRAPH_LAUNCH ||
                       api->klass == SS_CLASS_HOST_FUNC)
                          ? SS_RULE_DEFAULT_STREAM_LAUNCH
                          : SS_RULE_DEFAULT_STREAM_ASYNC_CALL;
    int nargs = clang_Cursor_getNumArguments(call);
    unsigned values = SS_STREAM_BIT(SS_STREAM_NULL);
    int omitted = 0;
    char *text = NULL;
    if (nargs <= api->stream_arg) {
        if (!api->stream_opt)
            return; /* an incomplete call clang recovered from */
        omitted = 1;
    } else {
        CXCursor arg = clang_Cursor_getArgument(call, (unsigned)api->stream_arg);
        char *field = config_stream_field(arg);
        if (field) {
            values = config_stream(ctx, call, arg, field, &text);
            free(field);
        } else if (ss_check_is_omitted(arg)) {
            omitted = 1;
        } else {
            values = ss_stream_values(ctx->function, arg);
            text = ss_expr_text(arg);
        }
    }
    if (!ss_stream_all_legacy(values, ctx->per_thread)) {
        free(text);
        return;
    }
    char *at = ss_check_where(ctx);
    char *message;
    if (omitted)
        message = ss_xasprintf("'%s' %s has no stream argument: it runs on the legacy default "
                               "stream",
                               api->name, at);
    else
        message = ss_xasprintf("'%s' %s runs on the legacy default stream (stream '%s')", api->name,
                               at, text ? text : "...");
    char *timing = timing_words(ctx, call, api);
    report_legacy(ctx, rule, call, message, omitted ? SS_STREAM_BIT(SS_STREAM_NULL) : values,
                  timing);
    free(timing);
    free(message);
    free(at);
    free(text);
}

/* The kernel's name at a launch: the callee expression's declaration name. */
static char *kernel_name(CXCursor launch)
{
    char *name = ss_scope_kernel_name(launch);
    return name ? name : ss_xstrdup("kernel");
}

/* SYNC101 (checks.def): a k<<<grid, block, shmem, stream>>>(...) launch ('launch'; 'api' is
 * NULL) on the legacy default stream. */
void ss_check_default_stream_launch(ss_check_ctx *ctx, CXCursor launch, const ss_api *api)
{
    CXCursor arg = ss_check_stream_arg(launch, NULL);
    int omitted = ss_ast_is_null(arg) || ss_check_is_omitted(arg);
    unsigned values = SS_STREAM_BIT(SS_STREAM_NULL);
    char *text = NULL;
    if (!omitted) {
        values = ss_stream_values(ctx->function, arg);
        text = ss_expr_text(arg);
    }
    if (!ss_stream_all_legacy(values, ctx->per_thread)) {
        free(text);
        return;
    }
    char *kernel = kernel_name(launch);
    char *at = ss_check_where(ctx);
    char *message;
    if (omitted)
        message = ss_xasprintf("kernel '%s' is launched %s without a stream: it runs on the "
                               "legacy default stream",
                               kernel, at);
    else
        message = ss_xasprintf("kernel '%s' is launched %s on the legacy default stream "
                               "(stream '%s')",
                               kernel, at, text ? text : "...");
    report_legacy(ctx, SS_RULE_DEFAULT_STREAM_LAUNCH, launch, message,
                  omitted ? SS_STREAM_BIT(SS_STREAM_NULL) : values, NULL);
    free(message);
    free(kernel);
    free(at);
    free(text);
}
