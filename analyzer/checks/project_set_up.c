/* project_set_up.c: a loop in a function that only set-up code of other units calls
 * (project_facts.h; docs/lint.md, "Warning or note", set-up). The unit with the loop keeps the
 * question of each warning that the loop's run makes a warning, where the loop's function is one
 * another unit may call; every unit records its calls of the project's functions (which
 * function calls which, outside loops or not, by a function whose name says set-up or not); the
 * project pass makes the warning a note where every call of the loop's function in the project
 * is made during set-up. */
#include "ast.h"
#include "cache.h"
#include "callgraph.h"
#include "common.h"
#include "log.h"
#include "project_facts.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

/* How many calls up the pass follows from the loop's function to a function whose name says
 * set-up and from it up to 'main', and how many functions it looks at for one finding. */
enum { MAX_UP = 8, MAX_STEPS = 64 };

/* A call of a function of the project ('callee', a USR) by 'caller' (a USR; NULL for a caller
 * the pass cannot follow: a lambda, a virtual method, a constructor or destructor, code outside
 * a function), named 'name', at 'place' ("shared_data.c:44"; both only with 'sets_up'). 'repeated':
 * the call is in a loop or a lambda of its function, or the function holds a goto or setjmp, or the
 * unit has errors (clang's recovery may drop a loop). 'sets_up': the caller's name says set-up. */
typedef struct set_up_call {
    char *callee, *caller, *name, *place;
    int repeated, sets_up;
} set_up_call;

/* A warning that the loop at 'loop_place' in the function 'usr' ('name') makes; 'message' the
 * finding's message before the words that say it runs on every iteration. */
enum { MAX_OTHERS = 8 };
typedef struct set_up_question {
    char *file;
    unsigned line, column;
    ss_rule_id rule;
    char *usr, *name, *loop_place, *message;
    /* The other functions of the unit whose loops reach the call's function (their USRs):
     * each must run only during set-up too. */
    char **others;
    size_t other_count;
    /* The functions on the way from those loops down to the call that another unit may call
     * (their USRs): no other unit may call them, so that no loop elsewhere reaches the call
     * past the loops looked at. */
    char **closed;
    size_t closed_count;
} set_up_question;

struct ss_set_up_facts {
    set_up_call *calls;
    size_t call_count, call_cap;
    set_up_question *questions;
    size_t question_count, question_cap;
    /* The unit's calls were recorded (a cache entry written before has none), and it defines
     * the program's 'main'. */
    int known, has_main;
    set_up_question kept;
    CXCursor kept_at;
    int has_kept;
};

static struct ss_set_up_facts *set_up_of(ss_project_facts *facts)
{
    if (facts->set_up == NULL)
        facts->set_up = ss_xcalloc(1, sizeof *facts->set_up);
    return facts->set_up;
}

static void question_free(set_up_question *q)
{
    free(q->file);
    free(q->usr);
    free(q->name);
    free(q->loop_place);
    free(q->message);
    for (size_t i = 0; i < q->other_count; i++)
        free(q->others[i]);
    free(q->others);
    for (size_t i = 0; i < q->closed_count; i++)
        free(q->closed[i]);
    free(q->closed);
    memset(q, 0, sizeof *q);
}

void ss_project_set_up_free(ss_project_facts *facts)
{
    struct ss_set_up_facts *s = facts->set_up;
    if (s == NULL)
        return;
    for (size_t i = 0; i < s->call_count; i++) {
        free(s->calls[i].callee);
        free(s->calls[i].caller);
        free(s->calls[i].name);
        free(s->calls[i].place);
    }
    for (size_t i = 0; i < s->question_count; i++)
        question_free(&s->questions[i]);
    question_free(&s->kept);
    free(s->calls);
    free(s->questions);
    free(s);
    facts->set_up = NULL;
}

static set_up_call *add_call(struct ss_set_up_facts *s)
{
    return ss_xpush((void **)&s->calls, &s->call_cap, &s->call_count, sizeof *s->calls);
}

