/* set_up_key.c: a set-up run once per constant key of a lasting set, 'if (!configured.count(STAGE))
 * { ...; configured.insert(STAGE); }' (held-out-41's shape CV, CudaTextureGen's erosion stages):
 * what the branch runs, it runs once for the object (context_cases.h; docs/lint.md, "Warning or
 * note"). */
#include "ast.h"
#include "callgraph.h"
#include "common.h"
#include "context_cases.h"
#include "dataflow.h"
#include "log.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

/* The tags of the answers kept in the call graph (ss_callgraph_remember): a set that may lose
 * keys, the unit walked for them, a class whose objects the unit replaces; names left
 * unresolved (name_tag) above ANSWER_NAME_BASE. */
enum { ANSWER_KEY_LOST = 1, ANSWER_WALKED = 2, ANSWER_REPLACED = 3, ANSWER_NAME_BASE = 0x40000000 };

static int same_decl(CXCursor a, CXCursor b)
{
    return !ss_ast_is_null(a) && !ss_ast_is_null(b) &&
           clang_equalCursors(clang_getCanonicalCursor(a), clang_getCanonicalCursor(b));
}

/* ------------------------------------------------------------------------------------------
 * The key: a constant. */

static int constant_key(CXCursor e, long long *value, int hops);

/* Whether every definition of the local 'var' that reaches its use 'use' gives it the same
 * constant key (a non-const local that keeps its first value: 'auto stage = Stage::RAIN;').
 * Sets '*value'. */
static int local_keeps_key(CXCursor var, CXCursor use, long long *value, int hops)
{
    CXCursor function = clang_getCursorSemanticParent(var);
    if (!ss_ast_is_function(function) || clang_Cursor_hasVarDeclGlobalStorage(var) ||
        clang_getCanonicalType(clang_getCursorType(var)).kind == CXType_LValueReference)
        return 0;
    ss_location loc = {var, NULL, 0, 0};
    ss_defs defs = {0};
    int keeps = ss_dataflow_reaching(function, &loc, use, &defs) == 0 && defs.count > 0;
    for (size_t i = 0; i < defs.count && keeps; i++) {
        long long v = 0;
        keeps = defs.v[i].kind == SS_DEF_VALUE && constant_key(defs.v[i].value, &v, hops + 1) &&
                (i == 0 || v == *value);
        *value = v;
    }
    ss_defs_free(&defs);
    return keeps;
}

/* Whether 'e' is a constant key: an integer literal, an enumerator, a const variable
 * initialized with one ('const Stage stage = Stage::Rain;'), or a local whose every definition
 * that reaches 'e' is one (local_keeps_key); two hops at most. Sets '*value'. */
static int constant_key(CXCursor e, long long *value, int hops)
{
    e = ss_ast_strip(e);
    if (ss_ast_literal_int(e, value) == 0)
        return 1;
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
        return 0;
    CXCursor d = clang_getCursorReferenced(e);
    if (clang_getCursorKind(d) == CXCursor_EnumConstantDecl) {
        *value = clang_getEnumConstantDeclValue(d);
        return 1;
    }
    unsigned n = ss_ast_child_count(d);
    if (hops >= 2 || clang_getCursorKind(d) != CXCursor_VarDecl || n == 0)
        return 0;
    if (!clang_isConstQualifiedType(clang_getCursorType(d)))
        return local_keeps_key(d, e, value, hops);
    CXCursor init = ss_ast_child(d, n - 1);
    return clang_isExpression(clang_getCursorKind(init)) && constant_key(init, value, hops + 1);
}

/* ------------------------------------------------------------------------------------------
 * The set: a lasting set or map of the C++ library, and the calls made on it. */

/* Whether the type 't' is a set or map of the C++ library ('std::unordered_set<Stage>',
 * 'std::map<int, Plan>'): a class in a system header whose name ends in set or map. */
