/* only_tested.c: a readback in a loop whose value the host tests at once (context_cases.h). */
#include "ast.h"
#include "common.h"
#include "context_cases.h"
#include "dataflow.h"
#include "log.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_STATEMENTS = 256, MAX_SITES = 32, MAX_APART = 3 };

/* Whether the type 't' is a scalar: an integer, a bool, a floating type, an enumeration. */
static int scalar_type(CXType t)
{
    t = clang_getCanonicalType(t);
    return (t.kind >= CXType_Bool && t.kind <= CXType_LongDouble) || t.kind == CXType_Enum;
}

/* Whether 'var' is a plain local of a function, of a scalar type (a flag, a count, a
 * residual), a parameter taken by value included: no static or global storage, no reference,
 * no array, no class. */
static int plain_local(CXCursor var)
{
    enum CXCursorKind k = clang_getCursorKind(var);
    if ((k != CXCursor_VarDecl && k != CXCursor_ParmDecl) ||
        clang_Cursor_hasVarDeclGlobalStorage(var))
        return 0;
    if (!ss_ast_is_function(clang_getCursorSemanticParent(var)))
        return 0;
    return scalar_type(clang_getCursorType(var));
}

/* Counts the fields of a struct in '*data' while each is a scalar (scalar_type); -1 at the
 * first that is not. */
static enum CXVisitorResult scalar_field(CXCursor field, CXClientData data)
{
    if (scalar_type(clang_getCursorType(field))) {
        (*(int *)data)++;
        return CXVisit_Continue;
    }
    *(int *)data = -1;
    return CXVisit_Break;
}

static enum CXChildVisitResult find_base(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(c) != CXCursor_CXXBaseSpecifier)
        return CXChildVisit_Continue;
    *(int *)data = 1;
    return CXChildVisit_Break;
}

/* Whether 'var' is a local as plain_local asks, of a struct whose fields are all scalars or
 * enumerations ('RayBuffer { unsigned inserted, capacity; }'), with no base class: a value the
 * host may test through its fields and const methods (passes_test). */
static int plain_record_local(CXCursor var)
{
    enum CXCursorKind k = clang_getCursorKind(var);
    if (k != CXCursor_VarDecl || clang_Cursor_hasVarDeclGlobalStorage(var) ||
        !ss_ast_is_function(clang_getCursorSemanticParent(var)))
        return 0;
    CXType t = clang_getCanonicalType(clang_getCursorType(var));
    if (t.kind != CXType_Record)
        return 0;
    int fields = 0, base = 0;
    clang_Type_visitFields(t, scalar_field, &fields);
    clang_visitChildren(clang_getTypeDeclaration(t), find_base, &base);
    return fields > 0 && !base;
}

/* A value the host may only test: a plain local scalar or struct of scalars. */
static int tested_local(CXCursor var)
{
    return plain_local(var) || plain_record_local(var);
}

/* Whether 'c' is the variable 'var' itself, through parentheses and implicit casts. */
static int is_var(CXCursor c, CXCursor var)
{
    CXCursor e = ss_ast_strip(c);
    return clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(e), var);
}

/* Whether the unary operator 'op' is written starting with 'prefix' ('&', '*'): 1 or 0, -1
 * where its text is unreadable. */
static int unary_written(CXCursor op, const char *prefix)
{
    char *text = ss_expr_text(op);
    if (text == NULL)
        return -1;
    int is = strncmp(text, prefix, strlen(prefix)) == 0 && strncmp(text, "&&", 2) != 0;
    free(text);
    return is;
}

/* Whether 'op' is the unary operator '&' applied to 'var' itself ('&flag'); one whose text is
 * unreadable counts as one. */
static int address_of(CXCursor op, CXCursor var)
{
    return clang_getCursorKind(op) == CXCursor_UnaryOperator && ss_ast_child_count(op) == 1 &&
           is_var(ss_ast_child(op, 0), var) && unary_written(op, "&") != 0;
}

/* ------------------------------------------------------------------------------------------
 * Every read the readback may reach is a test. */

typedef struct tests_walk {
    CXCursor function, var, copy;
    CXCursor loop;   /* the loop whose body the readback ends, when it tests the value */
    CXCursor around; /* the innermost loop of the function around the readback, or null */
    int more; /* prints in the loop, reads after it and copies count (not for a copy's walk) */
    ss_location loc;
    unsigned stores[MAX_SITES];      /* '&var' as the destination of a copy to the host */
    CXCursor store_calls[MAX_SITES]; /* the copy of each */
    unsigned reads[MAX_SITES];       /* '&var' as another argument of a copy */
    size_t store_count, read_count;
    unsigned tests;                             /* reads in a condition that the readback reaches */
    unsigned print_line, after_line, copy_line; /* the first print, read after, copy; 0: none */
    CXCursor copied;                            /* the local of the copy */
    int refused;
} tests_walk;

/* The '&var' arguments of the copies of the function: where a copy to the host writes the
 * value (or the readback itself does, a cuBLAS result), and where a copy reads it. */
static enum CXChildVisitResult find_sites(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    tests_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    int readback = ss_ast_same_node(c, w->copy);
    if (!readback && (api == NULL || api->klass != SS_CLASS_COPY))
        return CXChildVisit_Recurse;
    CXCursor dst = clang_getNullCursor(), src;
    if (api && api->klass == SS_CLASS_COPY &&
        ss_copy_kind(w->function, c, api, &dst, &src) != SS_COPY_KIND_D2H)
        dst = clang_getNullCursor();
    for (int i = 0, n = clang_Cursor_getNumArguments(c); i < n; i++) {
        CXCursor arg = ss_ast_strip(clang_Cursor_getArgument(c, (unsigned)i));
        if (!address_of(arg, w->var))
            continue;
        int store = readback ? api == NULL || ss_ast_same_node(arg, ss_ast_strip(dst))
                             : !ss_ast_is_null(dst) && ss_ast_same_node(arg, ss_ast_strip(dst));
        if (store && w->store_count < MAX_SITES) {
            w->store_calls[w->store_count] = c;
            w->stores[w->store_count++] = ss_ast_offset(arg);
        } else if (!store && w->read_count < MAX_SITES)
            w->reads[w->read_count++] = ss_ast_offset(arg);
        else
            w->refused = 1;
    }
    return CXChildVisit_Recurse;
}

static int site_in(const unsigned *sites, size_t count, unsigned offset)
{
    for (size_t i = 0; i < count; i++)
        if (sites[i] == offset)
            return 1;
    return 0;
}

/* Whether code of the node 'c' runs whatever it holds whenever it runs: a block, an
 * error-checking macro ('do { ... } while (0)'), a declaration, an assignment, a cast or a call
 * (that takes it as an argument); no branch. */
static int runs_all(CXCursor c)
{
    char op[8];
    switch (clang_getCursorKind(c)) {
    case CXCursor_CompoundStmt:
    case CXCursor_DeclStmt:
    case CXCursor_VarDecl:
    case CXCursor_UnexposedExpr:
    case CXCursor_ParenExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_CallExpr:
        return 1;
    case CXCursor_DoStmt:
        return ss_ast_do_once(c);
    case CXCursor_BinaryOperator:
        return ss_ast_binary_op(c, op, sizeof op) == 0 && strcmp(op, "=") == 0;
    default:
        return 0;
    }
}

/* Whether the statement 'stmt' runs the call 'call' in it whenever it runs (runs_all on the
 * way down). */
static int runs_whenever(CXCursor stmt, CXCursor call)
{
    if (ss_ast_same_node(stmt, call))
        return 1;
    CXCursor *path = malloc(SS_CONTEXT_MAX_PATH * sizeof *path);
    long found = path ? ss_context_path(stmt, call, path) : -1;
    int always = found >= 0 && runs_all(stmt);
    for (long i = 0; i < found && always; i++)
        always = runs_all(path[i]);
    free(path);
    return always;
}

/* Whether another copy to the host into the variable ends the readback's value before the read
 * 'use' on every path to it: in a block around 'use', a statement before the one that holds it
 * runs that copy whenever it runs (runs_whenever), and the readback is not between the two
 * (the final residual read again before it is printed; the dataflow keeps a copy's
 * out-argument as a definition that may not happen). */
static int overwritten(const tests_walk *w, CXCursor use)
{
    CXCursor *path = malloc(SS_CONTEXT_MAX_PATH * sizeof *path);
    long found = path ? ss_context_path(w->function, use, path) : -1;
    unsigned at = ss_ast_offset(w->copy);
    int ends = 0;
    for (long i = 0; i + 1 < found && !ends; i++) {
        if (clang_getCursorKind(path[i]) != CXCursor_CompoundStmt)
            continue;
        unsigned holder = ss_ast_offset(path[i + 1]);
        for (size_t s = 0; s < w->store_count && !ends; s++) {
            CXCursor call = w->store_calls[s];
            unsigned site = w->stores[s];
            if (ss_ast_same_node(call, w->copy) || site >= holder)
                continue;
            for (unsigned c = 0, n = ss_ast_child_count(path[i]); c < n && !ends; c++) {
                CXCursor stmt = ss_ast_child(path[i], c);
                unsigned begin, end;
                ss_ast_range(stmt, &begin, &end);
                ends = site >= begin && site < end && !(at >= begin && at < holder) &&
                       runs_whenever(stmt, call);
            }
        }
    }
    free(path);
    return ends;
}

/* Whether the readback's value may reach the read 'use' of the variable: one of the
 * definitions reaching it is the readback (its out-argument, or a value that holds the call).
 * A definition the analysis cannot bound is not the readback: the variable's address goes
 * nowhere but to copies (find_sites), so it comes from a read walked here too. */
static int reached(tests_walk *w, CXCursor use)
{
    if (w->store_count > 1 && overwritten(w, use))
        return 0;
    ss_defs defs = {0};
    int reaches = ss_dataflow_reaching(w->function, &w->loc, use, &defs) != 0;
    unsigned at = ss_ast_offset(w->copy);
    for (size_t i = 0; i < defs.count && !reaches; i++) {
        const ss_def *d = &defs.v[i];
        unsigned begin, end;
        if (d->kind == SS_DEF_OUT_ARG)
            reaches = ss_ast_same_node(d->call, w->copy);
        else if (d->kind == SS_DEF_VALUE) {
            ss_ast_range(d->value, &begin, &end);
            reaches = at >= begin && at < end;
        }
    }
    ss_defs_free(&defs);
    return reaches;
}

