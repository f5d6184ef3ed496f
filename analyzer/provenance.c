/* provenance.c: where a host pointer's buffer comes from (pageable, pinned, registered,
 * managed or unknown), followed within one function through the reaching definitions of
 * dataflow.c; the allocation names come from rules/host_memory.def and cuda_api.def. */
#include "ast.h"
#include "dataflow.h"
#include "log.h"
#include "report.h"
#include "scope.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How many definitions deep a value is followed ("p = q; q = r + 4; r = malloc(n)"). */
enum { MAX_DEPTH = 8 };

typedef struct walk_state {
    CXCursor function;
    int depth;
} walk_state;

static void classify(walk_state *w, CXCursor expr, ss_provenance *out);

const char *ss_host_kind_name(ss_host_kind kind)
{
    static const char *const names[] = {"unknown",    "pageable", "pinned",
                                        "registered", "managed",  "device"};
    return (size_t)kind < sizeof names / sizeof names[0] ? names[kind] : "unknown";
}

void ss_provenance_free(ss_provenance *p)
{
    free(p->source);
    p->source = NULL;
}

static void set_unknown(ss_provenance *out)
{
    ss_provenance_free(out);
    out->kind = SS_HOST_UNKNOWN;
    out->origin = clang_getNullCursor();
    out->line = 0;
}

/* Takes ownership of 'source'. */
static void set_source(ss_provenance *out, ss_host_kind kind, CXCursor origin, char *source)
{
    ss_provenance_free(out);
    out->kind = kind;
    out->origin = origin;
    out->source = source;
    out->line = ss_scope_line(origin);
}

/* The first 'max' token spellings of 'c' into 'tokens' (each 'size' bytes). Returns how many
 * were read. */
static unsigned lead_tokens(CXCursor c, char tokens[][16], unsigned max)
{
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
    CXToken *list = NULL;
    unsigned n = 0;
    clang_tokenize(tu, clang_getCursorExtent(c), &list, &n);
    unsigned got = 0;
    for (; got < n && got < max; got++) {
        CXString s = clang_getTokenSpelling(tu, list[got]);
        snprintf(tokens[got], 16, "%s", clang_getCString(s));
        clang_disposeString(s);
    }
    clang_disposeTokens(tu, list, n);
    return got;
}

char *ss_qualified_name(CXCursor decl)
{
    CXString s = clang_getCursorSpelling(decl);
    char *name = ss_xstrdup(clang_getCString(s));
    clang_disposeString(s);
    for (CXCursor p = clang_getCursorSemanticParent(decl); !ss_ast_is_null(p);
         p = clang_getCursorSemanticParent(p)) {
        enum CXCursorKind k = clang_getCursorKind(p);
        if (k == CXCursor_TranslationUnit)
            break;
        if (k == CXCursor_Namespace && clang_Cursor_isInlineNamespace(p))
            continue;
        if (k != CXCursor_Namespace && k != CXCursor_ClassDecl && k != CXCursor_StructDecl &&
            k != CXCursor_UnionDecl && k != CXCursor_ClassTemplate &&
            k != CXCursor_ClassTemplatePartialSpecialization)
            break;
        CXString ps = clang_getCursorSpelling(p);
        const char *pn = clang_getCString(ps);
        if (*pn) {
            char *joined = ss_xasprintf("%s::%s", pn, name);
            free(name);
            name = joined;
        }
        clang_disposeString(ps);
    }
    return name;
}

char *ss_type_template_name(CXType type)
{
    CXType t = clang_getCanonicalType(type);
    if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference ||
        t.kind == CXType_Pointer)
        t = clang_getCanonicalType(clang_getPointeeType(t));
    CXCursor decl = clang_getTypeDeclaration(t);
    if (ss_ast_is_null(decl)) {
        /* A dependent specialization ('std::vector<T>' in a template): its template name. */
        CXType named = clang_Type_getNamedType(type);
        decl = clang_getTypeDeclaration(named.kind != CXType_Invalid ? named : type);
        if (ss_ast_is_null(decl))
            return NULL;
    }
    CXCursor templ = clang_getSpecializedCursorTemplate(decl);
    return ss_qualified_name(ss_ast_is_null(templ) ? decl : templ);
}

