/* refill.c: a call that runs only when a queue has run dry: in the branch of an 'if' that tests
 * a container for emptiness ('q.empty()', 'q.size() == 0') and fills that container in a loop
 * (itself or in a function of the unit it calls: a batch pushed), so that it runs once per
 * batch, not on every iteration of the loop that takes from the queue (context_cases.h). */
#include "ast.h"
#include "callgraph.h"
#include "common.h"
#include "context_cases.h"
#include "log.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

/* The member calls that add to a container. */
static const char *const fillers[] = {"push",         "push_back",     "push_front", "emplace",
                                      "emplace_back", "emplace_front", "insert"};

/* The variable or member whose member function the call 'e' calls, one of 'names'
 * ('q.size()': q), as its canonical declaration; a null cursor otherwise. */
static CXCursor member_object(CXCursor e, const char *const *names, size_t count)
{
    CXCursor none = clang_getNullCursor();
    e = ss_ast_strip(e);
    if (clang_getCursorKind(e) != CXCursor_CallExpr)
        return none;
    CXString s = clang_getCursorSpelling(e);
    const char *name = clang_getCString(s);
    int named = 0;
    for (size_t i = 0; name && i < count && !named; i++)
        named = strcmp(name, names[i]) == 0;
    clang_disposeString(s);
    CXCursor callee = ss_ast_child(e, 0);
    if (!named || clang_getCursorKind(callee) != CXCursor_MemberRefExpr ||
        ss_ast_child_count(callee) == 0)
        return none;
    CXCursor base = ss_ast_strip(ss_ast_child(callee, 0));
    enum CXCursorKind k = clang_getCursorKind(base);
    if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr)
        return none;
    CXCursor decl = clang_getCursorReferenced(base);
    return ss_ast_is_null(decl) ? none : clang_getCanonicalCursor(decl);
}

/* Whether 'e' is the constant 'value'. */
static int is_constant(CXCursor e, long long value)
{
    long long v;
    return ss_ast_eval_int(ss_ast_strip(e), &v) == 0 && v == value;
}

/* The container the condition 'cond' holds empty only: 'q.empty()', 'q.size() == 0' (either
 * way round), '!q.size()', 'q.size() < 1', or such a test as an operand of '&&'. A null
 * cursor when there is none. */
static CXCursor emptiness_test(CXCursor cond)
{
    static const char *const empty[] = {"empty"}, *const size[] = {"size"};
    CXCursor e = ss_ast_strip(cond), none = clang_getNullCursor();
    CXCursor found = member_object(e, empty, 1);
    if (!ss_ast_is_null(found))
        return found;
    char op[8];
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_UnaryOperator && ss_ast_child_count(e) == 1)
        return ss_ast_first_token_is(e, "!") ? member_object(ss_ast_child(e, 0), size, 1) : none;
    if (k != CXCursor_BinaryOperator || ss_ast_binary_op(e, op, sizeof op) != 0)
        return none;
    CXCursor l = ss_ast_child(e, 0), r = ss_ast_child(e, 1);
    if (strcmp(op, "&&") == 0) {
        found = emptiness_test(l);
        return ss_ast_is_null(found) ? emptiness_test(r) : found;
    }
    if (strcmp(op, "==") == 0 && is_constant(r, 0))
        return member_object(l, size, 1);
    if (strcmp(op, "==") == 0 && is_constant(l, 0))
        return member_object(r, size, 1);
    if (strcmp(op, "<") == 0 && is_constant(r, 1))
        return member_object(l, size, 1);
    return none;
}

/* A walk for a call that adds to 'container' inside a loop, in a statement and the functions
 * of the unit it calls (two calls down). */
typedef struct fill_walk {
    ss_callgraph *graph;
    CXCursor container;
    int loops; /* loops around the node visited */
    int depth;
    CXCursor found;
} fill_walk;

static enum CXChildVisitResult find_fill(CXCursor c, CXCursor parent, CXClientData data);

/* Visits 'c''s children with one more loop around them when 'c' is a loop. */
static void visit_inside(CXCursor c, fill_walk *w)
{
    int loop = ss_scope_is_loop(c);
    w->loops += loop;
    clang_visitChildren(c, find_fill, w);
    w->loops -= loop;
}

static enum CXChildVisitResult find_fill(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    fill_walk *w = data;
    if (clang_getCursorKind(c) == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        CXCursor object = member_object(c, fillers, sizeof fillers / sizeof fillers[0]);
        if (w->loops > 0 && !ss_ast_is_null(object) && clang_equalCursors(object, w->container)) {
            w->found = c;
            return CXChildVisit_Break;
        }
        CXCursor callee = ss_callgraph_callee(w->graph, c);
        if (!ss_ast_is_null(callee) && w->depth < 2) {
            int loops = w->loops;
            w->depth++;
            w->loops = 0; /* a loop around the call does not batch what the callee adds */
            visit_inside(callee, w);
            w->loops = loops;
            w->depth--;
        }
    }
    if (!ss_ast_is_null(w->found))
        return CXChildVisit_Break;
    visit_inside(c, w);
    return ss_ast_is_null(w->found) ? CXChildVisit_Continue : CXChildVisit_Break;
}

