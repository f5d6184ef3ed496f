/* project_foreign.c: what a call of another unit's function does to the device, for the
 * "drained" flow (docs/lint.md, "Nothing to wait for"): each unit summarizes the functions
 * another unit may call (methods and members of class templates too) as ending drained or as
 * leaving a drained device drained; a warning that the flow would make a "drained" note, were
 * the calls of other units' functions on its way such, records the question; and the project
 * pass answers it from every unit's summaries (project_facts.h). */
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

/* What a function another unit may call does to the device: 2, it ends drained whatever was
 * queued before it ('wide': by a wait for the whole device on every way); 1, it leaves a
 * drained device drained (its host work only, or work it waits for). 'opens': its first device
 * work is Thrust work that synchronizes its unit's default stream when it ends, the legacy one
 * (OPENS_LEGACY) or the per-thread one (OPENS_PER_THREAD); 0 where it is not so. 'default_only':
 * the same values where, from a drained device, it queues work on its unit's default stream only
 * (or waits for what it queues elsewhere). 'reads': the same values where its first device work,
 * on every way, is a synchronous copy between the host and the device on that stream
 * (ss_context_opening_copy_words). */
typedef struct foreign_end {
    char *usr;
    int level, wide, opens, default_only, reads;
    char *words;         /* "'Frontier::refresh()', defined in frontier.cu:9, ends with ..." */
    char *opening_words; /* "'sum_ones()', defined in ones.cu:8, opens with ..." */
    char *default_words; /* "'sum_ones()', defined in ones.cu:8, queues work on ..." */
    char *reading_words; /* "'read_back()', defined in fetch.cu:3, opens with a synchronous ..." */
    /* Where 'reads': each way's copy (SS_READ_WAY_*: ss_context_opening_copy_words). */
    unsigned read_ways[SS_READ_WAYS], read_way_count;
} foreign_end;

enum { OPENS_LEGACY = 1, OPENS_PER_THREAD = 2 };

/* What a way needs of one function of another unit ('strict' of foreign_way): that it leave a
 * drained device drained (NEEDS_KEEP), end drained (NEEDS_END: by any drain where the question's
 * 'copy', else by a wait for the whole device), end drained by a wait for the whole device
 * whatever the question's 'copy' (NEEDS_END_WIDE), open with Thrust work on the legacy or the
 * per-thread default stream (NEEDS_OPEN_LEGACY, NEEDS_OPEN_PER_THREAD), from a drained
 * device, queue work on that stream only (NEEDS_DEFAULT_LEGACY, NEEDS_DEFAULT_PER_THREAD), or
 * open with a synchronous copy between the host and the device on that stream
 * (NEEDS_READ_LEGACY, NEEDS_READ_PER_THREAD). NEEDS_STREAMS_BLOCK, of no function (its USR
 * ""): every unit of a whole run queues its work on streams that block (streams_block). */
enum {
    NEEDS_KEEP = 0,
    NEEDS_END = 1,
    NEEDS_END_WIDE = 2,
    NEEDS_OPEN_LEGACY = 3,
    NEEDS_OPEN_PER_THREAD = 4,
    NEEDS_DEFAULT_LEGACY = 5,
    NEEDS_DEFAULT_PER_THREAD = 6,
    NEEDS_READ_LEGACY = 7,
    NEEDS_READ_PER_THREAD = 8,
    NEEDS_STREAMS_BLOCK = 9
};

/* How many ways a question may hold: which calls of other units' functions drain the device
 * is tried first at the earliest, then at later ones (ask_ways). */
enum { MAX_WAYS = 4 };

/* One way a warning is a "drained" note ('words'): the functions 'usrs' of other units each do
 * what 'strict[i]' says (NEEDS_KEEP, ...). */
typedef struct foreign_way {
    char *words;
    char **usrs;
    int *strict;
    size_t usr_count;
    /* For a function that opens with a copy: what the caller says of its arguments
     * (SS_READ_ARGS_*). */
    unsigned args[SS_READ_ARGS];
} foreign_way;

/* A warning that is a note where one of its ways holds. */
typedef struct foreign_question {
    char *file; /* the finding: its file as shown, line, column and rule */
    unsigned line, column;
    ss_rule_id rule;
    int copy;
    foreign_way ways[MAX_WAYS];
    size_t way_count;
} foreign_question;

struct ss_foreign_facts {
    foreign_end *ends;
    size_t end_count, end_cap;
    foreign_question *questions;
    size_t question_count, question_cap;
    /* The question of the finding whose context is being applied (ss_project_foreign_question),
     * until ss_project_ask_foreign keeps or drops it. */
    foreign_question kept;
    CXCursor kept_at;
    int has_kept;
};

static struct ss_foreign_facts *foreign_of(ss_project_facts *facts)
{
    if (facts->foreign == NULL)
        facts->foreign = ss_xcalloc(1, sizeof *facts->foreign);
    return facts->foreign;
}

