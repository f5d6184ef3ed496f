/* project_streams.c: the streams the calls of the project give a stream parameter of a function
 * another unit may call (project_facts.h). A unit whose only other streams are such parameters
 * asks; the project pass makes its legacy-stream warnings notes where every call in the project
 * gives those parameters the legacy stream. */
#include "ast.h"
#include "callgraph.h"
#include "common.h"
#include "context_cases.h"
#include "log.h"
#include "project_facts.h"
#include "scope.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* How many parameters passed on the project pass follows. */
enum { MAX_PASSES = 4 };

void ss_stream_params_free(ss_stream_params *p)
{
    if (p == NULL)
        return;
    for (size_t i = 0; i < p->count; i++) {
        free(p->usrs[i]);
        free(p->names[i]);
    }
    free(p->usrs);
    free(p->names);
    free(p->params);
    free(p);
}

void ss_stream_params_add(ss_stream_params **pp, const char *usr, unsigned param, const char *name)
{
    if (*pp == NULL)
        *pp = ss_xcalloc(1, sizeof **pp);
    ss_stream_params *p = *pp;
    for (size_t i = 0; i < p->count; i++) {
        if (p->params[i] == param && strcmp(p->usrs[i], usr) == 0)
            return;
    }
    if (p->count == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 4;
        p->usrs = ss_xreallocarray(p->usrs, p->cap, sizeof *p->usrs);
        p->names = ss_xreallocarray(p->names, p->cap, sizeof *p->names);
        p->params = ss_xreallocarray(p->params, p->cap, sizeof *p->params);
    }
    p->usrs[p->count] = ss_xstrdup(usr);
    p->names[p->count] = ss_xstrdup(name);
    p->params[p->count++] = param;
}

void ss_stream_params_truncate(ss_stream_params *p, size_t count)
{
    while (p && p->count > count) {
        p->count--;
        free(p->usrs[p->count]);
        free(p->names[p->count]);
    }
}

void ss_project_streams_free(ss_project_facts *facts)
{
    for (size_t i = 0; i < facts->arg_count; i++) {
        free(facts->args[i].usr);
        free(facts->args[i].via);
        free(facts->args[i].drain);
        for (size_t k = 0; k < facts->args[i].after_count; k++)
            free(facts->args[i].after[k]);
        free(facts->args[i].after);
    }
    for (size_t i = 0; i < facts->working_count; i++)
        free(facts->working[i]);
    free(facts->working);
    for (size_t i = 0; i < facts->cross_count; i++) {
        free(facts->crosses[i].from);
        free(facts->crosses[i].to);
    }
    free(facts->crosses);
    for (size_t i = 0; i < facts->param_question_count; i++) {
        ss_param_question *q = &facts->param_questions[i];
        free(q->file);
        free(q->words);
        ss_stream_params_free(q->params);
    }
    free(facts->args);
    free(facts->param_questions);
    for (size_t i = 0; i < facts->closed_count; i++)
        free(facts->closed[i]);
    free(facts->closed);
}

ss_stream_arg *ss_project_add_arg(ss_project_facts *facts)
{
    ss_xgrow((void **)&facts->args, &facts->arg_cap, facts->arg_count + 1, sizeof *facts->args);
    ss_stream_arg *a = &facts->args[facts->arg_count++];
    memset(a, 0, sizeof *a);
    return a;
}

ss_param_question *ss_project_add_param_question(ss_project_facts *facts)
{
    ss_xgrow((void **)&facts->param_questions, &facts->param_question_cap,
             facts->param_question_count + 1, sizeof *facts->param_questions);
    ss_param_question *q = &facts->param_questions[facts->param_question_count++];
    memset(q, 0, sizeof *q);
    return q;
}

/* ------------------------------------------------------------------------------------------
 * What the unit's calls give the stream parameters of the project's functions. */

/* The default argument of the parameter 'index' of the function 'decl' as one of its
 * declarations the unit sees writes it (a header's 'cudaStream_t stm = NULL'), or a null
 * cursor. */
static CXCursor default_argument(CXCursor decl, unsigned index)
{
    CXCursor decls[2] = {decl, clang_getCanonicalCursor(decl)};
    for (int d = 0; d < 2; d++) {
        if (clang_Cursor_getNumArguments(decls[d]) <= (int)index)
            continue;
        CXCursor param = clang_Cursor_getArgument(decls[d], index);
        unsigned n = ss_ast_child_count(param);
        CXCursor last = n ? ss_ast_child(param, n - 1) : clang_getNullCursor();
        if (!ss_ast_is_null(last) && clang_isExpression(clang_getCursorKind(last)))
            return last;
    }
    return clang_getNullCursor();
}

