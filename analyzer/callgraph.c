/* callgraph.c: the call graph of one translation unit, for the loop rules (a call in a
 * function called from a loop that enqueues device work is in that loop) and for a finding's
 * severity (per iteration or once). */
#include "callgraph.h"
#include "ast.h"
#include "log.h"
#include "report.h"
#include "rules.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How many calls deep a loop's reach and a function's work are followed. */
enum { MAX_DEPTH = 8 };
/* The two kinds of work (ss_scope_work) the graph answers for through the calls, and the
 * three whose answer for a function's own body it keeps (ss_callgraph_own_work). */
enum { KINDS = 2, OWN_KINDS = 3 };
_Static_assert(SS_SCOPE_DEVICE_WORK == OWN_KINDS - 1,
               "a node keeps its own work per ss_scope_work");

/* A walk for calls of named functions in a function of the unit (named_below), kept: its list
 * of names ('list', an index into the graph's 'name_lists'), its depth and limit, and the first
 * such call it found, or a null cursor. */
typedef struct named_row {
    size_t list;
    int depth, limit;
    CXCursor found;
} named_row;

typedef struct node {
    CXCursor cursor; /* the definition */
    char *name;      /* qualified name */
    size_t refs;     /* references to it that are not the callee of a call */
    size_t outside;  /* calls of it and references to it outside any function: in the
                      * initializer of a global (a table of callbacks) */
    /* Work, per kind: 'work' the first call that does it (in this function or one it calls),
     * 'work_depth' how many calls down (0: here). */
    int has_work[KINDS];
    CXCursor work[KINDS];
    int work_depth[KINDS];
    /* Its own body's work, per ss_scope_work: 0 not asked yet, 1 it has some ('own_first' the
     * first such call), 2 none. */
    int own_known[OWN_KINDS];
    CXCursor own_first[OWN_KINDS];
    /* Reached from a loop, per kind: the loop, its work, and the caller on the way there
     * (-1: the loop's own function calls this one in the loop). */
    int reached[KINDS];
    CXCursor loop[KINDS];
    CXCursor loop_work[KINDS];
    int parent[KINDS];
    CXCursor site[KINDS]; /* the call it was reached through */
    int depth[KINDS];
    size_t holder[KINDS]; /* the function the loop is in */
    int once;             /* 0 not decided, 1 deciding, 2 runs once, 3 does not */
    char *once_why;       /* when it runs once */
    int never;            /* never_runs: 0 not decided, 2 never runs here, 3 may */
    int seen;             /* calls_all_seen: 0 not decided, 2 yes, 3 no */
    int bounded;          /* bounded: 0 not decided, 1 deciding (a cycle: no), 2 yes, 3 no */
    size_t bounded_next;  /* bounded: the first caller on the way up */
    int set_up;           /* set_up_only: 0 not decided, 1 deciding (a cycle: no), 2 yes, 3 no */
    size_t set_up_via;    /* set_up_only: the set-up function of the first way up */
    int set_up_many;      /* set_up_only: the ways up pass through more than one */
    named_row *named;     /* the walks of its body for named calls (named_below) */
    size_t named_count, named_cap;
} node;

/* A node's function as it is spelled ('copy_async'), for finding the functions a name calls. */
typedef struct spelled_node {
    const char *spelled;
    size_t node;
} spelled_node;

typedef struct site {
    CXCursor call;
    size_t caller;
    size_t callee;
    /* Per kind, once asked (site_loop): 1 when the call is in a loop of its caller that does
     * that work (the innermost such 'loop', its 'loop_work'), 2 when it is in none. */
    int loop_known[KINDS];
    CXCursor loop[KINDS];
    CXCursor loop_work[KINDS];
} site;

/* An identifier of the main file: its spelling (malloc'ed) and its index among the tokens. */
typedef struct token_name {
    const char *spelling;
    unsigned index;
} token_name;

/* An answer a check keeps about a declaration of the unit: its tag, the declaration
 * (canonical), the answer. */
typedef struct remembered {
    int kind;
    CXCursor decl;
    int answer;
} remembered;

struct ss_callgraph {
    CXTranslationUnit tu;
    node *nodes;
    size_t count, cap;
    site *sites;
    size_t site_count, site_cap;
    CXCursor *dependent;      /* calls left unresolved in templates (no declaration referenced) */
    size_t *dependent_caller; /* the node each is made in */
    size_t dependent_count, dependent_cap, dependent_caller_cap;
    char **dependent_name;     /* the name each calls (dependent_name), once asked */
    char **spelled;            /* each node's function as spelled (NULL: none), once asked */
    spelled_node *by_spelling; /* the nodes with a spelling, sorted by it */
    size_t spelled_count;      /* how many 'by_spelling' holds */
    int never_done;            /* never_runs decided for every node */
    size_t *table;             /* open addressing: node index + 1, 0 empty */
    size_t table_size;
    int reach_done;
    char **instantiated; /* names in the main file's explicit instantiations */
    size_t instantiated_count, instantiated_cap;
    int instantiations_read;
    /* Whether the unit has errors (unit_has_errors; -1: not asked yet), and the main file's
     * tokens with the cursor each annotates, read once (mentions_all_seen). */
    int has_errors;
    unsigned *errors; /* the offsets of the main file's errors */
    size_t error_count, error_cap;
    CXToken *tokens;
    CXCursor *token_cursors;
    unsigned token_count;
    token_name *token_names; /* the identifiers among them, sorted by spelling */
    size_t name_count;
    /* The lists of names ss_callgraph_calls_named_within was asked for, each its names joined
     * by newlines (malloc'ed): a kept walk's key (named_row). */
    char **name_lists;
    size_t name_list_count, name_list_cap;
    /* Answers the checks keep about a declaration (ss_callgraph_remember). */
    remembered *answers;
    size_t answer_count, answer_cap;
};

static void *grow(void *v, size_t *cap, size_t count, size_t size)
{
    if (count < *cap)
        return v;
    *cap = *cap ? *cap * 2 : 64;
    void *grown = ss_xreallocarray(v, *cap, size);
    return grown;
}

/* ------------------------------------------------------------------------------------------
 * Finding a function's node. */

static long find_node(const ss_callgraph *g, CXCursor def)
{
    if (g->table_size == 0 || ss_ast_is_null(def))
        return -1;
    size_t i = clang_hashCursor(def) % g->table_size;
    while (g->table[i]) {
        size_t n = g->table[i] - 1;
        if (clang_equalCursors(g->nodes[n].cursor, def))
            return (long)n;
        i = (i + 1) % g->table_size;
    }
    return -1;
}

static void index_nodes(ss_callgraph *g)
{
    g->table_size = g->count * 2 + 1;
    g->table = ss_xcalloc(g->table_size, sizeof *g->table);
    for (size_t n = 0; n < g->count; n++) {
        size_t i = clang_hashCursor(g->nodes[n].cursor) % g->table_size;
        while (g->table[i])
            i = (i + 1) % g->table_size;
        g->table[i] = n + 1;
    }
}

/* The definition of the function a declaration reference or call names: an instantiation's
 * template, a declaration's definition. A null cursor when it is not a function of the unit. */
static CXCursor definition_of(CXCursor ref)
{
    if (ss_ast_is_null(ref) || !ss_ast_is_function(ref) ||
        clang_getCursorKind(ref) == CXCursor_LambdaExpr)
        return clang_getNullCursor();
    /* A member template of a class template is two steps from its instantiation:
     * 'Batch<float>::send<float>' to 'Batch<float>::send<U>' to 'Batch<T>::send<U>'. */
    for (int step = 0; step < 4; step++) {
        CXCursor templ = clang_getSpecializedCursorTemplate(ref);
        if (ss_ast_is_null(templ) || clang_equalCursors(templ, ref))
            break;
        ref = templ;
    }
    return clang_getCursorDefinition(ref);
}

/* The function a call calls: its referenced declaration, or the one declaration of an
 * unresolved name in a template. */
static CXCursor callee_definition(CXCursor call)
{
    CXCursor ref = clang_getCursorReferenced(call);
    if (ss_ast_is_null(ref)) {
        CXCursor callee = ss_ast_strip(ss_ast_child(call, 0));
        unsigned n = ss_ast_child_count(callee);
        for (unsigned i = 0; i < n; i++) {
            CXCursor c = ss_ast_child(callee, i);
            if (clang_getCursorKind(c) == CXCursor_OverloadedDeclRef &&
                clang_getNumOverloadedDecls(c) == 1)
                ref = clang_getOverloadedDecl(c, 0);
        }
    }
    return definition_of(ref);
}

/* ------------------------------------------------------------------------------------------
 * Building. */

typedef struct build_walk {
    ss_callgraph *g;
    size_t caller;
    /* the references counted while walking a body, resolved later */
    CXCursor *refs;
    size_t ref_count, ref_cap;
    /* the functions called or named outside any function, resolved later */
    CXCursor *outside;
    size_t outside_count, outside_cap;
} build_walk;

/* A function called or named in the initializer of a global. */
static enum CXChildVisitResult collect_outside(CXCursor c, CXCursor parent, CXClientData data)
{
    build_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr || k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) {
        CXCursor ref = clang_getCursorReferenced(c);
        if (ss_ast_is_function(ref) && clang_getCursorKind(ref) != CXCursor_LambdaExpr) {
            w->outside = grow(w->outside, &w->outside_cap, w->outside_count, sizeof *w->outside);
            w->outside[w->outside_count++] = ref;
        }
    }
    return CXChildVisit_Recurse;
}

static enum CXChildVisitResult collect_calls(CXCursor c, CXCursor parent, CXClientData data)
{
    build_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr) {
        ss_callgraph *g = w->g;
        g->sites = grow(g->sites, &g->site_cap, g->site_count, sizeof *g->sites);
        /* The callee is resolved once every node is known: keep its definition in 'call''s
         * place for now. */
        g->sites[g->site_count++] = (site){.call = c, .caller = w->caller, .callee = (size_t)-1};
    } else if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) {
        CXCursor ref = clang_getCursorReferenced(c);
        if (ss_ast_is_function(ref) && clang_getCursorKind(ref) != CXCursor_LambdaExpr) {
            w->refs = grow(w->refs, &w->ref_cap, w->ref_count, sizeof *w->refs);
            w->refs[w->ref_count++] = ref;
        }
    }
    return CXChildVisit_Recurse;
}

