/* project_switches.c: a call under a debugging switch that a settings object holds, set from the
 * environment in another unit (held-out-38's shape CP, fastllm's DeviceSync(): 'if
 * (GetFastllmEnv().cudaSync) cudaDeviceSynchronize();', with 'this->cudaSync = getenv(...)
 * ...' in fastllm.cpp; project_facts.h; docs/lint.md, "Warning or note"). Each unit records the
 * writes of its functions to bool members: from getenv (through up to three variables), or
 * otherwise; the unit with the warning keeps the question of a call in the true branch of an
 * 'if' that tests such a member, false by default; the project pass makes it a note where the
 * run saw every unit and the only writes of the member are from getenv. */
#include "ast.h"
#include "cache.h"
#include "callgraph.h"
#include "common.h"
#include "context_cases.h"
#include "log.h"
#include "project_facts.h"
#include "scope.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* A write of the member 'usr': from the environment variable 'env' at 'place', or (env NULL)
 * another write. */
typedef struct switch_write {
    char *usr, *env, *place;
} switch_write;

/* A warning at 'file', 'line', 'column' of 'rule' for a call in the true branch of the 'if' at
 * 'if_line' that tests the member 'usr' named 'field'. */
typedef struct switch_question {
    char *file;
    unsigned line, column, if_line;
    ss_rule_id rule;
    char *usr, *field;
    char *record; /* the member's class (its USR), or NULL */
} switch_question;

struct ss_switch_facts {
    switch_write *writes;
    size_t write_count, write_cap;
    switch_question *questions;
    size_t question_count, question_cap;
};

static struct ss_switch_facts *switches_of(ss_project_facts *facts)
{
    if (facts->switches == NULL)
        facts->switches = ss_xcalloc(1, sizeof *facts->switches);
    return facts->switches;
}

void ss_project_switches_free(ss_project_facts *facts)
{
    struct ss_switch_facts *s = facts->switches;
    if (s == NULL)
        return;
    for (size_t i = 0; i < s->write_count; i++) {
        free(s->writes[i].usr);
        free(s->writes[i].env);
        free(s->writes[i].place);
    }
    for (size_t i = 0; i < s->question_count; i++) {
        free(s->questions[i].file);
        free(s->questions[i].usr);
        free(s->questions[i].field);
        free(s->questions[i].record);
    }
    free(s->writes);
    free(s->questions);
    free(s);
    facts->switches = NULL;
}

static switch_write *add_write(struct ss_switch_facts *s)
{
    return ss_xpush((void **)&s->writes, &s->write_cap, &s->write_count, sizeof *s->writes);
}

static switch_question *add_question(struct ss_switch_facts *s)
{
    return ss_xpush((void **)&s->questions, &s->question_cap, &s->question_count,
                    sizeof *s->questions);
}

/* The bool member (a field) 'e' names ('env.cudaSync', 'GetEnv().cudaSync', 'm_debug' in a
 * method), or a null cursor. */
static CXCursor bool_member(CXCursor e)
{
    e = ss_ast_strip(e);
    if (clang_getCursorKind(e) != CXCursor_MemberRefExpr)
        return clang_getNullCursor();
    CXCursor field = clang_getCursorReferenced(e);
    return clang_getCursorKind(field) == CXCursor_FieldDecl &&
                   clang_getCanonicalType(clang_getCursorType(field)).kind == CXType_Bool
               ? field
               : clang_getNullCursor();
}

/* Whether the member 'field' is false by default: its declaration has an initializer
 * ('bool cudaSync = false;', '{false}', '{}') that is the constant 0. */
static int false_by_default(CXCursor field)
{
    unsigned n = ss_ast_child_count(field);
    for (unsigned i = 0; i < n; i++) {
        CXCursor init = ss_ast_child(field, i);
        long long value = 1;
        if (!clang_isExpression(clang_getCursorKind(init)))
            continue;
        if (clang_getCursorKind(init) == CXCursor_InitListExpr && ss_ast_child_count(init) == 0)
            return 1;
        if (clang_getCursorKind(init) == CXCursor_InitListExpr)
            init = ss_ast_child(init, 0);
        return ss_ast_literal_int(init, &value) == 0 && value == 0;
    }
    return 0;
}