static set_up_question *add_question(struct ss_set_up_facts *s)
{
    return ss_xpush((void **)&s->questions, &s->question_cap, &s->question_count,
                    sizeof *s->questions);
}

/* ------------------------------------------------------------------------------------------
 * The unit with the loop. */

static int is_lambda(CXCursor c)
{
    return clang_getCursorKind(c) == CXCursor_LambdaExpr;
}

/* Adds 'usr' (taken) to the question's closed functions, once; 0 when there are too many. */
static int add_closed(set_up_question *q, char *usr)
{
    for (size_t i = 0; i < q->closed_count; i++) {
        if (strcmp(q->closed[i], usr) == 0) {
            free(usr);
            return 1;
        }
    }
    if (q->closed_count == MAX_OTHERS) {
        free(usr);
        return 0;
    }
    if (q->closed == NULL)
        q->closed = ss_xcalloc(MAX_OTHERS, sizeof *q->closed);
    q->closed[q->closed_count++] = usr;
    return 1;
}

/* Whether the function 'fn', on the way down to the call, is one the pass can close: a plain
 * function or a method that is not virtual (another unit may run an override, or construct an
 * object), added to the closed ones where another unit may call it. */
static int close_function(set_up_question *q, CXCursor fn)
{
    enum CXCursorKind k = clang_getCursorKind(fn);
    if ((k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod) ||
        (k == CXCursor_CXXMethod && clang_CXXMethod_isVirtual(fn)))
        return 0;
    char *usr = ss_project_stream_param_usr(fn);
    return usr == NULL || add_closed(q, usr);
}

/* Adds 'usr' (taken) to the question's other functions, once (the loop's own function counts
 * as added); 0 when there are too many. */
static int add_other(set_up_question *q, char *usr)
{
    for (size_t i = 0; i < q->other_count; i++) {
        if (strcmp(q->others[i], usr) == 0) {
            free(usr);
            return 1;
        }
    }
    if (q->other_count == MAX_OTHERS || strcmp(q->usr, usr) == 0) {
        int same = q->other_count < MAX_OTHERS;
        free(usr);
        return same;
    }
    if (q->others == NULL)
        q->others = ss_xcalloc(MAX_OTHERS, sizeof *q->others);
    q->others[q->other_count++] = usr;
    return 1;
}

enum { MAX_CALLS = 32, MAX_FUNCTIONS = 64 };

/* Up the unit's calls from 'function' (the call's): each call made in a loop of its function
 * names a function whose loops reach the call, which must be one another unit may call (its USR
 * added to 'q''s others); a call outside loops is followed up, and each function so reached
 * (the call's own first) must be one the pass can close (close_function); a call in a lambda, a
 * function whose address is taken or that is called more often than followed ends the question
 * (0). */
static int loop_holders(ss_check_ctx *ctx, CXCursor function, set_up_question *q)
{
    ss_callgraph *graph = ss_check_graph(ctx);
    CXCursor seen[MAX_FUNCTIONS], calls[MAX_CALLS], callers[MAX_CALLS];
    size_t count = 1;
    seen[0] = function;
    for (size_t next = 0; next < count; next++) {
        long n = ss_callgraph_calls_of(graph, seen[next], calls, callers, MAX_CALLS);
        if (n < 0 || n > MAX_CALLS || !close_function(q, seen[next]))
            return 0;
        for (long i = 0; i < n; i++) {
            if (ss_scope_path(callers[i], calls[i], is_lambda, NULL, 0) != 0)
                return 0;
            if (!ss_ast_is_null(ss_scope_enclosing_loop(callers[i], calls[i]))) {
                char *usr = ss_project_stream_param_usr(callers[i]);
                if (usr == NULL || !add_other(q, usr))
                    return 0;
                continue;
            }
            size_t k = 0;
            while (k < count && !clang_equalCursors(seen[k], callers[i]))
                k++;
            if (k == count && count == MAX_FUNCTIONS)
                return 0;
            if (k == count)
                seen[count++] = callers[i];
        }
    }
    return 1;
}