/* Whether the method 'm' reads its object without changing it: const, not static (a
 * conversion too: 'while (buf)' through a const 'operator bool'). */
static int const_method(CXCursor m)
{
    enum CXCursorKind k = clang_getCursorKind(m);
    return (k == CXCursor_CXXMethod || k == CXCursor_ConversionFunction) &&
           clang_CXXMethod_isConst(m) && !clang_CXXMethod_isStatic(m);
}

/* Whether the node 'c' under a condition keeps what it computes a test: parentheses,
 * casts, the operators that compute without storing ('!', '-', '<', '&&', '?:', ...), a field
 * read ('buf.inserted') and a call of a const method with no argument ('buf.isEmpty()'). */
static int passes_test(CXCursor c)
{
    char op[8];
    CXCursor ref;
    switch (clang_getCursorKind(c)) {
    case CXCursor_MemberRefExpr:
        ref = clang_getCursorReferenced(c);
        return clang_getCursorKind(ref) == CXCursor_FieldDecl || const_method(ref);
    case CXCursor_CallExpr:
        return const_method(clang_getCursorReferenced(c)) && clang_Cursor_getNumArguments(c) == 0;
    case CXCursor_UnexposedExpr:
    case CXCursor_ParenExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
    case CXCursor_ConditionalOperator:
        return 1;
    case CXCursor_UnaryOperator:
        return unary_written(c, "&") == 0 && unary_written(c, "*") == 0 && ss_expr_steps(c) == 0;
    case CXCursor_BinaryOperator:
        return ss_ast_binary_op(c, op, sizeof op) == 0 && strcmp(op, "=") != 0 &&
               strcmp(op, ",") != 0;
    default:
        return 0;
    }
}

/* Whether the declaration 'decl' is the C or C++ library's: in a system header, or in the
 * namespace std; a program's 'Logger::printf', 'util::printf' or 'rebuild' is not. */
static int library_decl(CXCursor decl)
{
    if (ss_ast_is_null(decl))
        return 0;
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(decl)))
        return 1;
    CXCursor ns = clang_getCursorSemanticParent(decl);
    if (clang_getCursorKind(ns) != CXCursor_Namespace)
        return 0;
    CXString name = clang_getCursorSpelling(ns);
    int std = strcmp(clang_getCString(name), "std") == 0 &&
              clang_getCursorKind(clang_getCursorSemanticParent(ns)) == CXCursor_TranslationUnit;
    clang_disposeString(name);
    return std;
}

/* The streams of the console an insertion may write to ('std::cout << r'). */
static const char *const console_streams[] = {"cout", "cerr", "clog", "wcout", "wcerr"};

/* Whether the call 'c' inserts into the console, 'std::cout << ...' (an 'operator<<' whose left
 * operand is, through more of them, one of console_streams). */
static int inserts_to_console(CXCursor c)
{
    for (int hops = 0; hops < 64 && clang_getCursorKind(c) == CXCursor_CallExpr; hops++) {
        char *name = ss_ast_callee_name(c);
        int insert = name && strcmp(name, "operator<<") == 0;
        free(name);
        if (!insert || clang_Cursor_getNumArguments(c) != 2)
            return 0;
        c = ss_ast_strip(clang_Cursor_getArgument(c, 0));
    }
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr ||
        !library_decl(clang_getCursorReferenced(c)))
        return 0;
    CXString sp = clang_getCursorSpelling(clang_getCursorReferenced(c));
    const char *name = clang_getCString(sp);
    int console = 0;
    for (size_t i = 0; name && i < sizeof console_streams / sizeof console_streams[0]; i++)
        console |= strcmp(name, console_streams[i]) == 0;
    clang_disposeString(sp);
    return console;
}

/* The functions of the C library that print their arguments. */
static const char *const print_calls[] = {"printf", "fprintf", "dprintf", "puts",
                                          "fputs",  "wprintf", "fwprintf"};

/* The functions of the C math library a print may show the value through ('sqrt(r1)'). */
static const char *const shown_through[] = {"sqrt", "sqrtf", "fabs",  "fabsf", "abs",
                                            "log",  "logf",  "log10", "exp",   "expf"};

/* Whether the name 'name' is one of 'names' ('count' of them). */
static int named(const char *name, const char *const *names, size_t count)
{
    for (size_t i = 0; name && i < count; i++)
        if (strcmp(name, names[i]) == 0)
            return 1;
    return 0;
}

/* Whether 'c' is a call that prints its arguments: one of print_calls, or an insertion into the
 * console; with 'math', also a function of shown_through, which a print may show the value
 * through. */
static int prints_or(CXCursor c, int math)
{
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return 0;
    if (!library_decl(clang_getCursorReferenced(c)))
        return inserts_to_console(c);
    char *name = ss_ast_callee_name(c);
    int found =
        named(name, print_calls, sizeof print_calls / sizeof print_calls[0]) ||
        (math && named(name, shown_through, sizeof shown_through / sizeof shown_through[0]));
    free(name);
    return found || inserts_to_console(c);
}

static int prints(CXCursor c)
{
    return prints_or(c, 0);
}

typedef struct walk_frame {
    tests_walk *w;
    int test;       /* the parent computes a test */
    int print;      /* the parent computes what a print prints (or is that print) */
    unsigned index; /* of the next child */
    unsigned cond;  /* the index of the parent's condition, for a branch or loop */
} walk_frame;

enum { READ_USE, READ_TEST, READ_PRINT };

static void walk_node(tests_walk *w, CXCursor c, CXCursor parent, unsigned index, int how);

static enum CXChildVisitResult walk_child(CXCursor c, CXCursor parent, CXClientData data)
{
    walk_frame *f = data;
    unsigned index = f->index++;
    int how = f->test && passes_test(parent) ? READ_TEST : READ_USE;
    if (index == f->cond)
        how = READ_TEST;
    else if (how == READ_USE && f->print && (prints_or(parent, 1) || passes_test(parent)))
        how = READ_PRINT;
    walk_node(f->w, c, parent, index, how);
    return f->w->refused ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Whether 'c' lies after the loop around the readback: at or after its end, or before it inside
 * an outer loop around both (its next round, the loop over); a read before the loop in no
 * outer loop is not after it. */
static int after_loop(const tests_walk *w, CXCursor c)
{
    if (ss_ast_is_null(w->around))
        return 0;
    unsigned begin, end, at = ss_ast_offset(c);
    ss_ast_range(w->around, &begin, &end);
    if (at >= end)
        return 1;
    if (at >= begin)
        return 0;
    CXCursor *path = malloc(SS_CONTEXT_MAX_PATH * sizeof *path);
    long found = path ? ss_context_path(w->function, w->around, path) : -1;
    int outer = 0;
    for (long i = 0; i < found && !outer; i++) {
        enum CXCursorKind k = clang_getCursorKind(path[i]);
        if (k != CXCursor_ForStmt && k != CXCursor_WhileStmt && k != CXCursor_DoStmt &&
            k != CXCursor_CXXForRangeStmt)
            continue;
        ss_ast_range(path[i], &begin, &end);
        outer = !ss_ast_same_node(path[i], w->around) && at >= begin && at < end;
    }
    free(path);
    return outer;
}

/* A read of the variable at 'c' ('how': in a condition or what a print prints, under
 * operators only, or another use). */
static void read_var(tests_walk *w, CXCursor c, int how)
{
    if (!reached(w, c))
        return;
    unsigned *line = NULL;
    if (how == READ_TEST) {
        w->tests++;
        return;
    }
    if (w->more && after_loop(w, c))
        line = &w->after_line;
    else if (w->more && how == READ_PRINT)
        line = &w->print_line;
    if (line == NULL)
        w->refused = 1;
    else if (*line == 0)
        *line = ss_scope_line(c);
}

/* Whether 'c' lets another name stand for the variable: a reference declared to it
 * ('int &alias = flag;'), or the variable given to a call's parameter of a reference type not
 * to const ('swap(flag, other)'), which may keep its address. */
static int aliases(CXCursor c, CXCursor var)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_VarDecl) {
        CXType t = clang_getCanonicalType(clang_getCursorType(c));
        return (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference) &&
               ss_context_mentions(c, var);
    }
    if (k != CXCursor_CallExpr)
        return 0;
    CXCursor callee = clang_getCursorReferenced(c);
    CXType ftype = clang_getCursorType(callee);
    int n = clang_Cursor_getNumArguments(c), params = clang_getNumArgTypes(ftype);
    /* A method called as an operator ('std::cout << r') has its object as the first argument. */
    int shift = clang_getCursorKind(callee) == CXCursor_CXXMethod && params >= 0 && n == params + 1;
    for (int i = 0; i < n; i++) {
        if (!is_var(clang_Cursor_getArgument(c, (unsigned)i), var))
            continue;
        /* What a variadic function ('printf') takes beyond its parameters goes by value. */
        if (clang_isFunctionTypeVariadic(ftype) == 1 && i - shift >= params)
            continue;
        if (shift && i == 0)
            return 1; /* the object itself: a plain local is none, but stay safe */
        CXType p = clang_getArgType(ftype, (unsigned)(i - shift));
        if (p.kind == CXType_Invalid || p.kind == CXType_RValueReference ||
            (p.kind == CXType_LValueReference &&
             !clang_isConstQualifiedType(clang_getPointeeType(p))))
            return 1;
    }
    return 0;
}

/* Where 'c' copies the variable into another plain local, as a statement of its own ('last =
 * r;') or a declaration ('float last = r;'): that local, and the read of the variable into
 * '*value'; a null cursor otherwise. */
