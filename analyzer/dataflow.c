/* dataflow.c: intraprocedural reaching definitions for one storage location (a local
 * variable, a field of a local struct, the elements of a local array). Conservative: what
 * it cannot bound it reports as an SS_DEF_UNKNOWN definition. Stream checks use it to prove
 * "always the legacy stream"; provenance checks can use it to prove "always malloc'ed". */
#include "dataflow.h"
#include "ast.h"
#include "log.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>

/* A definition found in the function, with where it sits. */
typedef struct found_def {
    ss_def def;
    unsigned begin;
    int strong; /* overwrites the whole location (can kill earlier definitions) */
} found_def;

/* A stretch of code that may run zero times, several times or out of order. */
typedef struct region {
    unsigned begin, end;
    int loop;
} region;

typedef struct scan {
    const ss_location *loc;
    CXCursor function;
    unsigned use_begin, use_end;
    found_def *defs;
    size_t def_count, def_cap;
    region *regions;
    size_t region_count, region_cap;
    unsigned *handled; /* begin offsets of address-of nodes already seen as call arguments */
    size_t handled_count, handled_cap;
    int declared; /* the variable's declaration lies in the function */
    int has_goto;
} scan;

static void *grow(void *base, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return base;
    size_t ncap = *cap ? *cap * 2 : 16;
    while (ncap < need)
        ncap *= 2;
    void *p = ss_xreallocarray(base, ncap, size);
    *cap = ncap;
    return p;
}

static void add_def(scan *s, ss_def_kind kind, CXCursor value, CXCursor call, unsigned arg,
                    unsigned begin, int strong)
{
    s->defs = grow(s->defs, &s->def_cap, s->def_count + 1, sizeof *s->defs);
    found_def *d = &s->defs[s->def_count++];
    d->def.kind = kind;
    d->def.value = value;
    d->def.call = call;
    d->def.arg_index = arg;
    d->begin = begin;
    d->strong = strong;
}

static void add_region(scan *s, CXCursor c, int loop)
{
    s->regions = grow(s->regions, &s->region_cap, s->region_count + 1, sizeof *s->regions);
    region *r = &s->regions[s->region_count++];
    ss_ast_range(c, &r->begin, &r->end);
    r->loop = loop;
}

int ss_location_of(CXCursor expr, const char *field, ss_location *out)
{
    memset(out, 0, sizeof *out);
    out->var = clang_getNullCursor();
    CXCursor e = ss_ast_strip(expr);
    enum CXCursorKind kind = clang_getCursorKind(e);
    if (field && kind == CXCursor_UnaryOperator) {
        e = ss_ast_strip(ss_ast_child(e, 0));
        kind = clang_getCursorKind(e);
    }
    if (kind == CXCursor_MemberRefExpr && field == NULL) {
        CXCursor base = ss_ast_child(e, 0);
        if (ss_ast_is_null(base) || !clang_isExpression(clang_getCursorKind(base)))
            return -1; /* a member of 'this' */
        CXType base_type = clang_getCanonicalType(clang_getCursorType(base));
        if (base_type.kind == CXType_Pointer)
            return -1; /* p->field: the object is not local */
        ss_location inner;
        if (ss_location_of(base, NULL, &inner) != 0 || inner.field || inner.element) {
            ss_location_free(&inner);
            return -1;
        }
        CXString name = clang_getCursorSpelling(e);
        out->var = inner.var;
        out->field = ss_xstrdup(clang_getCString(name));
        clang_disposeString(name);
        return 0;
    }
    if (kind == CXCursor_ArraySubscriptExpr && field == NULL) {
        CXCursor base = ss_ast_strip(ss_ast_child(e, 0));
        if (clang_getCursorKind(base) != CXCursor_DeclRefExpr)
            return -1;
        CXType t = clang_getCanonicalType(clang_getCursorType(clang_getCursorReferenced(base)));
        if (t.kind != CXType_ConstantArray)
            return -1;
        out->var = clang_getCursorReferenced(base);
        out->element = 1;
        return 0;
    }
    if (kind != CXCursor_DeclRefExpr)
        return -1;
    CXCursor var = clang_getCursorReferenced(e);
    enum CXCursorKind vk = clang_getCursorKind(var);
    if (vk != CXCursor_VarDecl && vk != CXCursor_ParmDecl)
        return -1;
    CXType vt = clang_getCanonicalType(clang_getCursorType(var));
    if (vt.kind == CXType_LValueReference || vt.kind == CXType_RValueReference)
        return -1; /* a reference names someone else's object */
    out->var = var;
    out->field = field ? ss_xstrdup(field) : NULL;
    return 0;
}

