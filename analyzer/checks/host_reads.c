/* host_reads.c: a buffer copied back to the host that the host goes through at once (a loop over
 * its elements, a host function given it), inside a loop: the host computes with the data, so
 * the copy's wait is inherent there; unless it is one value (a flag or a sum the device could
 * test) or the host sends the data back to the device in the same iteration (the host is a
 * stage of a device pipeline). A wait for an event is such a wait when the unit records the
 * event only right after a copy to the host, in whichever of its functions. */
#include "ast.h"
#include "callgraph.h"
#include "context_cases.h"
#include "log.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

/* How many statements after the copy (or its wait) the host's read is looked for. */
enum { MAX_BETWEEN = 3 };

/* The expression inside 'e' (of kind 'k') that names its storage: the first child of 'x + i',
 * '&x', '&x[0]', 'x.data()' or 'm.x'; a null cursor for any other kind. */
static CXCursor inner_storage(CXCursor e, enum CXCursorKind k)
{
    if (k == CXCursor_UnaryOperator || k == CXCursor_ArraySubscriptExpr ||
        k == CXCursor_BinaryOperator || k == CXCursor_MemberRefExpr || k == CXCursor_CallExpr)
        return ss_ast_strip(ss_ast_child(e, 0));
    return clang_getNullCursor();
}

/* The declaration a copy's destination names: the field of 'm->losses' or 'm.losses', the
 * variable of 'x', '&x', 'x.data()', '&x[0]', 'x + i'; a null cursor when it names none. */
static CXCursor copied_decl(CXCursor dst)
{
    CXCursor e = ss_ast_strip(dst);
    for (int hops = 0; hops < 6 && !ss_ast_is_null(e); hops++) {
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) {
            CXCursor decl = clang_getCursorReferenced(e);
            enum CXCursorKind dk = clang_getCursorKind(decl);
            if (dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl || dk == CXCursor_FieldDecl)
                return decl;
            if (k == CXCursor_DeclRefExpr)
                break;
        }
        e = inner_storage(e, k);
    }
    return clang_getNullCursor();
}

/* The variable or parameter whose member a copy's destination names: 'c' of 'c->coef',
 * 'c.coef', '&c->coef[0]' or 'c->v.data()'; a null cursor for any other (a variable itself, a
 * member of 'this', of a call's result or of an element). */
static CXCursor holder_of(CXCursor dst)
{
    CXCursor e = ss_ast_strip(dst);
    for (int hops = 0; hops < 6 && !ss_ast_is_null(e); hops++) {
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k == CXCursor_MemberRefExpr &&
            clang_getCursorKind(clang_getCursorReferenced(e)) == CXCursor_FieldDecl) {
            CXCursor of = ss_ast_strip(ss_ast_child(e, 0));
            CXCursor decl = clang_getCursorReferenced(of);
            enum CXCursorKind dk = clang_getCursorKind(decl);
            if (clang_getCursorKind(of) == CXCursor_DeclRefExpr &&
                (dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl))
                return decl;
            break;
        }
        e = inner_storage(e, k);
    }
    return clang_getNullCursor();
}

/* Whether the argument 'arg' gives the object 'holder' itself ('c', '&c', '*c'), not a member
 * of it ('c->stream') nor a value computed from it. */
static int passes_holder(CXCursor arg, CXCursor holder)
{
    CXCursor e = ss_ast_strip(arg);
    if (clang_getCursorKind(e) == CXCursor_UnaryOperator)
        e = ss_ast_strip(ss_ast_child(e, 0));
    return clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(e), holder);
}

/* The variable or parameter a local holder points into, from its initializer: 'e' for 'struct
 * coder *c = &e->coder;' (handing 'e' on hands 'c''s members on too); a null cursor for any
 * other. */
static CXCursor outer_holder(CXCursor holder)
{
    unsigned n = ss_ast_child_count(holder);
    if (clang_getCursorKind(holder) != CXCursor_VarDecl || n == 0)
        return clang_getNullCursor();
    CXCursor init = ss_ast_strip(ss_ast_child(holder, n - 1));
    if (clang_getCursorKind(init) != CXCursor_UnaryOperator)
        return clang_getNullCursor();
    CXCursor member = ss_ast_strip(ss_ast_child(init, 0));
    if (clang_getCursorKind(member) != CXCursor_MemberRefExpr ||
        clang_getCursorKind(clang_getCursorReferenced(member)) != CXCursor_FieldDecl)
        return clang_getNullCursor();
    CXCursor of = ss_ast_strip(ss_ast_child(member, 0));
    CXCursor decl = clang_getCursorReferenced(of);
    enum CXCursorKind dk = clang_getCursorKind(decl);
    return clang_getCursorKind(of) == CXCursor_DeclRefExpr &&
                   (dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl)
               ? decl
               : clang_getNullCursor();
}

/* Whether 'c' is or holds a reference to 'decl'. */
static int names_decl(CXCursor c, CXCursor decl)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) &&
        clang_equalCursors(clang_getCursorReferenced(c), decl))
        return 1;
    return ss_context_mentions(c, decl);
}

/* A call of the host given the buffer: not a CUDA API call, no work on the device (nor a
 * launch's configuration, '<<<h[0], 256>>>'), not a swap. */
typedef struct host_call_walk {
    ss_callgraph *graph;
    CXCursor decl;
    CXCursor found;
    int (*given)(CXCursor arg, CXCursor decl); /* whether an argument gives 'decl' */
} host_call_walk;

