/* lint_readback.c: SYNC301, a single value read back from the device that makes the host wait for
 * all queued work: small device-to-host copies, Thrust element reads and value-returning
 * algorithms (and the partitions, which read their count back), libtorch item()/cpu()/nonzero()
 * and friends, cuBLAS reductions into host memory (names from rules/readback.def). */
#include "ast.h"
#include "checks.h"
#include "common.h"
#include "dataflow.h"
#include "log.h"
#include "scope.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The readback size when the configuration does not set one (bytes). */
enum { DEFAULT_READBACK_BYTES = 16 };

/* How deep tensor variables are followed to prove a tensor is on the CPU. */
enum { MAX_CHAIN = 4 };

static unsigned limit_of(const ss_check_ctx *ctx)
{
    return ctx->readback_bytes ? ctx->readback_bytes : DEFAULT_READBACK_BYTES;
}

/* ------------------------------------------------------------------------------------------
 * Raw copies: the byte count. */

static int is_scalar_type(CXType type)
{
    CXType t = clang_getCanonicalType(type);
    if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference)
        t = clang_getCanonicalType(clang_getPointeeType(t));
    switch (t.kind) {
    case CXType_Bool:
    case CXType_Char_U:
    case CXType_UChar:
    case CXType_Char16:
    case CXType_Char32:
    case CXType_UShort:
    case CXType_UInt:
    case CXType_ULong:
    case CXType_ULongLong:
    case CXType_UInt128:
    case CXType_Char_S:
    case CXType_SChar:
    case CXType_WChar:
    case CXType_Short:
    case CXType_Int:
    case CXType_Long:
    case CXType_LongLong:
    case CXType_Int128:
    case CXType_Half:
    case CXType_Float16:
    case CXType_Float:
    case CXType_Double:
    case CXType_LongDouble:
    case CXType_Pointer:
    case CXType_Enum:
        return 1;
    default:
        return 0;
    }
}

/* The index of template parameter 'param' among its template's parameters, or -1. */
typedef struct param_walk {
    CXCursor param;
    int index, found;
} param_walk;

static enum CXChildVisitResult find_param(CXCursor c, CXCursor parent, CXClientData data)
{
    param_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_TemplateTypeParameter && k != CXCursor_NonTypeTemplateParameter &&
        k != CXCursor_TemplateTemplateParameter)
        return CXChildVisit_Continue;
    if (clang_equalCursors(c, w->param)) {
        w->found = w->index;
        return CXChildVisit_Break;
    }
    w->index++;
    return CXChildVisit_Continue;
}

/* Whether some instantiation of the function template that owns 'param' gives it a scalar
 * type (found through the calls and references to the template in the translation unit). */
typedef struct inst_walk {
    CXCursor templ;
    int index;
    int scalar;
} inst_walk;

static enum CXChildVisitResult find_instantiation(CXCursor c, CXCursor parent, CXClientData data)
{
    inst_walk *w = data;
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_CallExpr && k != CXCursor_DeclRefExpr)
        return CXChildVisit_Recurse;
    CXCursor ref = clang_getCursorReferenced(c);
    CXCursor templ = clang_getSpecializedCursorTemplate(ref);
    if (ss_ast_is_null(templ) || !clang_equalCursors(templ, w->templ))
        return CXChildVisit_Recurse;
    if (clang_Cursor_getTemplateArgumentKind(ref, (unsigned)w->index) ==
            CXTemplateArgumentKind_Type &&
        is_scalar_type(clang_Cursor_getTemplateArgumentType(ref, (unsigned)w->index))) {
        w->scalar = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static int instantiated_scalar(CXTranslationUnit tu, CXCursor param)
{
    CXCursor templ = clang_getCursorSemanticParent(param);
    if (clang_getCursorKind(templ) != CXCursor_FunctionTemplate)
        return 0;
    param_walk pw = {param, 0, -1};
    clang_visitChildren(templ, find_param, &pw);
    if (pw.found < 0)
        return 0;
    inst_walk w = {templ, pw.found, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), find_instantiation, &w);
    return w.scalar;
}

/* Whether a type is scalar, also when it is a template parameter of a function template
 * that some instantiation makes scalar. */
static int scalar_or_instantiated(ss_check_ctx *ctx, CXType type)
{
    if (is_scalar_type(type))
        return 1;
    CXType t = clang_getCanonicalType(type);
    if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference)
        t = clang_getPointeeType(t);
    CXCursor decl = clang_getTypeDeclaration(t);
    if (clang_getCursorKind(decl) != CXCursor_TemplateTypeParameter)
        return 0;
    return instantiated_scalar(ctx->tu, decl);
}

/* sizeof(x) / sizeof(T): the size of a scalar, or a constant size within the limit. */
static int sizeof_is_scalar(ss_check_ctx *ctx, CXCursor e)
{
    long long value;
    if (ss_ast_eval_int(e, &value) == 0 && value > 0 && (unsigned long long)value <= limit_of(ctx))
        return 1;
    CXCursor operand = ss_ast_child(e, 0);
    if (ss_ast_is_null(operand))
        return 1; /* sizeof(float): a builtin type has no child cursor */
    enum CXCursorKind k = clang_getCursorKind(operand);
    if (k == CXCursor_TypeRef) {
        CXCursor decl = clang_getCursorReferenced(operand);
        if (clang_getCursorKind(decl) == CXCursor_TemplateTypeParameter)
            return instantiated_scalar(ctx->tu, decl);
        return is_scalar_type(clang_getCursorType(decl)) ||
               is_scalar_type(clang_getTypedefDeclUnderlyingType(decl));
    }
    if (clang_isExpression(k))
        return scalar_or_instantiated(ctx, clang_getCursorType(operand));
    return 0;
}

