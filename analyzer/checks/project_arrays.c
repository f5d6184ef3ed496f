/* project_arrays.c: a wait right before a free of memory that a function of another unit makes
 * through a reference parameter (held-out-28's shape CB, ASTRA's fan_fp.cu:
 * 'if (!createArrayAndTextureObject2D(data, array, tex, ...)) return false; ...;
 * cudaStreamSynchronize(stream); cudaFreeArray(array);', the function defined in util.cu;
 * project_facts.h; docs/lint.md, "Warning or note"). The unit that defines a function records
 * each reference parameter it makes memory through on every way it returns other than false
 * (ss_context_makes_out) and the allocator; the unit with the wait keeps the question of its
 * warning; the project pass makes it a note where a unit's facts say the function does so with
 * an allocator of the free's kind. */
#include "ast.h"
#include "cache.h"
#include "common.h"
#include "context_cases.h"
#include "log.h"
#include "project_facts.h"
#include "scope.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* A function 'usr' that makes memory through its parameter 'param' with 'allocator'. */
typedef struct array_out {
    char *usr, *allocator;
    unsigned param;
} array_out;

/* A warning for the wait at 'file', 'line', 'column' that the note 'words' would end, were the
 * function 'usr' to make, through its parameter 'param', memory that the free 'free_name'
 * takes. */
typedef struct array_question {
    char *file;
    unsigned line, column;
    ss_rule_id rule;
    char *usr, *free_name, *words;
    unsigned param;
    /* A note to take back (ss_project_drain_question): 'usr' the function whose wait ends it,
     * 'words' the note's words in the message. */
    int revert;
} array_question;

struct ss_array_facts {
    array_out *outs;
    size_t out_count, out_cap;
    array_question *questions;
    size_t question_count, question_cap;
    array_question kept;
    CXCursor kept_at;
    int has_kept;
};

static struct ss_array_facts *arrays_of(ss_project_facts *facts)
{
    if (facts->arrays == NULL)
        facts->arrays = ss_xcalloc(1, sizeof *facts->arrays);
    return facts->arrays;
}

static void question_free(array_question *q)
{
    free(q->file);
    free(q->usr);
    free(q->free_name);
    free(q->words);
    memset(q, 0, sizeof *q);
}

void ss_project_arrays_free(ss_project_facts *facts)
{
    struct ss_array_facts *a = facts->arrays;
    if (a == NULL)
        return;
    for (size_t i = 0; i < a->out_count; i++) {
        free(a->outs[i].usr);
        free(a->outs[i].allocator);
    }
    for (size_t i = 0; i < a->question_count; i++)
        question_free(&a->questions[i]);
    question_free(&a->kept);
    free(a->outs);
    free(a->questions);
    free(a);
    facts->arrays = NULL;
}

static array_out *add_out(struct ss_array_facts *a)
{
    return ss_xpush((void **)&a->outs, &a->out_cap, &a->out_count, sizeof *a->outs);
}

static array_question *add_question(struct ss_array_facts *a)
{
    return ss_xpush((void **)&a->questions, &a->question_cap, &a->question_count,
                    sizeof *a->questions);
}

/* ------------------------------------------------------------------------------------------
 * The unit with the wait: the question. */

void ss_project_array_question(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const char *usr,
                               unsigned param, const char *free_name, const char *words)
{
    ss_project_facts *facts = ss_project_unit_facts(ctx);
    if (facts == NULL)
        return;
    struct ss_array_facts *a = arrays_of(facts);
    question_free(&a->kept);
    a->kept.rule = rule;
    a->kept.usr = ss_xstrdup(usr);
    a->kept.param = param;
    a->kept.free_name = ss_xstrdup(free_name);
    a->kept.words = ss_xstrdup(words);
    a->kept_at = at;
    a->has_kept = 1;
}

void ss_project_drain_question(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const char *usr,
                               const char *words)
{
    ss_project_array_question(ctx, rule, at, usr, 0, "", words);
    ss_project_facts *facts = ss_project_unit_facts(ctx);
    if (facts && facts->arrays)
        facts->arrays->kept.revert = 1;
}

