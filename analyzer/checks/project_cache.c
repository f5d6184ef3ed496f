/* project_cache.c: the facts of one unit (project_facts.h) as the cache stores them, and
 * back. */
#include "cache.h"
#include "log.h"
#include "project_facts.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* An array of strings 'name' in 'o' (absent when 'count' is 0). */
static void encode_strings(cJSON *o, const char *name, char *const *strings, size_t count)
{
    cJSON *array = count ? cJSON_AddArrayToObject(o, name) : NULL;
    for (size_t k = 0; k < count; k++)
        cJSON_AddItemToArray(array, cJSON_CreateString(strings[k]));
}

/* The cache's form of the summaries of waits for the whole device, the questions between
 * them and the pending findings. */
static void encode_waits(const ss_project_facts *facts, cJSON *o)
{
    cJSON *waits = cJSON_AddArrayToObject(o, "waits");
    for (size_t i = 0; i < facts->wait_count; i++) {
        const ss_device_wait *w = &facts->waits[i];
        cJSON *item = cJSON_CreateObject();
        ss_cache_add_string(item, "usr", w->usr);
        ss_cache_add_string(item, "name", w->name);
        ss_cache_add_string(item, "wait", w->wait);
        cJSON_AddNumberToObject(item, "only", w->only);
        cJSON_AddNumberToObject(item, "queues", w->queues);
        if (w->work)
            ss_cache_add_string(item, "work", w->work);
        if (w->queued_wait)
            ss_cache_add_string(item, "queuedWait", w->queued_wait);
        encode_strings(item, "others", w->others, w->other_count);
        cJSON_AddItemToArray(waits, item);
    }
    cJSON *between = cJSON_AddArrayToObject(o, "between");
    for (size_t i = 0; i < facts->between_count; i++) {
        const ss_between_question *b = &facts->between[i];
        cJSON *item = cJSON_CreateObject();
        ss_cache_add_string(item, "file", b->file);
        cJSON_AddNumberToObject(item, "line", b->line);
        cJSON_AddNumberToObject(item, "column", b->column);
        cJSON_AddNumberToObject(item, "rule", b->rule);
        ss_cache_add_string(item, "words", b->words);
        cJSON *usrs = cJSON_AddArrayToObject(item, "usrs");
        for (size_t k = 0; k < b->usr_count; k++)
            cJSON_AddItemToArray(usrs, cJSON_CreateString(b->usrs[k]));
        cJSON_AddItemToArray(between, item);
    }
    cJSON *pending = cJSON_AddArrayToObject(o, "pending");
    for (size_t i = 0; facts->pending && i < facts->pending->count; i++) {
        cJSON *item = cJSON_CreateObject();
        ss_cache_add_string(item, "usr", facts->pending_usrs[i]);
        cJSON_AddNumberToObject(item, "kind", facts->pending_kinds[i]);
        cJSON_AddItemToObject(item, "finding",
                              ss_cache_encode_finding(&facts->pending->findings[i]));
        cJSON_AddItemToArray(pending, item);
    }
}