/* The source words for a container type ("std::vector") when 'type' is a container of
 * host_memory.def with default helpers, malloc'ed; NULL otherwise. */
static char *pageable_container(CXType type)
{
    char *name = ss_type_template_name(type);
    if (name == NULL || !ss_host_memory_find(name, SS_HOSTMEM_PAGEABLE_CONTAINER)) {
        free(name);
        return NULL;
    }
    CXType t = clang_getCanonicalType(type);
    if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference ||
        t.kind == CXType_Pointer)
        t = clang_getCanonicalType(clang_getPointeeType(t));
    int n = clang_Type_getNumTemplateArguments(t);
    for (int i = 1; i < n; i++) {
        CXType arg = clang_Type_getTemplateArgumentAsType(t, (unsigned)i);
        if (arg.kind == CXType_Invalid)
            continue; /* a non-type argument (std::array's size) */
        CXType canon = clang_getCanonicalType(arg);
        if (canon.kind != CXType_Record && canon.kind != CXType_Unexposed)
            continue; /* a builtin type */
        /* A class, or in a template one that depends on a parameter ('PinnedAllocator<T>',
         * 'Alloc'): pageable only when it is one of the default helpers. */
        char *helper = ss_type_template_name(arg);
        int ok = helper && ss_host_memory_find(helper, SS_HOSTMEM_DEFAULT_HELPER);
        free(helper);
        if (!ok) {
            free(name); /* a custom allocator or deleter: it may be pinned memory */
            return NULL;
        }
    }
    return name;
}

/* The object a member call or member operator call is made on, or a null cursor. */
static CXCursor call_object(CXCursor call)
{
    CXCursor first = ss_ast_strip(ss_ast_child(call, 0));
    if (clang_getCursorKind(first) == CXCursor_MemberRefExpr)
        return ss_ast_child(first, 0);
    return first; /* an operator call: the object comes first */
}

/* The declaration that names a container object (a variable, parameter or field), for
 * matching the same buffer in two expressions. */
static CXCursor object_decl(CXCursor object)
{
    CXCursor e = ss_ast_strip(object);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr)
        return clang_getCursorReferenced(e);
    return e;
}

/* The member a call names in a template, where it is not resolved yet ('out.data()' on a
 * 'std::vector<T>'): the last token of the member expression, in 'name' ('size' bytes).
 * Returns 0, or -1 when the call is no such member call. */
static int dependent_member(CXCursor call, char *name, size_t size)
{
    CXCursor callee = ss_ast_strip(ss_ast_child(call, 0));
    if (clang_getCursorKind(callee) != CXCursor_MemberRefExpr ||
        !ss_ast_is_null(clang_getCursorReferenced(callee)) || !ss_ast_spelled(callee))
        return -1;
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(callee);
    CXToken *list = NULL;
    unsigned n = 0;
    clang_tokenize(tu, clang_getCursorExtent(callee), &list, &n);
    int rc = -1;
    if (n > 0 && clang_getTokenKind(list[n - 1]) == CXToken_Identifier) {
        CXString s = clang_getTokenSpelling(tu, list[n - 1]);
        snprintf(name, size, "%s", clang_getCString(s));
        clang_disposeString(s);
        rc = 0;
    }
    clang_disposeTokens(tu, list, n);
    return rc;
}

/* Sets 'out' to the storage of the pageable container 'object' (a variable, parameter or
 * field). Returns 1, or 0 when its type is no pageable container. */
static int container_storage(CXCursor object, ss_provenance *out)
{
    char *container = pageable_container(clang_getCursorType(object));
    if (container == NULL)
        return 0;
    CXCursor decl = object_decl(object);
    char *text = ss_expr_text(object);
    set_source(out, SS_HOST_PAGEABLE, decl,
               text ? ss_xasprintf("the storage of %s '%s'", container, text)
                    : ss_xasprintf("the storage of a %s", container));
    free(text);
    free(container);
    return 1;
}

