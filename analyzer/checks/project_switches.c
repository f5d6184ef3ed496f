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
        return ss_ast_eval_int(init, &value) == 0 && value == 0;
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
        break;
    }
    free(path);
}

/* ------------------------------------------------------------------------------------------
 * The writes. */

typedef struct write_walk {
    struct ss_switch_facts *s;
} write_walk;

static void record(write_walk *w, CXCursor field, char *env, CXCursor at)
{
    char *usr = ss_ast_usr(field);
    if (usr == NULL) {
        free(env);
        return;
    }
    switch_write *r = add_write(w->s);
    r->usr = usr;
    r->env = env;
    r->place = ss_callgraph_place(at);
}

/* Whether the member reference 'c', under 'parent', is only read: converted to its value (not
 * bound to a const reference). */
static int only_read(CXCursor c, CXCursor parent)
{
    (void)c;
    return clang_getCursorKind(parent) == CXCursor_UnexposedExpr &&
           ss_ast_child_count(parent) == 1 &&
           !clang_isConstQualifiedType(clang_getCursorType(parent));
}

/* An assignment to a bool member: from getenv (its name), the constant 0 (nothing: it turns
 * the switch off), or anything else. */
static void record_store(write_walk *w, CXCursor store, CXCursor field)
{
    CXCursor value = ss_ast_child(store, 1);
    long long constant = 1;
    char op[8];
    int plain = ss_ast_binary_op(store, op, sizeof op) == 0 && strcmp(op, "=") == 0;
    if (plain && ss_ast_eval_int(value, &constant) == 0 && constant == 0)
        return;
    unsigned line = 0;
    char *env = plain ? ss_context_getenv_read(value, store, &line) : NULL;
    record(w, field, env, store);
}

static enum CXChildVisitResult find_writes(CXCursor c, CXCursor parent, CXClientData data)
{
    write_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) &&
        ss_ast_child_count(c) == 2) {
        CXCursor field = bool_member(ss_ast_child(c, 0));
        char op[8];
        if (!ss_ast_is_null(field) && ss_ast_binary_op(c, op, sizeof op) == 0 && strchr(op, '=') &&
            strcmp(op, "==") != 0 && strcmp(op, "!=") != 0 && strcmp(op, "<=") != 0 &&
            strcmp(op, ">=") != 0) {
            record_store(w, c, field);
            ss_ast_visit_whole(ss_ast_child(c, 1), c, find_writes, w);
            return CXChildVisit_Continue;
        }
    }
    if (k == CXCursor_MemberRef || k == CXCursor_MemberRefExpr) {
        /* A constructor's initializer ('cudaSync(true)'), an address, a reference, '++': a
         * write lint does not read. */
        CXCursor field = clang_getCursorReferenced(c);
        if (clang_getCursorKind(field) == CXCursor_FieldDecl &&
            clang_getCanonicalType(clang_getCursorType(field)).kind == CXType_Bool &&
            (k == CXCursor_MemberRef || !only_read(c, parent)))
            record(w, field, NULL, c);
    }
    return CXChildVisit_Recurse;
}

void ss_project_record_switches(ss_check_ctx *ctx, ss_project_facts *facts)
{
    ss_callgraph *graph = ss_check_graph(ctx);
    write_walk w = {switches_of(facts)};
    for (size_t i = 0, n = ss_callgraph_function_count(graph); i < n; i++)
        clang_visitChildren(ss_callgraph_function(graph, i), find_writes, &w);
}

/* ------------------------------------------------------------------------------------------
 * The project pass. */

/* The first write from the environment of the member 'usr' among all units' facts, where no
 * unit writes it otherwise; else NULL. */
static const switch_write *env_only(ss_project_facts *const *facts, size_t count, const char *usr)
{
    const switch_write *env = NULL;
    for (size_t u = 0; u < count; u++) {
        const struct ss_switch_facts *s = facts[u] ? facts[u]->switches : NULL;
        for (size_t i = 0; s && i < s->write_count; i++) {
            if (strcmp(s->writes[i].usr, usr) != 0)
                continue;
            if (s->writes[i].env == NULL)
                return NULL;
            if (env == NULL)
                env = &s->writes[i];
        }
    }
    return env;
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
            ss_finding *f =
                ss_project_find_finding(results[u], q->rule, q->file, q->line, q->column);
            const switch_write *w =
                f && f->severity == SS_SEV_WARNING ? env_only(facts, count, q->usr) : NULL;
            if (w == NULL)
                continue;
            char *message = ss_xasprintf("%s; opt-in: it runs only when the environment sets "
                                         "'%s' (line %u tests '%s', false unless set from "
                                         "getenv at %s, the only write of it in the project)",
                                         f->message, w->env, q->if_line, q->field, w->place);
            free(f->message);
            f->message = message;
            f->severity = SS_SEV_NOTE;
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
}

void ss_project_switches_decode(const cJSON *o, ss_project_facts *facts, int *bad)
{
    ss_project_decode_items(o, "switchWrites", decode_write, facts, bad);
    ss_project_decode_items(o, "switchQuestions", decode_question, facts, bad);
}