static enum CXChildVisitResult collect_nodes(CXCursor c, CXCursor parent, CXClientData data)
{
    build_walk *w = data;
    ss_callgraph *g = w->g;
    if (ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    if (clang_getCursorKind(c) == CXCursor_VarDecl) {
        clang_visitChildren(c, collect_outside, w);
        return CXChildVisit_Continue;
    }
    if (!ss_ast_is_function(c))
        return clang_isDeclaration(clang_getCursorKind(c)) ? CXChildVisit_Recurse
                                                           : CXChildVisit_Continue;
    if (clang_getCursorKind(c) == CXCursor_LambdaExpr || ss_ast_is_device_only(c))
        return CXChildVisit_Continue;
    if (!clang_isCursorDefinition(c))
        return CXChildVisit_Continue;
    g->nodes = grow(g->nodes, &g->cap, g->count, sizeof *g->nodes);
    node *n = &g->nodes[g->count];
    memset(n, 0, sizeof *n);
    n->cursor = c;
    n->name = ss_qualified_name(c);
    for (int k = 0; k < KINDS; k++)
        n->parent[k] = -1;
    w->caller = g->count++;
    clang_visitChildren(c, collect_calls, w);
    return CXChildVisit_Continue;
}

/* ss_scope_has_work of the body of node 'n', asked once per node and kind. */
static int own_work(ss_callgraph *g, size_t n, ss_scope_work what, CXCursor *first)
{
    node *nd = &g->nodes[n];
    if (nd->own_known[what] == 0)
        nd->own_known[what] = ss_scope_has_work(nd->cursor, what, &nd->own_first[what]) ? 1 : 2;
    if (first)
        *first = nd->own_first[what];
    return nd->own_known[what] == 1;
}

static void find_work(ss_callgraph *g)
{
    static const ss_scope_work kinds[KINDS] = {SS_SCOPE_LAUNCHES, SS_SCOPE_ENQUEUES};
    for (size_t n = 0; n < g->count; n++) {
        for (int k = 0; k < KINDS; k++)
            g->nodes[n].has_work[k] = own_work(g, n, kinds[k], &g->nodes[n].work[k]);
    }
    /* Through the calls, a level at a time, so that the work named is the nearest. */
    for (int depth = 1; depth <= MAX_DEPTH; depth++) {
        int changed = 0;
        for (size_t s = 0; s < g->site_count; s++) {
            node *caller = &g->nodes[g->sites[s].caller];
            const node *callee = &g->nodes[g->sites[s].callee];
            for (int k = 0; k < KINDS; k++) {
                if (caller->has_work[k] || !callee->has_work[k] ||
                    callee->work_depth[k] != depth - 1)
                    continue;
                caller->has_work[k] = 1;
                caller->work[k] = callee->work[k];
                caller->work_depth[k] = depth;
                changed = 1;
            }
        }
        if (!changed)
            break;
    }
}

ss_callgraph *ss_callgraph_build(CXTranslationUnit tu)
{
    ss_callgraph *g = ss_xcalloc(1, sizeof *g);
    g->tu = tu;
    g->has_errors = -1;
    build_walk w = {g, 0, NULL, 0, 0, NULL, 0, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), collect_nodes, &w);
    index_nodes(g);
    /* Keep the calls of the unit's functions, resolved. */
    size_t kept = 0;
    for (size_t s = 0; s < g->site_count; s++) {
        long callee = find_node(g, callee_definition(g->sites[s].call));
        if (callee < 0 && ss_ast_is_null(clang_getCursorReferenced(g->sites[s].call))) {
            g->dependent =
                grow(g->dependent, &g->dependent_cap, g->dependent_count, sizeof *g->dependent);
            g->dependent_caller = grow(g->dependent_caller, &g->dependent_caller_cap,
                                       g->dependent_count, sizeof *g->dependent_caller);
            g->dependent_caller[g->dependent_count] = g->sites[s].caller;
            g->dependent[g->dependent_count++] = g->sites[s].call;
        }
        if (callee < 0)
            continue;
        g->sites[kept] = g->sites[s];
        g->sites[kept++].callee = (size_t)callee;
    }
    g->site_count = kept;
    /* A function referred to other than by calling it (its address taken: a callback) may be
     * called from anywhere. */
    for (size_t i = 0; i < w.ref_count; i++) {
        long n = find_node(g, definition_of(w.refs[i]));
        if (n >= 0)
            g->nodes[n].refs++;
    }
    for (size_t s = 0; s < g->site_count; s++) {
        node *callee = &g->nodes[g->sites[s].callee];
        if (callee->refs > 0)
            callee->refs--; /* the call's own reference to its callee */
    }
    free(w.refs);
    for (size_t i = 0; i < w.outside_count; i++) {
        long n = find_node(g, definition_of(w.outside[i]));
        if (n >= 0)
            g->nodes[n].outside++;
    }
    free(w.outside);
    find_work(g);
    return g;
}

void ss_callgraph_free(ss_callgraph *g)
{
    if (g == NULL)
        return;
    for (size_t n = 0; n < g->count; n++) {
        free(g->nodes[n].name);
        free(g->nodes[n].once_why);
        free(g->nodes[n].named);
    }
    for (size_t i = 0; i < g->name_list_count; i++)
        free(g->name_lists[i]);
    free(g->name_lists);
    free(g->answers);
    free(g->nodes);
    free(g->sites);
    for (size_t i = 0; g->dependent_name && i < g->dependent_count; i++)
        free(g->dependent_name[i]);
    free(g->dependent_name);
    for (size_t n = 0; g->spelled && n < g->count; n++)
        free(g->spelled[n]);
    free(g->spelled);
    free(g->by_spelling);
    free(g->dependent);
    free(g->dependent_caller);
    free(g->table);
    for (size_t i = 0; i < g->instantiated_count; i++)
        free(g->instantiated[i]);
    free(g->instantiated);
    free(g->errors);
    if (g->tokens)
        clang_disposeTokens(g->tu, g->tokens, g->token_count);
    free(g->token_cursors);
    for (size_t i = 0; i < g->name_count; i++)
        free((char *)g->token_names[i].spelling);
    free(g->token_names);
    free(g);
}

/* ------------------------------------------------------------------------------------------
 * Loops. */

static int kind_index(ss_scope_work what)
{
    return what == SS_SCOPE_LAUNCHES ? 0 : 1;
}

typedef struct loop_walk {
    ss_callgraph *g;
    int kind;
    long found;
} loop_walk;

