/* timing_flag.c: a wait that times the GPU's work under a run-time flag (a profiler's switch):
 * the wait is followed by a host clock read and runs only when a flag is set that nothing in
 * the loop changes, so it is no per-iteration stall of the normal run (context_cases.h). */
#include "ast.h"
#include "callgraph.h"
#include "common.h"
#include "context_cases.h"
#include "log.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The host clocks: the C and POSIX ones, OpenMP's and MPI's, std::chrono's clocks' now(), and
 * the CUDA samples' timer that reads one; a function of the unit that calls one (two calls
 * down) reads it too. */
static const char *const host_clocks[] = {"clock_gettime",    "gettimeofday", "omp_get_wtime",
                                          "MPI_Wtime",        "clock",        "now",
                                          "sdkGetTimerValue", "sdkStopTimer"};

enum { MAX_BRANCH = 16, MAX_FOLLOWED = 64, MAX_DEPTH = 8 };

/* What the rule found: the clock call and its words, the flag's declaration (a variable or a
 * field), the variable its member chain starts from (or a null cursor), its words. */
typedef struct timing_guard {
    CXCursor clock;
    char *clock_words;
    CXCursor flag, root, record;
    char *flag_text;
    unsigned if_line;
} timing_guard;

/* Whether 'type' is a floating-point type (canonical). */
static int floating(CXType type)
{
    enum CXTypeKind k = clang_getCanonicalType(type).kind;
    return k == CXType_Float || k == CXType_Double || k == CXType_LongDouble;
}

/* An assignment or initializer of 'var' from a call of 'callee' in 'function'. */
typedef struct start_walk {
    CXCursor var, callee, found;
} start_walk;

static int calls_decl(CXCursor e, CXCursor callee)
{
    e = ss_ast_strip(e);
    return clang_getCursorKind(e) == CXCursor_CallExpr &&
           clang_equalCursors(clang_getCanonicalCursor(clang_getCursorReferenced(e)), callee);
}

static enum CXChildVisitResult find_start(CXCursor c, CXCursor parent, CXClientData data)
{
    start_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    char op[4];
    if (k == CXCursor_BinaryOperator && ss_ast_binary_op(c, op, sizeof op) == 0 &&
        strcmp(op, "=") == 0 && ss_ast_child_count(c) == 2) {
        CXCursor lhs = ss_ast_strip(ss_ast_child(c, 0));
        if (clang_getCursorKind(lhs) == CXCursor_DeclRefExpr &&
            clang_equalCursors(clang_getCursorReferenced(lhs), w->var) &&
            calls_decl(ss_ast_child(c, 1), w->callee))
            w->found = c;
    } else if (k == CXCursor_VarDecl && clang_equalCursors(c, w->var) &&
               ss_ast_child_count(c) > 0 &&
               calls_decl(ss_ast_child(c, ss_ast_child_count(c) - 1), w->callee)) {
        w->found = c;
    }
    return ss_ast_is_null(w->found) ? CXChildVisit_Recurse : CXChildVisit_Break;
}

/* The words a clock's name holds (a name heuristic, case aside): 'time' ('timer', 'wtime'),
 * 'clock', 'now', 'second' ('mysecond', 'seconds'). */
static const char *const clock_words[] = {"time", "clock", "now", "second"};

/* Whether the name of 'fn' says it is a clock (clock_words, any case). */
static int clock_named(CXCursor fn)
{
    CXString spelled = clang_getCursorSpelling(fn);
    const char *name = clang_getCString(spelled);
    int named = 0;
    for (size_t i = 0; i < sizeof clock_words / sizeof clock_words[0] && !named; i++) {
        size_t len = strlen(clock_words[i]);
        for (const char *p = name; p && *p && !named; p++)
            named = strncasecmp(p, clock_words[i], len) == 0;
    }
    clang_disposeString(spelled);
    return named;
}

