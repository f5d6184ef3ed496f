/* project_facts.c: facts one unit records of its functions for the findings of the others (a
 * function that ends by synchronizing the stream it is given), the questions a unit's warnings
 * leave to them, and the project pass that answers them (project_facts.h). */
#include "project_facts.h"
#include "ast.h"
#include "callgraph.h"
#include "common.h"
#include "context_cases.h"
#include "log.h"
#include "scope.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How many statements one function's flow may go through, and how many calls the project pass
 * follows from a question to the wait that answers it. */
enum { FLOW_STATEMENTS = 20000, MAX_HOPS = 8 };

void ss_project_facts_free(ss_project_facts *facts)
{
    if (facts == NULL)
        return;
    for (size_t i = 0; i < facts->end_count; i++) {
        ss_stream_end *e = &facts->ends[i];
        free(e->usr);
        free(e->wait);
        free(e->next);
        free(e->next_name);
    }
    for (size_t i = 0; i < facts->question_count; i++) {
        ss_wait_question *q = &facts->questions[i];
        free(q->file);
        free(q->stream);
        free(q->usr);
        free(q->callee);
    }
    for (size_t i = 0; i < facts->wait_count; i++) {
        free(facts->waits[i].usr);
        free(facts->waits[i].name);
        free(facts->waits[i].wait);
        free(facts->waits[i].work);
        free(facts->waits[i].queued_wait);
        for (size_t k = 0; k < facts->waits[i].other_count; k++)
            free(facts->waits[i].others[k]);
        free(facts->waits[i].others);
    }
    for (size_t i = 0; facts->pending && i < facts->pending->count; i++)
        free(facts->pending_usrs[i]);
    if (facts->pending) {
        ss_result_free(facts->pending);
        free(facts->pending);
    }
    for (size_t i = 0; i < facts->between_count; i++) {
        ss_between_question *b = &facts->between[i];
        free(b->file);
        free(b->words);
        for (size_t k = 0; k < b->usr_count; k++)
            free(b->usrs[k]);
        free(b->usrs);
    }
    ss_project_streams_free(facts);
    ss_project_loops_free(facts);
    ss_project_outputs_free(facts);
    ss_project_foreign_free(facts);
    ss_project_set_up_free(facts);
    ss_project_arrays_free(facts);
    ss_project_switches_free(facts);
    free(facts->between);
    free(facts->ends);
    free(facts->questions);
    free(facts->waits);
    free(facts->pending_usrs);
    free(facts->pending_kinds);
    free(facts);
}

static ss_project_facts *facts_of(ss_check_ctx *ctx)
{
    if (ctx->streams == NULL)
        return NULL;
    if (ctx->streams->facts == NULL)
        ctx->streams->facts = ss_xcalloc(1, sizeof(ss_project_facts));
    return ctx->streams->facts;
}

ss_stream_end *ss_project_add_end(ss_project_facts *facts)
{
    ss_xgrow((void **)&facts->ends, &facts->end_cap, facts->end_count + 1, sizeof *facts->ends);
    ss_stream_end *e = &facts->ends[facts->end_count++];
    memset(e, 0, sizeof *e);
    return e;
}

ss_wait_question *ss_project_add_question(ss_project_facts *facts)
{
    ss_xgrow((void **)&facts->questions, &facts->question_cap, facts->question_count + 1,
             sizeof *facts->questions);
    ss_wait_question *q = &facts->questions[facts->question_count++];
    memset(q, 0, sizeof *q);
    return q;
}

ss_device_wait *ss_project_add_wait(ss_project_facts *facts)
{
    ss_xgrow((void **)&facts->waits, &facts->wait_cap, facts->wait_count + 1, sizeof *facts->waits);
    ss_device_wait *w = &facts->waits[facts->wait_count++];
    memset(w, 0, sizeof *w);
    return w;
}

ss_between_question *ss_project_add_between(ss_project_facts *facts)
{
    ss_xgrow((void **)&facts->between, &facts->between_cap, facts->between_count + 1,
             sizeof *facts->between);
    ss_between_question *b = &facts->between[facts->between_count++];
    memset(b, 0, sizeof *b);
    return b;
}

ss_finding *ss_project_add_pending(ss_project_facts *facts, const char *usr, int kind)
{
    if (facts->pending == NULL) {
        facts->pending = ss_xcalloc(1, sizeof *facts->pending);
        ss_result_init(facts->pending, SS_RESULT_LINT);
    }
    size_t n = facts->pending->count;
    ss_xgrow((void **)&facts->pending_usrs, &facts->pending_cap, n + 1,
             sizeof *facts->pending_usrs);
    ss_xgrow((void **)&facts->pending_kinds, &facts->pending_kind_cap, n + 1,
             sizeof *facts->pending_kinds);
    facts->pending_usrs[n] = ss_xstrdup(usr);
    facts->pending_kinds[n] = kind;
    return ss_result_add(facts->pending);
}

ss_finding *ss_project_add_called(ss_project_facts *facts, const char *usr)
{
    if (facts->called == NULL) {
        facts->called = ss_xcalloc(1, sizeof *facts->called);
        ss_result_init(facts->called, SS_RESULT_LINT);
    }
    size_t n = facts->called->count;
    ss_xgrow((void **)&facts->called_usrs, &facts->called_cap, n + 1, sizeof *facts->called_usrs);
    facts->called_usrs[n] = ss_xstrdup(usr);
    return ss_result_add(facts->called);
}