static enum CXChildVisitResult find_working_call(CXCursor c, CXCursor parent, CXClientData data)
{
    loop_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    long n = find_node(w->g, callee_definition(c));
    if (n >= 0 && w->g->nodes[n].has_work[w->kind]) {
        w->found = n;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

int ss_callgraph_loop_work(ss_callgraph *g, CXCursor loop, ss_scope_work what, CXCursor call,
                           CXCursor *work, CXCursor *via)
{
    if (via)
        *via = clang_getNullCursor();
    if (ss_scope_has_work_beside(loop, what, call, work))
        return 1;
    if (g == NULL)
        return 0;
    loop_walk w = {g, kind_index(what), -1};
    clang_visitChildren(loop, find_working_call, &w);
    if (w.found < 0)
        return 0;
    *work = g->nodes[w.found].work[w.kind];
    if (via)
        *via = g->nodes[w.found].cursor;
    return 1;
}

int ss_callgraph_own_work(ss_callgraph *g, CXCursor function, ss_scope_work what, CXCursor *first)
{
    long n = g ? find_node(g, function) : -1;
    if (n < 0)
        return ss_scope_has_work(function, what, first);
    return own_work(g, (size_t)n, what, first);
}

int ss_callgraph_does_work(ss_callgraph *g, CXCursor function, ss_scope_work what)
{
    long n = g ? find_node(g, definition_of(function)) : -1;
    return n >= 0 && g->nodes[n].has_work[kind_index(what)];
}

/* The innermost loop around the call of site 's' in its caller that does work of kind 'k'
 * (kind_index), or a null cursor; '*work' (may be NULL) receives that work. Computed once per
 * site. */
static CXCursor site_loop(ss_callgraph *g, size_t s, int k, CXCursor *work)
{
    static const ss_scope_work kinds[KINDS] = {SS_SCOPE_LAUNCHES, SS_SCOPE_ENQUEUES};
    site *st = &g->sites[s];
    if (st->loop_known[k] == 0) {
        CXCursor loops[8];
        size_t n = ss_scope_enclosing_loops(g->nodes[st->caller].cursor, st->call, loops, 8);
        st->loop_known[k] = 2;
        for (size_t i = 0; i < n && st->loop_known[k] == 2; i++) {
            CXCursor found;
            if (!ss_callgraph_loop_work(g, loops[i], kinds[k], st->call, &found, NULL))
                continue;
            st->loop_known[k] = 1;
            st->loop[k] = loops[i];
            st->loop_work[k] = found;
        }
    }
    if (work)
        *work = st->loop_work[k];
    return st->loop_known[k] == 1 ? st->loop[k] : clang_getNullCursor();
}

/* Finds, for each kind, the functions reached from a loop with work: first those a working
 * loop calls, then (a level at a time) the functions they call. */
static void find_reach(ss_callgraph *g)
{
    g->reach_done = 1;
    for (size_t s = 0; s < g->site_count; s++) {
        const site *st = &g->sites[s];
        node *callee = &g->nodes[st->callee];
        if (callee->reached[0] && callee->reached[1])
            continue;
        for (int k = 0; k < KINDS; k++) {
            CXCursor work;
            CXCursor loop = callee->reached[k] ? clang_getNullCursor() : site_loop(g, s, k, &work);
            if (ss_ast_is_null(loop))
                continue;
            callee->reached[k] = 1;
            callee->loop[k] = loop;
            callee->loop_work[k] = work;
            callee->parent[k] = -1;
            callee->site[k] = st->call;
            callee->depth[k] = 1;
            callee->holder[k] = st->caller;
        }
    }
    for (int depth = 1; depth < MAX_DEPTH; depth++) {
        for (size_t s = 0; s < g->site_count; s++) {
            const node *caller = &g->nodes[g->sites[s].caller];
            node *callee = &g->nodes[g->sites[s].callee];
            for (int k = 0; k < KINDS; k++) {
                if (callee->reached[k] || !caller->reached[k] || caller->depth[k] != depth)
                    continue;
                callee->reached[k] = 1;
                callee->loop[k] = caller->loop[k];
                callee->loop_work[k] = caller->loop_work[k];
                callee->parent[k] = (int)g->sites[s].caller;
                callee->site[k] = g->sites[s].call;
                callee->depth[k] = depth + 1;
                callee->holder[k] = caller->holder[k];
            }
        }
    }
}

char *ss_callgraph_place(CXCursor c)
{
    CXFile file = NULL;
    unsigned line = 0;
    clang_getExpansionLocation(clang_getCursorLocation(c), &file, &line, NULL, NULL);
    CXString name = clang_getFileName(file);
    const char *path = clang_getCString(name) ? clang_getCString(name) : "";
    const char *base = strrchr(path, '/');
    char *place = ss_xasprintf("%s:%u", base ? base + 1 : path, line);
    clang_disposeString(name);
    return place;
}

int ss_callgraph_reached_from_loop(ss_callgraph *g, CXCursor function, ss_scope_work what,
                                   ss_loop_reach *out)
{
    memset(out, 0, sizeof *out);
    if (g == NULL)
        return 0;
    long n = find_node(g, definition_of(function));
    if (n < 0)
        return 0;
    if (!g->reach_done)
        find_reach(g);
    int k = kind_index(what);
    const node *nd = &g->nodes[n];
    if (!nd->reached[k])
        return 0;
    out->loop = nd->loop[k];
    out->work = nd->loop_work[k];
    out->function = g->nodes[nd->holder[k]].cursor;
    out->place = ss_callgraph_place(nd->loop[k]);
    out->chain = ss_xasprintf("'%s()'", nd->name);
    for (int p = nd->parent[k]; p >= 0; p = g->nodes[p].parent[k]) {
        char *longer = ss_xasprintf("%s called from '%s()'", out->chain, g->nodes[p].name);
        free(out->chain);
        out->chain = longer;
    }
    /* The calls, innermost first, then turned around. */
    size_t max = sizeof out->calls / sizeof out->calls[0];
    for (long at = n; at >= 0 && out->call_count < max; at = g->nodes[at].parent[k]) {
        out->calls[out->call_count] = g->nodes[at].site[k];
        out->froms[out->call_count++] =
            g->nodes[at].parent[k] >= 0 ? g->nodes[g->nodes[at].parent[k]].cursor : nd->loop[k];
    }
    for (size_t i = 0; i < out->call_count / 2; i++) {
        size_t j = out->call_count - 1 - i;
        CXCursor c = out->calls[i], f = out->froms[i];
        out->calls[i] = out->calls[j];
        out->froms[i] = out->froms[j];
        out->calls[j] = c;
        out->froms[j] = f;
    }
    return 1;
}

CXCursor ss_callgraph_callee(ss_callgraph *g, CXCursor call)
{
    long n = g ? find_node(g, callee_definition(call)) : -1;
    return n >= 0 ? g->nodes[n].cursor : clang_getNullCursor();
}

int ss_callgraph_reached_unless(ss_callgraph *g, CXCursor function, ss_scope_work what,
                                int (*skip)(CXCursor from, CXCursor call, void *data), void *data)
{
    long target = g ? find_node(g, definition_of(function)) : -1;
    if (target < 0)
        return 0;
    int k = kind_index(what);
    /* The functions from which the target can be reached at all (its callers, theirs...), so
     * that only their calls are looked at. */
    unsigned char *leads = ss_xcalloc(g->count, 1);
    leads[target] = 1;
    for (int depth = 0; depth < MAX_DEPTH; depth++) {
        int changed = 0;
        for (size_t s = 0; s < g->site_count; s++) {
            if (leads[g->sites[s].callee] && !leads[g->sites[s].caller]) {
                leads[g->sites[s].caller] = 1;
                changed = 1;
            }
        }
        if (!changed)
            break;
    }
    /* Per node: reached along calls no guard skips. Per call: 0 not asked, 1 skipped, 2 not. */
    unsigned char *reached = ss_xcalloc(g->count, 1);
    unsigned char *skipped = ss_xcalloc(g->site_count ? g->site_count : 1, 1);
    for (size_t s = 0; s < g->site_count && !reached[target]; s++) {
        const site *st = &g->sites[s];
        if (!leads[st->callee] || reached[st->callee])
            continue;
        /* The innermost loop with work decides. */
        CXCursor loop = site_loop(g, s, k, NULL);
        if (ss_ast_is_null(loop))
            continue;
        skipped[s] = skip(loop, st->call, data) ? 1 : 2;
        reached[st->callee] = skipped[s] == 2;
    }
    for (int depth = 1; depth < MAX_DEPTH && !reached[target]; depth++) {
        int changed = 0;
        for (size_t s = 0; s < g->site_count; s++) {
            const site *st = &g->sites[s];
            if (!reached[st->caller] || reached[st->callee] || !leads[st->callee])
                continue;
            if (skipped[s] == 0)
                skipped[s] = skip(g->nodes[st->caller].cursor, st->call, data) ? 1 : 2;
            if (skipped[s] == 2) {
                reached[st->callee] = 1;
                changed = 1;
            }
        }
        if (!changed)
            break;
    }
    int found = reached[target];
    free(leads);
    free(reached);
    free(skipped);
    return found;
}

void ss_loop_reach_free(ss_loop_reach *reach)
{
    free(reach->chain);
    free(reach->place);
    memset(reach, 0, sizeof *reach);
}

/* ------------------------------------------------------------------------------------------
 * Once. */

/* The words of a function's name that say it sets up, validates or tears down: a word of the
 * name (split at '_' and where a capital follows a lower-case letter or digit, lower-cased,
 * two words joined where the stem has two: 'set_up', 'WarmUp') that starts with one of them. */
static const char *const once_stems[] = {"init",     "setup",    "create",   "alloc",   "load",
                                         "prepare",  "config",   "calibrat", "valid",   "verify",
                                         "check",    "warmup",   "release",  "destroy", "cleanup",
                                         "teardown", "shutdown", "finalize", "reset"};

static int is_once_word(const char *word)
{
    for (size_t i = 0; i < sizeof once_stems / sizeof once_stems[0]; i++) {
        if (strncmp(word, once_stems[i], strlen(once_stems[i])) == 0)
            return 1;
    }
    return 0;
}

/* Whether the identifier 'name' has a word that is_once_word accepts, alone or joined with
 * the next. */
static int name_says_once(const char *name)
{
    char words[16][64];
    size_t count = 0, len = 0;
    for (size_t i = 0; name[i] && count < 16; i++) {
        char c = name[i];
        int boundary =
            c == '_' ||
            (i > 0 && isupper((unsigned char)c) &&
             (islower((unsigned char)name[i - 1]) || isdigit((unsigned char)name[i - 1])));
        if (boundary && len > 0) {
            words[count++][len] = '\0';
            len = 0;
        }
        if (c != '_' && count < 16 && len + 1 < sizeof words[0])
            words[count][len++] = (char)tolower((unsigned char)c);
    }
    if (len > 0 && count < 16)
        words[count++][len] = '\0';
    for (size_t i = 0; i < count; i++) {
        if (is_once_word(words[i]))
            return 1;
        char joined[128];
        if (i + 1 < count) {
            snprintf(joined, sizeof joined, "%s%s", words[i], words[i + 1]);
            if (is_once_word(joined) && strlen(joined) <= 8)
                return 1;
        }
    }
    return 0;
}

static int once_by_name(const node *nd, char **why)
{
    enum CXCursorKind k = clang_getCursorKind(nd->cursor);
    if (k == CXCursor_Constructor || k == CXCursor_Destructor) {
        *why = ss_xasprintf("'%s' is a %s", nd->name,
                            k == CXCursor_Constructor ? "constructor" : "destructor");
        return 1;
    }
    CXString s = clang_getCursorSpelling(nd->cursor);
    const char *spelled = clang_getCString(s) ? clang_getCString(s) : "";
    int once = 0;
    if (strcmp(spelled, "main") == 0 && k == CXCursor_FunctionDecl) {
        *why = ss_xstrdup("'main' runs once");
        once = 1;
    } else if (name_says_once(spelled)) {
        *why = ss_xasprintf("'%s' sets up, checks or tears down (its name says so)", nd->name);
        once = 1;
    }
    clang_disposeString(s);
    return once;
}

/* Whether 'match' accepts a word of the identifier 'name' (split as name_says_once, lower-cased),
 * given the word before it ("" for the first). */
static int name_has_word(const char *name, int (*match)(const char *word, const char *prev))
{
    char word[64], prev[64] = "";
    size_t len = 0;
    int prev_lower = 0;
    for (size_t i = 0;; i++) {
        char c = name[i];
        int boundary = c == '\0' || c == '_' || (isupper((unsigned char)c) && prev_lower);
        if (boundary && len > 0) {
            word[len] = '\0';
            if (match(word, prev))
                return 1;
            memcpy(prev, word, len + 1);
            len = 0;
        }
        if (c == '\0')
            return 0;
        if (c != '_' && len + 1 < sizeof word)
            word[len++] = (char)tolower((unsigned char)c);
        prev_lower = islower((unsigned char)c) || isdigit((unsigned char)c);
    }
}

/* A word that starts with init or setup, or 'up' after 'set'. Not 'Init' after 'De'
 * ('lanesDeInit' tears down: teardown_word), nor initiate ('initiateStreaming' starts work). */
static int set_up_word(const char *word, const char *prev)
{
    return (strncmp(word, "init", 4) == 0 && strncmp(word, "initiat", 7) != 0 &&
            strcmp(prev, "de") != 0) ||
           strncmp(word, "setup", 5) == 0 ||
           (strcmp(prev, "set") == 0 && strncmp(word, "up", 2) == 0);
}

/* Whether a word of the identifier 'name' starts with init or setup ('contextsInit',
 * 'init_buffers', 'set_up'). */
static int name_says_set_up(const char *name)
{
    return name_has_word(name, set_up_word);
}

int ss_callgraph_name_says_set_up(const char *name)
{
    return name_says_set_up(name);
}

size_t ss_callgraph_function_count(const ss_callgraph *graph)
{
    return graph ? graph->count : 0;
}

CXCursor ss_callgraph_function(const ss_callgraph *graph, size_t index)
{
    return graph->nodes[index].cursor;
}

int ss_callgraph_sets_up(CXCursor function, char **why)
{
    *why = NULL;
    enum CXCursorKind k = clang_getCursorKind(function);
    if (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod && k != CXCursor_Constructor &&
        k != CXCursor_FunctionTemplate)
        return 0;
    char *name = ss_qualified_name(function);
    CXString s = clang_getCursorSpelling(function);
    const char *spelled = clang_getCString(s) ? clang_getCString(s) : "";
    if (k == CXCursor_Constructor)
        *why = ss_xasprintf("'%s' is a constructor", name);
    else if (name_says_set_up(spelled))
        *why = ss_xasprintf("'%s' sets up (its name says so)", name);
    clang_disposeString(s);
    free(name);
    return *why != NULL;
}

static const char *callable_only_here(ss_callgraph *g, CXCursor function);
/* The name the unresolved call 'i' of the graph calls (a function's or a member's), or NULL;
 * read once. */
static const char *dependent_name(ss_callgraph *g, size_t i)
{
    if (g->dependent_name == NULL) {
        g->dependent_name = ss_xcalloc(g->dependent_count ? g->dependent_count : 1, sizeof(char *));
        for (size_t k = 0; k < g->dependent_count; k++) {
            char *name = ss_scope_callee_name(g->dependent[k]);
            g->dependent_name[k] = name ? name : ss_ast_dependent_member(g->dependent[k]);
        }
    }
    return g->dependent_name[i];
}

static int by_spelling(const void *a, const void *b)
{
    return strcmp(((const spelled_node *)a)->spelled, ((const spelled_node *)b)->spelled);
}

/* How node 'n''s function is spelled ('copy_async'), or NULL; every node's read once, when the
 * graph is whole: the unresolved calls of a unit are matched against every node by name, and
 * libclang makes each spelling anew. */
static const char *node_spelling(ss_callgraph *g, size_t n)
{
    if (g->spelled == NULL) {
        g->spelled = ss_xcalloc(g->count ? g->count : 1, sizeof(char *));
        g->by_spelling = ss_xcalloc(g->count ? g->count : 1, sizeof *g->by_spelling);
        for (size_t k = 0; k < g->count; k++) {
            CXString s = clang_getCursorSpelling(g->nodes[k].cursor);
            const char *text = clang_getCString(s);
            g->spelled[k] = text ? ss_xstrdup(text) : NULL;
            clang_disposeString(s);
            if (g->spelled[k])
                g->by_spelling[g->spelled_count++] = (spelled_node){g->spelled[k], k};
        }
        qsort(g->by_spelling, g->spelled_count, sizeof *g->by_spelling, by_spelling);
    }
    return g->spelled[n];
}

/* The nodes spelled 'name': '*first' receives where they start in the graph's 'by_spelling';
 * returns how many there are. */
static size_t nodes_spelled(ss_callgraph *g, const char *name, size_t *first)
{
    if (g->count == 0)
        return 0;
    node_spelling(g, 0);
    size_t lo = 0, hi = g->spelled_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(g->by_spelling[mid].spelled, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *first = lo;
    while (hi < g->spelled_count && strcmp(g->by_spelling[hi].spelled, name) == 0)
        hi++;
    return hi - lo;
}

static int named_by_dependent(ss_callgraph *g, CXCursor function);

/* Decides, for every node, whether its function cannot run in this unit ('never', 2) or may
 * (3): a function may run when another unit may call it (not inline, of internal linkage or a
 * header's template the unit does not instantiate: callable_only_here), something takes its
 * address or names it outside any function, a function that may run calls it (not itself), or
 * a call left unresolved in a template of a function that may run names it. The rest, called
 * only by functions that cannot run (a header's helpers that only other unused helpers call,
 * through any number of calls, cycles included), cannot. */
static void decide_never(ss_callgraph *g)
{
    g->never_done = 1;
    unsigned char *may = ss_xcalloc(g->count ? g->count : 1, 1);
    unsigned char *used = ss_xcalloc(g->dependent_count ? g->dependent_count : 1, 1);
    for (size_t n = 0; n < g->count; n++)
        may[n] = callable_only_here(g, g->nodes[n].cursor) == NULL || g->nodes[n].refs > 0 ||
                 g->nodes[n].outside > 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t s = 0; s < g->site_count; s++) {
            const site *st = &g->sites[s];
            if (may[st->caller] && !may[st->callee] && st->caller != st->callee)
                may[st->callee] = changed = 1;
        }
        for (size_t i = 0; i < g->dependent_count; i++) {
            if (used[i] || !may[g->dependent_caller[i]])
                continue;
            used[i] = 1;
            const char *callee = dependent_name(g, i);
            size_t first = 0, named = callee ? nodes_spelled(g, callee, &first) : 0;
            for (size_t k = first; k < first + named; k++) {
                size_t n = g->by_spelling[k].node;
                if (!may[n])
                    may[n] = changed = 1;
            }
        }
    }
    for (size_t n = 0; n < g->count; n++)
        g->nodes[n].never = may[n] ? 3 : 2;
    free(may);
    free(used);
}

/* Whether the function of node 'n' cannot run in this unit (decide_never). Returns 1 or 0. */
static int never_runs(ss_callgraph *g, size_t n)
{
    if (!g->never_done)
        decide_never(g);
    return g->nodes[n].never == 2;
}

/* ------------------------------------------------------------------------------------------
 * Calls made in lambdas. */

static int is_lambda(CXCursor c)
{
    return clang_getCursorKind(c) == CXCursor_LambdaExpr;
}

/* Whether the lambda 'lambda', found under 'up' (the node above it on the way down), is
 * invoked where it is written ('[&] { ... }()'): then its calls run where it stands. */
static int invoked_in_place(CXCursor up, CXCursor lambda)
{
    if (clang_getCursorKind(up) != CXCursor_CallExpr)
        return 0;
    CXString s = clang_getCursorSpelling(up);
    int call = clang_getCString(s) && strcmp(clang_getCString(s), "operator()") == 0;
    clang_disposeString(s);
    unsigned up_begin, up_end, begin, end;
    ss_ast_range(up, &up_begin, &up_end);
    ss_ast_range(lambda, &begin, &end);
    return call && begin == up_begin;
}

static int is_lambda_or_holder(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    return k == CXCursor_LambdaExpr || k == CXCursor_CallExpr || k == CXCursor_ReturnStmt ||
           k == CXCursor_VarDecl || k == CXCursor_BinaryOperator;
}

/* How the function 'caller' uses the local variable 'var' that a lambda is bound to: its
 * references, and those that are the object of a call ('f()') in no loop of 'caller'. */
typedef struct bound_walk {
    CXCursor caller;
    CXCursor var;
    unsigned refs, calls;
} bound_walk;

static enum CXChildVisitResult find_bound_uses(CXCursor c, CXCursor parent, CXClientData data)
{
    bound_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(c), w->var))
        w->refs++;
    if (k == CXCursor_CallExpr && ss_ast_child_count(c) > 0) {
        CXCursor object = ss_ast_strip(ss_ast_child(c, 0));
        CXString s = clang_getCursorSpelling(c);
        int invoked = clang_getCString(s) && strcmp(clang_getCString(s), "operator()") == 0 &&
                      clang_getCursorKind(object) == CXCursor_DeclRefExpr &&
                      clang_equalCursors(clang_getCursorReferenced(object), w->var);
        clang_disposeString(s);
        if (invoked && ss_ast_is_null(ss_scope_enclosing_loop(w->caller, c)))
            w->calls++;
    }
    return CXChildVisit_Recurse;
}

