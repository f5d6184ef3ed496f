/* other_branch.c: legacy-stream work (SYNC101, SYNC102) where no other stream of the unit can
 * hold work when it runs: the unit's streams are locals of their functions, those of the work's
 * own function are created only on the other branch of an 'if' around it (a cooperative launch
 * beside a version on two streams, chosen by an option), and a wait for the whole device drains
 * each stream's work, and the legacy work, before their functions return. The legacy stream
 * then has nothing to serialize with on that path (ss_context_other_branch_words). */
#include "ast.h"
#include "callgraph.h"
#include "context_cases.h"
#include "log.h"

#include <stdlib.h>
#include <string.h>

struct ss_branch_memo {
    int looked;
    int hazard;  /* unit_hazard's answer plus one, 0 before it is looked for */
    int threads; /* ss_context_unit_threads's answer plus one, 0 before it is looked for */
    ss_stream_use *uses;
    size_t count;
};

ss_branch_memo *ss_branch_memo_new(void)
{
    return ss_xcalloc(1, sizeof(ss_branch_memo));
}

void ss_branch_memo_free(ss_branch_memo *memo)
{
    if (memo)
        free(memo->uses);
    free(memo);
}

enum { MAX_VARS = 16, MAX_SEEN = 64, MAX_DEPTH = 8 };

/* A stream variable of the unit and what its function does with it (confine). */
typedef struct stream_var {
    CXCursor var, function;
    unsigned first, last; /* offsets of its first and last reference */
    CXCursor last_call;   /* the call that holds its last reference */
} stream_var;

/* The walk of a function for the references to one stream variable. */
typedef struct ref_walk {
    stream_var *v;
    unsigned refs, taken; /* references; of them, arguments that are a creation's target or
                           * the stream of a CUDA call or launch */
    int bad;              /* a reference inside a lambda */
} ref_walk;

/* Whether 'arg' names the variable: 1 by value, 2 its address ('&s'), else 0. */
static int names(CXCursor var, CXCursor arg)
{
    CXCursor e = ss_ast_strip(arg);
    int address = 0;
    if (clang_getCursorKind(e) == CXCursor_UnaryOperator && ss_ast_child_count(e) == 1) {
        e = ss_ast_strip(ss_ast_child(e, 0));
        address = 1;
    }
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr ||
        !clang_equalCursors(clang_getCursorReferenced(e), var))
        return 0;
    return address ? 2 : 1;
}

/* Whether the call 'c' takes the variable where a stream goes and goes no further: the target
 * of a stream creation ('&s'), the stream argument of a CUDA call or of a launch, or the stream
 * that cudaStreamDestroy or cuStreamDestroy is given. */
static int takes_stream(CXCursor var, CXCursor c)
{
    const ss_api *api = ss_scope_is_launch(c) ? NULL : ss_scope_callee_api(c);
    if (api && api->dst_arg >= 0 && ss_check_stream_creation(c, api) != 0 &&
        clang_Cursor_getNumArguments(c) > api->dst_arg)
        return names(var, clang_Cursor_getArgument(c, (unsigned)api->dst_arg)) == 2;
    if (ss_scope_is_launch(c) || api)
        return names(var, ss_check_stream_arg(c, api)) == 1;
    char *name = ss_scope_callee_name(c);
    int destroy = name && (ss_api_name_is(name, "cudaStreamDestroy") ||
                           ss_api_name_is(name, "cuStreamDestroy"));
    free(name);
    return destroy && clang_Cursor_getNumArguments(c) == 1 &&
           names(var, clang_Cursor_getArgument(c, 0)) == 1;
}

static enum CXChildVisitResult find_refs(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    ref_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr) {
        unsigned before = w->refs;
        clang_visitChildren(c, find_refs, w);
        w->bad |= w->refs > before;
        return CXChildVisit_Continue;
    }
    if (k == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(c), w->v->var)) {
        unsigned at = ss_ast_offset(c);
        w->v->first = w->refs == 0 || at < w->v->first ? at : w->v->first;
        w->v->last = w->refs == 0 || at > w->v->last ? at : w->v->last;
        w->refs++;
    }
    if ((k == CXCursor_CallExpr || ss_scope_is_launch(c)) && takes_stream(w->v->var, c)) {
        w->taken++;
        if (ss_ast_is_null(w->v->last_call) || ss_ast_offset(c) >= ss_ast_offset(w->v->last_call))
            w->v->last_call = c;
    }
    return CXChildVisit_Recurse;
}