static CXCursor copy_into(const tests_walk *w, CXCursor c, CXCursor parent, CXCursor *value)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    CXCursor other = clang_getNullCursor(), from = clang_getNullCursor();
    char op[8];
    if (k == CXCursor_BinaryOperator && clang_getCursorKind(parent) == CXCursor_CompoundStmt &&
        ss_ast_child_count(c) == 2 && ss_ast_binary_op(c, op, sizeof op) == 0 &&
        strcmp(op, "=") == 0) {
        CXCursor lhs = ss_ast_child(c, 0);
        if (clang_getCursorKind(lhs) == CXCursor_DeclRefExpr)
            other = clang_getCursorReferenced(lhs);
        from = ss_ast_child(c, 1);
    } else if (k == CXCursor_VarDecl && ss_ast_child_count(c) > 0) {
        other = c;
        from = ss_ast_child(c, ss_ast_child_count(c) - 1);
    }
    if (ss_ast_is_null(other) || clang_equalCursors(other, w->var) || !plain_local(other) ||
        ss_ast_is_null(from) || !is_var(from, w->var))
        return clang_getNullCursor();
    *value = ss_ast_strip(from);
    return other;
}

static int walk_reads(tests_walk *w);

/* The copy 'value' of the variable into 'other' (copy_into): it counts where the readback may
 * reach it and every read of 'other' that the copy reaches is a test (the next round's
 * 'if (r > last)'). */
static void read_copy(tests_walk *w, CXCursor other, CXCursor value)
{
    if (!reached(w, value))
        return;
    tests_walk sub;
    memset(&sub, 0, sizeof sub);
    sub.function = w->function;
    sub.var = other;
    sub.copy = value;
    sub.loop = w->loop;
    sub.loc.var = other;
    /* A copy after the loop is a read after it; one that is no such copy, another use. */
    if (!w->more || after_loop(w, value) || !walk_reads(&sub)) {
        read_var(w, value, READ_USE);
        return;
    }
    if (w->copy_line == 0) {
        w->copy_line = ss_scope_line(value);
        w->copied = other;
    }
}

static enum CXChildVisitResult find_decision(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    switch (clang_getCursorKind(c)) {
    case CXCursor_BreakStmt:
    case CXCursor_ContinueStmt:
    case CXCursor_ReturnStmt:
    case CXCursor_GotoStmt:
    case CXCursor_CXXThrowExpr:
    case CXCursor_CXXNewExpr:
    case CXCursor_CXXDeleteExpr:
        break;
    case CXCursor_CallExpr:
        if (prints_or(c, 1))
            return CXChildVisit_Continue;
        break;
    default:
        return CXChildVisit_Recurse;
    }
    *(int *)data = 1;
    return CXChildVisit_Break;
}

/* Whether the 'if' 'stmt' decides what runs next: a branch leaves the loop ('break', 'continue',
 * 'return', 'goto', 'throw'), calls a function or queues device work; one that only counts,
 * keeps a best round or prints ('if (r > 1e3f) bad++;') decides nothing. */
static int decides(CXCursor stmt)
{
    int found = 0;
    for (unsigned i = ss_ast_if_condition(stmt) + 1, n = ss_ast_child_count(stmt); i < n && !found;
         i++) {
        CXCursor branch = ss_ast_child(stmt, i);
        find_decision(branch, stmt, &found);
        if (!found)
            clang_visitChildren(branch, find_decision, &found);
    }
    return found;
}

static void walk_node(tests_walk *w, CXCursor c, CXCursor parent, unsigned index, int how)
{
    enum CXCursorKind k = clang_getCursorKind(c), pk = clang_getCursorKind(parent);
    char op[8];
    CXCursor value, other;
    if (k == CXCursor_UnaryExpr) /* sizeof, alignof: not read */
        return;
    if (!ss_ast_is_null(other = copy_into(w, c, parent, &value))) {
        read_copy(w, other, value);
        return;
    }
    if (k == CXCursor_LambdaExpr || aliases(c, w->var)) {
        w->refused = k != CXCursor_LambdaExpr || ss_context_mentions(c, w->var);
        return;
    }
    if (address_of(c, w->var)) {
        unsigned at = ss_ast_offset(c);
        if (site_in(w->reads, w->read_count, at))
            read_var(w, c, 0);
        else if (!site_in(w->stores, w->store_count, at))
            w->refused = 1; /* the address goes elsewhere */
        return;
    }
    if (k == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(c), w->var)) {
        int store = pk == CXCursor_BinaryOperator && index == 0 &&
                    ss_ast_binary_op(parent, op, sizeof op) == 0 && strcmp(op, "=") == 0;
        if (!store)
            read_var(w, c, how);
        return;
    }
    /* An 'if' that decides (decides) tests by its condition; a loop's condition is a test only for
     * the loop that repeats the readback: another ('while (i < n)') uses the value as its trip
     * count. */
    walk_frame f = {w, how == READ_TEST, how == READ_PRINT || prints(c), 0, (unsigned)-1};
    int repeats = !ss_ast_is_null(w->loop) && ss_ast_same_node(c, w->loop);
    if ((k == CXCursor_IfStmt && decides(c)) || (k == CXCursor_WhileStmt && repeats))
        f.cond = ss_ast_if_condition(c);
    else if (k == CXCursor_DoStmt && repeats)
        f.cond = 1;
    clang_visitChildren(c, walk_child, &f);
}

/* Whether every read of 'w->var' in its function that 'w->copy' may reach is a test (in the
 * condition of an 'if', or of 'w->loop', the loop whose body the readback ends, or a null
 * cursor), or with 'w->more' also a print in the loop around the readback, a read after it or a
 * copy into another local that only tests read; 1 when there is at least one test. */
static int walk_reads(tests_walk *w)
{
    CXCursor body = ss_ast_body(w->function);
    if (ss_ast_is_null(body))
        return 0;
    clang_visitChildren(body, find_sites, w);
    if (!w->refused)
        walk_node(w, body, w->function, 0, READ_USE);
    return !w->refused && w->tests > 0;
}

/* The innermost loop of 'function' around 'c', or a null cursor. */
static CXCursor innermost_loop(CXCursor function, CXCursor c)
{
    CXCursor *path = malloc(SS_CONTEXT_MAX_PATH * sizeof *path);
    CXCursor loop = clang_getNullCursor();
    long found = path ? ss_context_path(function, c, path) : -1;
    for (long i = found - 1; i >= 0 && ss_ast_is_null(loop); i--) {
        enum CXCursorKind k = clang_getCursorKind(path[i]);
        if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_CXXForRangeStmt ||
            (k == CXCursor_DoStmt && !ss_ast_do_once(path[i])))
            loop = path[i];
    }
    free(path);
    return loop;
}

/* walk_reads for the variable 'var' and the readback 'copy', from the start ('w' filled in);
 * 'at' is the finding's call, whose innermost loop is the loop around the readback. */
static int only_tests(tests_walk *w, CXCursor var, CXCursor copy, CXCursor loop, CXCursor at)
{
    memset(w, 0, sizeof *w);
    w->function = clang_getCursorSemanticParent(var);
    w->var = var;
    w->copy = copy;
    w->loop = loop;
    w->loc.var = var;
    w->more = 1;
    w->around = innermost_loop(w->function, at);
    return walk_reads(w);
}

/* ------------------------------------------------------------------------------------------
 * The test right after the readback. */

/* The condition of the branch or loop 'stmt' ('if', 'while', 'do'), or a null cursor. */
static CXCursor condition_of(CXCursor stmt)
{
    enum CXCursorKind k = clang_getCursorKind(stmt);
    if (k == CXCursor_IfStmt || k == CXCursor_WhileStmt)
        return ss_ast_child(stmt, ss_ast_if_condition(stmt));
    if (k == CXCursor_DoStmt)
        return ss_ast_child(stmt, 1);
    return clang_getNullCursor();
}

CXCursor ss_context_body_loop(CXCursor function, CXCursor stmt)
{
    CXCursor *path = malloc(SS_CONTEXT_MAX_PATH * sizeof *path);
    CXCursor loop = clang_getNullCursor();
    long found = path ? ss_context_path(function, stmt, path) : -1;
    /* The path ends with the block that holds 'stmt', and the statement around the block. */
    if (found >= 2 && clang_getCursorKind(path[found - 1]) == CXCursor_CompoundStmt) {
        CXCursor up = path[found - 2];
        enum CXCursorKind k = clang_getCursorKind(up);
        unsigned body = k == CXCursor_DoStmt ? 0 : ss_ast_child_count(up) - 1;
        if ((k == CXCursor_WhileStmt || (k == CXCursor_DoStmt && !ss_ast_do_once(up))) &&
            ss_ast_child_count(up) >= 2 &&
            ss_ast_same_node(ss_ast_child(up, body), path[found - 1]))
            loop = up;
    }
    free(path);
    return loop;
}

/* A call, 'new' or 'delete' in a statement; with 'jumps' (a branch), also a jump back into the
 * loop or a loop of its own ('continue', 'goto', 'for', 'while', 'do', 'switch'): a branch that
 * skips the test, or host work. */
typedef struct call_walk {
    int jumps, found;
} call_walk;