/* Whether the lambda held by 'holder' is bound to a local variable of 'caller' that 'caller'
 * only calls, outside its loops ('auto step = [&] { ... }; step();'): it runs where it is
 * called, as if written there. */
static int bound_and_called(CXCursor caller, CXCursor holder)
{
    if (clang_getCursorKind(holder) != CXCursor_VarDecl ||
        !ss_ast_is_function(clang_getCursorSemanticParent(holder)))
        return 0;
    bound_walk w = {caller, holder, 0, 0};
    clang_visitChildren(caller, find_bound_uses, &w);
    return w.refs > 0 && w.refs == w.calls;
}

/* The innermost lambda around 'call' in the function 'caller' that is not invoked where it is
 * written, nor bound to a local that is only called outside loops (a null cursor when there
 * is none); '*holder' receives the node that holds it (a
 * return, a call it is passed to, a variable it initializes, an assignment), a null cursor
 * when none of these does. */
static CXCursor lambda_around(CXCursor caller, CXCursor call, CXCursor *holder)
{
    enum { MAX_PATH = 64 };
    CXCursor path[MAX_PATH];
    *holder = clang_getNullCursor();
    long found = ss_scope_path(caller, call, is_lambda_or_holder, path, MAX_PATH);
    long n = found < 0 ? 0 : found < MAX_PATH ? found : MAX_PATH;
    for (long i = n - 1; i >= 0; i--) {
        if (!is_lambda(path[i]) || (i > 0 && invoked_in_place(path[i - 1], path[i])))
            continue;
        /* What holds it: the nearest node above that is not a constructor's call (a
         * std::function made from it) or a conversion's (to a function pointer). */
        for (long j = i - 1; j >= 0 && ss_ast_is_null(*holder); j--) {
            enum CXCursorKind k = clang_getCursorKind(path[j]);
            if (k == CXCursor_LambdaExpr)
                break;
            enum CXCursorKind callee = clang_getCursorKind(clang_getCursorReferenced(path[j]));
            if (k == CXCursor_CallExpr &&
                (callee == CXCursor_Constructor || callee == CXCursor_ConversionFunction))
                continue;
            *holder = path[j];
        }
        if (bound_and_called(caller, *holder)) {
            *holder = clang_getNullCursor();
            continue;
        }
        return path[i];
    }
    return clang_getNullCursor();
}

/* "a lambda that 'F' returns (k.cu:468)", "... passes to 'run()' ...", "... stores in 'fn'
 * ...", or "a lambda in 'F' (...)": the lambda 'lambda' of the function of node 'caller' and
 * what holds it. Malloc'ed. */
static char *lambda_words(const ss_callgraph *g, size_t caller, CXCursor lambda, CXCursor holder)
{
    const char *name = g->nodes[caller].name;
    char *place = ss_callgraph_place(lambda);
    char *what = NULL;
    enum CXCursorKind k = clang_getCursorKind(holder);
    if (k == CXCursor_ReturnStmt) {
        what = ss_xasprintf("a lambda that '%s' returns", name);
    } else if (k == CXCursor_CallExpr) {
        CXString s = clang_getCursorSpelling(holder);
        what = ss_xasprintf("a lambda that '%s' passes to '%s()'", name,
                            clang_getCString(s) ? clang_getCString(s) : "...");
        clang_disposeString(s);
    } else if (k == CXCursor_VarDecl || k == CXCursor_BinaryOperator) {
        char *target = k == CXCursor_VarDecl ? NULL : ss_expr_text(ss_ast_child(holder, 0));
        CXString s = clang_getCursorSpelling(holder);
        what = ss_xasprintf("a lambda that '%s' stores in '%s'", name,
                            target                ? target
                            : clang_getCString(s) ? clang_getCString(s)
                                                  : "...");
        clang_disposeString(s);
        free(target);
    } else {
        what = ss_xasprintf("a lambda in '%s'", name);
    }
    char *words = ss_xasprintf("%s (%s)", what, place);
    free(what);
    free(place);
    return words;
}

