/* project_facts.h: what one translation unit knows of its functions that a finding of another
 * unit may need, and the questions its own findings leave to the others (project_facts.c;
 * docs/lint.md, "Facts from the other units"). Each unit records, while it is analyzed, the
 * functions it defines that end by synchronizing a stream they are given, and, for each of its
 * warnings that such a function may make a note, the question; the project pass
 * (ss_project_apply) answers the questions from every unit's facts once all units are
 * analyzed, cached or not, so a finding does not depend on the order or number of workers.
 * Private to the analyzer. */
#ifndef SS_ANALYZER_CHECKS_PROJECT_FACTS_H
#define SS_ANALYZER_CHECKS_PROJECT_FACTS_H

#include <cjson/cJSON.h>
#include <clang-c/Index.h>
#include <stddef.h>

#include "checks.h"

/* A function that leaves a stream parameter idle: on every way out, the last thing it does
 * that may queue work on the stream is a wait for it ('wait'), or a call of a function given the
 * stream ('next'), which then must leave that parameter idle in turn. */
typedef struct ss_stream_end {
    char *usr;           /* the function (its USR: the same in every unit) */
    unsigned param;      /* its stream parameter, from 0 */
    char *wait;          /* "'cudaStreamSynchronize' at kernels.cu:394", or NULL with 'next' */
    char *next;          /* the USR of the function it ends by calling, or NULL */
    unsigned next_param; /* the parameter of 'next' that the stream is */
    char *next_name;     /* "'permute_launch()' at postprocess.cpp:120": that call */
} ss_stream_end;

/* A warning for a stream wait that may have nothing to wait for: the statement before it calls
 * a function defined elsewhere (or here) given the same stream. */
typedef struct ss_wait_question {
    char *file; /* the finding: its file as shown, line, column and rule */
    unsigned line, column;
    ss_rule_id rule;
    char *stream;   /* the stream as written */
    char *usr;      /* the function called before the wait */
    unsigned param; /* the parameter the stream is given as */
    char *callee;   /* "'PostProcessCuda::doPermuteCuda()' at line 188" */
} ss_wait_question;

struct ss_project_facts {
    ss_stream_end *ends;
    size_t end_count, end_cap;
    ss_wait_question *questions;
    size_t question_count, question_cap;
};

void ss_project_facts_free(ss_project_facts *facts);

/* After the unit's walk: records in ctx->streams->facts the functions the unit defines (outside
 * system headers) that leave a stream parameter idle. */
void ss_project_summarize(ss_check_ctx *ctx);

/* After the context of the finding 'f' for the call 'at' is applied (ss_context_apply): a
 * warning for a stream wait (SYNC401) whose statement, in its block, follows a call of a project
 * function given the same stream (written without a call; nothing between but declarations
 * without calls) records the question in ctx->streams->facts. */
void ss_project_ask(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const ss_finding *f);

/* The project pass: for each of the 'count' units ('facts[i]' may be NULL), each question
 * whose function leaves the stream idle by the facts of all units (through up to eight calls)
 * makes its warning in 'results[i]' a note that says so ("idle: ..."). Run before the units'
 * results are merged. */
void ss_project_apply(ss_project_facts *const *facts, ss_result *const *results, size_t count);

/* The facts as the cache stores them, and back: 'facts' NULL gives a JSON null. Decoding
 * returns 0 with '*facts' set (NULL for none), or -1 when 'o' is malformed. */
cJSON *ss_project_facts_encode(const ss_project_facts *facts);
int ss_project_facts_decode(const cJSON *o, ss_project_facts **facts);

#endif