/* The USR of the function a call or reference names (an instantiation's template), malloc'ed,
 * or NULL. */
static char *function_usr(CXCursor decl)
{
    if (ss_ast_is_null(decl))
        return NULL;
    CXCursor templ = clang_getSpecializedCursorTemplate(decl);
    return ss_ast_usr(ss_ast_is_null(templ) ? decl : templ);
}

/* Whether 'decl' is a function of the project a summary may stand for: declared outside the
 * system headers, not virtual (a call may reach an override), not a constructor, destructor or
 * operator (a value's plumbing, as drained.c takes them). */
static int project_function(CXCursor decl)
{
    enum CXCursorKind k = clang_getCursorKind(decl);
    if (ss_ast_is_null(decl) ||
        (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod && k != CXCursor_FunctionTemplate))
        return 0;
    if (ss_ast_in_system_header(decl) || clang_CXXMethod_isVirtual(decl))
        return 0;
    CXString name = clang_getCursorSpelling(decl);
    int op = strncmp(clang_getCString(name), "operator", 8) == 0;
    clang_disposeString(name);
    return !op;
}

/* Whether a call of the function 'decl' in another unit reaches this definition: it has
 * external linkage, is not inline and is no template, nor a member of one (which each unit
 * that calls it instantiates from what it sees). */
static int callable_elsewhere(CXCursor decl)
{
    if (clang_getCursorKind(decl) == CXCursor_FunctionTemplate ||
        clang_getCursorLinkage(decl) != CXLinkage_External || clang_Cursor_isFunctionInlined(decl))
        return 0;
    CXCursor parent = clang_getCursorSemanticParent(decl);
    enum CXCursorKind k = clang_getCursorKind(parent);
    return k != CXCursor_ClassTemplate && k != CXCursor_ClassTemplatePartialSpecialization &&
           ss_ast_is_null(clang_getSpecializedCursorTemplate(decl));
}

/* ------------------------------------------------------------------------------------------
 * Whether a function leaves its stream parameter idle: the state of the stream followed through
 * the function's statements, the branches of an 'if' joined, a loop run no, one or more
 * times. */

enum { UNREACHED = -1, BUSY = 0, IDLE = 1, NEXT = 2 };

typedef struct stream_state {
    int state;
    CXCursor by;     /* IDLE: the wait; NEXT: the call */
    CXCursor callee; /* NEXT: the function called, given the stream as parameter 'param' */
    unsigned param;
} stream_state;

typedef struct end_flow {
    CXCursor param; /* the stream parameter followed */
    int changed;    /* the function may have stored another stream in it: it is not followed */
    stream_state now, returned;
    long budget;
} end_flow;

static stream_state state_of(int state)
{
    return (stream_state){state, clang_getNullCursor(), clang_getNullCursor(), 0};
}

static stream_state join(stream_state a, stream_state b)
{
    if (a.state == UNREACHED)
        return b;
    if (b.state == UNREACHED)
        return a;
    if (a.state == IDLE && b.state == IDLE)
        return a;
    if (a.state == NEXT && b.state == NEXT && a.param == b.param &&
        clang_equalCursors(clang_getCanonicalCursor(a.callee), clang_getCanonicalCursor(b.callee)))
        return a;
    return state_of(BUSY);
}

/* The index of the argument of 'call' that names the parameter 'param' itself, or -1. */
static int argument_naming(CXCursor call, CXCursor param)
{
    int n = clang_Cursor_getNumArguments(call);
    for (int i = 0; i < n; i++) {
        CXCursor arg = ss_ast_strip(clang_Cursor_getArgument(call, (unsigned)i));
        if (clang_getCursorKind(arg) == CXCursor_DeclRefExpr &&
            clang_equalCursors(clang_getCursorReferenced(arg), param))
            return i;
    }
    return -1;
}

static void call_flow(end_flow *f, CXCursor call)
{
    if (f->now.state == UNREACHED)
        return;
    if (ss_scope_is_launch(call)) {
        f->now = state_of(BUSY);
        return;
    }
    const ss_api *api = ss_scope_callee_api(call);
    int arg = f->changed ? -1 : argument_naming(call, f->param);
    if (api) {
        int waits = api->klass == SS_CLASS_DEVICE_SYNC;
        if (api->klass == SS_CLASS_STREAM_SYNC && api->stream_arg >= 0)
            waits = arg >= 0 && arg == api->stream_arg;
        if (waits)
            f->now = (stream_state){IDLE, call, clang_getNullCursor(), 0};
        else if (ss_api_enqueues(api) && api->klass != SS_CLASS_EVENT_RECORD)
            f->now = state_of(BUSY);
        return;
    }
    CXCursor decl = clang_getCursorReferenced(call);
    if (arg >= 0 && project_function(decl))
        f->now = (stream_state){NEXT, call, decl, (unsigned)arg};
    else if (ss_context_library_enqueues(call))
        f->now = state_of(BUSY);
}

static void stmt_flow(end_flow *f, CXCursor s);

/* Whether the expression 'e' may change the parameter 'param': an assignment to it ('s = t',
 * 's += 1'), or its address taken ('&s'). */
