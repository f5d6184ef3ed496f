/* project_loops.c: a wait, a synchronous copy or an allocation in a function that another unit
 * calls from a loop (project_facts.h). The unit that defines the function keeps aside the
 * finding (SYNC401, SYNC202, SYNC402) its call would make if a loop called the function; the unit
 * with the loop records that it calls the function there; the project pass reports the finding
 * where some unit's loop calls the function. */
#include "ast.h"
#include "cache.h"
#include "callgraph.h"
#include "context_cases.h"
#include "log.h"
#include "project_facts.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

/* How far up the unit's call graph the functions another unit may call are looked for, how
 * many calls of one function are followed and how many functions one walk up visits, how many
 * such functions one wait is kept for, how
 * many loop calls and reaches one call records, and how many units the pass goes through from a
 * loop call to the function. */
enum {
    MAX_UP = 8,
    MAX_SITES = 256,
    MAX_STEPS = 512,
    MAX_ENTRIES = 16,
    MAX_RECORDS = 16,
    MAX_HOPS = 4,
    MAX_NEST = 4
};

/* ------------------------------------------------------------------------------------------
 * Virtual calls: a loop's call of a virtual method may run an override that another unit
 * defines. */

/* Whether 'method' is a virtual method of the project that a call may dispatch to from another
 * unit: outside the system headers, of no class template, no specialization of one. */
static int project_virtual(CXCursor method)
{
    if (clang_getCursorKind(method) != CXCursor_CXXMethod || !clang_CXXMethod_isVirtual(method) ||
        ss_ast_in_system_header(method) ||
        !ss_ast_is_null(clang_getSpecializedCursorTemplate(method)))
        return 0;
    enum CXCursorKind k = clang_getCursorKind(clang_getCursorSemanticParent(method));
    return k == CXCursor_ClassDecl || k == CXCursor_StructDecl;
}

/* Whether the declaration 'decl' (a method or a class) is marked final. */
static int is_final(CXCursor decl)
{
    for (unsigned i = 0; i < ss_ast_child_count(decl); i++) {
        if (clang_getCursorKind(ss_ast_child(decl, i)) == CXCursor_CXXFinalAttr)
            return 1;
    }
    return 0;
}

/* Whether the object expression 'base' of a member call names its object through a pointer or
 * a reference (where the object's class may be one that derives from the type named): a
 * pointer-typed expression ('p->f()', 'v[i]->f()'), or a variable, parameter or field declared
 * as a reference ('Base &b; b.f()'). An object itself ('Exact e; e.f()', 'objs[i].f()') is not. */
static int through_indirection(CXCursor base)
{
    base = ss_ast_strip(base);
    if (clang_getCanonicalType(clang_getCursorType(base)).kind == CXType_Pointer)
        return 1;
    enum CXCursorKind k = clang_getCursorKind(base);
    if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr)
        return 0;
    enum CXTypeKind t = clang_getCursorType(clang_getCursorReferenced(base)).kind;
    return t == CXType_LValueReference || t == CXType_RValueReference;
}

/* The USR of the virtual method of the project that 'call', in the function 'fn', calls
 * (malloc'ed), or NULL; '*dispatch' whether the call may run an override instead: it is made
 * through a pointer or reference, or on 'this' outside a constructor and destructor (which run
 * their own class's method), neither the method nor its class is final, and no qualifier names
 * the method ('p->Base::f()' calls that one). */
static char *virtual_callee(CXCursor call, CXCursor fn, int *dispatch)
{
    *dispatch = 0;
    if (clang_getCursorKind(call) != CXCursor_CallExpr)
        return NULL;
    CXCursor method = clang_getCursorReferenced(call);
    CXCursor callee = ss_ast_strip(ss_ast_child(call, 0));
    if (!project_virtual(method) || clang_getCursorKind(callee) != CXCursor_MemberRefExpr)
        return NULL;
    int qualified = 0;
    unsigned n = ss_ast_child_count(callee);
    for (unsigned i = 0; i < n; i++) {
        enum CXCursorKind q = clang_getCursorKind(ss_ast_child(callee, i));
        qualified |=
            q == CXCursor_TypeRef || q == CXCursor_NamespaceRef || q == CXCursor_TemplateRef;
    }
    enum CXCursorKind k = clang_getCursorKind(ss_scope_outer_function(fn));
    CXCursor base = n > 0 ? ss_ast_strip(ss_ast_child(callee, 0)) : clang_getNullCursor();
    int on_this = n == 0 || clang_getCursorKind(base) == CXCursor_CXXThisExpr ||
                  clang_getCursorKind(base) == CXCursor_TypeRef;
    int indirect =
        on_this ? k != CXCursor_Constructor && k != CXCursor_Destructor : through_indirection(base);
    *dispatch = indirect && !qualified && !is_final(method) &&
                !is_final(clang_getCursorSemanticParent(method));
    return ss_ast_usr(method);
}

/* Records in 'facts' that a virtual call of 'base' (and of every method it overrides) may run
 * 'usr', 'depth' levels up from it. Returns the qualified name of the method 'method'
 * overrides nearest (malloc'ed), or NULL when it overrides none. */
static char *add_overrides(ss_project_facts *facts, CXCursor method, const char *usr, int depth)
{
    CXCursor *bases = NULL;
    unsigned n = 0;
    char *nearest = NULL;
    clang_getOverriddenCursors(method, &bases, &n);
    for (unsigned i = 0; i < n && depth < MAX_UP; i++) {
        char *from = ss_ast_usr(bases[i]);
        int seen = from == NULL;
        for (size_t j = 0; !seen && j < facts->override_count; j++)
            seen = strcmp(facts->overrides[j].from, from) == 0 &&
                   strcmp(facts->overrides[j].to, usr) == 0;
        if (!seen) {
            ss_xgrow((void **)&facts->overrides, &facts->override_cap, facts->override_count + 1,
                     sizeof *facts->overrides);
            facts->overrides[facts->override_count].from = from;
            facts->overrides[facts->override_count++].to = ss_xstrdup(usr);
        } else {
            free(from);
        }
        if (nearest == NULL)
            nearest = ss_qualified_name(bases[i]);
        free(add_overrides(facts, bases[i], usr, depth + 1));
    }
    if (bases)
        clang_disposeOverriddenCursors(bases);
    return nearest;
}

/* For the definition 'fn' of a virtual method that another unit may reach through a virtual
 * call (defined out of its class, not inline): its USR (malloc'ed), after recording the methods
 * it overrides in the unit's facts; '*base' the one it overrides nearest (malloc'ed), or NULL.
 * NULL for any other function. */
static char *virtual_entry(ss_check_ctx *ctx, CXCursor fn, char **base)
{
    *base = NULL;
    ss_project_facts *facts = ss_project_unit_facts(ctx);
    if (facts == NULL || !project_virtual(fn) || !clang_isCursorDefinition(fn) ||
        clang_Cursor_isFunctionInlined(fn) || clang_getCursorLinkage(fn) != CXLinkage_External)
        return NULL;
    char *usr = ss_ast_usr(fn);
    if (usr)
        *base = add_overrides(facts, fn, usr, 0);
    return usr;
}

/* ------------------------------------------------------------------------------------------
 * The unit with the loop. */

/* Whether 'stmt' holds a call (or a launch) other than 'site' (a null cursor: any call). */
typedef struct other_call_walk {
    CXCursor site;
    int found;
} other_call_walk;