static void question_free(foreign_question *q)
{
    free(q->file);
    for (size_t w = 0; w < q->way_count; w++) {
        foreign_way *way = &q->ways[w];
        free(way->words);
        for (size_t i = 0; i < way->usr_count; i++)
            free(way->usrs[i]);
        free(way->usrs);
        free(way->strict);
    }
    memset(q, 0, sizeof *q);
}

/* A new way of 'q', zeroed, with room for 'usrs' functions. */
static foreign_way *add_way(foreign_question *q, size_t usrs)
{
    foreign_way *way = &q->ways[q->way_count++];
    memset(way, 0, sizeof *way);
    way->usrs = ss_xcalloc(usrs + 1, sizeof *way->usrs);
    way->strict = ss_xcalloc(usrs + 1, sizeof *way->strict);
    return way;
}

void ss_project_foreign_free(ss_project_facts *facts)
{
    struct ss_foreign_facts *ff = facts->foreign;
    if (ff == NULL)
        return;
    for (size_t i = 0; i < ff->end_count; i++) {
        free(ff->ends[i].usr);
        free(ff->ends[i].words);
        free(ff->ends[i].opening_words);
        free(ff->ends[i].default_words);
        free(ff->ends[i].reading_words);
    }
    for (size_t i = 0; i < ff->question_count; i++)
        question_free(&ff->questions[i]);
    question_free(&ff->kept);
    free(ff->ends);
    free(ff->questions);
    free(ff);
    facts->foreign = NULL;
}

static foreign_end *add_end(struct ss_foreign_facts *ff)
{
    return ss_xpush((void **)&ff->ends, &ff->end_cap, &ff->end_count, sizeof *ff->ends);
}

static foreign_question *add_question(struct ss_foreign_facts *ff)
{
    return ss_xpush((void **)&ff->questions, &ff->question_cap, &ff->question_count,
                    sizeof *ff->questions);
}

/* ------------------------------------------------------------------------------------------
 * The unit that calls. */

/* The member 'decl' of a class template's specialization that the unit instantiates from a
 * declaration only: the member it was instantiated from (its pattern), where no definition of
 * either is in the unit, the specialization is no explicit one (the two are declared at the same
 * place) and the member is not inline: another unit's explicit instantiation is what runs. Else
 * a null cursor. */
static CXCursor template_member_elsewhere(CXCursor decl)
{
    CXCursor pattern = clang_getSpecializedCursorTemplate(decl);
    if (clang_getCursorKind(decl) != CXCursor_CXXMethod || ss_ast_is_null(pattern) ||
        clang_getCursorKind(clang_getCursorSemanticParent(pattern)) != CXCursor_ClassTemplate ||
        !ss_ast_is_null(clang_getCursorDefinition(decl)) ||
        !ss_ast_is_null(clang_getCursorDefinition(pattern)) ||
        clang_Cursor_isFunctionInlined(pattern) ||
        clang_getCursorLinkage(pattern) != CXLinkage_External ||
        !clang_equalLocations(clang_getCursorLocation(decl), clang_getCursorLocation(pattern)))
        return clang_getNullCursor();
    return pattern;
}

char *ss_project_foreign_usr(CXCursor call)
{
    char *usr = ss_project_declared_only(call);
    if (usr || clang_getCursorKind(call) != CXCursor_CallExpr || ss_scope_is_launch(call))
        return usr;
    CXCursor decl = clang_getCursorReferenced(call);
    if (ss_ast_is_null(template_member_elsewhere(decl)))
        return NULL;
    return ss_project_function_usr(decl);
}

/* The ways the flow finds the device drained at 'at', into 'q': first with each call of another
 * unit's function that finds the device busy taken to drain it, then with those the answer
 * rested on taken to leave it busy instead (a later call may be the one that drains it, the
 * earlier ones host work only), and so on. */
static void ask_ways(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, ss_foreign_calls *calls,
                     foreign_question *q)
{
    calls->keep = 0;
    while (q->way_count < MAX_WAYS) {
        char *words = ss_context_foreign_words(ctx, rule, at, calls);
        if (words == NULL)
            return;
        foreign_way *way = add_way(q, calls->calls.count);
        way->words = words;
        for (size_t i = 0; i < calls->calls.count; i++) {
            uint64_t bit = UINT64_C(1) << i;
            if (!(calls->needed & bit))
                continue;
            way->strict[way->usr_count] = calls->strict & bit ? NEEDS_END : NEEDS_KEEP;
            way->usrs[way->usr_count++] = ss_xstrdup(calls->calls.usrs[i]);
        }
        if (calls->strict == 0 || (calls->keep & calls->strict))
            return;
        calls->keep |= calls->strict;
    }
}