/* An elapsed time in 'stmt': 'f() - start', 'f' (a function or a method: a timer's) taking no
 * argument and returning a floating-point value, 'start' a variable that 'function' sets from a
 * call of 'f' too. 'f' is one whose body lint cannot see (a function of the unit that reads a
 * clock is find_clock's) and whose name says it is a clock (clock_named). */
typedef struct elapsed_walk {
    ss_callgraph *graph;
    CXCursor function, call, start, var;
} elapsed_walk;

static enum CXChildVisitResult find_elapsed(CXCursor c, CXCursor parent, CXClientData data)
{
    elapsed_walk *w = data;
    char op[4];
    if (clang_getCursorKind(c) != CXCursor_BinaryOperator ||
        ss_ast_binary_op(c, op, sizeof op) != 0 || strcmp(op, "-") != 0 ||
        ss_ast_child_count(c) != 2)
        return CXChildVisit_Recurse;
    CXCursor call = ss_ast_strip(ss_ast_child(c, 0)), var = ss_ast_strip(ss_ast_child(c, 1));
    if (clang_getCursorKind(call) != CXCursor_CallExpr || clang_Cursor_getNumArguments(call) != 0 ||
        !floating(clang_getCursorType(call)) || clang_getCursorKind(var) != CXCursor_DeclRefExpr)
        return CXChildVisit_Recurse;
    start_walk s = {clang_getCursorReferenced(var),
                    clang_getCanonicalCursor(clang_getCursorReferenced(call)),
                    clang_getNullCursor()};
    enum CXCursorKind ck = clang_getCursorKind(s.callee);
    if ((ck != CXCursor_FunctionDecl && ck != CXCursor_CXXMethod) ||
        !ss_ast_is_null(ss_callgraph_callee(w->graph, call)) || !clock_named(s.callee))
        return CXChildVisit_Recurse;
    clang_visitChildren(w->function, find_start, &s);
    if (ss_ast_is_null(s.found))
        return CXChildVisit_Recurse;
    w->call = call;
    w->start = s.found;
    w->var = s.var;
    return CXChildVisit_Break;
}

/* The first call in a statement that reads a host clock of host_clocks, itself or in a function
 * of the unit (two calls down): that call, and the clock call it makes. */
typedef struct clock_walk {
    ss_callgraph *graph;
    CXCursor stmt, call, clock;
} clock_walk;

static enum CXChildVisitResult find_clock(CXCursor c, CXCursor parent, CXClientData data)
{
    clock_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr ||
        !ss_callgraph_calls_named(w->graph, c, host_clocks,
                                  sizeof host_clocks / sizeof host_clocks[0], &w->clock))
        return CXChildVisit_Recurse;
    /* A clock called inside the statement is the call itself ('now()' in '(now() - t0).count()').
     */
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    int inside = ss_context_path(w->stmt, w->clock, path) >= 0;
    free(path);
    w->call = inside ? w->clock : c;
    return CXChildVisit_Break;
}

/* The host clock that 'stmt' reads, with words for it into g (clock, clock_words): a clock of
 * host_clocks (itself or in a function of the unit, two calls down), or an elapsed time
 * (find_elapsed). Returns 1 or 0. */
static int reads_clock(ss_check_ctx *ctx, CXCursor function, CXCursor stmt, timing_guard *g)
{
    clock_walk c = {ss_check_graph(ctx), stmt, clang_getNullCursor(), clang_getNullCursor()};
    char *name = NULL;
    ss_ast_visit_whole(stmt, stmt, find_clock, &c);
    if (!ss_ast_is_null(c.call)) {
        name = ss_scope_callee_name(c.call);
        char *inner = ss_ast_same_node(c.call, c.clock) ? NULL : ss_scope_callee_name(c.clock);
        g->clock_words =
            inner ? ss_xasprintf("'%s()' at line %u, which reads '%s'", name ? name : "?",
                                 ss_scope_line(c.call), inner)
                  : ss_xasprintf("'%s' at line %u", name ? name : "a clock", ss_scope_line(c.call));
        free(inner);
        g->clock = c.call;
    } else {
        elapsed_walk w = {ss_check_graph(ctx), function, clang_getNullCursor(),
                          clang_getNullCursor(), clang_getNullCursor()};
        clang_visitChildren(stmt, find_elapsed, &w);
        if (ss_ast_is_null(w.call))
            return 0;
        g->clock = w.call;
        name = ss_scope_callee_name(w.call);
        CXString var = clang_getCursorSpelling(w.var);
        g->clock_words =
            ss_xasprintf("'%s()' at line %u, an elapsed time: minus '%s', which "
                         "line %u sets from '%s()'",
                         name ? name : "?", ss_scope_line(w.call), clang_getCString(var),
                         ss_scope_line(w.start), name ? name : "?");
        clang_disposeString(var);
    }
    free(name);
    return 1;
}