static enum CXChildVisitResult find_other_call(CXCursor c, CXCursor parent, CXClientData data)
{
    other_call_walk *w = data;
    if ((clang_getCursorKind(c) == CXCursor_CallExpr || ss_scope_is_launch(c)) &&
        (ss_ast_is_null(w->site) || !ss_ast_same_node(c, w->site))) {
        w->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static int calls_other(CXCursor stmt, CXCursor site)
{
    other_call_walk w = {site, 0};
    ss_ast_visit_whole(stmt, stmt, find_other_call, &w);
    return w.found;
}

/* The statement of the block that holds 'c' in the function 'fn': the innermost block the
 * program writes ('{ ... }', an error-checking macro's own block left out), or with 'outer'
 * the function's body. Sets '*block' and returns the statement's index, or -1. */
static long statement_of(CXCursor fn, CXCursor c, int outer, CXCursor *block)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(fn, c, path), index = -1;
    for (long k = 0; k < found && index < 0; k++) {
        long i = outer ? k : found - 1 - k;
        if (clang_getCursorKind(path[i]) != CXCursor_CompoundStmt ||
            (!outer && !ss_ast_written_as(path[i], "{")))
            continue;
        CXCursor stmt = i + 1 < found ? path[i + 1] : c;
        unsigned n = ss_ast_child_count(path[i]);
        for (unsigned s = 0; s < n && index < 0; s++) {
            if (ss_ast_same_node(ss_ast_child(path[i], s), stmt))
                index = s;
        }
        *block = path[i];
        break;
    }
    free(path);
    return index;
}

/* The wait that the statement 'wait' makes (its first synchronizing call), or a null cursor. */
static enum CXChildVisitResult find_wait_call(CXCursor c, CXCursor parent, CXClientData data)
{
    const ss_api *api = clang_getCursorKind(c) == CXCursor_CallExpr ? ss_scope_callee_api(c) : NULL;
    if (api && (api->klass == SS_CLASS_DEVICE_SYNC || api->klass == SS_CLASS_STREAM_SYNC)) {
        *(CXCursor *)data = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static CXCursor wait_call(CXCursor wait)
{
    CXCursor found = clang_getNullCursor();
    ss_ast_visit_whole(wait, wait, find_wait_call, &found);
    return found;
}

/* Whether the statement 'stmt' that makes the wait 'wait' does nothing else on the device: no
 * launch, no other API call that enqueues work, and no call of a function that is not the
 * unit's or that does device work (an error check's helper of the unit may come with it). */
typedef struct only_wait_walk {
    ss_callgraph *graph;
    CXCursor wait;
    int other;
} only_wait_walk;

static enum CXChildVisitResult find_beside_wait(CXCursor c, CXCursor parent, CXClientData data)
{
    only_wait_walk *w = data;
    if ((clang_getCursorKind(c) != CXCursor_CallExpr && !ss_scope_is_launch(c)) ||
        ss_ast_same_node(c, w->wait))
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    CXCursor callee = api ? clang_getNullCursor() : ss_callgraph_callee(w->graph, c);
    if (ss_context_call_enqueues(w->graph, c, api) || (api == NULL && ss_ast_is_null(callee))) {
        w->other = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static int only_waits(ss_callgraph *graph, CXCursor stmt, CXCursor wait)
{
    only_wait_walk w = {graph, wait, 0};
    ss_ast_visit_whole(stmt, stmt, find_beside_wait, &w);
    return !w.other;
}

/* What the statements right before the call 'site' (in 'fn') leave idle: the last of them
 * that waits (a device-wide wait, or a stream wait for an argument of 'site' as written), with
 * no call after it but 'site' itself ('c->idle_*'). */
static void idle_at_call(ss_callgraph *graph, CXCursor fn, CXCursor site, ss_loop_call *c)
{
    CXCursor block;
    long index = statement_of(fn, site, 0, &block);
    if (index < 0 || calls_other(ss_ast_child(block, (unsigned)index), site))
        return;
    for (long s = index - 1; s >= 0; s--) {
        CXCursor before = ss_ast_child(block, (unsigned)s);
        enum CXCursorKind k = clang_getCursorKind(before);
        CXCursor wait = ss_context_is_wait(before) ? wait_call(before) : clang_getNullCursor();
        if (!ss_ast_is_null(wait) && !only_waits(graph, before, wait))
            return;
        if (!ss_ast_is_null(wait)) {
            int n = clang_Cursor_getNumArguments(site);
            c->idle_device = ss_scope_callee_api(wait)->klass == SS_CLASS_DEVICE_SYNC;
            for (int i = 0; i < n && i < 32; i++) {
                char *text = ss_expr_text(clang_Cursor_getArgument(site, (unsigned)i));
                if (text && ss_context_waits_for_stream(wait, text))
                    c->idle_args |= 1u << i;
                free(text);
            }
            c->idle_line = c->idle_args || c->idle_device ? ss_scope_line(wait) : 0;
            return;
        }
        if (k == CXCursor_LabelStmt || k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt ||
            calls_other(before, clang_getNullCursor()))
            return;
    }
}

/* The calls of the function 'fn' in the unit (up to MAX_SITES) into '*calls', malloc'ed, and
 * the function each is made in into '*callers'. Returns how many (0 when its address is taken:
 * it may be called from anywhere). */
static long callers_of(ss_check_ctx *ctx, CXCursor fn, CXCursor **calls, CXCursor **callers)
{
    ss_callgraph *graph = ss_check_graph(ctx);
    *calls = *callers = NULL;
    long n = ss_callgraph_calls_of(graph, fn, NULL, NULL, 0);
    if (n <= 0)
        return 0;
    if (n > MAX_SITES)
        n = MAX_SITES;
    *calls = ss_xreallocarray(NULL, (size_t)n, sizeof **calls);
    *callers = ss_xreallocarray(NULL, (size_t)n, sizeof **callers);
    ss_callgraph_calls_of(graph, fn, *calls, *callers, (size_t)n);
    return n;
}

/* Why a wait that the call 'call' makes would be a note in its loop ('loop'): the loop runs
 * during set-up or teardown, times its iterations, sweeps a constant array, or the call runs
 * once in a while; NULL when none of these holds. Malloc'ed. */
static char *loop_note(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor call)
{
    char *why = NULL, *not_timed = NULL;
    if (ss_callgraph_sets_up(loop->function, &why)) {
        char *words = ss_xasprintf("set-up: the loop at line %u runs during set-up: %s",
                                   ss_scope_line(loop->loop), why);
        free(why);
        return words;
    }
    char *note = ss_context_teardown_words(ctx, loop);
    if (note == NULL)
        note = ss_context_timing_words(ctx, loop, call, &not_timed);
    free(not_timed);
    if (note == NULL)
        note = ss_context_bounded_words(ctx, loop, call);
    if (note == NULL)
        note = ss_context_periodic_words(ctx, loop, call);
    return note;
}

/* Whether the node 'path[i]' is a branch that the next node on the path runs on only sometimes:
 * an arm of an 'if' (not its condition), a 'switch' case, a '?:' arm, the right operand of '&&'
 * or '||', or a label's statement. */
static int branch_at(const CXCursor *path, long i, long found, CXCursor site)
{
    CXCursor next = i + 1 < found ? path[i + 1] : site;
    char op[4];
    switch (clang_getCursorKind(path[i])) {
    case CXCursor_IfStmt:
        return !ss_ast_same_node(ss_ast_child(path[i], 0), next);
    case CXCursor_ConditionalOperator:
    case CXCursor_BinaryOperator:
    case CXCursor_SwitchStmt:
        if (clang_getCursorKind(path[i]) == CXCursor_BinaryOperator &&
            (ss_ast_binary_op(path[i], op, sizeof op) != 0 ||
             (strcmp(op, "&&") != 0 && strcmp(op, "||") != 0)))
            return 0;
        return !ss_ast_same_node(ss_ast_child(path[i], 0), next);
    case CXCursor_CaseStmt:
    case CXCursor_DefaultStmt:
    case CXCursor_LabelStmt:
        return 1;
    default:
        return 0;
    }
}

/* Whether the condition 'cond' tests a flag: a variable, field or member of type bool, perhaps
 * negated, or joined by '&&' or '||' with anything ('if (rates_changed)', 'if (!g.isSource)'). */
static int flag_test(CXCursor cond)
{
    cond = ss_ast_strip(cond);
    enum CXCursorKind k = clang_getCursorKind(cond);
    char op[4];
    if (k == CXCursor_UnaryOperator && ss_ast_written_as(cond, "!"))
        return flag_test(ss_ast_child(cond, 0));
    if (k == CXCursor_BinaryOperator && ss_ast_binary_op(cond, op, sizeof op) == 0 &&
        (strcmp(op, "&&") == 0 || strcmp(op, "||") == 0))
        return flag_test(ss_ast_child(cond, 0)) || flag_test(ss_ast_child(cond, 1));
    return (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) &&
           clang_getCanonicalType(clang_getCursorType(cond)).kind == CXType_Bool;
}

/* The nodes from a function down to a call in it (ss_context_path): made once for each call on a
 * way up, for every_iteration and behind_flag. */
typedef struct site_path {
    CXCursor *nodes;
    long found;
} site_path;

/* Whether the call 'site' lies in a branch on a flag ('p': the path to it; branch_at,
 * flag_test): what the program sets once in a while ('if (spike_rates_changed)') or by
 * configuration. */
static int behind_flag(const site_path *p, CXCursor site)
{
    int flagged = 0;
    for (long i = 0; i < p->found && !flagged; i++) {
        enum CXCursorKind k = clang_getCursorKind(p->nodes[i]);
        flagged = (k == CXCursor_IfStmt || k == CXCursor_ConditionalOperator ||
                   k == CXCursor_BinaryOperator) &&
                  branch_at(p->nodes, i, p->found, site) && flag_test(ss_ast_child(p->nodes[i], 0));
    }
    return flagged;
}

/* Whether the call 'site' ('p': the path to it) runs on every iteration of the loop 'loop' around
 * it: no branch between the two (branch_at). */
static int every_iteration(const site_path *p, CXCursor loop, CXCursor site)
{
    int in = 0, every = p->found > 0;
    for (long i = 0; i < p->found && every; i++) {
        if (in && branch_at(p->nodes, i, p->found, site))
            every = 0;
        in |= ss_ast_same_node(p->nodes[i], loop);
    }
    return every && in;
}

/* How a way up the call graph went (walk_up): past a loop (WAY_OUTER), through a call in a
 * branch on a flag (WAY_FLAGGED, behind_flag), through a call under a guard that makes a SYNC402
 * call rare (WAY_GUARDED, ss_context_alloc_guard_words); and, for one loop call, whether the call
 * runs on every iteration of its loop, no flag on the way (WAY_EVERY, every_iteration). */
enum { WAY_OUTER = 1, WAY_FLAGGED = 2, WAY_EVERY = 4, WAY_GUARDED = 8 };

/* Records that the loop 'loop' of 'fn' calls, at 'site', what leads to the function 'usr'
 * ('way': how the way up came there, WAY_*). Returns whether the loop does no device work in
 * the unit and gives no reason for a note (the way up goes on). */
static int add_loop_call(ss_check_ctx *ctx, ss_project_facts *facts, CXCursor loop, CXCursor fn,
                         CXCursor site, const char *usr, int virtual_call, int way)
{
    ss_loop_context lc;
    memset(&lc, 0, sizeof lc);
    lc.loop = loop;
    lc.work = site;
    lc.via = clang_getNullCursor();
    lc.function = ss_scope_outer_function(fn);
    CXCursor work, via;
    ss_callgraph *graph = ss_check_graph(ctx); /* built before 'at_loop' copies 'ctx' */
    ss_xgrow((void **)&facts->loop_calls, &facts->loop_call_cap, facts->loop_call_count + 1,
             sizeof *facts->loop_calls);
    ss_loop_call *c = &facts->loop_calls[facts->loop_call_count++];
    memset(c, 0, sizeof *c);
    c->usr = ss_xstrdup(usr);
    c->virtual_call = virtual_call;
    c->outer = (way & WAY_OUTER) != 0;
    c->every = (way & WAY_EVERY) != 0;
    c->guarded = (way & WAY_GUARDED) != 0;
    c->callee = ss_qualified_name(clang_getCursorReferenced(site));
    c->place = ss_callgraph_place(loop);
    c->caller = ss_qualified_name(lc.function);
    ss_check_ctx at_loop = *ctx;
    at_loop.function = fn;
    c->note = loop_note(&at_loop, &lc, site);
    c->enqueues = ss_callgraph_loop_work(graph, loop, SS_SCOPE_ENQUEUES, site, &work, &via);
    char *called = ss_project_declared_only(site);
    int dispatch = 0;
    if (called == NULL)
        called = virtual_callee(site, fn, &dispatch);
    c->direct = called && strcmp(called, usr) == 0;
    c->site_line = ss_scope_line(site);
    if (c->direct) {
        idle_at_call(graph, lc.function, site, c);
        c->timed = ss_context_timed_by_callee(&at_loop, loop, usr);
    }
    free(called);
    return !c->enqueues && c->note == NULL;
}

/* Records that 'from' (a function another unit may call) reaches 'to' (one the unit only
 * declares), 'guarded' where the way passes a guard that makes a SYNC402 call rare. */
static void add_reach(ss_project_facts *facts, char *from, const char *to, int guarded)
{
    size_t n = facts->reach_count;
    ss_xgrow((void **)&facts->reaches, &facts->reach_cap, n + 1, sizeof *facts->reaches);
    ss_xgrow((void **)&facts->reach_guarded, &facts->reach_guarded_cap, n + 1,
             sizeof *facts->reach_guarded);
    facts->reaches[n].from = from;
    facts->reaches[n].to = ss_xstrdup(to);
    facts->reach_guarded[n] = guarded;
    facts->reach_count = n + 1;
}

/* From the call 'site' in 'fn', which leads to the function 'usr' the unit only declares, up the
 * unit's call graph: a loop around it is a loop call, and ends the way up there unless it does
 * no device work in the unit and gives no reason for a note (the loops around it are then outer
 * loop calls, up to MAX_NEST in a function); a function another unit may call reaches 'usr'
 * (not once past a loop). 'budget' bounds what is recorded and what is visited; 'way' says how
 * the way up came to 'site' (WAY_*). */
static void walk_up(ss_check_ctx *ctx, ss_project_facts *facts, CXCursor fn, CXCursor site,
                    const char *usr, int virtual_call, int depth, int *budget, int way)
{
    if (*budget <= 0 || --budget[1] <= 0)
        return;
    CXCursor loops[MAX_NEST], top = ss_scope_outer_function(fn);
    size_t nest = ss_scope_enclosing_loops(fn, site, loops, MAX_NEST);
    char *guard = (way & WAY_GUARDED) ? NULL : ss_context_alloc_guard_words(ctx, fn, site);
    way |= guard ? WAY_GUARDED : 0;
    free(guard);
    site_path p = {ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof(CXCursor)), 0};
    p.found = ss_context_path(top, site, p.nodes);
    int on = 1;
    for (size_t i = 0; i < nest && on; i++, way |= WAY_OUTER) {
        int every = !(way & WAY_FLAGGED) && every_iteration(&p, loops[i], site);
        on = add_loop_call(ctx, facts, loops[i], fn, site, usr, virtual_call,
                           way | (every ? WAY_EVERY : 0));
        on = --*budget > 0 && on && i + 1 < MAX_NEST;
    }
    if (on && behind_flag(&p, site))
        way |= WAY_FLAGGED;
    free(p.nodes);
    if (!on)
        return;
    char *from = way & WAY_OUTER ? NULL : ss_project_stream_param_usr(top);
    if (from) {
        add_reach(facts, from, usr, (way & WAY_GUARDED) != 0);
        --*budget;
    }
    CXCursor *calls, *callers;
    long n = depth < MAX_UP ? callers_of(ctx, top, &calls, &callers) : 0;
    /* A call of the function by itself leads to the same callers: only its loops count. */
    for (long i = 0; i < n; i++)
        walk_up(ctx, facts, callers[i], calls[i], usr, virtual_call,
                clang_equalCursors(ss_scope_outer_function(callers[i]), top) ? MAX_UP : depth + 1,
                budget, way);
    if (n > 0) {
        free(calls);
        free(callers);
    }
}

void ss_project_record_loop_call(ss_check_ctx *ctx, CXCursor call)
{
    ss_project_facts *facts = ss_project_unit_facts(ctx);
    if (facts == NULL || ss_ast_is_null(ctx->function))
        return;
    /* A call in a lambda is in the loops around the lambda, as for the unit's own functions. */
    char *usr = ss_project_declared_only(call);
    int virtual_call = 0;
    if (usr == NULL)
        usr = virtual_callee(call, ctx->function, &virtual_call);
    int budget[2] = {MAX_RECORDS, MAX_STEPS}; /* records, functions visited */
    if (usr)
        walk_up(ctx, facts, ctx->function, call, usr, virtual_call, 0, budget, 0);
    free(usr);
}

/* ------------------------------------------------------------------------------------------
 * The unit with the wait. */

/* "kernel 'flux' is launched at line 7" or "'cudaMemcpyAsync' enqueues work at line 7" for the
 * first work in 'function', else "in the functions it calls". Malloc'ed. */
static char *work_words(CXCursor function)
{
    CXCursor first = clang_getNullCursor();
    if (!ss_scope_has_work(function, SS_SCOPE_ENQUEUES, &first) || ss_ast_is_null(first))
        return ss_xstrdup("in the functions it calls");
    char *name =
        ss_scope_is_launch(first) ? ss_scope_kernel_name(first) : ss_scope_callee_name(first);
    char *words = ss_scope_is_launch(first)
                      ? ss_xasprintf("kernel '%s' is launched at line %u", name ? name : "...",
                                     ss_scope_line(first))
                      : ss_xasprintf("'%s' enqueues work at line %u", name ? name : "...",
                                     ss_scope_line(first));
    free(name);
    return words;
}

/* Where the wait 'call' (of 'api') in 'fn' comes before any device work of 'fn': a statement
 * of its body that waits and does nothing else on the device (only_waits; for a call of
 * another unit's wait, 'wrapper', the statement is that call alone), after statements that
 * call nothing, do not name the stream it waits for and are no labels: SS_START_DEVICE for a
 * device-wide wait, the index of the parameter it waits for (as written); else SS_START_NONE. */
static int start_of(ss_callgraph *graph, CXCursor fn, CXCursor call, const ss_api *api, int wrapper)
{
    CXCursor body, param = clang_getNullCursor();
    long index = statement_of(fn, call, 1, &body);
    CXCursor stmt = index < 0 ? clang_getNullCursor() : ss_ast_child(body, (unsigned)index);
    if (index < 0 ||
        (wrapper ? !ss_ast_same_node(ss_ast_strip(stmt), call)
                 : !ss_context_is_wait(stmt) || !ss_ast_same_node(wait_call(stmt), call) ||
                       !only_waits(graph, stmt, call)))
        return SS_START_NONE;
    int start = api->klass == SS_CLASS_DEVICE_SYNC ? SS_START_DEVICE : SS_START_NONE;
    if (api->klass == SS_CLASS_STREAM_SYNC && api->stream_arg >= 0 &&
        clang_Cursor_getNumArguments(call) > api->stream_arg) {
        CXCursor arg = ss_ast_strip(clang_Cursor_getArgument(call, (unsigned)api->stream_arg));
        param = clang_getCursorKind(arg) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(arg)
                                                                 : param;
        for (int i = 0; i < clang_Cursor_getNumArguments(fn) && !ss_ast_is_null(param); i++) {
            if (clang_equalCursors(clang_Cursor_getArgument(fn, (unsigned)i), param))
                start = i;
        }
    }
    for (long s = 0; s < index && start != SS_START_NONE; s++) {
        CXCursor before = ss_ast_child(body, (unsigned)s);
        if (clang_getCursorKind(before) == CXCursor_LabelStmt ||
            calls_other(before, clang_getNullCursor()) ||
            (start >= 0 && ss_context_mentions(before, param)))
            start = SS_START_NONE;
    }
    return start;
}

/* Records, for the finding kept aside last, where its wait comes before any device work
 * ('start') and the USR of the function of another unit it is a call of ('wait', copied; NULL
 * for a CUDA wait). */
static void set_called(ss_project_facts *facts, int start, const char *wait)
{
    size_t n = facts->called->count;
    ss_xgrow((void **)&facts->called_starts, &facts->called_start_cap, n,
             sizeof *facts->called_starts);
    ss_xgrow((void **)&facts->called_waits, &facts->called_wait_cap, n,
             sizeof *facts->called_waits);
    facts->called_starts[n - 1] = start;
    facts->called_waits[n - 1] = wait ? ss_xstrdup(wait) : NULL;
}

/* Records, for the finding kept aside last, the parameters its kernel writes through and words
 * for them (taken; ss_project_output_params). */
static void set_outputs(ss_project_facts *facts, unsigned outputs, char *words)
{
    size_t n = facts->called->count;
    ss_xgrow((void **)&facts->called_outputs, &facts->called_output_cap, n,
             sizeof *facts->called_outputs);
    ss_xgrow((void **)&facts->called_output_words, &facts->called_output_word_cap, n,
             sizeof *facts->called_output_words);
    facts->called_outputs[n - 1] = outputs;
    facts->called_output_words[n - 1] = words;
}

/* Records, for the finding kept aside last, where the function another unit calls reads a
 * clock (taken; ss_context_clock_words), or NULL. */
static void set_clock(ss_project_facts *facts, char *clock)
{
    size_t n = facts->called->count;
    ss_xgrow((void **)&facts->called_clocks, &facts->called_clock_cap, n,
             sizeof *facts->called_clocks);
    facts->called_clocks[n - 1] = clock;
}

/* Whether nothing after 'node' in 'fn' may queue device work: no statement after it in the
 * blocks around it, and no loop around it (a later iteration runs after it). */
static int nothing_after(ss_check_ctx *ctx, CXCursor fn, CXCursor node)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(fn, node, path);
    int last = found > 0;
    for (long i = 0; i < found && last; i++) {
        CXCursor child = i + 1 < found ? path[i + 1] : node;
        enum CXCursorKind k = clang_getCursorKind(path[i]);
        last = k != CXCursor_ForStmt && k != CXCursor_WhileStmt && k != CXCursor_DoStmt &&
               k != CXCursor_CXXForRangeStmt && k != CXCursor_LambdaExpr;
        for (unsigned s = 0, after = 0, n = ss_ast_child_count(path[i]);
             last && k == CXCursor_CompoundStmt && s < n; s++) {
            CXCursor stmt = ss_ast_child(path[i], s);
            if (after && ss_context_queues_work(ss_check_graph(ctx), stmt))
                last = 0;
            after |= ss_ast_same_node(stmt, child);
        }
    }
    free(path);
    return last;
}

/* Whether, on every way from 'entry' (the function another unit calls) down to 'node' in 'fn',
 * nothing after it queues device work (nothing_after, at each call up to 'entry'): 1; 0 where
 * some way has work after it, or is not seen whole ('depth' calls up at most); -1 where 'fn' is
 * not reached from 'entry'. */
static int last_work(ss_check_ctx *ctx, CXCursor fn, CXCursor node, CXCursor entry, int depth)
{
    CXCursor top = ss_scope_outer_function(fn);
    if (clang_equalCursors(top, entry))
        return nothing_after(ctx, fn, node);
    CXCursor *calls, *callers;
    long n = depth > 0 ? callers_of(ctx, top, &calls, &callers) : 0;
    if (depth <= 0)
        return 0;
    int way = -1;
    for (long i = 0; i < n && way != 0; i++) {
        int r = last_work(ctx, callers[i], calls[i], entry, depth - 1);
        way = r == 0 ? 0 : r == 1 ? 1 : way;
    }
    if (n > 0) {
        free(calls);
        free(callers);
    }
    return way == 1 && !nothing_after(ctx, fn, node) ? 0 : way;
}

/* Where the wait is, what it is and who reaches it: the call 'call', of 'api' (or of the
 * function of another unit 'wrapper', a USR, under that row's name) in the function 'fn'; the
 * parameters of 'fn' its kernel writes through, and words for them (ss_project_output_params);
 * the rule: SYNC401 for a wait, SYNC202 for a synchronous copy, SYNC402 for an allocation or
 * another call that synchronizes the whole device ('hint' its fix). */
typedef struct wait_site {
    CXCursor call, fn;
    const ss_api *api;
    const char *wrapper;
    unsigned outputs;
    const char *output_words;
    ss_rule_id rule;
    const char *hint;
} wait_site;

/* The message of the finding the wait, copy or allocation 'at' makes on every call of 'entry'
 * ('chain': how the call's function is reached from it; 'base': the method it overrides, or
 * NULL). */
static char *aside_message(const wait_site *at, CXCursor entry, const char *chain, const char *base)
{
    char *name = ss_qualified_name(entry);
    char *overrides = base ? ss_xasprintf(" (an override of '%s()')", base) : NULL;
    char *message;
    if (at->rule == SS_RULE_SYNC_COPY_IN_PIPELINE) {
        message = ss_xasprintf("synchronous copy '%s' in %s blocks the host on every call of "
                               "'%s()'%s until the device has finished the work queued before "
                               "it: copies and kernels never overlap",
                               at->api->name, chain, name ? name : "?", overrides ? overrides : "");
    } else if (at->rule == SS_RULE_DEVICE_WIDE_SYNC_CALL) {
        message = ss_xasprintf("'%s' in %s synchronizes the whole device on every call of '%s()'%s",
                               at->api->name, chain, name ? name : "?", overrides ? overrides : "");
    } else {
        char *work = work_words(entry);
        message =
            ss_xasprintf("'%s' in %s blocks the host on every call of '%s()'%s, which "
                         "also enqueues device work (%s): the GPU drains and idles while "
                         "the host catches up",
                         at->api->name, chain, name ? name : "?", overrides ? overrides : "", work);
        free(work);
    }
    free(overrides);
    free(name);
    return message;
}

/* Keeps aside, for the function 'entry' (its USR 'usr') that another unit may call, the
 * finding the wait 'at' makes on every call of it ('chain': how the wait's function is
 * reached from it), its context applied as for a call in a loop (ctx->loop_elsewhere); 'guard':
 * the words of a guard on that way that makes the wait rare (ctx->elsewhere_guard), or NULL. */
static void keep_aside(ss_check_ctx *ctx, const wait_site *at, CXCursor entry, const char *chain,
                       const char *usr, int start, const char *base, const char *guard)
{
    CXCursor call = at->call;
    int wait = at->rule == SS_RULE_SYNC_IN_LOOP;
    char *message = aside_message(at, entry, chain, base);
    ss_result aside;
    ss_result_init(&aside, SS_RESULT_LINT);
    ss_result *result = ctx->result;
    ctx->result = &aside;
    ctx->loop_elsewhere = 1;
    ctx->elsewhere_guard = guard;
    ss_check_report(ctx, at->rule, call, message,
                    at->hint ? at->hint
                    : !wait  ? "use the Async variant on the pipeline's stream, with pinned host "
                               "memory, and synchronize only where the result is needed"
                             : "synchronize once after the loop that calls it, or let the next "
                               "step wait on the device (cudaEventRecord + cudaStreamWaitEvent); "
                               "a check that drains the device after every kernel belongs behind "
                               "a debugging switch");
    ctx->loop_elsewhere = 0;
    ctx->elsewhere_guard = NULL;
    ctx->result = result;
    ss_project_facts *facts = ss_project_unit_facts(ctx);
    if (aside.count == 1 && facts) {
        ss_finding *f = ss_project_add_called(facts, usr);
        set_called(facts, start, at->wrapper);
        /* Only where the function another unit calls is the wait's own. */
        int own = clang_equalCursors(entry, at->fn);
        set_outputs(facts, own ? at->outputs : 0,
                    own && at->output_words ? ss_xstrdup(at->output_words) : NULL);
        /* A timer's wait that more device work of the same call follows (a stage's timer
         * between launches) drains the device within the iteration: no measurement's note. */
        set_clock(facts, wait && last_work(ctx, at->fn, call, entry, MAX_UP) == 1
                             ? ss_context_clock_words(ctx, entry)
                             : NULL);
        *f = aside.findings[0];
        memset(&aside.findings[0], 0, sizeof aside.findings[0]);
    }
    ss_result_free(&aside);
    free(message);
}

/* A function on the way up from a wait: how the wait's function is reached from it, and the
 * words of the first guard on that way that makes the wait rare (ss_context_way_guard_words),
 * or NULL. */
typedef struct way_up {
    CXCursor fn;
    char *chain;
    int depth;
    char *guard;
} way_up;

/* Adds 'fn' to the walk 'ways' ('*count' of them, MAX_STEPS at most) unless it is there; takes
 * 'chain' and 'guard' (the words of the first way found: whether a way without a guard reaches
 * the wait from 'fn' too is unguarded_ways's to say). */
static void add_way(way_up *ways, size_t *count, CXCursor fn, char *chain, int depth, char *guard)
{
    for (size_t i = 0; i < *count; i++) {
        if (clang_equalCursors(ways[i].fn, fn)) {
            free(chain);
            free(guard);
            return;
        }
    }
    if (*count == MAX_STEPS) {
        free(chain);
        free(guard);
        return;
    }
    ways[(*count)++] = (way_up){fn, chain, depth, guard};
}

/* Adds to the walk 'ways' the functions of the unit that call 'ways[w].fn' (add_way), each with
 * its chain; for a call of SYNC402's, not a call under a guard that makes it rare
 * (ss_context_alloc_guard_words): what runs only when a buffer grows does not run on every
 * iteration of the loop above it. For another finding, a call under a lazy or grow guard
 * (ss_context_way_guard_words) gives the way its words, which make the finding a note. */
static void add_callers(ss_check_ctx *ctx, const wait_site *at, way_up *ways, size_t *count,
                        size_t w)
{
    CXCursor *calls, *callers;
    long n = ways[w].depth < MAX_UP ? callers_of(ctx, ways[w].fn, &calls, &callers) : 0;
    for (long i = 0; i < n; i++) {
        int alloc = at->rule == SS_RULE_DEVICE_WIDE_SYNC_CALL;
        char *guard = alloc ? ss_context_alloc_guard_words(ctx, callers[i], calls[i]) : NULL;
        if (guard) {
            free(guard);
            continue;
        }
        char *name = ss_qualified_name(callers[i]);
        char *way_guard = ways[w].guard ? ss_xstrdup(ways[w].guard)
                          : alloc       ? NULL
                                        : ss_context_way_guard_words(ctx, callers[i], calls[i]);
        add_way(ways, count, callers[i],
                ss_xasprintf("%s called from '%s()'", ways[w].chain, name ? name : "?"),
                ways[w].depth + 1, way_guard);
        free(name);
    }
    if (n > 0) {
        free(calls);
        free(callers);
    }
}

/* Looks for the functions another unit may call from which the wait's function 'fn' is
 * reached, up the unit's call graph, nearest first (each function once), and keeps the finding
 * aside for them (MAX_ENTRIES at most): for a wait, each that does device work; for a copy or a
 * SYNC402 call, each, whether or not it does. */
/* The functions of the unit from which the wait's function 'at->fn' is reached through calls
 * none of which is under a guard (ss_context_way_guard_words), up the call graph as
 * add_callers goes (MAX_UP calls, MAX_STEPS functions): one of them reaches the wait on some
 * way without a guard, whatever the order in which the ways are found. Sets '*cut' where the
 * walk stopped at MAX_STEPS. Returns their number; '*out' the functions (malloc'ed). */
static size_t unguarded_ways(ss_check_ctx *ctx, const wait_site *at, CXCursor **out, int *cut)
{
    CXCursor *fns = ss_xreallocarray(NULL, MAX_STEPS, sizeof *fns);
    int *depth = ss_xreallocarray(NULL, MAX_STEPS, sizeof *depth);
    size_t count = 1;
    fns[0] = at->fn;
    depth[0] = 0;
    *cut = 0;
    for (size_t w = 0; w < count; w++) {
        CXCursor *calls, *callers;
        long n = depth[w] < MAX_UP ? callers_of(ctx, fns[w], &calls, &callers) : 0;
        for (long i = 0; i < n; i++) {
            size_t k = 0;
            while (k < count && !clang_equalCursors(fns[k], callers[i]))
                k++;
            char *guard = k < count ? NULL : ss_context_way_guard_words(ctx, callers[i], calls[i]);
            if (k < count || guard) {
                free(guard);
                continue;
            }
            if (count == MAX_STEPS) {
                *cut = 1;
                continue;
            }
            fns[count] = callers[i];
            depth[count++] = depth[w] + 1;
        }
        if (n > 0) {
            free(calls);
            free(callers);
        }
    }
    free(depth);
    *out = fns;
    return count;
}

/* The guard words of the way 'way' for keep_aside: its words where no way without a guard
 * reaches the wait from its function ('unguarded', 'count' of them; 'cut': that list is not
 * whole, so no guard is taken), else NULL. */
static const char *way_guard(const way_up *way, const CXCursor *unguarded, size_t count, int cut)
{
    if (way->guard == NULL || cut)
        return NULL;
    for (size_t i = 0; i < count; i++) {
        if (clang_equalCursors(unguarded[i], way->fn))
            return NULL;
    }
    return way->guard;
}

static void find_entries(ss_check_ctx *ctx, const wait_site *at, char *chain)
{
    CXCursor fn = at->fn;
    ss_callgraph *graph = ss_check_graph(ctx);
    way_up *ways = ss_xreallocarray(NULL, MAX_STEPS, sizeof *ways);
    size_t count = 0, open_count = 0;
    int kept = 0, cut = 0;
    CXCursor *open = NULL;
    add_way(ways, &count, fn, chain, 0, NULL);
    for (size_t w = 0; w < count && kept < MAX_ENTRIES; w++) {
        char *usr = ss_project_stream_param_usr(ways[w].fn), *base = NULL;
        /* A copy or an allocation waits for what the loop queues: the pass asks that of the
         * loop. */
        int works = at->rule != SS_RULE_SYNC_IN_LOOP ||
                    ss_callgraph_does_work(graph, ways[w].fn, SS_SCOPE_ENQUEUES);
        if (usr == NULL && works)
            usr = virtual_entry(ctx, ways[w].fn, &base);
        if (usr && works && ways[w].guard && open == NULL)
            open_count = unguarded_ways(ctx, at, &open, &cut);
        if (usr && works) {
            keep_aside(ctx, at, ways[w].fn, ways[w].chain, usr,
                       w == 0 && at->rule == SS_RULE_SYNC_IN_LOOP
                           ? start_of(graph, fn, at->call, at->api, at->wrapper != NULL)
                           : SS_START_NONE,
                       base, way_guard(&ways[w], open, open_count, cut));
            kept++;
        }
        free(usr);
        free(base);
        add_callers(ctx, at, ways, &count, w);
    }
    for (size_t w = 0; w < count; w++) {
        free(ways[w].chain);
        free(ways[w].guard);
    }
    free(ways);
    free(open);
}

/* find_entries for the function 'at->fn' itself, named as the chain's start. */
static void find_entries_of(ss_check_ctx *ctx, const wait_site *at)
{
    char *name = ss_qualified_name(at->fn);
    find_entries(ctx, at, ss_xasprintf("'%s()'", name ? name : "?"));
    free(name);
}

/* Whether a finding of ctx->function may be kept aside for another unit's loops: the run keeps
 * project facts, and the call is in a named function (a lambda's runs where it is called). */
static int may_keep_aside(ss_check_ctx *ctx)
{
    return ss_project_unit_facts(ctx) != NULL && !ss_ast_is_null(ctx->function) &&
           clang_getCursorKind(ctx->function) != CXCursor_LambdaExpr;
}

void ss_project_loop_wait(ss_check_ctx *ctx, CXCursor call, const ss_api *api)
{
    if (!may_keep_aside(ctx))
        return;
    /* A call of a function the unit only declares, checked as a cudaDeviceSynchronize
     * (ss_check_wrapper_wait): kept aside too, for the pass to report only where another unit
     * summarized that function as a wait for the whole device. */
    int direct = ss_scope_callee_api(call) == api;
    char *wrapper =
        direct || api->klass != SS_CLASS_DEVICE_SYNC ? NULL : ss_project_declared_only(call);
    if (!direct && wrapper == NULL)
        return;
    wait_site at = {.call = call,
                    .fn = ss_scope_outer_function(ctx->function),
                    .api = api,
                    .wrapper = wrapper,
                    .rule = SS_RULE_SYNC_IN_LOOP};
    char *output_words = NULL;
    if (direct)
        at.outputs = ss_project_output_params(ctx, at.fn, call, api, &output_words);
    at.output_words = output_words;
    find_entries_of(ctx, &at);
    free(wrapper);
    free(output_words);
}

void ss_project_loop_copy(ss_check_ctx *ctx, CXCursor call, const ss_api *api)
{
    if (!may_keep_aside(ctx))
        return;
    wait_site at = {.call = call,
                    .fn = ss_scope_outer_function(ctx->function),
                    .api = api,
                    .rule = SS_RULE_SYNC_COPY_IN_PIPELINE};
    find_entries_of(ctx, &at);
}

void ss_project_loop_alloc(ss_check_ctx *ctx, CXCursor call, const ss_api *api, const char *hint)
{
    if (!may_keep_aside(ctx))
        return;
    wait_site at = {.call = call,
                    .fn = ss_scope_outer_function(ctx->function),
                    .api = api,
                    .rule = SS_RULE_DEVICE_WIDE_SYNC_CALL,
                    .hint = hint};
    /* A guard in its own function that makes it rare: not per iteration of any loop. */
    char *guard = ss_context_alloc_guard_words(ctx, at.fn, call);
    if (guard == NULL)
        find_entries_of(ctx, &at);
    free(guard);
}

/* ------------------------------------------------------------------------------------------
 * The project pass. */

/* Whether the wait of a finding kept aside for 'usr' ('start': where it comes before any
 * device work, ss_loop_call) has nothing to wait for where the loop call 'c' calls it: the
 * call is the function's own and the statements right before it waited for the stream it is
 * given, or for the device. */
static int idle_for(const ss_loop_call *c, const char *usr, int start)
{
    if (!c->direct || c->idle_line == 0 || strcmp(c->usr, usr) != 0)
        return 0;
    return start == SS_START_DEVICE ? c->idle_device
                                    : start >= 0 && start < 32 && (c->idle_args >> start & 1u);
}

/* What a finding needs to find its loop call: the function's USR and where its wait comes
 * before any device work (the finding's 'start'). */
typedef struct loop_call_query {
    const char *usr;
    int start;
    const char *clock; /* where the function reads a clock, or NULL (called_clocks) */
    /* A synchronous copy's finding (SYNC202) or an allocation's (SYNC402, 'rule'): its loop must
     * queue work. */
    int copy;
    ss_rule_id rule;
} loop_call_query;

/* Whether the loop call 'c' is timed by the function it calls ('q->usr', which reads a clock):
 * its loop is then timed as ss_context_timing_words finds a loop in one unit timed. */
static int timed_for(const ss_loop_call *c, const loop_call_query *q)
{
    return c->timed && c->direct && q->clock && strcmp(c->usr, q->usr) == 0;
}

/* Whether the loop call 'c' would make the finding a note. */
static int quiet(const ss_loop_call *c, const loop_call_query *q)
{
    return c->note != NULL || idle_for(c, q->usr, q->start) || timed_for(c, q);
}

/* A loop call the pass found for a finding, and whether the way to it went through a virtual
 * call (an override's method called virtually: which override runs is decided at run time). */
typedef struct found_call {
    const ss_loop_call *c;
    int virtual_way;
    const ss_loop_call *via; /* for a copy: the loop call its loop works through (loop_works) */
} found_call;

/* Whether a unit of the run defines the function 'usr' and it does device work there, or through
 * a function of another unit that it calls or reaches ('crosses', 'reaches'; up to MAX_HOPS
 * units; not taken to work past that). */
static int works_in_run(ss_project_facts *const *facts, size_t count, const char *usr, int depth)
{
    for (size_t u = 0; u < count; u++) {
        for (size_t i = 0; facts[u] && i < facts[u]->working_count; i++) {
            if (strcmp(facts[u]->working[i], usr) == 0)
                return 1;
        }
    }
    for (size_t u = 0; u < count && depth < MAX_HOPS; u++) {
        for (size_t i = 0; facts[u] && i < facts[u]->cross_count; i++) {
            if (strcmp(facts[u]->crosses[i].from, usr) == 0 &&
                works_in_run(facts, count, facts[u]->crosses[i].to, depth + 1))
                return 1;
        }
        for (size_t i = 0; facts[u] && i < facts[u]->reach_count; i++) {
            if (strcmp(facts[u]->reaches[i].from, usr) == 0 &&
                strcmp(facts[u]->reaches[i].to, usr) != 0 &&
                works_in_run(facts, count, facts[u]->reaches[i].to, depth + 1))
                return 1;
        }
    }
    return 0;
}

/* Whether the loop of the loop call 'c' (of the unit 'u') queues device work: in its unit, or
 * through a call (a loop call of the same loop, not virtual) of a function of another unit that
 * does ('*via' that loop call; NULL for work in the unit). */
static int loop_works(ss_project_facts *const *facts, size_t count, size_t u, const ss_loop_call *c,
                      const ss_loop_call **via)
{
    *via = NULL;
    if (c->enqueues)
        return 1;
    /* A call the loop makes itself first (the message names it), then one on the way to it. */
    for (int direct = 1; direct >= 0; direct--) {
        for (size_t i = 0; i < facts[u]->loop_call_count; i++) {
            const ss_loop_call *s = &facts[u]->loop_calls[i];
            if (s->direct == direct && !s->virtual_call && strcmp(s->place, c->place) == 0 &&
                (s->caller && c->caller ? strcmp(s->caller, c->caller) == 0
                                        : s->caller == c->caller) &&
                works_in_run(facts, count, s->usr, 0)) {
                *via = s;
                return 1;
            }
        }
    }
    return 0;
}

/* Whether the loop call 'c', found by a way through a virtual call or not, would make the
 * finding a note. */
static int noted(const ss_loop_call *c, int virtual_way, const loop_call_query *q)
{
    return virtual_way || c->virtual_call || quiet(c, q);
}

/* The loop call that the pass names for 'usr': one of 'usr' itself, or of a function that
 * reaches it ('reaches' facts, up to MAX_HOPS units), or of a method it overrides ('overrides'
 * facts; 'virtual_way' once the way took one: then only calls that dispatch, and no reaches);
 * the first, in the run's order, that gives no
 * reason for a note, else the first. '*better' carries the best found so far. Loop calls of
 * the unit 'skip' are passed over. */
static void find_loop_call(ss_project_facts *const *facts, size_t count, const char *usr, int depth,
                           const loop_call_query *q, found_call *better, size_t skip,
                           int virtual_way)
{
    for (size_t u = 0; u < count; u++) {
        for (size_t i = 0; facts[u] && u != skip && i < facts[u]->loop_call_count; i++) {
            const ss_loop_call *c = &facts[u]->loop_calls[i], *via = NULL;
            /* Through an override, only a call that dispatches runs it. A loop around a quiet
             * loop counts for a copy only, and a copy only in a loop that queues work; a SYNC402
             * call not where a guard on the way makes it rare. */
            if ((virtual_way && !c->virtual_call) || strcmp(c->usr, usr) != 0 ||
                (q->copy ? !c->every || !loop_works(facts, count, u, c, &via) : c->outer) ||
                (c->guarded && q->rule == SS_RULE_DEVICE_WIDE_SYNC_CALL))
                continue;
            if (better->c == NULL ||
                (noted(better->c, better->virtual_way, q) && !noted(c, virtual_way, q)))
                *better = (found_call){c, virtual_way, via};
        }
    }
    for (size_t u = 0; u < count && depth < MAX_HOPS &&
                       (better->c == NULL || noted(better->c, better->virtual_way, q));
         u++) {
        /* Reaches do not say whether their call dispatches: not followed past an override; nor,
         * for a SYNC402 call, past a guard that makes it rare. */
        for (size_t i = 0; facts[u] && !virtual_way && i < facts[u]->reach_count; i++) {
            if (strcmp(facts[u]->reaches[i].to, usr) == 0 &&
                strcmp(facts[u]->reaches[i].from, usr) != 0 &&
                !(facts[u]->reach_guarded[i] && q->rule == SS_RULE_DEVICE_WIDE_SYNC_CALL))
                find_loop_call(facts, count, facts[u]->reaches[i].from, depth + 1, q, better,
                               (size_t)-1, virtual_way);
        }
        /* A virtual call of a method this unit's override overrides, in a loop of another
         * unit (the unit's own virtual calls are not followed: its call graph does not). */
        for (size_t i = 0; facts[u] && i < facts[u]->override_count; i++) {
            if (strcmp(facts[u]->overrides[i].to, usr) == 0)
                find_loop_call(facts, count, facts[u]->overrides[i].from, depth + 1, q, better, u,
                               1);
        }
    }
}

/* "; idle: where the loop at main.cu:5 calls it (line 14), the stream was synchronized at line
 * 13 ..." for a loop call that leaves the wait nothing to wait for ('name' the function's).
 * Malloc'ed. */
static char *idle_words(const ss_loop_call *c, const char *name, int start)
{
    return ss_xasprintf("; idle: where the loop at %s calls it (line %u), %s was synchronized at "
                        "line %u and nothing was queued since, and '%s()' waits before it "
                        "queues anything: the wait has nothing to wait for",
                        c->place, c->site_line,
                        start == SS_START_DEVICE ? "the device" : "the stream it is given",
                        c->idle_line, name ? name : "?");
}

/* "; the loop queues device work through 'step()' (another unit)" for a copy's loop call
 * 'found' (its loop_works, found with it), or NULL for a wait's. Malloc'ed. */
static char *loop_work_words(const found_call *found, const loop_call_query *q)
{
    const ss_loop_call *via = found->via;
    if (!q->copy)
        return NULL;
    if (via == NULL)
        return ss_xstrdup("; the loop queues device work in its own unit");
    const char *name = via->callee ? via->callee : "?";
    return via->direct ? ss_xasprintf("; the loop queues device work through '%s()' (another "
                                      "unit)",
                                      name)
                       : ss_xasprintf("; the loop queues device work through '%s()', which "
                                      "reaches a function of another unit that does",
                                      name);
}

/* The finding made of 'from' (kept aside for 'q') where the loop call 'c' runs it, into
 * 'result'; 'wait': the summary of the function of another unit that its wait is a call of, or
 * NULL; 'work': loop_work_words. */
static void report_loop_call(ss_result *result, const ss_finding *from, const found_call *found,
                             const loop_call_query *q, const ss_device_wait *wait, const char *read,
                             const char *work)
{
    const ss_loop_call *c = found->c;
    int virtual_way = found->virtual_way || c->virtual_call;
    /* The loop calls a function that leads to it: one of another unit, or of its own. */
    int through = strcmp(c->usr, q->usr) != 0 || !c->direct;
    int idle = !c->note && idle_for(c, q->usr, q->start);
    int timed = !c->note && !idle && timed_for(c, q);
    char *quiet_words = idle    ? idle_words(c, c->callee, q->start)
                        : timed ? ss_xasprintf("; the loop times its iterations (%s, in '%s()', "
                                               "which it calls): the wait is part of a "
                                               "measurement",
                                               q->clock, c->callee ? c->callee : "?")
                                : NULL;
    char *wait_words = wait ? ss_xasprintf("; through %s, which waits for the whole device (%s)",
                                           wait->name, wait->wait)
                            : NULL;
    int inherent = !c->note && !idle && !timed && read;
    /* A synchronous copy kept aside is a note where nothing else makes it one: what the loop's
     * host code does with the data (read it next, hand it on) is not seen across units; nor,
     * for an allocation, how the buffer's size and life go from one iteration to the next. */
    int unseen = q->copy && from->severity != SS_SEV_NOTE && !c->note && !idle && !timed &&
                 !inherent && !virtual_way;
    const char *unseen_words =
        q->rule == SS_RULE_DEVICE_WIDE_SYNC_CALL
            ? "; a note: whether it is worth hoisting out of the loop is decided across units "
              "(the loop in one, the call in another), which lint does not weigh"
            : "; a note: whether the loop's host code needs the copied data at once is decided "
              "in another unit, which lint does not follow for a copy";
    char *more = ss_xasprintf(
        "; it %s on every iteration: '%s()'%s is called%s from the loop at %s, in '%s' "
        "(another unit)%s%s%s%s%s%s%s%s%s",
        virtual_way ? "may run" : "runs", c->callee ? c->callee : "?",
        virtual_way && through ? ", which reaches it through a virtual call,"
        : through              ? ", which reaches it,"
                               : "",
        virtual_way && !through ? " virtually" : "", c->place, c->caller ? c->caller : "?",
        virtual_way ? "; virtual: which override the call runs is decided at run time, "
                      "by the class of the object"
                    : "",
        work ? work : "", c->note ? "; " : "", c->note ? c->note : "",
        quiet_words ? quiet_words : "", wait_words ? wait_words : "", inherent ? "; " : "",
        inherent ? read : "", unseen ? unseen_words : "");
    free(wait_words);
    ss_finding *f = ss_project_add_copy(result, from, more);
    if (c->note || idle || timed || inherent || virtual_way || unseen)
        f->severity = SS_SEV_NOTE;
    free(more);
    free(quiet_words);
}

void ss_project_apply_loops(ss_project_facts *const *facts, ss_result *const *results, size_t count,
                            unsigned scope)
{
    for (size_t u = 0; u < count; u++) {
        const ss_result *called = facts[u] && results[u] ? facts[u]->called : NULL;
        for (size_t i = 0; called && i < called->count; i++) {
            found_call found = {NULL, 0, NULL};
            ss_rule_id rule = called->findings[i].rule;
            loop_call_query q = {
                facts[u]->called_usrs[i],
                facts[u]->called_starts ? facts[u]->called_starts[i] : SS_START_NONE,
                facts[u]->called_clocks ? facts[u]->called_clocks[i] : NULL,
                rule == SS_RULE_SYNC_COPY_IN_PIPELINE || rule == SS_RULE_DEVICE_WIDE_SYNC_CALL,
                rule};
            /* A call of another unit's function counts where a unit of the run summarized it
             * as a wait for the whole device that does nothing else on the device: a wrapper
             * that queues work first is no wait at its start (the note "idle" would be false)
             * and is a function with waits of its own, reported there if at all. */
            const char *wrapper = facts[u]->called_waits ? facts[u]->called_waits[i] : NULL;
            const ss_device_wait *wait =
                wrapper ? ss_project_device_wait(facts, count, wrapper) : NULL;
            if (wrapper && (wait == NULL || !wait->only))
                continue;
            find_loop_call(facts, count, q.usr, 0, &q, &found, (size_t)-1, 0);
            /* A loop that does device work itself reports a call of a function that waits
             * for the whole device at the call (apply_waits): one finding for one wait. */
            if (found.c == NULL || (!q.copy && found.c->enqueues &&
                                    ss_project_device_wait(facts, count, found.c->usr)))
                continue;
            unsigned outputs = facts[u]->called_outputs ? facts[u]->called_outputs[i] : 0;
            char *read = outputs ? ss_project_outputs_read(facts, count, q.usr, outputs,
                                                           facts[u]->called_output_words[i], scope)
                                 : NULL;
            char *work = loop_work_words(&found, &q);
            report_loop_call(results[u], &called->findings[i], &found, &q, wait, read, work);
            free(work);
            free(read);
        }
    }
}

void ss_project_loops_free(ss_project_facts *facts)
{
    for (size_t i = 0; i < facts->loop_call_count; i++) {
        ss_loop_call *c = &facts->loop_calls[i];
        free(c->usr);
        free(c->callee);
        free(c->place);
        free(c->caller);
        free(c->note);
    }
    free(facts->loop_calls);
    for (size_t i = 0; i < facts->reach_count; i++) {
        free(facts->reaches[i].from);
        free(facts->reaches[i].to);
    }
    free(facts->reaches);
    free(facts->reach_guarded);
    for (size_t i = 0; i < facts->override_count; i++) {
        free(facts->overrides[i].from);
        free(facts->overrides[i].to);
    }
    free(facts->overrides);
    for (size_t i = 0; facts->called && i < facts->called->count; i++) {
        free(facts->called_usrs[i]);
        if (facts->called_waits)
            free(facts->called_waits[i]);
        if (facts->called_output_words)
            free(facts->called_output_words[i]);
        if (facts->called_clocks)
            free(facts->called_clocks[i]);
    }
    if (facts->called) {
        ss_result_free(facts->called);
        free(facts->called);
    }
    free(facts->called_usrs);
    free(facts->called_starts);
    free(facts->called_waits);
    free(facts->called_outputs);
    free(facts->called_output_words);
    free(facts->called_clocks);
}

/* ------------------------------------------------------------------------------------------
 * The cache's form. */

void ss_project_loops_encode(const ss_project_facts *facts, cJSON *o)
{
    cJSON *calls = facts->loop_call_count ? cJSON_AddArrayToObject(o, "loopCalls") : NULL;
    for (size_t i = 0; i < facts->loop_call_count; i++) {
        const ss_loop_call *c = &facts->loop_calls[i];
        cJSON *item = cJSON_CreateObject();
        ss_cache_add_string(item, "usr", c->usr);
        ss_cache_add_string(item, "callee", c->callee);
        ss_cache_add_string(item, "place", c->place);
        ss_cache_add_string(item, "caller", c->caller);
        ss_cache_add_string(item, "note", c->note);
        cJSON_AddBoolToObject(item, "enqueues", c->enqueues);
        cJSON_AddBoolToObject(item, "direct", c->direct);
        cJSON_AddBoolToObject(item, "virtual", c->virtual_call);
        cJSON_AddBoolToObject(item, "timed", c->timed);
        cJSON_AddBoolToObject(item, "outer", c->outer);
        cJSON_AddBoolToObject(item, "every", c->every);
        cJSON_AddBoolToObject(item, "guarded", c->guarded);
        cJSON_AddBoolToObject(item, "idleDevice", c->idle_device);
        cJSON_AddNumberToObject(item, "siteLine", c->site_line);
        cJSON_AddNumberToObject(item, "idleLine", c->idle_line);
        cJSON_AddNumberToObject(item, "idleArgs", c->idle_args);
        cJSON_AddItemToArray(calls, item);
    }
    cJSON *reaches = facts->reach_count ? cJSON_AddArrayToObject(o, "reaches") : NULL;
    cJSON *guarded = NULL;
    for (size_t i = 0; i < facts->reach_count; i++) {
        const char *pair[2] = {facts->reaches[i].from, facts->reaches[i].to};
        cJSON_AddItemToArray(reaches, cJSON_CreateStringArray(pair, 2));
        if (facts->reach_guarded[i] && guarded == NULL)
            guarded = cJSON_AddArrayToObject(o, "guardedReaches");
        if (facts->reach_guarded[i])
            cJSON_AddItemToArray(guarded, cJSON_CreateNumber((double)i));
    }
    cJSON *overrides = facts->override_count ? cJSON_AddArrayToObject(o, "overrides") : NULL;
    for (size_t i = 0; i < facts->override_count; i++) {
        const char *pair[2] = {facts->overrides[i].from, facts->overrides[i].to};
        cJSON_AddItemToArray(overrides, cJSON_CreateStringArray(pair, 2));
    }
    size_t n = facts->called ? facts->called->count : 0;
    cJSON *called = n ? cJSON_AddArrayToObject(o, "calledInLoops") : NULL;
    for (size_t i = 0; i < n; i++) {
        cJSON *item = cJSON_CreateObject();
        ss_cache_add_string(item, "usr", facts->called_usrs[i]);
        cJSON_AddNumberToObject(item, "start",
                                facts->called_starts ? facts->called_starts[i] : SS_START_NONE);
        if (facts->called_waits && facts->called_waits[i])
            ss_cache_add_string(item, "wait", facts->called_waits[i]);
        if (facts->called_outputs && facts->called_outputs[i]) {
            cJSON_AddNumberToObject(item, "outputs", facts->called_outputs[i]);
            ss_cache_add_string(item, "outputWords", facts->called_output_words[i]);
        }
        if (facts->called_clocks && facts->called_clocks[i])
            ss_cache_add_string(item, "clock", facts->called_clocks[i]);
        cJSON_AddItemToObject(item, "finding",
                              ss_cache_encode_finding(&facts->called->findings[i]));
        cJSON_AddItemToArray(called, item);
    }
}

/* A string member of 'o', copied; NULL when absent, and '*bad' set when 'required'. */
static char *copied(const cJSON *o, const char *name, int required, int *bad)
{
    const char *s = ss_cache_get_string(o, name, bad);
    if (s == NULL && required)
        *bad = 1;
    return s ? ss_xstrdup(s) : NULL;
}

/* A number member of 'o' as an unsigned, or 'otherwise' when absent. */
static unsigned number(const cJSON *o, const char *name, unsigned otherwise)
{
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsNumber(n) && n->valuedouble >= 0 ? (unsigned)n->valuedouble : otherwise;
}

static void decode_loop_call(const cJSON *item, ss_project_facts *facts, int *bad)
{
    ss_xgrow((void **)&facts->loop_calls, &facts->loop_call_cap, facts->loop_call_count + 1,
             sizeof *facts->loop_calls);
    ss_loop_call *c = &facts->loop_calls[facts->loop_call_count++];
    c->usr = copied(item, "usr", 1, bad);
    c->callee = copied(item, "callee", 0, bad);
    c->place = copied(item, "place", 1, bad);
    c->caller = copied(item, "caller", 0, bad);
    c->note = copied(item, "note", 0, bad);
    c->enqueues = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(item, "enqueues"));
    c->direct = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(item, "direct"));
    c->virtual_call = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(item, "virtual"));
    c->timed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(item, "timed"));
    c->outer = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(item, "outer"));
    c->every = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(item, "every"));
    c->guarded = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(item, "guarded"));
    c->idle_device = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(item, "idleDevice"));
    c->site_line = number(item, "siteLine", 0);
    c->idle_line = number(item, "idleLine", 0);
    c->idle_args = number(item, "idleArgs", 0);
}