/* A method call on a pageable container whose method has 'kind' ("v.data()", "v[0]"), also
 * in a template where the container's type depends on a template parameter. */
static int container_call(CXCursor call, ss_host_memory_kind kind, ss_provenance *out)
{
    CXCursor method = clang_getCursorReferenced(call);
    char member[64];
    if (clang_getCursorKind(method) == CXCursor_CXXMethod) {
        CXString ms = clang_getCursorSpelling(method);
        snprintf(member, sizeof member, "%s", clang_getCString(ms));
        clang_disposeString(ms);
    } else if (dependent_member(call, member, sizeof member) != 0) {
        return 0;
    }
    if (ss_host_memory_find(member, kind) == NULL)
        return 0;
    CXCursor object = call_object(call);
    if (ss_ast_is_null(object))
        return 0;
    return container_storage(object, out);
}

/* Whether a variable carries a CUDA memory-space attribute (__device__, __constant__,
 * __managed__, __shared__): its address is not ordinary host memory. */
typedef struct attr_walk {
    int found;
} attr_walk;

static enum CXChildVisitResult find_attr(CXCursor c, CXCursor parent, CXClientData data)
{
    if (clang_isAttribute(clang_getCursorKind(c)))
        ((attr_walk *)data)->found = 1;
    return CXChildVisit_Continue;
}

static int has_cuda_attr(CXCursor var)
{
    attr_walk w = {0};
    clang_visitChildren(var, find_attr, &w);
    return w.found;
}

/* "local", "static" or "global" for a variable. */
static const char *storage_words(CXCursor var)
{
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(var);
    CXCursor parent = clang_getCursorSemanticParent(var);
    int in_function =
        ss_ast_is_function(parent) || clang_getCursorKind(parent) == CXCursor_CXXMethod;
    if (!in_function)
        return "global";
    return sc == CX_SC_Static ? "static" : "local";
}

/* Storage of a named variable: arrays and addressed objects. Returns 1 when classified. */
static int variable_storage(CXCursor ref, int address, ss_provenance *out)
{
    CXCursor var = clang_getCursorReferenced(ref);
    enum CXCursorKind vk = clang_getCursorKind(var);
    if (vk != CXCursor_VarDecl && vk != CXCursor_ParmDecl)
        return 0;
    CXType t = clang_getCanonicalType(clang_getCursorType(var));
    if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference)
        return 0; /* names someone else's object */
    if (has_cuda_attr(var))
        return 0;
    CXString s = clang_getCursorSpelling(var);
    const char *name = clang_getCString(s);
    const char *storage = vk == CXCursor_ParmDecl ? "parameter" : storage_words(var);
    int done = 1;
    if (!address &&
        (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ||
         t.kind == CXType_VariableArray) &&
        vk == CXCursor_VarDecl)
        set_source(out, SS_HOST_PAGEABLE, var, ss_xasprintf("%s array '%s'", storage, name));
    else if (address)
        set_source(out, SS_HOST_PAGEABLE, var,
                   ss_xasprintf("the address of %s '%s'", storage, name));
    else
        done = 0;
    clang_disposeString(s);
    return done;
}