void ss_project_ask_switch(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const ss_finding *f)
{
    ss_project_facts *facts = ss_project_unit_facts(ctx);
    if (facts == NULL || f->severity != SS_SEV_WARNING || f->file == NULL ||
        ss_ast_is_null(ctx->function))
        return;
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(ss_scope_outer_function(ctx->function), at, path);
    for (long i = 0; i < found; i++) {
        CXCursor cond = ss_context_then_condition(path[i], i + 1 < found ? path[i + 1] : at);
        CXCursor field = ss_ast_is_null(cond) ? cond : bool_member(cond);
        char *usr = ss_ast_is_null(field) || !false_by_default(field) ? NULL : ss_ast_usr(field);
        if (usr == NULL)
            continue;
        switch_question *q = add_question(switches_of(facts));
        q->file = ss_xstrdup(f->file);
        q->line = f->line;
        q->column = f->column;
        q->rule = rule;
        q->if_line = ss_scope_line(path[i]);
        q->usr = usr;
        CXString name = clang_getCursorSpelling(field);
        q->field = ss_xstrdup(clang_getCString(name) ? clang_getCString(name) : "?");
        clang_disposeString(name);
        q->record = ss_ast_usr(clang_getCanonicalCursor(clang_getCursorSemanticParent(field)));
        break;
    }
    free(path);
}

/* ------------------------------------------------------------------------------------------
 * The writes. A write is recorded under the member's USR, or, where lint cannot tell which
 * member or which value, under "name:" and the member's name (a template's store to a member
 * of a dependent object) or "record:" and the class's USR (every bool member of a class
 * whose whole object is aggregate-initialized, copied or read into). */

typedef struct write_walk {
    struct ss_switch_facts *s;
    CXCursor function; /* the function walked, or a null cursor at file scope */
} write_walk;

static void record_usr(write_walk *w, char *usr, char *env, CXCursor at)
{
    if (usr == NULL) {
        free(env);
        return;
    }
    switch_write *r = add_write(w->s);
    r->usr = usr;
    r->env = env;
    r->place = ss_callgraph_place(at);
}

static void record(write_walk *w, CXCursor field, char *env, CXCursor at)
{
    record_usr(w, ss_ast_usr(field), env, at);
}

/* Records a write of every bool member of the class 'record'. */
static void record_class(write_walk *w, CXCursor record, CXCursor at)
{
    char *usr = ss_ast_usr(clang_getCanonicalCursor(record));
    record_usr(w, usr ? ss_xasprintf("record:%s", usr) : NULL, NULL, at);
    free(usr);
}

/* Whether the member reference 'c', under 'parent', is only read: converted to its value (not
 * bound to a const reference). */
static int only_read(CXCursor parent)
{
    return clang_getCursorKind(parent) == CXCursor_UnexposedExpr &&
           ss_ast_child_count(parent) == 1 &&
           !clang_isConstQualifiedType(clang_getCursorType(parent));
}

/* Whether 'e' is a getenv call. */
static int getenv_call(CXCursor e)
{
    e = ss_ast_strip(e);
    return clang_getCursorKind(e) == CXCursor_CallExpr && ss_context_is_getenv(e);
}

/* A write to the variable 'var' (an assignment, its address taken) in a function. */
typedef struct var_walk {
    CXCursor var;
    int written;
} var_walk;