void ss_project_set_up_question(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at,
                                const ss_loop_context *loop, const char *message)
{
    ss_project_facts *facts = ss_project_unit_facts(ctx);
    if (facts == NULL)
        return;
    struct ss_set_up_facts *s = set_up_of(facts);
    question_free(&s->kept);
    s->has_kept = 0;
    enum CXCursorKind k = clang_getCursorKind(loop->function);
    if ((k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod) ||
        clang_getCursorKind(ctx->function) == CXCursor_LambdaExpr || message == NULL)
        return;
    char *usr = ss_project_stream_param_usr(loop->function);
    if (usr == NULL)
        return;
    s->kept.usr = usr;
    /* The call's function reached from the loops of other functions of the unit too
     * (ss_check_loop names one loop): each of those must run only during set-up as well. */
    if (loop->chain && !loop_holders(ctx, ctx->function, &s->kept)) {
        question_free(&s->kept);
        return;
    }
    s->kept.name = ss_qualified_name(loop->function);
    s->kept.loop_place =
        loop->chain ? ss_xstrdup(loop->place) : ss_xasprintf("line %u", ss_scope_line(loop->loop));
    s->kept.message = ss_xstrdup(message);
    s->kept.rule = rule;
    s->kept_at = at;
    s->has_kept = 1;
}

void ss_project_ask_set_up(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const ss_finding *f)
{
    ss_project_facts *facts = ctx->streams ? ctx->streams->facts : NULL;
    struct ss_set_up_facts *s = facts ? facts->set_up : NULL;
    if (s == NULL || !s->has_kept)
        return;
    s->has_kept = 0;
    if (s->kept.rule != rule || !ss_ast_same_node(s->kept_at, at) || f->file == NULL ||
        f->severity != SS_SEV_WARNING) {
        question_free(&s->kept);
        return;
    }
    set_up_question *q = add_question(s);
    *q = s->kept;
    memset(&s->kept, 0, sizeof s->kept);
    q->file = ss_xstrdup(f->file);
    q->line = f->line;
    q->column = f->column;
}

/* ------------------------------------------------------------------------------------------
 * Every unit: its calls of the project's functions. */

typedef struct call_walk {
    struct ss_set_up_facts *s;
    CXCursor function; /* the named function the walk is in, or a null cursor */
    char *usr;         /* its USR where the pass may follow it, else NULL */
    char *name;
    int sets_up, jumps, loops, lambdas, errors;
} call_walk;

static void record_call(call_walk *w, CXCursor call)
{
    char *callee = ss_project_function_usr(clang_getCursorReferenced(call));
    if (callee == NULL)
        return;
    set_up_call *c = add_call(w->s);
    c->callee = callee;
    c->caller = w->usr ? ss_xstrdup(w->usr) : NULL;
    if (w->sets_up) { /* words for the note, which names a set-up function only */
        c->name = ss_xstrdup(w->name ? w->name : "?");
        c->place = ss_callgraph_place(call);
    }
    c->repeated = w->loops > 0 || w->lambdas > 0 || w->jumps || w->errors;
    c->sets_up = w->sets_up;
}

static enum CXChildVisitResult find_calls(CXCursor c, CXCursor parent, CXClientData data);

/* Walks the named function 'c' with the walk's state set for it. */
static void enter_function(call_walk *w, CXCursor c)
{
    call_walk inner = *w;
    enum CXCursorKind k = clang_getCursorKind(c);
    inner.function = c;
    inner.usr =
        k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod ? ss_project_function_usr(c) : NULL;
    char *why = NULL;
    inner.sets_up = k != CXCursor_Constructor && ss_callgraph_sets_up(c, &why);
    inner.name = inner.sets_up ? ss_qualified_name(c) : NULL;
    free(why);
    inner.jumps = ss_callgraph_holds_jump(c);
    inner.loops = 0;
    inner.lambdas = 0;
    CXString s = clang_getCursorSpelling(c);
    if (k == CXCursor_FunctionDecl && clang_isCursorDefinition(c) && clang_getCString(s) &&
        strcmp(clang_getCString(s), "main") == 0 &&
        clang_getCursorKind(clang_getCursorSemanticParent(c)) == CXCursor_TranslationUnit)
        w->s->has_main = 1;
    clang_disposeString(s);
    clang_visitChildren(c, find_calls, &inner);
    free(inner.usr);
    free(inner.name);
}

