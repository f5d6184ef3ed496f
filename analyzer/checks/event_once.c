/* event_once.c: a wait in a loop for an event that nothing the loop runs records again: the
 * event was recorded before the loop, so the wait blocks at most once, on the first iteration,
 * and not at all where the event was waited for before the loop too (context_cases.h). */
#include "ast.h"
#include "callgraph.h"
#include "common.h"
#include "context_cases.h"
#include "log.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

/* The most functions the walk from a loop follows; past it, the answer is "may record". */
enum { EVENT_ONCE_MAX_FUNCTIONS = 256 };

/* What a call does with the event it names as an argument. */
typedef enum event_use {
    EVENT_NONE,   /* not a call of the event API */
    EVENT_WAIT,   /* cudaEventSynchronize, cuEventSynchronize */
    EVENT_READ,   /* a query, a device-side wait, an elapsed time */
    EVENT_RECORD, /* cudaEventRecord and its kin */
    EVENT_MAKE    /* created ('cudaEventCreate(&e)') or destroyed */
} event_use;

static const struct {
    const char *name;
    event_use use;
} event_calls[] = {{"cudaEventSynchronize", EVENT_WAIT},
                   {"cuEventSynchronize", EVENT_WAIT},
                   {"cudaEventQuery", EVENT_READ},
                   {"cuEventQuery", EVENT_READ},
                   {"cudaStreamWaitEvent", EVENT_READ},
                   {"cuStreamWaitEvent", EVENT_READ},
                   {"cudaEventElapsedTime", EVENT_READ},
                   {"cuEventElapsedTime", EVENT_READ},
                   {"cudaEventRecord", EVENT_RECORD},
                   {"cuEventRecord", EVENT_RECORD},
                   {"cudaEventRecordWithFlags", EVENT_RECORD},
                   {"cuEventRecordWithFlags", EVENT_RECORD},
                   {"cudaEventCreate", EVENT_MAKE},
                   {"cudaEventCreateWithFlags", EVENT_MAKE},
                   {"cuEventCreate", EVENT_MAKE},
                   {"cudaEventDestroy", EVENT_MAKE},
                   {"cuEventDestroy", EVENT_MAKE}};

/* What the call 'call' is among the event API (event_calls), or EVENT_NONE. */
static event_use event_call(CXCursor call)
{
    char *name = ss_ast_callee_name(call);
    event_use use = EVENT_NONE;
    for (size_t i = 0; name && i < sizeof event_calls / sizeof event_calls[0]; i++) {
        if (strcmp(name, event_calls[i].name) == 0)
            use = event_calls[i].use;
    }
    free(name);
    return use;
}

/* The declaration the expression 'e' names, itself and not through '&', '*' or a subscript: a
 * variable ('ev') or a member ('flag.sent', 'sent'); else a null cursor. */
static CXCursor plain_name(CXCursor e)
{
    e = ss_ast_strip(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    return k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr ? clang_getCursorReferenced(e)
                                                                    : clang_getNullCursor();
}

/* Whether 'e' is the event 'decl' or its address ('&ready', given to cudaEventCreate). */
static int names_event(CXCursor e, CXCursor decl)
{
    e = ss_ast_strip(e);
    if (clang_getCursorKind(e) == CXCursor_UnaryOperator && ss_ast_child_count(e) == 1)
        e = ss_ast_child(e, 0);
    return clang_equalCursors(plain_name(e), decl);
}

/* The walk over what a loop (or the statements before it) runs, following the calls into the
 * functions of the unit they call. */
typedef struct event_walk {
    CXCursor event;  /* the event's declaration */
    CXCursor before; /* with a loop given: only what starts before it, the loop left out */
    CXCursor outer;  /* the call of the walk's own function that the walk is inside */
    CXCursor record; /* the first call that records the event (the outer call around it) */
    CXCursor wait;   /* the first call that waits for it (the outer call around it) */
    int other;       /* the event named otherwise than as an argument of the event API */
    int blind;       /* a call the walk cannot follow: through a pointer, virtual, elsewhere */
    size_t count;    /* the functions followed */
    CXCursor *functions;
} event_walk;

static enum CXChildVisitResult visit_event(CXCursor c, CXCursor parent, CXClientData data);

/* Follows the call 'call' into the function of the unit it calls, once per function; a call
 * that names no function, a virtual one, or one of a function not defined here (and not of a
 * system header or the CUDA API) makes the walk blind. */
static void follow_call(event_walk *w, CXCursor call)
{
    CXCursor callee = clang_getCursorReferenced(call);
    if (ss_ast_is_null(callee) || clang_CXXMethod_isVirtual(callee)) {
        w->blind = 1;
        return;
    }
    /* Device code records no host's event; a defaulted constructor runs no code of the unit. */
    if (ss_ast_is_device_only(callee) || clang_CXXMethod_isDefaulted(callee))
        return;
    CXCursor def = clang_getCursorDefinition(callee);
    CXCursor body = ss_ast_is_null(def) ? def : ss_ast_body(def);
    if (ss_ast_is_null(body)) {
        char *name = ss_ast_callee_name(call);
        if (!ss_ast_in_system_header(callee) && (name == NULL || ss_api_find(name) == NULL))
            w->blind = 1;
        free(name);
        return;
    }
    for (size_t i = 0; i < w->count; i++) {
        if (clang_equalCursors(w->functions[i], def))
            return;
    }
    if (w->count == EVENT_ONCE_MAX_FUNCTIONS) {
        w->blind = 1;
        return;
    }
    w->functions[w->count++] = def;
    CXCursor outer = w->outer, before = w->before;
    if (ss_ast_is_null(outer))
        w->outer = call;
    w->before = clang_getNullCursor();
    clang_visitChildren(body, visit_event, w);
    w->outer = outer;
    w->before = before;
}

/* A call of the event API that names the event: noted as a record or a wait; the event named
 * in any other way by an argument counts as 'other'. */
static void event_api_call(event_walk *w, CXCursor call, event_use use)
{
    CXCursor at = ss_ast_is_null(w->outer) ? call : w->outer;
    for (int i = 0, n = clang_Cursor_getNumArguments(call); i < n; i++) {
        CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
        if (names_event(arg, w->event)) {
            if (use == EVENT_RECORD && ss_ast_is_null(w->record))
                w->record = at;
            if (use == EVENT_WAIT && ss_ast_is_null(w->wait))
                w->wait = at;
        } else if (ss_context_mentions(arg, w->event)) {
            w->other = 1;
        }
    }
}

static enum CXChildVisitResult visit_event(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    event_walk *w = data;
    if (!ss_ast_is_null(w->before) &&
        (ss_ast_same_node(c, w->before) || ss_ast_offset(c) >= ss_ast_offset(w->before)))
        return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) &&
        clang_equalCursors(clang_getCursorReferenced(c), w->event))
        w->other = 1;
    if (k != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    event_use use = event_call(c);
    if (use != EVENT_NONE) {
        event_api_call(w, c, use);
        return CXChildVisit_Continue;
    }
    follow_call(w, c);
    return CXChildVisit_Recurse;
}