/* Whether the stream variable 'v->var' is its function's own: a local (not static) declared
 * in it, a stream (not an array of them), without an initializer or with one that is the
 * legacy stream, named only as a creation's target and as the stream of CUDA calls and
 * launches (not assigned, passed to a function of the program, stored or captured). Fills its
 * first and last references. Returns 1 or 0. */
static int confine(stream_var *v)
{
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(v->var);
    unsigned fb, fe, vb, ve;
    if (clang_getCursorKind(v->var) != CXCursor_VarDecl ||
        clang_getCursorKind(v->function) == CXCursor_LambdaExpr ||
        (sc != CX_SC_None && sc != CX_SC_Auto && sc != CX_SC_Register) ||
        !ss_check_is_stream_type(clang_getCursorType(v->var)))
        return 0;
    ss_ast_range(v->function, &fb, &fe);
    ss_ast_range(v->var, &vb, &ve);
    if (vb < fb || ve > fe)
        return 0;
    unsigned n = ss_ast_child_count(v->var);
    CXCursor init = n ? ss_ast_child(v->var, n - 1) : clang_getNullCursor();
    if (!ss_ast_is_null(init) && clang_isExpression(clang_getCursorKind(init)) &&
        !ss_stream_is_legacy(ss_stream_constant(ss_ast_strip(init)), 0))
        return 0;
    ref_walk w = {v, 0, 0, 0};
    v->last_call = clang_getNullCursor();
    clang_visitChildren(v->function, find_refs, &w);
    return !w.bad && w.refs > 0 && w.refs == w.taken;
}

/* Whether 'c' lies inside 'outer' by its offsets. */
static int inside(CXCursor outer, unsigned at)
{
    unsigned b, e;
    ss_ast_range(outer, &b, &e);
    return at >= b && at < e;
}

/* Where the 'if' 'stmt' (on the path down to 'at', 'inner' its child there) holds every
 * reference of 'v' in the branch that does not hold 'at': "the 'else' branch (line 267) of the
 * 'if' at line 250", malloc'ed, or NULL. */
static char *if_branch(CXCursor stmt, CXCursor inner, const stream_var *v)
{
    unsigned cond = ss_ast_if_condition(stmt);
    if (cond + 2 >= ss_ast_child_count(stmt))
        return NULL;
    CXCursor then = ss_ast_child(stmt, cond + 1), other = ss_ast_child(stmt, cond + 2);
    if (ss_ast_same_node(inner, then) && inside(other, v->first) && inside(other, v->last))
        return ss_xasprintf("the 'else' branch (line %u) of the 'if' at line %u",
                            ss_scope_line(other), ss_scope_line(stmt));
    if (ss_ast_same_node(inner, other) && inside(then, v->first) && inside(then, v->last))
        return ss_xasprintf("the first branch of the 'if' at line %u", ss_scope_line(stmt));
    return NULL;
}

/* The case labels of a switch body (label_count), nested 'switch'es left out. */
static enum CXChildVisitResult count_labels(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_SwitchStmt)
        return CXChildVisit_Continue;
    if (k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt)
        (*(unsigned *)data)++;
    return CXChildVisit_Recurse;
}

/* The section of the switch body 'body' (its statements from one run of case labels to the
 * next) that holds the offset 'at': 0 for the first, -1 before any label or outside. '*label'
 * receives the section's first label, '*last' its last statement with the labels stripped
 * (a block's last statement). */
static int section_of(CXCursor body, unsigned at, CXCursor *label, CXCursor *last)
{
    unsigned n = ss_ast_child_count(body);
    int section = -1, found = -1;
    for (unsigned k = 0; k < n; k++) {
        CXCursor c = ss_ast_child(body, k);
        enum CXCursorKind kind = clang_getCursorKind(c);
        if (kind == CXCursor_CaseStmt || kind == CXCursor_DefaultStmt) {
            if (found >= 0)
                break;
            section++;
            *label = c;
        }
        if (found < 0 && section >= 0 && inside(c, at))
            found = section;
        *last = c;
    }
    for (int deep = 0; deep < 64 && found >= 0; deep++) {
        enum CXCursorKind kind = clang_getCursorKind(*last);
        unsigned count = ss_ast_child_count(*last);
        if ((kind != CXCursor_CaseStmt && kind != CXCursor_DefaultStmt &&
             kind != CXCursor_CompoundStmt) ||
            count == 0)
            break;
        *last = ss_ast_child(*last, count - 1);
    }
    return found;
}