static enum CXChildVisitResult find_calls(CXCursor c, CXCursor parent, CXClientData data)
{
    call_walk *w = data;
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (ss_ast_is_function(c) && ss_ast_is_device_only(c))
        return CXChildVisit_Continue;
    if (ss_ast_is_function(c) && k != CXCursor_LambdaExpr) {
        enter_function(w, c);
        return CXChildVisit_Continue;
    }
    if (k == CXCursor_LambdaExpr || ss_scope_is_loop(c)) {
        w->lambdas += k == CXCursor_LambdaExpr;
        w->loops += k != CXCursor_LambdaExpr;
        clang_visitChildren(c, find_calls, w);
        w->lambdas -= k == CXCursor_LambdaExpr;
        w->loops -= k != CXCursor_LambdaExpr;
        return CXChildVisit_Continue;
    }
    if (k == CXCursor_CallExpr)
        record_call(w, c);
    return CXChildVisit_Recurse;
}

void ss_project_record_set_up_calls(ss_check_ctx *ctx, ss_project_facts *facts)
{
    call_walk w;
    memset(&w, 0, sizeof w);
    w.s = set_up_of(facts);
    w.s->known = 1;
    w.function = clang_getNullCursor();
    /* Errors may have made a loop a block or dropped a call: no call of such a unit is
     * taken as made outside loops. */
    w.errors = facts->unjudged;
    clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_calls, &w);
}

/* ------------------------------------------------------------------------------------------
 * The project pass. */

typedef struct set_up_search {
    ss_project_facts *const *facts;
    size_t count;
    const set_up_call **calls; /* every unit's calls, by callee */
    size_t call_count;
    const char *stack[MAX_UP + 2]; /* the functions being looked at, for recursion */
    size_t depth, steps;
    const set_up_call *first; /* the first call of a set-up function met, for the words */
} set_up_search;

static int by_callee(const void *a, const void *b)
{
    const set_up_call *x = *(const set_up_call *const *)a, *y = *(const set_up_call *const *)b;
    int by = strcmp(x->callee, y->callee);
    /* Then by caller and place, so that the note names the same set-up call in every run. */
    if (by == 0)
        by = strcmp(x->caller ? x->caller : "", y->caller ? y->caller : "");
    if (by == 0)
        by = strcmp(x->place ? x->place : "", y->place ? y->place : "");
    return by;
}

/* The calls of 'usr' in the project: the first in the index ('*n' of them from there). */
static const set_up_call *const *calls_of(const set_up_search *q, const char *usr, size_t *n)
{
    size_t lo = 0, hi = q->call_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(q->calls[mid]->callee, usr) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *n = 0;
    while (lo + *n < q->call_count && strcmp(q->calls[lo + *n]->callee, usr) == 0)
        (*n)++;
    return q->calls + lo;
}

/* Whether 'usr' may be looked at: not on the way already (recursion), within the depth and the
 * steps. Pushes it. */
static int enter(set_up_search *q, const char *usr)
{
    if (q->depth > MAX_UP || ++q->steps > MAX_STEPS)
        return 0;
    for (size_t i = 0; i < q->depth; i++) {
        if (strcmp(q->stack[i], usr) == 0)
            return 0;
    }
    q->stack[q->depth++] = usr;
    return 1;
}