static void decode_called(const cJSON *item, ss_project_facts *facts, int *bad)
{
    const char *usr = ss_cache_get_string(item, "usr", bad);
    const cJSON *finding = cJSON_GetObjectItemCaseSensitive(item, "finding");
    if (usr == NULL || !cJSON_IsObject(finding)) {
        *bad = 1;
        return;
    }
    ss_cache_decode_finding(finding, ss_project_add_called(facts, usr), bad);
    const cJSON *start = cJSON_GetObjectItemCaseSensitive(item, "start");
    set_called(facts, cJSON_IsNumber(start) ? (int)start->valuedouble : SS_START_NONE,
               ss_cache_get_string(item, "wait", bad));
    unsigned outputs = number(item, "outputs", 0);
    const char *words = ss_cache_get_string(item, "outputWords", bad);
    set_outputs(facts, words ? outputs : 0, words && outputs ? ss_xstrdup(words) : NULL);
    const char *clock = ss_cache_get_string(item, "clock", bad);
    set_clock(facts, clock ? ss_xstrdup(clock) : NULL);
}

/* A reach decoded from the cache ("reaches": [from, to] pairs). */
static void decode_reach(ss_project_facts *facts, const char *from, const char *to)
{
    add_reach(facts, ss_xstrdup(from), to, 0);
}