void ss_project_foreign_question(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at)
{
    ss_project_facts *facts = ss_project_unit_facts(ctx);
    if (facts == NULL)
        return;
    struct ss_foreign_facts *ff = foreign_of(facts);
    question_free(&ff->kept);
    ff->has_kept = 0;
    ss_foreign_calls calls;
    memset(&calls, 0, sizeof calls);
    /* Such calls taken for copies on the legacy stream first (where the unit's copies drain):
     * any drain of theirs answers then; else for waits for the whole device. A walk that met
     * none of them is not asked again. */
    calls.copy = 1;
    ask_ways(ctx, rule, at, &calls, &ff->kept);
    if (ff->kept.way_count == 0 && calls.copy && calls.calls.count > 0) {
        calls.copy = 0;
        ask_ways(ctx, rule, at, &calls, &ff->kept);
    }
    ff->kept.copy = calls.copy;
    ss_assumed_waits_free(&calls.calls);
    ff->kept.rule = rule;
    ff->kept_at = at;
    ff->has_kept = ff->kept.way_count > 0;
}

void ss_project_foreign_opening(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const char *words,
                                const struct ss_foreign_calls *calls, const char *usr, int kind,
                                const unsigned *args)
{
    ss_project_facts *facts = ss_project_unit_facts(ctx);
    struct ss_foreign_facts *ff = facts ? foreign_of(facts) : NULL;
    if (ff == NULL || ff->kept.way_count == MAX_WAYS ||
        (ff->kept.way_count > 0 && (ff->kept.rule != rule || !ss_ast_same_node(ff->kept_at, at))))
        return;
    size_t count = calls ? calls->calls.count : 0;
    foreign_way *way = add_way(&ff->kept, count + 2);
    way->words = ss_xstrdup(words);
    if (args)
        memcpy(way->args, args, sizeof way->args);
    if (usr) {
        way->strict[way->usr_count] =
            kind == SS_OPENING_THRUST
                ? (ctx->per_thread ? NEEDS_OPEN_PER_THREAD : NEEDS_OPEN_LEGACY)
            : ctx->per_thread ? NEEDS_READ_PER_THREAD
                              : NEEDS_READ_LEGACY;
        way->usrs[way->usr_count++] = ss_xstrdup(usr);
    }
    if (kind == SS_OPENING_COPY_BLOCKING) {
        way->strict[way->usr_count] = NEEDS_STREAMS_BLOCK;
        way->usrs[way->usr_count++] = ss_xstrdup("");
    }
    /* The opening function's own entry on the way first, then the others (note_words). */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < count; i++) {
            uint64_t bit = UINT64_C(1) << i;
            int same = usr && strcmp(usr, calls->calls.usrs[i]) == 0;
            if (!(calls->needed & bit) || same != (pass == 0))
                continue;
            way->strict[way->usr_count] = calls->strict & bit ? NEEDS_END_WIDE
                                          : ctx->per_thread   ? NEEDS_DEFAULT_PER_THREAD
                                                              : NEEDS_DEFAULT_LEGACY;
            way->usrs[way->usr_count++] = ss_xstrdup(calls->calls.usrs[i]);
        }
    }
    ff->kept.rule = rule;
    ff->kept_at = at;
    ff->has_kept = 1;
}

void ss_project_ask_streams_block(ss_check_ctx *ctx, ss_rule_id rule, const ss_finding *f,
                                  const char *words)
{
    ss_project_facts *facts = ctx->streams ? ctx->streams->facts : NULL;
    if (facts == NULL || f->file == NULL || f->severity != SS_SEV_WARNING || words == NULL)
        return;
    foreign_question *q = add_question(foreign_of(facts));
    q->file = ss_xstrdup(f->file);
    q->line = f->line;
    q->column = f->column;
    q->rule = rule;
    q->copy = 1;
    foreign_way *way = add_way(q, 1);
    way->words = ss_xstrdup(words);
    way->strict[0] = NEEDS_STREAMS_BLOCK;
    way->usrs[0] = ss_xstrdup("");
    way->usr_count = 1;
}

void ss_project_ask_foreign(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const ss_finding *f)
{
    ss_project_facts *facts = ctx->streams ? ctx->streams->facts : NULL;
    struct ss_foreign_facts *ff = facts ? facts->foreign : NULL;
    if (ff == NULL || !ff->has_kept)
        return;
    ff->has_kept = 0;
    if (ff->kept.rule != rule || !ss_ast_same_node(ff->kept_at, at) || f->file == NULL ||
        f->severity != SS_SEV_WARNING) {
        question_free(&ff->kept);
        return;
    }
    foreign_question *q = add_question(ff);
    *q = ff->kept;
    memset(&ff->kept, 0, sizeof ff->kept);
    q->file = ss_xstrdup(f->file);
    q->line = f->line;
    q->column = f->column;
}

void ss_project_foreign_forget(ss_project_facts *facts, ss_rule_id rule, const char *file,
                               unsigned line, unsigned column)
{
    struct ss_foreign_facts *ff = facts->foreign;
    size_t kept = 0;
    for (size_t i = 0; ff && i < ff->question_count; i++) {
        foreign_question *q = &ff->questions[i];
        if (q->rule == rule && q->line == line && q->column == column && q->file && file &&
            strcmp(q->file, file) == 0)
            question_free(q);
        else
            ff->questions[kept++] = *q;
    }
    if (ff)
        ff->question_count = kept;
}