static int is_sizeof(CXCursor e)
{
    char tok[16];
    return clang_getCursorKind(e) == CXCursor_UnaryExpr &&
           ss_ast_first_token(e, tok, sizeof tok) == 0 && strcmp(tok, "sizeof") == 0;
}

/* The largest size that the instantiations the unit makes of the function template owning
 * 'param' give it (found as instantiated_scalar finds them); 'seen' counts them, and 'hidden'
 * is set where the template is named without its arguments (a call from another template's body
 * whose arguments depend on that template's parameters, instantiated only with it). */
typedef struct size_walk {
    CXCursor templ;
    int index;
    long long largest;
    int seen, hidden;
} size_walk;

/* Whether the overload set 'c' (a call left unresolved in a template) holds 'templ'. */
static int set_holds(CXCursor c, CXCursor templ)
{
    unsigned n = clang_getNumOverloadedDecls(c);
    for (unsigned i = 0; i < n; i++)
        if (clang_equalCursors(clang_getOverloadedDecl(c, i), templ))
            return 1;
    return 0;
}

static enum CXChildVisitResult find_instantiated_size(CXCursor c, CXCursor parent,
                                                      CXClientData data)
{
    size_walk *w = data;
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_OverloadedDeclRef && set_holds(c, w->templ))
        w->hidden = 1;
    if (k != CXCursor_CallExpr && k != CXCursor_DeclRefExpr)
        return CXChildVisit_Recurse;
    CXCursor ref = clang_getCursorReferenced(c);
    if (clang_equalCursors(ref, w->templ))
        w->hidden = 1; /* the template itself, not a specialization: a dependent use */
    CXCursor templ = clang_getSpecializedCursorTemplate(ref);
    if (ss_ast_is_null(templ) || !clang_equalCursors(templ, w->templ) ||
        clang_Cursor_getTemplateArgumentKind(ref, (unsigned)w->index) !=
            CXTemplateArgumentKind_Type)
        return CXChildVisit_Recurse;
    long long bytes =
        clang_Type_getSizeOf(clang_Cursor_getTemplateArgumentType(ref, (unsigned)w->index));
    w->seen++;
    if (bytes < 0 || bytes > w->largest)
        w->largest = bytes < 0 ? LLONG_MAX : bytes; /* a size lint cannot tell: not small */
    return CXChildVisit_Recurse;
}

/* Whether the unit's main file names 'templ' in an explicit instantiation, a definition or an
 * 'extern template' declaration (libclang shows no cursor for either): an identifier spelled as
 * its name between a 'template' not followed by '<' and the next ';' or '{'. */
static int explicitly_instantiated(CXTranslationUnit tu, CXCursor templ)
{
    CXString s = clang_getCursorSpelling(templ);
    const char *name = clang_getCString(s) ? clang_getCString(s) : "";
    CXToken *tokens = NULL;
    unsigned n = 0;
    clang_tokenize(tu, clang_getCursorExtent(clang_getTranslationUnitCursor(tu)), &tokens, &n);
    int inside = 0, found = 0;
    for (unsigned i = 0; i < n && !found; i++) {
        CXString t = clang_getTokenSpelling(tu, tokens[i]);
        const char *text = clang_getCString(t);
        if (inside && (strcmp(text, ";") == 0 || strcmp(text, "{") == 0)) {
            inside = 0;
        } else if (inside) {
            found = clang_getTokenKind(tokens[i]) == CXToken_Identifier && strcmp(text, name) == 0;
        } else if (strcmp(text, "template") == 0 && i + 1 < n) {
            CXString next = clang_getTokenSpelling(tu, tokens[i + 1]);
            inside = strcmp(clang_getCString(next), "<") != 0;
            clang_disposeString(next);
        }
        clang_disposeString(t);
    }
    clang_disposeTokens(tu, tokens, n);
    clang_disposeString(s);
    return found;
}

/* Whether the sizeof 'e' is written 'sizeof(T)' of the parameter 'param' alone (cv-qualifiers
 * aside): not 'sizeof(T[4])', 'sizeof(T *)' or 'sizeof(typename T::cell)'. */
static int sizeof_of_param_alone(CXCursor e, CXCursor param)
{
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(e);
    CXString s = clang_getCursorSpelling(param);
    const char *name = clang_getCString(s) ? clang_getCString(s) : "";
    CXToken *tokens = NULL;
    unsigned n = 0;
    clang_tokenize(tu, clang_getCursorExtent(e), &tokens, &n);
    int names = 0, other = n < 4;
    for (unsigned i = 0; i < n && !other; i++) {
        CXString t = clang_getTokenSpelling(tu, tokens[i]);
        const char *text = clang_getCString(t);
        if (i == 0)
            other = strcmp(text, "sizeof") != 0;
        else if (i == 1 || i == n - 1)
            other = strcmp(text, i == 1 ? "(" : ")") != 0;
        else if (strcmp(text, name) == 0)
            names++;
        else
            other = strcmp(text, "const") != 0 && strcmp(text, "volatile") != 0;
        clang_disposeString(t);
    }
    clang_disposeTokens(tu, tokens, n);
    clang_disposeString(s);
    return !other && names == 1;
}