static int library_set(CXType t)
{
    CXCursor d = clang_getTypeDeclaration(clang_getCanonicalType(t));
    if (ss_ast_is_null(d) || !clang_Location_isInSystemHeader(clang_getCursorLocation(d)))
        return 0;
    CXString name = clang_getCursorSpelling(d);
    const char *s = clang_getCString(name);
    size_t len = s ? strlen(s) : 0;
    int is = len >= 3 && (strcmp(s + len - 3, "set") == 0 || strcmp(s + len - 3, "map") == 0);
    clang_disposeString(name);
    return is;
}

/* Whether the expression 'e' names a member through 'this' ('configured',
 * 'this->configured'). */
static int member_of_this(CXCursor e)
{
    if (clang_getCursorKind(e) != CXCursor_MemberRefExpr)
        return 0;
    return ss_ast_child_count(e) == 0 ||
           clang_getCursorKind(ss_ast_strip(ss_ast_child(e, 0))) == CXCursor_CXXThisExpr;
}

/* Whether the set's expression 'set' names it as lint can follow the object: a global or
 * 'static' variable ('g_done', 'Cache::s_done'), or a member of 'this' ('configured',
 * 'this->configured'); not a member of another object ('st.configured', 'stages[i].done'). */
static int followed_set(CXCursor set)
{
    CXCursor d = clang_getCursorReferenced(set);
    if (clang_getCursorKind(set) == CXCursor_DeclRefExpr)
        return clang_getCursorKind(d) == CXCursor_VarDecl && ss_context_lasting_decl(d);
    if (clang_getCursorKind(set) != CXCursor_MemberRefExpr ||
        clang_getCursorKind(d) != CXCursor_FieldDecl)
        return 0;
    return member_of_this(set);
}

/* Whether the callee of 'call' is named one of 'names' ('count' of them). */
static int callee_named(CXCursor call, const char *const *names, size_t count)
{
    char *name = ss_scope_callee_name(call);
    int named = 0;
    for (size_t i = 0; name && i < count && !named; i++)
        named = strcmp(name, names[i]) == 0;
    free(name);
    return named;
}

/* The set (followed_set, library_set) that the member call 'call' is made on, when the method
 * is one of 'names' ('count' of them): its expression, or a null cursor. */
static CXCursor set_call(CXCursor call, const char *const *names, size_t count)
{
    CXCursor none = clang_getNullCursor();
    call = ss_ast_strip(call);
    if (clang_getCursorKind(call) != CXCursor_CallExpr || ss_ast_child_count(call) == 0)
        return none;
    CXCursor callee = ss_ast_strip(ss_ast_child(call, 0));
    if (!callee_named(call, names, count) ||
        clang_getCursorKind(callee) != CXCursor_MemberRefExpr || ss_ast_child_count(callee) == 0)
        return none;
    CXCursor set = ss_ast_strip(ss_ast_child(callee, 0));
    return followed_set(set) && library_set(clang_getCursorType(set)) ? set : none;
}

static const char *const key_counts[] = {"count", "contains"};
static const char *const key_finds[] = {"find"};
static const char *const key_ends[] = {"end", "cend"};
static const char *const key_inserts[] = {"insert", "emplace", "try_emplace"};
/* What a set may be named for without losing a key: look-ups and inserts. */
static const char *const key_keeps[] = {
    "count", "contains", "find",    "end",         "cend",        "begin",       "cbegin", "size",
    "empty", "insert",   "emplace", "try_emplace", "lower_bound", "upper_bound", "at"};

#define KEY_NAMES(a) (a), sizeof(a) / sizeof((a)[0])

/* A key guard found: the set's expression and declaration, the key's expression and value. */
typedef struct key_guard {
    CXCursor set, decl, key;
    long long value;
} key_guard;

/* Whether the call 'call' looks up a constant key in a followed set (set_call with 'names'):
 * fills '*k'. */
static int looks_up(CXCursor call, const char *const *names, size_t count, key_guard *k)
{
    k->set = set_call(call, names, count);
    if (ss_ast_is_null(k->set) || clang_Cursor_getNumArguments(ss_ast_strip(call)) != 1)
        return 0;
    k->decl = clang_getCursorReferenced(k->set);
    k->key = clang_Cursor_getArgument(ss_ast_strip(call), 0);
    return constant_key(k->key, &k->value, 0);
}

