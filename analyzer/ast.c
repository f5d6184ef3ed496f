/* ast.c: small libclang cursor helpers shared by the checks and the dataflow. */
#include "ast.h"
#include "log.h"
#include "map.h"
#include "report.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ss_ast_is_null(CXCursor c)
{
    return clang_Cursor_isNull(c) || clang_isInvalid(clang_getCursorKind(c));
}

typedef struct child_walk {
    unsigned want, seen;
    CXCursor found;
} child_walk;

static enum CXChildVisitResult nth_child(CXCursor c, CXCursor parent, CXClientData data)
{
    child_walk *w = data;
    if (w->seen++ == w->want) {
        w->found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

CXCursor ss_ast_child(CXCursor parent, unsigned index)
{
    child_walk w = {index, 0, clang_getNullCursor()};
    clang_visitChildren(parent, nth_child, &w);
    return w.found;
}

static enum CXChildVisitResult count_child(CXCursor c, CXCursor parent, CXClientData data)
{
    (*(unsigned *)data)++;
    return CXChildVisit_Continue;
}

unsigned ss_ast_child_count(CXCursor parent)
{
    unsigned n = 0;
    clang_visitChildren(parent, count_child, &n);
    return n;
}

CXCursor ss_ast_strip(CXCursor expr)
{
    for (;;) {
        enum CXCursorKind kind = clang_getCursorKind(expr);
        if (kind != CXCursor_UnexposedExpr && kind != CXCursor_ParenExpr &&
            kind != CXCursor_CStyleCastExpr && kind != CXCursor_CXXStaticCastExpr &&
            kind != CXCursor_CXXReinterpretCastExpr && kind != CXCursor_CXXConstCastExpr &&
            kind != CXCursor_CXXFunctionalCastExpr)
            return expr;
        /* An implicit conversion or cast has one operand child (casts may also carry a
         * TypeRef first); a default argument has none. */
        CXCursor next = clang_getNullCursor();
        unsigned n = ss_ast_child_count(expr);
        for (unsigned i = 0; i < n; i++) {
            CXCursor c = ss_ast_child(expr, i);
            enum CXCursorKind ck = clang_getCursorKind(c);
            if (clang_isExpression(ck)) {
                next = c;
                break;
            }
        }
        if (ss_ast_is_null(next))
            return expr;
        expr = next;
    }
}

void ss_ast_range(CXCursor c, unsigned *begin, unsigned *end)
{
    CXSourceRange r = clang_getCursorExtent(c);
    clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL, begin);
    clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, end);
}

int ss_ast_same_node(CXCursor a, CXCursor b)
{
    /* The extent as clang records it, not at expansion locations: every node of one macro
     * expansion has the same expansion range, but its own spelling position in the macro. */
    return clang_getCursorKind(a) == clang_getCursorKind(b) &&
           clang_equalRanges(clang_getCursorExtent(a), clang_getCursorExtent(b));
}

void ss_ast_visit_whole(CXCursor c, CXCursor parent, CXCursorVisitor visit, CXClientData data)
{
    if (visit(c, parent, data) == CXChildVisit_Recurse)
        clang_visitChildren(c, visit, data);
}

unsigned ss_ast_offset(CXCursor c)
{
    unsigned b, e;
    ss_ast_range(c, &b, &e);
    return b;
}

/* The texts clang_getFileContents gave this thread lately: it looks the file up in the unit's
 * whole table of source locations each time, and ss_expr_text asks at every argument it reads.
 * Emptied by ss_ast_forget_unit before the unit is disposed. */
enum { FILE_TEXTS = 4 };
typedef struct file_text {
    CXTranslationUnit tu;
    CXFile file;
    const char *text;
    size_t size;
} file_text;
static _Thread_local file_text file_texts[FILE_TEXTS];
static _Thread_local unsigned file_text_next;

/* clang_getFileContents, remembered. */
static const char *file_contents(CXTranslationUnit tu, CXFile file, size_t *size)
{
    for (unsigned i = 0; file && i < FILE_TEXTS; i++) {
        if (file_texts[i].tu == tu && file_texts[i].file == file) {
            *size = file_texts[i].size;
            return file_texts[i].text;
        }
    }
    const char *text = clang_getFileContents(tu, file, size);
    file_text *slot = &file_texts[file_text_next++ % FILE_TEXTS];
    slot->tu = tu;
    slot->file = file;
    slot->text = text;
    slot->size = *size;
    return text;
}