static int writes_param(CXCursor e, CXCursor param)
{
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k != CXCursor_BinaryOperator && k != CXCursor_CompoundAssignOperator &&
        k != CXCursor_UnaryOperator)
        return 0;
    CXCursor operand = ss_ast_strip(ss_ast_child(e, 0));
    if (clang_getCursorKind(operand) != CXCursor_DeclRefExpr ||
        !clang_equalCursors(clang_getCursorReferenced(operand), param))
        return 0;
    char op[8] = "";
    if (k == CXCursor_UnaryOperator) {
        /* The first token: '&' takes the address ('++s' and the like change it too). */
        CXToken *tokens = NULL;
        unsigned count = 0;
        clang_tokenize(clang_Cursor_getTranslationUnit(e), clang_getCursorExtent(e), &tokens,
                       &count);
        if (count > 0) {
            CXString spelled =
                clang_getTokenSpelling(clang_Cursor_getTranslationUnit(e), tokens[0]);
            snprintf(op, sizeof op, "%s", clang_getCString(spelled));
            clang_disposeString(spelled);
        }
        clang_disposeTokens(clang_Cursor_getTranslationUnit(e), tokens, count);
        return strcmp(op, "&") == 0 || strcmp(op, "++") == 0 || strcmp(op, "--") == 0;
    }
    return k == CXCursor_CompoundAssignOperator ||
           (ss_ast_binary_op(e, op, sizeof op) == 0 && strcmp(op, "=") == 0);
}

/* Whether 'k' is a statement that stmt_flow follows (a block, a branch, a loop, a way out). */
static int structured(enum CXCursorKind k)
{
    switch (k) {
    case CXCursor_CompoundStmt:
    case CXCursor_IfStmt:
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_CXXForRangeStmt:
    case CXCursor_DoStmt:
    case CXCursor_ReturnStmt:
    case CXCursor_SwitchStmt:
    case CXCursor_CXXTryStmt:
    case CXCursor_GotoStmt:
    case CXCursor_BreakStmt:
    case CXCursor_ContinueStmt:
        return 1;
    default:
        return 0;
    }
}

static void statement_flow(CXCursor s, void *data)
{
    stmt_flow(data, s);
}

static void node_flow(CXCursor c, void *data)
{
    end_flow *f = data;
    if (clang_getCursorKind(c) == CXCursor_CallExpr)
        call_flow(f, c);
    else if (writes_param(c, f->param))
        f->changed = 1; /* the parameter may hold another stream from here on */
}

/* The expression 'e': its calls and writes in the order they run, a statement inside it
 * followed as one. */
static void expr_flow(end_flow *f, CXCursor e)
{
    ss_ast_run_walk walk = {structured, statement_flow, node_flow, f};
    ss_ast_run_order(e, &walk);
}

/* Each child of 's' in turn, as expr_flow. */
static void children_flow(end_flow *f, CXCursor s)
{
    ss_ast_run_walk walk = {structured, statement_flow, node_flow, f};
    ss_ast_run_order_children(s, &walk);
}

/* A loop: its parts (a for's init, condition and increment, its body; a do-while's body and
 * condition) run no, one or more times ('at_least_once': one or more), each pass from the state
 * before the loop or after the pass before. */
static void loop_flow(end_flow *f, CXCursor s, int at_least_once)
{
    stream_state in = f->now, out = at_least_once ? state_of(UNREACHED) : in;
    for (int pass = 0; pass < 2; pass++) {
        for (unsigned i = 0, n = ss_ast_child_count(s); i < n; i++)
            stmt_flow(f, ss_ast_child(s, i));
        out = join(out, f->now);
        f->now = join(in, f->now);
    }
    f->now = out;
}

static void if_flow(end_flow *f, CXCursor s)
{
    unsigned n = ss_ast_child_count(s), cond = ss_ast_if_condition(s);
    for (unsigned i = 0; i < cond; i++)
        stmt_flow(f, ss_ast_child(s, i)); /* an init-statement or condition variable */
    if (cond >= n)
        return;
    expr_flow(f, ss_ast_child(s, cond));
    stream_state before = f->now;
    if (cond + 1 < n)
        stmt_flow(f, ss_ast_child(s, cond + 1));
    stream_state taken = f->now;
    f->now = before;
    if (cond + 2 < n)
        stmt_flow(f, ss_ast_child(s, cond + 2));
    f->now = join(taken, f->now);
}

static void stmt_flow(end_flow *f, CXCursor s)
{
    if (--f->budget < 0) {
        f->now = state_of(BUSY);
        return;
    }
    switch (clang_getCursorKind(s)) {
    case CXCursor_CompoundStmt:
        for (unsigned i = 0, n = ss_ast_child_count(s); i < n; i++)
            stmt_flow(f, ss_ast_child(s, i));
        return;
    case CXCursor_IfStmt:
        if_flow(f, s);
        return;
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_CXXForRangeStmt:
        loop_flow(f, s, 0);
        return;
    case CXCursor_DoStmt:
        if (ss_ast_do_once(s))
            stmt_flow(f, ss_ast_child(s, 0));
        else
            loop_flow(f, s, 1);
        return;
    case CXCursor_ReturnStmt:
        children_flow(f, s);
        f->returned = join(f->returned, f->now);
        f->now = state_of(UNREACHED);
        return;
    case CXCursor_BreakStmt:
    case CXCursor_ContinueStmt:
        f->now = state_of(BUSY); /* the state after it is not followed */
        return;
    case CXCursor_SwitchStmt:
    case CXCursor_CXXTryStmt:
    case CXCursor_GotoStmt:
        /* Ways that this flow does not follow: nothing is known past them. */
        children_flow(f, s);
        f->now = state_of(BUSY);
        f->returned = join(f->returned, state_of(BUSY));
        return;
    default:
        expr_flow(f, s);
        return;
    }
}