/* Records in 'facts' that the stream 'param' of 'usr' (a parameter, or SS_STREAM_FIELD: a field)
 * is given 'value' in 'function' (or a null cursor): the legacy stream (every value the legacy
 * stream), a parameter of 'function' passed on, or anything else (also a null 'value'). */
static ss_stream_arg *record_value(ss_project_facts *facts, CXCursor function, const char *usr,
                                   unsigned param, CXCursor value)
{
    ss_stream_arg *a = ss_project_add_arg(facts);
    a->usr = ss_xstrdup(usr);
    a->param = param;
    if (ss_ast_is_null(value))
        return a;
    if (ss_stream_all_legacy(ss_stream_values(function, value), 0)) {
        a->legacy = 1;
        return a;
    }
    CXCursor e = ss_ast_strip(value), ref = clang_getCursorReferenced(e);
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr ||
        clang_getCursorKind(ref) != CXCursor_ParmDecl || ss_ast_is_null(function))
        return a;
    char *via = ss_project_function_usr(function);
    for (int i = 0; via && i < clang_Cursor_getNumArguments(function); i++) {
        if (clang_equalCursors(clang_Cursor_getArgument(function, (unsigned)i), ref)) {
            a->via = via;
            a->via_param = (unsigned)i;
            return a;
        }
    }
    free(via);
    return a;
}

/* ------------------------------------------------------------------------------------------
 * A created stream drained before any legacy-stream work: 'f(..., stm);' then, with nothing
 * between that may do other device work, 'cudaDeviceSynchronize();'. */

typedef struct drain_walk {
    ss_callgraph *graph;
    CXCursor stream;    /* the variable the stream argument names */
    ss_stream_arg *arg; /* receives the functions the unit only declares ('after') */
    int busy;           /* other device work seen between, or a call that may do it */
    int found;          /* is_drain: the wait seen */
} drain_walk;

/* Whether the call 'call' is given the variable 'var' as one of its arguments. */
static int passes(CXCursor call, CXCursor var)
{
    int n = clang_Cursor_getNumArguments(call);
    for (int i = 0; i < n; i++) {
        CXCursor e = ss_ast_strip(clang_Cursor_getArgument(call, (unsigned)i));
        if (clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
            clang_equalCursors(clang_getCursorReferenced(e), var))
            return 1;
    }
    return 0;
}

/* The API row of 'call', or NULL (a launch, a function that is no CUDA API). */
static const ss_api *api_of(CXCursor call)
{
    if (ss_scope_is_launch(call))
        return NULL;
    char *name = ss_ast_callee_name(call);
    const ss_api *api = name ? ss_api_find(name) : NULL;
    free(name);
    return api;
}

static void add_after(ss_stream_arg *a, char *usr)
{
    a->after = ss_xreallocarray(a->after, a->after_count + 1, sizeof *a->after);
    a->after[a->after_count++] = usr;
}

/* Whether 'call', which names no function, copies a value of its own type (the copy of an
 * unnamed struct: 'const tfloat3 v = a.getlo();'), not a call through a pointer. */
static int is_copy(CXCursor call)
{
    if (clang_Cursor_getNumArguments(call) != 1)
        return 0;
    CXType made = clang_getCanonicalType(clang_getCursorType(call));
    CXType from = clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(call, 0)));
    /* The records' declarations, not clang_getUnqualifiedType (libclang 16 and later): a
     * const copy of the same record is the same declaration. */
    return made.kind == CXType_Record && from.kind == CXType_Record &&
           clang_equalCursors(clang_getTypeDeclaration(made), clang_getTypeDeclaration(from));
}

/* What 'call', made between the stream's work and the wait, may do: nothing on the device (a
 * wait or a query, a function of the system headers but a GPU library's, a function of the unit
 * that does no device work, a constructor, destructor, conversion or operator that the unit does
 * not define, a value's own plumbing), work on the same stream (a call given the variable), or else
 * other device work ('busy': a launch, another API call, a function of the unit that does device
 * work, a call through a pointer); a function the unit only declares is left to the project pass
 * ('after'). */