/* A call in a statement of the branch that may do device work: a launch, a CUDA call, a
 * function of the unit that enqueues work, or one lint cannot see into (another unit's, a GPU
 * library's, a call through a pointer); the clock's own function aside. */
typedef struct device_walk {
    ss_callgraph *graph;
    CXCursor clock_fn;
    int found;
} device_walk;

static enum CXChildVisitResult find_device_call(CXCursor c, CXCursor parent, CXClientData data)
{
    device_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    CXCursor callee = ss_callgraph_callee(w->graph, c);
    CXCursor named = clang_getCanonicalCursor(clang_getCursorReferenced(c));
    if (!ss_ast_is_null(w->clock_fn) && clang_equalCursors(named, w->clock_fn))
        return CXChildVisit_Recurse;
    if (ss_scope_is_launch(c) || ss_scope_callee_api(c) != NULL)
        w->found = 1;
    else if (!ss_ast_is_null(callee))
        w->found = ss_callgraph_does_work(w->graph, callee, SS_SCOPE_ENQUEUES);
    else
        w->found = ss_context_library_enqueues(c);
    return w->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether the block 'block' (the flag's branch) does nothing but wait and keep the time: each
 * statement waits (ss_context_is_wait) or does no device work (find_device_call). The clock's
 * own function is left out only where lint cannot see into it (a listed clock, or one its name
 * says is a clock); a function of the unit is checked like any. */
static int only_timing(ss_check_ctx *ctx, CXCursor block, const timing_guard *g)
{
    ss_callgraph *graph = ss_check_graph(ctx);
    int seen = !ss_ast_is_null(ss_callgraph_callee(graph, g->clock));
    device_walk w = {graph,
                     seen ? clang_getNullCursor()
                          : clang_getCanonicalCursor(clang_getCursorReferenced(g->clock)),
                     0};
    unsigned n = ss_ast_child_count(block);
    for (unsigned i = 0; i < n && !w.found; i++) {
        CXCursor stmt = ss_ast_child(block, i);
        if (!ss_context_is_wait(stmt)) {
            find_device_call(stmt, block, &w);
            if (!w.found)
                clang_visitChildren(stmt, find_device_call, &w);
        }
    }
    return !w.found;
}

/* Whether 'decl' (a variable or parameter) is one of 'function' (a local or a parameter). */
static int local_of(CXCursor decl, CXCursor function)
{
    return clang_equalCursors(clang_getCursorSemanticParent(decl), function);
}

/* Whether 'decl' is a variable of no function: a global, a namespace's or a class's static. */
static int global_var(CXCursor decl)
{
    return clang_getCursorKind(decl) == CXCursor_VarDecl &&
           !ss_ast_is_function(clang_getCursorSemanticParent(decl)) &&
           clang_Cursor_getStorageClass(decl) != CX_SC_Register;
}

/* Whether the variable 'decl' is declared in device memory, a kernel may write it: a CUDA
 * memory-space attribute, or the words '__managed__' or '__device__' written in its
 * declaration (a host-only parse drops the attribute). */
static int device_attr(CXCursor decl)
{
    int found = 0;
    for (unsigned i = 0, n = ss_ast_child_count(decl); i < n && !found; i++)
        found = clang_isAttribute(clang_getCursorKind(ss_ast_child(decl, i)));
    if (found || clang_getCursorKind(decl) != CXCursor_VarDecl)
        return found;
    /* The line of its name, up to the name (the extent starts in the macro's definition). */
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(decl);
    CXSourceLocation at = clang_getCursorLocation(decl);
    CXFile file = NULL;
    unsigned line = 0, column = 0;
    clang_getSpellingLocation(at, &file, &line, &column, NULL);
    CXToken *tokens = NULL;
    unsigned n = 0;
    clang_tokenize(tu, clang_getRange(clang_getLocation(tu, file, line, 1), at), &tokens, &n);
    for (unsigned i = 0; i < n && !found; i++) {
        CXString word = clang_getTokenSpelling(tu, tokens[i]);
        found = strcmp(clang_getCString(word), "__managed__") == 0 ||
                strcmp(clang_getCString(word), "__device__") == 0;
        clang_disposeString(word);
    }
    clang_disposeTokens(tu, tokens, n);
    return found;
}

/* Whether the declaration 'decl' (a variable, a parameter or a field) is of reference type
 * (another name for storage the write walk does not know: 'bool &on = c.timing;') or a
 * device-written variable (device_attr). */
static int aliased_or_device(CXCursor decl)
{
    enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(decl)).kind;
    return k == CXType_LValueReference || k == CXType_RValueReference || device_attr(decl);
}

/* The flag the condition 'cond' reads, into g (flag, root, record, flag_text): a variable or
 * parameter of type bool, not const ('if (profiling)'), or a field of type bool reached through
 * members from a variable, a parameter or 'this' ('if (globals.profiler_on)', 'if
 * (p->timing)'): no call, subscript, negation or comparison. The flag is no reference and
 * no device-written variable (aliased_or_device), nor is its chain's root device-written (a
 * root reference is fine: a write to the field through any name is the field's). Returns 1
 * or 0. */
static int flag_of(CXCursor cond, timing_guard *g)
{
    CXCursor e = ss_ast_strip(cond);
    enum CXCursorKind k = clang_getCursorKind(e);
    CXCursor decl = clang_getCursorReferenced(e);
    if (clang_getCanonicalType(clang_getCursorType(e)).kind != CXType_Bool)
        return 0;
    g->root = clang_getNullCursor();
    g->record = clang_getNullCursor();
    if (k == CXCursor_DeclRefExpr) {
        enum CXCursorKind dk = clang_getCursorKind(decl);
        if ((dk != CXCursor_VarDecl && dk != CXCursor_ParmDecl) ||
            clang_isConstQualifiedType(clang_getCursorType(decl)))
            return 0;
        g->root = decl;
    } else if (k == CXCursor_MemberRefExpr && clang_getCursorKind(decl) == CXCursor_FieldDecl) {
        g->record = clang_getCanonicalCursor(clang_getCursorSemanticParent(decl));
        CXCursor base = ss_ast_child_count(e) > 0 ? ss_ast_strip(ss_ast_child(e, 0)) : e;
        while (clang_getCursorKind(base) == CXCursor_MemberRefExpr && ss_ast_child_count(base) > 0)
            base = ss_ast_strip(ss_ast_child(base, 0));
        enum CXCursorKind bk = clang_getCursorKind(base);
        CXCursor var = clang_getCursorReferenced(base);
        if (bk == CXCursor_DeclRefExpr && (clang_getCursorKind(var) == CXCursor_VarDecl ||
                                           clang_getCursorKind(var) == CXCursor_ParmDecl))
            g->root = var;
        else if (bk != CXCursor_CXXThisExpr && bk != CXCursor_MemberRefExpr)
            return 0;
    } else {
        return 0;
    }
    if (aliased_or_device(decl) || (!ss_ast_is_null(g->root) && device_attr(g->root)))
        return 0;
    g->flag = decl;
    g->flag_text = ss_expr_text(e);
    return g->flag_text != NULL;
}

/* A walk for what may change the flag g: its declaration written ('=', '+=', '++', its address
 * taken, bound to a reference: any use but a read or a member's base), the root variable of its
 * member chain declared or so written, or an object of the field's class made or written whole
 * (declared, constructed, initialized, assigned, given to a library function). With 'follow',
 * the walk goes into the bodies of the unit's functions that the code calls (MAX_FOLLOWED,
 * MAX_DEPTH), and a call it cannot follow (another unit's function, a virtual one, a call
 * through a pointer) sets 'unseen'; the clock's own function is taken for a clock. */
typedef struct write_walk {
    ss_callgraph *graph;
    const timing_guard *g;
    CXCursor clock_fn; /* the clock's function, taken for a clock read (no change) */
    int follow, depth, found, unseen;
    int aliases_only; /* only what lets code elsewhere change the flag (changes_named) */
    int skip_decl;    /* the root's own declaration is no change (always_on) */
    CXCursor followed[MAX_FOLLOWED];
    size_t followed_count;
} write_walk;

/* Whether 'type' is the field's class, or a pointer to it. */
static int of_record(const timing_guard *g, CXType type)
{
    if (ss_ast_is_null(g->record))
        return 0;
    CXType t = clang_getCanonicalType(type);
    if (t.kind == CXType_Pointer || t.kind == CXType_LValueReference)
        t = clang_getCanonicalType(clang_getPointeeType(t));
    return clang_equalCursors(clang_getCanonicalCursor(clang_getTypeDeclaration(t)), g->record);
}

/* Whether 'op' writes its operand in place: '=', a compound assignment, '++' or '--'. */
static int assigned_at(CXCursor op)
{
    enum CXCursorKind k = clang_getCursorKind(op);
    if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator)
        return 1;
    return k == CXCursor_UnaryOperator && ss_expr_steps(op) == 1;
}