/* "line 46 tests 'ready' for emptiness, and the branch fills it in a loop ('push' at line 30)"
 * ("file.cu:46", "file.cu:30" with 'with_file') when 'at' is in the branch of an 'if' between
 * 'from' and 'at' whose condition holds only while a container is empty (emptiness_test) and
 * whose branch adds to it inside a loop (find_fill). Malloc'ed, or NULL. */
static char *refill_guard_words(ss_callgraph *graph, CXCursor from, CXCursor at, int with_file)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(from, at, path);
    char *words = NULL;
    for (long i = found - 1; i >= 0 && words == NULL; i--) {
        if (clang_getCursorKind(path[i]) != CXCursor_IfStmt)
            continue;
        /* The branch taken when the condition holds: the child right after it. */
        CXCursor branch = i + 1 < found ? path[i + 1] : at;
        CXCursor cond = clang_getNullCursor();
        unsigned n = ss_ast_child_count(path[i]), c = 0;
        for (; c < n && ss_ast_is_null(cond); c++) {
            if (clang_isExpression(clang_getCursorKind(ss_ast_child(path[i], c))))
                cond = ss_ast_child(path[i], c);
        }
        if (ss_ast_is_null(cond) || c >= n || !ss_ast_same_node(ss_ast_child(path[i], c), branch))
            continue;
        CXCursor container = emptiness_test(cond);
        if (ss_ast_is_null(container))
            continue;
        fill_walk w = {graph, container, 0, 0, clang_getNullCursor()};
        find_fill(branch, path[i], &w);
        if (ss_ast_is_null(w.found))
            continue;
        CXString name = clang_getCursorSpelling(container), fill = clang_getCursorSpelling(w.found);
        char *guard = with_file ? ss_callgraph_place(path[i])
                                : ss_xasprintf("line %u", ss_scope_line(path[i]));
        char *adds = with_file ? ss_callgraph_place(w.found)
                               : ss_xasprintf("line %u", ss_scope_line(w.found));
        words = ss_xasprintf("%s tests '%s' for emptiness, and the branch fills it in a loop ('%s' "
                             "at %s)",
                             guard, clang_getCString(name), clang_getCString(fill), adds);
        free(guard);
        free(adds);
        clang_disposeString(name);
        clang_disposeString(fill);
    }
    free(path);
    return words;
}

/* For ss_callgraph_reached_unless: a call under a refill guard is skipped. */
static int skip_refill_guarded(CXCursor from, CXCursor call, void *data)
{
    char *words = refill_guard_words(data, from, call, 0);
    free(words);
    return words != NULL;
}

char *ss_context_refill_guard_words(ss_check_ctx *ctx, CXCursor from, CXCursor at)
{
    char *guard = refill_guard_words(ss_check_graph(ctx), from, at, 0);
    char *words =
        guard ? ss_xasprintf("refill: it runs only when a queue it fills is empty (%s)", guard)
              : NULL;
    free(guard);
    return words;
}

/* "refill: it runs only when a queue it fills is empty (...): once per batch, ..." for a refill
 * guard between 'from' (a loop or a function) and the call 'at'. Malloc'ed, or NULL. */
static char *refill_here_words(ss_callgraph *graph, CXCursor from, CXCursor at)
{
    char *guard = refill_guard_words(graph, from, at, 0);
    char *words = guard ? ss_xasprintf("refill: it runs only when a queue it fills is empty (%s): "
                                       "once per batch, not on every iteration",
                                       guard)
                        : NULL;
    free(guard);
    return words;
}

char *ss_context_refill_here_words(ss_check_ctx *ctx, CXCursor at)
{
    return refill_here_words(ss_check_graph(ctx), ss_scope_outer_function(ctx->function), at);
}

char *ss_context_refill_words(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at)
{
    ss_callgraph *graph = ss_check_graph(ctx);
    char *words = refill_here_words(
        graph, loop->chain ? ss_scope_outer_function(ctx->function) : loop->loop, at);
    if (words || loop->chain == NULL)
        return words;
    char *guard = NULL;
    for (size_t i = 0; i < loop->call_count && guard == NULL; i++)
        guard = refill_guard_words(graph, loop->froms[i], loop->calls[i], 1);
    if (guard && !ss_callgraph_reached_unless(graph, ss_scope_outer_function(ctx->function),
                                              SS_SCOPE_ENQUEUES, skip_refill_guarded, graph))
        words = ss_xasprintf("refill: every call from a loop runs only when a queue it fills is "
                             "empty (%s): once per batch, not on every iteration",
                             guard);
    free(guard);
    return words;
}