static void between_call(drain_walk *w, CXCursor call)
{
    const ss_api *api = api_of(call);
    if (ss_scope_is_launch(call) || api) {
        w->busy |= api == NULL ||
                   (api->klass != SS_CLASS_STREAM_SYNC && api->klass != SS_CLASS_DEVICE_SYNC &&
                    api->klass != SS_CLASS_EVENT_SYNC && api->klass != SS_CLASS_QUERY);
        return;
    }
    if (passes(call, w->stream))
        return;
    CXCursor def = ss_callgraph_callee(w->graph, call);
    if (!ss_ast_is_null(def)) {
        w->busy |= ss_callgraph_does_work(w->graph, def, SS_SCOPE_ENQUEUES);
        return;
    }
    char *usr = ss_project_declared_only(call);
    if (usr) {
        add_after(w->arg, usr);
        return;
    }
    CXCursor decl = clang_getCursorReferenced(call);
    int plumbing = ss_ast_is_null(decl) ? is_copy(call) : ss_context_special_member(decl);
    w->busy |= !plumbing && (ss_context_library_enqueues(call) || !ss_ast_in_system_header(decl));
}

/* A call between (between_call); a way out of the function before the wait (a return, a goto, a
 * throw) leaves the stream's work queued. */
static enum CXChildVisitResult find_between(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    drain_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr)
        between_call(w, c);
    else if (k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt || k == CXCursor_CXXThrowExpr)
        w->busy = 1;
    return w->busy ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* The statement 's', which may run between the stream's work and the wait (find_between). */
static void visit_between(drain_walk *w, CXCursor s)
{
    ss_ast_visit_whole(s, clang_getNullCursor(), find_between, w);
}

/* A device-wide wait (SS_CLASS_DEVICE_SYNC) that runs whenever its statement does: not in a
 * branch or a loop, but in a 'do { } while (0)' of a checking macro. */