/* Whether the reference 'c' to the flag or its root, under 'parent', may change it; with
 * 'aliases_only', whether it lets other code change the flag later (its address taken, a
 * reference bound to it), an assignment being no such use. */
static int changes_named(write_walk *w, CXCursor c, CXCursor parent)
{
    CXCursor decl = clang_getCursorReferenced(c);
    int flag = clang_equalCursors(decl, w->g->flag);
    if (!flag && !clang_equalCursors(decl, w->g->root))
        return 0;
    enum CXCursorKind pk = clang_getCursorKind(parent);
    if (pk == CXCursor_UnexposedExpr || (!flag && pk == CXCursor_MemberRefExpr))
        return 0;
    if (w->aliases_only)
        return flag && !assigned_at(parent);
    /* The root given to a call: a function of the unit is followed (or, for the whole unit,
     * walked anyway); another's is not seen, which only a walk that follows counts. */
    return flag || pk != CXCursor_CallExpr ||
           (w->follow && ss_ast_is_null(ss_callgraph_callee(w->graph, parent)));
}

static enum CXChildVisitResult find_write(CXCursor c, CXCursor parent, CXClientData data);

/* A new walk for what may change the flag g (zeroed; the clock's function set), malloc'ed. */
static write_walk *new_write_walk(ss_check_ctx *ctx, const timing_guard *g)
{
    write_walk *w = ss_xreallocarray(NULL, 1, sizeof *w);
    memset(w, 0, sizeof *w);
    w->graph = ss_check_graph(ctx);
    w->g = g;
    w->clock_fn = clang_getCanonicalCursor(clang_getCursorReferenced(g->clock));
    return w;
}