/* ------------------------------------------------------------------------------------------
 * The unit's functions that leave a stream parameter idle. */

/* "'cudaStreamSynchronize' at kernels.cu:394" for the wait 'call', malloc'ed. */
static char *wait_words(CXCursor call)
{
    char *name = ss_scope_callee_name(call);
    char *place = ss_callgraph_place(call);
    char *words = ss_xasprintf("'%s' at %s", name ? name : "?", place);
    free(name);
    free(place);
    return words;
}

/* Follows the stream parameter 'param' (the 'index'-th) through 'body', the definition of the
 * function 'usr', and records it when every way out leaves the stream idle. */
static void summarize_param(ss_project_facts *facts, const char *usr, CXCursor body, CXCursor param,
                            unsigned index)
{
    end_flow f = {param, 0, state_of(BUSY), state_of(UNREACHED), FLOW_STATEMENTS};
    stmt_flow(&f, body);
    stream_state out = join(f.now, f.returned);
    if (out.state != IDLE && out.state != NEXT)
        return;
    char *next = out.state == NEXT ? function_usr(out.callee) : NULL;
    if (out.state == NEXT && next == NULL)
        return;
    ss_stream_end *e = ss_project_add_end(facts);
    e->usr = ss_xstrdup(usr);
    e->param = index;
    if (out.state == IDLE) {
        e->wait = wait_words(out.by);
        return;
    }
    e->next = next;
    e->next_param = out.param;
    char *name = ss_qualified_name(out.callee);
    char *place = ss_callgraph_place(out.by);
    e->next_name = ss_xasprintf("'%s()' at %s", name ? name : "?", place);
    free(name);
    free(place);
}

/* The function definition 'fn': each of its stream parameters. */
static void summarize_function(ss_project_facts *facts, CXCursor fn)
{
    unsigned n = ss_ast_child_count(fn);
    CXCursor body = n ? ss_ast_child(fn, n - 1) : clang_getNullCursor();
    if (clang_getCursorKind(body) != CXCursor_CompoundStmt)
        return;
    char *usr = NULL;
    unsigned index = 0;
    for (unsigned i = 0; i < n; i++) {
        CXCursor c = ss_ast_child(fn, i);
        if (clang_getCursorKind(c) != CXCursor_ParmDecl)
            continue;
        if (ss_check_is_stream_type(clang_getCursorType(c))) {
            if (usr == NULL)
                usr = function_usr(fn);
            if (usr)
                summarize_param(facts, usr, body, c, index);
        }
        index++;
    }
    free(usr);
}

/* The names of the waits for the whole device. */
static const char *const device_waits[] = {"cudaDeviceSynchronize", "cuCtxSynchronize",
                                           "cudaThreadSynchronize"};

/* Whether 'a' begins before 'b' in the same file. */
static int begins_before(CXCursor a, CXCursor b)
{
    CXFile file_a, file_b;
    unsigned offset_a, offset_b;
    clang_getSpellingLocation(clang_getCursorLocation(a), &file_a, NULL, NULL, &offset_a);
    clang_getSpellingLocation(clang_getCursorLocation(b), &file_b, NULL, NULL, &offset_b);
    return file_a && file_b && clang_File_isEqual(file_a, file_b) && offset_a < offset_b;
}

/* "kernel 'mirror' launched at edges.cu:8" or "'cudaMemsetAsync' at edges.cu:8" for the first
 * device work in the body 'body' (SS_SCOPE_DEVICE_WORK) where it comes before 'wait' (the wait
 * that finds work queued, or the body's call on the way to it), or NULL where none does there
 * itself (the work of its calls is not named). */
static char *first_work_words(CXCursor body, CXCursor wait)
{
    CXCursor first = clang_getNullCursor();
    if (ss_ast_is_null(wait) || !ss_scope_has_work(body, SS_SCOPE_DEVICE_WORK, &first) ||
        ss_ast_is_null(first) || !begins_before(first, wait))
        return NULL;
    int launch = ss_scope_is_launch(first);
    char *name = launch ? ss_scope_kernel_name(first) : ss_scope_callee_name(first);
    char *place = ss_callgraph_place(first);
    char *words = launch ? ss_xasprintf("kernel '%s' launched at %s", name ? name : "...", place)
                         : ss_xasprintf("'%s' at %s", name ? name : "a call", place);
    free(name);
    free(place);
    return words;
}

/* The function definition 'fn': recorded when another unit may call it and every way out of
 * it leaves the device drained by a wait for the whole device (ss_context_ends_drained), with
 * whether it does nothing else on the device (only) and whether, run from a drained device, a
 * wait of it finds work queued (queues). Only a function that calls such a wait, itself or two
 * calls down, is followed. */