char *ss_callgraph_lambda_words(ss_callgraph *g, CXCursor function)
{
    long n = g ? find_node(g, definition_of(function)) : -1;
    /* Callers up, a level at a time (MAX_DEPTH), the first lambda found. */
    size_t chain[MAX_DEPTH + 1];
    int depth = 0;
    if (n < 0)
        return NULL;
    chain[0] = (size_t)n;
    for (; depth < MAX_DEPTH; depth++) {
        long next = -1;
        for (size_t s = 0; s < g->site_count; s++) {
            const site *st = &g->sites[s];
            if (st->callee != chain[depth] || st->caller == chain[depth])
                continue;
            CXCursor holder;
            CXCursor lambda = lambda_around(g->nodes[st->caller].cursor, st->call, &holder);
            if (!ss_ast_is_null(lambda)) {
                char *in = lambda_words(g, st->caller, lambda, holder);
                char *words =
                    depth == 0
                        ? ss_xasprintf("'%s' is called from %s", g->nodes[chain[0]].name, in)
                        : ss_xasprintf("'%s' is reached from %s, through '%s'",
                                       g->nodes[chain[0]].name, in, g->nodes[chain[depth]].name);
                free(in);
                return words;
            }
            if (next < 0)
                next = (long)st->caller;
        }
        if (next < 0)
            return NULL;
        chain[depth + 1] = (size_t)next;
    }
    return NULL;
}

static int runs_once(ss_callgraph *g, size_t n, int depth)
{
    node *nd = &g->nodes[n];
    if (nd->once >= 2)
        return nd->once == 2;
    if (nd->once == 1 || depth > MAX_DEPTH)
        return 0; /* recursion: not once */
    if (once_by_name(nd, &nd->once_why)) {
        nd->once = 2;
        return 1;
    }
    nd->once = 1;
    int callers = 0, once = nd->refs == 0;
    size_t first_caller = 0, idle_caller = 0, idle = 0;
    for (size_t s = 0; s < g->site_count && once; s++) {
        const site *st = &g->sites[s];
        if (st->callee != n)
            continue;
        /* A call made by a function that cannot run here does not run. */
        if (st->caller != n && never_runs(g, st->caller)) {
            if (idle++ == 0)
                idle_caller = st->caller;
            continue;
        }
        if (callers++ == 0)
            first_caller = st->caller;
        /* A call in a lambda runs when the lambda is called, not where it is written. */
        CXCursor holder;
        once = st->caller != n &&
               ss_ast_is_null(ss_scope_enclosing_loop(g->nodes[st->caller].cursor, st->call)) &&
               ss_ast_is_null(lambda_around(g->nodes[st->caller].cursor, st->call, &holder)) &&
               runs_once(g, st->caller, depth + 1);
    }
    once = once && callers > 0;
    nd->once = once ? 2 : 3;
    if (!once)
        return 0;
    char *others = idle == 0
                       ? ss_xstrdup("")
                       : ss_xasprintf(" (and from '%s'%s, which nothing in this unit calls)",
                                      g->nodes[idle_caller].name, idle > 1 ? " and others" : "");
    nd->once_why = callers == 1 ? ss_xasprintf("'%s' is called once, from '%s'%s", nd->name,
                                               g->nodes[first_caller].name, others)
                                : ss_xasprintf("'%s' is called only outside loops, from "
                                               "functions that run once%s",
                                               nd->name, others);
    free(others);
    return 1;
}

int ss_callgraph_runs_once(ss_callgraph *g, CXCursor function, char **why)
{
    *why = NULL;
    if (g == NULL)
        return 0;
    long n = find_node(g, definition_of(function));
    if (n < 0 || !runs_once(g, (size_t)n, 0))
        return 0;
    *why = ss_xstrdup(g->nodes[n].once_why);
    return 1;
}

/* ------------------------------------------------------------------------------------------
 * Functions that run only during set-up. */

/* Calls that return twice (a loop written with them) end a walk up as a goto does: any
 * '...setjmp...' (a longjmp returns there), getcontext (a setcontext), savectx and vfork (the
 * child runs on in the parent's frame), each also with a leading '_'. */
static int returns_twice(CXCursor call)
{
    static const char *const names[] = {"getcontext", "savectx", "vfork"};
    CXString s = clang_getCursorSpelling(call);
    const char *name = clang_getCString(s) ? clang_getCString(s) : "";
    int twice = strstr(name, "setjmp") != NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !twice; i++)
        twice = strcmp(name, names[i]) == 0 || (name[0] == '_' && strcmp(name + 1, names[i]) == 0);
    clang_disposeString(s);
    return twice;
}

static int holds_jump_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_GotoStmt && k != CXCursor_IndirectGotoStmt &&
        !(k == CXCursor_CallExpr && returns_twice(c)))
        return CXChildVisit_Recurse;
    *(int *)data = 1;
    return CXChildVisit_Break;
}

int ss_callgraph_holds_jump(CXCursor f)
{
    int found = 0;
    clang_visitChildren(f, (CXCursorVisitor)holds_jump_visit, &found);
    return found;
}

/* Whether node 'nd' is the program's 'main' (at file scope, not one in a namespace). */
static int is_main(const node *nd)
{
    CXString s = clang_getCursorSpelling(nd->cursor);
    int main =
        clang_getCursorKind(nd->cursor) == CXCursor_FunctionDecl && clang_getCString(s) &&
        strcmp(clang_getCString(s), "main") == 0 &&
        clang_getCursorKind(clang_getCursorSemanticParent(nd->cursor)) == CXCursor_TranslationUnit;
    clang_disposeString(s);
    return main;
}

/* Whether the unit has errors: 0, 1 (all in the main file) or 2 (some outside it). Read once,
 * with the main file's error offsets (holds_error). */
static int unit_has_errors(ss_callgraph *g)
{
    if (g->has_errors >= 0)
        return g->has_errors;
    g->has_errors = 0;
    unsigned count = clang_getNumDiagnostics(g->tu);
    for (unsigned i = 0; i < count; i++) {
        CXDiagnostic d = clang_getDiagnostic(g->tu, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
            CXSourceLocation at = clang_getDiagnosticLocation(d);
            unsigned offset;
            clang_getSpellingLocation(at, NULL, NULL, NULL, &offset);
            if (!clang_Location_isFromMainFile(at)) {
                g->has_errors = 2;
            } else {
                g->errors = grow(g->errors, &g->error_cap, g->error_count, sizeof *g->errors);
                g->errors[g->error_count++] = offset;
                g->has_errors = g->has_errors ? g->has_errors : 1;
            }
        }
        clang_disposeDiagnostic(d);
    }
    return g->has_errors;
}

/* Whether an error of the unit lies in the extent of 'f' (its recovery may have dropped a call,
 * or made a loop a block). */
static int holds_error(ss_callgraph *g, CXCursor f)
{
    if (!unit_has_errors(g))
        return 0;
    unsigned begin, end;
    ss_ast_range(f, &begin, &end);
    for (size_t i = 0; i < g->error_count; i++) {
        if (g->errors[i] >= begin && g->errors[i] <= end)
            return 1;
    }
    return 0;
}

unsigned ss_callgraph_error_line(ss_callgraph *g, CXCursor f)
{
    CXSourceLocation at = clang_getCursorLocation(f);
    if (!clang_Location_isFromMainFile(at) || !holds_error(g, f))
        return 0;
    unsigned begin, end, first = UINT_MAX;
    ss_ast_range(f, &begin, &end);
    for (size_t i = 0; i < g->error_count; i++) {
        if (g->errors[i] >= begin && g->errors[i] <= end && g->errors[i] < first)
            first = g->errors[i];
    }
    CXFile file = NULL;
    clang_getSpellingLocation(at, &file, NULL, NULL, NULL);
    unsigned line = 0;
    clang_getSpellingLocation(clang_getLocationForOffset(g->tu, file, first), NULL, &line, NULL,
                              NULL);
    return line;
}

static int by_token_name(const void *a, const void *b)
{
    return strcmp(((const token_name *)a)->spelling, ((const token_name *)b)->spelling);
}

/* The main file's identifiers, their cursors and spellings, sorted by spelling: read once. */
static void read_tokens(ss_callgraph *g)
{
    CXCursor unit = clang_getTranslationUnitCursor(g->tu);
    clang_tokenize(g->tu, clang_getCursorExtent(unit), &g->tokens, &g->token_count);
    g->token_cursors = ss_xcalloc(g->token_count ? g->token_count : 1, sizeof(CXCursor));
    clang_annotateTokens(g->tu, g->tokens, g->token_count, g->token_cursors);
    g->token_names = ss_xcalloc(g->token_count ? g->token_count : 1, sizeof(token_name));
    for (unsigned i = 0; i < g->token_count; i++) {
        if (clang_getTokenKind(g->tokens[i]) != CXToken_Identifier)
            continue;
        CXString t = clang_getTokenSpelling(g->tu, g->tokens[i]);
        g->token_names[g->name_count++] = (token_name){ss_xstrdup(clang_getCString(t)), i};
        clang_disposeString(t);
    }
    qsort(g->token_names, g->name_count, sizeof(token_name), by_token_name);
}

static int is_function_decl(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_FunctionTemplate;
}

/* Whether every identifier of the main file spelled as node 'n''s function names it, as one of
 * its declarations or as the callee of a call the graph sees (as many such mentions as calls
 * made in the main file): a mention the graph does not see as a call (a default member
 * initializer, a default argument, a template argument, an attribute, a call clang could not
 * make sense of in a unit with errors) may call it anywhere. */