void ss_location_free(ss_location *loc)
{
    free(loc->field);
    loc->field = NULL;
}

/* How 'expr' relates to the tracked location. */
typedef enum touch { TOUCH_NONE, TOUCH_EXACT, TOUCH_WHOLE } touch;

static touch touches(const scan *s, CXCursor expr)
{
    ss_location loc;
    if (ss_location_of(expr, NULL, &loc) != 0)
        return TOUCH_NONE;
    touch t = TOUCH_NONE;
    if (clang_equalCursors(loc.var, s->loc->var)) {
        int same_field = (loc.field == NULL && s->loc->field == NULL) ||
                         (loc.field && s->loc->field && strcmp(loc.field, s->loc->field) == 0);
        if (same_field && loc.element == s->loc->element)
            t = TOUCH_EXACT;
        else if (loc.field == NULL && !loc.element)
            t = TOUCH_WHOLE; /* the whole struct or array */
    }
    ss_location_free(&loc);
    return t;
}

/* The index of field 'name' in record type 't', or -1. */
typedef struct field_find {
    const char *name;
    int index, found;
} field_find;

static enum CXVisitorResult visit_field(CXCursor c, CXClientData data)
{
    field_find *f = data;
    CXString n = clang_getCursorSpelling(c);
    int match = strcmp(clang_getCString(n), f->name) == 0;
    clang_disposeString(n);
    if (match) {
        f->found = f->index;
        return CXVisit_Break;
    }
    f->index++;
    return CXVisit_Continue;
}

static int field_index(CXType t, const char *name)
{
    field_find f = {name, 0, -1};
    clang_Type_visitFields(clang_getCanonicalType(t), visit_field, &f);
    return f.found;
}

/* Definitions made by the declaration 'var' with initializer 'init' (may be null). */
static void declaration_defs(scan *s, CXCursor var, CXCursor init)
{
    unsigned begin = ss_ast_offset(var);
    CXCursor none = clang_getNullCursor();
    if (clang_Cursor_getStorageClass(var) == CX_SC_Static ||
        clang_Cursor_getStorageClass(var) == CX_SC_Extern) {
        add_def(s, SS_DEF_UNKNOWN, none, none, 0, begin, 1);
        return;
    }
    if (ss_ast_is_null(init)) {
        add_def(s, SS_DEF_UNKNOWN, none, none, 0, begin, 1); /* indeterminate */
        return;
    }
    if (s->loc->field == NULL && !s->loc->element) {
        add_def(s, SS_DEF_VALUE, init, none, 0, begin, 1);
        return;
    }
    CXCursor list = ss_ast_strip(init);
    if (clang_getCursorKind(list) != CXCursor_InitListExpr) {
        add_def(s, SS_DEF_UNKNOWN, none, none, 0, begin, 1);
        return;
    }
    unsigned n = ss_ast_child_count(list);
    if (s->loc->element) {
        for (unsigned i = 0; i < n; i++)
            add_def(s, SS_DEF_VALUE, ss_ast_child(list, i), none, 0, begin, 0);
        long long size = clang_getArraySize(clang_getCursorType(var));
        if (size < 0 || (unsigned long long)size > n)
            add_def(s, SS_DEF_ZERO, none, none, 0, begin, 0);
        return;
    }
    /* A field: designated ({.stream = s}) or positional ({grid, block, 0, s}). */
    for (unsigned i = 0; i < n; i++) {
        CXCursor item = ss_ast_child(list, i);
        CXCursor first = ss_ast_child(item, 0);
        if (clang_getCursorKind(first) != CXCursor_MemberRef)
            continue;
        CXString name = clang_getCursorSpelling(first);
        int match = strcmp(clang_getCString(name), s->loc->field) == 0;
        clang_disposeString(name);
        if (match) {
            unsigned k = ss_ast_child_count(item);
            add_def(s, SS_DEF_VALUE, ss_ast_child(item, k - 1), none, 0, begin, 1);
            return;
        }
        if (i + 1 == n) {
            add_def(s, SS_DEF_ZERO, none, none, 0, begin, 1);
            return;
        }
    }
    int index = field_index(clang_getCursorType(var), s->loc->field);
    if (index < 0)
        add_def(s, SS_DEF_UNKNOWN, none, none, 0, begin, 1);
    else if ((unsigned)index < n)
        add_def(s, SS_DEF_VALUE, ss_ast_child(list, (unsigned)index), none, 0, begin, 1);
    else
        add_def(s, SS_DEF_ZERO, none, none, 0, begin, 1);
}