/* Whether the type 't', a reference's referred type, is spelled 'name' but for its own
 * 'const' and 'volatile' ('const T &' for T). By its spelling: clang_getUnqualifiedType and
 * clang_getNonReferenceType are libclang 16's, and lint builds against libclang 14 too. */
static int spelled_alone(CXType t, const char *name)
{
    if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference)
        t = clang_getPointeeType(t);
    CXString spelled = clang_getTypeSpelling(t);
    const char *text = clang_getCString(spelled);
    size_t len = strlen(text);
    for (int again = 1; again;) {
        again = 0;
        static const char *const heads[] = {"const ", "volatile "};
        static const char *const tails[] = {" const", " volatile"};
        for (size_t i = 0; i < 2; i++) {
            size_t h = strlen(heads[i]), t_len = strlen(tails[i]);
            if (len > h && strncmp(text, heads[i], h) == 0) {
                text += h;
                len -= h;
                again = 1;
            }
            if (len > t_len && strncmp(text + len - t_len, tails[i], t_len) == 0) {
                len -= t_len;
                again = 1;
            }
        }
    }
    int alone = len == strlen(name) && strncmp(text, name, len) == 0;
    clang_disposeString(spelled);
    return alone;
}

/* The template type parameter that 'sizeof_expr' measures one value of: 'sizeof(T)', or
 * 'sizeof x' of an x whose type (or the type it refers to) is T; else a null cursor. */
static CXCursor measured_param(CXCursor sizeof_expr)
{
    CXCursor operand = ss_ast_child(sizeof_expr, 0);
    if (clang_getCursorKind(operand) == CXCursor_TypeRef) {
        CXCursor decl = clang_getCursorReferenced(operand);
        return clang_getCursorKind(decl) == CXCursor_TemplateTypeParameter &&
                       sizeof_of_param_alone(sizeof_expr, decl)
                   ? decl
                   : clang_getNullCursor();
    }
    /* 'sizeof x': the variable x names, declared 'T x' (its type written with T alone). */
    CXCursor ref = ss_ast_strip(operand);
    if (clang_getCursorKind(ref) == CXCursor_ParenExpr)
        ref = ss_ast_strip(ss_ast_child(ref, 0));
    CXCursor var = clang_getCursorKind(ref) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(ref)
                                                                    : clang_getNullCursor();
    enum CXCursorKind vk = clang_getCursorKind(var);
    if (vk != CXCursor_VarDecl && vk != CXCursor_ParmDecl)
        return clang_getNullCursor();
    CXCursor type_ref = ss_ast_child(var, 0);
    CXCursor decl = clang_getCursorReferenced(type_ref);
    if (clang_getCursorKind(type_ref) != CXCursor_TypeRef ||
        clang_getCursorKind(decl) != CXCursor_TemplateTypeParameter)
        return clang_getNullCursor();
    CXString name = clang_getCursorSpelling(decl);
    int alone = spelled_alone(clang_getCursorType(var), clang_getCString(name));
    clang_disposeString(name);
    return alone ? decl : clang_getNullCursor();
}

/* The largest size the instantiations of the function template 'templ' give its parameter
 * 'param': LLONG_MAX unless the unit shows them all (some seen, none explicit, none made
 * through another template), or where the template is a class template's. */
static long long largest_instantiation(ss_check_ctx *ctx, CXCursor templ, CXCursor param)
{
    if (clang_getCursorKind(templ) != CXCursor_FunctionTemplate)
        return LLONG_MAX;
    param_walk pw = {param, 0, -1};
    clang_visitChildren(templ, find_param, &pw);
    if (pw.found < 0)
        return LLONG_MAX;
    size_walk w = {templ, pw.found, 0, 0, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_instantiated_size, &w);
    if (w.seen == 0 || w.hidden || explicitly_instantiated(ctx->tu, templ))
        return LLONG_MAX;
    return w.largest;
}

int ss_check_template_value_size(ss_check_ctx *ctx, CXCursor size, char **param_name,
                                 long long *largest)
{
    *largest = 0;
    *param_name = NULL;
    CXCursor e = ss_ast_strip(size);
    if (!is_sizeof(e))
        return 0;
    CXCursor param = measured_param(e);
    if (ss_ast_is_null(param))
        return 0;
    *largest = largest_instantiation(ctx, clang_getCursorSemanticParent(param), param);
    CXString name = clang_getCursorSpelling(param);
    *param_name = ss_xstrdup(clang_getCString(name));
    clang_disposeString(name);
    return 1;
}

/* Whether the byte count 'size' reads back one scalar (rules.md: sizeof(x) of a scalar x,
 * sizeof(T) of a scalar type, 1*sizeof(...), or a constant within the readback limit). */