/* '&x', '&a[i]', '&v[0]', '&s.f', '&p->f', '&*p'. */
static void address_of(walk_state *w, CXCursor operand, ss_provenance *out)
{
    CXCursor o = ss_ast_strip(operand);
    switch (clang_getCursorKind(o)) {
    case CXCursor_ArraySubscriptExpr: {
        /* 'v[i]' on a container whose type depends on a template parameter is no call yet. */
        CXCursor base = ss_ast_child(o, 0);
        CXType bt = clang_getCanonicalType(clang_getCursorType(base));
        if (bt.kind == CXType_Pointer || !container_storage(ss_ast_strip(base), out))
            classify(w, base, out);
        return;
    }
    case CXCursor_CallExpr:
        if (!container_call(o, SS_HOSTMEM_STORAGE_ELEMENT, out))
            set_unknown(out);
        return;
    case CXCursor_DeclRefExpr:
        if (!variable_storage(o, 1, out))
            set_unknown(out);
        return;
    case CXCursor_MemberRefExpr: {
        CXCursor base = ss_ast_child(o, 0);
        if (ss_ast_is_null(base) || !clang_isExpression(clang_getCursorKind(base))) {
            set_unknown(out); /* a member of 'this' */
            return;
        }
        CXType bt = clang_getCanonicalType(clang_getCursorType(base));
        if (bt.kind == CXType_Pointer) {
            classify(w, base, out); /* '&p->f' points into p's buffer */
            return;
        }
        CXCursor b = ss_ast_strip(base);
        if (clang_getCursorKind(b) == CXCursor_DeclRefExpr && variable_storage(b, 1, out))
            return;
        if (clang_getCursorKind(b) == CXCursor_MemberRefExpr ||
            clang_getCursorKind(b) == CXCursor_ArraySubscriptExpr) {
            address_of(w, b, out); /* '&s.inner.f', '&a[i].f' */
            return;
        }
        set_unknown(out);
        return;
    }
    case CXCursor_UnaryOperator: {
        char tok[1][16];
        if (lead_tokens(o, tok, 1) == 1 && strcmp(tok[0], "*") == 0) {
            classify(w, ss_ast_child(o, 0), out);
            return;
        }
        set_unknown(out);
        return;
    }
    default:
        set_unknown(out);
        return;
    }
}

/* Merges the provenance of another reaching definition into 'acc': a kind survives only
 * when every definition has it. */
static void merge(ss_provenance *acc, ss_provenance *next, int first)
{
    if (first) {
        *acc = *next;
        next->source = NULL;
        return;
    }
    if (acc->kind != next->kind)
        set_unknown(acc);
    ss_provenance_free(next);
}

/* A pointer written through an out-argument: cudaMallocHost(&p, n), posix_memalign(&p...). */
static void out_arg(const ss_def *def, ss_provenance *out)
{
    char *name = ss_scope_callee_name(def->call);
    const ss_api *api = name ? ss_api_find(name) : NULL;
    if (api && (int)def->arg_index == api->dst_arg) {
        ss_host_kind kind = SS_HOST_UNKNOWN;
        if (api->klass == SS_CLASS_HOST_ALLOC)
            kind = SS_HOST_PINNED;
        else if (api->klass == SS_CLASS_MANAGED_ALLOC)
            kind = SS_HOST_MANAGED;
        else if (api->klass == SS_CLASS_ALLOC)
            kind = SS_HOST_DEVICE;
        if (kind != SS_HOST_UNKNOWN) {
            set_source(out, kind, def->call, ss_xasprintf("%s()", api->name));
            free(name);
            return;
        }
    }
    const ss_host_memory *row =
        name ? ss_host_memory_find(name, SS_HOSTMEM_PAGEABLE_OUT_ALLOC) : NULL;
    if (row && row->arg == (int)def->arg_index)
        set_source(out, SS_HOST_PAGEABLE, def->call, ss_xasprintf("%s()", row->name));
    else
        set_unknown(out);
    free(name);
}

/* Whether a definition stores a null pointer. */
static int is_null_def(const ss_def *d)
{
    long long value;
    if (d->kind == SS_DEF_ZERO)
        return 1;
    return d->kind == SS_DEF_VALUE && ss_ast_eval_int(ss_ast_strip(d->value), &value) == 0 &&
           value == 0;
}

/* A pointer-valued location: the merge of its reaching definitions. */
static void location_value(walk_state *w, CXCursor e, ss_provenance *out)
{
    ss_location loc;
    if (ss_location_of(e, NULL, &loc) != 0) {
        set_unknown(out);
        return;
    }
    loc.values = 1;
    ss_defs defs = {0};
    ss_dataflow_reaching(w->function, &loc, e, &defs);
    ss_provenance acc = {SS_HOST_UNKNOWN, NULL, clang_getNullCursor(), 0};
    size_t merged = 0;
    for (size_t i = 0; i < defs.count; i++) {
        ss_provenance one = {SS_HOST_UNKNOWN, NULL, clang_getNullCursor(), 0};
        const ss_def *d = &defs.v[i];
        if (is_null_def(d))
            continue; /* a null pointer is no buffer: 'p = NULL; ...; p = malloc(n);' */
        if (d->kind == SS_DEF_VALUE)
            classify(w, d->value, &one);
        else if (d->kind == SS_DEF_OUT_ARG)
            out_arg(d, &one);
        merge(&acc, &one, merged++ == 0);
        if (acc.kind == SS_HOST_UNKNOWN)
            break;
    }
    ss_defs_free(&defs);
    ss_location_free(&loc);
    ss_provenance_free(out);
    *out = acc;
}