void ss_project_ask_array(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const ss_finding *f)
{
    ss_project_facts *facts = ctx->streams ? ctx->streams->facts : NULL;
    struct ss_array_facts *a = facts ? facts->arrays : NULL;
    if (a == NULL || !a->has_kept)
        return;
    a->has_kept = 0;
    int asked = a->kept.revert ? f->severity == SS_SEV_NOTE && f->message &&
                                     strstr(f->message, a->kept.words) != NULL
                               : f->severity == SS_SEV_WARNING;
    if (a->kept.rule != rule || !ss_ast_same_node(a->kept_at, at) || f->file == NULL || !asked) {
        question_free(&a->kept);
        return;
    }
    array_question *q = add_question(a);
    *q = a->kept;
    memset(&a->kept, 0, sizeof a->kept);
    q->file = ss_xstrdup(f->file);
    q->line = f->line;
    q->column = f->column;
}

/* ------------------------------------------------------------------------------------------
 * The unit that defines the function: its facts. */

static enum CXChildVisitResult find_makers(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct ss_array_facts *a = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl)
        return CXChildVisit_Recurse;
    if (k != CXCursor_FunctionDecl || !clang_isCursorDefinition(c) || ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    char *usr = NULL;
    int params = clang_Cursor_getNumArguments(c);
    for (int i = 0; i < params; i++) {
        char allocator[40];
        if (clang_getCursorType(clang_Cursor_getArgument(c, (unsigned)i)).kind !=
                CXType_LValueReference ||
            !ss_context_makes_out(c, (unsigned)i, allocator, sizeof allocator))
            continue;
        if (usr == NULL)
            usr = ss_project_stream_param_usr(c);
        if (usr == NULL)
            break;
        array_out *o = add_out(a);
        o->usr = ss_xstrdup(usr);
        o->param = (unsigned)i;
        o->allocator = ss_xstrdup(allocator);
    }
    free(usr);
    return CXChildVisit_Continue;
}

void ss_project_record_array_outs(ss_check_ctx *ctx, ss_project_facts *facts)
{
    clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_makers, arrays_of(facts));
}

/* ------------------------------------------------------------------------------------------
 * The project pass. */

/* The first unit's fact for the function 'usr' and parameter 'param', or NULL. */
static const array_out *find_out(ss_project_facts *const *facts, size_t count, const char *usr,
                                 unsigned param)
{
    for (size_t u = 0; u < count; u++) {
        const struct ss_array_facts *a = facts[u] ? facts[u]->arrays : NULL;
        for (size_t i = 0; a && i < a->out_count; i++) {
            if (a->outs[i].param == param && strcmp(a->outs[i].usr, usr) == 0)
                return &a->outs[i];
        }
    }
    return NULL;
}

/* The first loop call, in the run's order, of the function 'usr' (a loop of another unit that
 * calls it itself), or NULL. */
static const ss_loop_call *loop_call_of(ss_project_facts *const *facts, size_t count,
                                        const char *usr)
{
    for (size_t u = 0; u < count; u++) {
        for (size_t i = 0; facts[u] && i < facts[u]->loop_call_count; i++) {
            const ss_loop_call *c = &facts[u]->loop_calls[i];
            if (!c->outer && strcmp(c->usr, usr) == 0)
                return c;
        }
    }
    return NULL;
}

/* The note 'f' of a wait that ends the function 'q->usr', drained by its unit's callers' frees
 * (drained.c caller_free_words), back to a warning where a loop of another unit calls the
 * function: that call is not followed by a free the unit saw. */
static void take_back(ss_finding *f, const array_question *q, const ss_loop_call *c)
{
    char *cut = ss_xasprintf("; %s", q->words);
    char *at = strstr(f->message, cut);
    size_t len = strlen(cut);
    if (at) {
        memmove(at, at + len, strlen(at + len) + 1);
        char *message =
            ss_xasprintf("%s; drained anyway in this unit only: another unit calls "
                         "'%s()' in the loop at %s, where no free after the call "
                         "is seen",
                         f->message, c->callee ? c->callee : "?", c->place ? c->place : "?");
        free(f->message);
        f->message = message;
        f->severity = SS_SEV_WARNING;
    }
    free(cut);
}