/* The first and last token of 'c', when its text is written in one piece (ss_ast_spelled:
 * outside macros, or within a macro invocation's arguments). */
static int edge_tokens(CXCursor c, char *first, char *last, size_t size)
{
    if (!ss_ast_spelled(c))
        return -1;
    CXSourceRange r = clang_getCursorExtent(c);
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
    CXToken *tokens = NULL;
    unsigned n = 0;
    clang_tokenize(tu, r, &tokens, &n);
    if (n == 0)
        return -1;
    CXString a = clang_getTokenSpelling(tu, tokens[0]);
    CXString b = clang_getTokenSpelling(tu, tokens[n - 1]);
    snprintf(first, size, "%s", clang_getCString(a));
    snprintf(last, size, "%s", clang_getCString(b));
    clang_disposeString(a);
    clang_disposeString(b);
    clang_disposeTokens(tu, tokens, n);
    return 0;
}

/* 'p += n' or '++p' in 'values' mode: a definition whose value is the expression itself
 * (the location's earlier value, moved). The expression is not a definition for a use
 * inside it: its operand is read before it is written. */
static void add_advance(scan *s, CXCursor c, unsigned begin, unsigned end)
{
    if (begin <= s->use_begin && end >= s->use_end)
        return;
    add_def(s, SS_DEF_VALUE, c, clang_getNullCursor(), 0, begin, !s->loc->element);
}

/* 'x = y' through a class's operator= in 'values' mode: a definition of x with value y.
 * Returns 1 when 'call' was such an assignment to the tracked location. */
static int assignment_def(scan *s, CXCursor call, unsigned begin)
{
    CXCursor method = clang_getCursorReferenced(call);
    if (clang_getCursorKind(method) != CXCursor_CXXMethod ||
        clang_Cursor_getNumArguments(call) != 2)
        return 0;
    CXString name = clang_getCursorSpelling(method);
    int assign = strcmp(clang_getCString(name), "operator=") == 0;
    clang_disposeString(name);
    if (!assign || touches(s, clang_Cursor_getArgument(call, 0)) != TOUCH_EXACT)
        return 0;
    add_def(s, SS_DEF_VALUE, clang_Cursor_getArgument(call, 1), clang_getNullCursor(), 0, begin,
            !s->loc->element);
    return 1;
}

static int is_handled(const scan *s, unsigned begin)
{
    for (size_t i = 0; i < s->handled_count; i++) {
        if (s->handled[i] == begin)
            return 1;
    }
    return 0;
}

/* Whether a parameter of type 'ptype' may change the caller's argument: a non-const
 * lvalue reference, or a forwarding reference ('T&&') of a function template. */
static int writable_param(CXType ptype)
{
    if (ptype.kind == CXType_RValueReference)
        return 1;
    return ptype.kind == CXType_LValueReference &&
           !clang_isConstQualifiedType(clang_getPointeeType(ptype));
}

/* A call in a template that is not resolved yet ('cudaMemcpyAsync(h, d, n * sizeof(T), ...)'
 * with an argument whose type depends on a template parameter): whether some function it may
 * call takes argument 'index' as a writable reference. 1 also when the candidates are not
 * known. */