static int mentions_all_seen(ss_callgraph *g, size_t n)
{
    if (g->tokens == NULL)
        read_tokens(g);
    const char *name = node_spelling(g, n);
    if (name == NULL)
        return 0;
    token_name key = {name, 0};
    size_t lo = 0, hi = g->name_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (by_token_name(&g->token_names[mid], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t calls = 0, mentions = 0;
    for (size_t s = 0; s < g->site_count; s++)
        calls += g->sites[s].callee == n &&
                 clang_Location_isFromMainFile(clang_getCursorLocation(g->sites[s].call));
    for (size_t k = lo; k < g->name_count && strcmp(g->token_names[k].spelling, name) == 0; k++) {
        CXCursor at = g->token_cursors[g->token_names[k].index];
        if (!clang_equalCursors(definition_of(clang_getCursorReferenced(at)), g->nodes[n].cursor))
            return 0;
        mentions += !is_function_decl(at);
    }
    return mentions == calls;
}

/* Names of members a language construct calls without naming them: a range-for's begin and
 * end, a structured binding's get, a coroutine's promise and awaiter, swap in library
 * algorithms. */
static int called_unnamed(const char *name)
{
    static const char *const names[] = {"begin",         "end",
                                        "get",           "swap",
                                        "await_ready",   "await_suspend",
                                        "await_resume",  "initial_suspend",
                                        "final_suspend", "get_return_object",
                                        "return_value",  "return_void",
                                        "yield_value",   "unhandled_exception"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(name, names[i]) == 0)
            return 1;
    }
    return 0;
}

/* Whether every call of node 'n' is one this graph sees (as ss_callgraph_only_here says) and no
 * other unit holds its definition (decide_seen, asked once per node): it has internal linkage or is
 * defined in the main file (in C, internal linkage only: an inline definition there may be the
 * external one); no construct calls it without naming it; every mention of its name is one the
 * graph knows (mentions_all_seen); and no error of the unit lies outside the main file. */
static int decide_seen(ss_callgraph *g, size_t n)
{
    const node *nd = &g->nodes[n];
    if (callable_only_here(g, nd->cursor) == NULL || nd->refs > 0 || nd->outside > 0 ||
        named_by_dependent(g, nd->cursor) || unit_has_errors(g) == 2)
        return 0;
    const char *name = node_spelling(g, n);
    if (name == NULL || called_unnamed(name))
        return 0;
    int internal = clang_getCursorLinkage(nd->cursor) == CXLinkage_Internal;
    if (!internal && (clang_getCursorLanguage(nd->cursor) == CXLanguage_C ||
                      !clang_Location_isFromMainFile(clang_getCursorLocation(nd->cursor))))
        return 0;
    return mentions_all_seen(g, n);
}

static int calls_all_seen(ss_callgraph *g, size_t n)
{
    node *nd = &g->nodes[n];
    if (nd->seen == 0)
        nd->seen = decide_seen(g, n) ? 2 : 3;
    return nd->seen == 2;
}

static int nested_scope(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    return k == CXCursor_ClassDecl || k == CXCursor_StructDecl || k == CXCursor_UnionDecl ||
           k == CXCursor_ClassTemplate || ss_ast_is_function(c);
}

/* Whether a call 'st' of a way up is made where it runs when its caller does: not in its
 * callee itself, nor in a lambda that is not invoked where it is written, nor in a class or
 * function declared inside its caller (a local class's method). */
static int called_in_place(const ss_callgraph *g, const site *st)
{
    enum { MAX_PATH = 64 };
    CXCursor holder, path[MAX_PATH];
    CXCursor from = g->nodes[st->caller].cursor;
    return st->caller != st->callee && ss_ast_is_null(lambda_around(from, st->call, &holder)) &&
           ss_scope_path(from, st->call, nested_scope, path, MAX_PATH) == 0;
}

/* Whether the call 'st' is made in place, outside any loop of a caller that holds no error. */
static int called_plainly(ss_callgraph *g, const site *st)
{
    CXCursor from = g->nodes[st->caller].cursor;
    return called_in_place(g, st) && ss_ast_is_null(ss_scope_enclosing_loop(from, st->call)) &&
           !holds_error(g, from);
}

/* Whether node 'n' runs a bounded number of times per program, as the code shows: it is
 * 'main' (which nothing calls), or every call of it is seen here and made plainly
 * (called_plainly) in a function that holds no goto or setjmp and is so bounded in turn.
 * Decided once per node; 'bounded_next' keeps the first caller on the way up. */
static int bounded(ss_callgraph *g, size_t n, int depth)
{
    node *nd = &g->nodes[n];
    if (nd->bounded >= 1)
        return nd->bounded == 2;
    if (is_main(nd)) {
        int called = 0;
        for (size_t s = 0; s < g->site_count && !called; s++)
            called = g->sites[s].callee == n;
        nd->bounded =
            !called && !ss_callgraph_holds_jump(nd->cursor) && !holds_error(g, nd->cursor) ? 2 : 3;
        return nd->bounded == 2;
    }
    if (depth > MAX_DEPTH || !calls_all_seen(g, n)) {
        nd->bounded = 3;
        return 0;
    }
    nd->bounded = 1;
    size_t callers = 0;
    int ok = 1;
    for (size_t s = 0; s < g->site_count && ok; s++) {
        const site *st = &g->sites[s];
        if (st->callee != n)
            continue;
        ok = called_plainly(g, st) && !ss_callgraph_holds_jump(g->nodes[st->caller].cursor) &&
             bounded(g, st->caller, depth + 1);
        if (callers++ == 0)
            nd->bounded_next = st->caller;
    }
    nd->bounded = ok && callers > 0 ? 2 : 3;
    return nd->bounded == 2;
}

/* Whether every way into node 'n' passes through a bounded set-up function: 'n' is one (its
 * name says so; not a constructor), or it is not 'main', every call of it is seen here, made
 * plainly (called_plainly), and each caller passes in turn. Decided once per node:
 * 'set_up_via' keeps the set-up function of the first way up, 'set_up_many' whether the ways
 * pass through more than one. */
static int set_up_only(ss_callgraph *g, size_t n, int depth)
{
    node *nd = &g->nodes[n];
    if (nd->set_up >= 1)
        return nd->set_up == 2;
    CXString s = clang_getCursorSpelling(nd->cursor);
    int named = clang_getCursorKind(nd->cursor) != CXCursor_Constructor && clang_getCString(s) &&
                name_says_set_up(clang_getCString(s));
    clang_disposeString(s);
    if (named && bounded(g, n, 0)) {
        nd->set_up_via = n;
        nd->set_up = 2;
        return 1;
    }
    if (depth > MAX_DEPTH || is_main(nd) || !calls_all_seen(g, n)) {
        nd->set_up = 3;
        return 0;
    }
    nd->set_up = 1;
    size_t callers = 0;
    int ok = 1;
    for (size_t i = 0; i < g->site_count && ok; i++) {
        const site *st = &g->sites[i];
        if (st->callee != n)
            continue;
        ok = called_plainly(g, st) && set_up_only(g, st->caller, depth + 1);
        if (!ok)
            break;
        const node *up = &g->nodes[st->caller];
        if (callers++ == 0)
            nd->set_up_via = up->set_up_via;
        else
            nd->set_up_many |= up->set_up_via != nd->set_up_via;
        nd->set_up_many |= up->set_up_many;
    }
    nd->set_up = ok && callers > 0 ? 2 : 3;
    return nd->set_up == 2;
}

/* "'S', which sets up (its name says so) and is called only outside loops, from 'run', from
 * 'main'": the set-up function 'via' and the first way from it up to 'main'. */
static char *set_up_words(const ss_callgraph *g, size_t via)
{
    size_t n = via;
    char *words = ss_xasprintf("'%s', which sets up (its name says so) and is called only "
                               "outside loops",
                               g->nodes[n].name);
    for (int depth = 0; depth <= MAX_DEPTH && !is_main(&g->nodes[n]); depth++) {
        n = g->nodes[n].bounded_next;
        char *longer = ss_xasprintf("%s, from '%s'", words, g->nodes[n].name);
        free(words);
        words = longer;
    }
    return words;
}

int ss_callgraph_only_in_set_up(ss_callgraph *g, CXCursor function, char **why)
{
    *why = NULL;
    long n = g ? find_node(g, definition_of(function)) : -1;
    if (n < 0 || !set_up_only(g, (size_t)n, 0))
        return 0;
    const node *nd = &g->nodes[n];
    char *through = set_up_words(g, nd->set_up_via);
    *why = nd->set_up_via == (size_t)n
               ? ss_xasprintf("%s", through)
               : ss_xasprintf("every call of '%s' is made during set-up, in %s%s", nd->name,
                              through, nd->set_up_many ? " (and others)" : "");
    free(through);
    return 1;
}

long ss_callgraph_calls_of(ss_callgraph *g, CXCursor function, CXCursor *calls, CXCursor *callers,
                           size_t max)
{
    long n = g ? find_node(g, definition_of(function)) : -1;
    if (n < 0 || g->nodes[n].refs > 0)
        return -1;
    size_t count = 0;
    for (size_t s = 0; s < g->site_count; s++) {
        const site *st = &g->sites[s];
        if (st->callee != (size_t)n)
            continue;
        if (count < max) {
            calls[count] = st->call;
            callers[count] = g->nodes[st->caller].cursor;
        }
        count++;
    }
    return (long)count;
}

/* How many parameters the function (or function template) 'f' declares. */
static int param_count(CXCursor f)
{
    int count = 0;
    for (unsigned i = 0; i < ss_ast_child_count(f); i++)
        count += clang_getCursorKind(ss_ast_child(f, i)) == CXCursor_ParmDecl;
    return count;
}

/* Whether the callee of the unresolved call 'call' is a qualified name ('lib::copy(...)':
 * found without looking at the arguments' types) whose overloads leave out node 'n'. */
static int qualified_elsewhere(const ss_callgraph *g, CXCursor call, size_t n)
{
    CXCursor e = ss_ast_strip(ss_ast_child(call, 0));
    CXCursor ref = clang_getNullCursor();
    int qualified = 0;
    for (unsigned k = 0;
         clang_getCursorKind(e) == CXCursor_DeclRefExpr && k < ss_ast_child_count(e); k++) {
        ref = ss_ast_child(e, k);
        qualified |= clang_getCursorKind(ref) == CXCursor_NamespaceRef ||
                     clang_getCursorKind(ref) == CXCursor_TypeRef;
    }
    if (!qualified || clang_getCursorKind(ref) != CXCursor_OverloadedDeclRef)
        return 0;
    for (unsigned k = 0; k < clang_getNumOverloadedDecls(ref); k++) {
        if (find_node(g, definition_of(clang_getOverloadedDecl(ref, k))) == (long)n)
            return 0;
    }
    return 1;
}

/* Whether the call 'i' left unresolved in a template may call the function of node 'n': it
 * names it (a function's or a member's name), gives it no more arguments than it has
 * parameters, and a qualified name's overloads include it (qualified_elsewhere). */
static int dependent_may_call(ss_callgraph *g, size_t i, size_t n)
{
    CXCursor call = g->dependent[i];
    CXCursor f = g->nodes[n].cursor;
    const char *callee = dependent_name(g, i);
    const char *spelled = node_spelling(g, n);
    if (callee == NULL || spelled == NULL || strcmp(callee, spelled) != 0)
        return 0;
    /* (A template may take a pack of parameters.) */
    if (clang_getCursorKind(f) != CXCursor_FunctionTemplate && !clang_Cursor_isVariadic(f) &&
        clang_Cursor_getNumArguments(call) > param_count(f))
        return 0;
    return !qualified_elsewhere(g, call, n);
}

/* The type of the parameter 'index' of the function (or function template) 'f', or an invalid
 * type. */
static CXType param_type(CXCursor f, int index)
{
    int seen = 0;
    for (unsigned k = 0; k < ss_ast_child_count(f); k++) {
        CXCursor c = ss_ast_child(f, k);
        if (clang_getCursorKind(c) == CXCursor_ParmDecl && seen++ == index)
            return clang_getCanonicalType(clang_getCursorType(c));
    }
    CXType none = {CXType_Invalid, {NULL, NULL}};
    return none;
}

int ss_callgraph_takes_value(ss_callgraph *g, CXCursor call, int index)
{
    int found = 0;
    for (size_t i = 0; g && i < g->dependent_count; i++) {
        if (!clang_equalCursors(g->dependent[i], call))
            continue;
        for (size_t n = 0; n < g->count; n++) {
            if (!dependent_may_call(g, i, n))
                continue;
            CXType t = param_type(g->nodes[n].cursor, index);
            if (t.kind == CXType_Invalid || t.kind == CXType_LValueReference ||
                t.kind == CXType_RValueReference)
                return 0;
            found = 1;
        }
        break;
    }
    return found;
}

int ss_callgraph_named_elsewhere(ss_callgraph *g, CXCursor function)
{
    long n = g ? find_node(g, definition_of(function)) : -1;
    return n < 0 || g->nodes[n].refs > 0 || g->nodes[n].outside > 0;
}

long ss_callgraph_seen_calls_of(ss_callgraph *g, CXCursor function, CXCursor *calls,
                                CXCursor *callers, size_t max)
{
    long n = g ? find_node(g, definition_of(function)) : -1;
    if (n < 0)
        return -1;
    CXCursor f = g->nodes[n].cursor;
    /* Another unit may call a function of external linkage that is not inline; a template's
     * calls there are of that unit's instantiations. */
    int here = clang_getCursorLinkage(f) == CXLinkage_Internal ||
               clang_getCursorKind(f) == CXCursor_FunctionTemplate ||
               clang_Cursor_isFunctionInlined(f);
    if (!here || g->nodes[n].outside > 0 || clang_CXXMethod_isVirtual(f))
        return -1;
    long count = ss_callgraph_calls_of(g, function, calls, callers, max);
    for (size_t i = 0; count >= 0 && i < g->dependent_count; i++) {
        if (!dependent_may_call(g, i, (size_t)n))
            continue;
        if ((size_t)count < max) {
            calls[count] = g->dependent[i];
            callers[count] = g->nodes[g->dependent_caller[i]].cursor;
        }
        count++;
    }
    return count;
}

/* ------------------------------------------------------------------------------------------
 * Calls of named functions in a loop. */

typedef struct named_walk {
    ss_callgraph *g;
    const char *const *names;
    size_t count;
    size_t list; /* 'names' in g's name_lists (name_list), where 'g' is not NULL */
    int depth, limit;
    CXCursor function; /* the function whose body is walked (a null cursor at the top) */
    CXCursor found;
} named_walk;

/* Whether 'function' is a wrapper: its body is one 'return' of a value ('now_us' returning
 * 'now_ms() * 1e3'). Past two calls, only such a function is followed: a function that logs,
 * reporting a time among other work, is not a clock (ss_callgraph_calls_named_within). */
static int value_wrapper(CXCursor function)
{
    CXCursor body = ss_ast_body(function);
    if (ss_ast_is_null(body) || ss_ast_child_count(body) != 1)
        return 0;
    CXCursor ret = ss_ast_child(body, 0);
    return clang_getCursorKind(ret) == CXCursor_ReturnStmt && ss_ast_child_count(ret) == 1;
}

/* The last word of the identifier 'name' in lower case, split at '_' and where a capital
 * follows a small letter or a digit, or ends a run of capitals before a small letter:
 * 'timer' of 'GpuTimer', 'GPUTimer' and 'cuda_timer', 'pool' of 'FrameTimerPool'. */
static void last_word(const char *name, char *word, size_t size)
{
    size_t len = 0;
    word[0] = '\0';
    for (size_t i = 0; name[i] != '\0'; i++) {
        unsigned char c = (unsigned char)name[i], prev = i ? (unsigned char)name[i - 1] : 0;
        unsigned char next = (unsigned char)name[i + 1];
        int starts =
            isupper(c) && (islower(prev) || isdigit(prev) || (isupper(prev) && islower(next)));
        if (c == '_' || starts)
            len = 0;
        if (c != '_' && len + 1 < size)
            word[len++] = (char)tolower(c);
        word[len] = '\0';
    }
}

/* Whether the method 'ref' is a timer's reading: it returns a floating-point value (the time;
 * a 'void' or 'bool' stop re-arms a watchdog or a signal timer), its class's last word is
 * 'word' ('Timer', 'GpuTimer', 'cuda_timer'; not 'TimerQueue' or 'RetimerConfig'), and the
 * unit does not define it: where it does, the walk reads its body. 'starts': the method opens
 * the measurement ('Timer::Start', which returns a handle or nothing): any result. */
static int timer_reading(CXCursor ref, const char *word, int starts)
{
    if (!ss_ast_is_null(clang_getCursorDefinition(ref)))
        return 0;
    enum CXTypeKind r = clang_getCanonicalType(clang_getCursorResultType(ref)).kind;
    if (!starts && r != CXType_Float && r != CXType_Double && r != CXType_LongDouble)
        return 0;
    CXCursor owner = clang_getCursorSemanticParent(ref);
    enum CXCursorKind k = clang_getCursorKind(owner);
    if (k != CXCursor_ClassDecl && k != CXCursor_StructDecl && k != CXCursor_ClassTemplate)
        return 0;
    CXString o = clang_getCursorSpelling(owner);
    char last[64];
    last_word(clang_getCString(o) ? clang_getCString(o) : "", last, sizeof last);
    clang_disposeString(o);
    return strcmp(last, word) == 0;
}

/* Whether the function 'ref' named 'name' is what 'pattern' names: a name as ss_api_name_is
 * takes it, or "word::method", a method 'method' (any case) that timer_reading takes for a
 * reading of a 'word' ('Timer::Stop' returning the seconds, 'GpuTimer::ElapsedMillis' for
 * "timer::stop", "timer::elapsedmillis"). */
static int named_as(CXCursor ref, const char *name, const char *pattern)
{
    const char *sep = strstr(pattern, "::");
    if (sep == NULL)
        return ss_api_name_is(name, pattern);
    if (ss_ast_is_null(ref) || strcasecmp(name, sep + 2) != 0)
        return 0;
    char word[32];
    snprintf(word, sizeof word, "%.*s", (int)(sep - pattern), pattern);
    return timer_reading(ref, word, strcasecmp(sep + 2, "start") == 0);
}

static CXCursor named_below(named_walk *w, size_t n);

static enum CXChildVisitResult find_named(CXCursor c, CXCursor parent, CXClientData data)
{
    named_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    CXCursor ref = clang_getCursorReferenced(c);
    CXString s = clang_getCursorSpelling(ss_ast_is_null(ref) ? c : ref);
    /* A call left unresolved in a template (type-dependent arguments) by its overload set's
     * name: 'cudaHostRegister(&result, ...)' with 'T result'. */
    char *dependent = ss_ast_is_null(ref) ? ss_scope_callee_name(c) : NULL;
    const char *name = dependent ? dependent : clang_getCString(s);
    for (size_t i = 0; name && i < w->count && ss_ast_is_null(w->found); i++) {
        if (named_as(ref, name, w->names[i]))
            w->found = c;
    }
    free(dependent);
    clang_disposeString(s);
    if (!ss_ast_is_null(w->found))
        return CXChildVisit_Break;
    long n = w->g && w->depth < w->limit && (w->depth < 2 || value_wrapper(w->function))
                 ? find_node(w->g, callee_definition(c))
                 : -1;
    if (n >= 0) {
        w->found = named_below(w, (size_t)n);
        if (!ss_ast_is_null(w->found))
            return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* The first call find_named finds in the body of node 'n', one call deeper than 'w' stands,
 * or a null cursor. A loop's clock or a branch's error report is looked for below the same
 * functions from many loops and calls (NVIDIA warp's warp.cu: each of its findings' loops
 * reaches most of the unit three calls down), and what the walk finds there depends only on
 * the node, the names, the depth and the limit: it is kept per node. */
static CXCursor named_below(named_walk *w, size_t n)
{
    node *nd = &w->g->nodes[n];
    for (size_t i = 0; i < nd->named_count; i++) {
        const named_row *row = &nd->named[i];
        if (row->list == w->list && row->depth == w->depth && row->limit == w->limit)
            return row->found;
    }
    CXCursor outer = w->function;
    w->function = nd->cursor;
    w->depth++;
    clang_visitChildren(nd->cursor, find_named, w);
    w->depth--;
    w->function = outer;
    /* The walk below may have kept rows of this node too (a recursion, deeper). */
    nd = &w->g->nodes[n];
    nd->named = grow(nd->named, &nd->named_cap, nd->named_count, sizeof *nd->named);
    nd->named[nd->named_count++] = (named_row){w->list, w->depth, w->limit, w->found};
    return w->found;
}

/* The index of the list 'names' ('count' of them) in g's name_lists, added where it is new. */
static size_t name_list(ss_callgraph *g, const char *const *names, size_t count)
{
    size_t size = 1;
    for (size_t i = 0; i < count; i++)
        size += strlen(names[i]) + 1;
    char *joined = ss_xcalloc(size, 1), *end = joined;
    for (size_t i = 0; i < count; i++)
        end += snprintf(end, size - (size_t)(end - joined), "%s\n", names[i]);
    for (size_t i = 0; i < g->name_list_count; i++) {
        if (strcmp(g->name_lists[i], joined) == 0) {
            free(joined);
            return i;
        }
    }
    g->name_lists =
        grow(g->name_lists, &g->name_list_cap, g->name_list_count, sizeof *g->name_lists);
    g->name_lists[g->name_list_count] = joined;
    return g->name_list_count++;
}

int ss_callgraph_calls_named(ss_callgraph *g, CXCursor body, const char *const *names, size_t count,
                             CXCursor *found)
{
    return ss_callgraph_calls_named_within(g, body, names, count, 2, found);
}

int ss_callgraph_calls_named_within(ss_callgraph *g, CXCursor body, const char *const *names,
                                    size_t count, int limit, CXCursor *found)
{
    named_walk w = {g, names, count, 0, 0, limit, clang_getNullCursor(), clang_getNullCursor()};
    if (g)
        w.list = name_list(g, names, count);
    ss_ast_visit_whole(body, body, find_named, &w);
    *found = w.found;
    return !ss_ast_is_null(w.found);
}

/* A word, or the word before it joined with it ('cleanUp', 'tearDown', 'shutDown', 'DeInit'),
 * that starts with a stem that says it tears down: gives back what set-up took ('reclaim',
 * 'deinit', the undoing of init). Not 'free' or 'release': per-step code frees and releases
 * (a pool's blocks, a lock). */
static int teardown_word(const char *word, const char *prev)
{
    static const char *const stems[] = {"finalize", "cleanup", "teardown", "shutdown",
                                        "destroy",  "reclaim", "deinit"};
    char joined[128];
    snprintf(joined, sizeof joined, "%s%s", prev, word);
    for (size_t k = 0; k < sizeof stems / sizeof stems[0]; k++) {
        if (strncmp(word, stems[k], strlen(stems[k])) == 0 ||
            strncmp(joined, stems[k], strlen(stems[k])) == 0)
            return 1;
    }
    return 0;
}

/* Whether a word of the identifier 'name' says it tears down ('ncclRmaCeFinalize',
 * 'commCleanup', 'destroy_plans', 'commReclaim'). */
static int name_says_teardown(const char *name)
{
    return name_has_word(name, teardown_word);
}

int ss_callgraph_tears_down(CXCursor function, char **why)
{
    *why = NULL;
    enum CXCursorKind k = clang_getCursorKind(function);
    CXString s = clang_getCursorSpelling(function);
    int named =
        k != CXCursor_Destructor && clang_getCString(s) && name_says_teardown(clang_getCString(s));
    clang_disposeString(s);
    if (k != CXCursor_Destructor && !named)
        return 0;
    char *name = ss_qualified_name(function);
    *why = named ? ss_xasprintf("'%s' tears down (its name says so)", name)
                 : ss_xasprintf("'%s' is a destructor", name);
    free(name);
    return 1;
}

/* Whether the keyword 'inline' is written before the name of 'function' (libclang answers
 * clang_Cursor_isFunctionInlined for a function, not for a function template). */
static int written_inline(CXCursor function)
{
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(function);
    CXSourceRange extent = clang_getCursorExtent(function);
    CXSourceRange head =
        clang_getRange(clang_getRangeStart(extent), clang_getCursorLocation(function));
    CXToken *tokens = NULL;
    unsigned n = 0;
    clang_tokenize(tu, head, &tokens, &n);
    int found = 0;
    for (unsigned i = 0; i < n && !found; i++) {
        CXString t = clang_getTokenSpelling(tu, tokens[i]);
        found = strcmp(clang_getCString(t), "inline") == 0;
        clang_disposeString(t);
    }
    clang_disposeTokens(tu, tokens, n);
    return found;
}

/* Whether the function template 'function' is inline: 'inline' written, or defined in the body
 * of its class (a member defined there is inline, C++ [class.mfct]; libclang's lexical parent
 * is then the class). */
static int template_inline(CXCursor function)
{
    enum CXCursorKind parent = clang_getCursorKind(clang_getCursorLexicalParent(function));
    if (parent == CXCursor_StructDecl || parent == CXCursor_ClassDecl ||
        parent == CXCursor_UnionDecl || parent == CXCursor_ClassTemplate ||
        parent == CXCursor_ClassTemplatePartialSpecialization)
        return 1;
    return written_inline(function);
}

/* The names in the unit's main file's explicit instantiation definitions ('template void
 * f<float>(float *);', also in the body of a macro it defines; not 'extern template'): the
 * identifiers from a 'template' not followed by '<' to the next ';' or '{'. libclang shows no
 * cursor for an explicit instantiation. Read once per unit. */
static void read_instantiations(ss_callgraph *g)
{
    g->instantiations_read = 1;
    CXToken *tokens = NULL;
    unsigned n = 0;
    clang_tokenize(g->tu, clang_getCursorExtent(clang_getTranslationUnitCursor(g->tu)), &tokens,
                   &n);
    int inside = 0;
    for (unsigned i = 0; i < n; i++) {
        CXString t = clang_getTokenSpelling(g->tu, tokens[i]);
        const char *text = clang_getCString(t);
        if (inside && (strcmp(text, ";") == 0 || strcmp(text, "{") == 0)) {
            inside = 0;
        } else if (inside && clang_getTokenKind(tokens[i]) == CXToken_Identifier) {
            g->instantiated = grow(g->instantiated, &g->instantiated_cap, g->instantiated_count,
                                   sizeof *g->instantiated);
            g->instantiated[g->instantiated_count++] = ss_xstrdup(text);
        } else if (!inside && strcmp(text, "template") == 0 && i + 1 < n) {
            CXString next = clang_getTokenSpelling(g->tu, tokens[i + 1]);
            CXString prev = clang_getTokenSpelling(g->tu, tokens[i > 0 ? i - 1 : i]);
            inside = strcmp(clang_getCString(next), "<") != 0 &&
                     !(i > 0 && strcmp(clang_getCString(prev), "extern") == 0);
            clang_disposeString(next);
            clang_disposeString(prev);
        }
        clang_disposeString(t);
    }
    clang_disposeTokens(g->tu, tokens, n);
}

int ss_callgraph_instantiated_here(ss_callgraph *g, CXCursor function)
{
    if (g == NULL)
        return 1;
    if (!g->instantiations_read)
        read_instantiations(g);
    CXString s = clang_getCursorSpelling(function);
    const char *name = clang_getCString(s) ? clang_getCString(s) : "";
    int found = 0;
    for (size_t i = 0; i < g->instantiated_count && !found; i++)
        found = strcmp(g->instantiated[i], name) == 0;
    clang_disposeString(s);
    return found;
}

/* Why 'function' can run only where a unit calls it: "is inline" or "has internal linkage",
 * or, for a function template the main file does not instantiate explicitly, "is a template
 * ...": a unit that calls it sees its definition and instantiates it. NULL for a function
 * another unit may call (not inline, or a template the main file may instantiate for other
 * units), or one called implicitly
 * (constructors, destructors, conversions, operators), through its class (virtual), or by name
 * ('main'). */
static const char *callable_only_here(ss_callgraph *g, CXCursor function)
{
    enum CXCursorKind k = clang_getCursorKind(function);
    if (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod && k != CXCursor_FunctionTemplate)
        return NULL;
    if (clang_CXXMethod_isVirtual(function))
        return NULL;
    CXString s = clang_getCursorSpelling(function);
    const char *spelled = clang_getCString(s) ? clang_getCString(s) : "";
    int special = strcmp(spelled, "main") == 0 || strncmp(spelled, "operator", 8) == 0;
    clang_disposeString(s);
    if (special)
        return NULL;
    if (clang_getCursorLinkage(function) == CXLinkage_Internal)
        return "has internal linkage";
    if (k == CXCursor_FunctionTemplate && template_inline(function))
        return "is inline";
    if (k == CXCursor_FunctionTemplate)
        return !ss_callgraph_instantiated_here(g, function)
                   ? "is a template that this unit does not instantiate explicitly"
                   : NULL;
    return clang_Cursor_isFunctionInlined(function) ? "is inline" : NULL;
}

/* Whether a call left unresolved in a template names 'function'. */
static int named_by_dependent(ss_callgraph *g, CXCursor function)
{
    CXString s = clang_getCursorSpelling(function);
    const char *spelled = clang_getCString(s) ? clang_getCString(s) : "";
    int named = 0;
    for (size_t i = 0; i < g->dependent_count && !named; i++) {
        const char *callee = dependent_name(g, i);
        named = callee && strcmp(callee, spelled) == 0;
    }
    clang_disposeString(s);
    return named;
}

const char *ss_callgraph_only_here(ss_callgraph *g, CXCursor function)
{
    long n = g ? find_node(g, definition_of(function)) : -1;
    if (n < 0)
        return NULL;
    const node *nd = &g->nodes[n];
    const char *only_here = callable_only_here(g, nd->cursor);
    if (only_here == NULL || nd->refs > 0 || nd->outside > 0 || named_by_dependent(g, nd->cursor))
        return NULL;
    return only_here;
}

int ss_callgraph_uncalled(ss_callgraph *g, CXCursor function, char **why)
{
    *why = NULL;
    long n = g ? find_node(g, definition_of(function)) : -1;
    if (n < 0 || !never_runs(g, (size_t)n))
        return 0;
    const node *nd = &g->nodes[n];
    const char *only_here = callable_only_here(g, nd->cursor);
    const char *caller = NULL;
    for (size_t s = 0; s < g->site_count && caller == NULL; s++) {
        if (g->sites[s].callee == (size_t)n && g->sites[s].caller != (size_t)n)
            caller = g->nodes[g->sites[s].caller].name;
    }
    *why = caller == NULL
               ? ss_xasprintf("'%s' %s, and nothing in this unit calls it or takes its address",
                              nd->name, only_here)
               : ss_xasprintf("'%s' %s, and only functions that nothing in this unit calls call "
                              "it ('%s')",
                              nd->name, only_here, caller);
    return 1;
}

int ss_callgraph_recall(const ss_callgraph *g, int kind, CXCursor decl, int *answer)
{
    CXCursor canonical = clang_getCanonicalCursor(decl);
    for (size_t i = 0; i < g->answer_count; i++) {
        if (g->answers[i].kind == kind && clang_equalCursors(g->answers[i].decl, canonical)) {
            *answer = g->answers[i].answer;
            return 1;
        }
    }
    return 0;
}

void ss_callgraph_remember(ss_callgraph *g, int kind, CXCursor decl, int answer)
{
    g->answers = grow(g->answers, &g->answer_cap, g->answer_count, sizeof *g->answers);
    g->answers[g->answer_count++] = (remembered){kind, clang_getCanonicalCursor(decl), answer};
}

int ss_callgraph_loop_reaches(ss_callgraph *g, CXCursor function, ss_scope_work what)
{
    ss_loop_reach reach;
    int reached = ss_callgraph_reached_from_loop(g, function, what, &reach);
    ss_loop_reach_free(&reach);
    return reached;
}