/* Whether the calls 'of' ('n' of them) of 'usr' may all be made once each: none repeats (in a
 * loop, a lambda, a function with a goto), each has a caller the pass can follow, one at least;
 * and nothing names 'usr' other than as a call's callee. The cheap questions first: the pass
 * asks for every warning of a loop in a function another unit may call. */
static int plain_calls(const set_up_search *q, const char *usr, const set_up_call *const *of,
                       size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (of[i]->repeated || of[i]->caller == NULL)
            return 0;
    }
    return !ss_project_called_unseen(q->facts, q->count, usr);
}

/* Whether 'usr' is the program's 'main' ("c:@F@main", "c:@F@main#I#**C#" in C++), run once:
 * nothing in the project calls it (a call in its own loop would run it again) and nothing names
 * it other than as a call's callee (its address taken). */
static int is_main(const set_up_search *q, const char *usr)
{
    if (strcmp(usr, "c:@F@main") != 0 && strncmp(usr, "c:@F@main#", 10) != 0)
        return 0;
    size_t calls;
    calls_of(q, usr, &calls);
    return calls == 0 && !ss_project_called_unseen(q->facts, q->count, usr);
}

/* Whether 'usr' runs a bounded number of times, as the project shows: each of its calls (one at
 * least) is outside loops, lambdas and functions with a goto, in a function that is 'main' or
 * is so called in turn: every chain of calls up from it ends at 'main'. */
static int bounded(set_up_search *q, const char *usr)
{
    if (!enter(q, usr))
        return 0;
    size_t calls;
    const set_up_call *const *of = calls_of(q, usr, &calls);
    int ok = plain_calls(q, usr, of, calls);
    for (size_t i = 0; ok && i < calls; i++)
        ok = is_main(q, of[i]->caller) || bounded(q, of[i]->caller);
    q->depth--;
    return ok;
}

/* Whether every call of 'usr' in the project (one at least) is made outside loops by a function
 * whose name says set-up and that runs a bounded number of times (bounded), or by one whose
 * every call is so made in turn (up to MAX_UP calls up, no recursion), and nothing names 'usr'
 * other than as a call's callee. */
static int only_in_set_up(set_up_search *q, const char *usr)
{
    if (!enter(q, usr))
        return 0;
    size_t calls;
    const set_up_call *const *of = calls_of(q, usr, &calls);
    int ok = plain_calls(q, usr, of, calls);
    for (size_t i = 0; ok && i < calls; i++) {
        const set_up_call *c = of[i];
        if (c->sets_up) {
            ok = bounded(q, c->caller);
            if (ok && q->first == NULL)
                q->first = c;
        } else {
            ok = only_in_set_up(q, c->caller);
        }
    }
    q->depth--;
    return ok;
}

/* Whether the facts of every unit record its calls, and some unit defines 'main' (a program,
 * not a library whose users may call the function anywhere). */
static int calls_known(ss_project_facts *const *facts, size_t count)
{
    int has_main = 0;
    for (size_t u = 0; u < count; u++) {
        if (facts[u] == NULL || facts[u]->set_up == NULL || !facts[u]->set_up->known)
            return 0;
        has_main |= facts[u]->set_up->has_main;
    }
    return has_main;
}

/* Whether every call of 'usr' in the project is made in the unit 'unit', and nothing names it
 * other than as a call's callee. */
static int called_here(const set_up_search *q, const char *usr, size_t unit)
{
    const struct ss_set_up_facts *s = q->facts[unit]->set_up;
    size_t n;
    const set_up_call *const *of = calls_of(q, usr, &n);
    for (size_t i = 0; i < n; i++) {
        if (of[i] < s->calls || of[i] >= s->calls + s->call_count)
            return 0;
    }
    return !ss_project_called_unseen(q->facts, q->count, usr);
}