/* Whether every use of the event 'decl' in the unit's own code (system headers aside) is as an
 * argument of the event API (event_calls): no copy of the handle, no address given away, so
 * that nothing records it but a record that names it; and none inside a lambda (a callback or
 * a thread's body, which may run while the loop does). */
static enum CXChildVisitResult find_other_use(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    event_walk *w = data;
    if (ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (((k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) &&
         clang_equalCursors(clang_getCursorReferenced(c), w->event)) ||
        (k == CXCursor_LambdaExpr && ss_context_mentions(c, w->event))) {
        w->other = 1;
        return CXChildVisit_Break;
    }
    if (k == CXCursor_CallExpr) {
        event_use use = event_call(c);
        if (use != EVENT_NONE) {
            event_api_call(w, c, use);
            return w->other ? CXChildVisit_Break : CXChildVisit_Continue;
        }
    }
    return CXChildVisit_Recurse;
}

/* The event that the wait 'at' names, when the note can reason about it: a variable that is
 * neither a parameter nor a reference, or a member; else a null cursor. */
static CXCursor waited_event(CXCursor at)
{
    CXCursor none = clang_getNullCursor();
    if (event_call(at) != EVENT_WAIT || clang_Cursor_getNumArguments(at) < 1)
        return none;
    CXCursor decl = plain_name(clang_Cursor_getArgument(at, 0));
    enum CXCursorKind k = clang_getCursorKind(decl);
    if (k == CXCursor_FieldDecl)
        return decl;
    enum CXTypeKind t = clang_getCanonicalType(clang_getCursorType(decl)).kind;
    return k == CXCursor_VarDecl && t != CXType_LValueReference && t != CXType_RValueReference
               ? decl
               : none;
}

/* Whether 'decl' is a local of automatic storage: none but its function can name it. */
static int automatic(CXCursor decl)
{
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(decl);
    return clang_getCursorKind(decl) == CXCursor_VarDecl &&
           clang_getCursorLinkage(decl) == CXLinkage_NoLinkage &&
           (sc == CX_SC_None || sc == CX_SC_Auto || sc == CX_SC_Register) &&
           clang_getCursorTLSKind(decl) == CXTLS_None;
}

/* Walks 'from' (with 'before': only what starts before it) for the event 'event'. */
static event_walk walk_event(CXCursor from, CXCursor before, CXCursor event, CXCursor *functions)
{
    CXCursor none = clang_getNullCursor();
    event_walk w = {event, before, none, none, none, 0, 0, 0, functions};
    ss_ast_visit_whole(from, clang_getNullCursor(), visit_event, &w);
    return w;
}

char *ss_context_event_once_words(ss_check_ctx *ctx, ss_rule_id rule, const ss_loop_context *loop,
                                  CXCursor at)
{
    (void)ctx;
    CXCursor none = clang_getNullCursor();
    CXCursor event = rule == SS_RULE_SYNC_IN_LOOP ? waited_event(at) : none;
    CXCursor body = ss_ast_body(loop->function);
    if (ss_ast_is_null(event) || ss_ast_is_null(body))
        return NULL;
    event_walk uses = {event, none, none, none, none, 0, 0, 0, NULL};
    clang_visitChildren(clang_getTranslationUnitCursor(clang_Cursor_getTranslationUnit(at)),
                        find_other_use, &uses);
    if (uses.other)
        return NULL;
    CXCursor *functions = ss_xreallocarray(NULL, EVENT_ONCE_MAX_FUNCTIONS, sizeof *functions);
    event_walk in = walk_event(loop->loop, clang_getNullCursor(), event, functions);
    event_walk pre = walk_event(body, loop->loop, event, functions);
    free(functions);
    if (!ss_ast_is_null(in.record) || in.other || (in.blind && !automatic(event)) ||
        ss_ast_is_null(pre.record))
        return NULL;
    char *where = loop->chain ? ss_callgraph_place(pre.record)
                              : ss_xasprintf("line %u", ss_scope_line(pre.record));
    int waited = !ss_ast_is_null(pre.wait) && ss_ast_offset(pre.wait) > ss_ast_offset(pre.record);
    char *words = ss_xasprintf("the event is recorded only before the loop (%s): %s", where,
                               waited ? "after the first wait this one returns at once"
                                      : "it blocks at most once, on the first iteration");
    free(where);
    return words;
}
