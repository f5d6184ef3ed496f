/* context.c: a finding's severity from where its call runs: per iteration (a warning), once or
 * where the host needs the value at once (a note), or neither (the check's own severity). The
 * cases that make a note of a warning are in their own files (context_cases.h). */
#include "context.h"
#include "ast.h"
#include "callgraph.h"
#include "common.h"
#include "context_cases.h"
#include "log.h"
#include "project_facts.h"
#include "scope.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* Whether the severity of 'rule' depends on where its call runs. */
static int context_rule(ss_rule_id rule)
{
    switch (rule) {
    case SS_RULE_DEFAULT_STREAM_LAUNCH:
    case SS_RULE_DEFAULT_STREAM_ASYNC_CALL:
    case SS_RULE_PAGEABLE_ASYNC_COPY:
    case SS_RULE_SYNC_COPY_IN_PIPELINE:
    case SS_RULE_SCALAR_READBACK:
    case SS_RULE_SYNC_IN_LOOP:
    case SS_RULE_DEVICE_WIDE_SYNC_CALL:
        return 1;
    default:
        return 0;
    }
}

int ss_context_is_hot_function(const ss_check_ctx *ctx, const char *name)
{
    if (name == NULL)
        return 0;
    const char *last = name;
    for (const char *p = strstr(name, "::"); p; p = strstr(p + 2, "::"))
        last = p + 2;
    for (size_t i = 0; i < ctx->hot_count; i++) {
        if (fnmatch(ctx->hot_functions[i], name, 0) == 0 ||
            fnmatch(ctx->hot_functions[i], last, 0) == 0)
            return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * What the cases share. */

long ss_context_path(CXCursor top, CXCursor target, CXCursor *path)
{
    long n = ss_scope_path(top, target, NULL, path, SS_CONTEXT_MAX_PATH);
    return n > SS_CONTEXT_MAX_PATH ? -1 : n;
}

int ss_context_call_enqueues(ss_callgraph *graph, CXCursor c, const ss_api *api)
{
    if (ss_scope_is_launch(c))
        return 1;
    if (api != NULL)
        return ss_api_enqueues(api) && api->klass != SS_CLASS_EVENT_RECORD &&
               api->klass != SS_CLASS_STREAM_WAIT;
    CXCursor callee = ss_callgraph_callee(graph, c);
    return !ss_ast_is_null(callee) && ss_callgraph_own_work(graph, callee, SS_SCOPE_ENQUEUES, NULL);
}

typedef struct mention_walk {
    CXCursor decl;
    int found;
} mention_walk;

static enum CXChildVisitResult find_mention(CXCursor c, CXCursor parent, CXClientData data)
{
    mention_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) &&
        clang_equalCursors(clang_getCursorReferenced(c), w->decl)) {
        w->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

int ss_context_mentions(CXCursor e, CXCursor decl)
{
    mention_walk w = {decl, 0};
    clang_visitChildren(e, find_mention, &w);
    return w.found;
}

/* ------------------------------------------------------------------------------------------
 * Applying it. */

static void append(ss_finding *f, const char *words)
{
    char *longer = ss_xasprintf("%s; %s", f->message, words);
    free(f->message);
    f->message = longer;
}

/* "it runs on every iteration of the loop at line 12, which enqueues device work", or through
 * the chain of calls from a loop elsewhere. Malloc'ed. */
static char *per_iteration_words(const ss_loop_context *loop)
{
    if (loop->chain)
        return ss_xasprintf("it runs on every iteration: %s is called from the loop at %s, "
                            "which enqueues device work",
                            loop->chain, loop->place);
    return ss_xasprintf("it runs on every iteration of the loop at line %u, which enqueues "
                        "device work",
                        ss_scope_line(loop->loop));
}

/* Once per run of 'loop' (in a branch that leaves it, or one taken on one pass of the
 * outermost loop): the rule's own severity, as outside it, with the reason where that is a
 * note; a one-value readback there reads a value once (a solver's final error), a note too.
 * Returns 1 when the call runs so, else 0. */
static int apply_exit(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, ss_finding *f,
                      const ss_loop_context *loop)
{
    char *exit_words = ss_context_exit_words(ctx, loop, at);
    int leaves = exit_words != NULL;
    if (exit_words == NULL)
        exit_words = ss_context_one_pass_words(ctx, loop, at);
    if (exit_words == NULL)
        return 0;
    if (rule == SS_RULE_SCALAR_READBACK && f->severity >= SS_SEV_WARNING) {
        f->severity = SS_SEV_NOTE;
        char *words = ss_xasprintf(leaves ? "%s: the value is read once, when the loop ends (its "
                                            "final result)"
                                          : "%s: the value is read on one pass of the loop only",
                                   exit_words);
        append(f, words);
        free(words);
    } else if (f->severity < SS_SEV_WARNING) {
        append(f, exit_words);
    }
    free(exit_words);
    return 1;
}

/* Inside a loop, what the host needs from the call at once: a buffer it copied back and goes
 * through (host_reads.c), the values of several devices it combines into a launch argument
 * (device_sum.c), memory attached to the host (attach.c); or a stream wait the device does not
 * idle for (overlap.c). Malloc'ed, or NULL. */
static char *needed_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at)
{
    char *note = ss_context_host_read_words(ctx, rule, at);
    if (note == NULL)
        note = ss_context_device_sum_words(ctx, rule, at);
    if (note == NULL)
        note = ss_context_attach_words(ctx, rule, at);
    if (note == NULL)
        note = ss_context_overlap_words(ctx, rule, at);
    return note;
}

/* "set-up: the loop at line 12 runs during set-up: ...": the loop's function sets up (its
 * name, a constructor), or the call's runs only during set-up (ss_callgraph_only_in_set_up;
 * not a lambda's, which may run later). Malloc'ed, or NULL. */
static char *set_up_words(ss_check_ctx *ctx, const ss_loop_context *loop)
{
    char *why = NULL;
    if (!ss_callgraph_sets_up(loop->function, &why) &&
        (clang_getCursorKind(ctx->function) == CXCursor_LambdaExpr ||
         !ss_callgraph_only_in_set_up(ss_check_graph(ctx), ctx->function, &why)))
        return NULL;
    char *where =
        loop->chain ? ss_xstrdup(loop->place) : ss_xasprintf("line %u", ss_scope_line(loop->loop));
    char *note = ss_xasprintf("set-up: the loop at %s runs during set-up: %s", where, why);
    free(where);
    free(why);
    return note;
}

/* The words that make a note of a finding whose call runs on every iteration of 'loop': the loop
 * times itself (benchmark), the wait times a phase under a run-time flag the loop leaves alone
 * (timing_flag.c), runs during set-up or teardown, does no device work but frees (clean-up),
 * sweeps a few settings or repeats a few warm-up rounds beside the loop that repeats, or runs the
 * call once in a while; a pageable copy whose next statement waits for it (the wait in the loop
 * is the cost, a SYNC401 of its own) or that hands the data to the caller; data staged between
 * devices through the host; nothing queued to wait for; what the host needs at once
 * (needed_words); a value the loop only tests; a value that chooses the next device work, or a
 * getter's whose callers' do; a buffer that only grows or is allocated on first use; a queue
 * refilled when it runs dry. Malloc'ed, or NULL; '*not_timed' as ss_context_timing_words. */
static char *in_loop_note(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at,
                          const ss_loop_context *loop, char **not_timed)
{
    char *note = ss_context_timing_words(ctx, loop, at, not_timed);
    if (note == NULL)
        note = ss_context_timing_flag_words(ctx, rule, loop, at);
    if (note == NULL)
        note = set_up_words(ctx, loop);
    if (note == NULL)
        note = ss_context_teardown_words(ctx, loop);
    if (note == NULL)
        note = ss_context_clean_up_words(ctx, loop, at);
    if (note == NULL)
        note = ss_context_bounded_words(ctx, loop, at);
    if (note == NULL)
        note = ss_context_pieces_words(ctx, rule, loop, at);
    if (note == NULL)
        note = ss_context_periodic_words(ctx, loop, at);
    if (note == NULL && rule == SS_RULE_PAGEABLE_ASYNC_COPY) {
        note = ss_context_inherent_words(ctx, rule, at);
        if (note && strstr(note, "waits for the copy anyway") == NULL) {
            free(note);
            note = NULL;
        }
    }
    if (note == NULL && rule == SS_RULE_PAGEABLE_ASYNC_COPY)
        note = ss_context_handover_words(ctx, at);
    if (note == NULL)
        note = ss_context_peer_staging_words(ctx, rule, at);
    if (note == NULL)
        note = ss_context_first_round_words(ctx, rule, at);
    if (note == NULL)
        note = ss_context_idle_words(ctx, rule, loop, at);
    if (note == NULL)
        note = needed_words(ctx, rule, at);
    if (note == NULL)
        note = ss_context_sized_words(ctx, rule, at);
    if (note == NULL)
        note = ss_context_tested_words(ctx, rule, at);
    if (note == NULL)
        note = ss_context_returned_test_words(ctx, rule, at);
    if (note == NULL)
        note = ss_context_chooses_words(ctx, rule, at, loop);
    if (note == NULL)
        note = ss_context_grow_only_words(ctx, loop, at);
    if (note == NULL)
        note = ss_context_refill_words(ctx, loop, at);
    if (note == NULL)
        note = ss_context_per_pass_words(ctx, loop, at);
    return note;
}

/* The severity of a finding whose call runs on every iteration of 'loop': a warning, or a note
 * where in_loop_note says why. 'said_loop': the message already names the loop. */
static void apply_in_loop(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, ss_finding *f,
                          const ss_loop_context *loop, int said_loop, ss_severity raised)
{
    char *not_timed = NULL;
    char *note = in_loop_note(ctx, rule, at, loop, &not_timed);
    if (note) {
        f->severity = SS_SEV_NOTE;
        append(f, note);
        free(note);
        free(not_timed);
        return;
    }
    if (apply_exit(ctx, rule, at, f, loop)) {
        free(not_timed);
        return;
    }
    /* Last, where it would be a warning: the next synchronous call waits for the same work (a
     * readback before an upload; a wait that closes the loop's body before one that opens it). */
    char *anyway = ss_context_upload_next_words(ctx, rule, at);
    if (anyway == NULL)
        anyway = ss_context_closing_wait_words(ctx, rule, at);
    if (anyway) {
        f->severity = SS_SEV_NOTE;
        append(f, anyway);
        free(anyway);
        free(not_timed);
        return;
    }
    f->severity = raised;
    /* Another unit's set-up code may be all that calls the loop's function: the project pass
     * answers (project_set_up.c). */
    ss_project_set_up_question(ctx, rule, at, loop, f->message);
    char *first = ss_context_first_round_stall_words(ctx, rule, at);
    if (first)
        append(f, first);
    free(first);
    if (!said_loop) {
        char *words = per_iteration_words(loop);
        append(f, words);
        free(words);
    }
    if (not_timed)
        append(f, not_timed);
    free(not_timed);
}

enum { REACH_DEPTH = 16, REACH_CALLS = 32, REACH_SEEN = 256 };

/* Whether one of the unit's callers of 'function', up to REACH_DEPTH calls up, repeats it or
 * may: a call inside a loop of its function (whatever that loop queues: a loop around a
 * library's calls counts), a call of the function itself (recursion), a function marked hot.
 * Also 1 where the search stops short (more calls than it follows, callers left at its depth):
 * lint has not shown that nothing repeats it. A function whose address is taken is not
 * followed (its calls through a pointer are not seen). */
static int repeated_here(ss_check_ctx *ctx, CXCursor function)
{
    ss_callgraph *graph = ss_check_graph(ctx);
    CXCursor *seen = ss_xreallocarray(NULL, REACH_SEEN, sizeof *seen);
    CXCursor calls[REACH_CALLS], callers[REACH_CALLS];
    size_t count = 1, next = 0;
    int repeated = 0;
    seen[0] = function;
    for (int depth = 0; !repeated && next < count; depth++) {
        size_t level_end = count;
        for (; !repeated && next < level_end; next++) {
            long n = ss_callgraph_calls_of(graph, seen[next], calls, callers, REACH_CALLS);
            repeated = n > REACH_CALLS || (n > 0 && depth == REACH_DEPTH);
            for (long i = 0; !repeated && i < n; i++) {
                char *name = ss_qualified_name(callers[i]);
                repeated = !ss_ast_is_null(ss_scope_enclosing_loop(callers[i], calls[i])) ||
                           clang_equalCursors(callers[i], function) ||
                           ss_context_is_hot_function(ctx, name);
                free(name);
                size_t k = 0;
                while (k < count && !clang_equalCursors(seen[k], callers[i]))
                    k++;
                if (!repeated && k == count && count == REACH_SEEN)
                    repeated = 1;
                else if (!repeated && k == count)
                    seen[count++] = callers[i];
            }
        }
    }
    free(seen);
    return repeated;
}

/* Neither per iteration nor once: no loop of the function holds the call (apply_once has seen to
 * it), and nothing of the unit repeats the function (repeated_here). Whether it runs on a hot path
 * is decided where lint does not look (a loop of another unit, a call through a pointer), so a
 * warning becomes a note that says so once the other reasons for a note have had their turn
 * (ss_context_apply_unshown): a warning needs a loop that repeats the call (docs/lint.md, "Warning
 * or note"). */
static void apply_not_shown(ss_check_ctx *ctx, ss_finding *f)
{
    if (f->severity != SS_SEV_WARNING || repeated_here(ctx, ctx->function))
        return;
    char *name = ss_qualified_name(ctx->function);
    free(f->unshown);
    f->unshown = ss_xasprintf(
        "how often it runs is not shown: it is in no loop that lint sees, and no loop of this "
        "translation unit reaches '%s()' (one of another unit, or a call through a pointer, may "
        "run it on every iteration; lint does not weigh those: name it, or a function that calls "
        "it, in hot-functions to make this a warning)",
        name ? name : "?");
    free(name);
}

void ss_context_apply_unshown(ss_result *r)
{
    for (size_t i = 0; i < r->count; i++) {
        ss_finding *f = &r->findings[i];
        if (f->unshown && f->severity == SS_SEV_WARNING) {
            f->severity = SS_SEV_NOTE;
            append(f, f->unshown);
            continue; /* kept: the merge prefers another unit's reason at the same severity */
        }
        free(f->unshown);
        f->unshown = NULL;
    }
}

/* Once: outside any loop of a function that runs once (not in a lambda, which may be called
 * from anywhere), a note; else, where a lambda calls the function, the message says how often
 * it runs is unknown. */
static void apply_once(ss_check_ctx *ctx, CXCursor at, ss_finding *f)
{
    if (clang_getCursorKind(ctx->function) == CXCursor_LambdaExpr)
        return;
    char *why = NULL;
    int in_loop = !ss_ast_is_null(ss_scope_enclosing_loop(ctx->function, at));
    if (!in_loop && ss_callgraph_runs_once(ss_check_graph(ctx), ctx->function, &why)) {
        f->severity = SS_SEV_NOTE;
        char *words = ss_xasprintf("it runs once: outside any loop, and %s", why);
        append(f, words);
        free(words);
    } else {
        /* Not once, and perhaps on a hot path: a lambda may be called any number of times. */
        char *lambda = ss_callgraph_lambda_words(ss_check_graph(ctx), ctx->function);
        if (lambda) {
            char *words = ss_xasprintf("how often it runs is unknown: %s", lambda);
            append(f, words);
            free(words);
        } else if (!in_loop) {
            apply_not_shown(ctx, f);
        }
        free(lambda);
    }
    free(why);
}

/* Per iteration of a loop in another unit (ctx->loop_elsewhere): a warning, or a note where
 * the device has nothing queued at the call, an event wait is for the host's own upload, the
 * next synchronous call waits for the same work (a readback before an upload), the host needs
 * at once what the call gives it (needed_words: a buffer it copied back and reads next, as in a
 * loop of the unit; ss_context_sized_words: a value that sizes an allocation; the function's
 * own next device work needs the value, ss_context_chooses_words), the wait times a
 * phase under a flag that no code of the unit changes (timing_flag.c), or a guard in the call's
 * own function makes it run only when a buffer grows, while it is unset or when a queue runs dry
 * (as for a loop of the unit that reaches the function through a chain of calls), or such a
 * guard on the way down to that function (ctx->elsewhere_guard). Reasons that
 * belong to the loop (set-up, teardown, a sweep, a value the loop tests) are its unit's. */
static void apply_elsewhere(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, ss_finding *f,
                            ss_severity raised)
{
    f->severity = raised;
    char *idle = ss_context_idle_words(ctx, rule, NULL, at);
    if (idle == NULL)
        idle = ss_context_event_upload_words(ctx, rule, at);
    if (idle == NULL)
        idle = ss_context_upload_next_words(ctx, rule, at);
    if (idle == NULL)
        idle = needed_words(ctx, rule, at);
    if (idle == NULL)
        idle = ss_context_sized_words(ctx, rule, at);
    if (idle == NULL)
        idle = ss_context_chooses_words(ctx, rule, at, NULL);
    if (idle == NULL)
        idle = ss_context_timing_flag_words(ctx, rule, NULL, at);
    if (idle == NULL)
        idle = ss_context_grow_only_here_words(ctx, at);
    if (idle == NULL)
        idle = ss_context_refill_here_words(ctx, at);
    if (idle == NULL && ctx->elsewhere_guard)
        idle = ss_xstrdup(ctx->elsewhere_guard);
    if (idle) {
        f->severity = SS_SEV_NOTE;
        append(f, idle);
        free(idle);
    }
}

static void apply_context(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, ss_finding *f)
{
    int said_loop = ctx->loop_said;
    const ss_loop_context *given = ctx->loop;
    ctx->loop_said = 0;
    ctx->loop = NULL;
    if (!context_rule(rule) || ctx->legacy_note || ss_ast_is_null(ctx->function))
        return;
    ss_severity raised = f->severity < SS_SEV_WARNING ? SS_SEV_WARNING : f->severity;
    /* Per iteration: the loop the check found (ctx->loop), else found here. */
    if (given) {
        apply_in_loop(ctx, rule, at, f, given, said_loop, raised);
        return;
    }
    ss_loop_context loop;
    if (ss_check_loop(ctx, at, SS_SCOPE_ENQUEUES, &loop)) {
        apply_in_loop(ctx, rule, at, f, &loop, said_loop, raised);
        ss_loop_context_free(&loop);
        return;
    }
    if (ctx->loop_elsewhere) {
        apply_elsewhere(ctx, rule, at, f, raised);
        return;
    }
    CXCursor top = ss_scope_outer_function(ctx->function);
    char *name = ss_ast_is_null(top) ? NULL : ss_qualified_name(top);
    int hot = ss_context_is_hot_function(ctx, name);
    if (hot) {
        f->severity = raised;
        char *words = ss_xasprintf("'%s' is marked hot in the configuration (hot-functions)", name);
        append(f, words);
        free(words);
        free(name);
        return;
    }
    free(name);
    /* The host needs the value at once. */
    char *inherent = ss_context_inherent_words(ctx, rule, at);
    if (inherent == NULL && rule == SS_RULE_PAGEABLE_ASYNC_COPY)
        inherent = ss_context_handover_words(ctx, at);
    if (inherent == NULL)
        inherent = ss_context_idle_words(ctx, rule, NULL, at);
    if (inherent == NULL)
        inherent = ss_context_direct_handover_words(ctx, rule, at);
    if (inherent) {
        f->severity = SS_SEV_NOTE;
        append(f, inherent);
        free(inherent);
        return;
    }
    apply_once(ctx, at, f);
    /* Where it stays a warning: the next synchronous call waits for the same work. */
    char *anyway =
        f->severity >= SS_SEV_WARNING ? ss_context_upload_next_words(ctx, rule, at) : NULL;
    if (anyway) {
        f->severity = SS_SEV_NOTE;
        append(f, anyway);
        free(anyway);
    }
}

/* A warning for a wait, a readback or a copy in a function with a parse error becomes a note:
 * clang's recovery may have dropped the statement that needs the value, a wait, or a loop's
 * exit, so lint's reading of the function is not sure ('unsure: ...'; the message keeps what
 * lint read). A legacy-stream launch or call is seen as written: it keeps its severity. */
static void apply_unparsed(ss_check_ctx *ctx, ss_rule_id rule, ss_finding *f)
{
    if (f->severity < SS_SEV_WARNING || rule == SS_RULE_DEFAULT_STREAM_LAUNCH ||
        rule == SS_RULE_DEFAULT_STREAM_ASYNC_CALL)
        return;
    CXCursor top = ss_scope_outer_function(ctx->function);
    unsigned line = ss_callgraph_error_line(ss_check_graph(ctx), top);
    if (line == 0)
        return;
    char *name = ss_qualified_name(top);
    char *words = ss_xasprintf("unsure: '%s' has a parse error at line %u, and what clang could "
                               "not read of it may use the value or wait; fix the error and lint "
                               "again",
                               name, line);
    f->severity = SS_SEV_NOTE;
    append(f, words);
    free(words);
    free(name);
}

void ss_context_apply(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, ss_finding *f)
{
    int context = context_rule(rule) && !ctx->legacy_note && !ss_ast_is_null(ctx->function);
    char *before = context && f->message ? ss_xstrdup(f->message) : NULL;
    apply_context(ctx, rule, at, f);
    if (before)
        ss_context_rare_apply(ctx, at, f, before);
    char *settles =
        context && f->severity >= SS_SEV_WARNING ? ss_context_settle_words(ctx, rule, at) : NULL;
    if (settles) {
        f->severity = SS_SEV_NOTE;
        append(f, settles);
        free(settles);
    }
    if (context)
        apply_unparsed(ctx, rule, f);
    free(before);
    ss_project_ask(ctx, rule, at, f);
    ss_project_ask_foreign(ctx, rule, at, f);
    ss_project_ask_set_up(ctx, rule, at, f);
    ss_project_ask_array(ctx, rule, at, f);
    ss_project_ask_switch(ctx, rule, at, f);
}