/* Where the 'switch' 'stmt' (on the path down to 'at') holds every reference of 'v' in a
 * section other than at's, each of the two ending in a 'break' (no fall-through between them)
 * and every case label a statement of the switch's block (no label inside another statement):
 * "the case at line 30 of the 'switch' at line 27", malloc'ed, or NULL. */
static char *switch_branch(CXCursor stmt, CXCursor at, const stream_var *v)
{
    unsigned n = ss_ast_child_count(stmt), all = 0, direct = 0;
    CXCursor body = n ? ss_ast_child(stmt, n - 1) : clang_getNullCursor();
    if (clang_getCursorKind(body) != CXCursor_CompoundStmt)
        return NULL;
    clang_visitChildren(body, count_labels, &all);
    for (unsigned k = 0; k < ss_ast_child_count(body); k++) {
        CXCursor c = ss_ast_child(body, k);
        while (clang_getCursorKind(c) == CXCursor_CaseStmt ||
               clang_getCursorKind(c) == CXCursor_DefaultStmt) {
            direct++;
            c = ss_ast_child(c, ss_ast_child_count(c) - 1);
        }
    }
    CXCursor label = clang_getNullCursor(), mine_last = label, theirs_last = label, theirs = label;
    int mine = section_of(body, ss_ast_offset(at), &label, &mine_last);
    int first = section_of(body, v->first, &theirs, &theirs_last);
    int last = section_of(body, v->last, &label, &label);
    if (all != direct || mine < 0 || first < 0 || first != last || first == mine ||
        clang_getCursorKind(mine_last) != CXCursor_BreakStmt ||
        clang_getCursorKind(theirs_last) != CXCursor_BreakStmt)
        return NULL;
    return ss_xasprintf("the case at line %u of the 'switch' at line %u", ss_scope_line(theirs),
                        ss_scope_line(stmt));
}

/* Where an 'if' or a 'switch' on the path down to 'at' in 'function' holds every reference of
 * 'v' (v->first to v->last) on a branch that excludes 'at' (if_branch, switch_branch), with no
 * loop around it in the function (a loop would run the other branch before 'at' on an earlier
 * iteration): words for the note, malloc'ed, or NULL. */
static char *other_branch(CXCursor function, CXCursor at, const stream_var *v)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long n = ss_context_path(function, at, path);
    char *found = NULL;
    for (long i = 0; i < n && found == NULL; i++) {
        enum CXCursorKind k = clang_getCursorKind(path[i]);
        if (ss_scope_is_loop(path[i]) || k == CXCursor_LambdaExpr)
            break;
        if (k == CXCursor_IfStmt)
            found = if_branch(path[i], i + 1 < n ? path[i + 1] : at, v);
        else if (k == CXCursor_SwitchStmt)
            found = switch_branch(path[i], at, v);
    }
    free(path);
    return found;
}

/* What may run between a stream's work (or the legacy work) and the wait that drains it, and
 * the functions that must not be reached there. */
typedef struct drain_walk {
    ss_callgraph *graph;
    const CXCursor *targets;
    size_t target_count;
    CXCursor seen[MAX_SEEN];
    size_t seen_count;
    int busy;        /* a way out before the wait, or a call that may reach a target */
    unsigned lo, hi; /* with a range: only what lies in [lo, hi) */
    int depth;       /* calls followed down */
    int nested;      /* loops and switches entered inside what is walked (their own 'break') */
} drain_walk;

static int reaches(drain_walk *w, CXCursor call);

/* Whether a record declaration has a call operator (a functor, std::function), for
 * callable_arg. */