/* What ss_ast_binary_op read of one operator: its token (at most 3 characters), whether one
 * was found, and whether the operator starts inside a macro invocation. */
typedef struct binary_op_read {
    char token[8];
    int found;
    int in_macro;
} binary_op_read;

/* The operators this thread read in its unit, by the extents of the operator and of its left
 * operand (ss_map: each extent's two offsets as one key), of which the reading is a function:
 * the dataflow asks again of every assignment of a function for each use it follows, and an
 * operator of a macro's body costs the tokens from the macro's definition on. Emptied by
 * ss_ast_forget_unit. */
typedef struct binary_op_memo {
    CXTranslationUnit tu;
    ss_map index; /* (operator's extent, left operand's extent) -> index into 'reads' */
    binary_op_read *reads;
    size_t count, cap;
} binary_op_memo;
static _Thread_local binary_op_memo op_memo;

void ss_ast_forget_unit(void)
{
    memset(file_texts, 0, sizeof file_texts);
    ss_map_free(&op_memo.index);
    free(op_memo.reads);
    memset(&op_memo, 0, sizeof op_memo);
}

char *ss_ast_file_text(CXTranslationUnit tu, CXFile file, unsigned begin, unsigned end, size_t max)
{
    size_t size = 0;
    const char *text = file_contents(tu, file, &size);
    if (text == NULL || end < begin || end > size || end - begin > max)
        return NULL;
    char *out = ss_xmalloc(end - begin + 1);
    size_t n = 0;
    for (unsigned i = begin; i < end; i++) {
        char c = text[i] == '\n' || text[i] == '\t' || text[i] == '\r' ? ' ' : text[i];
        if (c != ' ' || (n > 0 && out[n - 1] != ' '))
            out[n++] = c;
    }
    out[n] = '\0';
    return out;
}

int ss_ast_eval_int(CXCursor expr, long long *value)
{
    enum CXCursorKind kind = clang_getCursorKind(expr);
    if (kind == CXCursor_CXXNullPtrLiteralExpr || kind == CXCursor_GNUNullExpr) {
        *value = 0;
        return 0;
    }
    CXType type = clang_getCanonicalType(clang_getCursorType(expr));
    if (type.kind == CXType_Pointer || type.kind == CXType_NullPtr)
        return -1;
    CXEvalResult eval = clang_Cursor_Evaluate(expr);
    if (eval == NULL)
        return -1;
    int rc = -1;
    if (clang_EvalResult_getKind(eval) == CXEval_Int) {
        *value = clang_EvalResult_getAsLongLong(eval);
        rc = 0;
    }
    clang_EvalResult_dispose(eval);
    return rc;
}

int ss_ast_literal_int(CXCursor expr, long long *value)
{
    CXCursor e = ss_ast_strip(expr);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_UnaryOperator && ss_ast_child_count(e) == 1) {
        enum CXCursorKind operand = clang_getCursorKind(ss_ast_strip(ss_ast_child(e, 0)));
        if (operand != CXCursor_IntegerLiteral && operand != CXCursor_CXXBoolLiteralExpr)
            return -1;
    } else if (k != CXCursor_IntegerLiteral && k != CXCursor_CXXBoolLiteralExpr &&
               k != CXCursor_CharacterLiteral && k != CXCursor_CXXNullPtrLiteralExpr &&
               k != CXCursor_GNUNullExpr) {
        return -1;
    }
    return ss_ast_eval_int(e, value);
}

/* The token at the call's location where it is written, malloc'ed, or NULL. */
static char *written_token(CXCursor call)
{
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(call);
    CXFile file = NULL;
    unsigned offset;
    clang_getExpansionLocation(clang_getCursorLocation(call), &file, NULL, NULL, &offset);
    if (file == NULL)
        return NULL;
    CXToken *tok = clang_getToken(tu, clang_getLocationForOffset(tu, file, offset));
    if (tok == NULL)
        return NULL;
    CXString s = clang_getTokenSpelling(tu, *tok);
    char *text = ss_xstrdup(clang_getCString(s));
    clang_disposeString(s);
    clang_disposeTokens(tu, tok, 1);
    return text;
}