static int unresolved_may_write(CXCursor call, unsigned index)
{
    CXCursor ref = clang_getCursorReferenced(ss_ast_strip(ss_ast_child(call, 0)));
    if (clang_getCursorKind(ref) != CXCursor_OverloadedDeclRef)
        return 1;
    unsigned n = clang_getNumOverloadedDecls(ref);
    if (n == 0)
        return 1;
    for (unsigned i = 0; i < n; i++) {
        CXCursor decl = clang_getOverloadedDecl(ref, i);
        enum CXCursorKind k = clang_getCursorKind(decl);
        if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate)
            return 1; /* a using-declaration, a class: not read here */
        CXType ftype = clang_getCursorType(decl);
        int nparams = clang_getNumArgTypes(ftype);
        if (nparams < 0)
            return 1;
        if ((int)index >= nparams)
            continue; /* variadic C arguments are passed by value; else not viable */
        if (writable_param(clang_getArgType(ftype, index)))
            return 1;
    }
    return 0;
}

/* A call: arguments that are '&location' or the location bound to a non-const reference
 * parameter are out-arguments; methods called on the struct may change it. */
static void call_defs(scan *s, CXCursor call, unsigned begin)
{
    CXCursor none = clang_getNullCursor();
    int nargs = clang_Cursor_getNumArguments(call);
    CXCursor callee = clang_getCursorReferenced(call);
    CXType ftype = clang_getCursorType(callee);
    for (int i = 0; i < nargs; i++) {
        CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
        CXCursor e = ss_ast_strip(arg);
        if (clang_getCursorKind(e) == CXCursor_UnaryOperator) {
            char first[16], last[16];
            CXCursor operand = ss_ast_child(e, 0);
            if (edge_tokens(e, first, last, sizeof first) == 0 && strcmp(first, "&") == 0 &&
                touches(s, operand) != TOUCH_NONE) {
                add_def(s, SS_DEF_OUT_ARG, none, call, (unsigned)i, begin, 0);
                s->handled =
                    grow(s->handled, &s->handled_cap, s->handled_count + 1, sizeof *s->handled);
                s->handled[s->handled_count++] = ss_ast_offset(e);
            }
            continue;
        }
        if (touches(s, e) == TOUCH_NONE)
            continue;
        CXType ptype = clang_getArgType(ftype, (unsigned)i);
        if (ptype.kind == CXType_LValueReference &&
            !clang_isConstQualifiedType(clang_getPointeeType(ptype)))
            add_def(s, SS_DEF_OUT_ARG, none, call, (unsigned)i, begin, 0);
        else if (ptype.kind == CXType_Invalid &&
                 clang_getCursorKind(callee) != CXCursor_FunctionDecl &&
                 unresolved_may_write(call, (unsigned)i))
            add_def(s, SS_DEF_UNKNOWN, none, none, 0, begin, 0);
    }
}

/* Whether statements of kind 'k' make a region: 1 a loop, 0 code that may run zero times or
 * out of order (branches, labels, handlers, lambda bodies), -1 neither. */
static int region_kind(enum CXCursorKind k)
{
    switch (k) {
    case CXCursor_IfStmt:
    case CXCursor_SwitchStmt:
    case CXCursor_ConditionalOperator:
    case CXCursor_CaseStmt:
    case CXCursor_DefaultStmt:
    case CXCursor_LabelStmt:
    case CXCursor_CXXTryStmt:
    case CXCursor_CXXCatchStmt:
    case CXCursor_LambdaExpr:
        return 0;
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
    case CXCursor_CXXForRangeStmt:
        return 1;
    default:
        return -1;
    }
}

/* A variable declaration: the tracked variable's own (its initializer, the last expression
 * child, defines it), or a reference bound to the location, which lets it change unseen. */
static void var_decl_defs(scan *s, CXCursor c, unsigned begin)
{
    CXCursor none = clang_getNullCursor();
    if (clang_equalCursors(c, s->loc->var)) {
        s->declared = 1;
        unsigned n = ss_ast_child_count(c);
        CXCursor init = none;
        for (unsigned i = 0; i < n; i++) {
            CXCursor k = ss_ast_child(c, i);
            if (clang_isExpression(clang_getCursorKind(k)))
                init = k;
        }
        declaration_defs(s, c, init);
        return;
    }
    /* A pointer to it is taken with '&location', an escape of its own (unary_defs). */
    CXType t = clang_getCanonicalType(clang_getCursorType(c));
    if (t.kind != CXType_LValueReference && t.kind != CXType_RValueReference)
        return;
    unsigned n = ss_ast_child_count(c);
    for (unsigned i = 0; i < n; i++) {
        if (touches(s, ss_ast_strip(ss_ast_child(c, i))) != TOUCH_NONE)
            add_def(s, SS_DEF_UNKNOWN, none, none, 0, begin, 0);
    }
}