static enum CXChildVisitResult find_wait(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    drain_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_IfStmt || k == CXCursor_ForStmt || k == CXCursor_WhileStmt ||
        k == CXCursor_CXXForRangeStmt || k == CXCursor_SwitchStmt ||
        k == CXCursor_ConditionalOperator || k == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    const ss_api *api = k == CXCursor_CallExpr ? api_of(c) : NULL;
    if (api && api->klass == SS_CLASS_DEVICE_SYNC) {
        w->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether the statement 's' waits for the whole device (find_wait), or is 'if (c) wait;' with
 * 'c' written as 'when' (the condition under which the stream is not the legacy one). */
static int is_drain(CXCursor s, const char *when)
{
    drain_walk w = {0};
    s = ss_ast_strip(s);
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_IfStmt && when && ss_ast_child_count(s) == 2) {
        char *cond = ss_expr_text(ss_ast_child(s, 0));
        int same = cond && strcmp(cond, when) == 0;
        free(cond);
        return same && is_drain(ss_ast_child(s, 1), NULL);
    }
    if (k == CXCursor_CompoundStmt || k == CXCursor_DoStmt || clang_isExpression(k)) {
        ss_ast_visit_whole(s, clang_getNullCursor(), find_wait, &w);
    }
    return w.found;
}

static enum CXChildVisitResult find_write(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    drain_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    char op[8];
    if ((k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator ||
         k == CXCursor_UnaryOperator) &&
        ss_ast_child_count(c) > 0) {
        CXCursor target = ss_ast_strip(ss_ast_child(c, 0));
        int assigns = k != CXCursor_BinaryOperator ||
                      (ss_ast_binary_op(c, op, sizeof op) == 0 && strcmp(op, "=") == 0);
        if (assigns && clang_getCursorKind(target) == CXCursor_DeclRefExpr &&
            clang_equalCursors(clang_getCursorReferenced(target), w->stream))
            w->found = 1;
    }
    return w->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* When the stream variable 'var' of 'function' is a local that its initializer alone sets to
 * 'c ? s : NULL' (either arm the legacy stream), 'c' as written (malloc'ed), else NULL. */
static char *stream_condition(CXCursor function, CXCursor var)
{
    unsigned n = ss_ast_child_count(var);
    CXCursor init = n ? ss_ast_strip(ss_ast_child(var, n - 1)) : clang_getNullCursor();
    if (clang_getCursorKind(var) != CXCursor_VarDecl ||
        clang_getCursorKind(init) != CXCursor_ConditionalOperator || ss_ast_child_count(init) != 3)
        return NULL;
    int legacy = 0;
    for (unsigned i = 1; i < 3; i++)
        legacy |= ss_stream_is_legacy(ss_stream_constant(ss_ast_strip(ss_ast_child(init, i))), 0);
    drain_walk w = {0};
    w.stream = var;
    clang_visitChildren(function, find_write, &w);
    return legacy && !w.found ? ss_expr_text(ss_ast_child(init, 0)) : NULL;
}

/* Walks up from 'call' (inside path[found - 1]) to the function's body: each loop around it runs
 * again before the wait (all of it is between), and in each block the statements after it are
 * between until one is the wait. Returns the wait, or a null cursor. */
static CXCursor walk_to_drain(drain_walk *w, const CXCursor *path, long found, CXCursor call,
                              const char *when)
{
    for (long i = found - 1; i >= 0 && !w->busy; i--) {
        CXCursor inner = i + 1 < found ? path[i + 1] : call;
        enum CXCursorKind k = clang_getCursorKind(path[i]);
        if (k == CXCursor_LambdaExpr)
            break;
        if (ss_scope_is_loop(path[i])) {
            visit_between(w, path[i]);
            continue;
        }
        if (k != CXCursor_CompoundStmt)
            continue;
        unsigned n = ss_ast_child_count(path[i]), j = 0;
        while (j < n && !clang_equalCursors(ss_ast_child(path[i], j), inner))
            j++;
        for (j++; j < n && !w->busy; j++) {
            CXCursor s = ss_ast_child(path[i], j);
            if (is_drain(s, when))
                return s;
            visit_between(w, s);
        }
    }
    return clang_getNullCursor();
}

/* When the stream argument 'value' of 'call' in 'function' names a variable and a device-wide
 * wait in 'function' follows the call (walk_to_drain) with no other device work between, sets
 * 'a->drain' to where the wait is and 'a->after' to the functions the unit only declares that
 * run between (the project pass asks that none does device work). */
static void drained_arg(ss_callgraph *graph, CXCursor function, CXCursor call, CXCursor value,
                        ss_stream_arg *a)
{
    CXCursor e = ss_ast_strip(value), var = clang_getCursorReferenced(e);
    if (ss_ast_is_null(function) || clang_getCursorKind(e) != CXCursor_DeclRefExpr ||
        (clang_getCursorKind(var) != CXCursor_VarDecl &&
         clang_getCursorKind(var) != CXCursor_ParmDecl))
        return;
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(function, call, path);
    char *when = stream_condition(function, var);
    drain_walk w = {graph, var, a, 0, 0};
    CXCursor drain = found > 0 ? walk_to_drain(&w, path, found, call, when) : clang_getNullCursor();
    if (!ss_ast_is_null(drain) && !w.busy)
        a->drain = ss_callgraph_place(drain);
    for (size_t k = 0; a->drain == NULL && k < a->after_count; k++)
        free(a->after[k]);
    if (a->drain == NULL)
        a->after_count = 0;
    free(when);
    free(path);
}

/* What the call 'call' of 'decl' (in 'function', or a null cursor) gives its stream parameter
 * 'index' (record_value; omitted: the default argument, a constant). */
static void record_arg(ss_project_facts *facts, ss_callgraph *graph, CXCursor function,
                       CXCursor call, CXCursor decl, unsigned index, const char *usr)
{
    CXCursor arg = (int)index < clang_Cursor_getNumArguments(call)
                       ? clang_Cursor_getArgument(call, index)
                       : clang_getNullCursor();
    if (ss_ast_is_null(arg) || ss_check_is_omitted(arg)) {
        CXCursor init = default_argument(decl, index);
        ss_stream_arg *a = ss_project_add_arg(facts);
        a->usr = ss_xstrdup(usr);
        a->param = index;
        a->legacy =
            !ss_ast_is_null(init) && ss_stream_is_legacy(ss_stream_constant(ss_ast_strip(init)), 0);
        return;
    }
    ss_stream_arg *a = record_value(facts, function, usr, index, arg);
    if (!a->legacy && a->via == NULL)
        drained_arg(graph, function, call, arg, a);
}

/* The USR (malloc'ed) of the stream field 'c' names when 'c' is a member expression of a stream
 * field of a project type ('t.stm', 'this->stm'), else NULL. */
static char *stream_field(CXCursor c)
{
    CXCursor e = ss_ast_strip(c), field = clang_getCursorReferenced(e);
    if (clang_getCursorKind(e) != CXCursor_MemberRefExpr &&
        clang_getCursorKind(e) != CXCursor_MemberRef)
        return NULL;
    if (clang_getCursorKind(field) != CXCursor_FieldDecl || ss_ast_in_system_header(field) ||
        !ss_check_is_stream_type(clang_getCursorType(field)))
        return NULL;
    return ss_ast_usr(field);
}

typedef struct arg_walk {
    ss_project_facts *facts;
    ss_callgraph *graph;
    CXCursor function; /* the function the walk is in */
    char *idle_usr;    /* its USR when another unit may call it and it does no device work here */
    CXCursor callee;   /* the function the call visited last calls, until its name is seen */
    unsigned at;       /* where that call starts */
} arg_walk;

/* A call of a function of the project: each stream parameter's argument recorded. */
static void record_call(arg_walk *w, CXCursor call)
{
    CXCursor decl = clang_getCursorReferenced(call);
    char *usr = ss_project_function_usr(decl);
    int params = usr ? clang_Cursor_getNumArguments(decl) : 0;
    for (int i = 0; i < params; i++) {
        CXType t = clang_getCanonicalType(
            clang_getCursorType(clang_Cursor_getArgument(decl, (unsigned)i)));
        if (ss_check_is_stream_type(t)) {
            record_arg(w->facts, w->graph, w->function, call, decl, (unsigned)i, usr);
        } else if ((t.kind == CXType_LValueReference || t.kind == CXType_RValueReference) &&
                   ss_check_is_stream_type(clang_getPointeeType(t))) {
            /* A stream by reference: a call, giving it anything. */
            ss_stream_arg *a = ss_project_add_arg(w->facts);
            a->usr = ss_xstrdup(usr);
            a->param = (unsigned)i;
        }
    }
    char *to = usr && w->idle_usr ? ss_project_declared_only(call) : NULL;
    if (to) {
        ss_project_facts *f = w->facts;
        ss_xgrow((void **)&f->crosses, &f->cross_cap, f->cross_count + 1, sizeof *f->crosses);
        f->crosses[f->cross_count].from = ss_xstrdup(w->idle_usr);
        f->crosses[f->cross_count++].to = to;
    }
    free(usr);
}

/* The stream fields a constructor's member initializers give a value ('stm(s)'): the
 * initializer follows the member's name among the constructor's children. */
static void record_initializers(arg_walk *w, CXCursor ctor)
{
    unsigned n = ss_ast_child_count(ctor);
    for (unsigned i = 0; i + 1 < n; i++) {
        char *usr = stream_field(ss_ast_child(ctor, i));
        CXCursor value = ss_ast_child(ctor, i + 1);
        if (usr && clang_isExpression(clang_getCursorKind(value)))
            record_value(w->facts, ctor, usr, SS_STREAM_FIELD, value);
        free(usr);
    }
}

/* Each stream field of the record type 'c' is given by an initializer list: anything. */
static enum CXVisitorResult field_listed(CXCursor c, CXClientData data)
{
    arg_walk *w = data;
    if (ss_check_is_stream_type(clang_getCursorType(c))) {
        CXString usr = clang_getCursorUSR(c);
        ss_stream_arg *a = ss_project_add_arg(w->facts);
        a->usr = ss_xstrdup(clang_getCString(usr));
        a->param = SS_STREAM_FIELD;
        clang_disposeString(usr);
    }
    return CXVisit_Continue;
}

/* A write of a stream field: an assignment ('t.stm = s'), its address taken or an initializer
 * list of its type (anything). */
static void record_field_write(arg_walk *w, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    char op[8];
    if (k == CXCursor_InitListExpr) {
        CXType t = clang_getCanonicalType(clang_getCursorType(c));
        if (t.kind == CXType_Record)
            clang_Type_visitFields(t, field_listed, w);
        return;
    }
    if ((k != CXCursor_BinaryOperator && k != CXCursor_UnaryOperator) || ss_ast_child_count(c) == 0)
        return;
    char *usr = stream_field(ss_ast_child(c, 0));
    if (usr && k == CXCursor_UnaryOperator)
        record_value(w->facts, w->function, usr, SS_STREAM_FIELD, clang_getNullCursor());
    else if (usr && ss_ast_binary_op(c, op, sizeof op) == 0 && strcmp(op, "=") == 0)
        record_value(w->facts, w->function, usr, SS_STREAM_FIELD, ss_ast_child(c, 1));
    free(usr);
}

/* The definition 'function', when another unit may call it: its USR in the unit's 'working'
 * functions when it does device work (itself or through the unit's functions), else (taken)
 * in 'idle_usr', for the calls it makes of functions other units define (record_call). */
static void record_working(arg_walk *w, CXCursor function)
{
    char *usr = clang_isCursorDefinition(function) ? ss_project_stream_param_usr(function) : NULL;
    if (usr == NULL)
        return;
    if (!ss_callgraph_does_work(w->graph, function, SS_SCOPE_ENQUEUES)) {
        w->idle_usr = usr;
        return;
    }
    ss_project_facts *f = w->facts;
    ss_xgrow((void **)&f->working, &f->working_cap, f->working_count + 1, sizeof *f->working);
    f->working[f->working_count++] = usr;
}

/* An overloaded name ('CellList' in a template's call the unit cannot resolve): each function
 * of the project it names may be called (SS_STREAM_NAMED). */
static void record_overloads(arg_walk *w, CXCursor ref)
{
    for (unsigned k = 0; k < clang_getNumOverloadedDecls(ref); k++) {
        char *usr = ss_project_function_usr(clang_getOverloadedDecl(ref, k));
        if (usr) {
            ss_stream_arg *a = ss_project_add_arg(w->facts);
            a->usr = usr;
            a->param = SS_STREAM_NAMED;
        }
    }
}

static enum CXChildVisitResult find_args(CXCursor c, CXCursor parent, CXClientData data)
{
    arg_walk *w = data;
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    if (ss_ast_is_function(c) && ss_ast_is_device_only(c))
        return CXChildVisit_Continue;
    if (ss_ast_is_function(c) && clang_getCursorKind(c) != CXCursor_LambdaExpr) {
        CXCursor outer = w->function;
        char *outer_usr = w->idle_usr;
        w->function = c;
        w->idle_usr = NULL;
        record_working(w, c);
        if (clang_getCursorKind(c) == CXCursor_Constructor)
            record_initializers(w, c);
        clang_visitChildren(c, find_args, w);
        free(w->idle_usr);
        w->function = outer;
        w->idle_usr = outer_usr;
        return CXChildVisit_Continue;
    }
    enum CXCursorKind k = clang_getCursorKind(c);
    record_field_write(w, c);
    if (k == CXCursor_OverloadedDeclRef)
        record_overloads(w, c);
    if (k == CXCursor_CallExpr) {
        record_call(w, c);
        w->callee = clang_getCursorReferenced(c);
        w->at = ss_ast_offset(c);
    } else if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) {
        /* The name of the call just visited: its callee. Named otherwise (its address taken),
         * the function may be given any stream. */
        CXCursor ref = clang_getCursorReferenced(c);
        int callee = clang_equalCursors(ref, w->callee) && ss_ast_offset(c) == w->at;
        if (callee)
            w->callee = clang_getNullCursor();
        char *usr = callee ? NULL : ss_project_function_usr(ref);
        if (usr) {
            ss_stream_arg *a = ss_project_add_arg(w->facts);
            a->usr = usr;
            a->param = UINT_MAX;
        }
    }
    return CXChildVisit_Recurse;
}

void ss_project_record_args(ss_check_ctx *ctx, ss_project_facts *facts)
{
    arg_walk w = {facts, ss_check_graph(ctx),   clang_getNullCursor(),
                  NULL,  clang_getNullCursor(), 0};
    clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_args, &w);
}

void ss_project_ask_params(ss_check_ctx *ctx, ss_rule_id rule, const ss_finding *f,
                           const char *words)
{
    if (ctx->streams == NULL)
        return;
    if (ctx->streams->facts == NULL)
        ctx->streams->facts = ss_xcalloc(1, sizeof(ss_project_facts));
    ss_project_facts *facts = ctx->streams->facts;
    if (f->severity != SS_SEV_WARNING || f->file == NULL || ctx->stream_params == NULL ||
        ctx->stream_params->count == 0)
        return;
    ss_param_question *q = ss_project_add_param_question(facts);
    q->file = ss_xstrdup(f->file);
    q->line = f->line;
    q->column = f->column;
    q->rule = rule;
    q->words = ss_xstrdup(words);
    for (size_t i = 0; i < ctx->stream_params->count; i++)
        ss_stream_params_add(&q->params, ctx->stream_params->usrs[i], ctx->stream_params->params[i],
                             ctx->stream_params->names[i]);
}

/* ------------------------------------------------------------------------------------------
 * Closed functions: declared by the unit's own file alone. */

typedef struct closed_walk {
    const char *name, *usr;
    int closed;
} closed_walk;

static enum CXChildVisitResult find_attribute(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_VisibilityAttr || k == CXCursor_DLLExport || k == CXCursor_DLLImport) {
        *(int *)data = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

/* Whether the declaration 'c' is the function of 'w' ('usr' named 'name'). */
static int same_function(CXCursor c, const closed_walk *w)
{
    CXString name = clang_getCursorSpelling(c);
    int same = strcmp(clang_getCString(name), w->name) == 0;
    clang_disposeString(name);
    if (!same)
        return 0;
    CXString usr = clang_getCursorUSR(c);
    same = strcmp(clang_getCString(usr), w->usr) == 0;
    clang_disposeString(usr);
    return same;
}

/* Each declaration of the function of 'w' at namespace scope: one outside the main file, or
 * with a visibility or export attribute, makes it not closed. */
static enum CXChildVisitResult find_redeclaration(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    closed_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl)
        return CXChildVisit_Recurse;
    if (k != CXCursor_FunctionDecl || !same_function(c, w))
        return CXChildVisit_Continue;
    int attribute = 0;
    clang_visitChildren(c, find_attribute, &attribute);
    if (attribute || !clang_Location_isFromMainFile(clang_getCursorLocation(c))) {
        w->closed = 0;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

/* Whether 'function' has C++ linkage: its symbol is mangled, not its plain name. */
static int mangled(CXCursor function, const char *name)
{
    CXString symbol = clang_Cursor_getMangling(function);
    int differs = strcmp(clang_getCString(symbol), name) != 0;
    clang_disposeString(symbol);
    return differs;
}

void ss_project_note_closed(ss_check_ctx *ctx, CXCursor function, const char *usr)
{
    if (ctx->streams == NULL || clang_getCursorKind(function) != CXCursor_FunctionDecl)
        return;
    CXString name = clang_getCursorSpelling(function);
    closed_walk w = {clang_getCString(name), usr, 1};
    if (mangled(function, w.name))
        clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_redeclaration, &w);
    else
        w.closed = 0;
    clang_disposeString(name);
    if (!w.closed)
        return;
    if (ctx->streams->facts == NULL)
        ctx->streams->facts = ss_xcalloc(1, sizeof(ss_project_facts));
    ss_project_facts *f = ctx->streams->facts;
    for (size_t i = 0; i < f->closed_count; i++) {
        if (strcmp(f->closed[i], usr) == 0)
            return;
    }
    ss_xgrow((void **)&f->closed, &f->closed_cap, f->closed_count + 1, sizeof *f->closed);
    f->closed[f->closed_count++] = ss_xstrdup(usr);
}

/* ------------------------------------------------------------------------------------------
 * The project pass. */

/* Whether a unit of the project defines the function 'usr' and it does device work, in that
 * unit or in a function of another unit that it calls, followed up to MAX_PASSES calls (and
 * taken to work further down). */
static int works(ss_project_facts *const *facts, size_t count, const char *usr, int depth)
{
    for (size_t u = 0; u < count; u++) {
        for (size_t i = 0; facts[u] && i < facts[u]->working_count; i++) {
            if (strcmp(facts[u]->working[i], usr) == 0)
                return 1;
        }
    }
    for (size_t u = 0; u < count; u++) {
        for (size_t i = 0; facts[u] && i < facts[u]->cross_count; i++) {
            const ss_cross_call *c = &facts[u]->crosses[i];
            if (strcmp(c->from, usr) == 0 &&
                (depth >= MAX_PASSES || works(facts, count, c->to, depth + 1)))
                return 1;
        }
    }
    return 0;
}

/* Whether the stream argument 'a' is drained before any legacy-stream work: a device-wide wait
 * follows it, and no function between does device work in the unit that defines it. */
static int drained(ss_project_facts *const *facts, size_t count, const ss_stream_arg *a)
{
    if (a->drain == NULL)
        return 0;
    for (size_t k = 0; k < a->after_count; k++) {
        if (works(facts, count, a->after[k], 0))
            return 0;
    }
    return 1;
}

/* Whether every call (or write) in the project gives the parameter (or field) 'param' of 'usr'
 * the legacy stream, or a stream drained before any legacy-stream work (drained; '*drain' then
 * receives the first such argument), following parameters passed on up to MAX_PASSES times,
 * and there is one such call. */
static int given_legacy(ss_project_facts *const *facts, size_t count, const char *usr,
                        unsigned param, int depth, const ss_stream_arg **drain)
{
    int seen = 0;
    for (size_t u = 0; u < count; u++) {
        for (size_t i = 0; facts[u] && i < facts[u]->arg_count; i++) {
            const ss_stream_arg *a = &facts[u]->args[i];
            if ((a->param != param && a->param != UINT_MAX) || strcmp(a->usr, usr) != 0)
                continue;
            int other = !a->legacy && a->via == NULL;
            if (a->param == UINT_MAX || (other && !drained(facts, count, a)) ||
                (a->via && (depth >= MAX_PASSES ||
                            !given_legacy(facts, count, a->via, a->via_param, depth + 1, drain))))
                return 0;
            if (other && *drain == NULL)
                *drain = a;
            seen = 1;
        }
    }
    return seen;
}

/* Whether a call (or write) in the project gives the parameter 'param' of 'usr' anything, or
 * names the function otherwise (its address, a template's unresolved call). */
static int called(ss_project_facts *const *facts, size_t count, const char *usr, unsigned param)
{
    for (size_t u = 0; u < count; u++) {
        for (size_t i = 0; facts[u] && i < facts[u]->arg_count; i++) {
            const ss_stream_arg *a = &facts[u]->args[i];
            if ((a->param == param || a->param == UINT_MAX || a->param == SS_STREAM_NAMED) &&
                strcmp(a->usr, usr) == 0)
                return 1;
        }
    }
    return 0;
}

/* Whether a unit found the function 'usr' closed (ss_project_note_closed). */
static int closed(ss_project_facts *const *facts, size_t count, const char *usr)
{
    for (size_t u = 0; u < count; u++) {
        for (size_t i = 0; facts[u] && i < facts[u]->closed_count; i++) {
            if (strcmp(facts[u]->closed[i], usr) == 0)
                return 1;
        }
    }
    return 0;
}

/* "'stm' of 'f()'", and for a parameter given a drained stream " (also given a stream that the
 * device-wide wait at x.cpp:882 drains before any legacy-stream work)", for one of a function
 * no unit calls ('uncalled') " (...: no unit calls it)", after 'names' (taken). Malloc'ed. */
static char *add_name(char *names, size_t k, const char *name, const ss_stream_arg *drain,
                      int uncalled)
{
    char *longer = drain ? ss_xasprintf("%s%s%s (also given a stream that the device-wide wait "
                                        "at %s drains before any legacy-stream work)",
                                        names, k ? ", " : "", name, drain->drain)
                   : uncalled ? ss_xasprintf("%s%s%s (declared in no header, and no unit of the "
                                             "compile database calls it)",
                                             names, k ? ", " : "", name)
                              : ss_xasprintf("%s%s%s", names, k ? ", " : "", name);
    free(names);
    return longer;
}

/* The names of the parameters of 'q' (malloc'ed) when each is given only the legacy stream (or
 * in a 'whole' run, is one of a closed function that no unit calls), else NULL. */
static char *legacy_names(ss_project_facts *const *facts, size_t count, const ss_param_question *q,
                          int whole)
{
    char *names = ss_xstrdup("");
    for (size_t k = 0; k < q->params->count; k++) {
        const ss_stream_arg *drain = NULL;
        const char *usr = q->params->usrs[k];
        unsigned param = q->params->params[k];
        int uncalled = 0;
        if (!given_legacy(facts, count, usr, param, 0, &drain)) {
            uncalled = whole && !called(facts, count, usr, param) && closed(facts, count, usr);
            if (!uncalled) {
                free(names);
                return NULL;
            }
        }
        names = add_name(names, k, q->params->names[k], drain, uncalled);
    }
    return names;
}

void ss_project_apply_params(ss_project_facts *const *facts, ss_result *const *results,
                             size_t count, unsigned scope)
{
    int whole = (scope & SS_PROJECT_WHOLE) != 0;
    for (size_t u = 0; (scope & SS_PROJECT_COMPLETE) && u < count; u++) {
        for (size_t i = 0; facts[u] && results[u] && i < facts[u]->param_question_count; i++) {
            const ss_param_question *q = &facts[u]->param_questions[i];
            ss_finding *f =
                ss_project_find_finding(results[u], q->rule, q->file, q->line, q->column);
            if (f == NULL || f->severity != SS_SEV_WARNING || q->params == NULL)
                continue;
            char *names = legacy_names(facts, count, q, whole);
            if (names == NULL)
                continue;
            char *message = ss_xasprintf("%s; %s (%s)", f->message, q->words, names);
            free(f->message);
            f->message = message;
            f->severity = SS_SEV_NOTE;
            free(names);
        }
    }
}