/* The cache's form of the stream arguments and the questions about them (project_streams.c). */
static void encode_args(const ss_project_facts *facts, cJSON *o)
{
    encode_strings(o, "working", facts->working, facts->working_count);
    encode_strings(o, "closed", facts->closed, facts->closed_count);
    cJSON *crosses = facts->cross_count ? cJSON_AddArrayToObject(o, "crossCalls") : NULL;
    for (size_t i = 0; i < facts->cross_count; i++) {
        const char *pair[2] = {facts->crosses[i].from, facts->crosses[i].to};
        cJSON_AddItemToArray(crosses, cJSON_CreateStringArray(pair, 2));
    }
    cJSON *args = cJSON_AddArrayToObject(o, "streamArgs");
    for (size_t i = 0; i < facts->arg_count; i++) {
        const ss_stream_arg *a = &facts->args[i];
        cJSON *item = cJSON_CreateObject();
        ss_cache_add_string(item, "usr", a->usr);
        cJSON_AddNumberToObject(item, "param", a->param);
        cJSON_AddBoolToObject(item, "legacy", a->legacy);
        ss_cache_add_string(item, "via", a->via);
        cJSON_AddNumberToObject(item, "viaParam", a->via_param);
        if (a->drain)
            ss_cache_add_string(item, "drain", a->drain);
        encode_strings(item, "after", a->after, a->after_count);
        cJSON_AddItemToArray(args, item);
    }
    cJSON *questions = cJSON_AddArrayToObject(o, "paramQuestions");
    for (size_t i = 0; i < facts->param_question_count; i++) {
        const ss_param_question *q = &facts->param_questions[i];
        cJSON *item = cJSON_CreateObject();
        ss_cache_add_string(item, "file", q->file);
        cJSON_AddNumberToObject(item, "line", q->line);
        cJSON_AddNumberToObject(item, "column", q->column);
        cJSON_AddNumberToObject(item, "rule", q->rule);
        ss_cache_add_string(item, "words", q->words);
        cJSON *params = cJSON_AddArrayToObject(item, "params");
        for (size_t k = 0; q->params && k < q->params->count; k++) {
            cJSON *p = cJSON_CreateObject();
            ss_cache_add_string(p, "usr", q->params->usrs[k]);
            cJSON_AddNumberToObject(p, "param", q->params->params[k]);
            ss_cache_add_string(p, "name", q->params->names[k]);
            cJSON_AddItemToArray(params, p);
        }
        cJSON_AddItemToArray(questions, item);
    }
}

cJSON *ss_project_facts_encode(const ss_project_facts *facts)
{
    if (facts == NULL)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON *ends = cJSON_AddArrayToObject(o, "ends");
    for (size_t i = 0; i < facts->end_count; i++) {
        const ss_stream_end *e = &facts->ends[i];
        cJSON *item = cJSON_CreateObject();
        ss_cache_add_string(item, "usr", e->usr);
        cJSON_AddNumberToObject(item, "param", e->param);
        ss_cache_add_string(item, "wait", e->wait);
        ss_cache_add_string(item, "next", e->next);
        cJSON_AddNumberToObject(item, "nextParam", e->next_param);
        ss_cache_add_string(item, "nextName", e->next_name);
        cJSON_AddItemToArray(ends, item);
    }
    cJSON *questions = cJSON_AddArrayToObject(o, "questions");
    for (size_t i = 0; i < facts->question_count; i++) {
        const ss_wait_question *q = &facts->questions[i];
        cJSON *item = cJSON_CreateObject();
        ss_cache_add_string(item, "file", q->file);
        cJSON_AddNumberToObject(item, "line", q->line);
        cJSON_AddNumberToObject(item, "column", q->column);
        cJSON_AddNumberToObject(item, "rule", q->rule);
        ss_cache_add_string(item, "stream", q->stream);
        ss_cache_add_string(item, "usr", q->usr);
        cJSON_AddNumberToObject(item, "param", q->param);
        ss_cache_add_string(item, "callee", q->callee);
        cJSON_AddItemToArray(questions, item);
    }
    encode_waits(facts, o);
    encode_args(facts, o);
    ss_project_loops_encode(facts, o);
    ss_project_outputs_encode(facts, o);
    ss_project_foreign_encode(facts, o);
    ss_project_set_up_encode(facts, o);
    ss_project_arrays_encode(facts, o);
    ss_project_switches_encode(facts, o);
    return o;
}

/* A string member copied, or NULL; sets '*bad' when it is not a string, or missing and
 * 'required'. */
static char *take_string(const cJSON *o, const char *name, int required, int *bad)
{
    const char *s = ss_cache_get_string(o, name, bad);
    if (s == NULL && required)
        *bad = 1;
    return s ? ss_xstrdup(s) : NULL;
}