static enum CXChildVisitResult find_call_operator(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    CXString name = clang_getCursorSpelling(c);
    int found = (clang_getCursorKind(c) == CXCursor_CXXMethod ||
                 clang_getCursorKind(c) == CXCursor_FunctionTemplate) &&
                strcmp(clang_getCString(name), "operator()") == 0;
    clang_disposeString(name);
    *(int *)data |= found;
    return found ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Whether the argument 'arg' of a library call may be called back: a lambda, a function or a
 * pointer to one, an object with a call operator (by value, reference or pointer). */
static int callable_arg(CXCursor arg)
{
    CXCursor e = ss_ast_strip(arg);
    if (clang_getCursorKind(e) == CXCursor_UnaryOperator && ss_ast_child_count(e) == 1)
        e = ss_ast_strip(ss_ast_child(e, 0)); /* '&f' */
    enum CXCursorKind k = clang_getCursorKind(e);
    enum CXCursorKind ref = k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr
                                ? clang_getCursorKind(clang_getCursorReferenced(e))
                                : CXCursor_NoDeclFound;
    if (k == CXCursor_LambdaExpr || ref == CXCursor_FunctionDecl || ref == CXCursor_CXXMethod ||
        ref == CXCursor_FunctionTemplate)
        return 1;
    CXType t = clang_getCanonicalType(clang_getCursorType(arg));
    if (t.kind == CXType_Pointer || t.kind == CXType_LValueReference ||
        t.kind == CXType_RValueReference)
        t = clang_getCanonicalType(clang_getPointeeType(t));
    if (t.kind == CXType_FunctionProto || t.kind == CXType_FunctionNoProto)
        return 1;
    int found = 0;
    if (t.kind == CXType_Record)
        clang_visitChildren(clang_getTypeDeclaration(t), find_call_operator, &found);
    return found;
}

/* Whether the call 'call' of a library function (a system header's) may call back into the
 * program: a call operator, or a callable argument (callable_arg). */
static int calls_back(CXCursor call)
{
    CXString name = clang_getCursorSpelling(clang_getCursorReferenced(call));
    int op = strcmp(clang_getCString(name), "operator()") == 0;
    clang_disposeString(name);
    int n = clang_Cursor_getNumArguments(call);
    for (int i = 0; i < n && !op; i++)
        op = callable_arg(clang_Cursor_getArgument(call, (unsigned)i));
    return op;
}

static enum CXChildVisitResult find_reach(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    drain_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    unsigned at = ss_ast_offset(c);
    if (w->hi > w->lo && (at < w->lo || at >= w->hi))
        return CXChildVisit_Recurse;
    if (w->depth == 0 && (ss_scope_is_loop(c) || k == CXCursor_SwitchStmt)) {
        w->nested++;
        clang_visitChildren(c, find_reach, w);
        w->nested--;
        return w->busy ? CXChildVisit_Break : CXChildVisit_Continue;
    }
    /* A way out of the function itself (not of one it calls) leaves the work undrained, and a
     * 'break' or 'continue' of a statement around may skip the wait. */
    if (w->depth == 0 &&
        (k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt || k == CXCursor_CXXThrowExpr ||
         ((k == CXCursor_BreakStmt || k == CXCursor_ContinueStmt) && w->nested == 0)))
        w->busy = 1;
    else if (k == CXCursor_CallExpr && reaches(w, c))
        w->busy = 1;
    return w->busy ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether the call 'call' may reach one of w->targets: a call of a function of the unit that is
 * one, or that calls one in turn (up to MAX_DEPTH calls down); a virtual call, a call through a
 * pointer, a call of a function of another unit (it may call back) and a library call given
 * something to call (calls_back) may. A CUDA call, a launch, and any other call of a function
 * of a system header (the C and C++ libraries) do not. */
static int reaches(drain_walk *w, CXCursor call)
{
    if (ss_scope_is_launch(call) || ss_scope_callee_api(call) != NULL ||
        ss_scope_is_launch_config(call))
        return 0;
    CXCursor def = ss_callgraph_callee(w->graph, call);
    if (ss_ast_is_null(def)) {
        CXCursor decl = clang_getCursorReferenced(call);
        return ss_ast_is_null(decl) || !ss_foreign_decl(decl) || calls_back(call);
    }
    if (clang_CXXMethod_isVirtual(def) || w->depth >= MAX_DEPTH)
        return 1;
    for (size_t i = 0; i < w->target_count; i++)
        if (clang_equalCursors(def, w->targets[i]))
            return 1;
    for (size_t i = 0; i < w->seen_count; i++)
        if (clang_equalCursors(def, w->seen[i]))
            return 0; /* looked at, or being looked at, already */
    if (w->seen_count == MAX_SEEN)
        return 1;
    w->seen[w->seen_count++] = def;
    unsigned lo = w->lo, hi = w->hi;
    w->lo = w->hi = 0;
    w->depth++;
    clang_visitChildren(def, find_reach, w);
    w->depth--;
    w->lo = lo;
    w->hi = hi;
    return w->busy;
}

/* Whether the statement 's' waits for the whole device whenever it runs: a
 * cudaDeviceSynchronize (or cuCtxSynchronize) not in a branch, a loop or a lambda (an 'if's
 * condition runs, and of '&&' and '||' only the left operand), in a checking macro's
 * 'do { } while (0)' too. */
static enum CXChildVisitResult find_wait(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    int *found = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_IfStmt && ss_ast_if_condition(c) < ss_ast_child_count(c)) {
        ss_ast_visit_whole(ss_ast_child(c, ss_ast_if_condition(c)), c, find_wait, found);
        return *found ? CXChildVisit_Break : CXChildVisit_Continue;
    }
    char op[4] = "";
    if (k == CXCursor_BinaryOperator && ss_ast_child_count(c) == 2 &&
        (ss_ast_binary_op(c, op, sizeof op) != 0
             ? clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_Bool
             : !strcmp(op, "&&") || !strcmp(op, "||"))) {
        /* The right operand may not run ('&&', '||', or an operator unread that may be one). */
        ss_ast_visit_whole(ss_ast_child(c, 0), c, find_wait, found);
        return *found ? CXChildVisit_Break : CXChildVisit_Continue;
    }
    if (k == CXCursor_IfStmt || k == CXCursor_ForStmt || k == CXCursor_WhileStmt ||
        k == CXCursor_CXXForRangeStmt || k == CXCursor_SwitchStmt ||
        k == CXCursor_ConditionalOperator || k == CXCursor_LambdaExpr ||
        (k == CXCursor_DoStmt && !ss_ast_do_once(c)))
        return CXChildVisit_Continue;
    const ss_api *api = k == CXCursor_CallExpr ? ss_scope_callee_api(c) : NULL;
    if (api && api->klass == SS_CLASS_DEVICE_SYNC) {
        *found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static int is_wait(CXCursor s)
{
    int found = 0;
    ss_ast_visit_whole(s, clang_getNullCursor(), find_wait, &found);
    return found;
}

/* Where a 'break' in the block path[i] goes: the loop or switch around it, path[m] (the walk
 * up goes on with it: a loop is then walked whole). Returns m + 1 for the walk's next step (its
 * i--), or 0 (the walk ends, finding no wait) where there is none. */
static long broken(const CXCursor *path, long i)
{
    for (long m = i - 1; m >= 0; m--)
        if (ss_scope_is_loop(path[m]) || clang_getCursorKind(path[m]) == CXCursor_SwitchStmt)
            return m + 1;
    return 0;
}

/* The wait for the whole device that follows 'c' in 'function' on every way: walking up from
 * 'c', each loop around it runs again (all of it is between), and in each block the statements
 * after it are between until one is the wait. What is between must not leave the function (a
 * return, goto or throw) nor call what may reach w->targets. Returns the wait, or a null
 * cursor. */
static CXCursor drain_after(drain_walk *w, CXCursor function, CXCursor c)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long n = ss_context_path(function, c, path);
    CXCursor wait = clang_getNullCursor();
    w->lo = w->hi = 0;
    for (long i = n - 1; i >= 0 && !w->busy && ss_ast_is_null(wait); i--) {
        CXCursor inner = i + 1 < n ? path[i + 1] : c;
        if (clang_getCursorKind(path[i]) == CXCursor_LambdaExpr)
            break;
        if (ss_scope_is_loop(path[i])) {
            w->nested++;
            clang_visitChildren(path[i], find_reach, w);
            w->nested--;
            continue;
        }
        if (clang_getCursorKind(path[i]) != CXCursor_CompoundStmt)
            continue;
        unsigned count = ss_ast_child_count(path[i]), j = 0;
        while (j < count && !ss_ast_same_node(ss_ast_child(path[i], j), inner))
            j++;
        for (j++; j < count && !w->busy && ss_ast_is_null(wait); j++) {
            CXCursor s = ss_ast_child(path[i], j);
            if (clang_getCursorKind(s) == CXCursor_BreakStmt) {
                i = broken(path, i); /* on after the switch or loop it leaves (a case falls
                                      * through its labels) */
                break;
            }
            if (is_wait(s))
                wait = s;
            else
                ss_ast_visit_whole(s, clang_getNullCursor(), find_reach, w);
        }
    }
    free(path);
    return w->busy ? clang_getNullCursor() : wait;
}

/* The stream variable that the stream use 'call' names: a creation's target, else its stream
 * argument; or a null cursor. */
static CXCursor use_var(CXCursor call)
{
    const ss_api *api = ss_scope_is_launch(call) ? NULL : ss_scope_callee_api(call);
    CXCursor arg = clang_getNullCursor();
    if (api && api->klass == SS_CLASS_STREAM_CREATE && api->dst_arg >= 0 &&
        clang_Cursor_getNumArguments(call) > api->dst_arg)
        arg = clang_Cursor_getArgument(call, (unsigned)api->dst_arg);
    else if (api || ss_scope_is_launch(call))
        arg = ss_check_stream_arg(call, api);
    return ss_check_stream_var(arg);
}

/* The unit's stream uses, looked for once (ctx->branch keeps them). */
static size_t unit_uses(ss_check_ctx *ctx, ss_stream_use **uses, ss_stream_use **own)
{
    ss_branch_memo *m = ctx->branch;
    *own = NULL;
    if (m == NULL) {
        size_t n = ss_check_stream_uses(ctx, own);
        *uses = *own;
        return n;
    }
    if (!m->looked) {
        m->count = ss_check_stream_uses(ctx, &m->uses);
        m->looked = 1;
    }
    *uses = m->uses;
    return m->count;
}

/* Whether the call 'call' has one of the names 'names' ('count' of them). */
static int named_call(CXCursor call, const char *const *names, size_t count)
{
    char *name = ss_scope_callee_name(call);
    int found = 0;
    for (size_t i = 0; name && !found && i < count; i++)
        found = ss_api_name_is(name, names[i]);
    free(name);
    return found;
}

/* Whether the call 'call' starts a host thread: std::thread's or std::jthread's constructor,
 * std::async, pthread_create, thrd_create. */
static int starts_thread(CXCursor call)
{
    static const char *const names[] = {"pthread_create", "thrd_create"};
    CXCursor callee = clang_getCursorReferenced(call);
    CXString spelled = clang_getCursorSpelling(callee);
    const char *s = clang_getCString(spelled);
    enum CXCursorKind k = clang_getCursorKind(callee);
    int found = (k == CXCursor_Constructor && (!strcmp(s, "thread") || !strcmp(s, "jthread"))) ||
                ((k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) &&
                 !strcmp(s, "async") && ss_ast_in_system_header(callee));
    clang_disposeString(spelled);
    return found || named_call(call, names, sizeof names / sizeof *names);
}

/* Whether the call 'call' starts a host thread or moves the thread to another device. */
static int thread_or_device(CXCursor call)
{
    static const char *const names[] = {"cudaSetDevice", "cuCtxSetCurrent", "cuCtxPushCurrent"};
    return starts_thread(call) || named_call(call, names, sizeof names / sizeof *names);
}

/* Whether a node of kind 'k' is an OpenMP directive (in the tree with -fopenmp). */
static int omp_node(enum CXCursorKind k)
{
    return k >= CXCursor_OMPParallelDirective && k <= CXCursor_LastStmt &&
           k != CXCursor_BuiltinBitCastExpr;
}

/* Whether a destructor's body calls anything (find_hazard). */
static enum CXChildVisitResult find_call(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    *(int *)data |= clang_getCursorKind(c) == CXCursor_CallExpr;
    return *(int *)data ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* What in the unit's own code (not a system header's) the walks of drained and drain_after do
 * not follow: a 'throw' or a 'try' (a throw at any depth may leave before the wait, and a
 * caller catch it and go on), a destructor that calls something (its implicit calls), a change
 * of the thread's device (cudaSetDevice, cuCtxSetCurrent, cuCtxPushCurrent), a host thread
 * (std::thread, std::async, pthread_create) or an OpenMP directive. */
static enum CXChildVisitResult find_hazard(CXCursor c, CXCursor parent, CXClientData data)
{
    int *found = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    if (k == CXCursor_CXXThrowExpr || k == CXCursor_CXXTryStmt || omp_node(k) ||
        (k == CXCursor_CallExpr && thread_or_device(c)))
        *found = 1;
    else if (k == CXCursor_Destructor && clang_isCursorDefinition(c))
        clang_visitChildren(c, find_call, found);
    return *found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether the main file's text holds '#pragma omp' (the directives are not in the tree
 * without -fopenmp). */
static int omp_pragma(CXTranslationUnit tu)
{
    CXString main = clang_getTranslationUnitSpelling(tu);
    CXFile file = clang_getFile(tu, clang_getCString(main));
    clang_disposeString(main);
    size_t size = 0;
    const char *text = file ? clang_getFileContents(tu, file, &size) : NULL;
    for (size_t i = 0; text && i < size; i++) {
        if (text[i] != '#')
            continue;
        size_t j = i + 1;
        while (j < size && (text[j] == ' ' || text[j] == '\t'))
            j++;
        if (size - j < 6 || strncmp(text + j, "pragma", 6) != 0)
            continue;
        j += 6;
        while (j < size && (text[j] == ' ' || text[j] == '\t'))
            j++;
        if (size - j >= 3 && strncmp(text + j, "omp", 3) == 0)
            return 1;
    }
    return 0;
}

/* A host thread the unit starts, or an OpenMP directive (find_hazard's threads). */
static enum CXChildVisitResult find_thread(CXCursor c, CXCursor parent, CXClientData data)
{
    int *found = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    *found = omp_node(k) || (k == CXCursor_CallExpr && starts_thread(c));
    return *found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether the main file's text holds '#pragma omp' (omp_pragma) or a walk of the unit with
 * 'visit' finds what it looks for; the answer plus one kept in '*slot' (a null 'slot': not
 * kept). */
static int unit_walk(CXTranslationUnit tu, int *slot, CXCursorVisitor visit)
{
    if (slot && *slot)
        return *slot - 1;
    int found = omp_pragma(tu);
    if (!found)
        clang_visitChildren(clang_getTranslationUnitCursor(tu), visit, &found);
    if (slot)
        *slot = found + 1;
    return found;
}

int ss_context_unit_threads(ss_check_ctx *ctx)
{
    return unit_walk(ctx->tu, ctx->branch ? &ctx->branch->threads : NULL, find_thread);
}

/* Whether the unit holds what keeps the note away (find_hazard, omp_pragma), looked for
 * once where ctx->branch keeps it. */
static int unit_hazard(ss_check_ctx *ctx)
{
    return unit_walk(ctx->tu, ctx->branch ? &ctx->branch->hazard : NULL, find_hazard);
}

/* The unit's stream variables (at most MAX_VARS), each its function's own (confine), into
 * 'vars'. Returns how many, or -1 where a use names anything else. */
static long collect_vars(ss_check_ctx *ctx, stream_var *vars)
{
    ss_stream_use *uses, *own;
    size_t n = unit_uses(ctx, &uses, &own);
    long count = n == 0 ? -1 : 0;
    for (size_t i = 0; i < n && count >= 0; i++) {
        CXCursor var = use_var(uses[i].call);
        long k = 0;
        while (k < count && !clang_equalCursors(vars[k].var, var))
            k++;
        if (ss_ast_is_null(var) || (k == count && count == MAX_VARS)) {
            count = -1;
        } else if (k == count) {
            vars[count] = (stream_var){var, ss_scope_outer_function(uses[i].function), 0, 0,
                                       clang_getNullCursor()};
            count = confine(&vars[count]) ? count + 1 : -1;
        }
    }
    free(own);
    return count;
}

/* Whether the stream variable 'v' is drained before its function returns, with nothing
 * between its first use and the wait that may reach 'function' (the legacy work's). Returns
 * the wait, or a null cursor. */
static CXCursor drained(ss_check_ctx *ctx, const stream_var *v, CXCursor function)
{
    drain_walk w;
    memset(&w, 0, sizeof w);
    w.graph = ss_check_graph(ctx);
    w.targets = &function;
    w.target_count = 1;
    w.lo = v->first;
    w.hi = v->last + 1;
    clang_visitChildren(v->function, find_reach, &w);
    return w.busy ? clang_getNullCursor() : drain_after(&w, v->function, v->last_call);
}

/* Adds "'name'" (with " of 'function'" when 'of') to the list 'words' (malloc'ed). */
static char *add_name(char *words, const stream_var *v, int of)
{
    CXString name = clang_getCursorSpelling(v->var);
    char *fn = of ? ss_qualified_name(v->function) : NULL;
    char *one = fn ? ss_xasprintf("'%s' of '%s'", clang_getCString(name), fn)
                   : ss_xasprintf("'%s'", clang_getCString(name));
    char *longer = words ? ss_xasprintf("%s, %s", words, one) : ss_xstrdup(one);
    free(words);
    free(one);
    free(fn);
    clang_disposeString(name);
    return longer;
}

/* The words of the note: the streams of the work's function and the branch they are on
 * ('branch', other_branch), the unit's other streams, and the wait after the work. */
static char *branch_words(const stream_var *vars, long count, CXCursor function, const char *branch,
                          CXCursor wait)
{
    char *own = NULL, *others = NULL;
    for (long i = 0; i < count; i++) {
        if (clang_equalCursors(vars[i].function, function))
            own = add_name(own, &vars[i], 0);
        else
            others = add_name(others, &vars[i], 1);
    }
    char *fn = ss_qualified_name(function);
    char *place = ss_callgraph_place(wait);
    char *first = own ? ss_xasprintf("the streams of '%s' (%s) are created only in %s",
                                     fn ? fn : "?", own, branch ? branch : "?")
                      : NULL;
    char *second = others ? ss_xasprintf("%sthe unit's %sstreams (%s) are locals that their "
                                         "functions drain before returning, without reaching "
                                         "this code meanwhile",
                                         own ? "; " : "", own ? "other " : "", others)
                          : ss_xstrdup("");
    char *words = ss_xasprintf("no other stream exists on this path: %s%s; the wait for the "
                               "whole device at %s drains this work before any of them is "
                               "given more",
                               first ? first : "", second, place);
    free(first);
    free(second);
    free(place);
    free(fn);
    free(own);
    free(others);
    return words;
}

/* Whether the unit's streams 'vars' ('count', collect_vars) are each on a branch that
 * excludes 'at' (those of 'function') and drained before their function returns, without
 * reaching 'function' meanwhile. Fills 'targets' with their functions ('*target_count') and
 * '*branch' with the words of the first branch (malloc'ed). Returns 1 or 0. */
static int vars_apart(ss_check_ctx *ctx, const stream_var *vars, long count, CXCursor function,
                      CXCursor at, CXCursor *targets, size_t *target_count, char **branch)
{
    for (long i = 0; i < count; i++) {
        int mine = clang_equalCursors(vars[i].function, function);
        char *words = mine ? other_branch(function, at, &vars[i]) : NULL;
        if ((mine && words == NULL) || ss_ast_is_null(drained(ctx, &vars[i], function))) {
            free(words);
            return 0;
        }
        if (*branch == NULL)
            *branch = words;
        else
            free(words);
        size_t k = 0;
        while (k < *target_count && !clang_equalCursors(targets[k], vars[i].function))
            k++;
        if (k == *target_count)
            targets[(*target_count)++] = vars[i].function;
    }
    return 1;
}

char *ss_context_other_branch_words(ss_check_ctx *ctx, CXCursor at)
{
    CXCursor function = ctx->function;
    if (ctx->torch || ctx->per_thread || ss_ast_is_null(function) ||
        clang_getCursorKind(function) == CXCursor_LambdaExpr)
        return NULL;
    stream_var vars[MAX_VARS];
    CXCursor targets[MAX_VARS + 1];
    size_t target_count = 0;
    char *branch = NULL, *words = NULL;
    long count = collect_vars(ctx, vars);
    if (count > 0 && !unit_hazard(ctx) &&
        vars_apart(ctx, vars, count, function, at, targets, &target_count, &branch)) {
        targets[target_count++] = function;
        drain_walk w;
        memset(&w, 0, sizeof w);
        w.graph = ss_check_graph(ctx);
        w.targets = targets;
        w.target_count = target_count;
        CXCursor wait = drain_after(&w, function, at);
        if (!ss_ast_is_null(wait))
            words = branch_words(vars, count, function, branch, wait);
    }
    free(branch);
    return words;
}