int ss_ast_written_as(CXCursor call, const char *name)
{
    char *written = written_token(call);
    int same = written && strcmp(written, name) == 0;
    free(written);
    return same;
}

char *ss_ast_callee_name(CXCursor call)
{
    CXCursor callee = clang_getCursorReferenced(call);
    CXString name = clang_getCursorSpelling(ss_ast_is_null(callee) ? call : callee);
    const char *text = clang_getCString(name);
    char *out = text && *text ? ss_xstrdup(text) : NULL;
    clang_disposeString(name);
    return ss_ast_api_name(call, out);
}

char *ss_ast_api_name(CXCursor call, char *name)
{
    /* A CUDA API that the headers rename by macro (cudaMemcpyAsync_ptsz under
     * CUDA_API_PER_THREAD_DEFAULT_STREAM, cuMemcpyHtoD_v2) is named as the program writes
     * it, unless it is written with the suffix. */
    const ss_api *api = name ? ss_api_find(name) : NULL;
    if (name == NULL || (api && strcmp(api->name, name) == 0))
        return name;
    /* A name outside the table without a header's suffix is as written: no token to read
     * (reading one for every call of a unit doubled lint's time). */
    if (api == NULL && ss_api_name_is(name, name))
        return name;
    char *written = written_token(call);
    const char *as = api ? api->name : NULL;
    /* A CUDA function outside the table that a header renames the same way
     * (cuEventElapsedTime_v2 in CUDA 13's cuda.h) is named as written too. */
    if (api == NULL && written && ss_api_name_is(name, written))
        as = written;
    if (as && !(written && strcmp(written, name) == 0)) {
        char *renamed = ss_xstrdup(as);
        free(name);
        name = renamed;
    }
    free(written);
    return name;
}

int ss_ast_in_system_header(CXCursor c)
{
    CXSourceLocation loc = clang_getCursorLocation(c);
    CXFile file = NULL;
    clang_getExpansionLocation(loc, &file, NULL, NULL, NULL);
    if (file == NULL)
        return 1;
    return clang_Location_isInSystemHeader(loc);
}

int ss_ast_first_token(CXCursor c, char *out, size_t size)
{
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
    CXToken *tokens = NULL;
    unsigned n = 0;
    clang_tokenize(tu, clang_getCursorExtent(c), &tokens, &n);
    if (n == 0)
        return -1;
    CXString s = clang_getTokenSpelling(tu, tokens[0]);
    snprintf(out, size, "%s", clang_getCString(s));
    clang_disposeString(s);
    clang_disposeTokens(tu, tokens, n);
    return 0;
}

int ss_ast_first_token_is(CXCursor c, const char *text)
{
    char token[16];
    return ss_ast_first_token(c, token, sizeof token) == 0 && strcmp(token, text) == 0;
}

int ss_ast_spelled(CXCursor c)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile sf[2] = {NULL, NULL}, ef[2] = {NULL, NULL};
    unsigned so[2], eo[2];
    CXSourceLocation at[2] = {clang_getRangeStart(r), clang_getRangeEnd(r)};
    for (unsigned i = 0; i < 2; i++) {
        clang_getSpellingLocation(at[i], &sf[i], NULL, NULL, &so[i]);
        clang_getExpansionLocation(at[i], &ef[i], NULL, NULL, &eo[i]);
        /* A token of a macro's body is spelled in its #define, which comes before the
         * invocation (or in another file); a token of an argument is spelled after the
         * invocation's start, where the expansion location points. */
        if (sf[i] == NULL || sf[i] != ef[i] || so[i] < eo[i])
            return 0;
    }
    return sf[0] == sf[1] && so[0] <= so[1];
}

/* Reads the operator token of 'op' (extent 'range', its left operand's 'lhs') into 'r'. The
 * tokens of the operator's extent are lexed from the spelling of its start, which for an operator
 * of a macro's body is the macro's definition: every token from there to the invocation is lexed.
 */