static enum CXChildVisitResult find_var_write(CXCursor c, CXCursor parent, CXClientData data)
{
    var_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr ||
        !clang_equalCursors(clang_getCursorReferenced(c), w->var))
        return CXChildVisit_Recurse;
    if (!only_read(parent)) {
        w->written = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

/* The getenv call 'e' is, or the one a local pointer it names was initialized with and that its
 * function ('function') never writes again ('const char *v = getenv("X");'); else a null
 * cursor. */
static CXCursor env_read(CXCursor e, CXCursor function)
{
    e = ss_ast_strip(e);
    if (getenv_call(e))
        return e;
    CXCursor var = clang_getCursorKind(e) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(e)
                                                                  : clang_getNullCursor();
    if (clang_getCursorKind(var) != CXCursor_VarDecl || ss_ast_is_null(function))
        return clang_getNullCursor();
    unsigned n = ss_ast_child_count(var);
    CXCursor init = n > 0 ? ss_ast_child(var, n - 1) : clang_getNullCursor();
    if (ss_ast_is_null(init) || !getenv_call(init))
        return clang_getNullCursor();
    var_walk w = {var, 0};
    clang_visitChildren(function, find_var_write, &w);
    return w.written ? clang_getNullCursor() : ss_ast_strip(init);
}

/* Whether 'e' is a null pointer constant. */
static int null_constant(CXCursor e)
{
    e = ss_ast_strip(e);
    long long v = 1;
    enum CXCursorKind k = clang_getCursorKind(e);
    return k == CXCursor_CXXNullPtrLiteralExpr || k == CXCursor_GNUNullExpr ||
           (ss_ast_literal_int(e, &v) == 0 && v == 0);
}

/* The getenv call on which the value 'e' is false while the variable is unset: the variable's
 * string itself (converted to bool), compared unequal with null ('v != nullptr', either side),
 * or such a test under '&&' ('v != nullptr && strcmp(v, "1") == 0'); else a null cursor. A
 * negation, an '||', a call given the string or a default of true is not taken. */
static CXCursor off_unless_set(CXCursor e, CXCursor function)
{
    e = ss_ast_strip(e);
    CXCursor read = env_read(e, function);
    if (!ss_ast_is_null(read))
        return read;
    char op[8];
    if (clang_getCursorKind(e) != CXCursor_BinaryOperator ||
        ss_ast_binary_op(e, op, sizeof op) != 0)
        return clang_getNullCursor();
    CXCursor l = ss_ast_child(e, 0), r = ss_ast_child(e, 1);
    if (strcmp(op, "!=") == 0) {
        read = null_constant(r) ? env_read(l, function) : clang_getNullCursor();
        return ss_ast_is_null(read) && null_constant(l) ? env_read(r, function) : read;
    }
    if (strcmp(op, "&&") != 0)
        return clang_getNullCursor();
    read = off_unless_set(l, function);
    return ss_ast_is_null(read) ? off_unless_set(r, function) : read;
}

/* An assignment to a bool member: from the environment, off unless a variable is set
 * (off_unless_set: its name), the constant 0 (nothing: it turns the switch off), or anything
 * else. */
static void record_store(write_walk *w, CXCursor store, CXCursor field)
{
    CXCursor value = ss_ast_child(store, 1);
    long long constant = 1;
    char op[8];
    int plain = ss_ast_binary_op(store, op, sizeof op) == 0 && strcmp(op, "=") == 0;
    if (plain && ss_ast_literal_int(value, &constant) == 0 && constant == 0)
        return;
    CXCursor read = plain ? off_unless_set(value, w->function) : clang_getNullCursor();
    unsigned line = 0;
    char *env = ss_ast_is_null(read) ? NULL : ss_context_getenv_read(read, store, &line);
    record(w, field, env, store);
}

/* The member's name a dependent member expression spells ('c.flag' in a template): the text
 * after its last '.' or '->', malloc'ed, or NULL. */
static char *dependent_name(CXCursor e)
{
    char *text = ss_expr_text(e);
    char *dot = text ? strrchr(text, '.') : NULL, *arrow = text ? strrchr(text, '>') : NULL;
    char *name = arrow && (!dot || arrow > dot) && arrow > text && arrow[-1] == '-' ? arrow + 1
                 : dot                                                              ? dot + 1
                                                                                    : NULL;
    char *copy = name && *name ? ss_xasprintf("name:%s", name) : NULL;
    free(text);
    return copy;
}

/* Whether the type 't' (or what it points or refers to) is a class; its declaration into
 * '*record'. */
static int class_type(CXType t, CXCursor *record)
{
    t = clang_getCanonicalType(t);
    if (t.kind == CXType_Pointer || t.kind == CXType_LValueReference ||
        t.kind == CXType_RValueReference)
        t = clang_getCanonicalType(clang_getPointeeType(t));
    *record = clang_getTypeDeclaration(t);
    enum CXCursorKind k = clang_getCursorKind(*record);
    return k == CXCursor_StructDecl || k == CXCursor_ClassDecl || k == CXCursor_UnionDecl;
}

/* A call that writes a whole object's bytes (memcpy, fread, read, recv; memset with another
 * value than 0) into the object its first argument points to. */
static int writes_bytes(CXCursor call)
{
    char *name = ss_scope_callee_name(call);
    int copy = name && (strcmp(name, "memcpy") == 0 || strcmp(name, "memmove") == 0 ||
                        strcmp(name, "fread") == 0 || strcmp(name, "read") == 0 ||
                        strcmp(name, "recv") == 0 || strcmp(name, "memset") == 0);
    int zero = name && strcmp(name, "memset") == 0 && clang_Cursor_getNumArguments(call) > 1 &&
               null_constant(clang_Cursor_getArgument(call, 1));
    free(name);
    return copy && !zero;
}

/* Whether the aggregate initializer 'list' holds something other than constants 0. */
static int sets_something(CXCursor list)
{
    for (unsigned i = 0, n = ss_ast_child_count(list); i < n; i++) {
        long long v = 1;
        if (!(ss_ast_literal_int(ss_ast_child(list, i), &v) == 0 && v == 0))
            return 1;
    }
    return 0;
}

static enum CXChildVisitResult find_writes(CXCursor c, CXCursor parent, CXClientData data);

/* An assignment, compound assignment, aggregate initializer or whole-object write: its record. */
static int recorded_write(write_walk *w, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    CXCursor record;
    char op[8];
    /* the left side first: an operator's text is read only for a member's store (reading it
     * for every '+' of an expression nested 80,000 deep costs minutes) */
    CXCursor lhs = k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator
                       ? ss_ast_strip(ss_ast_child(c, 0))
                       : clang_getNullCursor();
    if (clang_getCursorKind(lhs) == CXCursor_MemberRefExpr && ss_ast_child_count(c) == 2 &&
        ss_ast_binary_op(c, op, sizeof op) == 0 && strchr(op, '=') && strcmp(op, "==") != 0 &&
        strcmp(op, "!=") != 0 && strcmp(op, "<=") != 0 && strcmp(op, ">=") != 0) {
        CXCursor field = clang_getCursorReferenced(lhs);
        if (ss_ast_is_null(field))
            record_usr(w, dependent_name(lhs), NULL, c);
        else if (clang_getCursorKind(field) == CXCursor_FieldDecl &&
                 clang_getCanonicalType(clang_getCursorType(field)).kind == CXType_Bool)
            record_store(w, c, field);
        else
            return 0;
        ss_ast_visit_whole(ss_ast_child(c, 1), c, find_writes, w);
        return 1;
    }
    if (k == CXCursor_InitListExpr && class_type(clang_getCursorType(c), &record) &&
        sets_something(c))
        record_class(w, record, c);
    else if (k == CXCursor_CallExpr && clang_Cursor_getNumArguments(c) > 0 && writes_bytes(c) &&
             class_type(clang_getCursorType(ss_ast_strip(clang_Cursor_getArgument(c, 0))), &record))
        record_class(w, record, c);
    return 0;
}

static enum CXChildVisitResult find_writes(CXCursor c, CXCursor parent, CXClientData data)
{
    write_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (recorded_write(w, c))
        return CXChildVisit_Continue;
    if (k == CXCursor_MemberRef || k == CXCursor_MemberRefExpr || k == CXCursor_DeclRefExpr) {
        /* A constructor's initializer or a designator ('cudaSync(true)', '.g = true'), a member
         * pointer ('&Settings::h'), an address, a reference, '++': a write lint does not read. */
        CXCursor field = clang_getCursorReferenced(c);
        if (clang_getCursorKind(field) == CXCursor_FieldDecl &&
            clang_getCanonicalType(clang_getCursorType(field)).kind == CXType_Bool &&
            (k != CXCursor_MemberRefExpr || !only_read(parent)))
            record(w, field, NULL, c);
        else if (k == CXCursor_MemberRefExpr && ss_ast_is_null(field) && !only_read(parent))
            record_usr(w, dependent_name(c), NULL, c);
    }
    return CXChildVisit_Recurse;
}

/* Each declaration of the unit outside the system headers: a function's body walked as that
 * function's (for the variables getenv sets), anything else (a global's initializer, a
 * lambda at file scope, a class) at file scope. */
static enum CXChildVisitResult find_scopes(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    write_walk *w = data;
    if (ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl ||
        k == CXCursor_StructDecl || k == CXCursor_ClassDecl || k == CXCursor_ClassTemplate ||
        k == CXCursor_UnionDecl)
        return CXChildVisit_Recurse;
    write_walk inner = {
        w->s, ss_ast_is_function(c) && k != CXCursor_LambdaExpr ? c : clang_getNullCursor()};
    clang_visitChildren(c, find_writes, &inner);
    return CXChildVisit_Continue;
}

void ss_project_record_switches(ss_check_ctx *ctx, ss_project_facts *facts)
{
    write_walk w = {switches_of(facts), clang_getNullCursor()};
    clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_scopes, &w);
}