static void decode_end(const cJSON *item, ss_project_facts *facts, int *bad)
{
    ss_stream_end *e = ss_project_add_end(facts);
    e->usr = take_string(item, "usr", 1, bad);
    e->param = ss_cache_get_unsigned(item, "param", UINT_MAX, bad);
    e->wait = take_string(item, "wait", 0, bad);
    e->next = take_string(item, "next", 0, bad);
    e->next_param = ss_cache_get_unsigned(item, "nextParam", UINT_MAX, bad);
    e->next_name = take_string(item, "nextName", 0, bad);
    if (e->wait == NULL && (e->next == NULL || e->next_name == NULL))
        *bad = 1;
}

static void decode_question(const cJSON *item, ss_project_facts *facts, int *bad)
{
    ss_wait_question *q = ss_project_add_question(facts);
    q->file = take_string(item, "file", 1, bad);
    q->line = ss_cache_get_unsigned(item, "line", UINT_MAX, bad);
    q->column = ss_cache_get_unsigned(item, "column", UINT_MAX, bad);
    q->rule = (ss_rule_id)ss_cache_get_unsigned(item, "rule", SS_RULE_COUNT - 1, bad);
    q->stream = take_string(item, "stream", 1, bad);
    q->usr = take_string(item, "usr", 1, bad);
    q->param = ss_cache_get_unsigned(item, "param", UINT_MAX, bad);
    q->callee = take_string(item, "callee", 1, bad);
}

/* The array of strings 'name' of 'o' (absent: none) into '*strings', '*count'. */
static void decode_strings(const cJSON *o, const char *name, char ***strings, size_t *count,
                           int *bad)
{
    const cJSON *array = cJSON_GetObjectItemCaseSensitive(o, name), *item;
    if (array == NULL)
        return;
    if (!cJSON_IsArray(array)) {
        *bad = 1;
        return;
    }
    *strings = ss_xcalloc((size_t)cJSON_GetArraySize(array) + 1, sizeof **strings);
    cJSON_ArrayForEach(item, array)
    {
        if (!cJSON_IsString(item)) {
            *bad = 1;
            return;
        }
        (*strings)[(*count)++] = ss_xstrdup(item->valuestring);
    }
}

static void decode_wait(const cJSON *item, ss_project_facts *facts, int *bad)
{
    ss_device_wait *w = ss_project_add_wait(facts);
    w->usr = take_string(item, "usr", 1, bad);
    w->name = take_string(item, "name", 1, bad);
    w->wait = take_string(item, "wait", 1, bad);
    w->only = ss_cache_get_unsigned(item, "only", 1, bad) != 0;
    w->queues = ss_cache_get_unsigned(item, "queues", 1, bad) != 0;
    w->work = take_string(item, "work", 0, bad);
    w->queued_wait = take_string(item, "queuedWait", 0, bad);
    decode_strings(item, "others", &w->others, &w->other_count, bad);
}

static void decode_between(const cJSON *item, ss_project_facts *facts, int *bad)
{
    ss_between_question *b = ss_project_add_between(facts);
    b->file = take_string(item, "file", 1, bad);
    b->line = ss_cache_get_unsigned(item, "line", UINT_MAX, bad);
    b->column = ss_cache_get_unsigned(item, "column", UINT_MAX, bad);
    b->rule = (ss_rule_id)ss_cache_get_unsigned(item, "rule", SS_RULE_COUNT - 1, bad);
    b->words = take_string(item, "words", 1, bad);
    const cJSON *usrs = cJSON_GetObjectItemCaseSensitive(item, "usrs");
    if (!cJSON_IsArray(usrs) || cJSON_GetArraySize(usrs) == 0) {
        *bad = 1;
        return;
    }
    b->usrs = ss_xcalloc((size_t)cJSON_GetArraySize(usrs), sizeof *b->usrs);
    const cJSON *usr;
    cJSON_ArrayForEach(usr, usrs)
    {
        if (!cJSON_IsString(usr)) {
            *bad = 1;
            return;
        }
        b->usrs[b->usr_count++] = ss_xstrdup(usr->valuestring);
    }
}

