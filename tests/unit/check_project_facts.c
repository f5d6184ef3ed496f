/* check_project_facts.c: the project pass over facts from several units
 * (analyzer/checks/project_facts.c): a question answered through a chain of calls across units
 * makes its warning a note with the exact words, and stays a warning where a fact is missing,
 * the chain loops or the finding is a note already; the facts' cache form reads back as it was
 * written and a malformed one is refused. */
#include "check_main.h"
#include "checks/project_facts.h"
#include "log.h"

#include <stdlib.h>
#include <string.h>

static const char *const LOOP_WORDS = "'cudaStreamSynchronize' in 'run' blocks the host";

/* Unit 0: a warning at main.cu:8:9 and its question about 'wrap', given the stream as
 * parameter 3. */
static ss_project_facts *question_unit(ss_result *result, ss_severity severity)
{
    ss_result_init(result, SS_RESULT_LINT);
    ss_finding *f = ss_result_add(result);
    f->rule = SS_RULE_SYNC_IN_LOOP;
    f->severity = severity;
    f->file = ss_xstrdup("src/main.cu");
    f->line = 8;
    f->column = 9;
    f->message = ss_xstrdup(LOOP_WORDS);
    ss_project_facts *facts = ss_xcalloc(1, sizeof *facts);
    facts->questions = ss_xcalloc(1, sizeof *facts->questions);
    facts->question_count = facts->question_cap = 1;
    ss_wait_question *q = &facts->questions[0];
    q->file = ss_xstrdup("src/main.cu");
    q->line = 8;
    q->column = 9;
    q->rule = SS_RULE_SYNC_IN_LOOP;
    q->stream = ss_xstrdup("s");
    q->usr = ss_xstrdup("c:@F@wrap");
    q->param = 3;
    q->callee = ss_xstrdup("'wrap()' at line 7");
    return facts;
}

/* A unit whose one fact is that 'usr' leaves parameter 'param' idle, by the wait 'wait' or by
 * calling 'next' with it as parameter 'next_param'. */
static ss_project_facts *fact_unit(const char *usr, unsigned param, const char *wait,
                                   const char *next, unsigned next_param, const char *next_name)
{
    ss_project_facts *facts = ss_xcalloc(1, sizeof *facts);
    facts->ends = ss_xcalloc(1, sizeof *facts->ends);
    facts->end_count = facts->end_cap = 1;
    ss_stream_end *e = &facts->ends[0];
    e->usr = ss_xstrdup(usr);
    e->param = param;
    e->wait = wait ? ss_xstrdup(wait) : NULL;
    e->next = next ? ss_xstrdup(next) : NULL;
    e->next_param = next_param;
    e->next_name = next_name ? ss_xstrdup(next_name) : NULL;
    return facts;
}

/* Runs the pass over 'units' facts (unit 0 holds the finding) and returns the finding. */
static const ss_finding *apply(ss_project_facts **facts, size_t units, ss_result *result)
{
    ss_result empty[4];
    ss_result *results[4] = {result, &empty[1], &empty[2], &empty[3]};
    for (size_t i = 1; i < 4; i++)
        ss_result_init(&empty[i], SS_RESULT_LINT);
    ss_project_apply(facts, results, units, SS_PROJECT_COMPLETE);
    for (size_t i = 1; i < 4; i++)
        ss_result_free(&empty[i]);
    return &result->findings[0];
}

static void free_units(ss_project_facts **facts, size_t units, ss_result *result)
{
    for (size_t i = 0; i < units; i++)
        ss_project_facts_free(facts[i]);
    ss_result_free(result);
}

START_TEST(test_chain_across_units)
{
    ss_result result;
    ss_project_facts *facts[3] = {
        question_unit(&result, SS_SEV_WARNING),
        fact_unit("c:@F@wrap", 3, NULL, "c:@F@launch", 2, "'launch()' at post.cu:9"),
        fact_unit("c:@F@launch", 2, "'cudaStreamSynchronize' at kernels.cu:8", NULL, 0, NULL),
    };
    const ss_finding *f = apply(facts, 3, &result);
    ck_assert_int_eq(f->severity, SS_SEV_NOTE);
    char *want = ss_xasprintf("%s; idle: the stream 's' has nothing queued: 'wrap()' at line 7 "
                              "ends by waiting for it ('cudaStreamSynchronize' at kernels.cu:8, "
                              "through 'launch()' at post.cu:9) and nothing is queued since, so "
                              "the wait has nothing to wait for",
                              LOOP_WORDS);
    ck_assert_str_eq(f->message, want);
    free(want);
    free_units(facts, 3, &result);
}
END_TEST

