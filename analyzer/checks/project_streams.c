/* project_streams.c: the streams the calls of the project give a stream parameter of a function
 * another unit may call (project_facts.h). A unit whose only other streams are such parameters
 * asks; the project pass makes its legacy-stream warnings notes where every call in the project
 * gives those parameters the legacy stream. */
#include "ast.h"
#include "callgraph.h"
#include "common.h"
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
    }
    for (size_t i = 0; i < facts->param_question_count; i++) {
        ss_param_question *q = &facts->param_questions[i];
        free(q->file);
        free(q->words);
        ss_stream_params_free(q->params);
    }
    free(facts->args);
    free(facts->param_questions);
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
static void record_value(ss_project_facts *facts, CXCursor function, const char *usr,
                         unsigned param, CXCursor value)
{
    ss_stream_arg *a = ss_project_add_arg(facts);
    a->usr = ss_xstrdup(usr);
    a->param = param;
    if (ss_ast_is_null(value))
        return;
    if (ss_stream_all_legacy(ss_stream_values(function, value), 0)) {
        a->legacy = 1;
        return;
    }
    CXCursor e = ss_ast_strip(value), ref = clang_getCursorReferenced(e);
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr ||
        clang_getCursorKind(ref) != CXCursor_ParmDecl || ss_ast_is_null(function))
        return;
    char *via = ss_project_function_usr(function);
    for (int i = 0; via && i < clang_Cursor_getNumArguments(function); i++) {
        if (clang_equalCursors(clang_Cursor_getArgument(function, (unsigned)i), ref)) {
            a->via = via;
            a->via_param = (unsigned)i;
            return;
        }
    }
    free(via);
}

/* What the call 'call' of 'decl' (in 'function', or a null cursor) gives its stream parameter
 * 'index' (record_value; omitted: the default argument, a constant). */
static void record_arg(ss_project_facts *facts, CXCursor function, CXCursor call, CXCursor decl,
                       unsigned index, const char *usr)
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
    record_value(facts, function, usr, index, arg);
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
    CXString usr = clang_getCursorUSR(field);
    const char *text = clang_getCString(usr);
    char *copy = text && text[0] ? ss_xstrdup(text) : NULL;
    clang_disposeString(usr);
    return copy;
}

typedef struct arg_walk {
    ss_project_facts *facts;
    CXCursor function; /* the function the walk is in */
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
        CXType t = clang_getCursorType(clang_Cursor_getArgument(decl, (unsigned)i));
        if (ss_check_is_stream_type(t))
            record_arg(w->facts, w->function, call, decl, (unsigned)i, usr);
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

static enum CXChildVisitResult find_args(CXCursor c, CXCursor parent, CXClientData data)
{
    arg_walk *w = data;
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    if (ss_ast_is_function(c) && ss_ast_is_device_only(c))
        return CXChildVisit_Continue;
    if (ss_ast_is_function(c) && clang_getCursorKind(c) != CXCursor_LambdaExpr) {
        CXCursor outer = w->function;
        w->function = c;
        if (clang_getCursorKind(c) == CXCursor_Constructor)
            record_initializers(w, c);
        clang_visitChildren(c, find_args, w);
        w->function = outer;
        return CXChildVisit_Continue;
    }
    enum CXCursorKind k = clang_getCursorKind(c);
    record_field_write(w, c);
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
    arg_walk w = {facts, clang_getNullCursor(), clang_getNullCursor(), 0};
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
 * The project pass. */

/* Whether every call (or write) in the project gives the parameter (or field) 'param' of 'usr'
 * the legacy stream, following parameters passed on up to MAX_PASSES times, and there is one
 * such call. */
static int given_legacy(ss_project_facts *const *facts, size_t count, const char *usr,
                        unsigned param, int depth)
{
    int seen = 0;
    for (size_t u = 0; u < count; u++) {
        for (size_t i = 0; facts[u] && i < facts[u]->arg_count; i++) {
            const ss_stream_arg *a = &facts[u]->args[i];
            if ((a->param != param && a->param != UINT_MAX) || strcmp(a->usr, usr) != 0)
                continue;
            if (a->param == UINT_MAX || (!a->legacy && a->via == NULL) ||
                (a->via && (depth >= MAX_PASSES ||
                            !given_legacy(facts, count, a->via, a->via_param, depth + 1))))
                return 0;
            seen = 1;
        }
    }
    return seen;
}

void ss_project_apply_params(ss_project_facts *const *facts, ss_result *const *results,
                             size_t count)
{
    for (size_t u = 0; u < count; u++) {
        for (size_t i = 0; facts[u] && results[u] && i < facts[u]->param_question_count; i++) {
            const ss_param_question *q = &facts[u]->param_questions[i];
            ss_finding *f =
                ss_project_find_finding(results[u], q->rule, q->file, q->line, q->column);
            if (f == NULL || f->severity != SS_SEV_WARNING || q->params == NULL)
                continue;
            char *names = ss_xstrdup("");
            size_t k = 0;
            for (; k < q->params->count; k++) {
                if (!given_legacy(facts, count, q->params->usrs[k], q->params->params[k], 0))
                    break;
                char *longer = ss_xasprintf("%s%s%s", names, k ? ", " : "", q->params->names[k]);
                free(names);
                names = longer;
            }
            if (k == q->params->count) {
                char *message = ss_xasprintf("%s; %s (%s)", f->message, q->words, names);
                free(f->message);
                f->message = message;
                f->severity = SS_SEV_NOTE;
            }
            free(names);
        }
    }
}