static void decode_pending(const cJSON *item, ss_project_facts *facts, int *bad)
{
    const char *usr = ss_cache_get_string(item, "usr", bad);
    int kind = (int)ss_cache_get_unsigned(item, "kind", SS_PENDING_QUEUES, bad);
    const cJSON *finding = cJSON_GetObjectItemCaseSensitive(item, "finding");
    if (usr == NULL || !cJSON_IsObject(finding)) {
        *bad = 1;
        return;
    }
    ss_finding *f = ss_project_add_pending(facts, usr, kind);
    ss_cache_decode_finding(finding, f, bad);
}

/* Each [from, to] pair of strings in o's array KEY (absent: none), given to ADD; *bad is set
 * on anything else. */
void ss_project_decode_pairs(const cJSON *o, const char *key, ss_project_pair_fn add,
                             ss_project_facts *facts, int *bad)
{
    const cJSON *array = cJSON_GetObjectItemCaseSensitive(o, key), *pair;
    if (array && !cJSON_IsArray(array))
        *bad = 1;
    cJSON_ArrayForEach(pair, array)
    {
        const cJSON *from = cJSON_GetArrayItem(pair, 0), *to = cJSON_GetArrayItem(pair, 1);
        if (*bad || !cJSON_IsArray(pair) || !cJSON_IsString(from) || !cJSON_IsString(to)) {
            *bad = 1;
            return;
        }
        add(facts, from->valuestring, to->valuestring);
    }
}

ss_project_facts *ss_project_unit_facts(ss_check_ctx *ctx)
{
    if (ctx->streams == NULL)
        return NULL;
    if (ctx->streams->facts == NULL)
        ctx->streams->facts = ss_xcalloc(1, sizeof(ss_project_facts));
    return ctx->streams->facts;
}

void ss_project_decode_items(const cJSON *o, const char *key, ss_project_item_fn decode,
                             ss_project_facts *facts, int *bad)
{
    const cJSON *array = cJSON_GetObjectItemCaseSensitive(o, key), *item;
    if (array && !cJSON_IsArray(array))
        *bad = 1;
    cJSON_ArrayForEach(item, array)
    {
        if (*bad)
            return;
        decode(item, facts, bad);
    }
}

/* A call of a function of another unit ("crossCalls"). */
static void add_cross(ss_project_facts *facts, const char *from, const char *to)
{
    ss_xgrow((void **)&facts->crosses, &facts->cross_cap, facts->cross_count + 1,
             sizeof *facts->crosses);
    facts->crosses[facts->cross_count].from = ss_xstrdup(from);
    facts->crosses[facts->cross_count++].to = ss_xstrdup(to);
}

static void decode_arg(const cJSON *item, ss_project_facts *facts, int *bad)
{
    ss_stream_arg *a = ss_project_add_arg(facts);
    a->usr = take_string(item, "usr", 1, bad);
    a->param = ss_cache_get_unsigned(item, "param", UINT_MAX, bad);
    a->legacy = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(item, "legacy"));
    a->via = take_string(item, "via", 0, bad);
    a->via_param = ss_cache_get_unsigned(item, "viaParam", UINT_MAX, bad);
    a->drain = take_string(item, "drain", 0, bad);
    decode_strings(item, "after", &a->after, &a->after_count, bad);
}