START_TEST(test_stays_a_warning)
{
    /* The last unit of the chain not linted; another parameter; a chain that loops. */
    ss_result result;
    ss_project_facts *missing[2] = {
        question_unit(&result, SS_SEV_WARNING),
        fact_unit("c:@F@wrap", 3, NULL, "c:@F@launch", 2, "'launch()' at post.cu:9"),
    };
    const ss_finding *f = apply(missing, 2, &result);
    ck_assert_int_eq(f->severity, SS_SEV_WARNING);
    ck_assert_str_eq(f->message, LOOP_WORDS);
    free_units(missing, 2, &result);
    ss_project_facts *other[2] = {
        question_unit(&result, SS_SEV_WARNING),
        fact_unit("c:@F@wrap", 2, "'cudaStreamSynchronize' at kernels.cu:8", NULL, 0, NULL),
    };
    f = apply(other, 2, &result);
    ck_assert_int_eq(f->severity, SS_SEV_WARNING);
    free_units(other, 2, &result);
    ss_project_facts *loop[3] = {
        question_unit(&result, SS_SEV_WARNING),
        fact_unit("c:@F@wrap", 3, NULL, "c:@F@back", 0, "'back()' at a.cu:3"),
        fact_unit("c:@F@back", 0, NULL, "c:@F@wrap", 3, "'wrap()' at b.cu:4"),
    };
    f = apply(loop, 3, &result);
    ck_assert_int_eq(f->severity, SS_SEV_WARNING);
    ck_assert_str_eq(f->message, LOOP_WORDS);
    free_units(loop, 3, &result);
}
END_TEST

START_TEST(test_note_untouched)
{
    ss_result result;
    ss_project_facts *facts[2] = {
        question_unit(&result, SS_SEV_NOTE),
        fact_unit("c:@F@wrap", 3, "'cudaStreamSynchronize' at kernels.cu:8", NULL, 0, NULL),
    };
    const ss_finding *f = apply(facts, 2, &result);
    ck_assert_int_eq(f->severity, SS_SEV_NOTE);
    ck_assert_str_eq(f->message, LOOP_WORDS);
    free_units(facts, 2, &result);
}
END_TEST

/* The cache form of 'facts' as text, malloc'ed. */
static char *encoded(const ss_project_facts *facts)
{
    cJSON *o = ss_project_facts_encode(facts);
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return text;
}

START_TEST(test_cache_form)
{
    ss_result result;
    ss_project_facts *facts = question_unit(&result, SS_SEV_WARNING);
    ss_project_facts *ends = fact_unit("c:@F@wrap", 3, NULL, "c:@F@launch", 2, "'launch()'");
    facts->ends = ends->ends;
    facts->end_count = facts->end_cap = 1;
    ends->ends = NULL;
    ends->end_count = 0;
    ss_project_facts_free(ends);
    char *text = encoded(facts);
    cJSON *o = cJSON_Parse(text);
    ss_project_facts *back = NULL;
    ck_assert_int_eq(ss_project_facts_decode(o, &back), 0);
    cJSON_Delete(o);
    char *again = encoded(back);
    ck_assert_str_eq(again, text);
    ck_assert_str_eq(back->ends[0].next_name, "'launch()'");
    ck_assert_int_eq(back->questions[0].param, 3);
    ss_project_facts_free(back);
    /* None: a JSON null. */
    o = cJSON_CreateNull();
    back = facts;
    ck_assert_int_eq(ss_project_facts_decode(o, &back), 0);
    ck_assert_ptr_null(back);
    cJSON_Delete(o);
    /* A fact with neither a wait nor a call, a question without its function: refused. */
    const char *const bad[] = {
        "{\"ends\":[{\"usr\":\"c:@F@f\",\"param\":0,\"nextParam\":0}],\"questions\":[]}",
        "{\"ends\":[],\"questions\":[{\"file\":\"a.cu\",\"line\":1,\"column\":1,\"rule\":0,"
        "\"stream\":\"s\",\"param\":0,\"callee\":\"'f()'\"}]}",
        "{\"ends\":[]}",
        "[]",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        o = cJSON_Parse(bad[i]);
        ss_project_facts *refused = NULL;
        ck_assert_int_eq(ss_project_facts_decode(o, &refused), -1);
        ck_assert_ptr_null(refused);
        cJSON_Delete(o);
    }
    free(again);
    cJSON_free(text);
    ss_project_facts_free(facts);
    ss_result_free(&result);
}
END_TEST

static Suite *project_facts_suite(void)
{
    Suite *s = suite_create("project_facts");
    TCase *pass = tcase_create("pass");
    tcase_add_test(pass, test_chain_across_units);
    tcase_add_test(pass, test_stays_a_warning);
    tcase_add_test(pass, test_note_untouched);
    suite_add_tcase(s, pass);
    TCase *cache = tcase_create("cache");
    tcase_add_test(cache, test_cache_form);
    suite_add_tcase(s, cache);
    return s;
}

SS_CHECK_MAIN(project_facts_suite)