static enum CXChildVisitResult find_call(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    call_walk *w = data;
    switch (clang_getCursorKind(c)) {
    case CXCursor_CallExpr:
    case CXCursor_CXXNewExpr:
    case CXCursor_CXXDeleteExpr:
        w->found = 1;
        break;
    case CXCursor_ContinueStmt:
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt:
    case CXCursor_ForStmt:
    case CXCursor_CXXForRangeStmt:
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
    case CXCursor_SwitchStmt:
        w->found = w->jumps;
        break;
    default:
        break;
    }
    return w->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether 'stmt' is a step of the host that calls nothing: a declaration, an expression
 * ('rounds++', 'k = 0') or a branch ('if (level > 100) break;') with no call in it, nor a loop or a
 * jump back into the loop (find_call). Host work that calls (a function, a launch) or loops could
 * run before the readback, overlapping it, so it does not stand between a readback and its
 * test; a branch that skips the test on some rounds ('continue') makes the wait those rounds'
 * own choice. */
static int calls_nothing(CXCursor stmt)
{
    switch (clang_getCursorKind(stmt)) {
    case CXCursor_IfStmt:
    case CXCursor_DeclStmt:
    case CXCursor_NullStmt:
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator:
    case CXCursor_UnaryOperator:
    case CXCursor_UnexposedExpr:
    case CXCursor_ParenExpr:
        break;
    default:
        return 0;
    }
    call_walk w = {clang_getCursorKind(stmt) == CXCursor_IfStmt, 0};
    clang_visitChildren(stmt, find_call, &w);
    return !w.found;
}

static enum CXChildVisitResult find_other_call(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((k == CXCursor_CallExpr && !prints_or(c, 1)) || k == CXCursor_CXXNewExpr ||
        k == CXCursor_LambdaExpr) {
        *(int *)data = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether 'stmt' only prints: a print call (prints) whose arguments call nothing but more of
 * the same insertions and the math of shown_through ('std::cout << it << " " << r << "\n";',
 * 'printf("%e\n", sqrt(r1));'). */
static int print_statement(CXCursor stmt)
{
    CXCursor e = ss_ast_strip(stmt);
    int other = 0;
    if (!prints(e))
        return 0;
    clang_visitChildren(e, find_other_call, &other);
    return !other;
}

/* The variable a copy's destination '&x' names, or a null cursor. */
static CXCursor address_target(CXCursor dst)
{
    CXCursor d = ss_ast_strip(dst);
    if (clang_getCursorKind(d) != CXCursor_UnaryOperator || ss_ast_child_count(d) != 1 ||
        unary_written(d, "&") != 1)
        return clang_getNullCursor();
    CXCursor e = ss_ast_strip(ss_ast_child(d, 0));
    return clang_getCursorKind(e) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(e)
                                                          : clang_getNullCursor();
}

static enum CXChildVisitResult find_api(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_CallExpr && ss_scope_callee_api(c) != NULL) {
        *(int *)data = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether the call 'c' checks what an API call in its arguments returns
 * ('check(cudaMemcpy(...), ...)', an error-checking macro's function). */
static int wraps_api(CXCursor c)
{
    int found = 0;
    clang_visitChildren(c, find_api, &found);
    return found;
}

/* Whether the call 'c' calls the toolkit ('cudaGetErrorString' in an error check). */
static int toolkit_call(CXCursor c)
{
    char *name = ss_ast_callee_name(c);
    int is = name && strncmp(name, "cuda", 4) == 0;
    free(name);
    return is;
}

/* A statement that reads back one more value as the readback does (another_readback). */
typedef struct readback_walk {
    ss_check_ctx *ctx;
    const ss_api *api;
    CXCursor var;
    int found, other;
} readback_walk;

static enum CXChildVisitResult find_readback(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    readback_walk *r = data;
    const ss_api *api = clang_getCursorKind(c) == CXCursor_CallExpr ? ss_scope_callee_api(c) : NULL;
    if (api == NULL && clang_getCursorKind(c) == CXCursor_CallExpr &&
        !library_decl(clang_getCursorReferenced(c)) && !toolkit_call(c) && !wraps_api(c)) {
        r->other = 1; /* host work of the program ('rebuild(table)') */
        return CXChildVisit_Break;
    }
    if (api == NULL)
        return CXChildVisit_Recurse;
    CXCursor dst = clang_getNullCursor(), src, target = clang_getNullCursor();
    if (api == r->api && !r->found && ss_check_copies_one_value(r->ctx, c, api) &&
        ss_copy_kind(r->ctx->function, c, api, &dst, &src) == SS_COPY_KIND_D2H)
        target = address_target(dst);
    r->found =
        !ss_ast_is_null(target) && plain_local(target) && !clang_equalCursors(target, r->var);
    r->other = !r->found;
    return r->other ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Whether 'stmt' reads back one more value with the API of the synchronous readback 'copy' (two
 * one-value copies to the host, 'cudaMemcpy(&changed, ...); cudaMemcpy(&count, ...);'), into
 * another plain local, and calls the toolkit for nothing else: it waits for no more work than
 * the readback did, so it overlaps nothing that could come before the readback. */
static int another_readback(ss_check_ctx *ctx, CXCursor stmt, CXCursor copy, CXCursor var)
{
    const ss_api *api = ss_scope_callee_api(copy);
    if (api == NULL || api->klass != SS_CLASS_COPY || api->sync != SS_SYNC_ALWAYS)
        return 0;
    readback_walk r = {ctx, api, var, 0, 0};
    ss_ast_visit_whole(stmt, stmt, find_readback, &r);
    return r.found && !r.other;
}

/* The branch or loop that tests 'var' right after stmts[from], the readback 'copy': the first
 * statement after it that names the value, past waits, statements that call nothing, prints of
 * the value and synchronous readbacks of other values (another_readback; MAX_APART in all),
 * when it is an 'if' whose condition names it; or, when the block ends first, the 'while' or
 * 'do' loop it is the body of, when its condition names it ('*loop' set). A null cursor
 * otherwise. '*waited' is set when a wait stands between. */
static CXCursor test_after(ss_check_ctx *ctx, const CXCursor *stmts, unsigned n, unsigned from,
                           CXCursor var, CXCursor copy, int *loop, int *waited)
{
    unsigned apart = 0;
    *loop = 0;
    for (unsigned s = from + 1; s < n; s++) {
        CXCursor cond = condition_of(stmts[s]);
        int names = ss_context_mentions(stmts[s], var) || is_var(stmts[s], var);
        if ((names && print_statement(stmts[s])) ||
            (!names && another_readback(ctx, stmts[s], copy, var))) {
            if (++apart > MAX_APART)
                return clang_getNullCursor();
            continue;
        }
        if (names) {
            int tests = clang_getCursorKind(stmts[s]) == CXCursor_IfStmt && !ss_ast_is_null(cond) &&
                        (ss_context_mentions(cond, var) || is_var(cond, var));
            return tests ? stmts[s] : clang_getNullCursor();
        }
        int wait = ss_context_is_wait(stmts[s]);
        *waited |= wait;
        if ((!wait && !calls_nothing(stmts[s])) || ++apart > MAX_APART)
            return clang_getNullCursor();
    }
    CXCursor around = ss_context_body_loop(clang_getCursorSemanticParent(var), stmts[n - 1]);
    CXCursor cond = condition_of(around);
    if (ss_ast_is_null(cond) || !(ss_context_mentions(cond, var) || is_var(cond, var)))
        return clang_getNullCursor();
    *loop = 1;
    return around;
}

/* Whether a copy in 'stmts' other than the readback 'copy' may copy to the host (its direction
 * device to host, or not known): a wait then also waits for data the host may read. */
typedef struct other_copy {
    CXCursor function, copy;
    int found;
} other_copy;

static enum CXChildVisitResult find_other_copy(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    other_copy *o = data;
    const ss_api *api = clang_getCursorKind(c) == CXCursor_CallExpr && !ss_ast_same_node(c, o->copy)
                            ? ss_scope_callee_api(c)
                            : NULL;
    if (api == NULL || api->klass != SS_CLASS_COPY)
        return CXChildVisit_Recurse;
    CXCursor dst, src;
    int kind = ss_copy_kind(o->function, c, api, &dst, &src);
    o->found =
        kind == SS_COPY_KIND_D2H || kind == SS_COPY_KIND_DEFAULT || kind == SS_COPY_KIND_UNKNOWN;
    return o->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Whether the branch 'stmt' ends by leaving the loop ('{ ...; break; }', 'return'): what it
 * queues comes after no wait of the loop. */
static int leaves(CXCursor stmt)
{
    while (clang_getCursorKind(stmt) == CXCursor_CompoundStmt && ss_ast_child_count(stmt) > 0)
        stmt = ss_ast_child(stmt, ss_ast_child_count(stmt) - 1);
    enum CXCursorKind k = clang_getCursorKind(stmt);
    return k == CXCursor_BreakStmt || k == CXCursor_ReturnStmt;
}

/* Whether a copy in 'stmts' other than the readback 'copy' may copy to the host; the branch of
 * the 'if' 'test' that tests the value and leaves the loop is passed over (the residual read
 * again after a last kernel, then 'break'). */
static int other_copy_to_host(CXCursor function, const CXCursor *stmts, unsigned n, CXCursor copy,
                              CXCursor test)
{
    other_copy o = {function, copy, 0};
    for (unsigned s = 0; s < n && !o.found; s++) {
        int branch =
            clang_getCursorKind(stmts[s]) == CXCursor_IfStmt && ss_ast_same_node(stmts[s], test);
        unsigned cond = branch ? ss_ast_if_condition(stmts[s]) : 0;
        if (!branch) {
            find_other_copy(stmts[s], function, &o);
            if (!o.found)
                clang_visitChildren(stmts[s], find_other_copy, &o);
            continue;
        }
        for (unsigned i = 0; i < ss_ast_child_count(stmts[s]) && !o.found; i++) {
            CXCursor part = ss_ast_child(stmts[s], i);
            if (i == cond + 1 && leaves(part))
                continue;
            find_other_copy(part, stmts[s], &o);
            if (!o.found)
                clang_visitChildren(part, find_other_copy, &o);
        }
    }
    return o.found;
}

/* What the host does with the value, in words: "the loop only tests it to decide whether to go
 * on (line 31, the loop's condition)", or "the host tests it to decide what runs next (line 53
 * branches on it), prints it (line 52) and reads it after the loop (line 60)". Malloc'ed. */
static char *use_words(const tests_walk *w, CXCursor test, int loop)
{
    unsigned line = ss_scope_line(loop ? condition_of(test) : test);
    int more = (w->print_line != 0) + (w->copy_line != 0) + (w->after_line != 0);
    const char *only = more ? "" : "only ";
    char *words = loop ? ss_xasprintf("the loop %stests it to decide whether to go on (line %u, "
                                      "the loop's condition)",
                                      only, line)
                       : ss_xasprintf("the host %stests it to decide what runs next (line %u "
                                      "branches on it)",
                                      only, line);
    char *parts[3] = {NULL, NULL, NULL};
    int n = 0;
    if (w->print_line)
        parts[n++] = ss_xasprintf("prints it (line %u)", w->print_line);
    if (w->copy_line) {
        CXString name = clang_getCursorSpelling(w->copied);
        parts[n++] = ss_xasprintf("keeps it in '%s' (line %u), which the host only tests",
                                  clang_getCString(name), w->copy_line);
        clang_disposeString(name);
    }
    if (w->after_line)
        parts[n++] = ss_xasprintf("reads it after the loop (line %u)", w->after_line);
    for (int i = 0; i < n; i++) {
        char *longer = ss_xasprintf("%s%s%s", words, i == n - 1 ? " and " : ", ", parts[i]);
        free(words);
        free(parts[i]);
        words = longer;
    }
    return words;
}

/* Whether the wait 'at' waits for one stream or one event: a wait for the whole device also
 * waits for the work of other streams, which the value does not need. */
static int waits_for_one_stream(CXCursor at)
{
    const ss_api *api = ss_scope_callee_api(at);
    return api && (api->klass == SS_CLASS_STREAM_SYNC || api->klass == SS_CLASS_EVENT_SYNC);
}

/* The test of the value a graph copies to the host (ss_context_graph_value), after the wait for
 * the graph's launch, as test_after finds it: 'var', 'copy' and 'launch' set; a null cursor
 * when there is none. */
static CXCursor graph_test(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const CXCursor *stmts,
                           unsigned n, unsigned from, CXCursor *var, CXCursor *copy,
                           CXCursor *launch, int *loop)
{
    int waited = 1;
    *var = ss_context_graph_value(ctx, rule, at, copy, launch, stmts, n, &from);
    if (ss_ast_is_null(*var) || !plain_local(*var))
        return clang_getNullCursor();
    return test_after(ctx, stmts, n, from, *var, *copy, loop, &waited);
}

/* How the value comes to the host, for the message: "it waits for the value read back at line
 * 41; ", "it waits for the graph launched at line 247, which reads the value back (line 225); ",
 * "the graph launched at line 319 reads it back; " or "". Malloc'ed. */
static char *source_words(ss_rule_id rule, CXCursor copy, CXCursor launch)
{
    if (!ss_ast_is_null(launch) && rule == SS_RULE_SYNC_IN_LOOP)
        return ss_xasprintf("it waits for the graph launched at line %u, which reads the value "
                            "back (line %u); ",
                            ss_scope_line(launch), ss_scope_line(copy));
    if (!ss_ast_is_null(launch))
        return ss_xasprintf("the graph launched at line %u reads it back; ", ss_scope_line(launch));
    if (rule == SS_RULE_SYNC_IN_LOOP)
        return ss_xasprintf("it waits for the value read back at line %u; ", ss_scope_line(copy));
    return ss_xstrdup("");
}

/* ------------------------------------------------------------------------------------------
 * A flag the kernel writes into memory the host reads directly (pinned or managed). */

/* A pointer as the host names it: a variable ('flag'), a field of the method's own object
 * ('flag_', 'this->flag_': 'base' a null cursor), or a field of a variable or parameter
 * ('g.offsets', 'g->offsets': 'base' that variable); canonical declarations. */
typedef struct flag_name {
    CXCursor decl, base;
} flag_name;

/* The pointer 'e' names (flag_name), through parentheses and casts; 0 where it names none so
 * ('a.b.c', 'get().flag', an element). */
static int name_of(CXCursor e, flag_name *name)
{
    e = ss_ast_strip(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    name->base = clang_getNullCursor();
    if (k == CXCursor_MemberRefExpr && ss_ast_child_count(e) > 0) {
        CXCursor of = ss_ast_strip(ss_ast_child(e, 0));
        enum CXCursorKind ok = clang_getCursorKind(of);
        CXCursor var = clang_getCursorReferenced(of);
        enum CXCursorKind vk = clang_getCursorKind(var);
        if (ok == CXCursor_DeclRefExpr && (vk == CXCursor_VarDecl || vk == CXCursor_ParmDecl))
            name->base = clang_getCanonicalCursor(var);
        else if (ok != CXCursor_CXXThisExpr)
            return 0;
    } else if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr)
        return 0;
    name->decl = clang_getCanonicalCursor(clang_getCursorReferenced(e));
    return !ss_ast_is_null(name->decl);
}

/* Whether 'e' names the pointer 'name'. */
/* Whether 'n' names the same pointer as 'other'. */
static int same_name(flag_name n, flag_name other)
{
    if (!clang_equalCursors(n.decl, other.decl))
        return 0;
    if (ss_ast_is_null(n.base) || ss_ast_is_null(other.base))
        return ss_ast_is_null(n.base) && ss_ast_is_null(other.base);
    return clang_equalCursors(n.base, other.base) != 0;
}

static int names_pointer(CXCursor e, flag_name name)
{
    flag_name n;
    return name_of(e, &n) && same_name(n, name);
}

/* Whether 'e' is an element of the memory 'name' points to ('*flag', 'flag[i]'); with 'first',
 * the first only ('*flag', 'flag[0]'). */
static int element_of(CXCursor e, flag_name name, int first)
{
    e = ss_ast_strip(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    long long at = first ? -1 : 0;
    if (ss_ast_child_count(e) == 0 ||
        !((k == CXCursor_UnaryOperator && unary_written(e, "*") == 1) ||
          (k == CXCursor_ArraySubscriptExpr && ss_ast_child_count(e) == 2 &&
           (!first || (ss_ast_eval_int(ss_ast_child(e, 1), &at) == 0 && at == 0)))))
        return 0;
    return names_pointer(ss_ast_child(e, 0), name);
}

/* The plain local (tested_local) that 'stmt' sets to the first element of 'memory' read
 * directly ('changed = *flag;', 'int changed = flag[0];'), with that read in '*read'; a null
 * cursor otherwise. */
static CXCursor flag_local(CXCursor stmt, flag_name memory, CXCursor *read)
{
    CXCursor none = clang_getNullCursor(), local = none, from = none;
    CXCursor e = ss_ast_strip(stmt);
    char op[8];
    if (clang_getCursorKind(e) == CXCursor_BinaryOperator && ss_ast_child_count(e) == 2 &&
        ss_ast_binary_op(e, op, sizeof op) == 0 && strcmp(op, "=") == 0 &&
        clang_getCursorKind(ss_ast_strip(ss_ast_child(e, 0))) == CXCursor_DeclRefExpr) {
        local = clang_getCursorReferenced(ss_ast_strip(ss_ast_child(e, 0)));
        from = ss_ast_child(e, 1);
    } else if (clang_getCursorKind(e) == CXCursor_DeclStmt && ss_ast_child_count(e) == 1) {
        local = ss_ast_child(e, 0);
        unsigned c = ss_ast_child_count(local);
        from = c > 0 ? ss_ast_child(local, c - 1) : none;
    }
    if (ss_ast_is_null(from) || !tested_local(local) || !element_of(from, memory, 1))
        return none;
    *read = ss_ast_strip(from);
    return local;
}

/* Whether the condition 'c' reads the first element of 'memory' (element_of) and computes only
 * a test of it: no call, no store (passes_test on the way down). */
typedef struct element_test {
    flag_name memory;
    int reads, other;
} element_test;

static enum CXChildVisitResult find_element_test(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    element_test *t = data;
    if (element_of(c, t->memory, 1)) {
        t->reads++;
        return CXChildVisit_Continue;
    }
    enum CXCursorKind k = clang_getCursorKind(c);
    int literal = k == CXCursor_IntegerLiteral || k == CXCursor_FloatingLiteral ||
                  k == CXCursor_CharacterLiteral || k == CXCursor_CXXBoolLiteralExpr ||
                  k == CXCursor_CXXNullPtrLiteralExpr;
    if (clang_isExpression(k) && k != CXCursor_DeclRefExpr && !literal && !passes_test(c)) {
        t->other = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static int tests_element(CXCursor cond, flag_name memory)
{
    element_test t = {memory, 0, 0};
    if (ss_ast_is_null(cond))
        return 0;
    find_element_test(cond, cond, &t);
    if (t.reads == 0 && !t.other)
        clang_visitChildren(cond, find_element_test, &t);
    return t.reads > 0 && !t.other;
}

/* How the function uses the memory the pointer 'decl' points to (reads_only_at): the pointer
 * itself goes only to launches and calls of the toolkit ('relax<<<...>>>(flag)',
 * 'cudaFree(flag)', '&flag', toolkit_call_of); in the innermost loop around the wait the host only
 * stores into an element ('*flag = 0;') or reads it at 'read' (the test or the read into a local; a
 * null cursor for none); before or after that loop it may read or store elements. */
typedef struct flag_reads {
    flag_name decl;
    unsigned begin, end;           /* the range of the read */
    unsigned loop_begin, loop_end; /* the range of the loop around the wait */
    unsigned allowed[MAX_SITES];   /* the pointer given to a launch or the toolkit */
    size_t count;
    int refused;
} flag_reads;

/* Whether 'decl' is a function the toolkit's headers declare: a name that starts with "cu",
 * declared in a system header ('cudaHostGetDevicePointer', 'cuMemHostGetDevicePointer'). */
static int toolkit_function(CXCursor decl)
{
    enum CXCursorKind k = clang_getCursorKind(decl);
    if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate)
        return 0;
    CXString name = clang_getCursorSpelling(decl);
    int is = strncmp(clang_getCString(name), "cu", 2) == 0 && library_decl(decl);
    clang_disposeString(name);
    return is;
}

/* Whether 'c' is a call of a toolkit function (toolkit_function): one clang resolved, or one it
 * could not (its overloads do not take these arguments: 'cudaMemPrefetchAsync(p, n, dev, 0)' of
 * CUDA 12 under CUDA 13's headers), which it keeps as an expression whose first child names the
 * function. Where it is one, '*args' receives the index of the first argument among the
 * children of an unresolved call (1), or 0 for a call whose arguments clang gives. */
static int toolkit_call_of(CXCursor c, unsigned *args)
{
    *args = 0;
    if (clang_getCursorKind(c) == CXCursor_CallExpr)
        return toolkit_function(clang_getCursorReferenced(c));
    if (clang_getCursorKind(c) != CXCursor_UnexposedExpr || ss_ast_child_count(c) < 2)
        return 0;
    CXCursor decl = clang_getCursorReferenced(ss_ast_child(c, 0));
    if (clang_getCursorKind(decl) == CXCursor_OverloadedDeclRef)
        decl = clang_getOverloadedDecl(decl, 0);
    *args = 1;
    return toolkit_function(decl);
}

/* Records where the argument 'arg' names the pointer of 'r' (or '&' of it). */
static void allow_arg(flag_reads *r, CXCursor arg)
{
    arg = ss_ast_strip(arg);
    if (clang_getCursorKind(arg) == CXCursor_UnaryOperator && ss_ast_child_count(arg) == 1 &&
        unary_written(arg, "&") == 1)
        arg = ss_ast_strip(ss_ast_child(arg, 0));
    if (names_pointer(arg, r->decl) && r->count < MAX_SITES)
        r->allowed[r->count++] = ss_ast_offset(arg);
    else if (names_pointer(arg, r->decl))
        r->refused = 1;
}

static enum CXChildVisitResult find_allowed(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    flag_reads *r = data;
    unsigned args = 0;
    int toolkit = toolkit_call_of(c, &args);
    if (toolkit && args > 0) {
        for (unsigned i = args, n = ss_ast_child_count(c); i < n; i++)
            allow_arg(r, ss_ast_child(c, i));
        return CXChildVisit_Recurse;
    }
    if (clang_getCursorKind(c) != CXCursor_CallExpr ||
        (!toolkit && ss_scope_callee_api(c) == NULL && !ss_scope_is_launch(c)))
        return CXChildVisit_Recurse;
    for (int i = 0, n = clang_Cursor_getNumArguments(c); i < n; i++)
        allow_arg(r, clang_Cursor_getArgument(c, (unsigned)i));
    return CXChildVisit_Recurse;
}

/* Whether 'c' is the left side of the assignment 'parent' ('*flag = 0'). */
static int stored_into(CXCursor c, CXCursor parent)
{
    char op[8];
    return clang_getCursorKind(parent) == CXCursor_BinaryOperator &&
           ss_ast_child_count(parent) == 2 && ss_ast_same_node(ss_ast_child(parent, 0), c) &&
           ss_ast_binary_op(parent, op, sizeof op) == 0 && strcmp(op, "=") == 0;
}

static enum CXChildVisitResult find_other_read(CXCursor c, CXCursor parent, CXClientData data)
{
    flag_reads *r = data;
    unsigned at = ss_ast_offset(c);
    if (element_of(c, r->decl, 0)) {
        int in_loop = at >= r->loop_begin && at < r->loop_end;
        r->refused = in_loop && !(at >= r->begin && at < r->end) && !stored_into(c, parent);
    } else if (names_pointer(c, r->decl))
        r->refused = !site_in(r->allowed, r->count, at);
    else
        return CXChildVisit_Recurse;
    return r->refused ? CXChildVisit_Break : CXChildVisit_Continue;
}

static int reads_only_at(CXCursor function, CXCursor at, flag_name decl, CXCursor read)
{
    flag_reads r = {.decl = decl};
    CXCursor body = ss_ast_body(function), loop = innermost_loop(function, at);
    if (ss_ast_is_null(body))
        return 0;
    if (!ss_ast_is_null(read))
        ss_ast_range(read, &r.begin, &r.end);
    ss_ast_range(ss_ast_is_null(loop) ? body : loop, &r.loop_begin, &r.loop_end);
    clang_visitChildren(body, find_allowed, &r);
    if (!r.refused)
        clang_visitChildren(body, find_other_read, &r);
    return !r.refused;
}

/* What the host does with the flag 'memory' after the wait stmts[index]: the plain local the
 * next statement reads it into (flag_local; statements that call nothing and do not name the
 * memory between, MAX_APART at most), when the host tests it (test_after) and only tests it
 * (only_tests), as for a readback's value: use_words; an 'if' there that tests the memory itself
 * (tests_element) and decides what runs next (decides); or, when the block ends first, the
 * 'while' or 'do' loop it is the body of, when its condition tests the memory itself; the
 * function reading the memory nowhere else (reads_only_at), the wait making no other copy to
 * the host available (other_copy_to_host). '*line' receives the line of the read, '*prints'
 * whether the host prints the value. Malloc'ed, or NULL. */
static char *flag_use_words(ss_check_ctx *ctx, CXCursor at, const CXCursor *stmts, unsigned n,
                            unsigned index, flag_name memory, unsigned *line, int *prints)
{
    CXCursor value = clang_getNullCursor(), local = clang_getNullCursor(), test = local;
    unsigned s = index + 1, apart = 0;
    int loop = 0, waited = 1;
    for (; s < n && ss_ast_is_null(local) && ss_ast_is_null(test); s++) {
        local = flag_local(stmts[s], memory, &value);
        if (clang_getCursorKind(stmts[s]) == CXCursor_IfStmt &&
            tests_element(condition_of(stmts[s]), memory) && decides(stmts[s]))
            test = stmts[s];
        else if (ss_ast_is_null(local) &&
                 (!calls_nothing(stmts[s]) || ss_context_mentions(stmts[s], memory.decl) ||
                  ++apart > MAX_APART))
            return NULL;
    }
    if (ss_ast_is_null(local) && ss_ast_is_null(test)) {
        test = ss_context_body_loop(ctx->function, stmts[n - 1]);
        loop = 1;
        if (!tests_element(condition_of(test), memory))
            return NULL;
    }
    if (!ss_ast_is_null(local))
        test = test_after(ctx, stmts, n, s - 1, local, value, &loop, &waited);
    CXCursor read = ss_ast_is_null(local) ? condition_of(test) : value;
    tests_walk w;
    memset(&w, 0, sizeof w);
    if (ss_ast_is_null(test) || !reads_only_at(ctx->function, at, memory, read) ||
        other_copy_to_host(ctx->function, stmts, n, clang_getNullCursor(), test) ||
        (!ss_ast_is_null(local) &&
         !only_tests(&w, local, value, loop ? test : clang_getNullCursor(), at)))
        return NULL;
    *line = ss_scope_line(read);
    *prints = w.print_line != 0;
    if (!ss_ast_is_null(local))
        return use_words(&w, test, loop);
    return loop ? ss_xasprintf("the loop tests it to decide whether to go on (line %u, the "
                               "loop's condition)",
                               *line)
                : ss_xasprintf("the host tests it to decide what runs next (line %u branches "
                               "on it)",
                               *line);
}

/* How the launch 'launch' names each of 'memory' ('count' of them; the pinned or managed memory
 * ss_context_readable_writer found): the pointer it is given (name_of) into 'given', and the
 * host's pointer to the same memory into 'host' ('flag' where it is given the device's address
 * 'd_flag' of mapped pinned memory, taken on the same object; else the same as 'given').
 * Returns 0 where a memory is given in another form ('flag + 1', 'a.b.c'). */
static int launch_names(ss_check_ctx *ctx, CXCursor launch, const CXCursor *memory, size_t count,
                        flag_name *given, flag_name *host)
{
    int n = clang_Cursor_getNumArguments(launch);
    for (size_t j = 0; j < count; j++) {
        int found = 0, managed;
        for (int i = 0; i < n && !found; i++) {
            CXCursor arg = clang_Cursor_getArgument(launch, (unsigned)i);
            CXCursor m = ss_context_readable_memory(ctx, ctx->function, arg, &managed);
            found = !ss_ast_is_null(m) && clang_equalCursors(m, memory[j]);
            if (found && !name_of(arg, &given[j]))
                return 0;
        }
        if (!found)
            return 0;
        host[j] = (flag_name){clang_getCanonicalCursor(memory[j]), given[j].base};
    }
    return 1;
}

/* The launches of the loop around the wait and the pointers they are given (launch_outputs). */
typedef struct output_walk {
    ss_check_ctx *ctx;
    CXCursor function, at;
    flag_name flag, alias; /* the flag as the host and the launch name it */
    int refused;
} output_walk;

static enum CXChildVisitResult find_outputs(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    output_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr || !ss_scope_is_launch(c))
        return CXChildVisit_Recurse;
    for (int i = 0, n = clang_Cursor_getNumArguments(c); i < n && !w->refused; i++) {
        CXCursor arg = ss_ast_strip(clang_Cursor_getArgument(c, (unsigned)i));
        if (clang_getCursorKind(arg) == CXCursor_BinaryOperator) /* 'out + offset' */
            arg = ss_ast_strip(ss_ast_child(arg, 0));
        CXType t = clang_getCanonicalType(clang_getCursorType(arg));
        flag_name name;
        if (t.kind != CXType_Pointer || ss_context_const_parameter(c, (unsigned)i) ||
            !name_of(arg, &name) || same_name(name, w->flag) || same_name(name, w->alias))
            continue;
        /* The host's pointer to mapped memory the launch is given the device's address of. */
        int managed;
        CXCursor memory = ss_context_readable_memory(w->ctx, w->function, arg, &managed);
        flag_name host = {clang_getCanonicalCursor(memory), name.base};
        w->refused =
            !reads_only_at(w->function, w->at, name, clang_getNullCursor()) ||
            (!ss_ast_is_null(memory) && !same_name(host, name) && !same_name(host, w->flag) &&
             !reads_only_at(w->function, w->at, host, clang_getNullCursor()));
    }
    return w->refused ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Whether the host reads, in the loop around the wait, nothing a launch of that loop may write
 * but the flag (host[flag]): no element of any pointer a launch there is given where the
 * kernel's parameter is no pointer to const (whatever memory it holds: a parameter's, a
 * field's; for the device's address of mapped memory, the host's pointer too), nor the flag
 * through the pointer its launch is given where that is another (reads_only_at with no read). A
 * wait that also serves such a read serves more than the test. */
static int reads_flag_only(ss_check_ctx *ctx, CXCursor at, const flag_name *given,
                           const flag_name *host, size_t flag)
{
    CXCursor function = ctx->function, loop = innermost_loop(function, at);
    output_walk w = {ctx, function, at, host[flag], given[flag], 0};
    if (!same_name(given[flag], host[flag]) &&
        !reads_only_at(function, at, given[flag], clang_getNullCursor()))
        return 0;
    if (!ss_ast_is_null(loop))
        clang_visitChildren(loop, find_outputs, &w);
    return !w.refused;
}

/* ", and it waits for the whole device where, in every round but the first, ..." for the wait
 * for the whole device 'at': where the unit's drained flow finds no stream but the unit's default
 * one holding work on the way around the back edge of the loop around it
 * (ss_context_drained_around), the unit starting no host thread (ss_context_unit_threads) and its
 * default stream the legacy one (a wait for the whole device waits for every thread's per-thread
 * stream). NULL where it does not hold; "" for a wait that is not for the whole device.
 * Malloc'ed. */
static char *device_words(ss_check_ctx *ctx, CXCursor at)
{
    const ss_api *api = ss_scope_callee_api(at);
    if (api == NULL || api->klass != SS_CLASS_DEVICE_SYNC)
        return ss_xstrdup("");
    CXCursor outer = clang_getNullCursor();
    if (ctx->per_thread || ss_context_unit_threads(ctx) ||
        !ss_context_drained_around(ctx, at, 1, &outer))
        return NULL;
    char *once = ss_ast_is_null(outer)
                     ? ss_xstrdup("")
                     : ss_xasprintf(", once per pass of the loop at line %u", ss_scope_line(outer));
    char *words = ss_xasprintf(", and it waits for the whole device where, in every round but the "
                               "first, no stream but the unit's default one holds work on any way "
                               "the unit reaches it (the first round also waits for what was "
                               "queued before the loop%s)",
                               once);
    free(once);
    return words;
}

/* "inherent as written: it waits for kernel 'relax' launched at line 23, which writes 'flag',
 * managed memory that the host reads directly (line 25); the loop only tests it ..." for a wait
 * in a loop (SYNC401) for a launch that writes pinned or managed memory
 * (ss_context_readable_writer) whose first element the host then only tests (flag_use_words,
 * reads_flag_only), each memory named as the launch names it (launch_names); a wait for the
 * whole device only as device_words allows. Malloc'ed, or
 * NULL. */
static char *flag_words(ss_check_ctx *ctx, CXCursor at)
{
    CXCursor *stmts = malloc(MAX_STATEMENTS * sizeof *stmts);
    unsigned index = 0;
    unsigned n =
        stmts ? ss_context_statements_around(ctx->function, at, stmts, MAX_STATEMENTS, &index) : 0;
    CXCursor memory[SS_CONTEXT_MAX_PINNED];
    int managed[SS_CONTEXT_MAX_PINNED];
    size_t count = 0, m = 0;
    CXCursor launch = n > 0 && index > 0
                          ? ss_context_readable_writer(ctx, stmts, index, memory, managed, &count)
                          : clang_getNullCursor();
    char *uses = NULL;
    unsigned read = 0;
    int prints = 0;
    flag_name given[SS_CONTEXT_MAX_PINNED], host[SS_CONTEXT_MAX_PINNED];
    if (count > 0 && !launch_names(ctx, launch, memory, count, given, host))
        count = 0;
    for (; m < count && uses == NULL; m++) {
        uses = flag_use_words(ctx, at, stmts, n, index, host[m], &read, &prints);
        if (uses && !reads_flag_only(ctx, at, given, host, m)) {
            free(uses);
            uses = NULL;
        }
    }
    free(stmts);
    char *device = uses ? device_words(ctx, at) : NULL;
    if (device == NULL) {
        free(uses);
        return NULL;
    }
    char *kernel = ss_scope_kernel_name(launch);
    CXString name = clang_getCursorSpelling(memory[m - 1]);
    char *words = ss_xasprintf(
        "inherent as written: it waits for kernel '%s' launched at line %u, which writes '%s', "
        "%s memory that the host reads directly (line %u)%s; %s; to remove the stall, test %sit "
        "every N iterations or on the device",
        kernel ? kernel : "...", ss_scope_line(launch), clang_getCString(name),
        managed[m - 1] ? "managed" : "pinned host", read, device, uses, prints ? "and print " : "");
    clang_disposeString(name);
    free(kernel);
    free(uses);
    free(device);
    return words;
}

int ss_context_wait_for_value(CXCursor function, CXCursor at, const CXCursor *stmts, unsigned n,
                              CXCursor copy)
{
    return waits_for_one_stream(at) &&
           !other_copy_to_host(function, stmts, n, copy, clang_getNullCursor());
}

char *ss_context_tested_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at)
{
    char *flag = rule == SS_RULE_SYNC_IN_LOOP ? flag_words(ctx, at) : NULL;
    if (flag || (rule == SS_RULE_SYNC_IN_LOOP && !waits_for_one_stream(at)))
        return flag;
    CXCursor *stmts = malloc(MAX_STATEMENTS * sizeof *stmts);
    CXCursor copy, launch = clang_getNullCursor(), test = clang_getNullCursor();
    unsigned n = 0, from = 0;
    CXCursor var =
        stmts ? ss_context_loop_value(ctx, rule, at, &copy, stmts, MAX_STATEMENTS, &n, &from)
              : clang_getNullCursor();
    int loop = 0, waited = rule == SS_RULE_SYNC_IN_LOOP;
    if (!ss_ast_is_null(var) && tested_local(var))
        test = test_after(ctx, stmts, n, from, var, copy, &loop, &waited);
    if (ss_ast_is_null(test) && n > 0) {
        test = graph_test(ctx, rule, at, stmts, n, from, &var, &copy, &launch, &loop);
        waited = 1;
    }
    /* A wait that also waits for another copy to the host serves more than the test. */
    if (!ss_ast_is_null(test) && waited && other_copy_to_host(ctx->function, stmts, n, copy, test))
        test = clang_getNullCursor();
    free(stmts);
    tests_walk w;
    if (ss_ast_is_null(test) || !only_tests(&w, var, copy, loop ? test : clang_getNullCursor(), at))
        return NULL;
    char *uses = use_words(&w, test, loop);
    char *source = source_words(rule, copy, launch);
    char *words = ss_xasprintf("inherent as written: %s%s; to remove the stall, test %sit every N "
                               "iterations or on the device",
                               source, uses, w.print_line ? "and print " : "");
    free(source);
    free(uses);
    return words;
}

int ss_context_plain_local(CXCursor var)
{
    return plain_local(var);
}

int ss_context_print_statement(CXCursor stmt)
{
    return print_statement(stmt);
}

int ss_context_check_call(CXCursor call)
{
    return library_decl(clang_getCursorReferenced(call)) || toolkit_call(call) || wraps_api(call);
}

/* ------------------------------------------------------------------------------------------
 * A value a function reads back and returns, which every caller in a loop tests at once
 * (held-out-35's CL through a getter; 'while (read_flag(d))'). */

enum { MAX_RETURN_CALLS = 16 };

/* The calls of the function that returns the value, and the words for the first caller's test
 * (returned_test_words). */
typedef struct return_calls {
    ss_check_ctx *ctx;
    CXCursor calls[MAX_RETURN_CALLS], callers[MAX_RETURN_CALLS];
    long count;
    char *words; /* malloc'ed */
} return_calls;

/* Whether 'e' is 'var' as it is, or a test of it alone: '!var', or 'var' compared with a
 * constant ('flag != 0', 'count > 0'). */
static int tested_as_is(CXCursor e, CXCursor var)
{
    char op[8];
    long long constant;
    e = ss_ast_strip(e);
    if (is_var(e, var))
        return 1;
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_UnaryOperator && ss_ast_child_count(e) == 1 && unary_written(e, "!") == 1)
        return tested_as_is(ss_ast_child(e, 0), var);
    if (k != CXCursor_BinaryOperator || ss_ast_child_count(e) != 2 ||
        ss_ast_binary_op(e, op, sizeof op) != 0 ||
        (strcmp(op, "==") != 0 && strcmp(op, "!=") != 0 && strcmp(op, "<") != 0 &&
         strcmp(op, ">") != 0 && strcmp(op, "<=") != 0 && strcmp(op, ">=") != 0))
        return 0;
    CXCursor a = ss_ast_child(e, 0), b = ss_ast_child(e, 1);
    return (is_var(a, var) && ss_ast_eval_int(ss_ast_strip(b), &constant) == 0) ||
           (is_var(b, var) && ss_ast_eval_int(ss_ast_strip(a), &constant) == 0);
}

/* Whether the statements of 'function''s body after stmts[from] (of 'n') are up to MAX_APART
 * that call nothing and do not name 'var', then 'return var;' (the value as it is, or under
 * the operators of a test: tested_as_is). Returns the line of that 'return', or 0. */
static unsigned returns_value(CXCursor function, const CXCursor *stmts, unsigned n, unsigned from,
                              CXCursor var)
{
    CXCursor body = ss_ast_body(function);
    if (ss_ast_is_null(body) || from >= n || ss_ast_child_count(body) != n ||
        !ss_ast_same_node(ss_ast_child(body, from), stmts[from]))
        return 0;
    for (unsigned s = from + 1; s < n && s <= from + 1 + MAX_APART; s++) {
        if (clang_getCursorKind(stmts[s]) == CXCursor_ReturnStmt)
            return ss_ast_child_count(stmts[s]) == 1 && tested_as_is(ss_ast_child(stmts[s], 0), var)
                       ? ss_scope_line(stmts[s])
                       : 0;
        if (ss_context_mentions(stmts[s], var) || !calls_nothing(stmts[s]))
            return 0;
    }
    return 0;
}

/* The statement whose condition holds the call 'call' of 'caller' under the operators of a test
 * only (passes_test): an 'if' that decides what runs next (decides), or a 'while' or 'do' loop
 * ('*loop' set). A null cursor otherwise. */
static CXCursor condition_holder(CXCursor caller, CXCursor call, int *loop)
{
    CXCursor *path = malloc(SS_CONTEXT_MAX_PATH * sizeof *path);
    CXCursor none = clang_getNullCursor(), holder = none;
    long found = path ? ss_context_path(caller, call, path) : -1;
    CXCursor below = call;
    *loop = 0;
    for (long i = found - 1; i >= 0; i--) {
        CXCursor up = path[i];
        enum CXCursorKind k = clang_getCursorKind(up);
        if (k == CXCursor_IfStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt) {
            CXCursor cond = condition_of(up);
            if (!ss_ast_is_null(cond) && ss_ast_same_node(cond, below) &&
                (k != CXCursor_IfStmt || decides(up))) {
                holder = up;
                *loop = k != CXCursor_IfStmt;
            }
            break;
        }
        if (!passes_test(up))
            break;
        below = up;
    }
    free(path);
    return holder;
}

/* The plain local that the statement 'stmt' of its own sets to what the call 'call' returns
 * ('bool go = read_flag(d);', 'go = read_flag(d);'), or a null cursor. */
static CXCursor local_set_by(CXCursor stmt, CXCursor call)
{
    CXCursor none = clang_getNullCursor();
    char op[8];
    enum CXCursorKind k = clang_getCursorKind(stmt);
    if (k == CXCursor_DeclStmt && ss_ast_child_count(stmt) == 1) {
        CXCursor decl = ss_ast_child(stmt, 0);
        unsigned c = ss_ast_child_count(decl);
        if (clang_getCursorKind(decl) == CXCursor_VarDecl && c > 0 && plain_local(decl) &&
            ss_ast_same_node(ss_ast_strip(ss_ast_child(decl, c - 1)), call))
            return decl;
        return none;
    }
    if (k != CXCursor_BinaryOperator || ss_ast_child_count(stmt) != 2 ||
        ss_ast_binary_op(stmt, op, sizeof op) != 0 || strcmp(op, "=") != 0 ||
        !ss_ast_same_node(ss_ast_strip(ss_ast_child(stmt, 1)), call))
        return none;
    CXCursor lhs = ss_ast_strip(ss_ast_child(stmt, 0));
    CXCursor var = clang_getCursorReferenced(lhs);
    return clang_getCursorKind(lhs) == CXCursor_DeclRefExpr && plain_local(var) ? var : none;
}

/* What the caller does with the value the call 'call' of 'caller' returns, in words, where it
 * tests it at once: the call is the condition of a loop or of an 'if' that decides
 * (condition_holder), or it sets a plain local that the host tests right after and only tests
 * (test_after, only_tests, as for a readback written there). Malloc'ed, or NULL. */
static char *caller_test_words(ss_check_ctx *ctx, CXCursor caller, CXCursor call)
{
    int loop = 0;
    CXCursor holder = condition_holder(caller, call, &loop);
    if (!ss_ast_is_null(holder))
        return loop ? ss_xasprintf("the loop tests it to decide whether to go on (line %u, the "
                                   "loop's condition)",
                                   ss_scope_line(condition_of(holder)))
                    : ss_xasprintf("the host tests it to decide what runs next (line %u branches "
                                   "on it)",
                                   ss_scope_line(holder));
    CXCursor *stmts = malloc(MAX_STATEMENTS * sizeof *stmts);
    unsigned index = 0;
    unsigned n =
        stmts ? ss_context_statements_around(caller, call, stmts, MAX_STATEMENTS, &index) : 0;
    CXCursor var = n ? local_set_by(stmts[index], call) : clang_getNullCursor();
    ss_check_ctx there = *ctx;
    there.function = caller;
    int waited = 0;
    CXCursor test =
        ss_ast_is_null(var) ? var : test_after(&there, stmts, n, index, var, call, &loop, &waited);
    free(stmts);
    tests_walk w;
    if (ss_ast_is_null(test) ||
        !only_tests(&w, var, call, loop ? test : clang_getNullCursor(), call))
        return NULL;
    return use_words(&w, test, loop);
}

/* For ss_context_every_loop_call: a call of the function is skipped where its caller tests the
 * value at once (caller_test_words; the first such call's words go to rc->words). */
static int skip_tested_call(CXCursor from, CXCursor call, void *data)
{
    (void)from;
    return_calls *rc = data;
    CXCursor caller = ss_context_caller_of(
        rc->calls, rc->callers, rc->count < MAX_RETURN_CALLS ? rc->count : MAX_RETURN_CALLS, call);
    char *uses = ss_ast_is_null(caller) ? NULL : caller_test_words(rc->ctx, caller, call);
    if (uses && rc->words == NULL) {
        char *place = ss_callgraph_place(call);
        rc->words = ss_xasprintf("the call at %s: %s", place, uses);
        free(place);
    }
    int skipped = uses != NULL;
    free(uses);
    return skipped;
}

/* A template type parameter looked for by its name (find_type_param). */
typedef struct param_find {
    const char *name;
    int found;
} param_find;

static enum CXChildVisitResult find_type_param(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    param_find *f = data;
    if (clang_getCursorKind(c) != CXCursor_TemplateTypeParameter)
        return CXChildVisit_Continue;
    CXString name = clang_getCursorSpelling(c);
    f->found = strcmp(clang_getCString(name), f->name) == 0;
    clang_disposeString(name);
    return f->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Whether 'var' is a local of a function template's pattern whose type is a template
 * parameter ('T v;' in 'HostDeviceVar<T>::operator T()'): one value, whatever 'T' becomes. */
static int template_local(CXCursor var)
{
    CXType t = clang_getCursorType(var);
    CXCursor function = clang_getCursorSemanticParent(var);
    if (clang_getCursorKind(var) != CXCursor_VarDecl || clang_Cursor_hasVarDeclGlobalStorage(var) ||
        !ss_ast_is_function(function) || clang_getCanonicalType(t).kind != CXType_Unexposed)
        return 0;
    CXString spelling = clang_getTypeSpelling(t);
    param_find f = {clang_getCString(spelling), 0};
    /* A template parameter of the function or of a class around it, by its name. */
    for (CXCursor up = function; !f.found && !clang_Cursor_isNull(up) &&
                                 clang_getCursorKind(up) != CXCursor_TranslationUnit;
         up = clang_getCursorSemanticParent(up)) {
        enum CXCursorKind k = clang_getCursorKind(up);
        if (k == CXCursor_ClassTemplate || k == CXCursor_FunctionTemplate ||
            k == CXCursor_ClassTemplatePartialSpecialization)
            clang_visitChildren(up, find_type_param, &f);
    }
    clang_disposeString(spelling);
    return f.found;
}

/* The local a synchronous copy 'at' reads one value of a template parameter's type into, as a
 * template's pattern writes it ('cudaMemcpy(&v, d, sizeof(T), cudaMemcpyDeviceToHost)' with
 * 'T v;', or 'sizeof v'), which ss_context_loop_value cannot size; the statements around it
 * into 'stmts' as there. A null cursor otherwise. */
static CXCursor template_value(ss_check_ctx *ctx, CXCursor at, CXCursor *stmts, unsigned *n,
                               unsigned *from)
{
    CXCursor none = clang_getNullCursor(), dst, src;
    const ss_api *api = ss_scope_callee_api(at);
    if (api == NULL || api->klass != SS_CLASS_COPY || api->size_arg < 0 ||
        clang_Cursor_getNumArguments(at) <= api->size_arg ||
        ss_copy_kind(ctx->function, at, api, &dst, &src) != SS_COPY_KIND_D2H)
        return none;
    CXCursor var = address_target(dst);
    if (ss_ast_is_null(var) || !template_local(var))
        return none;
    char *size = ss_expr_text(ss_ast_strip(clang_Cursor_getArgument(at, (unsigned)api->size_arg)));
    CXString type = clang_getTypeSpelling(clang_getCursorType(var));
    CXString name = clang_getCursorSpelling(var);
    char *of_type = ss_xasprintf("sizeof(%s)", clang_getCString(type));
    char *of_var = ss_xasprintf("sizeof(%s)", clang_getCString(name));
    char *bare = ss_xasprintf("sizeof %s", clang_getCString(name));
    int one = size &&
              (strcmp(size, of_type) == 0 || strcmp(size, of_var) == 0 || strcmp(size, bare) == 0);
    free(size);
    free(of_type);
    free(of_var);
    free(bare);
    clang_disposeString(type);
    clang_disposeString(name);
    *n = one ? ss_context_statements_around(ctx->function, at, stmts, MAX_STATEMENTS, from) : 0;
    return *n ? var : none;
}

char *ss_context_returned_test_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at)
{
    CXCursor function = ctx->function;
    enum CXCursorKind k = clang_getCursorKind(function);
    if ((rule != SS_RULE_SCALAR_READBACK && rule != SS_RULE_SYNC_COPY_IN_PIPELINE) ||
        (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod &&
         k != CXCursor_ConversionFunction) ||
        (k != CXCursor_FunctionDecl && clang_CXXMethod_isVirtual(function)))
        return NULL;
    CXCursor *stmts = malloc(MAX_STATEMENTS * sizeof *stmts);
    CXCursor copy = clang_getNullCursor();
    unsigned n = 0, from = 0;
    CXCursor var =
        stmts ? ss_context_loop_value(ctx, rule, at, &copy, stmts, MAX_STATEMENTS, &n, &from)
              : clang_getNullCursor();
    if (stmts && ss_ast_is_null(var) && rule == SS_RULE_SYNC_COPY_IN_PIPELINE)
        var = template_value(ctx, at, stmts, &n, &from);
    unsigned line = !ss_ast_is_null(var) && (plain_local(var) || template_local(var))
                        ? returns_value(function, stmts, n, from, var)
                        : 0;
    free(stmts);
    if (line == 0)
        return NULL;
    return_calls rc = {.ctx = ctx};
    char *words = NULL;
    if (ss_context_every_loop_call(ss_check_graph(ctx), function, rc.calls, rc.callers,
                                   MAX_RETURN_CALLS, &rc.count, skip_tested_call, &rc) &&
        rc.words)
        words = ss_xasprintf("inherent as written: the function returns the value (line %u), and "
                             "every call from a loop tests it at once (%s); to remove the stall, "
                             "test it every N iterations or on the device",
                             line, rc.words);
    free(rc.words);
    return words;
}