/* A call: an allocator of host_memory.def, a container's storage pointer, or the value of
 * a compound assignment kept by dataflow's 'values' mode. */
static void call_value(CXCursor call, ss_provenance *out)
{
    if (container_call(call, SS_HOSTMEM_STORAGE_POINTER, out))
        return;
    CXCursor callee = clang_getCursorReferenced(call);
    if (clang_getCursorKind(callee) == CXCursor_FunctionDecl) {
        char *name = ss_scope_callee_name(call);
        const ss_host_memory *row =
            name ? ss_host_memory_find(name, SS_HOSTMEM_PAGEABLE_ALLOC) : NULL;
        free(name);
        if (row) {
            set_source(out, SS_HOST_PAGEABLE, call, ss_xasprintf("%s()", row->name));
            return;
        }
    }
    set_unknown(out);
}

static void new_value(CXCursor e, ss_provenance *out)
{
    char tokens[3][16];
    unsigned n = lead_tokens(e, tokens, 3);
    unsigned at = n > 0 && strcmp(tokens[0], "::") == 0 ? 1 : 0;
    if (n <= at + 1 || strcmp(tokens[at], "new") != 0 || strcmp(tokens[at + 1], "(") == 0) {
        set_unknown(out); /* placement new: someone else's buffer */
        return;
    }
    /* An array new has an array-typed allocation: its tokens hold a '['. */
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(e);
    CXToken *list = NULL;
    unsigned count = 0;
    int array = 0;
    clang_tokenize(tu, clang_getCursorExtent(e), &list, &count);
    for (unsigned i = 0; i < count && !array; i++) {
        CXString s = clang_getTokenSpelling(tu, list[i]);
        array = strcmp(clang_getCString(s), "[") == 0;
        clang_disposeString(s);
        if (clang_getTokenKind(list[i]) == CXToken_Punctuation && !array) {
            CXString p = clang_getTokenSpelling(tu, list[i]);
            int stop =
                strcmp(clang_getCString(p), "(") == 0 || strcmp(clang_getCString(p), "{") == 0;
            clang_disposeString(p);
            if (stop && i > at + 1)
                break; /* the initializer of 'new T(...)' */
        }
    }
    clang_disposeTokens(tu, list, count);
    const ss_host_memory *row =
        ss_host_memory_find(array ? "new[]" : "new", SS_HOSTMEM_PAGEABLE_NEW);
    if (row)
        set_source(out, SS_HOST_PAGEABLE, e, ss_xstrdup(row->name));
    else
        set_unknown(out);
}

/* 'p + n' or 'n + p' (also '-'): the buffer of its pointer (or array) side. */
static void arithmetic_value(walk_state *w, CXCursor e, ss_provenance *out)
{
    char op[8];
    if (ss_ast_binary_op(e, op, sizeof op) != 0 || (strcmp(op, "+") && strcmp(op, "-")))
        return;
    for (unsigned i = 0; i < 2; i++) {
        CXCursor side = ss_ast_child(e, i);
        CXType t = clang_getCanonicalType(clang_getCursorType(side));
        if (t.kind == CXType_Pointer || t.kind == CXType_ConstantArray ||
            t.kind == CXType_IncompleteArray) {
            classify(w, side, out);
            return;
        }
    }
}

/* '&x' (the storage of x), and '++p', 'p--' as a definition of p: the value p had before,
 * moved. */