/* Whether 'e' compares two values for equality: the operator '==' built in ('s.count(K) == 0'),
 * or a class's ('it == s.end()', an 'operator==' of two arguments, the object first for a
 * member). Sets 'sides' to the two operands. */
static int equality(CXCursor e, CXCursor sides[2])
{
    char op[8];
    if (clang_getCursorKind(e) == CXCursor_BinaryOperator && ss_ast_child_count(e) == 2 &&
        ss_ast_binary_op(e, op, sizeof op) == 0 && strcmp(op, "==") == 0) {
        sides[0] = ss_ast_child(e, 0);
        sides[1] = ss_ast_child(e, 1);
        return 1;
    }
    if (clang_getCursorKind(e) != CXCursor_CallExpr || clang_Cursor_getNumArguments(e) != 2)
        return 0;
    char *name = ss_scope_callee_name(e);
    int is = name && strcmp(name, "operator==") == 0;
    free(name);
    sides[0] = clang_Cursor_getArgument(e, 0);
    sides[1] = clang_Cursor_getArgument(e, 1);
    return is;
}

/* Whether the condition 'cond' holds only while the set lacks the key: '!s.count(K)',
 * '!s.contains(K)', 's.count(K) == 0' (either side), 's.find(K) == s.end()' (either side).
 * Fills '*k'. */
static int key_absent(CXCursor cond, key_guard *k)
{
    CXCursor e = ss_ast_strip(cond);
    long long zero = 1;
    if (clang_getCursorKind(e) == CXCursor_UnaryOperator && ss_ast_first_token_is(e, "!"))
        return looks_up(ss_ast_child(e, 0), KEY_NAMES(key_counts), k);
    CXCursor sides[2];
    if (!equality(e, sides))
        return 0;
    for (unsigned side = 0; side < 2; side++) {
        CXCursor a = sides[side], b = sides[1 - side];
        if (looks_up(a, KEY_NAMES(key_counts), k) && ss_ast_literal_int(b, &zero) == 0 && zero == 0)
            return 1;
        CXCursor end = set_call(b, KEY_NAMES(key_ends));
        if (!ss_ast_is_null(end) && looks_up(a, KEY_NAMES(key_finds), k) &&
            same_decl(clang_getCursorReferenced(end), k->decl))
            return 1;
    }
    return 0;
}

/* For ss_context_branch_does: whether 'stmt' inserts the guard's key into its set (the same
 * declaration; a member of 'this' either way it is written). */
static int inserts_key(CXCursor stmt, void *data)
{
    const key_guard *k = data;
    key_guard in;
    CXCursor call = ss_ast_strip(stmt);
    in.set = set_call(call, KEY_NAMES(key_inserts));
    return !ss_ast_is_null(in.set) && clang_Cursor_getNumArguments(call) >= 1 &&
           same_decl(clang_getCursorReferenced(in.set), k->decl) &&
           constant_key(clang_Cursor_getArgument(call, 0), &in.value, 0) && in.value == k->value;
}

/* The statement of the guard's branch that inserts the key (inserts_key), for its line. */
typedef struct key_insert {
    key_guard *k;
    CXCursor found;
} key_insert;

static int inserts_key_at(CXCursor stmt, void *data)
{
    key_insert *i = data;
    if (!inserts_key(stmt, i->k))
        return 0;
    i->found = stmt;
    return 1;
}

/* ------------------------------------------------------------------------------------------
 * What may lose a key: anything in the unit's own code that names the set otherwise. */

/* The name of the member the expression 'e' names when the template it is in leaves it
 * unresolved ('o.done' on a dependent 'o': the text's last word), malloc'ed; else NULL. */
static char *unresolved_member(CXCursor e)
{
    if (clang_getCursorKind(e) != CXCursor_MemberRefExpr ||
        !ss_ast_is_null(clang_getCursorReferenced(e)))
        return NULL;
    char *text = ss_expr_text(e);
    const char *dot = text ? strrchr(text, '.') : NULL, *arrow = text ? strstr(text, "->") : NULL;
    while (arrow && strstr(arrow + 2, "->"))
        arrow = strstr(arrow + 2, "->");
    const char *member = arrow && (!dot || arrow > dot) ? arrow + 2 : dot ? dot + 1 : NULL;
    char *name = member ? ss_xstrdup(member) : NULL;
    free(text);
    return name;
}