static void read_binary_op(CXCursor op, CXSourceRange range, CXSourceRange lhs, binary_op_read *r)
{
    CXSourceLocation begin = clang_getRangeStart(range);
    CXFile f1, f2;
    unsigned o1, o2;
    clang_getSpellingLocation(begin, &f1, NULL, NULL, &o1);
    clang_getExpansionLocation(begin, &f2, NULL, NULL, &o2);
    r->in_macro = o1 != o2;
    unsigned lhs_end;
    clang_getSpellingLocation(clang_getRangeEnd(lhs), NULL, NULL, NULL, &lhs_end);
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(op);
    CXToken *tokens = NULL;
    unsigned n = 0;
    clang_tokenize(tu, range, &tokens, &n);
    for (unsigned i = 0; i < n; i++) {
        unsigned off;
        clang_getSpellingLocation(clang_getTokenLocation(tu, tokens[i]), NULL, NULL, NULL, &off);
        if (off < lhs_end || clang_getTokenKind(tokens[i]) != CXToken_Punctuation)
            continue;
        CXString s = clang_getTokenSpelling(tu, tokens[i]);
        snprintf(r->token, sizeof r->token, "%s", clang_getCString(s));
        clang_disposeString(s);
        r->found = 1;
        break;
    }
    clang_disposeTokens(tu, tokens, n);
}

/* An extent of the unit as one key: its two offsets (the unit's memo is per unit). */
static uint64_t range_key(CXSourceRange r)
{
    return (uint64_t)r.begin_int_data << 32 | r.end_int_data;
}

int ss_ast_binary_op(CXCursor op, char *out, size_t out_size)
{
    CXCursor lhs = ss_ast_child(op, 0);
    if (ss_ast_is_null(lhs))
        return -1;
    binary_op_memo *m = &op_memo;
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(op);
    if (m->tu != tu) {
        ss_ast_forget_unit();
        m->tu = tu;
    }
    CXSourceRange range = clang_getCursorExtent(op), lhs_range = clang_getCursorExtent(lhs);
    uint64_t a = range_key(range), b = range_key(lhs_range);
    uint32_t at = ss_map_get(&m->index, a, b);
    binary_op_read fresh = {"", 0, 0};
    const binary_op_read *r = at == SS_MAP_NONE ? &fresh : &m->reads[at];
    if (at == SS_MAP_NONE) {
        /* Not when the operator may come from a macro's body. */
        if (ss_ast_spelled(op) && ss_ast_spelled(lhs))
            read_binary_op(op, range, lhs_range, &fresh);
        if (m->count == m->cap) {
            m->cap = m->cap ? 2 * m->cap : 256;
            m->reads = ss_xreallocarray(m->reads, m->cap, sizeof *m->reads);
        }
        m->reads[m->count] = fresh;
        if (ss_map_put(&m->index, a, b, (uint32_t)m->count) == 0)
            m->count++;
    }
    if (!r->found)
        return -1;
    snprintf(out, out_size, "%s", r->token);
    /* Inside a macro's arguments a ',' between two of them may stand for an operator of
     * the macro's body ('#define ADD(a, b) a + b'). */
    return r->in_macro && strcmp(out, ",") == 0 ? -1 : 0;
}

/* Sets bits of '*data' for the CUDA execution-space attributes among a function's children:
 * 1 __global__, 2 __device__, 4 __host__. */
static enum CXChildVisitResult space_attrs(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    switch (clang_getCursorKind(c)) {
    case CXCursor_CUDAGlobalAttr:
        *(unsigned *)data |= 1;
        break;
    case CXCursor_CUDADeviceAttr:
        *(unsigned *)data |= 2;
        break;
    case CXCursor_CUDAHostAttr:
        *(unsigned *)data |= 4;
        break;
    default:
        break;
    }
    return CXChildVisit_Continue;
}

int ss_ast_is_device_only(CXCursor function)
{
    unsigned spaces = 0;
    clang_visitChildren(function, space_attrs, &spaces);
    return (spaces & 1) != 0 || (spaces & 6) == 2;
}

int ss_ast_opens_scope(CXCursor c)
{
    switch (clang_getCursorKind(c)) {
    case CXCursor_Namespace:
    case CXCursor_LinkageSpec:
    case CXCursor_ClassDecl:
    case CXCursor_StructDecl:
    case CXCursor_ClassTemplate:
    case CXCursor_ClassTemplatePartialSpecialization:
        return 1;
    default:
        return 0;
    }
}