static void unary_value(walk_state *w, CXCursor e, ss_provenance *out)
{
    char tok[2][16];
    unsigned n = lead_tokens(e, tok, 2);
    CXCursor operand = ss_ast_child(e, 0);
    if (n >= 1 && strcmp(tok[0], "&") == 0)
        address_of(w, operand, out);
    else if (n >= 1 && (!strcmp(tok[0], "++") || !strcmp(tok[0], "--")))
        classify(w, operand, out);
    else if (n >= 2 && (!strcmp(tok[1], "++") || !strcmp(tok[1], "--")))
        classify(w, operand, out);
}

/* Where the host pointer expression 'expr' points into, in 'out' (unknown where that cannot
 * be told, or past MAX_DEPTH steps). */
static void classify(walk_state *w, CXCursor expr, ss_provenance *out)
{
    set_unknown(out);
    if (ss_ast_is_null(expr) || w->depth > MAX_DEPTH)
        return;
    w->depth++;
    CXCursor e = ss_ast_strip(expr);
    switch (clang_getCursorKind(e)) {
    case CXCursor_CXXNewExpr:
        new_value(e, out);
        break;
    case CXCursor_CallExpr:
        call_value(e, out);
        break;
    case CXCursor_BinaryOperator:
        arithmetic_value(w, e, out);
        break;
    case CXCursor_CompoundAssignOperator: {
        /* 'p += n' as a definition of p: the value p had before, moved. */
        char op[8];
        if (ss_ast_binary_op(e, op, sizeof op) == 0 && (!strcmp(op, "+=") || !strcmp(op, "-=")))
            classify(w, ss_ast_child(e, 0), out);
        break;
    }
    case CXCursor_ConditionalOperator: {
        ss_provenance second = {SS_HOST_UNKNOWN, NULL, clang_getNullCursor(), 0};
        classify(w, ss_ast_child(e, 1), out);
        classify(w, ss_ast_child(e, 2), &second);
        merge(out, &second, 0);
        break;
    }
    case CXCursor_UnaryOperator:
        unary_value(w, e, out);
        break;
    case CXCursor_DeclRefExpr:
        if (!variable_storage(e, 0, out))
            location_value(w, e, out);
        break;
    case CXCursor_MemberRefExpr: {
        CXType t = clang_getCanonicalType(clang_getCursorType(e));
        if (t.kind == CXType_ConstantArray)
            address_of(w, e, out); /* an array member decays to its address */
        else
            location_value(w, e, out);
        break;
    }
    case CXCursor_ArraySubscriptExpr:
        location_value(w, e, out);
        break;
    default:
        break;
    }
    w->depth--;
}

/* Calls of 'klass' (cudaHostRegister, cudaHostUnregister) before offset 'before' whose
 * pointer argument is the buffer 'origin'; the offset of the last one, or 0. */
typedef struct register_walk {
    CXCursor function;
    CXCursor origin;
    ss_api_class klass;
    unsigned before, last;
} register_walk;

static enum CXChildVisitResult find_register(CXCursor c, CXCursor parent, CXClientData data)
{
    register_walk *r = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr || ss_ast_offset(c) >= r->before)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    if (api == NULL || api->klass != r->klass || api->dst_arg < 0 ||
        clang_Cursor_getNumArguments(c) <= api->dst_arg)
        return CXChildVisit_Recurse;
    walk_state w = {r->function, 0};
    ss_provenance p = {SS_HOST_UNKNOWN, NULL, clang_getNullCursor(), 0};
    classify(&w, clang_Cursor_getArgument(c, (unsigned)api->dst_arg), &p);
    if (p.kind == SS_HOST_PAGEABLE && ss_ast_same_node(p.origin, r->origin))
        r->last = ss_ast_offset(c);
    ss_provenance_free(&p);
    return CXChildVisit_Recurse;
}