/* The tag under which a member name left unresolved is kept (ANSWER_NAME_BASE and a hash of
 * the name: two names that share one only keep more warnings). */
static int name_tag(const char *name)
{
    unsigned h = 2166136261u;
    for (const char *p = name; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    return ANSWER_NAME_BASE | (int)(h & 0x3fffffff);
}

/* Keeps the answer 1 under 'kind' for 'decl', once. */
static void mark(ss_callgraph *graph, int kind, CXCursor decl)
{
    int was = 0;
    if (!ss_callgraph_recall(graph, kind, decl, &was))
        ss_callgraph_remember(graph, kind, decl, 1);
}

/* The walk of the unit's own code for the mentions that may lose a key of any set. */
typedef struct loss_walk {
    ss_callgraph *graph;
    CXCursor unit;       /* the unit's cursor, under which member names are kept */
    CXCursor destructor; /* the class whose destructor the walk is in, or a null cursor */
} loss_walk;

static enum CXChildVisitResult find_losses(CXCursor c, CXCursor parent, CXClientData data);

/* find_losses on the node 'c' itself, then on what it holds where it asks to go on. */
static void walk_losses(CXCursor c, CXCursor parent, loss_walk *w)
{
    if (find_losses(c, parent, w) == CXChildVisit_Recurse)
        clang_visitChildren(c, find_losses, w);
}

/* Whether the call 'c' looks a key up in a set or inserts one (a method of key_keeps called on
 * an object whose type is a set of the library): the set it is made on loses no key there;
 * its arguments, and an object that is not the set named plainly ('reset(s).insert(0)'), are
 * walked on ('*rest'). */
static int keeps_keys(CXCursor c, CXCursor *rest)
{
    if (clang_getCursorKind(c) != CXCursor_CallExpr || ss_ast_child_count(c) == 0)
        return 0;
    CXCursor callee = ss_ast_strip(ss_ast_child(c, 0));
    if (clang_getCursorKind(callee) != CXCursor_MemberRefExpr || ss_ast_child_count(callee) == 0)
        return 0;
    CXCursor object = ss_ast_strip(ss_ast_child(callee, 0));
    if (!library_set(clang_getCursorType(object)) || !callee_named(c, KEY_NAMES(key_keeps)))
        return 0;
    enum CXCursorKind k = clang_getCursorKind(object);
    *rest = k == CXCursor_DeclRefExpr || (k == CXCursor_MemberRefExpr && followed_set(object))
                ? clang_getNullCursor()
                : object;
    return 1;
}

/* Marks a mention 'c' that may lose keys: a set named otherwise than to look a key up or insert
 * one (ANSWER_KEY_LOST, on its declaration), but in the destructor of its own class; a member
 * left unresolved in a template (under its name's tag). */
static void mark_mention(loss_walk *w, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr)
        return;
    CXCursor d = clang_getCursorReferenced(c);
    enum CXCursorKind dk = clang_getCursorKind(d);
    if ((dk == CXCursor_VarDecl || dk == CXCursor_FieldDecl) &&
        library_set(clang_getCursorType(d)) &&
        !same_decl(clang_getCursorSemanticParent(d), w->destructor))
        mark(w->graph, ANSWER_KEY_LOST, d);
    char *name = unresolved_member(c);
    if (name)
        mark(w->graph, name_tag(name), w->unit);
    free(name);
}

/* Marks the class of the type 't' as one whose objects the unit replaces (ANSWER_REPLACED),
 * through references and pointers, with the class template it specializes, and the classes of
 * its template's arguments ('std::unique_ptr<State>'). */