void ss_project_apply_arrays(ss_project_facts *const *facts, ss_result *const *results,
                             size_t count)
{
    for (size_t u = 0; u < count; u++) {
        const struct ss_array_facts *a = facts[u] ? facts[u]->arrays : NULL;
        for (size_t i = 0; a && results[u] && i < a->question_count; i++) {
            const array_question *q = &a->questions[i];
            ss_finding *f =
                ss_project_find_finding(results[u], q->rule, q->file, q->line, q->column);
            if (q->revert) {
                const ss_loop_call *c = loop_call_of(facts, count, q->usr);
                if (f && f->severity == SS_SEV_NOTE && f->message && c)
                    take_back(f, q, c);
                continue;
            }
            const array_out *o = find_out(facts, count, q->usr, q->param);
            if (f == NULL || f->severity != SS_SEV_WARNING || o == NULL ||
                !ss_context_allocator_frees(q->free_name, o->allocator))
                continue;
            char *message = ss_xasprintf("%s; %s (its unit: it makes it with '%s')", f->message,
                                         q->words, o->allocator);
            free(f->message);
            f->message = message;
            f->severity = SS_SEV_NOTE;
        }
    }
}

/* ------------------------------------------------------------------------------------------
 * The cache's form ("arrayOuts", "arrayQuestions"; absent: none). */

void ss_project_arrays_encode(const ss_project_facts *facts, cJSON *o)
{
    const struct ss_array_facts *a = facts->arrays;
    if (a == NULL)
        return;
    cJSON *outs = cJSON_AddArrayToObject(o, "arrayOuts");
    for (size_t i = 0; i < a->out_count; i++) {
        cJSON *item = cJSON_CreateObject();
        ss_cache_add_string(item, "usr", a->outs[i].usr);
        cJSON_AddNumberToObject(item, "param", a->outs[i].param);
        ss_cache_add_string(item, "allocator", a->outs[i].allocator);
        cJSON_AddItemToArray(outs, item);
    }
    cJSON *questions = cJSON_AddArrayToObject(o, "arrayQuestions");
    for (size_t i = 0; i < a->question_count; i++) {
        const array_question *q = &a->questions[i];
        cJSON *item = cJSON_CreateObject();
        ss_cache_add_string(item, "file", q->file);
        cJSON_AddNumberToObject(item, "line", q->line);
        cJSON_AddNumberToObject(item, "column", q->column);
        cJSON_AddNumberToObject(item, "rule", q->rule);
        ss_cache_add_string(item, "usr", q->usr);
        cJSON_AddNumberToObject(item, "param", q->param);
        ss_cache_add_string(item, "free", q->free_name);
        ss_cache_add_string(item, "words", q->words);
        if (q->revert)
            cJSON_AddNumberToObject(item, "revert", 1);
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

static void decode_out(const cJSON *item, ss_project_facts *facts, int *bad)
{
    array_out *o = add_out(arrays_of(facts));
    o->usr = taken(item, "usr", bad);
    o->param = ss_cache_get_unsigned(item, "param", UINT_MAX, bad);
    o->allocator = taken(item, "allocator", bad);
}

static void decode_question(const cJSON *item, ss_project_facts *facts, int *bad)
{
    array_question *q = add_question(arrays_of(facts));
    q->file = taken(item, "file", bad);
    q->line = ss_cache_get_unsigned(item, "line", UINT_MAX, bad);
    q->column = ss_cache_get_unsigned(item, "column", UINT_MAX, bad);
    q->rule = (ss_rule_id)ss_cache_get_unsigned(item, "rule", SS_RULE_COUNT - 1, bad);
    q->usr = taken(item, "usr", bad);
    q->param = ss_cache_get_unsigned(item, "param", UINT_MAX, bad);
    q->free_name = taken(item, "free", bad);
    q->words = taken(item, "words", bad);
    q->revert = cJSON_GetObjectItemCaseSensitive(item, "revert") != NULL;
}

void ss_project_arrays_decode(const cJSON *o, ss_project_facts *facts, int *bad)
{
    ss_project_decode_items(o, "arrayOuts", decode_out, facts, bad);
    ss_project_decode_items(o, "arrayQuestions", decode_question, facts, bad);
}
