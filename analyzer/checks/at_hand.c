/* at_hand.c: whether legacy-stream work (SYNC101, SYNC102) had a stream at hand that it could
 * have been queued on: one its function takes, keeps or passes to another call, or one its
 * class keeps or its class's other member functions pass. Without one, the legacy stream is no
 * slip of that code, and whether the unit's other streams have work when it runs is a question
 * for run time. */
#include "ast.h"
#include "callgraph.h"
#include "context_cases.h"
#include "log.h"

#include <stdlib.h>
#include <string.h>

/* Whether 'type' is a stream, or an array of or pointer to streams. Returns 1 or 0. */
static int stream_like(CXType type)
{
    if (ss_check_is_stream_type(type))
        return 1;
    CXType t = clang_getCanonicalType(type);
    if (t.kind == CXType_Pointer)
        return ss_check_is_stream_type(clang_getPointeeType(t));
    CXType element = clang_getArrayElementType(t);
    return element.kind != CXType_Invalid && ss_check_is_stream_type(element);
}

/* Whether 'type' is a record that keeps a stream field (ss_check_record_stream_field), or a
 * reference or pointer to one. Returns 1 or 0. */
static int holds_stream(CXType type)
{
    CXType t = clang_getCanonicalType(type);
    if (t.kind == CXType_Pointer || t.kind == CXType_LValueReference ||
        t.kind == CXType_RValueReference)
        t = clang_getPointeeType(t);
    char *field = ss_check_record_stream_field(t);
    free(field);
    return field != NULL;
}

/* Walking a function for a stream expression that may hold a stream other than the legacy
 * one (ss_check_other_stream_here). */
typedef struct hand_walk {
    ss_check_ctx *ctx;
    CXCursor function;
    int found;
} hand_walk;

static int stream_expression(CXCursor c)
{
    switch (clang_getCursorKind(c)) {
    case CXCursor_DeclRefExpr:
    case CXCursor_MemberRefExpr:
        return stream_like(clang_getCursorType(c));
    case CXCursor_CallExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_ArraySubscriptExpr:
        return ss_check_is_stream_type(clang_getCursorType(c));
    default:
        return 0;
    }
}