static void mark_class(loss_walk *w, CXType t, int arguments)
{
    t = clang_getCanonicalType(t);
    while (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference ||
           t.kind == CXType_Pointer)
        t = clang_getCanonicalType(clang_getPointeeType(t));
    CXCursor d = clang_getTypeDeclaration(t);
    if (ss_ast_is_null(d) || clang_getCursorKind(d) == CXCursor_NoDeclFound)
        return;
    mark(w->graph, ANSWER_REPLACED, d);
    CXCursor template_of = clang_getSpecializedCursorTemplate(d);
    if (!ss_ast_is_null(template_of))
        mark(w->graph, ANSWER_REPLACED, template_of);
    for (int i = 0, n = arguments ? clang_Type_getNumTemplateArguments(t) : 0; i < n; i++)
        mark_class(w, clang_Type_getTemplateArgumentAsType(t, (unsigned)i), 0);
}

/* Whether the text of the expression 'e' starts as a placement new does ('new (&g) T',
 * '::new (this) T'). */
static int placement_new(CXCursor e)
{
    char *text = ss_expr_text(e);
    const char *t = text ? text : "";
    if (strncmp(t, "::", 2) == 0)
        t += 2;
    int is = strncmp(t, "new", 3) == 0 && (t[3] == '(' || (t[3] == ' ' && t[4] == '('));
    free(text);
    return is;
}

/* What replaces objects: an assignment operator, a 'reset', a memset, memcpy or bzero (the
 * first argument's class), a swap or exchange, destroy_at, construct_at or destroy (every
 * argument's), a destructor called by name, a placement new. */
static const char *const replace_first[] = {"operator=", "reset", "memset", "memcpy", "bzero"};
static const char *const replace_all[] = {"swap", "exchange", "destroy_at", "construct_at",
                                          "destroy"};

/* Marks the classes whose objects the node 'c' replaces (mark_class). */
static void mark_replace(loss_walk *w, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CXXNewExpr && placement_new(c)) {
        mark_class(w, clang_getCursorType(c), 0);
        return;
    }
    if (k != CXCursor_CallExpr)
        return;
    CXCursor callee = clang_getCursorReferenced(c);
    if (clang_getCursorKind(callee) == CXCursor_Destructor) {
        mark(w->graph, ANSWER_REPLACED, clang_getCursorSemanticParent(callee));
        return;
    }
    int n = clang_Cursor_getNumArguments(c);
    int all = callee_named(c, KEY_NAMES(replace_all));
    if (!all && !callee_named(c, KEY_NAMES(replace_first)))
        return;
    for (int i = 0; i < (all ? n : n > 0 ? 1 : 0); i++)
        mark_class(w, clang_getCursorType(ss_ast_strip(clang_Cursor_getArgument(c, (unsigned)i))),
                   1);
}

static enum CXChildVisitResult find_losses(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    loss_walk *w = data;
    CXCursor rest = clang_getNullCursor();
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(c)) ||
        (ss_ast_is_function(c) && ss_context_tears_down_once(w->graph, c)))
        return CXChildVisit_Continue;
    if (keeps_keys(c, &rest)) {
        for (int i = 0, n = clang_Cursor_getNumArguments(c); i < n; i++)
            walk_losses(clang_Cursor_getArgument(c, (unsigned)i), c, w);
        if (!ss_ast_is_null(rest))
            walk_losses(rest, c, w);
        return CXChildVisit_Continue;
    }
    if (clang_getCursorKind(c) == CXCursor_Destructor) {
        loss_walk inner = *w;
        inner.destructor = clang_getCursorSemanticParent(c);
        clang_visitChildren(c, find_losses, &inner);
        return CXChildVisit_Continue;
    }
    mark_mention(w, c);
    mark_replace(w, c);
    return CXChildVisit_Recurse;
}

/* Whether the unit's own code (outside system headers: every function, lambdas and
 * namespace-scope initializers included; not a teardown run once, ss_context_tears_down_once)
 * may lose a key of the set: names it otherwise than to look a key up or insert one (but in the
 * destructor of its own class, the object going with its set), names a member of its name left
 * unresolved in a template, or replaces a whole object of its class (mark_replace). One walk of
 * the unit marks the mentions of every set and the classes replaced, kept in the call graph. */