/* ------------------------------------------------------------------------------------------
 * The unit that defines. */

/* Whether the definition 'c' is of a function another unit may call whose summary a call there
 * may stand on: external linkage, not inline, no explicit specialization, host code; a member of
 * a class template too (another unit's call reaches this unit's explicit instantiation of it),
 * not of a partial specialization. */
static int summarized(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod) || !clang_isCursorDefinition(c) ||
        ss_ast_is_device_only(c) || clang_getCursorLinkage(c) != CXLinkage_External ||
        clang_Cursor_isFunctionInlined(c) || !ss_ast_is_null(clang_getSpecializedCursorTemplate(c)))
        return 0;
    CXCursor parent = clang_getCursorSemanticParent(c);
    return clang_getCursorKind(parent) != CXCursor_ClassTemplatePartialSpecialization;
}

/* "'cudaMemcpy' at frontier.cu:14" for the call 'by', malloc'ed. */
static char *call_words(CXCursor by)
{
    char *name = ss_scope_callee_name(by), *place = ss_callgraph_place(by);
    char *words = ss_xasprintf("'%s' at %s", name ? name : "a call", place);
    free(name);
    free(place);
    return words;
}

/* The words of a summary: what 'fn' is and, at 'level' (foreign_end), what it does. */
static char *end_words(CXCursor fn, int level, CXCursor by, int worked)
{
    char *name = ss_qualified_name(fn), *place = ss_callgraph_place(fn);
    char *drain = ss_ast_is_null(by) ? NULL : call_words(by);
    char *words;
    if (level == 2)
        words = ss_xasprintf("'%s()', defined in %s, ends with the device drained (by %s)",
                             name ? name : "?", place, drain ? drain : "a wait");
    else if (!worked)
        words =
            ss_xasprintf("'%s()', defined in %s, queues no device work", name ? name : "?", place);
    else
        words = ss_xasprintf("'%s()', defined in %s, leaves a drained device drained (%s%s)",
                             name ? name : "?", place, drain ? "by " : "",
                             drain ? drain : "it waits for the work it queues");
    free(name);
    free(place);
    free(drain);
    return words;
}

static void summarize(ss_check_ctx *ctx, struct ss_foreign_facts *ff, CXCursor fn)
{
    char *usr = ss_project_function_usr(fn);
    if (usr == NULL)
        return;
    CXCursor by;
    int wide = 0, worked = 0;
    int level = ss_context_foreign_summary(ctx, fn, &by, &wide, &worked);
    /* A definition that may leave work queued is kept too (level 0): another unit's
     * definition of the same function (an '#ifdef', a file built twice) must not answer for
     * it (find_end takes the weakest). */
    foreign_end *e = add_end(ff);
    e->usr = usr;
    e->level = level;
    e->wide = level ? wide : 0;
    e->words = level ? end_words(fn, level, by, worked) : ss_xstrdup("");
    int own = ctx->per_thread ? OPENS_PER_THREAD : OPENS_LEGACY;
    char *opening = ss_context_opening_words(ctx, fn);
    char *name = ss_qualified_name(fn), *place = ss_callgraph_place(fn);
    e->opens = opening ? own : 0;
    e->opening_words = opening ? ss_xasprintf("'%s()', defined in %s, opens with %s",
                                              name ? name : "?", place, opening)
                               : ss_xstrdup("");
    e->default_only = level || ss_context_foreign_default_only(ctx, fn) ? own : 0;
    e->default_words =
        level || !e->default_only
            ? ss_xstrdup(e->words)
            : ss_xasprintf("'%s()', defined in %s, queues work on the %s default "
                           "stream only",
                           name ? name : "?", place, ctx->per_thread ? "per-thread" : "legacy");
    char *reading = ss_context_opening_copy_words(ctx, fn, e->read_ways, &e->read_way_count);
    e->reads = reading ? own : 0;
    e->reading_words = reading ? ss_xasprintf("'%s()', defined in %s, opens with %s",
                                              name ? name : "?", place, reading)
                               : ss_xstrdup("");
    free(reading);
    free(name);
    free(place);
    free(opening);
}

typedef struct definition_walk {
    ss_check_ctx *ctx;
    struct ss_foreign_facts *ff;
} definition_walk;

static enum CXChildVisitResult find_definitions(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    definition_walk *w = data;
    if (ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    /* libclang shows an 'extern "C"' block or declaration as an unexposed declaration. */
    if (ss_ast_opens_scope(c) || clang_getCursorKind(c) == CXCursor_UnexposedDecl)
        return CXChildVisit_Recurse;
    if (summarized(c))
        summarize(w->ctx, w->ff, c);
    return CXChildVisit_Continue;
}

void ss_project_summarize_foreign(ss_check_ctx *ctx, ss_project_facts *facts)
{
    /* Errors may have dropped a call from a body: a summary would say too little. */
    if (facts->unjudged)
        return;
    definition_walk w = {ctx, foreign_of(facts)};
    clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_definitions, &w);
}