static void summarize_wait(ss_check_ctx *ctx, ss_project_facts *facts, CXCursor fn)
{
    unsigned n = ss_ast_child_count(fn);
    CXCursor body = n ? ss_ast_child(fn, n - 1) : clang_getNullCursor(), found;
    if (clang_getCursorKind(body) != CXCursor_CompoundStmt || !callable_elsewhere(fn) ||
        !ss_callgraph_calls_named(ss_check_graph(ctx), body, device_waits,
                                  sizeof device_waits / sizeof *device_waits, &found))
        return;
    CXCursor by = ss_context_ends_drained(ctx, fn);
    char *usr = ss_ast_is_null(by) ? NULL : function_usr(fn);
    if (usr == NULL)
        return;
    ss_device_wait *w = ss_project_add_wait(facts);
    w->usr = usr;
    w->only = 1;
    for (unsigned i = 0; i < ss_ast_child_count(body) && w->only; i++)
        w->only = !ss_context_queues_work(ss_check_graph(ctx), ss_ast_child(body, i));
    CXCursor queued_at, from;
    ss_assumed_waits others;
    memset(&others, 0, sizeof others);
    int queues = ss_context_waits_own_work(ctx, fn, &queued_at, &from, &others);
    w->queues = queues == 2;
    w->others = others.usrs;
    w->other_count = others.count;
    if (queues) {
        w->queued_wait = wait_words(ss_ast_is_null(queued_at) ? by : queued_at);
        w->work = first_work_words(body, from);
    }
    char *name = ss_qualified_name(fn);
    char *place = ss_callgraph_place(fn);
    w->name = ss_xasprintf("'%s()', defined in %s", name ? name : "?", place);
    w->wait = wait_words(by);
    free(name);
    free(place);
}

typedef struct definition_walk {
    ss_check_ctx *ctx;
    ss_project_facts *facts;
} definition_walk;

static enum CXChildVisitResult find_definitions(CXCursor c, CXCursor parent, CXClientData data)
{
    definition_walk *w = data;
    if (ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    if (ss_ast_opens_scope(c))
        return CXChildVisit_Recurse;
    switch (clang_getCursorKind(c)) {
    case CXCursor_FunctionDecl:
    case CXCursor_CXXMethod:
    case CXCursor_FunctionTemplate:
        if (clang_isCursorDefinition(c) && project_function(c) && !ss_ast_is_device_only(c)) {
            summarize_function(w->facts, c);
            summarize_wait(w->ctx, w->facts, c);
        }
        return CXChildVisit_Continue;
    default:
        return CXChildVisit_Continue;
    }
}

void ss_project_summarize(ss_check_ctx *ctx)
{
    definition_walk w = {ctx, facts_of(ctx)};
    if (w.facts == NULL)
        return;
    clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_definitions, &w);
    ss_project_record_args(ctx, w.facts);
    ss_project_record_outputs(ctx, w.facts);
    w.facts->streams_block = !w.facts->unjudged && ss_context_streams_block(ctx);
    ss_project_summarize_foreign(ctx, w.facts);
    ss_project_record_set_up_calls(ctx, w.facts);
    ss_project_record_array_outs(ctx, w.facts);
    ss_project_record_switches(ctx, w.facts);
    ss_stream_params_free(ctx->stream_params);
    ctx->stream_params = NULL;
}

/* ------------------------------------------------------------------------------------------
 * A call of a function that another unit may define as a wait for the whole device. */

char *ss_project_function_usr(CXCursor decl)
{
    if (clang_getCursorKind(decl) == CXCursor_Constructor)
        return ss_ast_in_system_header(decl) ? NULL : function_usr(decl);
    return project_function(decl) ? function_usr(decl) : NULL;
}

char *ss_project_stream_param_usr(CXCursor decl)
{
    enum CXCursorKind k = clang_getCursorKind(decl);
    if ((k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod) || !project_function(decl) ||
        !callable_elsewhere(decl))
        return NULL;
    return function_usr(decl);
}

char *ss_project_declared_only(CXCursor call)
{
    if (clang_getCursorKind(call) != CXCursor_CallExpr || ss_scope_is_launch(call))
        return NULL;
    CXCursor decl = clang_getCursorReferenced(call);
    enum CXCursorKind k = clang_getCursorKind(decl);
    if ((k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod) || !project_function(decl) ||
        !callable_elsewhere(decl) || !ss_ast_is_null(clang_getCursorDefinition(decl)))
        return NULL;
    return function_usr(decl);
}

/* The finding a call of cudaDeviceSynchronize (named 'name') would make at 'call', with
 * ctx->wait_after_work set to 'after_work', into 'aside' (empty, made by the caller). */
static void wait_aside(ss_check_ctx *ctx, CXCursor call, const ss_api *wait, char *name,
                       int after_work, ss_result *aside)
{
    ss_api as_wait = *wait;
    as_wait.name = name;
    ss_result *result = ctx->result;
    ctx->result = aside;
    ctx->wait_after_work = after_work;
    ss_check_sync_in_loop(ctx, call, &as_wait);
    ctx->wait_after_work = 0;
    ctx->result = result;
}

/* Moves the one finding of 'aside', if it has one, to the unit's pending findings. */
static void keep_pending(ss_check_ctx *ctx, ss_result *aside, const char *usr, int kind)
{
    if (aside->count == 1) {
        ss_finding *f = ss_project_add_pending(facts_of(ctx), usr, kind);
        *f = aside->findings[0];
        memset(&aside->findings[0], 0, sizeof aside->findings[0]);
    }
}