static int key_lost_in_unit(ss_callgraph *graph, const key_guard *k)
{
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(k->decl);
    CXCursor unit = clang_getTranslationUnitCursor(tu);
    int answer = 0;
    if (!ss_callgraph_recall(graph, ANSWER_WALKED, unit, &answer)) {
        loss_walk w = {graph, unit, clang_getNullCursor()};
        clang_visitChildren(unit, find_losses, &w);
        ss_callgraph_remember(graph, ANSWER_WALKED, unit, 1);
    }
    CXString name = clang_getCursorSpelling(k->decl);
    int lost = ss_callgraph_recall(graph, ANSWER_KEY_LOST, k->decl, &answer) ||
               (clang_getCString(name) &&
                ss_callgraph_recall(graph, name_tag(clang_getCString(name)), unit, &answer));
    clang_disposeString(name);
    CXCursor parent = clang_getCursorSemanticParent(k->decl);
    enum CXCursorKind pk = clang_getCursorKind(parent);
    int is_class = pk == CXCursor_StructDecl || pk == CXCursor_ClassDecl ||
                   pk == CXCursor_ClassTemplate || pk == CXCursor_UnionDecl;
    return lost || (is_class && ss_callgraph_recall(graph, ANSWER_REPLACED, parent, &answer));
}

/* ------------------------------------------------------------------------------------------
 * Whose set: an object that stays the same while the loop runs. */

/* The innermost loop of 'function' around 'c' that enqueues device work (itself or in a function
 * of the unit it calls), or a null cursor; '*lambda' set where a lambda lies between the
 * function and 'c' (what calls it, and how often, lint does not follow). */
static CXCursor loop_around(ss_callgraph *graph, CXCursor function, CXCursor c, int *lambda)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(function, c, path);
    CXCursor loop = clang_getNullCursor(), work, via;
    *lambda = found < 0;
    for (long i = 0; i < found; i++) {
        if (clang_getCursorKind(path[i]) == CXCursor_LambdaExpr)
            *lambda = 1;
        else if (ss_scope_is_loop(path[i]) &&
                 ss_callgraph_loop_work(graph, path[i], SS_SCOPE_ENQUEUES, clang_getNullCursor(),
                                        &work, &via))
            loop = path[i];
    }
    free(path);
    return loop;
}

typedef struct mention_walk {
    CXCursor var;
    int other; /* named otherwise than as the object of a member access or call */
} mention_walk;

/* Whether 'e' names 'var' (a variable, a parameter or a member of 'this'). */
static int names_var(CXCursor e, CXCursor var)
{
    enum CXCursorKind k = clang_getCursorKind(e);
    return (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) &&
           same_decl(clang_getCursorReferenced(e), var);
}