static void decode_param_question(const cJSON *item, ss_project_facts *facts, int *bad)
{
    ss_param_question *q = ss_project_add_param_question(facts);
    q->file = take_string(item, "file", 1, bad);
    q->line = ss_cache_get_unsigned(item, "line", UINT_MAX, bad);
    q->column = ss_cache_get_unsigned(item, "column", UINT_MAX, bad);
    q->rule = (ss_rule_id)ss_cache_get_unsigned(item, "rule", SS_RULE_COUNT - 1, bad);
    q->words = take_string(item, "words", 1, bad);
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(item, "params"), *p;
    if (!cJSON_IsArray(params)) {
        *bad = 1;
        return;
    }
    cJSON_ArrayForEach(p, params)
    {
        const char *usr = ss_cache_get_string(p, "usr", bad);
        const char *name = ss_cache_get_string(p, "name", bad);
        unsigned param = ss_cache_get_unsigned(p, "param", UINT_MAX, bad);
        if (usr == NULL || name == NULL) {
            *bad = 1;
            return;
        }
        ss_stream_params_add(&q->params, usr, param, name);
    }
}

/* The stream arguments and their questions (absent in an entry that has none). */
static void decode_args(const cJSON *o, ss_project_facts *facts, int *bad)
{
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(o, "streamArgs");
    const cJSON *questions = cJSON_GetObjectItemCaseSensitive(o, "paramQuestions");
    const cJSON *item;
    if ((args && !cJSON_IsArray(args)) || (questions && !cJSON_IsArray(questions))) {
        *bad = 1;
        return;
    }
    decode_strings(o, "working", &facts->working, &facts->working_count, bad);
    facts->working_cap = facts->working_count;
    decode_strings(o, "closed", &facts->closed, &facts->closed_count, bad);
    facts->closed_cap = facts->closed_count;
    ss_project_decode_pairs(o, "crossCalls", add_cross, facts, bad);
    cJSON_ArrayForEach(item, args)
    {
        if (!*bad)
            decode_arg(item, facts, bad);
    }
    cJSON_ArrayForEach(item, questions)
    {
        if (!*bad)
            decode_param_question(item, facts, bad);
    }
}

/* The kinds of facts each module of the project pass keeps, in turn, until '*bad' is set. */
static void decode_kinds(const cJSON *o, ss_project_facts *facts, int *bad)
{
    void (*const kinds[])(const cJSON *, ss_project_facts *, int *) = {
        decode_args,
        ss_project_loops_decode,
        ss_project_outputs_decode,
        ss_project_foreign_decode,
        ss_project_set_up_decode,
        ss_project_arrays_decode,
        ss_project_switches_decode,
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0] && !*bad; i++)
        kinds[i](o, facts, bad);
}

int ss_project_facts_decode(const cJSON *o, ss_project_facts **out)
{
    *out = NULL;
    if (cJSON_IsNull(o))
        return 0;
    const cJSON *ends = cJSON_GetObjectItemCaseSensitive(o, "ends");
    const cJSON *questions = cJSON_GetObjectItemCaseSensitive(o, "questions");
    const cJSON *waits = cJSON_GetObjectItemCaseSensitive(o, "waits");
    const cJSON *pending = cJSON_GetObjectItemCaseSensitive(o, "pending");
    const cJSON *between = cJSON_GetObjectItemCaseSensitive(o, "between");
    if (!cJSON_IsObject(o) || !cJSON_IsArray(ends) || !cJSON_IsArray(questions) ||
        !cJSON_IsArray(waits) || !cJSON_IsArray(pending) || !cJSON_IsArray(between))
        return -1;
    ss_project_facts *facts = ss_xcalloc(1, sizeof *facts);
    int bad = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, ends)
    {
        if (!bad)
            decode_end(item, facts, &bad);
    }
    cJSON_ArrayForEach(item, questions)
    {
        if (!bad)
            decode_question(item, facts, &bad);
    }
    cJSON_ArrayForEach(item, waits)
    {
        if (!bad)
            decode_wait(item, facts, &bad);
    }
    cJSON_ArrayForEach(item, pending)
    {
        if (!bad)
            decode_pending(item, facts, &bad);
    }
    cJSON_ArrayForEach(item, between)
    {
        if (!bad)
            decode_between(item, facts, &bad);
    }
    if (!bad)
        decode_kinds(o, facts, &bad);
    if (bad) {
        ss_project_facts_free(facts);
        return -1;
    }
    *out = facts;
    return 0;
}