/* An override decoded from the cache ("overrides": [virtual method, override] pairs). */
static void decode_override(ss_project_facts *facts, const char *from, const char *to)
{
    ss_xgrow((void **)&facts->overrides, &facts->override_cap, facts->override_count + 1,
             sizeof *facts->overrides);
    facts->overrides[facts->override_count].from = ss_xstrdup(from);
    facts->overrides[facts->override_count++].to = ss_xstrdup(to);
}

/* The reaches whose way passes a guard ("guardedReaches": their indices). */
static void decode_guarded(const cJSON *item, ss_project_facts *facts, int *bad)
{
    if (!cJSON_IsNumber(item) || item->valuedouble < 0 ||
        item->valuedouble >= (double)facts->reach_count) {
        *bad = 1;
        return;
    }
    facts->reach_guarded[(size_t)item->valuedouble] = 1;
}

void ss_project_loops_decode(const cJSON *o, ss_project_facts *facts, int *bad)
{
    ss_project_decode_pairs(o, "reaches", decode_reach, facts, bad);
    ss_project_decode_items(o, "guardedReaches", decode_guarded, facts, bad);
    ss_project_decode_pairs(o, "overrides", decode_override, facts, bad);
    ss_project_decode_items(o, "loopCalls", decode_loop_call, facts, bad);
    ss_project_decode_items(o, "calledInLoops", decode_called, facts, bad);
}