/* 'lhs = value' (a plain assignment) and the other binary operators on the location. */
static void assign_defs(scan *s, CXCursor c, unsigned begin)
{
    CXCursor none = clang_getNullCursor();
    touch t = touches(s, ss_ast_child(c, 0));
    if (t == TOUCH_NONE)
        return;
    char op[8];
    if (ss_ast_binary_op(c, op, sizeof op) != 0)
        add_def(s, SS_DEF_UNKNOWN, none, none, 0, begin, 0);
    else if (strcmp(op, "=") == 0 && t == TOUCH_WHOLE)
        add_def(s, SS_DEF_UNKNOWN, none, none, 0, begin, 1);
    else if (strcmp(op, "=") == 0)
        add_def(s, SS_DEF_VALUE, ss_ast_child(c, 1), none, 0, begin, !s->loc->element);
}

/* 'lhs op= value': an advance of a pointer in 'values' mode ('+=', '-='), else unknown. */
static void compound_assign_defs(scan *s, CXCursor c, unsigned begin, unsigned end)
{
    touch t = touches(s, ss_ast_child(c, 0));
    if (t == TOUCH_NONE)
        return;
    char op[8];
    if (s->loc->values && t == TOUCH_EXACT && ss_ast_binary_op(c, op, sizeof op) == 0 &&
        (strcmp(op, "+=") == 0 || strcmp(op, "-=") == 0)) {
        add_advance(s, c, begin, end);
        return;
    }
    add_def(s, SS_DEF_UNKNOWN, clang_getNullCursor(), clang_getNullCursor(), 0, begin, 0);
}

/* '&location' outside a call's arguments (an escape), '++'/'--' (an advance in 'values'
 * mode, else unknown); other unary operators only read it. */
static void unary_defs(scan *s, CXCursor c, unsigned begin, unsigned end)
{
    CXCursor none = clang_getNullCursor();
    CXCursor operand = ss_ast_child(c, 0);
    if (touches(s, operand) == TOUCH_NONE || is_handled(s, begin))
        return;
    char first[16], last[16];
    if (edge_tokens(c, first, last, sizeof first) != 0 || strcmp(first, "&") == 0) {
        add_def(s, SS_DEF_UNKNOWN, none, none, 0, begin, 0);
        return;
    }
    if (strcmp(first, "++") != 0 && strcmp(first, "--") != 0 && strcmp(last, "++") != 0 &&
        strcmp(last, "--") != 0)
        return;
    if (s->loc->values && touches(s, operand) == TOUCH_EXACT)
        add_advance(s, c, begin, end);
    else
        add_def(s, SS_DEF_UNKNOWN, none, none, 0, begin, 0);
}

/* A call: an operator= assignment in 'values' mode, out-arguments, and a non-const method
 * called on the whole struct ('obj.method()'), which may change it. */
static void call_expr_defs(scan *s, CXCursor c, unsigned begin)
{
    if (s->loc->values && assignment_def(s, c, begin))
        return;
    call_defs(s, c, begin);
    CXCursor method = clang_getCursorReferenced(c);
    if (clang_getCursorKind(method) != CXCursor_CXXMethod)
        return;
    CXCursor callee = ss_ast_strip(ss_ast_child(c, 0));
    if (clang_getCursorKind(callee) == CXCursor_MemberRefExpr &&
        clang_getCursorKind(clang_getCursorReferenced(callee)) == CXCursor_CXXMethod &&
        touches(s, ss_ast_child(callee, 0)) == TOUCH_WHOLE && !clang_CXXMethod_isConst(method))
        add_def(s, SS_DEF_UNKNOWN, clang_getNullCursor(), clang_getNullCursor(), 0, begin, 0);
}

/* The walk over the function: records regions, gotos and the definitions of the location,
 * skipping the use itself. */