static enum CXChildVisitResult find_other_mention(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    mention_walk *w = data;
    if (clang_getCursorKind(c) == CXCursor_MemberRefExpr && ss_ast_child_count(c) > 0 &&
        names_var(ss_ast_strip(ss_ast_child(c, 0)), w->var))
        return CXChildVisit_Continue; /* 'p->prepare()', 'st.prepare()' */
    if (names_var(c, w->var)) {
        w->other = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether the variable 'var' (a local, a parameter, a member of 'this', a global or a 'static')
 * on which the call 'call' of 'caller' is made ('st.prepare()', 'p->prepare()') holds the same
 * object while the loop around the call runs: an object or a raw pointer (no smart pointer), a
 * global or 'static' an object, not a pointer (which the unit may point elsewhere); else the
 * call in a loop of the caller that enqueues device work (loop_around), the variable declared
 * before that loop, which the loop names only as the object of a member access or call (no
 * assignment, no address, no argument: 'p = new Stage;', 'st = Stage{};'). */
static int variable_lasts(ss_callgraph *graph, CXCursor caller, CXCursor call, CXCursor var)
{
    enum CXCursorKind k = clang_getCursorKind(var);
    CXType t = clang_getCanonicalType(clang_getCursorType(var));
    int global = k == CXCursor_VarDecl && (clang_getCursorLinkage(var) != CXLinkage_NoLinkage ||
                                           clang_Cursor_getStorageClass(var) == CX_SC_Static);
    if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference)
        t = clang_getCanonicalType(clang_getPointeeType(t));
    if ((k != CXCursor_VarDecl && k != CXCursor_ParmDecl && k != CXCursor_FieldDecl) ||
        (t.kind != CXType_Pointer && t.kind != CXType_Record) ||
        (t.kind == CXType_Record && clang_Type_getNumTemplateArguments(t) > 0 &&
         clang_Location_isInSystemHeader(clang_getCursorLocation(clang_getTypeDeclaration(t)))))
        return 0;
    if (global)
        return t.kind == CXType_Record &&
               clang_getCanonicalType(clang_getCursorType(var)).kind == CXType_Record;
    int lambda = 0;
    CXCursor loop = loop_around(graph, caller, call, &lambda);
    if (ss_ast_is_null(loop) || lambda)
        return 0;
    unsigned begin, end, at = ss_ast_offset(var);
    ss_ast_range(loop, &begin, &end);
    if (k != CXCursor_FieldDecl && at >= begin && at < end)
        return 0; /* declared in the loop: new on every iteration */
    mention_walk w = {var, 0};
    clang_visitChildren(loop, find_other_mention, &w);
    return !w.other;
}

/* The object a member call 'call' is made on, as written ('st' of 'st.prepare()'), or a null
 * cursor. */
static CXCursor call_object(CXCursor call)
{
    CXCursor callee =
        ss_ast_child_count(call) > 0 ? ss_ast_strip(ss_ast_child(call, 0)) : clang_getNullCursor();
    if (clang_getCursorKind(callee) != CXCursor_MemberRefExpr || ss_ast_child_count(callee) == 0)
        return clang_getNullCursor();
    return ss_ast_strip(ss_ast_child(callee, 0));
}

/* Whether a loop that enqueues device work may run the call 'call' of 'caller': a loop of the
 * caller around it, or one of the unit that reaches the caller; -1 where a lambda lies between
 * (not known). */
static int loop_may_run(ss_callgraph *graph, CXCursor caller, CXCursor call)
{
    int lambda = 0;
    if (!ss_ast_is_null(loop_around(graph, caller, call, &lambda)) || lambda)
        return lambda ? -1 : 1;
    return ss_callgraph_loop_reaches(graph, caller, SS_SCOPE_ENQUEUES);
}

enum { MAX_CALLS = 32, MAX_DEPTH = 4 };

static int this_lasts(ss_callgraph *graph, CXCursor function, CXCursor at, int depth);

/* Whether the method call 'call' of 'caller' is made on an object that stays the same while
 * the loop that runs it does: on 'this' (written so, or left implicit) from a method for which
 * this_lasts holds, or on a variable for which variable_lasts does. */
static int call_keeps_object(ss_callgraph *graph, CXCursor caller, CXCursor call, int depth)
{
    CXCursor object = call_object(call);
    CXCursor callee =
        ss_ast_child_count(call) > 0 ? ss_ast_strip(ss_ast_child(call, 0)) : clang_getNullCursor();
    if ((ss_ast_is_null(object) && clang_getCursorKind(callee) == CXCursor_MemberRefExpr) ||
        clang_getCursorKind(object) == CXCursor_CXXThisExpr)
        return this_lasts(graph, caller, call, depth + 1);
    return (clang_getCursorKind(object) == CXCursor_DeclRefExpr || member_of_this(object)) &&
           variable_lasts(graph, caller, call, clang_getCursorReferenced(object));
}

/* Whether the object 'this' of the method 'function' stays the same while a loop that reaches
 * 'at' (a statement of it) runs: 'at' lies in a loop of the function itself that enqueues
 * device work (no lambda between); or each call of the function in the unit (32 at most; none:
 * no loop of the unit reaches it) that such a loop may run (loop_may_run; a call in a lambda is
 * not known) is made on 'this' (written so, or left implicit) from a method for which this
 * holds in turn (four calls deep), or on a variable that holds the same object while the loop
 * around the call runs (variable_lasts: a local, a parameter, a member of 'this'). */
static int this_lasts(ss_callgraph *graph, CXCursor function, CXCursor at, int depth)
{
    int lambda = 0;
    if (!ss_ast_is_null(loop_around(graph, function, at, &lambda)) || lambda)
        return !lambda;
    CXCursor calls[MAX_CALLS], callers[MAX_CALLS];
    long n = ss_callgraph_calls_of(graph, function, calls, callers, MAX_CALLS);
    if (n < 0 || n > MAX_CALLS || (n > 0 && depth >= MAX_DEPTH))
        return 0;
    for (long i = 0; i < n; i++) {
        int runs = loop_may_run(graph, callers[i], calls[i]);
        if (runs != 0 && (runs < 0 || !call_keeps_object(graph, callers[i], calls[i], depth)))
            return 0;
    }
    return 1;
}

/* Whether the set 'k->set' stays the same object while the loop that reaches the guard
 * 'if_stmt' of 'function' runs: a global or static, or a member of a 'this' that does
 * (this_lasts); with 'elsewhere' (another unit's loop may run the call), a global or static
 * only. */
static int set_lasts(ss_callgraph *graph, CXCursor function, CXCursor if_stmt, const key_guard *k,
                     int elsewhere)
{
    if (clang_getCursorKind(k->set) == CXCursor_DeclRefExpr)
        return 1;
    return !elsewhere && !ss_ast_is_null(function) && this_lasts(graph, function, if_stmt, 0);
}

/* ------------------------------------------------------------------------------------------
 * The guard. */

/* The file and offset where the cursor 'c' starts, as written. */
static CXFile start_of(CXCursor c, unsigned *offset)
{
    CXFile file = NULL;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), &file, NULL, NULL,
                               offset);
    return file;
}