/* ------------------------------------------------------------------------------------------
 * The project pass. */

/* The summary of 'usr', or NULL: where several units define it (an '#ifdef' that differs, a
 * file built twice), the weakest of their summaries (the lowest level, then not device-wide). */
static const foreign_end *find_end(ss_project_facts *const *facts, size_t count, const char *usr)
{
    const foreign_end *weakest = NULL;
    for (size_t u = 0; u < count; u++) {
        const struct ss_foreign_facts *ff = facts[u] ? facts[u]->foreign : NULL;
        for (size_t i = 0; ff && i < ff->end_count; i++) {
            const foreign_end *e = &ff->ends[i];
            if (strcmp(e->usr, usr) == 0 &&
                (weakest == NULL || e->level < weakest->level ||
                 (e->level == weakest->level && e->wide < weakest->wide)))
                weakest = e;
        }
    }
    return weakest;
}

/* Whether the summary 'e' does what 'needs' (NEEDS_KEEP, ...) says, in a question of 'copy'. */
static int does(const foreign_end *e, int needs, int copy)
{
    if (e == NULL)
        return 0;
    if (needs == NEEDS_OPEN_LEGACY || needs == NEEDS_OPEN_PER_THREAD)
        return e->opens == (needs == NEEDS_OPEN_LEGACY ? OPENS_LEGACY : OPENS_PER_THREAD);
    if (needs == NEEDS_READ_LEGACY || needs == NEEDS_READ_PER_THREAD)
        return e->reads == (needs == NEEDS_READ_LEGACY ? OPENS_LEGACY : OPENS_PER_THREAD);
    if (needs == NEEDS_DEFAULT_LEGACY || needs == NEEDS_DEFAULT_PER_THREAD)
        return e->default_only == (needs == NEEDS_DEFAULT_LEGACY ? OPENS_LEGACY : OPENS_PER_THREAD);
    if (needs == NEEDS_END_WIDE)
        copy = 0;
    return e->level > 0 && (needs == NEEDS_KEEP || (e->level == 2 && (copy || e->wide)));
}

int ss_project_foreign_keeps(ss_project_facts *const *facts, size_t count, const char *usr)
{
    return does(find_end(facts, count, usr), NEEDS_KEEP, 0);
}

/* Whether the copy the function 'e' opens with is a readback the caller needs, on every way
 * the caller's arguments 'args' (SS_READ_ARGS_*) may take: a copy from the device into the
 * memory of a pointer parameter whose object the caller reads after the call; a way whose 'if'
 * the caller's constant argument rules out aside ('copy_buffer(..., RECV)'). */
static int read_needed(const foreign_end *e, const unsigned *args)
{
    int ways = 0;
    for (unsigned w = 0; w < e->read_way_count; w++) {
        unsigned word = e->read_ways[w], param = word & SS_READ_WAY_NO_PARAM;
        unsigned guard = (word & SS_READ_WAY_GUARD) >> SS_READ_WAY_GUARD_SHIFT;
        unsigned ruled_out =
            word & SS_READ_WAY_TRUE ? args[SS_READ_ARGS_FALSE] : args[SS_READ_ARGS_TRUE];
        if (guard && (ruled_out >> (guard - 1) & 1))
            continue;
        unsigned needed =
            args[word & SS_READ_WAY_DEPTH ? SS_READ_ARGS_DEPTH1 : SS_READ_ARGS_DEPTH0];
        if (!(word & SS_READ_WAY_D2H) || param == SS_READ_WAY_NO_PARAM || !(needed >> param & 1))
            return 0;
        ways++;
    }
    return ways > 0;
}

/* Whether every summary of 'usr' (one at least) opens as 'needs' says: with a synchronous copy
 * (NEEDS_READ_LEGACY, NEEDS_READ_PER_THREAD), a readback the caller needs ('args': read_needed),
 * or with Thrust work (NEEDS_OPEN_LEGACY, NEEDS_OPEN_PER_THREAD; 'args' NULL): where several units
 * define it (two builds, an '#ifdef'), each must, whatever their levels; in a run of every entry of
 * the database ('scope' SS_PROJECT_EVERY_ENTRY: a definition in a unit left out is not seen), where
 * no unit with errors, which summarizes nothing, declares it (it may define it otherwise), nor is a
 * unit's facts missing. */
static int every_end_reads(ss_project_facts *const *facts, size_t count, const char *usr, int needs,
                           const unsigned *args, unsigned scope)
{
    int found = 0;
    if (!(scope & SS_PROJECT_EVERY_ENTRY))
        return 0;
    for (size_t u = 0; u < count; u++) {
        if (facts[u] == NULL)
            return 0;
        for (size_t i = 0; facts[u]->unjudged && i < facts[u]->declared_count; i++) {
            if (strcmp(facts[u]->declared[i], usr) == 0)
                return 0;
        }
    }
    for (size_t u = 0; u < count; u++) {
        const struct ss_foreign_facts *ff = facts[u] ? facts[u]->foreign : NULL;
        for (size_t i = 0; ff && i < ff->end_count; i++) {
            if (strcmp(ff->ends[i].usr, usr) != 0)
                continue;
            if (!does(&ff->ends[i], needs, 0) || (args && !read_needed(&ff->ends[i], args)))
                return 0;
            found = 1;
        }
    }
    return found;
}