/* ------------------------------------------------------------------------------------------
 * The project pass. */

enum { MAX_ENVS = 3 };

/* The writes from the environment of the member 'usr' (of the class 'record', named 'field')
 * among all units' facts, up to MAX_ENVS of different variables, where no unit writes it
 * otherwise (nor a member of that name in a template, nor the class's whole object); their
 * number, 0 otherwise. */
static size_t env_only(ss_project_facts *const *facts, size_t count, const switch_question *q,
                       const switch_write **envs)
{
    size_t n = 0;
    char *by_name = ss_xasprintf("name:%s", q->field);
    char *by_class = q->record ? ss_xasprintf("record:%s", q->record) : NULL;
    int other = 0;
    for (size_t u = 0; u < count && !other; u++) {
        const struct ss_switch_facts *s = facts[u] ? facts[u]->switches : NULL;
        for (size_t i = 0; s && i < s->write_count && !other; i++) {
            const switch_write *w = &s->writes[i];
            if (strcmp(w->usr, by_name) == 0 || (by_class && strcmp(w->usr, by_class) == 0)) {
                other = 1;
                continue;
            }
            if (strcmp(w->usr, q->usr) != 0)
                continue;
            other = w->env == NULL;
            int seen = 0;
            for (size_t k = 0; k < n && !other; k++)
                seen |= strcmp(envs[k]->env, w->env) == 0;
            if (!other && !seen && n < MAX_ENVS)
                envs[n++] = w;
        }
    }
    free(by_name);
    free(by_class);
    return other ? 0 : n;
}