/* A call under the walk: a function of the unit followed into, a library function given an
 * object of the field's class (memset, swap), or one the walk cannot see into. */
static void walk_call(write_walk *w, CXCursor c)
{
    CXCursor named = clang_getCursorReferenced(c), callee = ss_callgraph_callee(w->graph, c);
    enum CXCursorKind nk = clang_getCursorKind(named);
    if (ss_scope_is_launch(c) || ss_scope_callee_api(c) != NULL ||
        clang_equalCursors(clang_getCanonicalCursor(named), w->clock_fn))
        return;
    CXCursor owner = clang_getCanonicalCursor(clang_getCursorSemanticParent(named));
    CXString spelled = clang_getCursorSpelling(named);
    int assigns = strcmp(clang_getCString(spelled), "operator=") == 0;
    clang_disposeString(spelled);
    if ((nk == CXCursor_Constructor || (nk == CXCursor_CXXMethod && assigns)) &&
        clang_equalCursors(owner, w->g->record)) {
        w->found = 1;
        return;
    }
    if (!ss_ast_is_null(callee) &&
        !(nk == CXCursor_CXXMethod && clang_CXXMethod_isVirtual(named))) {
        size_t i = 0;
        while (i < w->followed_count && !clang_equalCursors(w->followed[i], callee))
            i++;
        if (!w->follow || i < w->followed_count)
            return;
        if (w->followed_count == MAX_FOLLOWED || w->depth == MAX_DEPTH) {
            w->unseen = 1;
            return;
        }
        w->followed[w->followed_count++] = callee;
        w->depth++;
        clang_visitChildren(callee, find_write, w);
        w->depth--;
        return;
    }
    if (!ss_ast_is_null(named) && ss_ast_in_system_header(named)) {
        for (int a = 0; a < clang_Cursor_getNumArguments(c) && !w->found; a++)
            w->found = of_record(
                w->g, clang_getCursorType(ss_ast_strip(clang_Cursor_getArgument(c, (unsigned)a))));
        return;
    }
    w->unseen = 1;
}