/* Whether every unit of the run queues its work on streams that block (streams_block), in a run
 * of every entry of the database, each linted without errors ('scope' SS_PROJECT_EVERY_ENTRY):
 * no stream of the program then holds work that a copy on the legacy stream does not wait for. */
static int streams_block(ss_project_facts *const *facts, size_t count, unsigned scope)
{
    if (!(scope & SS_PROJECT_EVERY_ENTRY) || count == 0)
        return 0;
    for (size_t u = 0; u < count; u++) {
        if (facts[u] == NULL || facts[u]->unjudged || !facts[u]->streams_block)
            return 0;
    }
    return 1;
}

/* Whether the summaries answer the way 'way' of a question ('copy' its; 'scope' the run's):
 * each of its functions does what the flow took it to. */
static int holds(ss_project_facts *const *facts, size_t count, const foreign_way *way, int copy,
                 unsigned scope)
{
    for (size_t k = 0; k < way->usr_count; k++) {
        int needs = way->strict[k];
        if (needs == NEEDS_STREAMS_BLOCK) {
            if (!streams_block(facts, count, scope))
                return 0;
        } else if (needs == NEEDS_READ_LEGACY || needs == NEEDS_READ_PER_THREAD) {
            if (!every_end_reads(facts, count, way->usrs[k], needs, way->args, scope))
                return 0;
        } else if (needs == NEEDS_OPEN_LEGACY || needs == NEEDS_OPEN_PER_THREAD) {
            /* A Thrust opening too: every definition, in a run of every entry. */
            if (!every_end_reads(facts, count, way->usrs[k], needs, NULL, scope))
                return 0;
        } else if (!does(find_end(facts, count, way->usrs[k]), needs, copy)) {
            return 0;
        }
    }
    return 1;
}

/* What the summary words 'what' ("'f()', defined in f.cu:3, ends with ...") say the function
 * does, without its name and place ("ends with ..."), or NULL. */
static const char *what_it_does(const char *what)
{
    const char *p = strstr(what, ", defined in ");
    p = p ? strstr(p + strlen(", defined in "), ", ") : NULL;
    return p ? p + 2 : NULL;
}

/* What the caller does with a readback a function opens with (read_needed). */
static const char read_words[] = ", and the caller reads the data it copies back after the "
                                 "call (or hands it to its own caller)";

static const char blocking_words[] = "no unit of the run creates a stream that does not block or "
                                     "holds a stream it did not create, and the run leaves none "
                                     "out";

/* The note's words: the way's, then what each function of another unit does. */
static char *note_words(ss_project_facts *const *facts, size_t count, const foreign_way *way,
                        const char *message)
{
    char *words = ss_xasprintf("%s; %s (across units: ", message, way->words);
    for (size_t k = 0; k < way->usr_count; k++) {
        const foreign_end *e = find_end(facts, count, way->usrs[k]);
        int needs = way->strict[k], again = 0, after_read = 0;
        if (needs == NEEDS_STREAMS_BLOCK) {
            char *longer = ss_xasprintf("%s%s%s", words, k ? "; " : "", blocking_words);
            free(words);
            words = longer;
            continue;
        }
        for (size_t j = 0; j < k; j++) {
            int same = strcmp(way->usrs[j], way->usrs[k]) == 0;
            again |= same;
            after_read |= same && (way->strict[j] == NEEDS_READ_LEGACY ||
                                   way->strict[j] == NEEDS_READ_PER_THREAD);
        }
        int reads = needs == NEEDS_READ_LEGACY || needs == NEEDS_READ_PER_THREAD;
        const char *what = needs == NEEDS_OPEN_LEGACY || needs == NEEDS_OPEN_PER_THREAD
                               ? e->opening_words
                           : reads                         ? e->reading_words
                           : needs >= NEEDS_DEFAULT_LEGACY ? e->default_words
                                                           : e->words;
        /* The function that opens with Thrust work, on the way to the wait too: once. */
        if (again && !reads && needs >= NEEDS_DEFAULT_LEGACY && e->level == 0)
            what = needs == NEEDS_DEFAULT_LEGACY
                       ? "and it queues work on the legacy default stream only"
                       : "and it queues work on the per-thread default stream only";
        /* The function that opens with a copy, on the way to the wait too: named once. */
        const char *does_words = after_read ? what_it_does(what) : NULL;
        char *longer = does_words ? ss_xasprintf("%s, and it %s", words, does_words)
                                  : ss_xasprintf("%s%s%s%s", words,
                                                 !k      ? ""
                                                 : again ? ", "
                                                         : "; ",
                                                 what, reads ? read_words : "");
        free(words);
        words = longer;
    }
    char *closed = ss_xasprintf("%s)", words);
    free(words);
    return closed;
}