static void answer(set_up_search *search, const set_up_question *q, ss_finding *f, size_t unit)
{
    search->depth = 0;
    search->steps = 0;
    search->first = NULL;
    if (!only_in_set_up(search, q->usr) || search->first == NULL)
        return;
    const set_up_call *first = search->first;
    for (size_t i = 0; i < q->closed_count; i++) {
        if (!called_here(search, q->closed[i], unit))
            return;
    }
    for (size_t i = 0; i < q->other_count; i++) {
        search->depth = 0;
        search->steps = 0;
        if (!only_in_set_up(search, q->others[i]))
            return;
    }
    char *message = ss_xasprintf(
        "%s; set-up: the loop at %s runs during set-up: every way into '%s' in the project "
        "passes, outside loops, through '%s' (the call at %s), which sets up (its name says so) "
        "and is called only outside loops, up to 'main'%s",
        q->message, q->loop_place, q->name, first->name, first->place,
        q->other_count ? "; so do the ways into the other functions whose loops reach the call"
                       : "");
    free(f->message);
    f->message = message;
    f->severity = SS_SEV_NOTE;
}

void ss_project_apply_set_up(ss_project_facts *const *facts, ss_result *const *results,
                             size_t count, unsigned scope)
{
    if (!(scope & SS_PROJECT_WHOLE) || !(scope & SS_PROJECT_EVERY_ENTRY) ||
        !calls_known(facts, count))
        return;
    set_up_search search;
    memset(&search, 0, sizeof search);
    search.facts = facts;
    search.count = count;
    size_t questions = 0;
    for (size_t u = 0; u < count; u++) {
        questions += facts[u]->set_up->question_count;
        search.call_count += facts[u]->set_up->call_count;
    }
    if (questions == 0)
        return;
    search.calls = ss_xreallocarray(NULL, search.call_count + 1, sizeof *search.calls);
    size_t n = 0;
    for (size_t u = 0; u < count; u++) {
        for (size_t i = 0; i < facts[u]->set_up->call_count; i++)
            search.calls[n++] = &facts[u]->set_up->calls[i];
    }
    qsort(search.calls, n, sizeof *search.calls, by_callee);
    for (size_t u = 0; u < count; u++) {
        const struct ss_set_up_facts *s = facts[u]->set_up;
        for (size_t i = 0; results[u] && i < s->question_count; i++) {
            const set_up_question *q = &s->questions[i];
            ss_finding *f =
                ss_project_find_finding(results[u], q->rule, q->file, q->line, q->column);
            if (f != NULL && f->severity == SS_SEV_WARNING)
                answer(&search, q, f, u);
        }
    }
    free(search.calls);
}

/* ------------------------------------------------------------------------------------------
 * The cache's form ("setUpCalls", always there once recorded; "setUpQuestions", "hasMain"). */

void ss_project_set_up_encode(const ss_project_facts *facts, cJSON *o)
{
    const struct ss_set_up_facts *s = facts->set_up;
    if (s == NULL || !s->known)
        return;
    cJSON *calls = cJSON_AddArrayToObject(o, "setUpCalls");
    for (size_t i = 0; i < s->call_count; i++) {
        const set_up_call *c = &s->calls[i];
        cJSON *item = cJSON_CreateObject();
        ss_cache_add_string(item, "callee", c->callee);
        ss_cache_add_string(item, "caller", c->caller);
        ss_cache_add_string(item, "name", c->name);
        ss_cache_add_string(item, "place", c->place);
        cJSON_AddNumberToObject(item, "repeated", c->repeated);
        cJSON_AddNumberToObject(item, "setsUp", c->sets_up);
        cJSON_AddItemToArray(calls, item);
    }
    cJSON_AddBoolToObject(o, "hasMain", s->has_main);
    cJSON *questions = s->question_count ? cJSON_AddArrayToObject(o, "setUpQuestions") : NULL;
    for (size_t i = 0; questions && i < s->question_count; i++) {
        const set_up_question *q = &s->questions[i];
        cJSON *item = cJSON_CreateObject();
        ss_cache_add_string(item, "file", q->file);
        cJSON_AddNumberToObject(item, "line", q->line);
        cJSON_AddNumberToObject(item, "column", q->column);
        cJSON_AddNumberToObject(item, "rule", q->rule);
        ss_cache_add_string(item, "usr", q->usr);
        ss_cache_add_string(item, "name", q->name);
        ss_cache_add_string(item, "loopPlace", q->loop_place);
        ss_cache_add_string(item, "message", q->message);
        cJSON *others = cJSON_AddArrayToObject(item, "others");
        for (size_t k = 0; k < q->other_count; k++)
            cJSON_AddItemToArray(others, cJSON_CreateString(q->others[k]));
        cJSON *closed = cJSON_AddArrayToObject(item, "closed");
        for (size_t k = 0; k < q->closed_count; k++)
            cJSON_AddItemToArray(closed, cJSON_CreateString(q->closed[k]));
        cJSON_AddItemToArray(questions, item);
    }
}