/* "'SYNC_DEBUG' (line 15 tests 'cuda_sync', false unless set from getenv at settings.cpp:10, the
 * only write of it in the project)", or with several variables "'A' or 'B' (..., false unless
 * set from getenv at a.cpp:3 or b.cpp:9, the only writes of it in the project)". Malloc'ed. */
static char *env_words(const switch_question *q, const switch_write **envs, size_t n)
{
    char *names = ss_xstrdup(""), *places = ss_xstrdup("");
    for (size_t i = 0; i < n; i++) {
        char *a = ss_xasprintf("%s%s'%s'", names, i ? " or " : "", envs[i]->env);
        char *b = ss_xasprintf("%s%s%s", places, i ? " or " : "", envs[i]->place);
        free(names);
        free(places);
        names = a;
        places = b;
    }
    char *words = ss_xasprintf("%s (line %u tests '%s', false unless set from getenv at %s, the "
                               "only write%s of it in the project)",
                               names, q->if_line, q->field, places, n > 1 ? "s" : "");
    free(names);
    free(places);
    return words;
}

void ss_project_apply_switches(ss_project_facts *const *facts, ss_result *const *results,
                               size_t count, unsigned scope)
{
    if (!(scope & SS_PROJECT_COMPLETE))
        return;
    for (size_t u = 0; u < count; u++) {
        const struct ss_switch_facts *s = facts[u] ? facts[u]->switches : NULL;
        for (size_t i = 0; s && results[u] && i < s->question_count; i++) {
            const switch_question *q = &s->questions[i];
            const switch_write *envs[MAX_ENVS];
            size_t n = env_only(facts, count, q, envs);
            char *words = n ? env_words(q, envs, n) : NULL;
            /* every finding at the place: a wait another unit's loops reach has one per way */
            for (size_t k = 0; words && k < results[u]->count; k++) {
                ss_finding *f = &results[u]->findings[k];
                if (f->rule != q->rule || f->line != q->line || f->column != q->column ||
                    f->file == NULL || strcmp(f->file, q->file) != 0 ||
                    f->severity != SS_SEV_WARNING)
                    continue;
                char *message = ss_xasprintf(
                    "%s; opt-in: it runs only when the environment sets %s", f->message, words);
                free(f->message);
                f->message = message;
                f->severity = SS_SEV_NOTE;
            }
            free(words);
        }
    }
}