void ss_project_apply_foreign(ss_project_facts *const *facts, ss_result *const *results,
                              size_t count, unsigned scope)
{
    for (size_t u = 0; u < count; u++) {
        const struct ss_foreign_facts *ff = facts[u] ? facts[u]->foreign : NULL;
        for (size_t i = 0; ff && results[u] && i < ff->question_count; i++) {
            const foreign_question *q = &ff->questions[i];
            ss_finding *f =
                ss_project_find_finding(results[u], q->rule, q->file, q->line, q->column);
            size_t w = 0;
            while (f && w < q->way_count && !holds(facts, count, &q->ways[w], q->copy, scope))
                w++;
            if (f == NULL || f->severity != SS_SEV_WARNING || w == q->way_count)
                continue;
            char *message = note_words(facts, count, &q->ways[w], f->message);
            free(f->message);
            f->message = message;
            f->severity = SS_SEV_NOTE;
        }
    }
}

/* ------------------------------------------------------------------------------------------
 * The cache's form ("foreignEnds", "foreignQuestions": absent when there are none;
 * "streamsBlock", the facts' 'streams_block'). */

static cJSON *encode_way(const foreign_way *way)
{
    cJSON *item = cJSON_CreateObject(), *usrs = cJSON_AddArrayToObject(item, "usrs");
    ss_cache_add_string(item, "words", way->words);
    for (size_t k = 0; k < way->usr_count; k++) {
        cJSON *call = cJSON_CreateObject();
        ss_cache_add_string(call, "usr", way->usrs[k]);
        cJSON_AddNumberToObject(call, "strict", way->strict[k]);
        cJSON_AddItemToArray(usrs, call);
    }
    cJSON *args = cJSON_AddArrayToObject(item, "readArgs");
    for (unsigned i = 0; i < SS_READ_ARGS; i++)
        cJSON_AddItemToArray(args, cJSON_CreateNumber(way->args[i]));
    return item;
}

void ss_project_foreign_encode(const ss_project_facts *facts, cJSON *o)
{
    const struct ss_foreign_facts *ff = facts->foreign;
    cJSON_AddBoolToObject(o, "streamsBlock", facts->streams_block);
    cJSON *ends = ff && ff->end_count ? cJSON_AddArrayToObject(o, "foreignEnds") : NULL;
    for (size_t i = 0; ends && i < ff->end_count; i++) {
        cJSON *item = cJSON_CreateObject();
        ss_cache_add_string(item, "usr", ff->ends[i].usr);
        cJSON_AddNumberToObject(item, "level", ff->ends[i].level);
        cJSON_AddNumberToObject(item, "wide", ff->ends[i].wide);
        cJSON_AddNumberToObject(item, "opens", ff->ends[i].opens);
        cJSON_AddNumberToObject(item, "defaultOnly", ff->ends[i].default_only);
        ss_cache_add_string(item, "defaultWords", ff->ends[i].default_words);
        ss_cache_add_string(item, "words", ff->ends[i].words);
        ss_cache_add_string(item, "openingWords", ff->ends[i].opening_words);
        cJSON_AddNumberToObject(item, "reads", ff->ends[i].reads);
        ss_cache_add_string(item, "readingWords", ff->ends[i].reading_words);
        cJSON *ways = cJSON_AddArrayToObject(item, "readWays");
        for (unsigned w = 0; w < ff->ends[i].read_way_count; w++)
            cJSON_AddItemToArray(ways, cJSON_CreateNumber(ff->ends[i].read_ways[w]));
        cJSON_AddItemToArray(ends, item);
    }
    cJSON *questions =
        ff && ff->question_count ? cJSON_AddArrayToObject(o, "foreignQuestions") : NULL;
    for (size_t i = 0; questions && i < ff->question_count; i++) {
        const foreign_question *q = &ff->questions[i];
        cJSON *item = cJSON_CreateObject(), *ways = cJSON_AddArrayToObject(item, "ways");
        ss_cache_add_string(item, "file", q->file);
        cJSON_AddNumberToObject(item, "line", q->line);
        cJSON_AddNumberToObject(item, "column", q->column);
        cJSON_AddNumberToObject(item, "rule", q->rule);
        cJSON_AddNumberToObject(item, "copy", q->copy);
        for (size_t w = 0; w < q->way_count; w++)
            cJSON_AddItemToArray(ways, encode_way(&q->ways[w]));
        cJSON_AddItemToArray(questions, item);
    }
}

/* The array of numbers 'name' of 'item' into 'out' ('max' at most), how many into '*count';
 * sets '*bad' where it is missing or longer or holds another thing. */