static enum CXChildVisitResult find_hand(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    hand_walk *w = data;
    if (ss_ast_is_function(c) && ss_ast_is_device_only(c))
        return CXChildVisit_Continue;
    if (stream_expression(c) && ss_check_other_stream_here(w->ctx, w->function, c)) {
        w->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether a parameter of 'function' is a stream that may be another than the legacy one
 * (ss_check_other_stream_param) or a record that keeps one (holds_stream), or a stream
 * expression in its body may be one. */
static enum CXChildVisitResult find_param(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    hand_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_ParmDecl)
        return CXChildVisit_Continue;
    CXType type = clang_getCursorType(c);
    if ((stream_like(type) && ss_check_other_stream_param(w->ctx, w->function, c)) ||
        holds_stream(type)) {
        w->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

static int function_has_stream(ss_check_ctx *ctx, CXCursor function)
{
    hand_walk w = {ctx, function, 0};
    clang_visitChildren(function, find_param, &w); /* a template's too */
    if (!w.found)
        clang_visitChildren(function, find_hand, &w);
    return w.found;
}

/* The named function around 'function' (itself, or the function a lambda sits in, however
 * deep), or a null cursor at file scope. */
static CXCursor named_function(CXCursor function)
{
    CXCursor c = function;
    for (int depth = 0; depth < 64 && !ss_ast_is_null(c); depth++) {
        enum CXCursorKind kind = clang_getCursorKind(c);
        if (kind == CXCursor_TranslationUnit || clang_isInvalid(kind))
            break;
        if (ss_ast_is_function(c) && kind != CXCursor_LambdaExpr)
            return c;
        c = clang_getCursorSemanticParent(c);
    }
    return clang_getNullCursor();
}

/* The class or struct whose member 'function' is, or a null cursor. */
static CXCursor member_of(CXCursor function)
{
    CXCursor parent = clang_getCursorSemanticParent(function);
    switch (clang_getCursorKind(parent)) {
    case CXCursor_ClassDecl:
    case CXCursor_StructDecl:
    case CXCursor_ClassTemplate:
    case CXCursor_ClassTemplatePartialSpecialization:
        return clang_getCanonicalCursor(parent);
    default:
        return clang_getNullCursor();
    }
}

static enum CXChildVisitResult find_field(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    int *found = data;
    if (clang_getCursorKind(c) == CXCursor_FieldDecl &&
        (stream_like(clang_getCursorType(c)) || holds_stream(clang_getCursorType(c)))) {
        *found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

/* Walking the unit's declarations for the member functions of a class that it defines. */
typedef struct member_walk {
    ss_check_ctx *ctx;
    CXCursor type, except;
    int found;
} member_walk;

static enum CXChildVisitResult find_member(CXCursor c, CXCursor parent, CXClientData data)
{
    member_walk *w = data;
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    if (ss_ast_opens_scope(c))
        return CXChildVisit_Recurse;
    if (!ss_ast_is_function(c) || !clang_isCursorDefinition(c) || ss_ast_is_device_only(c) ||
        clang_equalCursors(c, w->except))
        return CXChildVisit_Continue;
    CXCursor type = member_of(c);
    if (!ss_ast_is_null(type) && clang_equalCursors(type, w->type) &&
        function_has_stream(w->ctx, c)) {
        w->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

/* Whether the class 'type' keeps a stream: a field that is one, an array of or pointer to them,
 * or a record that keeps one. */
static int keeps_stream(CXCursor type)
{
    int found = 0;
    CXCursor definition = clang_getCursorDefinition(type);
    if (!ss_ast_is_null(definition))
        clang_visitChildren(definition, find_field, &found);
    return found;
}

/* Whether the class 'type' keeps a stream (keeps_stream), or another of its member functions
 * that the unit defines ('function' aside) has a stream at hand (function_has_stream). Asked
 * only of a member 'function' that has none itself (has_stream_at_hand), so the answer is the
 * class's whatever the member: the last class's is kept, as the findings of one class's members
 * come one after another (a walk of the whole unit each time otherwise). */
static int class_has_stream(ss_check_ctx *ctx, CXCursor type, CXCursor function)
{
    if (ctx->stream_class_answer != 0 && clang_equalCursors(ctx->stream_class, type))
        return ctx->stream_class_answer == 1;
    member_walk w = {ctx, type, function, keeps_stream(type)};
    if (!w.found)
        clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_member, &w);
    ctx->stream_class = type;
    ctx->stream_class_answer = w.found ? 1 : 2;
    return w.found;
}

/* Walking the unit for references to its namespace-scope streams. */
static enum CXChildVisitResult find_global_use(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    hand_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
        return CXChildVisit_Recurse;
    CXCursor var = clang_getCursorReferenced(c);
    enum CXCursorKind scope = clang_getCursorKind(clang_getCursorSemanticParent(var));
    if (clang_getCursorKind(var) == CXCursor_VarDecl &&
        (scope == CXCursor_TranslationUnit || scope == CXCursor_Namespace) &&
        !ss_ast_in_system_header(var) && stream_like(clang_getCursorType(var)) &&
        ss_check_other_stream_here(w->ctx, w->function, c)) {
        w->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

static enum CXChildVisitResult find_global(CXCursor c, CXCursor parent, CXClientData data)
{
    hand_walk *w = data;
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    if (ss_ast_opens_scope(c))
        return CXChildVisit_Recurse;
    if (!ss_ast_is_function(c) || !clang_isCursorDefinition(c) || ss_ast_is_device_only(c))
        return CXChildVisit_Continue;
    w->function = c;
    clang_visitChildren(c, find_global_use, w);
    return w->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Whether a function of the unit uses a namespace-scope stream of the unit that may be another
 * than the legacy one (ss_check_other_stream_here), looked at once per unit. */
static int unit_keeps_stream(ss_check_ctx *ctx)
{
    if (ctx->global_stream == 0) {
        hand_walk w = {ctx, clang_getNullCursor(), 0};
        clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_global, &w);
        ctx->global_stream = w.found ? 1 : 2;
    }
    return ctx->global_stream == 1;
}

#define CALLER_DEPTH 3
#define MAX_CALLERS 16

/* Whether a function of the unit that calls 'function', directly or through up to 'depth'
 * calls, has a stream at hand (function_has_stream) or is a member of a class that keeps one
 * (keeps_stream): it could have passed it. */
static int caller_has_stream(ss_check_ctx *ctx, CXCursor function, int depth)
{
    CXCursor calls[MAX_CALLERS], callers[MAX_CALLERS];
    long n = ss_callgraph_calls_of(ss_check_graph(ctx), function, calls, callers, MAX_CALLERS);
    for (long i = 0; i < n && i < MAX_CALLERS; i++) {
        CXCursor caller = named_function(callers[i]);
        if (ss_ast_is_null(caller) || clang_equalCursors(caller, function))
            continue;
        CXCursor type = member_of(caller);
        if (function_has_stream(ctx, caller) || (!ss_ast_is_null(type) && keeps_stream(type)) ||
            (depth > 1 && caller_has_stream(ctx, caller, depth - 1)))
            return 1;
    }
    return 0;
}

/* Whether the named function 'function' had a stream at hand (see context_cases.h). */
static int has_stream_at_hand(ss_check_ctx *ctx, CXCursor function, CXCursor type)
{
    return function_has_stream(ctx, function) ||
           (!ss_ast_is_null(type) && class_has_stream(ctx, type, function)) ||
           unit_keeps_stream(ctx) || caller_has_stream(ctx, function, CALLER_DEPTH);
}

char *ss_context_no_stream_at_hand(ss_check_ctx *ctx)
{
    CXCursor function = named_function(ctx->function);
    if (ss_ast_is_null(function))
        return NULL;
    CXCursor type = member_of(function);
    if (has_stream_at_hand(ctx, function, type))
        return NULL;
    char *name = ss_qualified_name(function);
    char *type_name = ss_ast_is_null(type) ? NULL : ss_qualified_name(type);
    char *members = type_name
                        ? ss_xasprintf(", nor does '%s' keep one or any of its member functions in "
                                       "this unit pass one",
                                       type_name)
                        : ss_xstrdup("");
    char *words = ss_xasprintf(
        "no stream at hand: '%s' takes no stream, keeps none and passes none other than the "
        "legacy one to any call%s, so the legacy stream is all this code knows; whether the "
        "unit's other streams have work queued when it runs is a run-time question, which "
        "'syncscope run' measures",
        name ? name : "?", members);
    free(members);
    free(type_name);
    free(name);
    return words;
}