int ss_provenance_of(CXCursor function, CXCursor expr, ss_provenance *out)
{
    memset(out, 0, sizeof *out);
    out->origin = clang_getNullCursor();
    if (ss_ast_is_null(function))
        return -1;
    walk_state w = {function, 0};
    classify(&w, expr, out);
    if (out->kind != SS_HOST_PAGEABLE)
        return 0;
    /* cudaHostRegister on the same buffer earlier in the function (and no unregister after
     * it) makes it pinned. */
    CXCursor top = ss_scope_outer_function(function);
    register_walk reg = {function, out->origin, SS_CLASS_HOST_REGISTER, ss_ast_offset(expr), 0};
    clang_visitChildren(top, find_register, &reg);
    if (reg.last == 0)
        return 0;
    register_walk unreg = {function, out->origin, SS_CLASS_HOST_UNREGISTER, ss_ast_offset(expr), 0};
    clang_visitChildren(top, find_register, &unreg);
    if (unreg.last > reg.last)
        return 0;
    out->kind = SS_HOST_REGISTERED;
    return 0;
}

/* The length of the identifier or literal token that starts at 'offset' of 'file', or 0 when
 * none starts there. */
static unsigned name_length_at(CXTranslationUnit tu, CXFile file, unsigned offset)
{
    CXToken *tok = clang_getToken(tu, clang_getLocationForOffset(tu, file, offset));
    if (tok == NULL)
        return 0;
    unsigned length = 0, start;
    CXTokenKind kind = clang_getTokenKind(*tok);
    clang_getSpellingLocation(clang_getTokenLocation(tu, *tok), NULL, NULL, NULL, &start);
    if ((kind == CXToken_Identifier || kind == CXToken_Literal) && start == offset) {
        CXString sp = clang_getTokenSpelling(tu, *tok);
        length = (unsigned)strlen(clang_getCString(sp));
        clang_disposeString(sp);
    }
    clang_disposeTokens(tu, tok, 1);
    return length;
}

char *ss_expr_text(CXCursor expr)
{
    enum { MAX_TEXT = 60 };
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(expr);
    CXSourceRange r = clang_getCursorExtent(expr);
    CXSourceLocation end_loc = clang_getRangeEnd(r);
    CXFile f1 = NULL, f2 = NULL, fs = NULL;
    unsigned begin, end, spelled_end;
    clang_getExpansionLocation(clang_getRangeStart(r), &f1, NULL, NULL, &begin);
    clang_getExpansionLocation(end_loc, &f2, NULL, NULL, &end);
    clang_getSpellingLocation(end_loc, &fs, NULL, NULL, &spelled_end);
    CXFile fb = NULL;
    unsigned spelled_begin;
    clang_getSpellingLocation(clang_getRangeStart(r), &fb, NULL, NULL, &spelled_begin);
    /* A macro argument, as written in the macro's invocation. When it ends in a macro of its
     * own (checkCudaErrors(cuLaunchKernel(..., NULL, ...)), CHECK(cudaMemcpy(..., 1 * ELEM,
     * ...))), its range ends where that macro's name begins: the name is taken in, so the
     * argument is named as written, not after the outer macro. */
    int in_macro = fb && fb == fs && fb == f1 && (spelled_begin != begin || spelled_end != end);
    unsigned name = in_macro ? name_length_at(tu, fb, spelled_end) : 0;
    if (in_macro && spelled_begin < spelled_end + name) {
        begin = spelled_begin;
        end = spelled_end + name;
    } else if (f1 == NULL || f1 != f2 || end < begin) {
        return NULL;
    } else if (fs != f2 || spelled_end != end) {
        /* The expression ends inside a macro: include the macro's name. */
        CXToken *tok = clang_getToken(tu, clang_getLocationForOffset(tu, f2, end));
        if (tok) {
            CXString sp = clang_getTokenSpelling(tu, *tok);
            end += (unsigned)strlen(clang_getCString(sp));
            clang_disposeString(sp);
            clang_disposeTokens(tu, tok, 1);
        }
    }
    if (end == begin)
        return NULL;
    return ss_ast_file_text(tu, f1, begin, end, MAX_TEXT);
}

int ss_expr_steps(CXCursor op)
{
    char *text = ss_expr_text(op);
    if (text == NULL)
        return -1;
    size_t len = strlen(text);
    int step = len >= 2 && (strncmp(text, "++", 2) == 0 || strncmp(text, "--", 2) == 0 ||
                            strcmp(text + len - 2, "++") == 0 || strcmp(text + len - 2, "--") == 0);
    free(text);
    return step;
}