static void decode_numbers(const cJSON *item, const char *name, unsigned *out, unsigned max,
                           unsigned *count, int *bad)
{
    const cJSON *array = cJSON_GetObjectItemCaseSensitive(item, name), *n;
    *count = 0;
    if (!cJSON_IsArray(array) || cJSON_GetArraySize(array) > (int)max) {
        *bad = 1;
        return;
    }
    cJSON_ArrayForEach(n, array)
    {
        if (!cJSON_IsNumber(n) || n->valuedouble < 0 || n->valuedouble > UINT_MAX) {
            *bad = 1;
            return;
        }
        out[(*count)++] = (unsigned)n->valuedouble;
    }
}

static void decode_end(const cJSON *item, struct ss_foreign_facts *ff, int *bad)
{
    foreign_end *e = add_end(ff);
    const char *usr = ss_cache_get_string(item, "usr", bad);
    const char *words = ss_cache_get_string(item, "words", bad);
    const char *opening = ss_cache_get_string(item, "openingWords", bad);
    const char *only = ss_cache_get_string(item, "defaultWords", bad);
    const char *reading = ss_cache_get_string(item, "readingWords", bad);
    e->level = (int)ss_cache_get_unsigned(item, "level", 2, bad);
    e->wide = ss_cache_get_unsigned(item, "wide", 1, bad) != 0;
    e->opens = (int)ss_cache_get_unsigned(item, "opens", OPENS_PER_THREAD, bad);
    e->default_only = (int)ss_cache_get_unsigned(item, "defaultOnly", OPENS_PER_THREAD, bad);
    e->reads = (int)ss_cache_get_unsigned(item, "reads", OPENS_PER_THREAD, bad);
    e->reading_words = ss_xstrdup(reading ? reading : "");
    decode_numbers(item, "readWays", e->read_ways, SS_READ_WAYS, &e->read_way_count, bad);
    e->default_words = ss_xstrdup(only ? only : "");
    e->usr = ss_xstrdup(usr ? usr : "");
    e->words = ss_xstrdup(words ? words : "");
    e->opening_words = ss_xstrdup(opening ? opening : "");
    *bad |= usr == NULL || words == NULL || opening == NULL || only == NULL || reading == NULL;
}

static void decode_way(const cJSON *item, foreign_question *q, int *bad)
{
    const cJSON *usrs = cJSON_GetObjectItemCaseSensitive(item, "usrs"), *call;
    const char *words = ss_cache_get_string(item, "words", bad);
    if (words == NULL || !cJSON_IsArray(usrs) || cJSON_GetArraySize(usrs) == 0 ||
        q->way_count == MAX_WAYS) {
        *bad = 1;
        return;
    }
    foreign_way *way = add_way(q, (size_t)cJSON_GetArraySize(usrs));
    way->words = ss_xstrdup(words);
    unsigned args = 0;
    decode_numbers(item, "readArgs", way->args, SS_READ_ARGS, &args, bad);
    *bad |= args != SS_READ_ARGS;
    cJSON_ArrayForEach(call, usrs)
    {
        const char *usr = ss_cache_get_string(call, "usr", bad);
        way->strict[way->usr_count] =
            (int)ss_cache_get_unsigned(call, "strict", NEEDS_STREAMS_BLOCK, bad);
        if (usr == NULL) {
            *bad = 1;
            return;
        }
        way->usrs[way->usr_count++] = ss_xstrdup(usr);
    }
}

static void decode_question(const cJSON *item, struct ss_foreign_facts *ff, int *bad)
{
    foreign_question *q = add_question(ff);
    const char *file = ss_cache_get_string(item, "file", bad);
    const cJSON *ways = cJSON_GetObjectItemCaseSensitive(item, "ways"), *way;
    q->file = file ? ss_xstrdup(file) : NULL;
    q->line = ss_cache_get_unsigned(item, "line", UINT_MAX, bad);
    q->column = ss_cache_get_unsigned(item, "column", UINT_MAX, bad);
    q->rule = (ss_rule_id)ss_cache_get_unsigned(item, "rule", SS_RULE_COUNT - 1, bad);
    q->copy = ss_cache_get_unsigned(item, "copy", 1, bad) != 0;
    if (file == NULL || !cJSON_IsArray(ways) || cJSON_GetArraySize(ways) == 0) {
        *bad = 1;
        return;
    }
    cJSON_ArrayForEach(way, ways)
    {
        if (!*bad)
            decode_way(way, q, bad);
    }
}

/* decode_end and decode_question as ss_project_decode_items reads them. */
static void decode_end_item(const cJSON *item, ss_project_facts *facts, int *bad)
{
    decode_end(item, foreign_of(facts), bad);
}

static void decode_question_item(const cJSON *item, ss_project_facts *facts, int *bad)
{
    decode_question(item, foreign_of(facts), bad);
}

void ss_project_foreign_decode(const cJSON *o, ss_project_facts *facts, int *bad)
{
    const cJSON *block = cJSON_GetObjectItemCaseSensitive(o, "streamsBlock");
    *bad |= !cJSON_IsBool(block);
    facts->streams_block = cJSON_IsTrue(block);
    ss_project_decode_items(o, "foreignEnds", decode_end_item, facts, bad);
    ss_project_decode_items(o, "foreignQuestions", decode_question_item, facts, bad);
}