static enum CXChildVisitResult find_write(CXCursor c, CXCursor parent, CXClientData data)
{
    write_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    char op[4];
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    if (w->skip_decl && k == CXCursor_VarDecl && clang_equalCursors(c, w->g->root))
        return CXChildVisit_Continue;
    if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr)
        w->found = changes_named(w, c, parent);
    else if (w->aliases_only)
        return CXChildVisit_Recurse;
    else if (k == CXCursor_MemberRef)
        w->found = clang_equalCursors(clang_getCursorReferenced(c), w->g->flag);
    else if (k == CXCursor_VarDecl)
        w->found = clang_equalCursors(c, w->g->root) || of_record(w->g, clang_getCursorType(c));
    else if (k == CXCursor_InitListExpr || k == CXCursor_CompoundLiteralExpr ||
             k == CXCursor_CXXNewExpr)
        w->found = of_record(w->g, clang_getCursorType(c));
    else if (k == CXCursor_BinaryOperator && ss_ast_binary_op(c, op, sizeof op) == 0 &&
             strcmp(op, "=") == 0)
        w->found = of_record(w->g, clang_getCursorType(ss_ast_strip(ss_ast_child(c, 0))));
    else if (k == CXCursor_CallExpr)
        walk_call(w, c);
    return w->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* The 'if' whose own block (its then-branch, written '{ ... }') holds the wait 'at' of
 * 'function' as a statement of its own, with the statement after it, into 'stmts' ([0] the
 * wait's, [1] the next); a null cursor where the wait is not so placed. */
static CXCursor branch_of(CXCursor function, CXCursor at, CXCursor *block, CXCursor *stmts)
{
    CXCursor none = clang_getNullCursor(), found = none;
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long n = ss_context_path(function, at, path);
    long i = n - 1;
    while (i > 0 && (clang_getCursorKind(path[i]) != CXCursor_CompoundStmt ||
                     !ss_ast_written_as(path[i], "{")))
        i--;
    if (i > 0 && clang_getCursorKind(path[i - 1]) == CXCursor_IfStmt &&
        ss_ast_if_condition(path[i - 1]) == 0 && ss_ast_child_count(path[i - 1]) >= 2 &&
        ss_ast_same_node(ss_ast_child(path[i - 1], 1), path[i])) {
        CXCursor holder = i + 1 < n ? path[i + 1] : at;
        unsigned count = ss_ast_child_count(path[i]), at_index = count;
        for (unsigned c = 0; c < count && at_index == count; c++) {
            if (ss_ast_same_node(ss_ast_child(path[i], c), holder))
                at_index = c;
        }
        unsigned next = at_index + 1;
        while (next < count &&
               clang_getCursorKind(ss_ast_child(path[i], next)) == CXCursor_NullStmt)
            next++;
        if (next < count && count <= MAX_BRANCH && ss_context_is_wait(holder)) {
            stmts[0] = holder;
            stmts[1] = ss_ast_child(path[i], next);
            *block = path[i];
            found = path[i - 1];
        }
    }
    free(path);
    return found;
}

/* Whether the flag g may change where 'loop' runs (NULL: a loop of another unit): on its
 * iterations (find_write, following the unit's functions the loop calls; a call it cannot
 * follow counts as a change), or, for a loop elsewhere, anywhere in the unit. A variable must
 * be a global, or a local or parameter of the loop's own function (outside a loop of this unit,
 * a global only): a parameter of a function the loop calls is given anew on every call. */
static int flag_may_change(ss_check_ctx *ctx, const ss_loop_context *loop, const timing_guard *g)
{
    int field = clang_getCursorKind(g->flag) == CXCursor_FieldDecl;
    if (!field && !global_var(g->flag) && (loop == NULL || !local_of(g->flag, loop->function)))
        return 1;
    write_walk *w = new_write_walk(ctx, g);
    w->follow = loop != NULL;
    CXCursor unit = clang_getTranslationUnitCursor(ctx->tu);
    clang_visitChildren(loop ? loop->loop : unit, find_write, w);
    int changes = w->found || (loop != NULL && w->unseen);
    if (loop && !changes) {
        /* An alias made outside the loop ('bool *p = &g.profiling;') may be written in it. */
        w->follow = 0;
        w->aliases_only = 1;
        clang_visitChildren(unit, find_write, w);
        changes = w->found;
    }
    free(w);
    return changes;
}

/* Whether the last child of 'decl' (a variable's or a field's initializer) is a nonzero
 * constant. */
static int nonzero_init(CXCursor decl)
{
    unsigned n = ss_ast_child_count(decl);
    long long v = 0;
    if (n == 0)
        return 0;
    CXCursor init = ss_ast_child(decl, n - 1);
    return clang_isExpression(clang_getCursorKind(init)) && ss_ast_eval_int(init, &v) == 0 &&
           v != 0;
}

/* Whether the local 'var' is of no reference type and made by its class's default constructor
 * ('Opts o;', 'Opts o{};'). */
static int default_made(CXCursor var)
{
    enum CXTypeKind t = clang_getCanonicalType(clang_getCursorType(var)).kind;
    if (clang_getCursorKind(var) != CXCursor_VarDecl || t == CXType_LValueReference ||
        t == CXType_RValueReference || !ss_ast_is_function(clang_getCursorSemanticParent(var)))
        return 0;
    for (unsigned i = 0, n = ss_ast_child_count(var); i < n; i++) {
        CXCursor c = ss_ast_child(var, i);
        enum CXCursorKind k = clang_getCursorKind(c);
        if (clang_isReference(k) ||
            (k == CXCursor_CallExpr && clang_Cursor_getNumArguments(c) == 0) ||
            (k == CXCursor_InitListExpr && ss_ast_child_count(c) == 0))
            continue;
        return 0;
    }
    return 1;
}

/* Whether the flag g is visibly always on, so no switch: a local variable initialized to a
 * nonzero constant that nothing in its function writes, a static global so initialized that
 * nothing in the unit writes, or a field whose default member initializer is nonzero read from
 * a local made by the default constructor that nothing in its function (nor the functions of
 * the unit it calls) writes. A global of external linkage, or a field of an object set
 * elsewhere, is taken for off unless asked for. */
static int always_on(ss_check_ctx *ctx, const timing_guard *g)
{
    CXCursor scope;
    int field = clang_getCursorKind(g->flag) == CXCursor_FieldDecl;
    if (!nonzero_init(g->flag))
        return 0;
    if (field && default_made(g->root))
        scope = clang_getCursorSemanticParent(g->root);
    else if (clang_getCursorKind(g->flag) == CXCursor_VarDecl && !global_var(g->flag))
        scope = clang_getCursorSemanticParent(g->flag);
    else if (!field && clang_Cursor_getStorageClass(g->flag) == CX_SC_Static)
        scope = clang_getTranslationUnitCursor(ctx->tu);
    else
        return 0;
    write_walk *w = new_write_walk(ctx, g);
    w->follow = field;
    w->skip_decl = 1;
    clang_visitChildren(scope, find_write, w);
    int on = !w->found;
    free(w);
    return on;
}

/* A reference to the flag (its variable or its field). */
static enum CXChildVisitResult find_read(CXCursor c, CXCursor parent, CXClientData data)
{
    const timing_guard *g = ((void **)data)[0];
    int *found = ((void **)data)[1];
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) &&
        clang_equalCursors(clang_getCursorReferenced(c), g->flag))
        *found = 1;
    return *found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether the loop's header (a for loop's init, condition and step, a while or do loop's
 * condition) reads the flag g: the loop runs only while it is set, so the wait is on every one
 * of its iterations. */