void ss_check_wrapper_wait(ss_check_ctx *ctx, CXCursor call, const ss_api *api)
{
    if (api || ctx->streams == NULL || ss_ast_is_null(ctx->function))
        return;
    ss_project_record_loop_call(ctx, call);
    char *usr = ss_project_declared_only(call);
    if (usr == NULL)
        return;
    const ss_api *wait = ss_api_find(device_waits[0]);
    char *name = ss_qualified_name(clang_getCursorReferenced(call));
    if (wait == NULL || name == NULL) {
        free(name);
        free(usr);
        return;
    }
    /* The finding a call of cudaDeviceSynchronize would make here, under the function's name,
     * kept aside rather than reported. A note may rest on the device's state at the call
     * ("drained"), which says nothing of the function's wait where the function queues work
     * before it: the finding is then kept aside twice, the second made without such words, and
     * the project pass takes the one the function's summary calls for. */
    ss_result plain, queues;
    ss_result_init(&plain, SS_RESULT_LINT);
    ss_result_init(&queues, SS_RESULT_LINT);
    wait_aside(ctx, call, wait, name, 0, &plain);
    if (plain.count == 1 && plain.findings[0].severity == SS_SEV_NOTE)
        wait_aside(ctx, call, wait, name, 1, &queues);
    int same = queues.count == 0 ||
               (queues.count == 1 && queues.findings[0].severity == plain.findings[0].severity &&
                strcmp(queues.findings[0].message, plain.findings[0].message) == 0);
    keep_pending(ctx, &plain, usr, same ? SS_PENDING_ANY : SS_PENDING_PLAIN);
    if (!same)
        keep_pending(ctx, &queues, usr, SS_PENDING_QUEUES);
    ss_result_free(&plain);
    ss_result_free(&queues);
    free(name);
    free(usr);
}

/* ------------------------------------------------------------------------------------------
 * A wait right after a call given the stream. */

/* The calls in a statement: the project function given the stream 'stream' (as written), and
 * whether any other call may queue work. */
typedef struct given_walk {
    const char *stream;
    CXCursor call; /* the call given the stream */
    int arg;
    int other; /* another call that may queue work, or a second call given the stream */
} given_walk;