int ss_ast_is_function(CXCursor c)
{
    switch (clang_getCursorKind(c)) {
    case CXCursor_FunctionDecl:
    case CXCursor_CXXMethod:
    case CXCursor_Constructor:
    case CXCursor_Destructor:
    case CXCursor_ConversionFunction:
    case CXCursor_FunctionTemplate:
    case CXCursor_LambdaExpr:
        return 1;
    default:
        return 0;
    }
}

CXCursor ss_ast_body(CXCursor function)
{
    for (unsigned i = ss_ast_child_count(function); i-- > 0;) {
        CXCursor c = ss_ast_child(function, i);
        if (clang_getCursorKind(c) == CXCursor_CompoundStmt)
            return c;
    }
    return clang_getNullCursor();
}

unsigned ss_ast_if_condition(CXCursor if_stmt)
{
    unsigned n = ss_ast_child_count(if_stmt), i = 0;
    while (i < n && !clang_isExpression(clang_getCursorKind(ss_ast_child(if_stmt, i))))
        i++;
    return i;
}

int ss_ast_do_once(CXCursor do_stmt)
{
    long long value = 1;
    return ss_ast_eval_int(ss_ast_child(do_stmt, 1), &value) == 0 && value == 0;
}

static enum CXChildVisitResult run_order_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    ss_ast_run_walk *walk = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    if (walk->is_statement(k)) {
        walk->statement(c, walk->data);
        return CXChildVisit_Continue;
    }
    clang_visitChildren(c, run_order_visit, walk);
    walk->after_children(c, walk->data);
    return CXChildVisit_Continue;
}

void ss_ast_run_order(CXCursor c, ss_ast_run_walk *walk)
{
    run_order_visit(c, c, walk);
}

void ss_ast_run_order_children(CXCursor c, ss_ast_run_walk *walk)
{
    clang_visitChildren(c, run_order_visit, walk);
}

CXCursor ss_ast_named_variable(CXCursor e)
{
    e = ss_ast_strip(e);
    for (int hops = 0; hops < 6 && !ss_ast_is_null(e); hops++) {
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k == CXCursor_DeclRefExpr) {
            CXCursor var = clang_getCursorReferenced(e);
            enum CXCursorKind vk = clang_getCursorKind(var);
            return vk == CXCursor_VarDecl || vk == CXCursor_ParmDecl ? var : clang_getNullCursor();
        }
        if (k != CXCursor_UnaryOperator && k != CXCursor_BinaryOperator &&
            k != CXCursor_CStyleCastExpr && k != CXCursor_ArraySubscriptExpr &&
            k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr)
            break;
        e = ss_ast_strip(ss_ast_child(e, 0));
    }
    return clang_getNullCursor();
}

char *ss_ast_dependent_member(CXCursor call)
{
    CXCursor callee = ss_ast_strip(ss_ast_child(call, 0));
    if (clang_getCursorKind(callee) != CXCursor_MemberRefExpr)
        return NULL;
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(call);
    CXToken *tokens = NULL;
    unsigned n = 0;
    clang_tokenize(tu, clang_getCursorExtent(callee), &tokens, &n);
    char *name = NULL;
    for (unsigned i = 1; i < n; i++) {
        CXString prev = clang_getTokenSpelling(tu, tokens[i - 1]);
        const char *p = clang_getCString(prev);
        int after = strcmp(p, ".") == 0 || strcmp(p, "->") == 0 || strcmp(p, "template") == 0;
        clang_disposeString(prev);
        if (!after || clang_getTokenKind(tokens[i]) != CXToken_Identifier)
            continue;
        CXString t = clang_getTokenSpelling(tu, tokens[i]);
        free(name);
        name = ss_xstrdup(clang_getCString(t));
        clang_disposeString(t);
    }
    clang_disposeTokens(tu, tokens, n);
    return name;
}

char *ss_ast_usr(CXCursor decl)
{
    CXString usr = clang_getCursorUSR(decl);
    const char *text = clang_getCString(usr);
    char *copy = text && text[0] ? ss_xstrdup(text) : NULL;
    clang_disposeString(usr);
    return copy;
}