static int flag_in_header(const ss_loop_context *loop, const timing_guard *g)
{
    int found = 0;
    void *data[2] = {(void *)g, &found};
    unsigned n = ss_ast_child_count(loop->loop);
    unsigned body = clang_getCursorKind(loop->loop) == CXCursor_DoStmt ? 0 : n - 1;
    for (unsigned i = 0; i < n && !found; i++) {
        CXCursor c = ss_ast_child(loop->loop, i);
        if (i != body)
            ss_ast_visit_whole(c, c, find_read, data);
    }
    return found;
}

char *ss_context_timing_flag_words(ss_check_ctx *ctx, ss_rule_id rule, const ss_loop_context *loop,
                                   CXCursor at)
{
    CXCursor stmts[2], block;
    if (rule != SS_RULE_SYNC_IN_LOOP || ss_ast_is_null(ctx->function))
        return NULL;
    CXCursor function = ss_scope_outer_function(ctx->function);
    CXCursor if_stmt = branch_of(ctx->function, at, &block, stmts);
    timing_guard g = {.clock_words = NULL, .flag_text = NULL};
    char *words = NULL;
    if (!ss_ast_is_null(if_stmt) && reads_clock(ctx, function, stmts[1], &g) &&
        only_timing(ctx, block, &g) && flag_of(ss_ast_child(if_stmt, 0), &g) &&
        !flag_may_change(ctx, loop, &g) && !always_on(ctx, &g) &&
        !(loop != NULL && flag_in_header(loop, &g))) {
        char *where = loop == NULL ? ss_xstrdup("no code of this translation unit changes (the "
                                                "loop is another unit's: the other units' code "
                                                "is not seen here)")
                      : loop->chain
                          ? ss_xasprintf("nothing in the loop at %s, nor the functions of this "
                                         "unit it calls, changes",
                                         loop->place)
                          : ss_xasprintf("nothing in the loop at line %u, nor the functions it "
                                         "calls, changes",
                                         ss_scope_line(loop->loop));
        words = ss_xasprintf("for timing under a flag: the wait is followed by a host clock read "
                             "(%s) and runs only when '%s' is set (line %u), which %s: a "
                             "measurement under a switch, not a stall of every run",
                             g.clock_words, g.flag_text, ss_scope_line(if_stmt), where);
        free(where);
    }
    free(g.clock_words);
    free(g.flag_text);
    return words;
}