/* The innermost function of the unit (ss_callgraph_function) whose text holds 'c', or a null
 * cursor. */
static CXCursor enclosing_function(ss_callgraph *graph, CXCursor c)
{
    unsigned at = 0, best = 0;
    CXFile file = start_of(c, &at);
    CXCursor found = clang_getNullCursor();
    for (size_t i = 0, n = ss_callgraph_function_count(graph); file && i < n; i++) {
        CXCursor fn = ss_callgraph_function(graph, i);
        unsigned begin = 0, end = 0;
        CXFile f = start_of(fn, &begin);
        clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(fn)), NULL, NULL, NULL,
                                   &end);
        if (f && clang_File_isEqual(f, file) && begin <= at && at < end &&
            (ss_ast_is_null(found) || end - begin < best)) {
            found = fn;
            best = end - begin;
        }
    }
    return found;
}

char *ss_context_set_up_key_words(ss_callgraph *graph, CXCursor function, CXCursor if_stmt,
                                  int file_place, int elsewhere)
{
    if (ss_ast_is_null(function))
        function = enclosing_function(graph, if_stmt);
    key_guard k = {clang_getNullCursor(), clang_getNullCursor(), clang_getNullCursor(), 0};
    key_insert at = {&k, clang_getNullCursor()};
    if (clang_getCursorKind(if_stmt) != CXCursor_IfStmt ||
        !key_absent(ss_ast_child(if_stmt, ss_ast_if_condition(if_stmt)), &k) ||
        !ss_context_branch_does(if_stmt, inserts_key_at, &at) ||
        !set_lasts(graph, function, if_stmt, &k, elsewhere) || key_lost_in_unit(graph, &k))
        return NULL;
    char *set = ss_expr_text(k.set), *key = ss_expr_text(k.key);
    if (set && key && strcmp(set, key) == 0) {
        /* both from one macro's expansion ('STAGE(SA)'): the set's name and the key's value */
        CXString name = clang_getCursorSpelling(k.decl);
        free(set);
        free(key);
        set = ss_xstrdup(clang_getCString(name) ? clang_getCString(name) : "?");
        key = ss_xasprintf("%lld", k.value);
        clang_disposeString(name);
    }
    char *guard_at =
        file_place ? ss_callgraph_place(if_stmt) : ss_xasprintf("line %u", ss_scope_line(if_stmt));
    char *words = ss_xasprintf("%s tests whether '%s' holds '%s', a constant key, and line %u "
                               "inserts it",
                               guard_at, set ? set : "?", key ? key : "?", ss_scope_line(at.found));
    free(guard_at);
    free(set);
    free(key);
    return words;
}