static enum CXChildVisitResult find_given(CXCursor c, CXCursor parent, CXClientData data)
{
    given_walk *w = data;
    if (clang_getCursorKind(c) == CXCursor_LambdaExpr) {
        w->other = 1;
        return CXChildVisit_Break;
    }
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    int given = -1;
    for (int i = 0, n = clang_Cursor_getNumArguments(c); api == NULL && i < n && given < 0; i++) {
        char *text = ss_expr_text(clang_Cursor_getArgument(c, (unsigned)i));
        if (text && strcmp(text, w->stream) == 0)
            given = i;
        free(text);
    }
    if (given >= 0 && ss_ast_is_null(w->call) && project_function(clang_getCursorReferenced(c))) {
        w->call = c;
        w->arg = given;
    } else if (ss_scope_is_launch(c) || (api && ss_api_enqueues(api)) ||
               (api == NULL && ss_context_library_enqueues(c))) {
        w->other = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static enum CXChildVisitResult find_any_call(CXCursor c, CXCursor parent, CXClientData data)
{
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    *(int *)data = 1;
    return CXChildVisit_Break;
}

static int has_call(CXCursor stmt)
{
    int found = clang_getCursorKind(stmt) == CXCursor_CallExpr;
    if (!found)
        clang_visitChildren(stmt, find_any_call, &found);
    return found;
}

/* The call of a project function given 'stream' that the statement holding 'at' follows in its
 * block (the innermost one written '{ ... }'), with only declarations without calls between; a
 * null cursor when there is none. '*arg' receives the argument the stream is. */
static CXCursor call_before(ss_check_ctx *ctx, CXCursor at, const char *stream, int *arg)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(ss_scope_outer_function(ctx->function), at, path);
    CXCursor call = clang_getNullCursor();
    long block = found - 1;
    while (block >= 0 && !(clang_getCursorKind(path[block]) == CXCursor_CompoundStmt &&
                           ss_ast_written_as(path[block], "{")))
        block--;
    CXCursor holder = block >= 0 && block + 1 < found ? path[block + 1] : at;
    unsigned index = UINT_MAX;
    for (unsigned c = 0, n = block >= 0 ? ss_ast_child_count(path[block]) : 0; c < n; c++) {
        if (ss_ast_same_node(ss_ast_child(path[block], c), holder))
            index = c;
    }
    for (unsigned c = index; c-- > 0 && index != UINT_MAX;) {
        CXCursor before = ss_ast_child(path[block], c);
        /* A declaration without calls cannot queue work or change the stream. */
        if (clang_getCursorKind(before) == CXCursor_DeclStmt && !has_call(before))
            continue;
        given_walk w = {stream, clang_getNullCursor(), -1, 0};
        ss_ast_visit_whole(before, before, find_given, &w);
        if (!w.other && !ss_ast_is_null(w.call)) {
            call = w.call;
            *arg = w.arg;
        }
        break;
    }
    free(path);
    return call;
}

void ss_project_ask(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const ss_finding *f)
{
    if (rule != SS_RULE_SYNC_IN_LOOP || f->severity != SS_SEV_WARNING || f->file == NULL ||
        ctx->streams == NULL || ss_ast_is_null(ctx->function))
        return;
    const ss_api *api = ss_scope_callee_api(at);
    if (api == NULL || api->klass != SS_CLASS_STREAM_SYNC || api->stream_arg < 0 ||
        clang_Cursor_getNumArguments(at) <= api->stream_arg)
        return;
    /* The stream as written, the same at both calls: no call in it ('ctx->stream()'). */
    CXCursor written = clang_Cursor_getArgument(at, (unsigned)api->stream_arg);
    char *stream = has_call(written) ? NULL : ss_expr_text(written);
    int arg = -1;
    CXCursor call = stream ? call_before(ctx, at, stream, &arg) : clang_getNullCursor();
    char *usr = ss_ast_is_null(call) ? NULL : function_usr(clang_getCursorReferenced(call));
    if (usr == NULL) {
        free(stream);
        return;
    }
    ss_wait_question *q = ss_project_add_question(facts_of(ctx));
    q->file = ss_xstrdup(f->file);
    q->line = f->line;
    q->column = f->column;
    q->rule = rule;
    q->stream = stream;
    q->usr = usr;
    q->param = (unsigned)arg;
    char *name = ss_qualified_name(clang_getCursorReferenced(call));
    q->callee = ss_xasprintf("'%s()' at line %u", name ? name : "?", ss_scope_line(call));
    free(name);
}

void ss_project_ask_between(ss_check_ctx *ctx, ss_rule_id rule, const ss_finding *f,
                            const char *words, ss_assumed_waits *assumed)
{
    ss_project_facts *facts = facts_of(ctx);
    if (facts == NULL || f->severity != SS_SEV_WARNING || f->file == NULL || assumed->count == 0) {
        ss_assumed_waits_free(assumed);
        return;
    }
    ss_between_question *b = ss_project_add_between(facts);
    b->file = ss_xstrdup(f->file);
    b->line = f->line;
    b->column = f->column;
    b->rule = rule;
    b->words = ss_xstrdup(words);
    b->usrs = assumed->usrs;
    b->usr_count = assumed->count;
    memset(assumed, 0, sizeof *assumed);
}

/* ------------------------------------------------------------------------------------------
 * The project pass. */

/* The facts of all units about the function 'usr' and its parameter 'param' (the first unit's
 * that has them), or NULL. */
static const ss_stream_end *find_end(ss_project_facts *const *facts, size_t count, const char *usr,
                                     unsigned param)
{
    for (size_t u = 0; u < count; u++) {
        for (size_t i = 0; facts[u] && i < facts[u]->end_count; i++) {
            const ss_stream_end *e = &facts[u]->ends[i];
            if (e->param == param && strcmp(e->usr, usr) == 0)
                return e;
        }
    }
    return NULL;
}

/* The words of the wait that the function 'usr' ends with on parameter 'param', through the
 * calls it ends with ("'cudaStreamSynchronize' at k.cu:394, through 'launch()' at p.cpp:120"),
 * malloc'ed, or NULL when the facts do not show one. */
static char *resolve(ss_project_facts *const *facts, size_t count, const char *usr, unsigned param)
{
    char *through = NULL;
    for (int hop = 0; hop < MAX_HOPS; hop++) {
        const ss_stream_end *e = find_end(facts, count, usr, param);
        if (e == NULL)
            break;
        if (e->wait) {
            char *words =
                through ? ss_xasprintf("%s, through %s", e->wait, through) : ss_xstrdup(e->wait);
            free(through);
            return words;
        }
        char *longer =
            through ? ss_xasprintf("%s and %s", through, e->next_name) : ss_xstrdup(e->next_name);
        free(through);
        through = longer;
        usr = e->next;
        param = e->next_param;
    }
    free(through);
    return NULL;
}

/* The summary of the function 'usr' as a wait for the whole device (the first unit's that has
 * one), or NULL. */
static const ss_device_wait *find_wait(ss_project_facts *const *facts, size_t count,
                                       const char *usr)
{
    for (size_t u = 0; u < count; u++) {
        for (size_t i = 0; facts[u] && i < facts[u]->wait_count; i++) {
            if (strcmp(facts[u]->waits[i].usr, usr) == 0)
                return &facts[u]->waits[i];
        }
    }
    return NULL;
}

ss_finding *ss_project_find_finding(ss_result *r, ss_rule_id rule, const char *file, unsigned line,
                                    unsigned column)
{
    ss_finding *first = NULL;
    for (size_t i = 0; i < r->count; i++) {
        ss_finding *f = &r->findings[i];
        if (f->rule == rule && f->line == line && f->column == column && f->file &&
            strcmp(f->file, file) == 0) {
            if (f->severity == SS_SEV_WARNING)
                return f;
            if (first == NULL)
                first = f;
        }
    }
    return first;
}

/* Each warning between two waits whose functions are all waits for the whole device: a note. */
static void apply_between(ss_project_facts *const *facts, ss_result *const *results, size_t count)
{
    for (size_t u = 0; u < count; u++) {
        for (size_t i = 0; facts[u] && results[u] && i < facts[u]->between_count; i++) {
            const ss_between_question *b = &facts[u]->between[i];
            ss_finding *f =
                ss_project_find_finding(results[u], b->rule, b->file, b->line, b->column);
            size_t known = 0;
            while (known < b->usr_count && find_wait(facts, count, b->usrs[known]))
                known++;
            if (f == NULL || f->severity != SS_SEV_WARNING || known < b->usr_count)
                continue;
            char *message = ss_xasprintf("%s; %s", f->message, b->words);
            for (size_t k = 0; k < b->usr_count; k++) {
                const ss_device_wait *w = find_wait(facts, count, b->usrs[k]);
                char *longer = ss_xasprintf("%s%s%s, waits for the whole device (%s)%s", message,
                                            k ? "; " : " (", w->name, w->wait,
                                            k + 1 == b->usr_count ? ")" : "");
                free(message);
                message = longer;
            }
            free(f->message);
            f->message = message;
            f->severity = SS_SEV_NOTE;
        }
    }
}

ss_finding *ss_project_add_copy(ss_result *r, const ss_finding *from, const char *more)
{
    ss_finding *f = ss_result_add(r);
    f->rule = from->rule;
    f->severity = from->severity;
    f->origin = from->origin;
    f->file = ss_xstrdup(from->file);
    f->line = from->line;
    f->column = from->column;
    f->function = ss_xstrdup(from->function);
    f->message = ss_xasprintf("%s%s", from->message, more);
    f->hint = ss_xstrdup(from->hint);
    f->line_text = ss_xstrdup(from->line_text);
    f->macro = ss_xstrdup(from->macro);
    f->macro_line = from->macro_line;
    f->macro_column = from->macro_column;
    f->unshown = ss_xstrdup(from->unshown);
    return f;
}

/* Whether the summary 'w' queues work before a wait of it: by itself, or through a call of
 * another unit's function that, by the summaries, may queue work (ss_project_foreign_keeps). */
static int queues_work(ss_project_facts *const *facts, size_t count, const ss_device_wait *w)
{
    if (w->queues)
        return 1;
    for (size_t k = 0; k < w->other_count; k++) {
        if (!ss_project_foreign_keeps(facts, count, w->others[k]))
            return 1;
    }
    return 0;
}

/* The summary of 'usr' as a wait for the whole device that queues work before its wait, by any
 * unit's (where several define it, the weakest answers), or NULL. */
static const ss_device_wait *find_queuing(ss_project_facts *const *facts, size_t count,
                                          const char *usr)
{
    for (size_t u = 0; u < count; u++) {
        for (size_t i = 0; facts[u] && i < facts[u]->wait_count; i++) {
            const ss_device_wait *w = &facts[u]->waits[i];
            if (strcmp(w->usr, usr) == 0 && queues_work(facts, count, w))
                return w;
        }
    }
    return NULL;
}

/* The words a pending finding ends with: the function 'w' and its wait; where it queues work
 * first (a summary that says so, 'queuing', which then names them), the first wait that finds
 * work and that work. Malloc'ed. */
static char *through_words(const ss_device_wait *w, const ss_device_wait *queuing)
{
    if (queuing == NULL)
        return ss_xasprintf("; through %s, which waits for the whole device (%s)", w->name,
                            w->wait);
    w = queuing;
    const char *wait = w->queued_wait ? w->queued_wait : w->wait;
    if (w->work == NULL)
        return ss_xasprintf("; through %s, which waits for the whole device (%s) where work "
                            "may be queued by then (through its calls, or on a device it "
                            "switches to): that wait may wait for it, whatever was drained "
                            "before the call",
                            w->name, wait);
    return ss_xasprintf("; through %s, which waits for the whole device (%s) after queuing "
                        "work of its own (%s): that wait waits for it, whatever was drained "
                        "before the call",
                        w->name, wait, w->work);
}

/* Each pending finding of the units whose function is a wait for the whole device: the form
 * made for a function that queues work before its wait where one does (its questions across
 * units, which rest on the device's state at the call, dropped), else the other. */
static void apply_waits(ss_project_facts *const *facts, ss_result *const *results, size_t count)
{
    for (size_t u = 0; u < count; u++) {
        const ss_result *pending = facts[u] && results[u] ? facts[u]->pending : NULL;
        for (size_t i = 0; pending && i < pending->count; i++) {
            const ss_device_wait *w = find_wait(facts, count, facts[u]->pending_usrs[i]);
            if (w == NULL)
                continue;
            const ss_device_wait *queuing = find_queuing(facts, count, facts[u]->pending_usrs[i]);
            int kind = facts[u]->pending_kinds[i];
            if (kind != SS_PENDING_ANY && (kind == SS_PENDING_QUEUES) != (queuing != NULL))
                continue;
            const ss_finding *from = &pending->findings[i];
            if (queuing)
                ss_project_foreign_forget(facts[u], from->rule, from->file, from->line,
                                          from->column);
            char *more = through_words(w, queuing);
            ss_project_add_copy(results[u], from, more);
            free(more);
        }
    }
}

const ss_device_wait *ss_project_device_wait(ss_project_facts *const *facts, size_t count,
                                             const char *usr)
{
    return find_wait(facts, count, usr);
}

void ss_project_apply(ss_project_facts *const *facts, ss_result *const *results, size_t count,
                      unsigned scope)
{
    ss_project_apply_loops(facts, results, count, scope);
    apply_waits(facts, results, count);
    apply_between(facts, results, count);
    ss_project_apply_params(facts, results, count, scope);
    ss_project_apply_foreign(facts, results, count, scope);
    ss_project_apply_set_up(facts, results, count, scope);
    ss_project_apply_arrays(facts, results, count);
    ss_project_apply_switches(facts, results, count, scope);
    for (size_t u = 0; u < count; u++) {
        for (size_t i = 0; facts[u] && results[u] && i < facts[u]->question_count; i++) {
            const ss_wait_question *q = &facts[u]->questions[i];
            ss_finding *f =
                ss_project_find_finding(results[u], q->rule, q->file, q->line, q->column);
            if (f == NULL || f->severity != SS_SEV_WARNING)
                continue;
            char *wait = resolve(facts, count, q->usr, q->param);
            if (wait == NULL)
                continue;
            char *message = ss_xasprintf(
                "%s; idle: the stream '%s' has nothing queued: %s ends by waiting for it (%s) "
                "and nothing is queued since, so the wait has nothing to wait for",
                f->message, q->stream, q->callee, wait);
            free(wait);
            free(f->message);
            f->message = message;
            f->severity = SS_SEV_NOTE;
        }
    }
}
