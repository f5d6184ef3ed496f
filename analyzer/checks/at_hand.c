/* at_hand.c: whether legacy-stream work (SYNC101, SYNC102) had a stream at hand that it could
 * have been queued on: one its function takes, keeps or passes to another call, or one its
 * class keeps or its class's other member functions pass. Without one, the legacy stream is no
 * slip of that code, and whether the unit's other streams have work when it runs is a question
 * for run time. */
#include "ast.h"
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
 * (ss_check_other_stream_param), or a stream expression in its body may be one. */
static enum CXChildVisitResult find_param(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    hand_walk *w = data;
    if (clang_getCursorKind(c) == CXCursor_ParmDecl && stream_like(clang_getCursorType(c)) &&
        ss_check_other_stream_param(w->ctx, w->function, c)) {
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
    if (clang_getCursorKind(c) == CXCursor_FieldDecl && stream_like(clang_getCursorType(c))) {
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
    switch (clang_getCursorKind(c)) {
    case CXCursor_Namespace:
    case CXCursor_LinkageSpec:
    case CXCursor_ClassDecl:
    case CXCursor_StructDecl:
    case CXCursor_ClassTemplate:
    case CXCursor_ClassTemplatePartialSpecialization:
        return CXChildVisit_Recurse;
    default:
        break;
    }
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

/* Whether the class 'type' keeps a stream (a field that is one, or an array of or pointer to
 * them), or another of its member functions that the unit defines ('function' aside) has a
 * stream at hand (function_has_stream). */
static int class_has_stream(ss_check_ctx *ctx, CXCursor type, CXCursor function)
{
    int found = 0;
    CXCursor definition = clang_getCursorDefinition(type);
    if (!ss_ast_is_null(definition))
        clang_visitChildren(definition, find_field, &found);
    if (found)
        return 1;
    member_walk w = {ctx, type, function, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_member, &w);
    return w.found;
}

char *ss_context_no_stream_at_hand(ss_check_ctx *ctx, CXCursor at)
{
    (void)at;
    CXCursor function = named_function(ctx->function);
    if (ss_ast_is_null(function) || function_has_stream(ctx, function))
        return NULL;
    CXCursor type = member_of(function);
    if (!ss_ast_is_null(type) && class_has_stream(ctx, type, function))
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