static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data)
{
    scan *s = data;
    enum CXCursorKind kind = clang_getCursorKind(c);
    /* An operator that does not assign the location needs no range: the range of a node deep
     * in a left-nested expression ('1+1+...') takes time in its depth to find, so asking it
     * of every node took time in the square of the depth. Skipping it changes nothing: the
     * nodes under an operator inside the use are inside it too, and are skipped there. */
    if (kind == CXCursor_BinaryOperator && touches(s, ss_ast_child(c, 0)) == TOUCH_NONE)
        return CXChildVisit_Recurse;
    unsigned begin, end;
    ss_ast_range(c, &begin, &end);
    if (begin >= s->use_begin && end <= s->use_end && end > begin)
        return CXChildVisit_Continue; /* the use itself */
    int loop = region_kind(kind);
    if (loop >= 0) {
        add_region(s, c, loop);
        return CXChildVisit_Recurse;
    }
    switch (kind) {
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt:
        s->has_goto = 1;
        break;
    case CXCursor_VarDecl:
        var_decl_defs(s, c, begin);
        break;
    case CXCursor_BinaryOperator:
        assign_defs(s, c, begin);
        break;
    case CXCursor_CompoundAssignOperator:
        compound_assign_defs(s, c, begin, end);
        break;
    case CXCursor_UnaryOperator:
        unary_defs(s, c, begin, end);
        break;
    case CXCursor_CallExpr:
        call_expr_defs(s, c, begin);
        break;
    default:
        break;
    }
    return CXChildVisit_Recurse;
}

static int contains(const region *r, unsigned offset)
{
    return offset >= r->begin && offset < r->end;
}

/* Whether definition 'd' runs on every path to the use (it sits in no region that the use
 * is outside of). */
static int dominates(const scan *s, const found_def *d)
{
    if (!d->strong || s->has_goto || d->begin >= s->use_begin)
        return 0;
    for (size_t i = 0; i < s->region_count; i++) {
        const region *r = &s->regions[i];
        if (contains(r, d->begin) && !contains(r, s->use_begin))
            return 0;
    }
    return 1;
}

static void push_def(ss_defs *out, const ss_def *def)
{
    out->v = grow(out->v, &out->cap, out->count + 1, sizeof *out->v);
    out->v[out->count++] = *def;
}

int ss_dataflow_reaching(CXCursor function, const ss_location *loc, CXCursor use, ss_defs *out)
{
    ss_def unknown = {SS_DEF_UNKNOWN, clang_getNullCursor(), clang_getNullCursor(), 0};
    if (ss_ast_is_null(function) || ss_ast_is_null(loc->var)) {
        push_def(out, &unknown);
        return -1;
    }
    scan s;
    memset(&s, 0, sizeof s);
    s.loc = loc;
    s.function = function;
    ss_ast_range(use, &s.use_begin, &s.use_end);
    clang_visitChildren(function, visit, &s);
    if (!s.declared) {
        /* A parameter, a global or a captured variable: its value on entry is unknown. */
        found_def entry = {unknown, 0, 1};
        s.defs = grow(s.defs, &s.def_cap, s.def_count + 1, sizeof *s.defs);
        memmove(s.defs + 1, s.defs, s.def_count * sizeof *s.defs);
        s.defs[0] = entry;
        s.def_count++;
    }
    /* The last definition that runs on every path before the use kills the earlier ones. */
    const found_def *kill = NULL;
    for (size_t i = 0; i < s.def_count; i++) {
        if (dominates(&s, &s.defs[i]) && (kill == NULL || s.defs[i].begin >= kill->begin))
            kill = &s.defs[i];
    }
    for (size_t i = 0; i < s.def_count; i++) {
        const found_def *d = &s.defs[i];
        int reaches = 0;
        if (d->begin < s.use_begin) {
            reaches = kill == NULL || d->begin >= kill->begin;
        } else {
            /* Later in a loop around the use: reaches on the next iteration, unless a
             * definition inside that loop kills it first. */
            for (size_t j = 0; j < s.region_count && !reaches; j++) {
                const region *r = &s.regions[j];
                if (r->loop && contains(r, d->begin) && contains(r, s.use_begin) &&
                    (kill == NULL || !contains(r, kill->begin)))
                    reaches = 1;
            }
        }
        if (reaches)
            push_def(out, &d->def);
    }
    free(s.defs);
    free(s.regions);
    free(s.handled);
    return 0;
}

void ss_defs_free(ss_defs *defs)
{
    free(defs->v);
    memset(defs, 0, sizeof *defs);
}