/* ------------------------------------------------------------------------------------------
 * The cache's form ("switchWrites", "switchQuestions"; absent: none). */

void ss_project_switches_encode(const ss_project_facts *facts, cJSON *o)
{
    const struct ss_switch_facts *s = facts->switches;
    if (s == NULL)
        return;
    cJSON *writes = cJSON_AddArrayToObject(o, "switchWrites");
    for (size_t i = 0; i < s->write_count; i++) {
        cJSON *item = cJSON_CreateObject();
        ss_cache_add_string(item, "usr", s->writes[i].usr);
        ss_cache_add_string(item, "env", s->writes[i].env);
        ss_cache_add_string(item, "place", s->writes[i].place);
        cJSON_AddItemToArray(writes, item);
    }
    cJSON *questions = cJSON_AddArrayToObject(o, "switchQuestions");
    for (size_t i = 0; i < s->question_count; i++) {
        const switch_question *q = &s->questions[i];
        cJSON *item = cJSON_CreateObject();
        ss_cache_add_string(item, "file", q->file);
        cJSON_AddNumberToObject(item, "line", q->line);
        cJSON_AddNumberToObject(item, "column", q->column);
        cJSON_AddNumberToObject(item, "ifLine", q->if_line);
        cJSON_AddNumberToObject(item, "rule", q->rule);
        ss_cache_add_string(item, "usr", q->usr);
        ss_cache_add_string(item, "field", q->field);
        ss_cache_add_string(item, "record", q->record);
        cJSON_AddItemToArray(questions, item);
    }
}

/* A string member copied; sets '*bad' when it is missing or not a string ('optional': NULL
 * when missing). */
static char *taken(const cJSON *item, const char *name, int optional, int *bad)
{
    const char *s = ss_cache_get_string(item, name, bad);
    *bad |= s == NULL && !optional;
    return s ? ss_xstrdup(s) : NULL;
}

static void decode_write(const cJSON *item, ss_project_facts *facts, int *bad)
{
    switch_write *w = add_write(switches_of(facts));
    w->usr = taken(item, "usr", 0, bad);
    w->env = taken(item, "env", 1, bad);
    w->place = taken(item, "place", 0, bad);
}

static void decode_question(const cJSON *item, ss_project_facts *facts, int *bad)
{
    switch_question *q = add_question(switches_of(facts));
    q->file = taken(item, "file", 0, bad);
    q->line = ss_cache_get_unsigned(item, "line", UINT_MAX, bad);
    q->column = ss_cache_get_unsigned(item, "column", UINT_MAX, bad);
    q->if_line = ss_cache_get_unsigned(item, "ifLine", UINT_MAX, bad);
    q->rule = (ss_rule_id)ss_cache_get_unsigned(item, "rule", SS_RULE_COUNT - 1, bad);
    q->usr = taken(item, "usr", 0, bad);
    q->field = taken(item, "field", 0, bad);
    q->record = taken(item, "record", 1, bad);
}

void ss_project_switches_decode(const cJSON *o, ss_project_facts *facts, int *bad)
{
    ss_project_decode_items(o, "switchWrites", decode_write, facts, bad);
    ss_project_decode_items(o, "switchQuestions", decode_question, facts, bad);
}