/* A string member copied; sets '*bad' when it is missing or not a string. */
static char *taken(const cJSON *item, const char *name, int *bad)
{
    const char *s = ss_cache_get_string(item, name, bad);
    *bad |= s == NULL;
    return s ? ss_xstrdup(s) : NULL;
}

static void decode_call(const cJSON *item, ss_project_facts *facts, int *bad)
{
    set_up_call *c = add_call(set_up_of(facts));
    c->callee = taken(item, "callee", bad);
    const char *caller = ss_cache_get_string(item, "caller", bad);
    c->caller = caller ? ss_xstrdup(caller) : NULL;
    c->repeated = ss_cache_get_unsigned(item, "repeated", 1, bad) != 0;
    c->sets_up = ss_cache_get_unsigned(item, "setsUp", 1, bad) != 0;
    if (c->sets_up) {
        c->name = taken(item, "name", bad);
        c->place = taken(item, "place", bad);
    }
}

static void decode_question(const cJSON *item, ss_project_facts *facts, int *bad)
{
    set_up_question *q = add_question(set_up_of(facts));
    q->file = taken(item, "file", bad);
    q->line = ss_cache_get_unsigned(item, "line", UINT_MAX, bad);
    q->column = ss_cache_get_unsigned(item, "column", UINT_MAX, bad);
    q->rule = (ss_rule_id)ss_cache_get_unsigned(item, "rule", SS_RULE_COUNT - 1, bad);
    q->usr = taken(item, "usr", bad);
    q->name = taken(item, "name", bad);
    q->loop_place = taken(item, "loopPlace", bad);
    q->message = taken(item, "message", bad);
    const cJSON *others = cJSON_GetObjectItemCaseSensitive(item, "others"), *other;
    if (q->usr == NULL || !cJSON_IsArray(others) || cJSON_GetArraySize(others) > MAX_OTHERS) {
        *bad = 1;
        return;
    }
    cJSON_ArrayForEach(other, others)
    {
        if (!cJSON_IsString(other) || !add_other(q, ss_xstrdup(other->valuestring)))
            *bad = 1;
    }
    const cJSON *closed = cJSON_GetObjectItemCaseSensitive(item, "closed");
    if (!cJSON_IsArray(closed) || cJSON_GetArraySize(closed) > MAX_OTHERS) {
        *bad = 1;
        return;
    }
    cJSON_ArrayForEach(other, closed)
    {
        if (!cJSON_IsString(other) || !add_closed(q, ss_xstrdup(other->valuestring)))
            *bad = 1;
    }
}

void ss_project_set_up_decode(const cJSON *o, ss_project_facts *facts, int *bad)
{
    const cJSON *calls = cJSON_GetObjectItemCaseSensitive(o, "setUpCalls");
    if (calls == NULL)
        return; /* an entry written before: its calls are not known */
    if (!cJSON_IsArray(calls)) {
        *bad = 1;
        return;
    }
    struct ss_set_up_facts *s = set_up_of(facts);
    s->known = 1;
    s->has_main = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "hasMain"));
    ss_project_decode_items(o, "setUpCalls", decode_call, facts, bad);
    ss_project_decode_items(o, "setUpQuestions", decode_question, facts, bad);
}