static int scalar_size(ss_check_ctx *ctx, CXCursor size)
{
    CXCursor e = ss_ast_strip(size);
    if (is_sizeof(e))
        return sizeof_is_scalar(ctx, e);
    if (clang_getCursorKind(e) == CXCursor_BinaryOperator) {
        char op[8];
        if (ss_ast_binary_op(e, op, sizeof op) == 0 && strcmp(op, "*") == 0) {
            for (unsigned i = 0; i < 2; i++) {
                long long one;
                CXCursor factor = ss_ast_strip(ss_ast_child(e, i));
                CXCursor other = ss_ast_strip(ss_ast_child(e, 1 - i));
                if (ss_ast_eval_int(factor, &one) == 0 && one == 1 && is_sizeof(other))
                    return sizeof_is_scalar(ctx, other);
            }
        }
    }
    long long value;
    return ss_ast_eval_int(e, &value) == 0 && value > 0 &&
           (unsigned long long)value <= limit_of(ctx);
}

/* A synchronizing call after offset 'after' in the function. */
typedef struct sync_walk {
    unsigned after;
    CXCursor found;
} sync_walk;

static enum CXChildVisitResult find_sync(CXCursor c, CXCursor parent, CXClientData data)
{
    sync_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr || ss_ast_offset(c) <= w->after)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    if (api && (api->sync == SS_SYNC_EXPLICIT || api->sync == SS_SYNC_ALWAYS)) {
        w->found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

int ss_check_one_value_size(ss_check_ctx *ctx, CXCursor call, const ss_api *api)
{
    int nargs = clang_Cursor_getNumArguments(call);
    return api->size_arg >= 0 && nargs > api->size_arg &&
           scalar_size(ctx, clang_Cursor_getArgument(call, (unsigned)api->size_arg));
}

int ss_check_copies_one_value(ss_check_ctx *ctx, CXCursor call, const ss_api *api)
{
    int nargs = clang_Cursor_getNumArguments(call);
    if (api->size_arg < 0 || nargs <= api->size_arg || nargs <= api->dst_arg || api->dst_arg < 0)
        return 0;
    if (api->dir == SS_DIR_KIND) {
        long long kind;
        if (api->kind_arg < 0 || nargs <= api->kind_arg ||
            ss_ast_eval_int(ss_ast_strip(clang_Cursor_getArgument(call, (unsigned)api->kind_arg)),
                            &kind) != 0 ||
            kind != SS_COPY_KIND_D2H)
            return 0;
    } else if (api->dir != SS_DIR_D2H) {
        return 0;
    }
    return scalar_size(ctx, clang_Cursor_getArgument(call, (unsigned)api->size_arg));
}

/* The byte count of the copy 'call' ('api' is its row: runtime or driver) when SYNC301 reports it:
 * a device-to-host copy of one scalar that the host waits for; else a null cursor. '*sync' receives
 * the later call that waits for an asynchronous copy (a null cursor for a synchronous one). */
static CXCursor readback_size(ss_check_ctx *ctx, CXCursor call, const ss_api *api, CXCursor *sync)
{
    CXCursor none = clang_getNullCursor();
    *sync = none;
    if (ss_ast_is_null(ctx->function) ||
        (api->sync != SS_SYNC_ALWAYS && api->sync != SS_SYNC_PAGEABLE) ||
        !ss_check_copies_one_value(ctx, call, api))
        return none;
    CXCursor size = clang_Cursor_getArgument(call, (unsigned)api->size_arg);
    if (api->sync == SS_SYNC_PAGEABLE) {
        sync_walk w = {ss_ast_offset(call), none};
        clang_visitChildren(ss_scope_outer_function(ctx->function), find_sync, &w);
        if (ss_ast_is_null(w.found))
            return none; /* nothing waits for it in this function */
        *sync = w.found;
    }
    return size;
}

int ss_check_is_readback(ss_check_ctx *ctx, CXCursor call, const ss_api *api)
{
    CXCursor sync;
    return !ss_ast_is_null(readback_size(ctx, call, api, &sync));
}

/* What a readback's message adds after "... into 'dst'": the later call that waits for an
 * asynchronous copy, or the pipeline a synchronous one holds up (the context SYNC202 would
 * give, since SYNC202 leaves the copy to this rule), or nothing. Malloc'ed. */
static char *readback_context(ss_check_ctx *ctx, CXCursor call, const ss_api *api, CXCursor sync)
{
    const char *stalls = "the host stalls until all queued work has produced it";
    ss_pipeline pipe = {0};
    if (!ss_ast_is_null(sync)) {
        char *sync_name = ss_scope_callee_name(sync);
        char *text = ss_xasprintf(" and '%s' at line %u waits for it: %s",
                                  sync_name ? sync_name : "a sync", ss_scope_line(sync), stalls);
        free(sync_name);
        return text;
    }
    if (api->sync != SS_SYNC_ALWAYS || !ss_check_pipeline(ctx, call, &pipe)) {
        ss_pipeline_free(&pipe);
        return ss_xasprintf(": %s", stalls);
    }
    if (!ss_ast_is_null(pipe.loop)) {
        char *loop = ss_check_pipeline_loop_words(&pipe);
        char *text = ss_xasprintf(" %s: in every iteration %s", loop, stalls);
        ctx->loop_said = 1;
        free(loop);
        ss_pipeline_free(&pipe);
        return text;
    }
    char *stream = ss_expr_text(pipe.stream);
    char *text = ss_xasprintf(": %s, and the synchronous copy serializes with the work on stream "
                              "'%s' (line %u)",
                              stalls, stream ? stream : "...", ss_scope_line(pipe.stream));
    free(stream);
    ss_pipeline_free(&pipe);
    return text;
}

/* SYNC301 (checks.def): a device-to-host copy of a scalar that the host waits for. */
void ss_check_readback_copy(ss_check_ctx *ctx, CXCursor call, const ss_api *api)
{
    CXCursor sync;
    CXCursor size = readback_size(ctx, call, api, &sync);
    if (ss_ast_is_null(size))
        return;
    char *dst = ss_expr_text(clang_Cursor_getArgument(call, (unsigned)api->dst_arg));
    char *bytes = ss_expr_text(size);
    char *at = ss_check_where_suffix(ctx);
    char *context = readback_context(ctx, call, api, sync);
    const char *fix = "keep the value on the device (let the next kernel read it), or batch "
                      "such values and read them back once, asynchronously into pinned memory";
    char *message =
        ss_xasprintf("'%s'%s reads one value (size '%s') back from the device into "
                     "'%s'%s",
                     api->name, at, bytes ? bytes : "a few bytes", dst ? dst : "...", context);
    ss_check_report(ctx, SS_RULE_SCALAR_READBACK, call, message, fix);
    free(message);
    free(context);
    free(at);
    free(bytes);
    free(dst);
}

/* ------------------------------------------------------------------------------------------
 * Ancestors of a node, for "is this device element read or written?". */

enum { MAX_ANCESTORS = 8 };

typedef struct ancestor_walk {
    unsigned begin, end;
    CXCursor next;
    int hit; /* the child is the node itself */
    enum CXCursorKind kind;
} ancestor_walk;

static enum CXChildVisitResult find_child(CXCursor c, CXCursor parent, CXClientData data)
{
    ancestor_walk *w = data;
    unsigned b, e;
    ss_ast_range(c, &b, &e);
    if (b > w->begin || e < w->end)
        return CXChildVisit_Continue;
    w->next = c;
    w->hit = b == w->begin && e == w->end && clang_getCursorKind(c) == w->kind;
    return CXChildVisit_Break;
}

/* Writes the ancestors of 'node' inside 'top' to 'out', nearest first. Returns how many. */
static size_t ancestors(CXCursor top, CXCursor node, CXCursor *out, size_t max)
{
    CXCursor chain[64];
    size_t depth = 0;
    ancestor_walk w;
    ss_ast_range(node, &w.begin, &w.end);
    w.kind = clang_getCursorKind(node);
    CXCursor at = top;
    while (depth < sizeof chain / sizeof chain[0]) {
        w.next = clang_getNullCursor();
        w.hit = 0;
        clang_visitChildren(at, find_child, &w);
        if (ss_ast_is_null(w.next))
            return 0;
        chain[depth++] = at;
        if (w.hit)
            break;
        at = w.next;
    }
    size_t n = 0;
    while (depth > 0 && n < max)
        out[n++] = chain[--depth];
    return n;
}

static int is_implicit(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    return k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr;
}

static char *method_name(CXCursor call)
{
    CXString s = clang_getCursorSpelling(clang_getCursorReferenced(call));
    char *name = ss_xstrdup(clang_getCString(s));
    clang_disposeString(s);
    return name;
}

static int is_thrust_reference(CXType type)
{
    char *name = ss_type_template_name(type);
    int match = name && ss_readback_find(name, SS_READBACK_THRUST_REFERENCE);
    free(name);
    return match;
}

/* Whether the device reference 'access' (in 'function') is only written, addressed or passed on
 * as a reference (no value reaches the host). */
static int reference_not_read(CXCursor function, CXCursor access)
{
    CXCursor up[MAX_ANCESTORS];
    size_t n = ancestors(ss_scope_outer_function(function), access, up, MAX_ANCESTORS);
    size_t i = 0;
    CXCursor child = access;
    while (i < n && is_implicit(up[i]))
        child = up[i++];
    if (i >= n)
        return 0;
    CXCursor p = up[i];
    enum CXCursorKind k = clang_getCursorKind(p);
    if (k == CXCursor_CallExpr) {
        char *name = method_name(p);
        int assign_or_address =
            name && (strcmp(name, "operator=") == 0 || strcmp(name, "operator&") == 0);
        /* std::cout << v[i]: Thrust's operator<< takes the reference and reads it. */
        int printed = name && strcmp(name, "operator<<") == 0;
        free(name);
        if (assign_or_address && ss_ast_offset(ss_ast_child(p, 0)) == ss_ast_offset(child))
            return 1; /* v[i] = x, &v[i] */
        if (printed)
            return 0;
        int nargs = clang_Cursor_getNumArguments(p);
        CXType ftype = clang_getCursorType(clang_getCursorReferenced(p));
        for (int a = 0; a < nargs; a++) {
            CXCursor arg = clang_Cursor_getArgument(p, (unsigned)a);
            if (ss_ast_offset(arg) != ss_ast_offset(child))
                continue;
            CXType param = clang_getArgType(ftype, (unsigned)a);
            if (param.kind != CXType_Invalid && is_thrust_reference(param))
                return 1; /* passed on as a device reference */
        }
        return 0;
    }
    if (k == CXCursor_UnaryOperator) {
        char tok[16];
        return ss_ast_first_token(p, tok, sizeof tok) == 0 && strcmp(tok, "&") == 0;
    }
    if (k == CXCursor_VarDecl)
        return is_thrust_reference(clang_getCursorType(p)); /* auto r = v[i]; */
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * Thrust. */

/* Whether a type spelling marks a device (1) or host (0) range or policy, or neither (-1). */
static int type_side(CXType type)
{
    CXString s = clang_getTypeSpelling(clang_getCanonicalType(type));
    const char *text = clang_getCString(s);
    int side = -1;
    if (ss_readback_match(text, SS_READBACK_THRUST_HOST_MARK))
        side = 0;
    else if (ss_readback_match(text, SS_READBACK_THRUST_DEVICE_MARK))
        side = 1;
    clang_disposeString(s);
    if (side < 0) {
        char *name = ss_type_template_name(type);
        if (name && ss_readback_find(name, SS_READBACK_THRUST_DEVICE_CONTAINER))
            side = 1;
        free(name);
    }
    return side;
}

/* Whether a Thrust algorithm call runs on a device range: its policy or, without one, its
 * first iterator says so. */
static int device_range(CXCursor call)
{
    int nargs = clang_Cursor_getNumArguments(call);
    for (int i = 0; i < nargs && i < 2; i++) {
        int side = type_side(clang_getCursorType(clang_Cursor_getArgument(call, (unsigned)i)));
        if (side >= 0)
            return side;
    }
    return 0;
}

static void report_call(ss_check_ctx *ctx, CXCursor call, const char *what, const char *fix)
{
    char *at = ss_check_where_suffix(ctx);
    char *message =
        ss_xasprintf("%s%s: the host stalls until all queued device work has finished", what, at);
    ss_check_report(ctx, SS_RULE_SCALAR_READBACK, call, message, fix);
    free(message);
    free(at);
}

static const char thrust_fix[] =
    "keep the result on the device (reduce into device memory with cub::DeviceReduce or "
    "thrust::reduce_by_key on a stream) and read it back once, or less often";

static void thrust_algorithm(ss_check_ctx *ctx, CXCursor call, const char *qualified)
{
    const ss_readback *row = ss_readback_find(qualified, SS_READBACK_THRUST_VALUE_ALGO);
    if (row && device_range(call)) {
        char *what =
            ss_xasprintf("'%s' on a device range returns its result to the host", row->name);
        report_call(ctx, call, what, thrust_fix);
        free(what);
        return;
    }
    row = ss_readback_find(qualified, SS_READBACK_THRUST_COUNT_ALGO);
    if (row && device_range(call)) {
        char *what = ss_xasprintf("'%s' on a device range reads the count of the elements it "
                                  "selects back to the host",
                                  row->name);
        report_call(ctx, call, what, thrust_fix);
        free(what);
        return;
    }
    row = ss_readback_find(qualified, SS_READBACK_THRUST_ITER_ALGO);
    if (row == NULL || !device_range(call))
        return;
    /* '*thrust::max_element(thrust::device, p, p + n)' on raw pointers: a builtin
     * dereference of a device address on the host. Device iterators are reported at their
     * operator* instead. */
    CXCursor up[MAX_ANCESTORS];
    size_t n = ancestors(ss_scope_outer_function(ctx->function), call, up, MAX_ANCESTORS);
    size_t i = 0;
    while (i < n && is_implicit(up[i]))
        i++;
    char tok[16];
    if (i < n && clang_getCursorKind(up[i]) == CXCursor_UnaryOperator &&
        ss_ast_first_token(up[i], tok, sizeof tok) == 0 && strcmp(tok, "*") == 0) {
        char *what = ss_xasprintf("the element '%s' finds is dereferenced on the host", row->name);
        report_call(ctx, call, what, thrust_fix);
        free(what);
    }
}

static const char element_fix[] = "copy the elements you need with one asynchronous copy, or "
                                  "keep the computation on the device";

/* Whether the call 'call' of the method 'method' is an element access of a device container
 * whose value reaches the host ('v[i]', 'v.front()' read). */
static int element_read(CXCursor function, CXCursor call, const char *method)
{
    if (!ss_readback_find(method, SS_READBACK_THRUST_ELEMENT_METHOD) ||
        !is_thrust_reference(clang_getCursorType(call)))
        return 0;
    /* The object: 'v' of 'v.front' (a method's reference), or the container itself where it is
     * a field ('m_vec' of 'm_vec[i]'). */
    CXCursor object = ss_ast_strip(ss_ast_child(call, 0));
    if (clang_getCursorKind(object) == CXCursor_MemberRefExpr &&
        clang_getCursorKind(clang_getCursorReferenced(object)) != CXCursor_FieldDecl)
        object = ss_ast_child(object, 0);
    return type_side(clang_getCursorType(object)) == 1 && !reference_not_read(function, call);
}

static void thrust_element(ss_check_ctx *ctx, CXCursor call, const char *method)
{
    if (!element_read(ctx->function, call, method))
        return;
    char *text = ss_expr_text(call);
    char *what = ss_xasprintf("'%s' reads one device element on the host (a synchronous "
                              "copy of a single value)",
                              text ? text : method);
    report_call(ctx, call, what, element_fix);
    free(what);
    free(text);
}

/* Whether the conversion 'conversion' called at 'call' converts a device reference to its value
 * ('float y = v.front();'). */
static int conversion_read(CXCursor conversion)
{
    CXCursor cls = clang_getCursorSemanticParent(conversion);
    CXCursor templ = clang_getSpecializedCursorTemplate(cls);
    char *name = ss_qualified_name(ss_ast_is_null(templ) ? cls : templ);
    int match = ss_readback_find(name, SS_READBACK_THRUST_REFERENCE) != NULL;
    free(name);
    return match;
}

/* A device reference converted to its value ('float y = v.front();'): clang shows the
 * implicit conversion call without the access inside it. */
static void thrust_conversion(ss_check_ctx *ctx, CXCursor call, CXCursor conversion)
{
    if (!conversion_read(conversion))
        return;
    char *text = ss_expr_text(call);
    char *what = ss_xasprintf("'%s' reads one device element on the host (a synchronous "
                              "copy of a single value)",
                              text ? text : "a device reference");
    report_call(ctx, call, what, element_fix);
    free(what);
    free(text);
}

int ss_check_thrust_element_read(CXCursor function, CXCursor call)
{
    CXCursor callee = clang_getCursorReferenced(call);
    enum CXCursorKind kind = clang_getCursorKind(callee);
    if (clang_getCursorKind(call) != CXCursor_CallExpr || ss_ast_is_null(function))
        return 0;
    if (kind == CXCursor_ConversionFunction)
        return conversion_read(callee);
    char *name = kind == CXCursor_CXXMethod ? method_name(call) : NULL;
    int read = name && element_read(function, call, name);
    free(name);
    return read;
}

/* ------------------------------------------------------------------------------------------
 * cuBLAS. */

static const char cublas_fix[] =
    "set CUBLAS_POINTER_MODE_DEVICE on the handle and return the result into device memory, "
    "then read it back once, or less often";

/* A cuBLAS call that returns one scalar into host memory (ss_cublas_host_result): it returns
 * only once the result is there. Not where the result is provably device memory (a handle
 * whose device pointer mode another unit set). */
static void cublas_call(ss_check_ctx *ctx, CXCursor call)
{
    CXCursor result;
    char *name = ss_cublas_host_result(ss_cublas_unit(ctx), call, &result);
    if (name == NULL)
        return;
    if (!ss_check_is_device_pointer(ctx->function, result)) {
        /* The mode is a handle's, which another unit may have set (Ginkgo sets the device
         * mode where it creates its handles): the words say what lint assumes. */
        char *what = ss_xasprintf("'%s' returns its result to host memory (the host pointer "
                                  "mode, the default: this unit sets no other)",
                                  name);
        report_call(ctx, call, what, cublas_fix);
        free(what);
    }
    free(name);
}

/* ------------------------------------------------------------------------------------------
 * libtorch. */

static int is_tensor_class(CXCursor method)
{
    CXCursor cls = clang_getCursorSemanticParent(method);
    char *name = ss_qualified_name(cls);
    int match = name && ss_readback_find(name, SS_READBACK_TORCH_TENSOR_CLASS);
    free(name);
    return match;
}

/* Whether an argument subtree names the CPU device or something that may be CUDA. */
typedef struct mark_walk {
    ss_readback_kind kind;
    int found;
} mark_walk;

static enum CXChildVisitResult find_mark(CXCursor c, CXCursor parent, CXClientData data)
{
    mark_walk *w = data;
    CXString s = clang_getCursorSpelling(c);
    if (ss_readback_find(clang_getCString(s), w->kind))
        w->found = 1;
    clang_disposeString(s);
    if (!w->found && w->kind == SS_READBACK_TORCH_CUDA_MARK) {
        CXString t = clang_getTypeSpelling(clang_getCursorType(c));
        if (ss_readback_match(clang_getCString(t), w->kind))
            w->found = 1;
        clang_disposeString(t);
    }
    return w->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static int mentions(CXCursor expr, ss_readback_kind kind)
{
    mark_walk w = {kind, 0};
    find_mark(expr, clang_getNullCursor(), &w);
    if (!w.found)
        clang_visitChildren(expr, find_mark, &w);
    return w.found;
}

/* Whether a '.to(...)' call names the CPU device. */
static int to_cpu(CXCursor call)
{
    int nargs = clang_Cursor_getNumArguments(call);
    for (int i = 0; i < nargs; i++) {
        if (mentions(clang_Cursor_getArgument(call, (unsigned)i), SS_READBACK_TORCH_CPU_DEVICE))
            return 1;
    }
    return 0;
}

static int on_cpu(ss_check_ctx *ctx, CXCursor expr, int depth);

/* Whether every definition of a tensor variable reaching 'use' is a CPU tensor. */
static int location_on_cpu(ss_check_ctx *ctx, CXCursor e, int depth)
{
    ss_location loc;
    if (ss_location_of(e, NULL, &loc) != 0)
        return 0;
    ss_defs defs = {0};
    ss_dataflow_reaching(ctx->function, &loc, e, &defs);
    int cpu = defs.count > 0;
    for (size_t i = 0; i < defs.count && cpu; i++)
        cpu = defs.v[i].kind == SS_DEF_VALUE && on_cpu(ctx, defs.v[i].value, depth + 1);
    ss_defs_free(&defs);
    ss_location_free(&loc);
    return cpu;
}

/* Whether a tensor expression is provably on the CPU. */
static int on_cpu(ss_check_ctx *ctx, CXCursor expr, int depth)
{
    if (depth > MAX_CHAIN)
        return 0;
    CXCursor e = ss_ast_strip(expr);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_DeclRefExpr)
        return location_on_cpu(ctx, e, depth);
    if (k != CXCursor_CallExpr)
        return 0;
    CXCursor callee = clang_getCursorReferenced(e);
    enum CXCursorKind ck = clang_getCursorKind(callee);
    if ((ck == CXCursor_Constructor || ss_ast_is_null(callee)) && ss_ast_child_count(e) == 1 &&
        clang_isExpression(clang_getCursorKind(ss_ast_child(e, 0))))
        return on_cpu(ctx, ss_ast_child(e, 0), depth + 1); /* a copy or move */
    CXString s = clang_getCursorSpelling(callee);
    char *name = ss_xstrdup(clang_getCString(s));
    clang_disposeString(s);
    int cpu = 0;
    if (ck == CXCursor_CXXMethod && is_tensor_class(callee)) {
        if (strcmp(name, "cpu") == 0 && ss_readback_find(name, SS_READBACK_TORCH_READBACK_METHOD))
            cpu = 1;
        else if (ss_readback_find(name, SS_READBACK_TORCH_TO_METHOD))
            cpu = to_cpu(e);
    } else if (ck == CXCursor_FunctionDecl) {
        char *q = ss_qualified_name(callee);
        if (ss_readback_find(q, SS_READBACK_TORCH_FACTORY)) {
            cpu = 1;
            int nargs = clang_Cursor_getNumArguments(e);
            for (int i = 0; i < nargs && cpu; i++) {
                CXCursor arg = clang_Cursor_getArgument(e, (unsigned)i);
                cpu = ss_check_is_omitted(arg) || !mentions(arg, SS_READBACK_TORCH_CUDA_MARK);
            }
        }
        free(q);
    }
    free(name);
    return cpu;
}

static const char torch_fix[] =
    "keep the value in a tensor on the device (accumulate there) and read it back once, "
    "e.g. after the loop, or copy it with non_blocking=True into pinned memory";

static void torch_method(ss_check_ctx *ctx, CXCursor call, CXCursor method, const char *name)
{
    int readback = ss_readback_find(name, SS_READBACK_TORCH_READBACK_METHOD) != NULL;
    if (!readback && ss_readback_find(name, SS_READBACK_TORCH_TO_METHOD))
        readback = to_cpu(call);
    if (!readback || !is_tensor_class(method))
        return;
    CXCursor object = ss_ast_strip(ss_ast_child(call, 0));
    if (clang_getCursorKind(object) == CXCursor_MemberRefExpr)
        object = ss_ast_child(object, 0);
    if (ss_ast_is_null(object) || on_cpu(ctx, object, 0))
        return;
    char *text = ss_expr_text(object);
    char *what = ss_xasprintf("'%s()' on tensor '%s', which may be on CUDA, copies it to the "
                              "host",
                              name, text ? text : "...");
    report_call(ctx, call, what, torch_fix);
    free(what);
    free(text);
}

static void torch_function(ss_check_ctx *ctx, CXCursor call, const char *qualified)
{
    const ss_readback *row = ss_readback_find(qualified, SS_READBACK_TORCH_READBACK_FUNCTION);
    if (row == NULL || clang_Cursor_getNumArguments(call) < 1)
        return;
    CXCursor tensor = clang_Cursor_getArgument(call, 0);
    if (on_cpu(ctx, tensor, 0))
        return;
    char *text = ss_expr_text(tensor);
    char *what = ss_xasprintf("'%s' on tensor '%s', which may be on CUDA, copies a result "
                              "to the host",
                              row->name, text ? text : "...");
    report_call(ctx, call, what, torch_fix);
    free(what);
    free(text);
}

/* SYNC301 (checks.def): Thrust and libtorch readbacks; given every call but a launch,
 * whatever its callee ('api' is unused). */
void ss_check_readback_call(ss_check_ctx *ctx, CXCursor call, const ss_api *api)
{
    if (ss_ast_is_null(ctx->function))
        return;
    CXCursor callee = clang_getCursorReferenced(call);
    enum CXCursorKind kind = clang_getCursorKind(callee);
    if (kind == CXCursor_ConversionFunction) {
        thrust_conversion(ctx, call, callee);
    } else if (kind == CXCursor_CXXMethod) {
        char *name = method_name(call);
        if (name) {
            thrust_element(ctx, call, name);
            torch_method(ctx, call, callee, name);
        }
        free(name);
    } else if (kind == CXCursor_FunctionDecl) {
        char *q = ss_qualified_name(callee);
        thrust_algorithm(ctx, call, q);
        torch_function(ctx, call, q);
        cublas_call(ctx, call);
        free(q);
    }
}