static enum CXChildVisitResult find_host_call(CXCursor c, CXCursor parent, CXClientData data)
{
    host_call_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    if (ss_scope_is_launch_config(c)) /* its 'dim3(n)' sizes the launch */
        return CXChildVisit_Continue;
    if (api != NULL || ss_scope_is_launch(c) || ss_context_call_enqueues(w->graph, c, api))
        return CXChildVisit_Recurse;
    /* A swap exchanges the buffers' names and reads neither. */
    char *name = ss_scope_callee_name(c);
    int swap = name && strcmp(name, "swap") == 0;
    free(name);
    if (swap)
        return CXChildVisit_Recurse;
    int n = clang_Cursor_getNumArguments(c);
    for (int i = 0; i < n; i++) {
        if (w->given(clang_Cursor_getArgument(c, (unsigned)i), w->decl)) {
            w->found = c;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* A loop inside a statement that names 'decl' (read_words). */
typedef struct loop_walk {
    CXCursor decl;
    CXCursor found;
} loop_walk;

static enum CXChildVisitResult find_reading_loop(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    loop_walk *w = data;
    if (ss_scope_is_loop(c) && names_decl(c, w->decl)) {
        w->found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* How the statement 'stmt' reads the buffer 'decl' as a whole, in words ("reads 'h' in a loop",
 * "passes 'h' to 'std::max_element()'"), malloc'ed, or NULL when it does not: a loop that names
 * it, a call of the host given it, or an 'if' that does no device work and has such a loop in
 * it (a branch on the output's layout that walks the copied table). */
static char *read_words(ss_callgraph *graph, CXCursor stmt, CXCursor decl)
{
    CXString spelled = clang_getCursorSpelling(decl);
    char *name = ss_xstrdup(clang_getCString(spelled));
    clang_disposeString(spelled);
    char *words = NULL;
    if (ss_scope_is_loop(stmt)) {
        words = ss_xasprintf("reads '%s' in a loop", name);
    } else {
        host_call_walk w = {graph, decl, clang_getNullCursor(), names_decl};
        ss_ast_visit_whole(stmt, stmt, find_host_call, &w);
        CXCursor callee = ss_ast_is_null(w.found) ? w.found : clang_getCursorReferenced(w.found);
        /* A call left unresolved in a template (a lambda argument) by the name it is given. */
        char *called = !ss_ast_is_null(callee)    ? ss_qualified_name(callee)
                       : !ss_ast_is_null(w.found) ? ss_scope_callee_name(w.found)
                                                  : NULL;
        if (called)
            words = ss_xasprintf("passes '%s' to '%s()'", name, called);
        free(called);
    }
    loop_walk loop = {decl, clang_getNullCursor()};
    if (words == NULL && clang_getCursorKind(stmt) == CXCursor_IfStmt &&
        !ss_context_does_device_work(graph, stmt))
        ss_ast_visit_whole(stmt, stmt, find_reading_loop, &loop);
    if (!ss_ast_is_null(loop.found))
        words = ss_xasprintf("reads '%s' in a loop (line %u)", name, ss_scope_line(loop.found));
    free(name);
    return words;
}

unsigned ss_context_statements_around(CXCursor function, CXCursor at, CXCursor *stmts, unsigned max,
                                      unsigned *index)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(function, at, path);
    unsigned n = 0;
    for (long i = found - 1; i >= 0 && n == 0; i--) {
        if (clang_getCursorKind(path[i]) != CXCursor_CompoundStmt ||
            !ss_ast_written_as(path[i], "{"))
            continue;
        CXCursor holder = i + 1 < found ? path[i + 1] : at;
        unsigned all = ss_ast_child_count(path[i]);
        *index = all;
        for (unsigned c = 0; c < all && n < max; c++) {
            CXCursor stmt = ss_ast_child(path[i], c);
            if (clang_getCursorKind(stmt) == CXCursor_NullStmt)
                continue;
            if (ss_ast_same_node(stmt, holder))
                *index = n;
            stmts[n++] = stmt;
        }
        if (*index >= n)
            n = 0;
        break;
    }
    free(path);
    return n;
}

/* A copy to the host in 'stmt' (the statement itself or a call in it). */
static enum CXChildVisitResult find_copy(CXCursor c, CXCursor parent, CXClientData data)
{
    CXCursor *found = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    if (api && api->klass == SS_CLASS_COPY && api->dst_arg >= 0) {
        *found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* The copy the finding is about: the call 'at' itself (SYNC202), or for a wait (SYNC401) a copy
 * in the statement right before it, which must not be a readback of one value (SYNC301's).
 * A null cursor when there is none. */
static CXCursor the_copy(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const CXCursor *stmts,
                         unsigned index)
{
    if (rule == SS_RULE_SYNC_COPY_IN_PIPELINE)
        return at;
    CXCursor copy = clang_getNullCursor();
    if (index == 0)
        return copy;
    ss_ast_visit_whole(stmts[index - 1], stmts[index - 1], find_copy, &copy);
    if (!ss_ast_is_null(copy) && ss_check_is_readback(ctx, copy, ss_scope_callee_api(copy)))
        copy = clang_getNullCursor();
    return copy;
}

/* ------------------------------------------------------------------------------------------
 * A wait for an event: the copy it waits for, found where the unit records the event. */

/* How many records of one event, and swaps of one buffer, are looked at. */
enum { MAX_RECORDS = SS_CONTEXT_MAX_RECORDS, MAX_SWAPS = 8 };

/* The member or variable that 'expr' names ('m_', 'this->m_', 'x'), or a null cursor: not an
 * array element, a parameter or another expression. */
static CXCursor named_storage(CXCursor expr)
{
    CXCursor e = ss_ast_strip(expr);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr)
        return clang_getNullCursor();
    CXCursor decl = clang_getCursorReferenced(e);
    enum CXCursorKind dk = clang_getCursorKind(decl);
    return dk == CXCursor_FieldDecl || dk == CXCursor_VarDecl ? decl : clang_getNullCursor();
}

/* The event the first argument of 'call' names (named_storage), or a null cursor. */
static CXCursor named_event(CXCursor call)
{
    if (clang_Cursor_getNumArguments(call) < 1)
        return clang_getNullCursor();
    return named_storage(clang_Cursor_getArgument(call, 0));
}

/* Whether 'call' is one of CUDA's event calls (create, record, wait, query, elapsed time,
 * destroy; a stream's wait for an event), which name an event without handing it on. */
static int is_event_call(CXCursor call)
{
    char *name = ss_scope_callee_name(call);
    int event = name && (strncmp(name, "cudaEvent", 9) == 0 || strncmp(name, "cuEvent", 7) == 0 ||
                         strcmp(name, "cudaStreamWaitEvent") == 0 ||
                         strcmp(name, "cuStreamWaitEvent") == 0);
    free(name);
    return event;
}

/* The unit's records of one event, each with the function it is in; 'escaped' when the unit
 * names the event outside CUDA's event calls (hands it to a function, assigns it, takes its
 * address) or records it too often. Also the unit's swaps of two members or variables
 * ('std::swap(h_tmp, h)'), each with its function, for partner_of. */
typedef struct record_walk {
    CXCursor event;
    CXCursor function; /* the function being walked, or a null cursor */
    CXCursor records[MAX_RECORDS], functions[MAX_RECORDS];
    int count, escaped;
    CXCursor *swaps, *swap_functions; /* malloc'ed */
    size_t swap_count;
} record_walk;

/* Whether 'c' is a call 'swap(a, b)' of two members or variables. */
static int is_swap(CXCursor c)
{
    if (clang_Cursor_getNumArguments(c) != 2 ||
        ss_ast_is_null(named_storage(clang_Cursor_getArgument(c, 0))) ||
        ss_ast_is_null(named_storage(clang_Cursor_getArgument(c, 1))))
        return 0;
    char *name = ss_ast_callee_name(c);
    int swap = name && strcmp(name, "swap") == 0;
    free(name);
    return swap;
}

static enum CXChildVisitResult find_event_uses(CXCursor c, CXCursor parent, CXClientData data)
{
    record_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    if (ss_ast_is_null(w->function) && ss_ast_is_function(c) && clang_isCursorDefinition(c)) {
        w->function = c;
        clang_visitChildren(c, find_event_uses, w);
        w->function = clang_getNullCursor();
        return w->escaped ? CXChildVisit_Break : CXChildVisit_Continue;
    }
    if (k == CXCursor_CallExpr && is_event_call(c)) {
        const ss_api *api = ss_scope_callee_api(c);
        CXCursor event = named_event(c);
        if (api && api->klass == SS_CLASS_EVENT_RECORD && !ss_ast_is_null(event) &&
            clang_equalCursors(event, w->event)) {
            if (w->count == MAX_RECORDS || ss_ast_is_null(w->function)) {
                w->escaped = 1;
                return CXChildVisit_Break;
            }
            w->records[w->count] = c;
            w->functions[w->count++] = w->function;
        }
        return CXChildVisit_Continue;
    }
    if (k == CXCursor_CallExpr && !ss_ast_is_null(w->function) && is_swap(c)) {
        w->swaps = ss_xreallocarray(w->swaps, w->swap_count + 1, sizeof *w->swaps);
        w->swap_functions =
            ss_xreallocarray(w->swap_functions, w->swap_count + 1, sizeof *w->swap_functions);
        w->swaps[w->swap_count] = c;
        w->swap_functions[w->swap_count++] = w->function;
    }
    if ((k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) &&
        clang_equalCursors(clang_getCursorReferenced(c), w->event)) {
        w->escaped = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether the argument 'index' of 'call' is written 'stream'. */
static int on_stream(CXCursor call, int index, const char *stream)
{
    if (index < 0 || clang_Cursor_getNumArguments(call) <= index)
        return 0;
    char *text = ss_expr_text(clang_Cursor_getArgument(call, (unsigned)index));
    int same = text && strcmp(text, stream) == 0;
    free(text);
    return same;
}

int ss_context_parameter_index(CXCursor function, CXCursor param)
{
    int index = 0;
    for (unsigned c = 0; c < ss_ast_child_count(function); c++) {
        CXCursor child = ss_ast_child(function, c);
        if (clang_getCursorKind(child) != CXCursor_ParmDecl)
            continue;
        if (clang_equalCursors(child, param))
            return index;
        index++;
    }
    return -1;
}

/* Whether 'decl' is a variable declared inside 'function' (a local, or a static one). */
static int local_of(CXCursor decl, CXCursor function)
{
    return clang_getCursorKind(decl) == CXCursor_VarDecl &&
           clang_equalCursors(clang_getCursorSemanticParent(decl), function);
}

/* The work one statement before an event's record queues: copies of the kind 'kind' (to the
 * host, or to the device) on the record's stream (the last of them, as written, in 'copy'), or
 * other work, or a stream wait, which makes the record wait for another stream's work too
 * ('other'). With 'follow', a call of a function of the unit is followed one call down
 * (follow_call): where that function's own last work is such copies, the last of them is the
 * copy, and the call is 'helper'. */
typedef struct queued_walk {
    ss_check_ctx *ctx;
    CXCursor function;
    const char *stream;
    int kind;
    CXCursor call; /* 'function' followed from this call of it (its stream parameters stand for
                    * the call's arguments), or a null cursor */
    int follow;
    CXCursor copy;
    CXCursor helper; /* the call of the function whose body queues 'copy', or a null cursor */
    int other;
} queued_walk;

/* Whether the stream argument 'index' of the call 'c' is written w->stream; in a function
 * followed from its call, a parameter is written as the call's argument, and a local of the
 * function is none of the caller's streams. */
static int stream_named(const queued_walk *w, CXCursor c, int index)
{
    if (ss_ast_is_null(w->call) || index < 0 || clang_Cursor_getNumArguments(c) <= index)
        return on_stream(c, index, w->stream);
    CXCursor arg = ss_ast_strip(clang_Cursor_getArgument(c, (unsigned)index));
    CXCursor decl = clang_getCursorReferenced(arg);
    if (clang_getCursorKind(arg) == CXCursor_DeclRefExpr &&
        clang_getCursorKind(decl) == CXCursor_ParmDecl)
        return on_stream(w->call, ss_context_parameter_index(w->function, decl), w->stream);
    if (clang_getCursorKind(arg) == CXCursor_DeclRefExpr && local_of(decl, w->function))
        return 0;
    return on_stream(c, index, w->stream);
}

static CXCursor last_copy(queued_walk *w, const CXCursor *stmts, unsigned index);

/* Enough statements for a function's body or a block around a record. */
enum { MAX_STATEMENTS = 256 };

/* For find_queued with 'follow': where 'c' calls a function of the unit (a method on the
 * caller's own object, whose members name the same streams and buffers), whose body, walked
 * back from its end (last_copy), queues last only the copies w looks for on w's stream, the last
 * of them into w->copy and 'c' into w->helper. Returns 1 then, else 0. */
static int follow_call(queued_walk *w, CXCursor c)
{
    CXCursor callee = ss_callgraph_callee(ss_check_graph(w->ctx), c);
    int is_const = 0;
    if (ss_ast_is_null(callee) ||
        (clang_getCursorKind(callee) == CXCursor_CXXMethod && !clang_CXXMethod_isStatic(callee) &&
         !ss_context_calls_on_this(c, &is_const)))
        return 0;
    CXCursor body = ss_ast_body(callee);
    unsigned n = ss_ast_is_null(body) ? 0 : ss_ast_child_count(body);
    if (n == 0 || n > MAX_STATEMENTS)
        return 0;
    CXCursor stmts[MAX_STATEMENTS];
    for (unsigned i = 0; i < n; i++)
        stmts[i] = ss_ast_child(body, i);
    queued_walk inner = {.ctx = w->ctx,
                         .function = callee,
                         .stream = w->stream,
                         .kind = w->kind,
                         .call = c,
                         .copy = clang_getNullCursor(),
                         .helper = clang_getNullCursor()};
    CXCursor copy = last_copy(&inner, stmts, n);
    if (ss_ast_is_null(copy))
        return 0;
    w->copy = copy;
    w->helper = c;
    return 1;
}

static enum CXChildVisitResult find_queued(CXCursor c, CXCursor parent, CXClientData data)
{
    queued_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    ss_callgraph *graph = ss_check_graph(w->ctx);
    CXCursor dst, src;
    if (api && api->klass == SS_CLASS_COPY && stream_named(w, c, api->stream_arg) &&
        ss_copy_kind(w->function, c, api, &dst, &src) == w->kind) {
        w->copy = c;
        w->helper = clang_getNullCursor();
        return CXChildVisit_Continue;
    }
    if (w->follow && api == NULL && !ss_scope_is_launch(c) && follow_call(w, c))
        return CXChildVisit_Continue;
    if ((api && api->klass == SS_CLASS_STREAM_WAIT) || ss_context_call_enqueues(graph, c, api) ||
        (api == NULL && ss_ast_is_null(ss_callgraph_callee(graph, c)) &&
         ss_context_library_enqueues(c))) {
        w->other = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Going back from stmts[index] over statements that queue nothing, the last copy the first one
 * that queues work makes (find_queued, as 'w' says), where that statement queues no other work;
 * for a copy to the host, not of one value (a flag or a sum the device could test). A null
 * cursor when there is none. */
static CXCursor last_copy(queued_walk *w, const CXCursor *stmts, unsigned index)
{
    for (unsigned s = index; s-- > 0 && ss_ast_is_null(w->copy) && !w->other;)
        ss_ast_visit_whole(stmts[s], stmts[s], find_queued, w);
    if (w->other || ss_ast_is_null(w->copy) ||
        (w->kind == SS_COPY_KIND_D2H &&
         ss_check_copies_one_value(w->ctx, w->copy, ss_scope_callee_api(w->copy))))
        return clang_getNullCursor();
    return w->copy;
}

/* The copy the event 'record' (in 'function') waits for: going back from the record's statement
 * in its block over statements that queue nothing, the first one that queues work queues only
 * copies of the kind 'kind' on the record's stream, and the last of them is the copy (to the
 * host: not one value, a flag or a sum the device could test). With 'helper', that statement may
 * instead call a function of the unit whose own last work is such copies (follow_call), and
 * '*helper' receives the call (a null cursor for a copy written here). A null cursor when there
 * is none. */
static CXCursor copy_before(ss_check_ctx *ctx, CXCursor record, CXCursor function, int kind,
                            CXCursor *helper)
{
    const ss_api *api = ss_scope_callee_api(record);
    if (api == NULL || api->stream_arg < 0 ||
        clang_Cursor_getNumArguments(record) <= api->stream_arg)
        return clang_getNullCursor();
    char *stream = ss_expr_text(clang_Cursor_getArgument(record, (unsigned)api->stream_arg));
    CXCursor stmts[MAX_STATEMENTS];
    unsigned index = 0;
    unsigned n = stream && *stream
                     ? ss_context_statements_around(function, record, stmts, MAX_STATEMENTS, &index)
                     : 0;
    queued_walk w = {.ctx = ctx,
                     .function = function,
                     .stream = stream,
                     .kind = kind,
                     .call = clang_getNullCursor(),
                     .follow = helper != NULL,
                     .copy = clang_getNullCursor(),
                     .helper = clang_getNullCursor()};
    CXCursor copy = n > 0 ? last_copy(&w, stmts, index) : clang_getNullCursor();
    free(stream);
    if (helper)
        *helper = w.helper;
    return copy;
}

/* Whether 'function' records the event, or calls the function that does, before 'before'. */
typedef struct before_walk {
    ss_callgraph *graph;
    CXCursor record, recorder;
    unsigned before;
    int found;
} before_walk;

static enum CXChildVisitResult find_before(CXCursor c, CXCursor parent, CXClientData data)
{
    before_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr || ss_ast_offset(c) >= w->before)
        return CXChildVisit_Recurse;
    CXCursor callee = ss_callgraph_callee(w->graph, c);
    if (ss_ast_same_node(c, w->record) ||
        (!ss_ast_is_null(callee) && clang_equalCursors(callee, w->recorder))) {
        w->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* The buffer one of the unit's swaps (w->swaps) exchanges with 'buffer', the copy's before the
 * record 'r', where the swap's function records the event before the swap or calls, before it,
 * the function that does: from then on the other buffer holds what the copy filled (two buffers
 * that take turns). '*swap' receives the swap. A null cursor when there is none. */
static CXCursor partner_of(ss_callgraph *graph, const record_walk *w, int r, CXCursor buffer,
                           CXCursor *swap)
{
    for (size_t i = 0; i < w->swap_count; i++) {
        CXCursor c = w->swaps[i];
        CXCursor a = named_storage(clang_Cursor_getArgument(c, 0)),
                 b = named_storage(clang_Cursor_getArgument(c, 1));
        CXCursor other = clang_equalCursors(a, buffer)   ? b
                         : clang_equalCursors(b, buffer) ? a
                                                         : clang_getNullCursor();
        if (ss_ast_is_null(other))
            continue;
        before_walk bw = {graph, w->records[r], w->functions[r], ss_ast_offset(c), 0};
        clang_visitChildren(w->swap_functions[i], find_before, &bw);
        if (bw.found) {
            *swap = c;
            return other;
        }
    }
    *swap = clang_getNullCursor();
    return clang_getNullCursor();
}

/* Where 'c' is, for a message about the call 'at': "line 12" in the same file, else
 * "file.cc:12". Malloc'ed. */
static char *place_from(CXCursor at, CXCursor c)
{
    CXFile a = NULL, b = NULL;
    clang_getExpansionLocation(clang_getCursorLocation(at), &a, NULL, NULL, NULL);
    clang_getExpansionLocation(clang_getCursorLocation(c), &b, NULL, NULL, NULL);
    if (a && b && clang_File_isEqual(a, b))
        return ss_xasprintf("line %u", ss_scope_line(c));
    return ss_callgraph_place(c);
}

/* What an event wait waits for: per record of the event, the copy's buffer and the buffer
 * swapped with it (or a null cursor). */
typedef struct waited {
    int count;
    CXCursor buffers[MAX_RECORDS], partners[MAX_RECORDS];
    char *because; /* why the wait is for the copy, in words, malloc'ed */
    /* The variable or parameter whose member the one buffer is ('c' of 'c->coef', holder_of),
     * or, left zero, none. */
    CXCursor holder;
} waited;

/* Why the event wait 'at' waits for the copy, in words: "the unit records 'e' only right after
 * the copy into 'h_tmp' on 's' (line 60, the first of 2), which line 90 swaps with it, so the
 * event completes when the copy does" ('swap' a null cursor when there is none). Malloc'ed. */
static char *because_words(CXCursor at, CXCursor event, CXCursor copy, CXCursor buffer,
                           CXCursor swap, int records)
{
    const ss_api *api = ss_scope_callee_api(copy);
    char *stream = ss_expr_text(clang_Cursor_getArgument(copy, (unsigned)api->stream_arg));
    char *copy_place = place_from(at, copy);
    char *first = records == 1 ? ss_xstrdup("") : ss_xasprintf(", the first of %d", records);
    char *swap_place = ss_ast_is_null(swap) ? NULL : place_from(at, swap);
    char *swapped = swap_place ? ss_xasprintf(", which %s swaps with it", swap_place) : NULL;
    CXString name = clang_getCursorSpelling(event), into = clang_getCursorSpelling(buffer);
    char *words = ss_xasprintf(
        "the unit records '%s' only right after the copy into '%s' on '%s' (%s%s)%s, so the "
        "event completes when the copy does",
        clang_getCString(name), clang_getCString(into), stream ? stream : "...", copy_place, first,
        swapped ? swapped : "");
    clang_disposeString(name);
    clang_disposeString(into);
    free(stream);
    free(copy_place);
    free(first);
    free(swap_place);
    free(swapped);
    return words;
}

/* The records of the event that the event wait 'at' names, walked over the whole unit into
 * 'w' (records_done frees it). Returns 0, with nothing to free, when 'at' names no event. */
static int event_records(ss_check_ctx *ctx, CXCursor at, record_walk *w)
{
    const ss_api *api = ss_scope_callee_api(at);
    CXCursor event =
        api && api->klass == SS_CLASS_EVENT_SYNC ? named_event(at) : clang_getNullCursor();
    if (ss_ast_is_null(event))
        return 0;
    *w = (record_walk){.event = event, .function = clang_getNullCursor()};
    clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_event_uses, w);
    return 1;
}

static void records_done(record_walk *w)
{
    free(w->swaps);
    free(w->swap_functions);
}

/* Fills 'out' for the event wait 'at' when every record of its event in the unit comes right
 * after a copy to the host (copy_before), and the unit names the event only in CUDA's event
 * calls. Returns 1, or 0 when it does not apply. */
static int event_copies(ss_check_ctx *ctx, CXCursor at, waited *out)
{
    record_walk w;
    if (!event_records(ctx, at, &w))
        return 0;
    CXCursor first_copy = clang_getNullCursor(), first_swap = clang_getNullCursor();
    for (int r = 0; !w.escaped && r < w.count; r++) {
        CXCursor copy = copy_before(ctx, w.records[r], w.functions[r], SS_COPY_KIND_D2H, NULL);
        CXCursor dst = clang_getNullCursor(), src, swap;
        if (!ss_ast_is_null(copy))
            ss_copy_kind(w.functions[r], copy, ss_scope_callee_api(copy), &dst, &src);
        CXCursor buffer = ss_ast_is_null(dst) ? dst : copied_decl(dst);
        if (ss_ast_is_null(buffer))
            break;
        out->buffers[out->count] = buffer;
        out->partners[out->count++] = partner_of(ss_check_graph(ctx), &w, r, buffer, &swap);
        if (r == 0) {
            first_copy = copy;
            first_swap = swap;
        }
    }
    int found = !w.escaped && w.count > 0 && out->count == w.count;
    if (found)
        out->because = because_words(at, w.event, first_copy, out->buffers[0], first_swap, w.count);
    records_done(&w);
    return found;
}

int ss_context_event_uploads(ss_check_ctx *ctx, CXCursor at, ss_event_upload *out)
{
    record_walk w;
    if (!event_records(ctx, at, &w))
        return 0;
    int count = 0;
    for (int r = 0; !w.escaped && r < w.count; r++) {
        CXCursor copy = copy_before(ctx, w.records[r], w.functions[r], SS_COPY_KIND_H2D, NULL);
        if (ss_ast_is_null(copy))
            break;
        out[count++] = (ss_event_upload){copy, w.records[r], w.functions[r]};
    }
    records_done(&w);
    return !w.escaped && w.count > 0 && count == w.count ? count : 0;
}

/* The buffer 'decl' that a copy in 'callee' fills, as the caller 'call' names it: the argument's
 * storage for a parameter ('out + i' given 'h'), the same variable or member for one that is not
 * the callee's own (a local of it is none of the caller's). A null cursor when there is none. */
static CXCursor caller_buffer(CXCursor callee, CXCursor call, CXCursor decl)
{
    if (clang_getCursorKind(decl) == CXCursor_ParmDecl) {
        int index = ss_context_parameter_index(callee, decl);
        if (index < 0 || clang_Cursor_getNumArguments(call) <= index)
            return clang_getNullCursor();
        return copied_decl(clang_Cursor_getArgument(call, (unsigned)index));
    }
    return local_of(decl, callee) ? clang_getNullCursor() : decl;
}

/* Fills 'out' for the stream wait 'at' when the last work its block queues on the stream before
 * it is a copy to the host (copy_before: statements that queue nothing may stand between), also
 * one that a function of the unit called there queues last (the call followed one call down).
 * Returns 1, or 0 when it does not apply. */
static int stream_copy(ss_check_ctx *ctx, CXCursor at, waited *out)
{
    const ss_api *api = ss_scope_callee_api(at);
    if (api == NULL || api->klass != SS_CLASS_STREAM_SYNC)
        return 0;
    CXCursor function = ss_scope_outer_function(ctx->function), helper;
    CXCursor copy = copy_before(ctx, at, function, SS_COPY_KIND_D2H, &helper);
    if (ss_ast_is_null(copy))
        return 0;
    CXCursor callee =
        ss_ast_is_null(helper) ? function : ss_callgraph_callee(ss_check_graph(ctx), helper);
    const ss_api *copy_api = ss_scope_callee_api(copy);
    CXCursor dst, src;
    ss_copy_kind(callee, copy, copy_api, &dst, &src);
    out->buffers[0] = copied_decl(dst);
    out->holder = holder_of(dst);
    if (!ss_ast_is_null(helper) && !ss_ast_is_null(out->buffers[0]))
        out->buffers[0] = caller_buffer(callee, helper, out->buffers[0]);
    if (!ss_ast_is_null(helper) && !ss_ast_is_null(out->holder))
        out->holder = caller_buffer(callee, helper, out->holder);
    out->partners[0] = clang_getNullCursor();
    if (ss_ast_is_null(out->buffers[0]))
        return 0;
    out->count = 1;
    CXString buffer = clang_getCursorSpelling(out->buffers[0]);
    /* The stream as the wait writes it (a helper's copy may name it by its parameter). */
    char *stream = ss_expr_text(clang_Cursor_getArgument(at, (unsigned)api->stream_arg));
    if (ss_ast_is_null(helper)) {
        out->because =
            ss_xasprintf("the copy into '%s' at line %u is the last work queued on "
                         "'%s' before the wait",
                         clang_getCString(buffer), ss_scope_line(copy), stream ? stream : "...");
    } else {
        char *name = ss_qualified_name(callee);
        char *place = place_from(at, copy);
        out->because = ss_xasprintf("the copy into '%s' that '%s()' queues at %s (called at line "
                                    "%u) is the last work queued on '%s' before the wait",
                                    clang_getCString(buffer), name, place, ss_scope_line(helper),
                                    stream ? stream : "...");
        free(name);
        free(place);
    }
    clang_disposeString(buffer);
    free(stream);
    return 1;
}

/* The buffer of record 'r' that 'stmt' names: the copy's, or the one swapped with it. */
static CXCursor named_buffer(const waited *wd, int r, CXCursor stmt)
{
    if (names_decl(stmt, wd->buffers[r]))
        return wd->buffers[r];
    if (!ss_ast_is_null(wd->partners[r]) && names_decl(stmt, wd->partners[r]))
        return wd->partners[r];
    return clang_getNullCursor();
}

/* Whether 'wd' has a holder (holder_of) for its one buffer. */
static int has_holder(const waited *wd)
{
    enum CXCursorKind k = clang_getCursorKind(wd->holder);
    return wd->count == 1 && (k == CXCursor_VarDecl || k == CXCursor_ParmDecl);
}

/* "passes 'c', which holds 'coef', to 'pack()'" when 'stmt' makes a call of the host (as
 * find_host_call: no CUDA API, no device work) given the holder of the one buffer of 'wd'
 * itself (passes_holder), or the object a local holder points into (outer_holder), whose
 * body the unit has and which names the buffer. Malloc'ed, or NULL. */
static char *holder_read_words(ss_callgraph *graph, CXCursor function, CXCursor at, CXCursor stmt,
                               const waited *wd)
{
    if (!has_holder(wd) || ss_context_does_device_work(graph, stmt))
        return NULL;
    CXCursor holders[2] = {wd->holder, outer_holder(wd->holder)};
    host_call_walk w = {graph, holders[0], clang_getNullCursor(), passes_holder};
    for (int h = 0; h < 2 && ss_ast_is_null(w.found) && !ss_ast_is_null(holders[h]); h++) {
        w.decl = holders[h];
        ss_ast_visit_whole(stmt, stmt, find_host_call, &w);
    }
    if (ss_ast_is_null(w.found))
        return NULL;
    /* the callee's body must be the unit's and name the buffer: a function of another unit
     * given the holder may only touch its other members (a frame counter) */
    CXCursor callee = ss_callgraph_callee(graph, w.found);
    if (ss_ast_is_null(callee) || !names_decl(ss_ast_body(callee), wd->buffers[0]))
        return NULL;
    CXCursor named = clang_getCursorReferenced(w.found);
    char *called = !ss_ast_is_null(named) ? ss_qualified_name(named) : NULL;
    CXString holder = clang_getCursorSpelling(w.decl);
    CXString buffer = clang_getCursorSpelling(wd->buffers[0]);
    char *words = called ? ss_xasprintf("passes '%s', which holds '%s', to '%s()'",
                                        clang_getCString(holder), clang_getCString(buffer), called)
                         : NULL;
    clang_disposeString(buffer);
    clang_disposeString(holder);
    free(called);
    return words;
}

/* How many event records read_after passes over besides MAX_BETWEEN. */
enum { MAX_BOOKKEEPING = 2 };

/* Whether a statement is host bookkeeping that touches no copied data: it makes calls, each an
 * event record (an optional timer's) or a call that queues no device work and is not given the
 * holder of the buffer (a log line, a timer's stop); no loop, no launch. */
typedef struct bookkeeping_walk {
    ss_callgraph *graph;
    const waited *wd;
    int calls, records, other;
} bookkeeping_walk;

static enum CXChildVisitResult find_not_bookkeeping(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    bookkeeping_walk *w = data;
    if (ss_scope_is_loop(c) || ss_scope_is_launch(c)) {
        w->other = 1;
        return CXChildVisit_Break;
    }
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    w->calls++;
    const ss_api *api = ss_scope_callee_api(c);
    if (api && api->klass == SS_CLASS_EVENT_RECORD) {
        w->records++;
        return CXChildVisit_Recurse;
    }
    w->other = ss_context_call_enqueues(w->graph, c, api);
    CXCursor outer = has_holder(w->wd) ? outer_holder(w->wd->holder) : clang_getNullCursor();
    for (int i = 0, n = clang_Cursor_getNumArguments(c); i < n && !w->other; i++) {
        CXCursor arg = clang_Cursor_getArgument(c, (unsigned)i);
        w->other = has_holder(w->wd) && (passes_holder(arg, w->wd->holder) ||
                                         (!ss_ast_is_null(outer) && passes_holder(arg, outer)));
    }
    return w->other ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static int is_bookkeeping(ss_callgraph *graph, CXCursor stmt, const waited *wd, int *records)
{
    bookkeeping_walk w = {graph, wd, 0, 0, 0};
    ss_ast_visit_whole(stmt, stmt, find_not_bookkeeping, &w);
    *records = w.records;
    return w.calls > 0 && !w.other;
}

/* read_words for the buffers of 'wd' in 'stmt', when it names them all (data the host then
 * sends back to the device, sorted or filtered, is needed as much: a round trip a device-side
 * step would save is a rewrite). Malloc'ed, or NULL. */
static char *named_read_words(ss_callgraph *graph, CXCursor function, CXCursor at, CXCursor stmt,
                              CXCursor decl, const waited *wd)
{
    int every = 1;
    for (int r = 1; r < wd->count && every; r++)
        every = !ss_ast_is_null(named_buffer(wd, r, stmt));
    return every ? read_words(graph, stmt, decl) : NULL;
}

/* How a statement after 'stmts[index]' (up to MAX_BETWEEN, only waits doing device work
 * between) reads the buffers of 'wd' as a whole, in words (read_words: "reads 'h' in a loop");
 * '*read' receives the statement's index. Up to MAX_BOOKKEEPING statements of bookkeeping that
 * queue an event record (is_bookkeeping: an optional timer's), and as many empty statements,
 * are passed over besides; where no
 * statement names the buffers, the first statement that is no bookkeeping (a log line, a timer
 * call, an event record) may be a call given the buffer's holder (holder_read_words: 'pack(c)'
 * after a copy into 'c->coef'). NULL when none reads them. */
static char *read_after(ss_callgraph *graph, CXCursor function, CXCursor at, const CXCursor *stmts,
                        unsigned n, unsigned index, const waited *wd, unsigned *read)
{
    char *words = NULL;
    unsigned kept[MAX_BOOKKEEPING], kept_count = 0, first = 0, empty = 0;
    for (unsigned s = index + 1;
         wd->count > 0 && s < n && s <= index + MAX_BETWEEN + kept_count + empty; s++) {
        /* The ';' after a macro that expands to a whole 'if (...) { ... }'. */
        if (clang_getCursorKind(stmts[s]) == CXCursor_NullStmt && empty < MAX_BOOKKEEPING) {
            empty++;
            continue;
        }
        CXCursor decl = named_buffer(wd, 0, stmts[s]);
        if (!ss_ast_is_null(decl)) {
            words = named_read_words(graph, function, at, stmts[s], decl, wd);
            *read = s;
            break;
        }
        int records = 0, aside = is_bookkeeping(graph, stmts[s], wd, &records);
        if (aside && records > 0 && kept_count < MAX_BOOKKEEPING) {
            kept[kept_count++] = s; /* an event record: not counted */
            continue;
        }
        first = first == 0 && !aside ? s : first;
        if (!ss_context_is_wait(stmts[s]) && ss_context_does_device_work(graph, stmts[s]))
            break;
    }
    if (words == NULL && first > 0) {
        words = holder_read_words(graph, function, at, stmts[first], wd);
        *read = first;
    }
    /* The last bookkeeping passed over before the read, named. */
    for (unsigned k = kept_count; words && k-- > 0;) {
        if (kept[k] < *read) {
            char *past = ss_xasprintf("%s, past line %u, which only records an event", words,
                                      ss_scope_line(stmts[kept[k]]));
            free(words);
            words = past;
            break;
        }
    }
    return words;
}

/* ------------------------------------------------------------------------------------------
 * A wait in a function that only waits ('void sync() { check(cudaStreamSynchronize(s_)); }'):
 * each call of it from a loop is the wait, and the copy it waits for is made right before the
 * call, by the caller or by a function the caller calls (its last device work). */

/* How many calls of such a function are looked at. */
enum { MAX_WRAPPER_CALLS = 16 };

/* Whether a call in 'c' may queue device work through a library or another unit. */
static enum CXChildVisitResult find_library_work(CXCursor c, CXCursor parent, CXClientData data)
{
    ss_callgraph *graph = data;
    if (clang_getCursorKind(c) == CXCursor_CallExpr && ss_scope_callee_api(c) == NULL &&
        !ss_scope_is_launch(c) && ss_ast_is_null(ss_callgraph_callee(graph, c)) &&
        !ss_context_wraps_api(c) && ss_context_library_enqueues(c))
        return CXChildVisit_Break;
    return CXChildVisit_Recurse;
}

int ss_context_queues_work(ss_callgraph *graph, CXCursor stmt)
{
    if (ss_context_does_device_work(graph, stmt))
        return 1;
    return find_library_work(stmt, stmt, graph) == CXChildVisit_Break ||
           clang_visitChildren(stmt, find_library_work, graph) != 0;
}

/* Whether the function 'function' only waits: its body has no loop and queues no device work
 * (a stream or device-wide wait, an error check, a return). */
static enum CXChildVisitResult find_loop(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    (void)data;
    return ss_scope_is_loop(c) ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static int only_waits(ss_callgraph *graph, CXCursor function)
{
    CXCursor body = ss_ast_body(function);
    return !ss_ast_is_null(body) && clang_visitChildren(body, find_loop, NULL) == 0 &&
           !ss_context_queues_work(graph, body);
}

/* The calls in 'stmt' that queue device work, counted (a copy's arguments left out); the last
 * copy among them in 'copy'. */
typedef struct work_count {
    ss_callgraph *graph;
    int count;
    CXCursor copy;
} work_count;

static enum CXChildVisitResult count_work(CXCursor c, CXCursor parent, CXClientData data)
{
    work_count *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    if (api && api->klass == SS_CLASS_COPY && api->dst_arg >= 0) {
        /* The calls in its arguments compute them (a getter of the stream). */
        w->copy = c;
        w->count++;
        return CXChildVisit_Continue;
    }
    if (ss_context_call_enqueues(w->graph, c, api) ||
        (api == NULL && !ss_scope_is_launch(c) &&
         ss_ast_is_null(ss_callgraph_callee(w->graph, c)) && !ss_context_wraps_api(c) &&
         ss_context_library_enqueues(c)))
        w->count++;
    return CXChildVisit_Recurse;
}

/* count_work over 'stmt' and what it holds. */
static work_count count_in(ss_callgraph *graph, CXCursor stmt)
{
    work_count w = {graph, 0, clang_getNullCursor()};
    ss_ast_visit_whole(stmt, stmt, count_work, &w);
    return w;
}

/* How many statements after its copy to the host a function's tail may hold that call only
 * functions of another unit (a profiler's stop), as between a readback and its wait. */
enum { MAX_TAIL_APART = 2 };

/* Whether a call in 'c' is given a stream, or 'c' leaves ('return', 'break', 'goto'...) or
 * holds a lambda: work queued on that stream, a way out that skips the copy's wait, or code that
 * runs elsewhere. Sets '*refused'. */
static enum CXChildVisitResult find_not_apart(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    int *refused = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    *refused = k == CXCursor_LambdaExpr || k == CXCursor_ReturnStmt || k == CXCursor_BreakStmt ||
               k == CXCursor_ContinueStmt || k == CXCursor_GotoStmt || k == CXCursor_CXXThrowExpr;
    int n = k == CXCursor_CallExpr ? clang_Cursor_getNumArguments(c) : 0;
    for (int i = 0; i < n && !*refused; i++) {
        *refused =
            ss_check_is_stream_type(clang_getCursorType(clang_Cursor_getArgument(c, (unsigned)i)));
    }
    return *refused ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether 'stmt', after a function's last copy to the host, stands apart from it: no copy, no
 * device work that lint sees (a launch, an API call that enqueues, a function of the unit that
 * does), no call given a stream and no way out; calls of another unit's functions only, whose
 * host work lint cannot tell from queued work (as between a readback and its wait, inherent.c). */
static int tail_apart(ss_callgraph *graph, CXCursor stmt, const work_count *w)
{
    if (!ss_ast_is_null(w->copy) || ss_context_does_device_work(graph, stmt))
        return 0;
    int refused = 0;
    ss_ast_visit_whole(stmt, stmt, find_not_apart, &refused);
    return !refused;
}

/* Whether 'c' holds a way out of its function ('return', 'goto'), outside the lambdas it holds.
 * A 'throw' leaves by an error path, which does not reach the caller's next statement. Sets
 * '*leaves'. */
/* What leaves a block: 'return' and 'goto' always; 'break' outside a loop or 'switch' of its
 * own, 'continue' outside a loop of its own (out of a 'do { } while (0)'; a 'switch' does not
 * hold it); 'throw' inside a 'try' of the function (caught there, past the statements after
 * it). */
typedef struct way_out {
    int leaves;
    int in_try;
    int nested;    /* inside a loop below the block's statement */
    int in_switch; /* inside a 'switch' below it (a 'continue' there still leaves) */
} way_out;

static enum CXChildVisitResult find_way_out(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    way_out *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt ||
        k == CXCursor_CXXForRangeStmt || k == CXCursor_SwitchStmt) {
        int sw = k == CXCursor_SwitchStmt;
        way_out inner = {0, w->in_try, w->nested || !sw, w->in_switch || sw};
        clang_visitChildren(c, find_way_out, &inner);
        w->leaves = inner.leaves;
        return w->leaves ? CXChildVisit_Break : CXChildVisit_Continue;
    }
    w->leaves = k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt ||
                k == CXCursor_IndirectGotoStmt || (!w->nested && k == CXCursor_ContinueStmt) ||
                (!w->nested && !w->in_switch && k == CXCursor_BreakStmt) ||
                (w->in_try && k == CXCursor_CXXThrowExpr);
    return w->leaves ? CXChildVisit_Break : CXChildVisit_Recurse;
}

int ss_context_may_leave(CXCursor stmt)
{
    way_out w = {0, 0, 0, 0};
    ss_ast_visit_whole(stmt, stmt, find_way_out, &w);
    return w.leaves;
}

/* Whether a statement of 'block' before its statement 'stmt' may leave the block: then a way
 * out skips 'stmt' (a callee that returns before its copy when it has nothing to evaluate leaves
 * the caller's wait waiting for the earlier work, with nothing read back). 'in_try': the block
 * is inside a 'try' of the function, where a 'throw' leaves it too. */
static int leaves_before(CXCursor block, CXCursor stmt, int in_try)
{
    way_out w = {0, in_try, 0, 0};
    unsigned n = ss_ast_child_count(block);
    for (unsigned i = 0; i < n && !w.leaves; i++) {
        CXCursor before = ss_ast_child(block, i);
        if (ss_ast_same_node(before, stmt))
            break;
        ss_ast_visit_whole(before, before, find_way_out, &w);
    }
    return w.leaves;
}

/* Whether 'type' is what '&&' and '||' give: bool in C++, int in C. */
static int is_truth_type(CXCursor node)
{
    enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(node)).kind;
    if (k != CXType_Int)
        return k == CXType_Bool;
    /* In C++ '&&' and '||' give a bool: an int is an assignment's or arithmetic's
     * ('(ret = (fun)) != 0' in an error-checking macro's body). In C they give an int: a unit
     * whose main file is a '.c' may be C. */
    CXString name = clang_getTranslationUnitSpelling(clang_Cursor_getTranslationUnit(node));
    const char *file = clang_getCString(name);
    size_t len = file ? strlen(file) : 0;
    int c = len < 2 || strcmp(file + len - 2, ".c") == 0 || strcmp(file + len - 2, ".C") == 0;
    clang_disposeString(name);
    return c;
}

/* Whether the child 'child' of 'node' runs whenever 'node' does: the condition of an 'if' or a
 * '?:' (not a branch), the left operand of '&&' and '||' (not the right; an operator written in
 * a macro's body, which cannot be read, counts as one of them when its type is theirs: a bool,
 * or in C an int), no part
 * of a 'for', 'while', range-for or 'switch' (the body may not run) nor of a lambda; a statement
 * of a block that no statement before it may leave. */
static int runs_with_parent(CXCursor node, CXCursor child, int in_try)
{
    char op[8];
    int first = ss_ast_same_node(ss_ast_child(node, 0), child);
    switch (clang_getCursorKind(node)) {
    case CXCursor_IfStmt:
    case CXCursor_ConditionalOperator:
        return first;
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_CXXForRangeStmt:
    case CXCursor_SwitchStmt:
    case CXCursor_LambdaExpr:
        return 0;
    case CXCursor_BinaryOperator:
        if (first)
            return 1;
        if (ss_ast_binary_op(node, op, sizeof op) == 0)
            return strcmp(op, "&&") != 0 && strcmp(op, "||") != 0;
        return !is_truth_type(node);
    case CXCursor_CompoundStmt:
        return !leaves_before(node, child, in_try);
    default:
        return 1;
    }
}

/* How deep inside a statement runs_whenever follows a copy. */
enum { MAX_COPY_DEPTH = 64 };

/* Whether 'target', inside the statement 'stmt', runs whenever 'stmt' runs (runs_with_parent at
 * each node on the way down): 'if (n > 0) cudaMemcpyAsync(...)' copies on some ways only, and a
 * wait after it may wait for earlier work with nothing read back. An error check's condition,
 * 'if ((e = cudaMemcpyAsync(...)) != 0)', runs. */
int ss_context_runs_whenever(CXCursor stmt, CXCursor target)
{
    if (ss_ast_same_node(stmt, target))
        return 1;
    CXCursor path[MAX_COPY_DEPTH];
    long depth = ss_scope_path(stmt, target, NULL, path, MAX_COPY_DEPTH);
    if (depth < 0 || depth > MAX_COPY_DEPTH)
        return 0;
    CXCursor parent = stmt;
    int in_try = clang_getCursorKind(stmt) == CXCursor_CXXTryStmt;
    for (long d = 0; d <= depth; d++) {
        CXCursor child = d < depth ? path[d] : target;
        if (!runs_with_parent(parent, child, in_try))
            return 0;
        in_try |= clang_getCursorKind(child) == CXCursor_CXXTryStmt;
        parent = child;
    }
    return 1;
}

/* The last device work of 'function' when it is one copy to the host: going back over the
 * statements of its body, those that queue nothing aside (and at most MAX_TAIL_APART that stand
 * apart from the copy, tail_apart, into 'apart', '*apart_count' of them), the first that queues
 * work ('synchronous': or holds a copy, which may wait rather than queue) queues one copy to the
 * host (or of cudaMemcpyDefault's kind; not of one value), that runs whenever its statement does
 * (runs_whenever), and no statement before it may return (leaves_before). '*index' receives its
 * statement's index in the body. A null cursor when there is none. */
static CXCursor last_copy_out(ss_check_ctx *ctx, CXCursor function, int synchronous,
                              CXCursor *apart, unsigned *apart_count, unsigned *index)
{
    ss_callgraph *graph = ss_check_graph(ctx);
    CXCursor body = ss_ast_body(function);
    unsigned n = ss_ast_is_null(body) ? 0 : ss_ast_child_count(body);
    *apart_count = 0;
    for (unsigned i = n; i-- > 0;) {
        CXCursor stmt = ss_ast_child(body, i);
        work_count w = count_in(graph, stmt);
        if ((!synchronous || ss_ast_is_null(w.copy)) && !ss_context_queues_work(graph, stmt))
            continue;
        if (*apart_count < MAX_TAIL_APART && tail_apart(graph, stmt, &w)) {
            apart[(*apart_count)++] = stmt;
            continue;
        }
        if (w.count != 1 || ss_ast_is_null(w.copy) || leaves_before(body, stmt, 0) ||
            !ss_context_runs_whenever(stmt, w.copy))
            break;
        const ss_api *api = ss_scope_callee_api(w.copy);
        CXCursor dst, src;
        int kind = ss_copy_kind(function, w.copy, api, &dst, &src);
        if ((kind != SS_COPY_KIND_D2H && kind != SS_COPY_KIND_DEFAULT) ||
            ss_check_copies_one_value(ctx, w.copy, api))
            break;
        *index = i;
        return w.copy;
    }
    return clang_getNullCursor();
}

/* The index of the parameter of 'function' that its last device work (last_copy_out) copies to
 * the host into: the copy's destination is (the storage of) a parameter ('out', 'out.data()',
 * 'out + i') that the statements standing apart after it do not name. '*copy' receives the copy.
 * Returns -1 when there is none. */
static int copies_out_last(ss_check_ctx *ctx, CXCursor function, CXCursor *copy)
{
    CXCursor apart[MAX_TAIL_APART];
    unsigned apart_count = 0, index = 0;
    CXCursor last = last_copy_out(ctx, function, 0, apart, &apart_count, &index);
    if (ss_ast_is_null(last))
        return -1;
    CXCursor dst, src;
    ss_copy_kind(function, last, ss_scope_callee_api(last), &dst, &src);
    CXCursor param = copied_decl(dst);
    if (clang_getCursorKind(param) != CXCursor_ParmDecl)
        return -1;
    for (unsigned a = 0; a < apart_count; a++) {
        if (names_decl(apart[a], param))
            return -1;
    }
    int parameter = ss_context_parameter_index(function, param);
    if (parameter >= 0)
        *copy = last;
    return parameter;
}

/* The buffer the statement 'stmt' (before a call of a function that only waits) last copies to
 * the host: a copy in it that runs whenever it runs (not of one value; device-to-host, or
 * cudaMemcpyDefault's kind, whose destination the caller then reads on the host: host memory),
 * or a call of a function of the unit whose last device work copies to the host into one of its
 * parameters, given the buffer there. Fills 'wd'; returns 1, or 0 when there is none. */
static int copy_in_statement(ss_check_ctx *ctx, CXCursor function, CXCursor stmt, waited *wd)
{
    ss_callgraph *graph = ss_check_graph(ctx);
    work_count w = count_in(graph, stmt);
    if (w.count != 1)
        return 0;
    if (!ss_ast_is_null(w.copy)) {
        if (!ss_context_runs_whenever(stmt, w.copy))
            return 0;
        const ss_api *api = ss_scope_callee_api(w.copy);
        CXCursor dst, src;
        int kind = ss_copy_kind(function, w.copy, api, &dst, &src);
        if ((kind != SS_COPY_KIND_D2H && kind != SS_COPY_KIND_DEFAULT) ||
            ss_check_copies_one_value(ctx, w.copy, api))
            return 0;
        wd->buffers[0] = copied_decl(dst);
        wd->partners[0] = clang_getNullCursor();
        wd->count = !ss_ast_is_null(wd->buffers[0]);
        if (wd->count) {
            CXString buffer = clang_getCursorSpelling(wd->buffers[0]);
            wd->because = ss_xasprintf("the copy into '%s' comes right before it (line %u)",
                                       clang_getCString(buffer), ss_scope_line(w.copy));
            clang_disposeString(buffer);
        }
        return wd->count;
    }
    /* The one call that queues work, of a function of the unit. */
    CXCursor call = ss_ast_strip(stmt);
    if (clang_getCursorKind(call) != CXCursor_CallExpr)
        return 0;
    CXCursor callee = ss_callgraph_callee(graph, call);
    CXCursor copy;
    int param = ss_ast_is_null(callee) ? -1 : copies_out_last(ctx, callee, &copy);
    if (param < 0 || clang_Cursor_getNumArguments(call) <= param)
        return 0;
    wd->buffers[0] = copied_decl(clang_Cursor_getArgument(call, (unsigned)param));
    wd->partners[0] = clang_getNullCursor();
    wd->count = !ss_ast_is_null(wd->buffers[0]);
    if (wd->count == 0)
        return 0;
    char *name = ss_qualified_name(callee);
    char *place = ss_callgraph_place(copy);
    CXString buffer = clang_getCursorSpelling(wd->buffers[0]);
    wd->because = ss_xasprintf("'%s()' before it ends by copying into '%s' (%s)", name,
                               clang_getCString(buffer), place);
    clang_disposeString(buffer);
    free(name);
    free(place);
    return 1;
}

/* For ss_callgraph_reached_unless: the calls of the function that only waits; a call of it is
 * skipped when the statement before it copies to the host and one soon after reads the buffer
 * as a whole (the words of the first in 'words'). */
typedef struct wrapper_calls {
    ss_check_ctx *ctx;
    CXCursor wrapper;
    CXCursor calls[MAX_WRAPPER_CALLS], callers[MAX_WRAPPER_CALLS];
    long count;
    char *words; /* malloc'ed */
} wrapper_calls;

CXCursor ss_context_caller_of(const CXCursor *calls, const CXCursor *callers, long count,
                              CXCursor call)
{
    for (long i = 0; i < count; i++) {
        if (ss_ast_same_node(calls[i], call))
            return callers[i];
    }
    return clang_getNullCursor();
}

int ss_context_every_loop_call(ss_callgraph *graph, CXCursor function, CXCursor *calls,
                               CXCursor *callers, size_t max, long *count,
                               int (*skip)(CXCursor from, CXCursor call, void *data), void *data)
{
    *count = ss_callgraph_calls_of(graph, function, calls, callers, max);
    return *count > 0 && *count <= (long)max &&
           !ss_callgraph_reached_unless(graph, function, SS_SCOPE_ENQUEUES, skip, data);
}

static int skip_read_after(CXCursor from, CXCursor call, void *data)
{
    (void)from;
    wrapper_calls *wc = data;
    CXCursor function =
        ss_context_caller_of(wc->calls, wc->callers,
                             wc->count < MAX_WRAPPER_CALLS ? wc->count : MAX_WRAPPER_CALLS, call);
    if (ss_ast_is_null(function))
        return 0;
    CXCursor stmts[256];
    unsigned index = 0;
    unsigned n = ss_context_statements_around(function, call, stmts, 256, &index);
    ss_callgraph *graph = ss_check_graph(wc->ctx);
    /* The call is the statement's only work that the unit knows of: the wait (a getter of
     * another unit may name the stream: 'ctx->Stream().sync()'). */
    if (n == 0 || index == 0 || ss_context_does_device_work(graph, stmts[index]))
        return 0;
    waited wd = {0};
    char *use = NULL;
    unsigned read = 0;
    if (copy_in_statement(wc->ctx, function, stmts[index - 1], &wd))
        use = read_after(graph, function, call, stmts, n, index, &wd, &read);
    if (use && wc->words == NULL) {
        char *place = ss_callgraph_place(call);
        wc->words = ss_xasprintf("the call at %s: line %u %s, and %s", place,
                                 ss_scope_line(stmts[read]), use, wd.because);
        free(place);
    }
    int skipped = use != NULL;
    free(wd.because);
    free(use);
    return skipped;
}

/* "inherent: every call from a loop waits for a copy to the host whose data the caller needs next
 * (...)" when the wait is in a function that only waits (the check context's, not a lambda), and
 * every chain of calls from a loop that enqueues device work down to it ends with a call of it that
 * follows a copy to the host whose buffer a statement soon after reads as a whole (as for a wait
 * written in the loop). */
static char *wrapper_read_words(ss_check_ctx *ctx)
{
    CXCursor wrapper = ss_scope_outer_function(ctx->function);
    ss_callgraph *graph = ss_check_graph(ctx);
    if (!ss_ast_same_node(wrapper, ctx->function) || !only_waits(graph, wrapper))
        return NULL;
    wrapper_calls wc = {.ctx = ctx, .wrapper = wrapper};
    char *words = NULL;
    if (ss_context_every_loop_call(graph, wrapper, wc.calls, wc.callers, MAX_WRAPPER_CALLS,
                                   &wc.count, skip_read_after, &wc) &&
        wc.words)
        words = ss_xasprintf("inherent: every call from a loop waits for a copy to the host whose "
                             "data the caller needs next (%s)",
                             wc.words);
    free(wc.words);
    return words;
}

/* "inherent: the next statement needs the value (line 29 reads 'h' in a loop): ..." when a
 * statement after stmts[index] reads the buffers of 'wd' (read_after), with why the wait is for
 * them; NULL otherwise. Frees wd->because. Malloc'ed. */
static char *needed_after(ss_check_ctx *ctx, CXCursor at, const CXCursor *stmts, unsigned n,
                          unsigned index, waited *wd)
{
    unsigned read = 0;
    char *use = read_after(ss_check_graph(ctx), ctx->function, at, stmts, n, index, wd, &read);
    char *words =
        use ? ss_xasprintf("inherent: the next statement needs the value (line %u %s)%s%s",
                           ss_scope_line(stmts[read]), use, wd->because ? ": " : "",
                           wd->because ? wd->because : "")
            : NULL;
    free(use);
    free(wd->because);
    wd->because = NULL;
    return words;
}

/* needed_after for the wait stmts[index] where it waits for a launch whose kernel writes pinned
 * host memory directly (ss_context_pinned_writer): the host reads what the kernel wrote as it
 * reads a copy's buffer; not one value (ss_context_pinned_one_value: a flag or a count, as a
 * copy of one value). Malloc'ed, or NULL. */
static char *pinned_read_words(ss_check_ctx *ctx, CXCursor at, const CXCursor *stmts, unsigned n,
                               unsigned index)
{
    CXCursor memory[SS_CONTEXT_MAX_PINNED];
    size_t count = 0;
    CXCursor launch = ss_context_pinned_writer(ctx, stmts, index, memory, &count);
    char *kernel = count > 0 ? ss_scope_kernel_name(launch) : NULL;
    char *words = NULL;
    for (size_t m = 0; m < count && words == NULL; m++) {
        if (ss_context_pinned_one_value(ctx, memory[m]))
            continue;
        waited wd = {1, {memory[m]}, {clang_getNullCursor()}, NULL, clang_getNullCursor()};
        CXString name = clang_getCursorSpelling(memory[m]);
        wd.because =
            ss_xasprintf("kernel '%s' launched at line %u writes '%s', pinned host "
                         "memory, and the wait waits for it",
                         kernel ? kernel : "...", ss_scope_line(launch), clang_getCString(name));
        clang_disposeString(name);
        words = needed_after(ctx, at, stmts, n, index, &wd);
    }
    free(kernel);
    return words;
}

/* ------------------------------------------------------------------------------------------
 * A copy to the host that ends a function ('transformer()' copying the logits back), where every
 * call of the function in the unit is followed by a read of the buffer in the caller (the
 * sampler reads the logits next): as for the same copy written in the caller's loop. */

/* Whose member the buffer that 'dst' (in 'function') names is, as its callers can name it: for
 * 's->logits' or 's.logits', the parameter or global 's', in '*base'; a null cursor for a
 * variable or parameter itself ('out', 'h_scores'). Returns 0 when no caller can name it: a
 * member of a local, of 'this', of another member ('a.b.c') or of a call's result. */
static int buffer_base(CXCursor function, CXCursor dst, CXCursor *base)
{
    CXCursor e = ss_ast_strip(dst);
    *base = clang_getNullCursor();
    for (int hops = 0; hops < 6 && !ss_ast_is_null(e); hops++) {
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k == CXCursor_DeclRefExpr)
            return 1;
        if (k == CXCursor_MemberRefExpr &&
            clang_getCursorKind(clang_getCursorReferenced(e)) == CXCursor_FieldDecl) {
            CXCursor of = ss_ast_strip(ss_ast_child(e, 0));
            if (clang_getCursorKind(of) != CXCursor_DeclRefExpr)
                return 0;
            *base = clang_getCursorReferenced(of);
            return clang_getCursorKind(*base) == CXCursor_ParmDecl || !local_of(*base, function);
        }
        if (k == CXCursor_UnaryOperator || k == CXCursor_ArraySubscriptExpr ||
            k == CXCursor_BinaryOperator || k == CXCursor_MemberRefExpr || k == CXCursor_CallExpr)
            e = ss_ast_strip(ss_ast_child(e, 0));
        else
            break;
    }
    return 0;
}

/* Whether 'c' holds the member 'field' of the variable 'object' ('st.logits', 'st->logits'). */
typedef struct member_walk {
    CXCursor field, object;
    int found;
} member_walk;

static enum CXChildVisitResult find_member_of(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    member_walk *w = data;
    if (clang_getCursorKind(c) == CXCursor_MemberRefExpr &&
        clang_equalCursors(clang_getCursorReferenced(c), w->field)) {
        CXCursor of = ss_ast_strip(ss_ast_child(c, 0));
        w->found = clang_getCursorKind(of) == CXCursor_DeclRefExpr &&
                   clang_equalCursors(clang_getCursorReferenced(of), w->object);
    }
    return w->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether the call 'call' (made in 'caller') of 'function', which ends with a copy into 'buffer'
 * (a member of 'base' where that is not a null cursor, buffer_base), is a statement of its own
 * that a statement soon after follows with a read of the buffer as the caller names it
 * (caller_buffer, read_after; for a member, of the variable the caller gives or the global).
 * The first such read's words go to '*words' ("the call at ai.cu:24: line 25 passes ..."). */
static int read_after_call(ss_check_ctx *ctx, CXCursor function, CXCursor call, CXCursor caller,
                           CXCursor buffer, CXCursor base, char **words)
{
    CXCursor stmts[256];
    unsigned index = 0;
    unsigned n = ss_context_statements_around(caller, call, stmts, 256, &index);
    if (n == 0 || !ss_ast_same_node(ss_ast_strip(stmts[index]), call))
        return 0;
    member_walk w = {buffer, clang_getNullCursor(), 0};
    if (!ss_ast_is_null(base)) {
        w.object = caller_buffer(function, call, base);
        if (ss_ast_is_null(w.object))
            return 0;
    }
    waited wd = {1,
                 {caller_buffer(function, call, buffer)},
                 {clang_getNullCursor()},
                 NULL,
                 clang_getNullCursor()};
    if (ss_ast_is_null(wd.buffers[0]))
        return 0;
    unsigned read = 0;
    char *use = read_after(ss_check_graph(ctx), caller, call, stmts, n, index, &wd, &read);
    if (use && !ss_ast_is_null(base))
        ss_ast_visit_whole(stmts[read], stmts[read], find_member_of, &w);
    int found = use != NULL && (ss_ast_is_null(base) || w.found);
    if (found && *words == NULL) {
        char *place = ss_callgraph_place(call);
        *words = ss_xasprintf("the call at %s: line %u %s", place, ss_scope_line(stmts[read]), use);
        free(place);
    }
    free(use);
    return found;
}

/* "inherent: the next statement needs the value: 'step()' ends with this copy into 'scores', and
 * every call of it in the unit is followed by a read of it (...)" when the copy 'at' is the last
 * device work of the check context's function (last_copy_out; not in a loop of it, nor in a
 * lambda), nothing after it in the function names the buffer, and every call of the function in
 * the unit (named nowhere else: its address not taken, no global's initializer) reads the buffer
 * next (read_after_call). Malloc'ed, or NULL. */
static char *caller_read_words(ss_check_ctx *ctx, CXCursor at)
{
    CXCursor function = ss_scope_outer_function(ctx->function);
    CXCursor apart[MAX_TAIL_APART], dst, src, base;
    unsigned apart_count = 0, index = 0;
    if (!ss_ast_same_node(function, ctx->function) ||
        !ss_ast_is_null(ss_scope_enclosing_loop(function, at)) ||
        !ss_ast_same_node(last_copy_out(ctx, function, 1, apart, &apart_count, &index), at))
        return NULL;
    ss_copy_kind(function, at, ss_scope_callee_api(at), &dst, &src);
    CXCursor buffer = copied_decl(dst), body = ss_ast_body(function);
    if (ss_ast_is_null(buffer) || !buffer_base(function, dst, &base))
        return NULL;
    for (unsigned i = index + 1, n = ss_ast_child_count(body); i < n; i++) {
        if (names_decl(ss_ast_child(body, i), buffer))
            return NULL;
    }
    ss_callgraph *graph = ss_check_graph(ctx);
    CXCursor calls[MAX_WRAPPER_CALLS], callers[MAX_WRAPPER_CALLS];
    long count = ss_callgraph_calls_of(graph, function, calls, callers, MAX_WRAPPER_CALLS);
    char *use = NULL;
    int every =
        count > 0 && count <= MAX_WRAPPER_CALLS && !ss_callgraph_named_elsewhere(graph, function);
    for (long i = 0; i < count && every; i++)
        every = read_after_call(ctx, function, calls[i], callers[i], buffer, base, &use);
    char *words = NULL;
    if (every) {
        char *name = ss_qualified_name(function);
        CXString spelled = clang_getCursorSpelling(buffer);
        words = ss_xasprintf("inherent: the next statement needs the value: '%s()' ends with this "
                             "copy into '%s', and every call of it in the unit is followed by a "
                             "read of it (%s)",
                             name, clang_getCString(spelled), use);
        clang_disposeString(spelled);
        free(name);
    }
    free(use);
    return words;
}

char *ss_context_host_read_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at)
{
    if (rule != SS_RULE_SYNC_COPY_IN_PIPELINE && rule != SS_RULE_SYNC_IN_LOOP)
        return NULL;
    CXCursor stmts[256];
    unsigned index = 0;
    unsigned n = ss_context_statements_around(ss_scope_outer_function(ctx->function), at, stmts,
                                              256, &index);
    if (n == 0)
        return NULL;
    waited wd = {0};
    CXCursor copy = the_copy(ctx, rule, at, stmts, index);
    const ss_api *api = ss_ast_is_null(copy) ? NULL : ss_scope_callee_api(copy);
    if (api && api->dst_arg >= 0) {
        CXCursor dst, src;
        if (ss_copy_kind(ctx->function, copy, api, &dst, &src) != SS_COPY_KIND_D2H)
            return NULL;
        wd.buffers[0] = copied_decl(dst);
        wd.partners[0] = clang_getNullCursor();
        wd.holder = holder_of(dst);
        wd.count = !ss_ast_is_null(wd.buffers[0]);
    } else if (api == NULL && rule == SS_RULE_SYNC_IN_LOOP && !event_copies(ctx, at, &wd) &&
               !stream_copy(ctx, at, &wd)) {
        char *words = pinned_read_words(ctx, at, stmts, n, index);
        return words ? words : wrapper_read_words(ctx);
    }
    char *words = needed_after(ctx, at, stmts, n, index, &wd);
    if (words == NULL && rule == SS_RULE_SYNC_COPY_IN_PIPELINE)
        words = caller_read_words(ctx, at);
    return words;
}
