/* drained.c: a copy or wait where the device has nothing queued, because a device-wide wait
 * (or a synchronous copy, or one from the device into pageable memory on the legacy stream,
 * which waits for all work where the unit creates its streams blocking, or creates none and
 * names none but the legacy one) drained it and nothing was queued since, on every way the
 * unit reaches the call; a readback that a device-wide wait follows with nothing queued
 * between; and a wait whose next statement, a Thrust algorithm with a synchronous policy or a
 * cuBLAS call that returns its result into host memory, waits for the same work
 * (context_cases.h). Such a cuBLAS call on a handle of the function's own leaves a drained
 * device drained, and on the legacy stream drains as a synchronous copy does (cublas_flow). */
#include "ast.h"
#include "callgraph.h"
#include "common.h"
#include "context_cases.h"
#include "log.h"
#include "project_facts.h"
#include "scope.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* How far the flow follows calls down into the unit's functions, and up to their callers. */
enum { MAX_CALLEE_DEPTH = 3, MAX_CALLER_DEPTH = 3, MAX_CALLERS = 16 };

/* How many statements one finding's question may flow through (callees and callers followed,
 * loop bodies twice): past it the device counts as busy, a warning kept rather than a run
 * that grows with the product of the unit's fan-outs. Per worker thread. */
enum { FLOW_BUDGET = 200000 };
static _Thread_local long flow_budget;

/* What the device has queued at a point of the program: nothing, because 'by' drained it; or
 * maybe something; or the point is not reached (after a return). */
enum { UNREACHED = -1, BUSY = 0, DRAINED = 1 };

/* Why a synchronous copy between the host and the device waits for all work (ctx->copy_drain). */
typedef enum ss_copy_drain {
    SS_COPY_DRAIN_UNKNOWN = 0,
    SS_COPY_DRAIN_BLOCKING = 1,
    SS_COPY_DRAIN_NO = 2,
    SS_COPY_DRAIN_LEGACY_ONLY = 3
} ss_copy_drain;

typedef struct drain {
    int state;
    CXCursor by;      /* with DRAINED: the call that drained the device */
    int filled;       /* with DRAINED: memsets may have been queued since */
    int fresh;        /* with DRAINED: a drain on every way since the flow began */
    uint64_t assumed; /* with DRAINED: the calls taken for waits it rests on (question's
                       * 'assumed', by index) */
    int aside;        /* with DRAINED: a branch that runs only when a CUDA call failed was left
                       * out since the drain ('aside_at', the 'if' statement) */
    CXCursor aside_at;
    int all_devices; /* with DRAINED: every device, by a join over them (join_loop_flow) */
    CXCursor wide;   /* with DRAINED: the wait for the whole device that drained it, with nothing
                      * but synchronous copies and memsets queued since: no stream holds work
                      * but the legacy one (answered) */
    /* With DRAINED by a cuBLAS call that returns its result to host memory (cublas_flow):
     * 'after_drain' where it found the device drained already (it waited for its own work
     * only); 'copy_like' where the drain rests, as a synchronous copy's on the legacy stream
     * does, on that stream alone (drain_misses). */
    int after_drain, copy_like;
    uint64_t strict; /* with DRAINED: of 'assumed', the calls of other units taken to end
                      * drained (foreign_call_flow) */
} drain;

/* What a finding's question follows: the whole device, or (with 'event' not null) one event,
 * a member of the class 'owner' recorded on 'stream' only. */
typedef struct question {
    ss_callgraph *graph;
    int copies_drain;              /* a synchronous copy waits for all work (ss_copy_drain) */
    int cublas;                    /* what the unit does with cuBLAS handles (ss_cublas_unit) */
    ss_cublas_memo *cublas_memo;   /* what is known of its handles (ctx->cublas_memo) */
    CXCursor event, stream, owner; /* declarations */
    /* Work on the legacy stream leaves the state as it is ('legacy'; 'per_thread': the unit's
     * default stream is per-thread): the question is whether another stream holds work. With
     * 'own_default' too, the stream that leaves it is the unit's default stream, per-thread where
     * the unit compiles so (a memset on another stream makes the device busy, and a Thrust
     * algorithm on the default stream leaves the state too): the stream a Thrust algorithm
     * synchronizes (ss_context_drained_words). */
    int legacy, per_thread, own_default;
    /* Not NULL: a call of a function the unit only declares (ss_project_declared_only) counts
     * as a wait for the whole device, and its USR is added here. */
    ss_assumed_waits *assumed;
    /* Not NULL: a call of a function of another unit (ss_project_foreign_usr) is taken on
     * trust, and added here (foreign_call_flow). */
    ss_foreign_calls *foreign;
    /* Not NULL: set to 1 where a wait for the whole device is reached with work queued
     * (memsets too), that wait into 'waited_at' the first time, for ss_context_waits_own_work.
     * A synchronous copy that drains the device sets nothing: what it waited for is no longer
     * queued at the wait, as the state that the flow carries says. */
    int *waited_busy;
    CXCursor *waited_at;
    /* With 'waited_busy': the call of the followed function's own body being followed into
     * (the wait's way there, for naming the work before it), and that call of the wait found
     * with work queued ('waited_from'; the wait itself where the body makes it). */
    CXCursor *through, *waited_from;
    ss_drain_memo *memo; /* the unit's callee flows (remembered_flow), or NULL */
} question;

/* The gotos a flow followed in its function: each with its label and the state it jumped with
 * (joined over the passes of a loop); 'landed' once the flow reached the label. */
typedef struct goto_record {
    CXCursor at, label;
    drain state;
    int landed;
} goto_record;

typedef struct goto_records {
    goto_record *rows;
    size_t count, cap;
} goto_records;

typedef struct flow {
    const question *q;
    CXCursor function;
    int depth;
    drain now;
    drain returned;       /* the states at the function's return statements, joined */
    int worked;           /* device work was queued on the way */
    const CXCursor *expr; /* the expression being followed (expr_flow), or NULL */
    /* Where the jumps of the statement being followed go, each NULL where the flow does not
     * hold the statement they go to (a loop's body followed on the way down to a call): the
     * states at the breaks of the innermost loop or 'switch', at the continues of the innermost
     * loop; the state where the innermost 'switch' starts (its case labels are entered from
     * there); the gotos followed. */
    drain *breaks, *continues;
    const drain *cases;
    goto_records *gotos;
    int left; /* a jump left the statements followed (a break or continue past them, a throw):
               * LEFT, with LEFT_UNDRAINED where no drain was on every way to it (leave) */
    int return_leaves; /* a return leaves them too (the walk to the next wait, later_drain) */
} flow;

enum { LEFT = 1, LEFT_UNDRAINED = 2 };

/* Notes that a jump leaves the statements the flow follows. */
static void leave(flow *f)
{
    f->left |= LEFT | (f->now.state == DRAINED && f->now.fresh ? 0 : LEFT_UNDRAINED);
}

/* The question for the whole device, with 'copies_drain' (ss_copy_drain); the rest unset. */
static question device_question(ss_check_ctx *ctx, int copies_drain)
{
    question q;
    memset(&q, 0, sizeof q);
    q.graph = ss_check_graph(ctx);
    q.copies_drain = copies_drain;
    q.cublas = ss_cublas_unit(ctx);
    q.cublas_memo = ctx->cublas_memo;
    q.memo = ctx->drain_memo;
    q.event = q.stream = q.owner = clang_getNullCursor();
    return q;
}

static drain state_of(int state, CXCursor by, int fresh, uint64_t assumed)
{
    return (drain){state, by, 0, fresh, assumed, 0, clang_getNullCursor(), 0, clang_getNullCursor(),
                   0,     0,  0};
}

static drain busy(void)
{
    return state_of(BUSY, clang_getNullCursor(), 0, 0);
}

static drain unreached(void)
{
    return state_of(UNREACHED, clang_getNullCursor(), 0, 0);
}

/* Drained by the call 'by' (a null cursor: assumed at a start), on every way since the flow
 * began where 'fresh', resting on the waits 'assumed'. */
static drain drained(CXCursor by, int fresh, uint64_t assumed)
{
    return state_of(DRAINED, by, fresh, assumed);
}

static drain join(drain a, drain b)
{
    if (a.state == UNREACHED)
        return b;
    if (b.state == UNREACHED)
        return a;
    if (a.state == DRAINED && b.state == DRAINED) {
        a.filled |= b.filled;
        a.fresh &= b.fresh;
        a.assumed |= b.assumed;
        a.strict |= b.strict;
        if (ss_ast_is_null(a.by)) {
            a.by = b.by;
            a.after_drain = b.after_drain;
        }
        a.copy_like |= b.copy_like;
        if (!a.aside)
            a.aside_at = b.aside_at;
        a.aside |= b.aside;
        a.all_devices &= b.all_devices;
        if (ss_ast_is_null(b.wide))
            a.wide = b.wide;
        return a;
    }
    return busy();
}

/* ------------------------------------------------------------------------------------------
 * What one call does to the device. */

/* Libraries that queue work on the device from the host, by the prefix of their functions'
 * names (or namespaces). */
static const char *const library_prefixes[] = {"cublas",   "cudnn",    "cusparse", "cufft",
                                               "curand",   "cusolver", "nccl",     "cutlass",
                                               "thrust::", "cub::"};

int ss_context_special_member(CXCursor decl)
{
    enum CXCursorKind k = clang_getCursorKind(decl);
    if (k == CXCursor_Constructor || k == CXCursor_Destructor || k == CXCursor_ConversionFunction ||
        clang_CXXMethod_isDefaulted(decl))
        return 1;
    CXString name = clang_getCursorSpelling(decl);
    int op = strncmp(clang_getCString(name), "operator", 8) == 0;
    clang_disposeString(name);
    return op;
}

int ss_context_library_enqueues(CXCursor call)
{
    int n = clang_Cursor_getNumArguments(call);
    for (int i = 0; i < n; i++) {
        if (ss_check_is_stream_type(
                clang_getCursorType(clang_Cursor_getArgument(call, (unsigned)i))))
            return 1;
    }
    CXCursor decl = clang_getCursorReferenced(call);
    if (ss_ast_is_null(decl))
        return 1;
    if (!clang_Location_isInSystemHeader(clang_getCursorLocation(decl)))
        return !ss_context_special_member(decl);
    char *name = ss_qualified_name(decl);
    int found = 0;
    for (size_t i = 0; name && !found && i < sizeof library_prefixes / sizeof *library_prefixes;
         i++)
        found = strncmp(name, library_prefixes[i], strlen(library_prefixes[i])) == 0;
    free(name);
    return found;
}

static enum CXChildVisitResult find_any_call(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    *(int *)data = 1;
    return CXChildVisit_Break;
}

/* Whether the candidate 'decl' of an operator's overload set cannot queue work: declared in a
 * system header, or defined where the unit sees its body, which calls nothing (no launch, no
 * function that might launch). Returns 1 or 0. */
static int project_operator_plain(CXCursor decl)
{
    if (ss_ast_in_system_header(decl))
        return 1;
    CXCursor body = clang_getCursorDefinition(decl);
    if (ss_ast_is_null(body))
        return 0;
    int calls = 0;
    clang_visitChildren(body, find_any_call, &calls);
    return !calls;
}

/* Whether 'call', which names no function, is a value's plumbing in a template, resolved only
 * when it is instantiated: an operator on an operand of a dependent type ('a[i] - b[j]'), not a
 * function object's call; or the construction of a value of a class, not a library's
 * ('std::thread(work<E>, ...)'), from arguments of dependent types. The flow takes them as it
 * takes resolved operators and constructors (ss_context_special_member). Returns 1 or 0. */
static int dependent_plumbing(CXCursor call)
{
    CXString spelling = clang_getCursorSpelling(call);
    int named = clang_getCString(spelling)[0] != '\0'; /* a method, a function: not these */
    clang_disposeString(spelling);
    if (named || !ss_ast_is_null(clang_getCursorReferenced(call)) || ss_ast_child_count(call) == 0)
        return 0;
    CXCursor first = ss_ast_child(call, 0);
    if (clang_getCursorKind(first) == CXCursor_TypeRef) {
        CXCursor type = clang_getCursorReferenced(first);
        enum CXCursorKind k = clang_getCursorKind(type);
        char *name =
            k == CXCursor_ClassDecl || k == CXCursor_StructDecl ? ss_qualified_name(type) : NULL;
        int library = name == NULL;
        for (size_t i = 0; !library && i < sizeof library_prefixes / sizeof *library_prefixes; i++)
            library = strncmp(name, library_prefixes[i], strlen(library_prefixes[i])) == 0;
        free(name);
        return !library;
    }
    for (unsigned i = 0, n = ss_ast_child_count(call); i < n; i++) {
        CXCursor ref = clang_getCursorReferenced(ss_ast_strip(ss_ast_child(call, i)));
        if (clang_getCursorKind(ref) != CXCursor_OverloadedDeclRef)
            continue;
        CXString name = clang_getCursorSpelling(ref);
        const char *op = clang_getCString(name);
        int plumbing = strncmp(op, "operator", 8) == 0 && strcmp(op, "operator()") != 0;
        clang_disposeString(name);
        /* A project's operator of the set counts only where the unit sees its body and no
         * device work, nor any call, is in it. */
        for (unsigned d = 0, m = clang_getNumOverloadedDecls(ref); plumbing && d < m; d++)
            plumbing = project_operator_plain(clang_getOverloadedDecl(ref, d));
        return plumbing;
    }
    return 0;
}

/* Whether 'call' is the implicit copy or move of a value of a record type that a system header
 * declares, such as a 'dim3' handed by value to a launch's configuration under C++11 (before
 * C++17 the copy is not elided): libclang names no declaration for an implicit constructor, and
 * such a copy queues nothing. Returns 1 or 0. */
static int system_value_copy(CXCursor call)
{
    CXType type = clang_getCanonicalType(clang_getCursorType(call));
    if (type.kind != CXType_Record || clang_Cursor_getNumArguments(call) != 1)
        return 0;
    CXCursor record = clang_getTypeDeclaration(type);
    CXType arg = clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(call, 0)));
    return clang_equalCursors(record, clang_getTypeDeclaration(arg)) &&
           clang_Location_isInSystemHeader(clang_getCursorLocation(record));
}

/* The direction of the synchronous copy 'call': cudaMemcpyDefault's too, where one side is
 * device memory and the other provably host memory (ss_provenance_of); else
 * SS_COPY_KIND_UNKNOWN for it. */
static int copy_direction(CXCursor function, CXCursor call, const ss_api *api)
{
    CXCursor dst, src;
    int kind = ss_copy_kind(function, call, api, &dst, &src);
    if (kind != SS_COPY_KIND_DEFAULT)
        return kind;
    if (ss_ast_is_null(dst) || ss_ast_is_null(src))
        return SS_COPY_KIND_UNKNOWN;
    int dst_device = ss_check_is_device_pointer(function, dst);
    int src_device = ss_check_is_device_pointer(function, src);
    CXCursor host = dst_device ? src : dst;
    if (dst_device == src_device)
        return dst_device ? SS_COPY_KIND_D2D : SS_COPY_KIND_UNKNOWN;
    ss_provenance p;
    ss_provenance_of(function, host, &p);
    int known = p.kind == SS_HOST_PAGEABLE || p.kind == SS_HOST_PINNED;
    ss_provenance_free(&p);
    if (!known)
        return SS_COPY_KIND_UNKNOWN;
    return dst_device ? SS_COPY_KIND_H2D : SS_COPY_KIND_D2H;
}

/* Whether a copy of direction 'kind' (copy_direction) is between the host and the device
 * (either way). */
static int host_side(int kind)
{
    return kind == SS_COPY_KIND_D2H || kind == SS_COPY_KIND_H2D;
}

/* Whether 'call' ('api' its row) is an asynchronous copy from the device into provably pageable
 * memory on the legacy stream (its stream left out, or every value of it the legacy stream):
 * such a copy returns only once it is done, as CUDA's API synchronization behavior says, so it
 * waits for all the work queued before it there, as cudaMemcpy does. */
static int pageable_readback(const flow *f, CXCursor call, const ss_api *api)
{
    CXCursor dst, src;
    if (api == NULL || api->klass != SS_CLASS_COPY || api->sync != SS_SYNC_PAGEABLE ||
        ss_copy_kind(f->function, call, api, &dst, &src) != SS_COPY_KIND_D2H || ss_ast_is_null(dst))
        return 0;
    CXCursor arg = ss_check_stream_arg(call, api);
    if (!ss_ast_is_null(arg) && !ss_check_is_omitted(arg) &&
        !ss_stream_all_legacy(ss_stream_values(f->function, arg), 0))
        return 0;
    ss_provenance p;
    ss_provenance_of(f->function, dst, &p);
    int pageable = p.kind == SS_HOST_PAGEABLE;
    ss_provenance_free(&p);
    return pageable;
}

/* The direction of 'call' (copy_direction) where it is a synchronous copy (or, with the
 * question's 'copies_drain', a copy into pageable memory that returns once done,
 * pageable_readback), else SS_COPY_KIND_UNKNOWN with '*sync_copy' 0. */
static int sync_copy_direction(const flow *f, CXCursor call, const ss_api *api, int *sync_copy)
{
    *sync_copy =
        api && api->klass == SS_CLASS_COPY &&
        (api->sync == SS_SYNC_ALWAYS || (f->q->copies_drain && pageable_readback(f, call, api)));
    return *sync_copy ? copy_direction(f->function, call, api) : SS_COPY_KIND_UNKNOWN;
}

/* Whether the API call 'api' drains the device: a device-wide wait, or (with 'copies_drain')
 * a synchronous copy ('sync_copy', of direction 'kind') between the host and the device, which
 * waits for all earlier work. */
static int drains(const flow *f, const ss_api *api, int sync_copy, int kind)
{
    if (api->klass == SS_CLASS_DEVICE_SYNC)
        return 1;
    return f->q->copies_drain && sync_copy && host_side(kind);
}

static drain function_flow(flow *f, CXCursor function, drain in);

/* Whether every value of 'values' (ss_stream_values) is the unit's default stream: the legacy
 * one (0 or cudaStreamLegacy), or with 'per_thread' the per-thread one (0 or
 * cudaStreamPerThread). Returns 1 or 0. */
static int own_default_stream(unsigned values, int per_thread)
{
    unsigned own = SS_STREAM_BIT(SS_STREAM_NULL) |
                   SS_STREAM_BIT(per_thread ? SS_STREAM_PER_THREAD : SS_STREAM_LEGACY);
    return values != 0 && (values & ~own) == 0;
}

static int thrust_on_default(CXCursor call);
static int host_side_call(CXCursor c);

/* Whether the launch or API call 'call' ('api' its row, NULL for a launch) queues its work on
 * the legacy stream: its stream left out or every value of it the legacy stream; an API that
 * takes no stream (cudaMemcpy, cudaMemset) runs there too. */
static int on_legacy(const flow *f, CXCursor call, const ss_api *api)
{
    int omitted = !f->q->per_thread || f->q->own_default;
    if (api && api->stream_arg < 0)
        return omitted;
    CXCursor arg = ss_check_stream_arg(call, api);
    if (ss_ast_is_null(arg) || ss_check_is_omitted(arg))
        return omitted;
    unsigned values = ss_stream_values(f->function, arg);
    return f->q->own_default ? own_default_stream(values, f->q->per_thread)
                             : ss_stream_all_legacy(values, f->q->per_thread);
}

void ss_assumed_waits_free(ss_assumed_waits *a)
{
    for (size_t i = 0; i < a->count; i++)
        free(a->usrs[i]);
    free(a->usrs);
    memset(a, 0, sizeof *a);
}

/* Adds 'usr' (taken) to 'a' unless it is there, and returns its bit: 0 when 'a' is full. */
static uint64_t assume(ss_assumed_waits *a, char *usr)
{
    for (size_t i = 0; i < a->count; i++) {
        if (strcmp(a->usrs[i], usr) == 0) {
            free(usr);
            return UINT64_C(1) << i;
        }
    }
    if (a->count >= 64) {
        free(usr);
        return 0;
    }
    ss_xgrow((void **)&a->usrs, &a->cap, a->count + 1, sizeof *a->usrs);
    a->usrs[a->count++] = usr;
    return UINT64_C(1) << (a->count - 1);
}

/* The calls a flow being remembered took on trust (remembered_flow), each once, in the order
 * it first took them: the USR, the bit the question's table gave it and whether the question
 * kept it busy ('keep'). 'spoiled' where a table was full (bit 0) or a second table was used. */
typedef struct taken_call {
    char *usr;
    uint64_t bit;
    int kept;
} taken_call;

typedef struct recorder {
    struct recorder *outer;
    const ss_assumed_waits *table;
    taken_call *rows;
    size_t count, cap;
    int spoiled;
    CXCursor *functions; /* the functions it followed (note_function) */
    size_t function_count, function_cap;
} recorder;

/* The flows being remembered on this thread, innermost first. */
static _Thread_local recorder *recording;

static void note_taken(recorder *r, const ss_assumed_waits *a, const char *usr, uint64_t bit,
                       int kept)
{
    if (bit == 0 || (r->table && r->table != a)) {
        r->spoiled = 1;
        return;
    }
    r->table = a;
    for (size_t i = 0; i < r->count; i++) {
        if (r->rows[i].bit == bit)
            return;
    }
    ss_xgrow((void **)&r->rows, &r->cap, r->count + 1, sizeof *r->rows);
    r->rows[r->count++] = (taken_call){ss_xstrdup(usr), bit, kept};
}

static void recorder_free(recorder *r)
{
    for (size_t i = 0; i < r->count; i++)
        free(r->rows[i].usr);
    free(r->rows);
    free(r->functions);
}

/* Notes in every flow being remembered that it follows 'function'. */
static void note_function(CXCursor function)
{
    for (recorder *r = recording; r; r = r->outer) {
        size_t i = 0;
        while (i < r->function_count && !clang_equalCursors(r->functions[i], function))
            i++;
        if (i < r->function_count)
            continue;
        ss_xgrow((void **)&r->functions, &r->function_cap, r->function_count + 1,
                 sizeof *r->functions);
        r->functions[r->function_count++] = function;
    }
}

/* assume, noted in every flow being remembered ('keep': the bits the question keeps busy). */
static uint64_t assume_noted(ss_assumed_waits *a, char *usr, uint64_t keep)
{
    char *copy = recording ? ss_xstrdup(usr) : NULL;
    uint64_t bit = assume(a, usr);
    for (recorder *r = recording; r; r = r->outer)
        note_taken(r, a, copy, bit, (keep & bit) != 0);
    free(copy);
    return bit;
}

/* Keeps in 'a' (or NULL) the calls taken for waits whose bits (assume) are in 'needed'. */
static void keep_assumed(ss_assumed_waits *a, uint64_t needed)
{
    size_t kept = 0;
    for (size_t i = 0; a && i < a->count; i++) {
        if (needed & (UINT64_C(1) << i))
            a->usrs[kept++] = a->usrs[i];
        else
            free(a->usrs[i]);
    }
    if (a)
        a->count = kept;
}

/* The member of this object that 'expr' names ('m_' or 'this->m_'), or a null cursor. */
static CXCursor this_member(CXCursor expr)
{
    CXCursor e = ss_ast_strip(expr);
    if (clang_getCursorKind(e) != CXCursor_MemberRefExpr)
        return clang_getNullCursor();
    if (ss_ast_child_count(e) > 0 &&
        clang_getCursorKind(ss_ast_strip(ss_ast_child(e, 0))) != CXCursor_CXXThisExpr)
        return clang_getNullCursor();
    CXCursor decl = clang_getCursorReferenced(e);
    return clang_getCursorKind(decl) == CXCursor_FieldDecl ? decl : clang_getNullCursor();
}

/* Whether the argument 'index' of 'call' names the member 'decl' of this object. */
static int names_member(CXCursor call, int index, CXCursor decl)
{
    if (index < 0 || clang_Cursor_getNumArguments(call) <= index)
        return 0;
    CXCursor member = this_member(clang_Cursor_getArgument(call, (unsigned)index));
    return !ss_ast_is_null(member) && clang_equalCursors(member, decl);
}

/* Whether 'type' is, or points or refers to, the class 'owner'. */
static int is_owner_type(CXType type, CXCursor owner)
{
    CXType t = clang_getCanonicalType(type);
    if (t.kind == CXType_Pointer || t.kind == CXType_LValueReference ||
        t.kind == CXType_RValueReference)
        t = clang_getCanonicalType(clang_getPointeeType(t));
    CXCursor decl = clang_getTypeDeclaration(t);
    return !ss_ast_is_null(decl) &&
           clang_equalCursors(clang_getCanonicalCursor(decl), clang_getCanonicalCursor(owner));
}

/* Whether 'call', which names no function, calls a method by name or an operator in a
 * template ('v.insert()', 'this->data()', 'a + b' on a dependent type: resolved only when
 * instantiated), not a pointer or a function object. */
static int dependent_method_call(CXCursor call)
{
    CXString spelling = clang_getCursorSpelling(call);
    const char *name = clang_getCString(spelling);
    int nameless = name == NULL || name[0] == '\0'; /* a call of no name: an operator */
    clang_disposeString(spelling);
    if (nameless)
        return 1;
    CXCursor callee =
        ss_ast_child_count(call) > 0 ? ss_ast_strip(ss_ast_child(call, 0)) : clang_getNullCursor();
    enum CXCursorKind k = clang_getCursorKind(callee);
    return k == CXCursor_OverloadedDeclRef ||
           (k == CXCursor_MemberRefExpr && ss_ast_is_null(clang_getCursorReferenced(callee)));
}

/* Whether 'decl' is a function object's call operator (a callback, which may run any code). */
static int is_call_operator(CXCursor decl)
{
    CXString name = clang_getCursorSpelling(decl);
    int call = strcmp(clang_getCString(name), "operator()") == 0;
    clang_disposeString(name);
    return call;
}

/* The lambda that 'call' calls: through a local variable (ss_scope_called_lambda), or where it
 * is written ('[&] { ... }()'); else a null cursor. */
static CXCursor called_lambda(CXCursor call)
{
    CXCursor lambda = ss_scope_called_lambda(call);
    if (!ss_ast_is_null(lambda) || ss_ast_child_count(call) == 0 ||
        !is_call_operator(clang_getCursorReferenced(call)))
        return lambda;
    CXCursor object = ss_ast_strip(ss_ast_child(call, 0));
    return clang_getCursorKind(object) == CXCursor_LambdaExpr ? object : clang_getNullCursor();
}

/* Whether 'call', of a function the flow does not follow, may record the question's event:
 * a call through a pointer or a function object, a function of the event's class (which
 * reaches its members), or one given the object or an event. */
static int may_record(const question *q, CXCursor call)
{
    CXCursor decl = clang_getCursorReferenced(call);
    if (ss_ast_is_null(decl) && !dependent_method_call(call))
        return 1;
    if (!ss_ast_is_null(decl) &&
        (clang_equalCursors(clang_getCanonicalCursor(clang_getCursorSemanticParent(decl)),
                            clang_getCanonicalCursor(q->owner)) ||
         is_call_operator(decl)))
        return 1;
    for (int i = 0, n = clang_Cursor_getNumArguments(call); i < n; i++) {
        CXType t = clang_getCursorType(clang_Cursor_getArgument(call, (unsigned)i));
        CXString ts = clang_getTypeSpelling(clang_getCanonicalType(t));
        int event = strstr(clang_getCString(ts), "CUevent_st") != NULL;
        clang_disposeString(ts);
        if (event || is_owner_type(t, q->owner))
            return 1;
    }
    return 0;
}

/* Whether 'call' is made on this object (a member call without an object, or on 'this'), or
 * is no member call. */
static int on_this(CXCursor call)
{
    CXCursor callee = ss_ast_child_count(call) > 0 ? ss_ast_child(call, 0) : clang_getNullCursor();
    if (clang_getCursorKind(callee) != CXCursor_MemberRefExpr || ss_ast_child_count(callee) == 0)
        return 1;
    return clang_getCursorKind(ss_ast_strip(ss_ast_child(callee, 0))) == CXCursor_CXXThisExpr;
}

/* What 'call' does to the question's event: a wait on its stream, the device or the event
 * itself completes it; a record of it, or of an event the flow cannot tell apart from it (not
 * a member of this object), makes it pending again; a function the flow does not follow that
 * may record it makes it pending too. Other work leaves it as it is: work queued after a
 * record is not waited for by the event. */
/* How deep inside an expression surely_runs follows a call. */
enum { MAX_EXPR_DEPTH = 64 };

/* Whether the child 'child' of the expression node 'node' runs whenever 'node' does: not an arm
 * of '?:', the right operand of '&&' or '||', nor a lambda's body. An operator written in a
 * macro's body cannot be read: in C++ ('cxx') '&&' and '||' give bool, so one of another type
 * is none of them; in C, one of int type may be. */
static int runs_in_expr(CXCursor node, CXCursor child, int cxx)
{
    char op[8];
    if (ss_ast_same_node(ss_ast_child(node, 0), child))
        return clang_getCursorKind(node) != CXCursor_LambdaExpr;
    switch (clang_getCursorKind(node)) {
    case CXCursor_ConditionalOperator:
    case CXCursor_LambdaExpr:
        return 0;
    case CXCursor_BinaryOperator:
        if (ss_ast_binary_op(node, op, sizeof op) == 0)
            return strcmp(op, "&&") != 0 && strcmp(op, "||") != 0;
        enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(node)).kind;
        return k != CXType_Bool && (cxx || k != CXType_Int);
    default:
        return 1;
    }
}

/* Whether the call 'call' runs whenever the expression being followed does: a wait or a copy
 * in a '?:' arm or the right operand of '&&' or '||' (`verbose && cudaMemcpy(...)`) may not
 * run, and drains nothing for sure. */
static int surely_runs_read(const flow *f, CXCursor call)
{
    CXCursor path[MAX_EXPR_DEPTH];
    long depth = ss_scope_path(*f->expr, call, NULL, path, MAX_EXPR_DEPTH);
    if (depth < 0 || depth > MAX_EXPR_DEPTH)
        return 0;
    int cxx = clang_getCursorLanguage(f->function) == CXLanguage_CPlusPlus;
    CXCursor parent = *f->expr;
    for (long d = 0; d <= depth; d++) {
        CXCursor child = d < depth ? path[d] : call;
        if (!runs_in_expr(parent, child, cxx))
            return 0;
        parent = child;
    }
    return 1;
}

/* ------------------------------------------------------------------------------------------
 * The flows of the unit's functions, remembered. Every question follows the calls of the
 * unit's functions MAX_CALLEE_DEPTH levels down, and where those functions call one another
 * (NVIDIA warp's warp.cu: 2,000 questions, 700,000 callee flows, 35 million statements) the
 * same callee is followed from the same state again and again. A callee's flow is a function
 * of the question's settings, its depth and the state it starts from and, where the question
 * takes calls on trust (assume), of whether each call it takes finds a bit in the question's
 * table and is kept busy: a row keeps those calls by USR, and the bits they get in the table
 * of the question that replays it (replay) stand for those they had. */

/* What of a question a callee's flow depends on, other than the tables it takes calls into. */
typedef struct flow_sig {
    const ss_callgraph *graph;
    int copies_drain, cublas, legacy, per_thread, own_default;
    int foreign, assumed, copy; /* q->foreign and q->assumed set; q->foreign->copy */
    CXCursor event, stream, owner;
} flow_sig;

/* Where a function lies: its file and its first and last offsets (of the expansions). */
typedef struct span {
    CXFile file;
    unsigned begin, end;
} span;

static span span_of(CXCursor c)
{
    CXSourceRange r = clang_getCursorExtent(c);
    span s = {NULL, 0, 0};
    clang_getExpansionLocation(clang_getRangeStart(r), &s.file, NULL, NULL, &s.begin);
    clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &s.end);
    return s;
}

static span cursor_span(ss_drain_memo *m, CXCursor c);
static const ss_api *memo_api(ss_drain_memo *m, CXCursor call);

/* Whether 'c' (not null) may lie in one of the functions 'spans' (or nowhere known); 'm', the
 * unit's memo or NULL, keeps where 'c' lies. */
static int within(ss_drain_memo *m, const span *spans, size_t n, CXCursor c)
{
    if (ss_ast_is_null(c))
        return 0;
    span s = cursor_span(m, c);
    for (size_t i = 0; s.file && i < n; i++) {
        if (s.begin >= spans[i].begin && s.begin <= spans[i].end &&
            clang_File_isEqual(s.file, spans[i].file))
            return 1;
    }
    return s.file == NULL;
}

/* Whether the cursors of 'd' lie outside the functions 'spans'. */
static int outside(ss_drain_memo *m, const span *spans, size_t n, const drain *d)
{
    return !within(m, spans, n, d->by) && !within(m, spans, n, d->wide) &&
           !within(m, spans, n, d->aside_at);
}

/* Whether 'd' drained by a copy (drain_misses). */
static int by_copy(ss_drain_memo *m, const drain *d)
{
    const ss_api *api = d->state == DRAINED ? memo_api(m, d->by) : NULL;
    return api && api->klass == SS_CLASS_COPY;
}

/* Whether 'a' and 'b' are of one shape: all but their cursors' and bits' values alike (a flow
 * reads of those only whether they are null, and whether 'by' is a copy). */
static int same_shape(const drain *a, const drain *b)
{
    return a->state == b->state && a->filled == b->filled && a->fresh == b->fresh &&
           a->aside == b->aside && a->all_devices == b->all_devices &&
           a->after_drain == b->after_drain && a->copy_like == b->copy_like &&
           ss_ast_is_null(a->by) == ss_ast_is_null(b->by) &&
           ss_ast_is_null(a->wide) == ss_ast_is_null(b->wide) &&
           ss_ast_is_null(a->aside_at) == ss_ast_is_null(b->aside_at);
}

/* The fields of a shaped row's 'out' that are its 'in's (memo_row's 'carried'). */
enum { CARRY_BY = 1, CARRY_WIDE = 2, CARRY_ASIDE = 4 };

typedef struct memo_row {
    flow_sig sig;
    CXCursor callee;
    int depth;
    drain in, out;
    int worked, left;
    long cost; /* the statements it followed (flow_budget) */
    taken_call *took;
    size_t took_count;
    int foreign_table; /* took into q->foreign's table, else into q->assumed */
    /* Where 'shaped': the row is for any 'in' of its shape (same_shape) whose cursors lie outside
     * the functions it followed ('spans'), and 'carried' says which of out's fields are in's. */
    int shaped, by_copy, carried;
    span *spans;
    size_t span_count;
    CXCursor *functions; /* the functions it followed, itself first */
    size_t function_count;
    /* The bits of out.assumed and out.strict: those of 'in', and the calls taken (by index). */
    uint64_t in_assumed, in_strict, took_assumed, took_strict;
    /* Where 'shaped': the calls in's bits stand for, by USR ('in_calls'), those of them in
     * in.assumed and in.strict ('key_assumed', 'key_strict', by index: a replay's 'in' rests on
     * the same calls), and those in out.assumed and out.strict ('out_assumed', 'out_strict'). */
    taken_call *in_calls;
    size_t in_count;
    uint64_t key_assumed, key_strict, out_assumed, out_strict;
    long next; /* the next row of its bucket, or -1 */
} memo_row;

enum { MEMO_BUCKETS = 4096, FACT_BUCKETS = 16384 };

/* One step of a walk kept in the memo (facts_of): a child of a node, or a call, throw or
 * statement met in an expression's run order (expr_flow). */
enum { STEP_CALL, STEP_THROW, STEP_STATEMENT };

typedef struct flow_step {
    CXCursor c;
    int kind;
} flow_step;

/* What of a cursor cursor_facts keeps ('known'): its children ('kids'), its run order
 * ('run'), its children's ('child_run'; each a range of the memo's steps), a call's API row
 * and CALL_* bits, a loop's join shape, an if's failure branch, a call's callee in the unit,
 * the USRs of the function of another unit or only declared it calls, where it lies. */
enum {
    FACT_CHILDREN = 1,
    FACT_RUN = 2,
    FACT_CHILD_RUN = 4,
    FACT_CALL = 8,
    FACT_JOIN = 16,
    FACT_FAILURE = 32,
    FACT_CALLEE = 64,
    FACT_FOREIGN = 128,
    FACT_DECLARED = 256,
    FACT_SPAN = 512,
    FACT_WORK = 1024,
    FACT_RUNS = 2048,
    FACT_FREE = 4096
};

/* A call: a launch's configuration call, a launch, a device switch (call_facts). */
enum { CALL_CONFIG = 1, CALL_LAUNCH = 2, CALL_SWITCH = 4 };

typedef struct step_range {
    size_t first, count;
} step_range;

typedef struct cursor_facts {
    CXCursor c;
    unsigned known;
    step_range kids, run, child_run;
    const ss_api *api;
    unsigned call;
    int join;
    unsigned failure;
    int throws;
    CXCursor callee;
    char *foreign_usr, *declared_usr; /* malloc'ed, or NULL */
    span where;
    int work;         /* a callee's own device work (callee_work) */
    CXCursor runs_in; /* a call: the expression 'runs' was asked for (surely_runs) */
    int runs;
    int free_drains; /* a free that surely waits for the whole device (free_drains) */
    long next;       /* the next row of its bucket, or -1 */
} cursor_facts;

struct ss_drain_memo {
    memo_row *rows;
    size_t count, cap;
    long heads[MEMO_BUCKETS];
    /* What the flows read of the unit's statements and calls (facts_of). */
    cursor_facts *facts;
    size_t fact_count, fact_cap;
    long fact_heads[FACT_BUCKETS];
    flow_step *steps;
    size_t step_count, step_cap;
};

ss_drain_memo *ss_drain_memo_new(void)
{
    ss_drain_memo *m = ss_xcalloc(1, sizeof *m);
    for (size_t i = 0; i < MEMO_BUCKETS; i++)
        m->heads[i] = -1;
    for (size_t i = 0; i < FACT_BUCKETS; i++)
        m->fact_heads[i] = -1;
    return m;
}

void ss_drain_memo_free(ss_drain_memo *m)
{
    for (size_t i = 0; m && i < m->count; i++) {
        for (size_t j = 0; j < m->rows[i].took_count; j++)
            free(m->rows[i].took[j].usr);
        free(m->rows[i].took);
    }
    for (size_t i = 0; m && i < m->count; i++) {
        for (size_t j = 0; j < m->rows[i].in_count; j++)
            free(m->rows[i].in_calls[j].usr);
        free(m->rows[i].in_calls);
        free(m->rows[i].spans);
        free(m->rows[i].functions);
    }
    for (size_t i = 0; m && i < m->fact_count; i++) {
        free(m->facts[i].foreign_usr);
        free(m->facts[i].declared_usr);
    }
    if (m) {
        free(m->rows);
        free(m->facts);
        free(m->steps);
    }
    free(m);
}

static flow_sig sig_of(const question *q)
{
    flow_sig s;
    memset(&s, 0, sizeof s);
    s.graph = q->graph;
    s.copies_drain = q->copies_drain;
    s.cublas = q->cublas;
    s.legacy = q->legacy;
    s.per_thread = q->per_thread;
    s.own_default = q->own_default;
    s.foreign = q->foreign != NULL;
    s.assumed = q->assumed != NULL;
    s.copy = q->foreign ? q->foreign->copy : 0;
    s.event = q->event;
    s.stream = q->stream;
    s.owner = q->owner;
    return s;
}

static int same_sig(const flow_sig *a, const flow_sig *b)
{
    return a->graph == b->graph && a->copies_drain == b->copies_drain && a->cublas == b->cublas &&
           a->legacy == b->legacy && a->per_thread == b->per_thread &&
           a->own_default == b->own_default && a->foreign == b->foreign &&
           a->assumed == b->assumed && a->copy == b->copy &&
           clang_equalCursors(a->event, b->event) && clang_equalCursors(a->stream, b->stream) &&
           clang_equalCursors(a->owner, b->owner);
}

static int same_drain(const drain *a, const drain *b)
{
    return a->state == b->state && a->filled == b->filled && a->fresh == b->fresh &&
           a->assumed == b->assumed && a->aside == b->aside && a->all_devices == b->all_devices &&
           a->after_drain == b->after_drain && a->copy_like == b->copy_like &&
           a->strict == b->strict && clang_equalCursors(a->by, b->by) &&
           clang_equalCursors(a->aside_at, b->aside_at) && clang_equalCursors(a->wide, b->wide);
}

static size_t bucket_of(CXCursor callee, int depth, const drain *in)
{
    size_t h = clang_hashCursor(callee) * 31u + (unsigned)depth * 7u + (unsigned)(in->state + 1);
    return h % MEMO_BUCKETS;
}

/* Whether 'row' is a flow of 'callee' at 'depth' from 'in' for a question like 'sig'. */
static int row_fits(ss_drain_memo *m, const memo_row *row, const flow_sig *sig, CXCursor callee,
                    int depth, const drain *in)
{
    if (row->depth != depth || !clang_equalCursors(row->callee, callee) ||
        !same_sig(&row->sig, sig))
        return 0;
    if (!row->shaped)
        return same_drain(&row->in, in);
    return same_shape(&row->in, in) && row->by_copy == by_copy(m, in) &&
           outside(m, row->spans, row->span_count, in);
}

/* Of 'mask', the calls taken (bit 'took[i].bit' as bit i), or the bits they stand for now
 * ('to', from bit i to bits[i]) where 'bits' is not NULL. */
static uint64_t took_bits(uint64_t mask, const taken_call *took, size_t n, const uint64_t *bits)
{
    uint64_t out = 0;
    for (size_t i = 0; i < n; i++) {
        if (bits == NULL && (mask & took[i].bit))
            out |= UINT64_C(1) << i;
        else if (bits && (mask & (UINT64_C(1) << i)))
            out |= bits[i];
    }
    return out;
}

/* The table a question takes calls into (assume), or NULL. */
static ss_assumed_waits *table_of(const question *q)
{
    return q->foreign ? &q->foreign->calls : q->assumed;
}

/* The calls of 'table' whose bits are in 'bits', by USR (malloc'ed, '*count' of them). */
static taken_call *calls_of(const ss_assumed_waits *table, uint64_t bits, size_t *count)
{
    taken_call *calls = ss_xreallocarray(NULL, 64, sizeof *calls);
    *count = 0;
    for (size_t i = 0; i < 64 && i < table->count; i++) {
        if (bits & (UINT64_C(1) << i))
            calls[(*count)++] = (taken_call){ss_xstrdup(table->usrs[i]), UINT64_C(1) << i, 0};
    }
    return calls;
}

/* Makes 'row' (of the flow from 'in' to 'out' that followed the functions 'r' noted) a shaped
 * one where 'in' is drained and its cursors lie outside those functions: out's cursors that are
 * in's are then in's in any replay, and the others lie in those functions; out's bits are kept
 * by the calls they stand for. Returns 1 where it did, else 0. */
static int shape_row(const question *q, memo_row *row, const recorder *r, const drain *in,
                     const drain *out)
{
    const ss_assumed_waits *table = table_of(q);
    uint64_t in_bits = in->assumed | in->strict;
    if (in->state != DRAINED || (q->foreign && q->assumed) ||
        (in_bits && (table == NULL || (table->count < 64 && in_bits >> table->count))))
        return 0;
    row->spans = ss_xreallocarray(NULL, r->function_count + 1, sizeof *row->spans);
    for (size_t i = 0; i < r->function_count; i++)
        row->spans[i] = span_of(r->functions[i]);
    row->span_count = r->function_count;
    if (!outside(q->memo, row->spans, row->span_count, in))
        return 0;
    row->shaped = 1;
    row->by_copy = by_copy(q->memo, in);
    row->in_calls = in_bits ? calls_of(table, in_bits, &row->in_count) : NULL;
    row->key_assumed = took_bits(in->assumed, row->in_calls, row->in_count, NULL);
    row->key_strict = took_bits(in->strict, row->in_calls, row->in_count, NULL);
    row->out_assumed = took_bits(out->assumed, row->in_calls, row->in_count, NULL);
    row->out_strict = took_bits(out->strict, row->in_calls, row->in_count, NULL);
    row->in_assumed = row->in_strict = 0;
    if (!ss_ast_is_null(in->by) && clang_equalCursors(out->by, in->by))
        row->carried |= CARRY_BY;
    if (!ss_ast_is_null(in->wide) && clang_equalCursors(out->wide, in->wide))
        row->carried |= CARRY_WIDE;
    if (!ss_ast_is_null(in->aside_at) && clang_equalCursors(out->aside_at, in->aside_at))
        row->carried |= CARRY_ASIDE;
    return 1;
}

/* Keeps the flow of 'callee' at 'depth' from 'in' that gave 'out', unless a call it took has a
 * bit that 'in' rests on already (the two could not be told apart in a replay). */
static void memo_store(const question *q, const flow_sig *sig, CXCursor callee, int depth,
                       const drain *in, const drain *out, const int *worked_left, long cost,
                       recorder *r)
{
    ss_drain_memo *m = q->memo;
    uint64_t in_bits = in->assumed | in->strict, all = 0;
    for (size_t i = 0; i < r->count; i++)
        all |= r->rows[i].bit;
    if ((out->assumed | out->strict) & ~(all | in_bits))
        return;
    ss_xgrow((void **)&m->rows, &m->cap, m->count + 1, sizeof *m->rows);
    memo_row *row = &m->rows[m->count];
    memset(row, 0, sizeof *row);
    row->took_assumed = took_bits(out->assumed, r->rows, r->count, NULL);
    row->took_strict = took_bits(out->strict, r->rows, r->count, NULL);
    if (!shape_row(q, row, r, in, out)) {
        free(row->spans);
        if (all & in_bits) {
            memset(row, 0, sizeof *row);
            return;
        }
        memset(row, 0, sizeof *row);
        row->took_assumed = took_bits(out->assumed, r->rows, r->count, NULL);
        row->took_strict = took_bits(out->strict, r->rows, r->count, NULL);
        row->in_assumed = out->assumed & in_bits;
        row->in_strict = out->strict & in_bits;
    }
    row->sig = *sig;
    row->callee = callee;
    row->depth = depth;
    row->in = *in;
    row->out = *out;
    row->worked = worked_left[0];
    row->left = worked_left[1];
    row->cost = cost;
    row->took = r->rows;
    row->took_count = r->count;
    row->foreign_table = q->foreign && r->table == &q->foreign->calls;
    row->functions = r->functions;
    row->function_count = r->function_count;
    r->rows = NULL;
    r->count = 0;
    r->functions = NULL;
    r->function_count = 0;
    size_t b = bucket_of(callee, depth, in);
    row->next = m->heads[b];
    m->heads[b] = (long)m->count++;
}

/* The flow that 'row' keeps, replayed for the flow 'f' from 'in' (the row's own): its calls
 * taken into the question's table in their order, their bits put for theirs. Returns 0, with
 * nothing done, where the flow could go otherwise: the budget runs out in it, a call would find
 * the table full or a bit 'in' rests on, or is kept busy where it was not (or the reverse). */
/* What the flow of 'row' did besides its state: its functions followed, its statements (the
 * budget), its work and jumps out. */
static void replayed(flow *f, const memo_row *row)
{
    for (size_t i = 0; i < row->function_count; i++)
        note_function(row->functions[i]);
    flow_budget -= row->cost;
    f->worked |= row->worked;
    f->left |= row->left;
}

/* The place of 'usr' in 'table', or its count where it is not there. */
static size_t place_of(const ss_assumed_waits *table, const char *usr)
{
    size_t at = 0;
    while (at < table->count && strcmp(table->usrs[at], usr) != 0)
        at++;
    return at;
}

/* For a shaped row: the bits of its in_calls in 'table' ('bits'), where in.assumed and
 * in.strict rest on exactly those calls of them that the row's did. Returns 1 or 0. */
static int same_in_calls(const memo_row *row, const ss_assumed_waits *table, const drain *in,
                         uint64_t *bits)
{
    for (size_t j = 0; j < row->in_count; j++) {
        size_t at = place_of(table, row->in_calls[j].usr);
        if (at >= table->count || at >= 64)
            return 0;
        bits[j] = UINT64_C(1) << at;
    }
    return took_bits(row->key_assumed, row->in_calls, row->in_count, bits) == in->assumed &&
           took_bits(row->key_strict, row->in_calls, row->in_count, bits) == in->strict;
}

static int replay(flow *f, const memo_row *row, const drain *in, drain *out)
{
    const question *q = f->q;
    ss_assumed_waits *table = table_of(q);
    uint64_t keep = row->foreign_table ? q->foreign->keep : 0, bits[64], in_bits[64];
    if (flow_budget - row->cost < 0 || (row->shaped && row->in_count > 0 && table == NULL) ||
        (row->shaped && !same_in_calls(row, table, in, in_bits)))
        return 0;
    size_t added = 0;
    for (size_t i = 0; i < row->took_count; i++) {
        size_t at = place_of(table, row->took[i].usr);
        if (at == table->count)
            at += added++;
        if (at >= 64)
            return 0;
        bits[i] = UINT64_C(1) << at;
        if ((!row->shaped && (bits[i] & (in->assumed | in->strict))) ||
            ((keep & bits[i]) != 0) != row->took[i].kept)
            return 0;
    }
    for (size_t i = 0; i < row->took_count; i++)
        assume_noted(table, ss_xstrdup(row->took[i].usr), keep);
    *out = row->out;
    out->assumed = row->in_assumed |
                   took_bits(row->out_assumed, row->in_calls, row->in_count, in_bits) |
                   took_bits(row->took_assumed, row->took, row->took_count, bits);
    out->strict = row->in_strict |
                  took_bits(row->out_strict, row->in_calls, row->in_count, in_bits) |
                  took_bits(row->took_strict, row->took, row->took_count, bits);
    if (row->carried & CARRY_BY)
        out->by = in->by;
    if (row->carried & CARRY_WIDE)
        out->wide = in->wide;
    if (row->carried & CARRY_ASIDE)
        out->aside_at = in->aside_at;
    replayed(f, row);
    return 1;
}

/* The flow of 'callee' from 'in' into '*out' by a row that fits it and replays for 'f' (the
 * newest first). Returns 1 where one did, else 0. */
static int memo_replay(flow *f, const flow_sig *sig, CXCursor callee, const drain *in, drain *out)
{
    ss_drain_memo *m = f->q->memo;
    for (long i = m->heads[bucket_of(callee, f->depth, in)]; i >= 0; i = m->rows[i].next) {
        if (row_fits(m, &m->rows[i], sig, callee, f->depth, in) && replay(f, &m->rows[i], in, out))
            return 1;
    }
    return 0;
}

/* function_flow of the callee 'callee' from 'in', remembered for the unit where the question
 * has a memo and notes nothing of the way (waited_busy, through). */
static drain remembered_flow(flow *f, CXCursor callee, drain in)
{
    const question *q = f->q;
    note_function(callee);
    if (q->memo == NULL || q->waited_busy || q->through)
        return function_flow(f, callee, in);
    flow_sig sig = sig_of(q);
    drain out;
    if (memo_replay(f, &sig, callee, &in, &out))
        return out;
    recorder r = {NULL, NULL, NULL, 0, 0, 0, NULL, 0, 0}, *outer_recording = recording;
    recording = &r;
    note_function(callee); /* into 'r' alone: the outer ones have it */
    r.outer = outer_recording;
    int outer[2] = {f->worked, f->left}, inner[2];
    f->worked = f->left = 0;
    long budget = flow_budget;
    out = function_flow(f, callee, in);
    inner[0] = f->worked;
    inner[1] = f->left;
    f->worked = outer[0] | inner[0];
    f->left = outer[1] | inner[1];
    recording = r.outer;
    if (!r.spoiled && flow_budget >= 0)
        memo_store(q, &sig, callee, f->depth, &in, &out, inner, budget - flow_budget, &r);
    recorder_free(&r);
    return out;
}

/* ------------------------------------------------------------------------------------------
 * What the flows read of the unit's statements and calls, kept per cursor in the memo. A
 * question follows the same statements again and again (each callee flow not replayed, each way
 * to a call, each pass of a loop: warp.cu's questions walk its functions millions of times),
 * and libclang gives a node's children only by visiting them: a statement's children, an
 * expression's calls in the order they run and what a call is (its API row, a launch, a device
 * switch) are read once per unit. A question without a memo reads them each time. */

/* The row of 'c' in 'm', added empty where it has none. */
static size_t facts_of(ss_drain_memo *m, CXCursor c)
{
    size_t b = clang_hashCursor(c) % FACT_BUCKETS;
    for (long i = m->fact_heads[b]; i >= 0; i = m->facts[i].next) {
        if (clang_equalCursors(m->facts[i].c, c))
            return (size_t)i;
    }
    ss_xgrow((void **)&m->facts, &m->fact_cap, m->fact_count + 1, sizeof *m->facts);
    cursor_facts *row = &m->facts[m->fact_count];
    memset(row, 0, sizeof *row);
    row->c = c;
    row->next = m->fact_heads[b];
    m->fact_heads[b] = (long)m->fact_count;
    return m->fact_count++;
}

static void push_step(ss_drain_memo *m, CXCursor c, int kind)
{
    ss_xgrow((void **)&m->steps, &m->step_cap, m->step_count + 1, sizeof *m->steps);
    m->steps[m->step_count++] = (flow_step){c, kind};
}

static enum CXChildVisitResult collect_kid(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    push_step(data, c, STEP_STATEMENT);
    return CXChildVisit_Continue;
}

/* The children of 's', kept: a range of m->steps. */
static step_range kids_of(ss_drain_memo *m, CXCursor s)
{
    size_t i = facts_of(m, s);
    if (!(m->facts[i].known & FACT_CHILDREN)) {
        size_t first = m->step_count;
        clang_visitChildren(s, collect_kid, m);
        m->facts[i].kids = (step_range){first, m->step_count - first};
        m->facts[i].known |= FACT_CHILDREN;
    }
    return m->facts[i].kids;
}

/* ss_ast_child_count of 's', through the memo. */
static unsigned child_count(const flow *f, CXCursor s)
{
    return f->q->memo ? (unsigned)kids_of(f->q->memo, s).count : ss_ast_child_count(s);
}

/* ss_ast_child of 's', through the memo. */
static CXCursor child(const flow *f, CXCursor s, unsigned index)
{
    if (f->q->memo == NULL)
        return ss_ast_child(s, index);
    step_range r = kids_of(f->q->memo, s);
    return index < r.count ? f->q->memo->steps[r.first + index].c : clang_getNullCursor();
}

static void collect_statement(CXCursor s, void *data)
{
    push_step(data, s, STEP_STATEMENT);
}

static void collect_node(CXCursor c, void *data)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr)
        push_step(data, c, STEP_CALL);
    else if (k == CXCursor_CXXThrowExpr)
        push_step(data, c, STEP_THROW);
}

static int structured(enum CXCursorKind k);

/* The run order of 'c' (ss_ast_run_order), or with 'children' of each of its children in
 * turn, as expr_flow follows it: its calls, throws and statements, kept. */
static step_range run_of(ss_drain_memo *m, CXCursor c, int children)
{
    size_t i = facts_of(m, c);
    unsigned fact = children ? FACT_CHILD_RUN : FACT_RUN;
    if (!(m->facts[i].known & fact)) {
        size_t first = m->step_count;
        ss_ast_run_walk walk = {structured, collect_statement, collect_node, m};
        if (children)
            ss_ast_run_order_children(c, &walk);
        else
            ss_ast_run_order(c, &walk);
        step_range r = {first, m->step_count - first};
        *(children ? &m->facts[i].child_run : &m->facts[i].run) = r;
        m->facts[i].known |= fact;
    }
    return children ? m->facts[i].child_run : m->facts[i].run;
}

/* What 'call' is: its API row (ss_scope_callee_api) and its CALL_* bits. */
static const ss_api *read_call(CXCursor call, unsigned *bits)
{
    *bits = (ss_scope_is_launch_config(call) ? CALL_CONFIG : 0) |
            (ss_scope_is_launch(call) ? CALL_LAUNCH : 0) |
            (ss_switches_device(call) ? CALL_SWITCH : 0);
    return ss_scope_callee_api(call);
}

/* The API row of 'call' (ss_scope_callee_api), kept where 'm' is not NULL. */
static const ss_api *memo_api(ss_drain_memo *m, CXCursor call)
{
    if (m == NULL)
        return ss_scope_callee_api(call);
    size_t i = facts_of(m, call);
    if (!(m->facts[i].known & FACT_CALL)) {
        m->facts[i].api = read_call(call, &m->facts[i].call);
        m->facts[i].known |= FACT_CALL;
    }
    return m->facts[i].api;
}

/* Where 'c' lies (span_of), kept where 'm' is not NULL. */
static span cursor_span(ss_drain_memo *m, CXCursor c)
{
    if (m == NULL)
        return span_of(c);
    size_t i = facts_of(m, c);
    if (!(m->facts[i].known & FACT_SPAN)) {
        m->facts[i].where = span_of(c);
        m->facts[i].known |= FACT_SPAN;
    }
    return m->facts[i].where;
}

/* read_call of 'call', kept where the question has a memo. */
static const ss_api *call_facts(const flow *f, CXCursor call, unsigned *bits)
{
    ss_drain_memo *m = f->q->memo;
    if (m == NULL)
        return read_call(call, bits);
    const ss_api *api = memo_api(m, call);
    *bits = m->facts[facts_of(m, call)].call;
    return api;
}

/* ss_context_failure_branch of the 'if' statement 's', kept where the question has a memo. */
static unsigned failure_branch(const flow *f, CXCursor s, int *throws)
{
    ss_drain_memo *m = f->q->memo;
    if (m == NULL)
        return ss_context_failure_branch(f->q->graph, s, throws);
    size_t i = facts_of(m, s);
    if (!(m->facts[i].known & FACT_FAILURE)) {
        m->facts[i].failure = ss_context_failure_branch(f->q->graph, s, &m->facts[i].throws);
        m->facts[i].known |= FACT_FAILURE;
    }
    *throws = m->facts[i].throws;
    return m->facts[i].failure;
}

/* The function of the unit 'call' calls (ss_callgraph_callee), else the lambda (called_lambda),
 * else a null cursor; kept where the question has a memo (it has one graph, the unit's). */
static CXCursor flow_callee(const flow *f, CXCursor call)
{
    ss_drain_memo *m = f->q->memo;
    size_t i = m ? facts_of(m, call) : 0;
    if (m && (m->facts[i].known & FACT_CALLEE))
        return m->facts[i].callee;
    CXCursor callee = ss_callgraph_callee(f->q->graph, call);
    if (ss_ast_is_null(callee))
        callee = called_lambda(call);
    if (m) {
        m->facts[i].callee = callee;
        m->facts[i].known |= FACT_CALLEE;
    }
    return callee;
}

/* surely_runs_read, kept per call for the expression asked last: a flow asks it of the same
 * call again on each pass. */
static int surely_runs(const flow *f, CXCursor call)
{
    if (f->expr == NULL || ss_ast_same_node(*f->expr, call))
        return 1;
    ss_drain_memo *m = f->q->memo;
    if (m == NULL)
        return surely_runs_read(f, call);
    size_t i = facts_of(m, call);
    if ((m->facts[i].known & FACT_RUNS) && clang_equalCursors(m->facts[i].runs_in, *f->expr))
        return m->facts[i].runs;
    int runs = surely_runs_read(f, call);
    m->facts[i].runs_in = *f->expr;
    m->facts[i].runs = runs;
    m->facts[i].known |= FACT_RUNS;
    return runs;
}

/* Whether the free 'call' in the flow's function surely waits for the whole device whenever it
 * runs, and for the device the flow is about: nothing between its allocation and it may switch
 * the device or context (ss_context_free_allocation: its memory is then the current device's). */
static int free_drains_device(const flow *f, CXCursor call)
{
    return !ss_ast_is_null(ss_context_free_allocation(f->q->graph, f->function, call));
}

/* Whether the call 'call' of the row 'api' is a free that drains the device
 * (free_drains_device), kept where the question has a memo. */
static int free_drains(const flow *f, CXCursor call, const ss_api *api)
{
    if (api == NULL || (api->klass != SS_CLASS_FREE && api->klass != SS_CLASS_HOST_FREE))
        return 0;
    ss_drain_memo *m = f->q->memo;
    if (m == NULL)
        return free_drains_device(f, call);
    size_t i = facts_of(m, call);
    if (!(m->facts[i].known & FACT_FREE)) {
        m->facts[i].free_drains = free_drains_device(f, call);
        m->facts[i].known |= FACT_FREE;
    }
    return m->facts[i].free_drains;
}

/* Whether the function or lambda 'callee' queues device work in its own body
 * (ss_callgraph_own_work, SS_SCOPE_DEVICE_WORK), kept where the question has a memo: a lambda
 * is no function of the graph. */
static int callee_work(const flow *f, CXCursor callee)
{
    ss_drain_memo *m = f->q->memo;
    if (m == NULL)
        return ss_callgraph_own_work(f->q->graph, callee, SS_SCOPE_DEVICE_WORK, NULL);
    size_t i = facts_of(m, callee);
    if (!(m->facts[i].known & FACT_WORK)) {
        m->facts[i].work = ss_callgraph_own_work(f->q->graph, callee, SS_SCOPE_DEVICE_WORK, NULL);
        m->facts[i].known |= FACT_WORK;
    }
    return m->facts[i].work;
}

/* ss_project_foreign_usr of 'call' ('declared' 0) or ss_project_declared_only (1), kept where
 * the question has a memo. Malloc'ed, or NULL. */
static char *called_usr(const flow *f, CXCursor call, int declared)
{
    ss_drain_memo *m = f->q->memo;
    if (m == NULL)
        return declared ? ss_project_declared_only(call) : ss_project_foreign_usr(call);
    size_t i = facts_of(m, call);
    unsigned fact = declared ? FACT_DECLARED : FACT_FOREIGN;
    if (!(m->facts[i].known & fact)) {
        char *usr = declared ? ss_project_declared_only(call) : ss_project_foreign_usr(call);
        *(declared ? &m->facts[i].declared_usr : &m->facts[i].foreign_usr) = usr;
        m->facts[i].known |= fact;
    }
    char *usr = declared ? m->facts[i].declared_usr : m->facts[i].foreign_usr;
    return usr ? ss_xstrdup(usr) : NULL;
}

/* The state after the call 'call' of 'callee' (function_flow): where the call may not run
 * (surely_runs), joined with the state before it. */
static drain callee_flow(flow *f, CXCursor call, CXCursor callee)
{
    drain before = f->now;
    if (f->q->through && f->depth == 1)
        *f->q->through = call;
    drain after = remembered_flow(f, callee, before);
    return surely_runs(f, call) ? after : join(before, after);
}

static void event_call_flow(flow *f, CXCursor call, const ss_api *api)
{
    const question *q = f->q;
    if (api) {
        int done = api->klass == SS_CLASS_DEVICE_SYNC ||
                   (api->klass == SS_CLASS_STREAM_SYNC &&
                    names_member(call, api->stream_arg, q->stream)) ||
                   (api->klass == SS_CLASS_EVENT_SYNC && names_member(call, 0, q->event));
        if (done) {
            if (surely_runs(f, call))
                f->now = drained(call, 1, 0);
        } else if (api->klass == SS_CLASS_EVENT_RECORD) {
            CXCursor member = clang_Cursor_getNumArguments(call) > 0
                                  ? this_member(clang_Cursor_getArgument(call, 0))
                                  : clang_getNullCursor();
            if (ss_ast_is_null(member) || clang_equalCursors(member, q->event)) {
                f->now = busy();
                f->worked = 1;
            }
        }
        return;
    }
    if (ss_scope_is_launch(call))
        return;
    /* A function of the unit is followed, but one of the event's class called on another
     * object: its members are not this object's. */
    CXCursor callee = ss_callgraph_callee(q->graph, call);
    int same_class = clang_equalCursors(
        clang_getCanonicalCursor(clang_getCursorSemanticParent(clang_getCursorReferenced(call))),
        clang_getCanonicalCursor(q->owner));
    if (!ss_ast_is_null(callee) && (!same_class || on_this(call)) && f->depth < MAX_CALLEE_DEPTH) {
        f->now = callee_flow(f, call, callee);
    } else if (may_record(q, call)) {
        f->now = busy();
        f->worked = 1;
    }
}

/* Where 'call' switches the device (switches_device): a drain of one device says nothing of the
 * next one, so the device is busy after it, unless a join over every device drained it. Returns
 * 1 for such a call, else 0. */
static int device_switch_flow(flow *f, unsigned call_bits)
{
    if (!(call_bits & CALL_SWITCH))
        return 0;
    if (f->now.state == DRAINED && !f->now.all_devices)
        f->now = busy();
    return 1;
}

/* The device drained by 'call' where it runs whenever its expression does (surely_runs),
 * resting on the waits 'assumed'; a wait for the whole device where 'device_wide', else a
 * synchronous copy, which keeps the wait for the whole device that drained it before ('wide'). */
static void drain_by(flow *f, CXCursor call, uint64_t assumed, int device_wide)
{
    if (device_wide && f->q->waited_busy && !*f->q->waited_busy &&
        (f->now.state == BUSY || (f->now.state == DRAINED && f->now.filled))) {
        *f->q->waited_busy = 1;
        *f->q->waited_at = call;
        *f->q->waited_from = f->depth > 1 ? *f->q->through : call;
    }
    if (!surely_runs(f, call))
        return;
    CXCursor wide = device_wide               ? call
                    : f->now.state == DRAINED ? f->now.wide
                                              : clang_getNullCursor();
    f->now = drained(call, 1, assumed);
    f->now.wide = wide;
}

/* Whether the drain 'd' rests on the legacy stream alone, as a synchronous copy's there does: a
 * copy drained it, or a cuBLAS call that waited for that stream ('copy_like'). Where the unit
 * creates no stream, functions of other units may have queued work on streams of their own
 * that such a drain did not wait for (answered). Returns 1 or 0. */
static int drain_misses(const drain *d)
{
    const ss_api *by = d->state == DRAINED ? ss_scope_callee_api(d->by) : NULL;
    return (by && by->klass == SS_CLASS_COPY) || (by == NULL && d->copy_like);
}

/* The name of the call 'by' that drained the device, for the words: a cuBLAS function as code
 * writes it ("cublasSasum"), else the callee's name. Malloc'ed, or NULL. */
static char *drainer_name(CXCursor by)
{
    char *name = ss_cublas_host_result(0, by, NULL);
    return name ? name : ss_scope_callee_name(by);
}

/* A cuBLAS call that returns one scalar into host memory (ss_cublas_host_result), on a handle of
 * the function's own (ss_cublas_own_handle: no code outside the unit can set it to the device
 * pointer mode): it returns only once the result is there (the cuBLAS documentation, "these
 * functions are blocking" in the host pointer mode), so it waits for the work it queues and, on
 * its stream, for all the work queued there before it. Where the device is drained it leaves it
 * drained, by it ('after_drain'), whatever its stream; on the legacy stream
 * (ss_cublas_legacy_handle) it drains as a synchronous copy to the host does where such copies
 * drain (the question's copies_drain), and leaves the state as it is where the question is about
 * work on other streams ('legacy'). Returns 1 where it did one of these, else 0 (a library's
 * call, which makes the device busy). */
static int cublas_flow(flow *f, CXCursor call)
{
    char *name = ss_cublas_host_result(f->q->cublas, call, NULL);
    if (name == NULL)
        return 0;
    free(name);
    if (!ss_cublas_own_handle(f->q->cublas_memo, call))
        return 0;
    if (f->now.state == DRAINED) {
        if (surely_runs(f, call)) {
            f->now.copy_like = drain_misses(&f->now);
            f->now.by = call;
            f->now.after_drain = 1;
        }
        return 1;
    }
    if (!ss_cublas_legacy_handle(f->q->cublas_memo, f->q->cublas, call))
        return 0;
    if (f->q->copies_drain) {
        drain_by(f, call, 0, 0);
        if (f->now.state == DRAINED && ss_ast_same_node(f->now.by, call))
            f->now.copy_like = 1;
        return 1;
    }
    return f->q->legacy;
}

/* A call of a function of another unit (ss_project_foreign_usr) where the question takes them
 * on trust (q->foreign): a drained device stays drained across it, resting on its unit's summary
 * saying it leaves a drained device drained; a busy one stays busy where the question takes the
 * function to keep the device as it is ('keep'), else is drained by it, resting on the summary
 * saying it ends drained ('strict'), as by a wait for the whole device or, with the question's
 * 'copy', by a synchronous copy on the legacy stream. Returns 1 where it took the call so, 0
 * where it cannot (no such function, or too many). */
static int foreign_call_flow(flow *f, CXCursor call)
{
    char *usr = called_usr(f, call, 0);
    uint64_t bit = usr ? assume_noted(&f->q->foreign->calls, usr, f->q->foreign->keep) : 0;
    if (bit == 0)
        return 0;
    if (f->now.state == DRAINED) {
        f->now.assumed |= bit;
        return 1;
    }
    if (f->q->foreign->keep & bit)
        return 1; /* taken to leave the device as it is: busy */
    drain_by(f, call, bit, !f->q->foreign->copy);
    if (f->now.state == DRAINED && ss_ast_same_node(f->now.by, call)) {
        /* Not a wait that a later copy's drain may lean on ('wide'): that drain does not carry
         * the calls it rests on. */
        f->now.strict = bit;
        f->now.copy_like = f->q->foreign->copy;
        f->now.wide = clang_getNullCursor();
    }
    return 1;
}

/* A call 'call_flow' resolves to no function of the unit and no other unit's summary: one that
 * only declarations of the unit name, assumed to wait where a question says so; a template's
 * plumbing and a system value's copy, which queue nothing; else a library's call, which may
 * queue work. */
static void unresolved_call_flow(flow *f, CXCursor call)
{
    char *usr = f->q->assumed ? called_usr(f, call, 1) : NULL;
    uint64_t bit = usr ? assume_noted(f->q->assumed, usr, 0) : 0;
    if (bit) {
        drain_by(f, call, bit, 1);
        return;
    }
    if (!dependent_plumbing(call) && !system_value_copy(call) &&
        ss_context_library_enqueues(call)) {
        f->now = busy();
        f->worked = 1;
    }
}

static void call_flow(flow *f, CXCursor call)
{
    /* A launch's configuration call is the launch's own part (declared outside the system
     * headers where the toolkit's declarations are served from memory). */
    if (f->now.state == UNREACHED)
        return;
    unsigned bits;
    const ss_api *api = call_facts(f, call, &bits);
    if (bits & CALL_CONFIG)
        return;
    if (!ss_ast_is_null(f->q->event))
        event_call_flow(f, call, api);
    if (!ss_ast_is_null(f->q->event) || device_switch_flow(f, bits))
        return;
    int sync_copy;
    int kind = sync_copy_direction(f, call, api, &sync_copy);
    if (api && drains(f, api, sync_copy, kind)) {
        drain_by(f, call, 0, api->klass == SS_CLASS_DEVICE_SYNC);
        return;
    }
    /* A free of memory a synchronizing allocator gave waits for the whole device (measured,
     * docs/studies/validation.md 2026-12-06 23:40) where it surely frees such memory. */
    if (free_drains(f, call, api)) {
        drain_by(f, call, 0, 1);
        return;
    }
    /* A synchronous copy within the device or between devices (cudaMemcpy of
     * cudaMemcpyDeviceToDevice, cudaMemcpyPeer; or of a direction lint cannot read) returns
     * before it runs, as CUDA's API synchronization behavior says: it is queued work. A copy
     * within the host queues nothing. */
    if (sync_copy && ss_sync_copy_queued(kind)) {
        if (f->q->legacy && on_legacy(f, call, api))
            return;
        f->now = busy();
        f->worked = 1;
        return;
    }
    /* A memset (a fill of device memory at the device's memory bandwidth) adds no wait worth
     * a warning after a drain; the words say that memsets may be queued. */
    if (api && api->klass == SS_CLASS_MEMSET && !f->q->own_default) {
        f->now.filled = 1;
        return;
    }
    if ((bits & CALL_LAUNCH) || (api && ss_context_call_enqueues(f->q->graph, call, api))) {
        if (f->q->legacy && on_legacy(f, call, api))
            return;
        f->now = busy();
        f->worked = 1;
        return;
    }
    /* For the stream a Thrust algorithm synchronizes, its own work and the iterator accessors
     * and constructions around it (host_side_call) leave the state as it is. */
    if (api ||
        (f->q->own_default && (thrust_on_default(call) || host_side_call(call) ||
                               ss_check_thrust_element_read(f->function, call))) ||
        cublas_flow(f, call))
        return;
    /* A lambda's call operator is followed into its body, as a function of the unit. */
    CXCursor callee = flow_callee(f, call);
    if (ss_ast_is_null(callee)) {
        if (!f->q->foreign || !foreign_call_flow(f, call))
            unresolved_call_flow(f, call);
        return;
    }
    if (f->depth < MAX_CALLEE_DEPTH) {
        f->now = callee_flow(f, call, callee);
    } else if (callee_work(f, callee)) {
        f->now = busy();
        f->worked = 1;
    }
}

/* ------------------------------------------------------------------------------------------
 * What a statement does: the calls of an expression in the order they run, the branches of an
 * 'if' joined, a loop's body run no, one or more times. */

static void stmt_flow(flow *f, CXCursor s);

static int structured(enum CXCursorKind k)
{
    return k == CXCursor_CompoundStmt || k == CXCursor_IfStmt || k == CXCursor_ForStmt ||
           k == CXCursor_WhileStmt || k == CXCursor_CXXForRangeStmt || k == CXCursor_DoStmt ||
           k == CXCursor_ReturnStmt || k == CXCursor_SwitchStmt || k == CXCursor_LabelStmt ||
           k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt || k == CXCursor_GotoStmt ||
           k == CXCursor_IndirectGotoStmt || k == CXCursor_BreakStmt ||
           k == CXCursor_ContinueStmt || k == CXCursor_CXXTryStmt;
}

static void statement_flow(CXCursor s, void *data)
{
    stmt_flow(data, s);
}

static void node_flow(CXCursor c, void *data)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr)
        call_flow(data, c);
    else if (k == CXCursor_CXXThrowExpr) /* inside an expression ('c ? x : throw e') */
        leave(data);
}

/* The kept run order 'r' (run_of) followed: each call, throw and statement in turn. The memo's
 * steps may move as the flow adds to them: each is read by its place. */
static void steps_flow(flow *f, step_range r)
{
    for (size_t i = 0; i < r.count; i++) {
        flow_step step = f->q->memo->steps[r.first + i];
        if (step.kind == STEP_STATEMENT)
            stmt_flow(f, step.c);
        else if (step.kind == STEP_CALL)
            call_flow(f, step.c);
        else
            leave(f);
    }
}

/* The expression 'e': its calls in the order they run, a statement inside it followed as one. */
static void expr_flow(flow *f, CXCursor e)
{
    ss_ast_run_walk walk = {structured, statement_flow, node_flow, f};
    const CXCursor *outer = f->expr;
    f->expr = &e;
    if (f->q->memo)
        steps_flow(f, run_of(f->q->memo, e, 0));
    else
        ss_ast_run_order(e, &walk);
    f->expr = outer;
}

/* Each child of 's' in turn, as expr_flow. */
static void children_flow(flow *f, CXCursor s)
{
    ss_ast_run_walk walk = {structured, statement_flow, node_flow, f};
    if (f->q->memo)
        steps_flow(f, run_of(f->q->memo, s, 1));
    else
        ss_ast_run_order_children(s, &walk);
}

/* The children of 's' from 'from' up to (not including) 'to' that are not statements of their
 * own (a loop's or an if's parts before its body: init, condition, increment). */
static void parts_flow(flow *f, CXCursor s, unsigned from, unsigned to)
{
    for (unsigned i = from; i < to; i++)
        expr_flow(f, child(f, s, i));
}

/* The body of the loop 's'. */
static CXCursor loop_body(CXCursor s)
{
    unsigned n = ss_ast_child_count(s);
    return ss_ast_child(s, clang_getCursorKind(s) == CXCursor_DoStmt ? 0 : n - 1);
}

/* loop_body, through the memo. */
static CXCursor flow_loop_body(const flow *f, CXCursor s)
{
    unsigned n = child_count(f, s);
    return child(f, s, clang_getCursorKind(s) == CXCursor_DoStmt ? 0 : n - 1);
}

/* One iteration of the loop 's': its body (its continues joined at its end), then its other parts
 * (condition, increment); the states at its breaks are joined into '*breaks'. */
static void iteration_flow(flow *f, CXCursor s, drain *breaks)
{
    unsigned n = child_count(f, s);
    int is_do = clang_getCursorKind(s) == CXCursor_DoStmt;
    drain *outer_breaks = f->breaks, *outer_continues = f->continues, continues = unreached();
    f->breaks = breaks;
    f->continues = &continues;
    stmt_flow(f, flow_loop_body(f, s));
    f->now = join(f->now, continues);
    f->breaks = outer_breaks;
    f->continues = outer_continues;
    parts_flow(f, s, is_do ? 1 : 0, is_do ? n : n - 1);
}

/* The statements of the block 's' in turn. */
static void compound_flow(flow *f, CXCursor s)
{
    if (f->q->memo == NULL) {
        for (unsigned i = 0, n = ss_ast_child_count(s); i < n; i++)
            stmt_flow(f, ss_ast_child(s, i));
        return;
    }
    step_range r = kids_of(f->q->memo, s);
    for (size_t i = 0; i < r.count; i++)
        stmt_flow(f, f->q->memo->steps[r.first + i].c);
}

/* ------------------------------------------------------------------------------------------
 * Jumps: a break or continue goes to the state its loop or 'switch' joins there; a case label
 * is entered from where its 'switch' starts too; a label from the gotos to it. */

/* Where 's' starts in its file (its expansion), for source order. */
static unsigned offset_of(CXCursor s)
{
    unsigned offset = 0;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(s)), NULL, NULL, NULL,
                               &offset);
    return offset;
}

/* The gotos of a function to one label, against the flow's records of them. */
typedef struct label_walk {
    CXCursor label;
    unsigned label_offset;
    goto_records *gotos;
    drain joined; /* their states, joined */
    int unknown;  /* one was not followed before the label, or goes back to it, or the function
                   * has a computed goto */
} label_walk;

static enum CXChildVisitResult find_gotos(CXCursor c, CXCursor parent, CXClientData data)
{
    label_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    if (k == CXCursor_IndirectGotoStmt ||
        (k == CXCursor_GotoStmt && ss_ast_is_null(clang_getCursorReferenced(c)))) {
        w->unknown = 1;
        return CXChildVisit_Break;
    }
    if (k != CXCursor_GotoStmt || !ss_ast_same_node(clang_getCursorReferenced(c), w->label))
        return CXChildVisit_Recurse;
    size_t i = 0;
    while (i < w->gotos->count && !ss_ast_same_node(w->gotos->rows[i].at, c))
        i++;
    if (i == w->gotos->count || offset_of(c) >= w->label_offset) {
        w->unknown = 1;
        return CXChildVisit_Break;
    }
    w->joined = join(w->joined, w->gotos->rows[i].state);
    return CXChildVisit_Continue;
}

/* The state where the label statement 's' is reached: the flow's, joined with the states of the
 * gotos to it, each followed before it (a forward goto); busy where one was not (a goto back to
 * it, or one the flow did not follow), or the function has a computed goto. */
static drain label_state(flow *f, CXCursor s)
{
    if (f->gotos == NULL)
        return busy();
    for (size_t i = 0; i < f->gotos->count; i++) {
        if (ss_ast_same_node(f->gotos->rows[i].label, s))
            f->gotos->rows[i].landed = 1;
    }
    label_walk w = {s, offset_of(s), f->gotos, f->now, 0};
    CXCursor body = ss_ast_child(f->function, ss_ast_child_count(f->function) - 1);
    ss_ast_visit_whole(body, body, find_gotos, &w);
    return w.unknown ? busy() : w.joined;
}

/* The goto 's': its state recorded for its label (label_state); nothing after it runs on this
 * way. */
static void goto_flow(flow *f, CXCursor s)
{
    if (clang_getCursorKind(s) == CXCursor_IndirectGotoStmt || f->gotos == NULL) {
        leave(f);
    } else {
        goto_records *g = f->gotos;
        size_t i = 0;
        while (i < g->count && !ss_ast_same_node(g->rows[i].at, s))
            i++;
        if (i == g->count) {
            ss_xgrow((void **)&g->rows, &g->cap, g->count + 1, sizeof *g->rows);
            g->rows[g->count++] = (goto_record){s, clang_getCursorReferenced(s), unreached(), 0};
        }
        g->rows[i].state = join(g->rows[i].state, f->now);
    }
    f->now = unreached();
}

/* The break or continue 's': its state joined where it goes; past the statements followed, it
 * leaves them. */
static void jump_flow(flow *f, CXCursor s)
{
    drain *to = clang_getCursorKind(s) == CXCursor_BreakStmt ? f->breaks : f->continues;
    if (to != NULL)
        *to = join(*to, f->now);
    else
        leave(f);
    f->now = unreached();
}

/* Whether a jump of the flow left the statements it followed: a break, continue or throw past
 * them, a goto to a label it did not reach; with 'after_drain', only one that no drain on every
 * way to it came before (the walk to the next wait: one after that wait has not skipped it). */
static int jumped_away(const flow *f, int after_drain)
{
    for (size_t i = 0; f->gotos && i < f->gotos->count; i++) {
        drain at = f->gotos->rows[i].state;
        if (!f->gotos->rows[i].landed && !(after_drain && at.state == DRAINED && at.fresh))
            return 1;
    }
    return (f->left & (after_drain ? LEFT_UNDRAINED : LEFT)) != 0;
}

/* The 'switch' 's': its condition, then its body, each case label entered from where it starts
 * as well as from the case before; after it, the states at its breaks and at its end, and where
 * it starts (no case taken). */
static void switch_flow(flow *f, CXCursor s)
{
    unsigned n = ss_ast_child_count(s);
    if (n == 0)
        return;
    parts_flow(f, s, 0, n - 1);
    drain start = f->now, breaks = unreached();
    drain *outer_breaks = f->breaks;
    const drain *outer_cases = f->cases;
    f->breaks = &breaks;
    f->cases = &start;
    stmt_flow(f, ss_ast_child(s, n - 1));
    f->breaks = outer_breaks;
    f->cases = outer_cases;
    f->now = join(join(f->now, breaks), start);
}

/* The 'try' statement 's': its block, then each handler from a busy device (entered from any
 * call of the block); after it, the states at the ends of the block and of each handler. */
static void try_flow(flow *f, CXCursor s)
{
    unsigned n = ss_ast_child_count(s);
    if (n == 0)
        return;
    stmt_flow(f, ss_ast_child(s, 0));
    drain after = f->now;
    for (unsigned i = 1; i < n; i++) {
        CXCursor handler = ss_ast_child(s, i);
        unsigned m = ss_ast_child_count(handler);
        f->now = busy();
        if (m > 0)
            stmt_flow(f, ss_ast_child(handler, m - 1));
        after = join(after, f->now);
    }
    f->now = after;
}

/* The statement a label, case or default label 's' labels. */
static CXCursor labeled(CXCursor s)
{
    unsigned n = ss_ast_child_count(s);
    return n > 0 ? ss_ast_child(s, n - 1) : clang_getNullCursor();
}

/* The statements of a jump or a label: 1 where 's' is one and is followed. */
static int jump_stmt_flow(flow *f, CXCursor s)
{
    switch (clang_getCursorKind(s)) {
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt:
        goto_flow(f, s);
        return 1;
    case CXCursor_BreakStmt:
    case CXCursor_ContinueStmt:
        jump_flow(f, s);
        return 1;
    case CXCursor_LabelStmt:
        f->now = label_state(f, s);
        break;
    case CXCursor_CaseStmt:
    case CXCursor_DefaultStmt:
        f->now = f->cases ? join(f->now, *f->cases) : busy();
        break;
    case CXCursor_SwitchStmt:
        switch_flow(f, s);
        return 1;
    case CXCursor_CXXTryStmt:
        try_flow(f, s);
        return 1;
    default:
        return 0;
    }
    CXCursor inner = labeled(s);
    if (!ss_ast_is_null(inner))
        stmt_flow(f, inner);
    return 1;
}

static enum CXChildVisitResult find_jump(CXCursor c, CXCursor parent, CXClientData data)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    *(int *)data = k == CXCursor_ContinueStmt || k == CXCursor_BreakStmt ||
                   k == CXCursor_GotoStmt || k == CXCursor_IndirectGotoStmt ||
                   k == CXCursor_ReturnStmt || k == CXCursor_CXXThrowExpr;
    return *(int *)data ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether 'e' names the variable 'var'. */
static int names_var(CXCursor e, CXCursor var)
{
    e = ss_ast_strip(e);
    return clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(e), var);
}

/* The variable that the init 'init' of a 'for' sets to the constant 0 ('int g = 0', 'g = 0'),
 * or a null cursor. */
static CXCursor zero_start(CXCursor init)
{
    long long v = -1;
    enum CXCursorKind k = clang_getCursorKind(init);
    char op[8] = "";
    if (k == CXCursor_DeclStmt && ss_ast_child_count(init) == 1) {
        CXCursor var = ss_ast_child(init, 0);
        unsigned n = ss_ast_child_count(var);
        if (clang_getCursorKind(var) == CXCursor_VarDecl && n > 0 &&
            ss_ast_eval_int(ss_ast_child(var, n - 1), &v) == 0 && v == 0)
            return var;
    } else if (k == CXCursor_BinaryOperator && ss_ast_binary_op(init, op, sizeof op) == 0 &&
               strcmp(op, "=") == 0 && ss_ast_eval_int(ss_ast_child(init, 1), &v) == 0 && v == 0) {
        CXCursor lhs = ss_ast_strip(ss_ast_child(init, 0));
        if (clang_getCursorKind(lhs) == CXCursor_DeclRefExpr)
            return clang_getCursorReferenced(lhs);
    }
    return clang_getNullCursor();
}

/* Whether 'inc' adds one to 'var' ('++g', 'g++', 'g += 1'). */
static int steps_up_by_one(CXCursor inc, CXCursor var)
{
    enum CXCursorKind k = clang_getCursorKind(inc);
    char op[8] = "";
    long long v = 0;
    if (k == CXCursor_CompoundAssignOperator)
        return ss_ast_binary_op(inc, op, sizeof op) == 0 && strcmp(op, "+=") == 0 &&
               names_var(ss_ast_child(inc, 0), var) &&
               ss_ast_eval_int(ss_ast_child(inc, 1), &v) == 0 && v == 1;
    if (k != CXCursor_UnaryOperator || !names_var(ss_ast_child(inc, 0), var))
        return 0;
    char *text = ss_expr_text(inc);
    size_t len = text ? strlen(text) : 0;
    int yes = len > 2 && (strncmp(text, "++", 2) == 0 || strcmp(text + len - 2, "++") == 0);
    free(text);
    return yes;
}

/* Whether the loop 's' goes over the devices 0, 1, ... up to a bound, each once in order:
 * 'for (g = 0; g < n; ++g)' ('!=' and 'g += 1' too), its body leaving no iteration early (no
 * continue, break, goto, return or throw anywhere in it, lambdas aside). The bound is taken
 * to be the count of devices the unit works on. */
static int over_devices_from_zero(CXCursor s, CXCursor body)
{
    if (clang_getCursorKind(s) != CXCursor_ForStmt || ss_ast_child_count(s) != 4)
        return 0;
    int jumps = 0;
    clang_visitChildren(body, find_jump, &jumps);
    CXCursor var = zero_start(ss_ast_child(s, 0)), cond = ss_ast_strip(ss_ast_child(s, 1));
    char op[8] = "";
    return !jumps && !ss_ast_is_null(var) && clang_getCursorKind(cond) == CXCursor_BinaryOperator &&
           ss_ast_binary_op(cond, op, sizeof op) == 0 &&
           (strcmp(op, "<") == 0 || strcmp(op, "!=") == 0) &&
           names_var(ss_ast_child(cond, 0), var) &&
           steps_up_by_one(ss_ast_strip(ss_ast_child(s, 2)), var);
}

/* Whether the loop 's' sets the device in its own body and goes over the devices from 0
 * (join_loop_flow), kept where the question has a memo. */
static int join_shape(const flow *f, CXCursor s)
{
    ss_drain_memo *m = f->q->memo;
    size_t i = m ? facts_of(m, s) : 0;
    if (m && (m->facts[i].known & FACT_JOIN))
        return m->facts[i].join;
    CXCursor body = loop_body(s);
    int join = ss_scope_sets_device(body, 1) && over_devices_from_zero(s, body);
    if (m) {
        m->facts[i].join = join;
        m->facts[i].known |= FACT_JOIN;
    }
    return join;
}

/* A join of every device: the loop 's' goes over the devices from 0 (over_devices_from_zero),
 * sets the device in its own body (not in an inner loop) and, whatever the state it starts
 * from, leaves it drained at the end of the body on every way (a device-wide wait after the
 * set). It goes over the devices the unit works on ('for (g = 0; g < n; ++g) {
 * cudaSetDevice(g); cudaDeviceSynchronize(); }'), each drained in turn, and is taken to run at
 * least once: with no device there is no work either. Sets f->now and returns 1 where 's' is
 * one. */
static int join_loop_flow(flow *f, CXCursor s)
{
    if (f->now.state == UNREACHED || !join_shape(f, s))
        return 0;
    flow pass = *f;
    pass.now = busy();
    drain breaks = unreached(); /* none: over_devices_from_zero */
    iteration_flow(&pass, s, &breaks);
    if (pass.now.state != DRAINED)
        return 0;
    f->worked |= pass.worked;
    f->returned = join(f->returned, pass.returned);
    f->now = pass.now;
    f->now.all_devices = 1;
    return 1;
}

/* The loop 's': its body, then its other parts (condition, increment), run some times after
 * the state it starts from, or (unless 'at_least_once') not at all; a join of every device
 * (join_loop_flow) leaves the device drained. */
static void loop_flow(flow *f, CXCursor s, int at_least_once)
{
    if (child_count(f, s) == 0 || join_loop_flow(f, s))
        return;
    drain in = f->now, breaks = unreached();
    for (int pass = 0; pass < 2; pass++) {
        iteration_flow(f, s, &breaks);
        f->now = pass == 0 ? join(in, f->now) : f->now;
    }
    if (!at_least_once)
        f->now = join(in, f->now);
    f->now = join(f->now, breaks);
}

/* A 'do { } while (0)': its body once; a break or continue leaves it. */
static void once_flow(flow *f, CXCursor s)
{
    drain *outer_breaks = f->breaks, *outer_continues = f->continues, out = unreached();
    f->breaks = f->continues = &out;
    stmt_flow(f, child(f, s, 0));
    f->breaks = outer_breaks;
    f->continues = outer_continues;
    f->now = join(f->now, out);
}

/* The branch 'index' of the 'if' statement 's', or, where it is the branch that runs only when
 * a CUDA call failed ('failure', ss_context_failure_branch), nothing: that is the error path,
 * which reports the error or ends the program (resetting the device first, perhaps), and the
 * findings are about the run where the calls succeed. A function of another unit called there
 * only, which may do anything, does not make the device busy on the way that goes on. */
static void branch_flow(flow *f, CXCursor s, unsigned index, unsigned failure)
{
    if (index == failure)
        f->now = unreached();
    else
        stmt_flow(f, child(f, s, index));
}

static void if_flow(flow *f, CXCursor s)
{
    unsigned n = child_count(f, s), cond = 0;
    while (cond < n && !clang_isExpression(clang_getCursorKind(child(f, s, cond))))
        cond++; /* ss_ast_if_condition */
    if (cond >= n)
        return;
    parts_flow(f, s, 0, cond + 1);
    int throws = 0;
    unsigned failure = f->now.state == UNREACHED ? 0 : failure_branch(f, s, &throws);
    if (throws)
        failure = 0; /* followed as any branch: its throw ends its way (stmt_flow) */
    drain before = f->now;
    if (cond + 1 < n)
        branch_flow(f, s, cond + 1, failure);
    drain taken = f->now;
    f->now = before;
    if (cond + 2 < n)
        branch_flow(f, s, cond + 2, failure);
    f->now = join(taken, f->now);
    if (failure && f->now.state == DRAINED && !f->now.aside) {
        f->now.aside = 1;
        f->now.aside_at = s;
    }
}

/* The return or co_return 's': its value, then the end of the function; where a return leaves
 * the statements followed (return_leaves), it is a jump past them (leave). */
static void return_flow(flow *f, CXCursor s)
{
    children_flow(f, s);
    f->returned = join(f->returned, f->now);
    if (f->return_leaves && f->now.state != UNREACHED)
        leave(f);
    f->now = unreached();
}

static void stmt_flow(flow *f, CXCursor s)
{
    if (--flow_budget < 0) {
        f->now = busy();
        f->worked = 1;
        return;
    }
    enum CXCursorKind k = clang_getCursorKind(s);
    switch (k) {
    case CXCursor_CompoundStmt:
        compound_flow(f, s);
        return;
    case CXCursor_IfStmt:
        if_flow(f, s);
        return;
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_CXXForRangeStmt:
        loop_flow(f, s, 0);
        return;
    case CXCursor_DoStmt:
        if (ss_ast_do_once(s))
            once_flow(f, s);
        else
            loop_flow(f, s, 1);
        return;
    case CXCursor_ReturnStmt:
        return_flow(f, s);
        return;
    default:
        if (k == CXCursor_UnexposedStmt && ss_ast_written_as(s, "co_return")) {
            return_flow(f, s);
            return;
        }
        if (jump_stmt_flow(f, s))
            return;
        /* A throw leaves the way it is on (an error path, to a handler that starts busy,
         * try_flow): nothing after it runs there. */
        if (clang_getCursorKind(ss_ast_strip(s)) == CXCursor_CXXThrowExpr) {
            leave(f);
            f->now = unreached();
            return;
        }
        expr_flow(f, s);
        return;
    }
}

/* A flow of 'function' from 'now', its gotos recorded in 'gotos' (goto_records_free). */
static flow flow_of(const question *q, CXCursor function, int depth, drain now, goto_records *gotos)
{
    flow f;
    memset(&f, 0, sizeof f);
    f.q = q;
    f.function = function;
    f.depth = depth;
    f.now = now;
    f.returned = unreached();
    f.gotos = gotos;
    return f;
}

static void goto_records_free(goto_records *g)
{
    free(g->rows);
    memset(g, 0, sizeof *g);
}

/* The state after the function 'function' (a definition) runs from 'in'. */
static drain function_flow(flow *f, CXCursor function, drain in)
{
    unsigned n = child_count(f, function);
    CXCursor body = n > 0 ? child(f, function, n - 1) : clang_getNullCursor();
    if (clang_getCursorKind(body) != CXCursor_CompoundStmt)
        return busy();
    goto_records gotos = {NULL, 0, 0};
    flow inner = flow_of(f->q, function, f->depth + 1, in, &gotos);
    stmt_flow(&inner, body);
    goto_records_free(&gotos);
    f->worked |= inner.worked;
    f->left |= inner.left; /* a throw out of it */
    return join(inner.now, inner.returned);
}

/* ------------------------------------------------------------------------------------------
 * What the device has queued where a call is made. */

/* The streams the unit creates: 'blocking' when one blocks with the legacy stream
 * (cudaStreamCreate, flags 0), 'other' when one does not or its flags are not a constant;
 * 'own_streams' when the unit's code may hold a stream other than the legacy one (names_stream). */
typedef struct creation_walk {
    int blocking, other, own_streams;
} creation_walk;

/* Whether 'type' is a GPU library's handle, which may carry a stream set where it was made:
 * cuBLAS's, cuDNN's, cuSPARSE's, cuSOLVER's ('...Handle_t'), a cuFFT plan, a cuRAND generator. */
static int is_handle_type(CXType type)
{
    CXString ts = clang_getTypeSpelling(type);
    const char *t = clang_getCString(ts);
    size_t n = strlen(t);
    int handle = (n > 8 && strcmp(t + n - 8, "Handle_t") == 0) || strcmp(t, "cufftHandle") == 0 ||
                 strcmp(t, "curandGenerator_t") == 0;
    clang_disposeString(ts);
    return handle;
}

/* Whether the cursor 'c' (of the unit's own code) may hold a stream other than the legacy
 * default: it declares a variable, parameter or member of a stream type, or a function that
 * returns one; it is an expression of a stream type other than 0 and cudaStreamLegacy (a
 * variable, a call's result, cudaStreamPerThread); or it declares a library handle that comes
 * from elsewhere (a parameter, a member, an extern variable). */
static int names_stream(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    CXType type = clang_getCursorType(c);
    if (k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod)
        type = clang_getResultType(type);
    if (ss_check_is_stream_type(type)) {
        if (!clang_isExpression(k))
            return clang_isDeclaration(k);
        if (ss_check_is_omitted(c))
            return 0; /* a default argument: the declarations' is 0 */
        ss_stream_value v = ss_stream_constant(c);
        return !(v == SS_STREAM_NULL || v == SS_STREAM_LEGACY);
    }
    if ((k == CXCursor_ParmDecl || k == CXCursor_FieldDecl ||
         (k == CXCursor_VarDecl && clang_Cursor_getStorageClass(c) == CX_SC_Extern)) &&
        is_handle_type(type))
        return 1;
    return 0;
}

static enum CXChildVisitResult find_creations(CXCursor c, CXCursor parent, CXClientData data)
{
    creation_walk *w = data;
    /* Asked of the unit's top-level declarations only: the location of a node deep in a
     * left-nested expression takes time in its depth to find. */
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_foreign_decl(c))
        return CXChildVisit_Continue;
    if (!w->own_streams && names_stream(c))
        w->own_streams = 1;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    int creation = ss_check_stream_creation(c, ss_scope_callee_api(c));
    if (creation == 1)
        w->blocking = 1;
    else if (creation >= 2)
        w->other = 1;
    return w->other ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Why a synchronous copy waits for all work, or 0 where it may not: the default stream is the
 * legacy one, and the unit creates its streams blocking (at least one, none other), or it
 * creates none and its code names no stream but the legacy default (no stream variable,
 * parameter or member that could hold one handed in from elsewhere, non-blocking perhaps), so
 * that all its work is queued on the legacy stream (a PyTorch extension's is on its caller's
 * current stream). Looked at once per unit. */
static ss_copy_drain copies_drain(ss_check_ctx *ctx)
{
    if (ctx->copy_drain == SS_COPY_DRAIN_UNKNOWN) {
        creation_walk w = {0, ctx->per_thread, ctx->torch};
        if (!w.other)
            clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_creations, &w);
        ctx->copy_drain = w.other         ? SS_COPY_DRAIN_NO
                          : w.blocking    ? SS_COPY_DRAIN_BLOCKING
                          : w.own_streams ? SS_COPY_DRAIN_NO
                                          : SS_COPY_DRAIN_LEGACY_ONLY;
    }
    return ctx->copy_drain == SS_COPY_DRAIN_NO ? 0 : ctx->copy_drain;
}

/* The bits of ctx->foreign_streams: looked at, a stream the unit did not create may be held
 * (foreign_stream), the unit passes host memory to cudaHostRegister. */
enum { UNIT_LOOKED = 1, UNIT_FOREIGN_STREAM = 2, UNIT_HOST_REGISTER = 4 };

/* The stream type that 't' holds through one reference, array or pointer level
 * ('cudaStream_t &', 'const cudaStream_t *', 'cudaStream_t[4]'), or 't' itself. */
static CXType held_type(CXType t)
{
    CXType c = clang_getCanonicalType(t);
    if (c.kind == CXType_LValueReference || c.kind == CXType_RValueReference)
        return clang_getPointeeType(c);
    if (c.kind == CXType_ConstantArray || c.kind == CXType_IncompleteArray ||
        c.kind == CXType_VariableArray || c.kind == CXType_DependentSizedArray)
        return clang_getArrayElementType(c);
    if (c.kind == CXType_Pointer && ss_check_is_stream_type(clang_getPointeeType(c)))
        return clang_getPointeeType(c);
    return t;
}

/* Whether 'e' is a cast to a stream type from a value of another type (an integer handle, a
 * 'void *'), not a constant null or legacy stream. */
static int cast_stream(CXCursor e, enum CXCursorKind k)
{
    if (k != CXCursor_CStyleCastExpr && k != CXCursor_CXXStaticCastExpr &&
        k != CXCursor_CXXReinterpretCastExpr && k != CXCursor_CXXFunctionalCastExpr)
        return 0;
    unsigned n = ss_ast_child_count(e);
    CXCursor from = n ? ss_ast_child(e, n - 1) : clang_getNullCursor();
    return !ss_ast_is_null(from) && !ss_check_is_stream_type(clang_getCursorType(from));
}

/* Whether the call 'call' is handed the address of a stream ('&s', '&p->s') and creates none:
 * a function that may store any stream there (a library's getter). */
static int stream_out_argument(CXCursor call)
{
    if (ss_check_stream_creation(call, ss_scope_callee_api(call)) != 0)
        return 0;
    for (int i = 0, n = clang_Cursor_getNumArguments(call); i < n; i++) {
        CXCursor arg = ss_ast_strip(clang_Cursor_getArgument(call, (unsigned)i));
        CXType t = clang_getCanonicalType(clang_getCursorType(arg));
        if (clang_getCursorKind(arg) == CXCursor_UnaryOperator && t.kind == CXType_Pointer &&
            ss_check_is_stream_type(clang_getPointeeType(t)))
            return 1;
    }
    return 0;
}

/* Whether the cursor 'c' (of the unit's own code) may hold a stream that the unit did not create
 * itself, non-blocking perhaps: a stream (or library handle, names_stream) parameter or member,
 * also a reference, a pointer or an array of streams, a stream variable outside any function
 * that is not static, an expression of a stream type that is a call's result, a member or a cast
 * from another type other than 0 and cudaStreamLegacy, or a call handed a stream's address that
 * creates none. */
static int foreign_stream(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    CXType type = clang_getCursorType(c);
    if (k == CXCursor_ParmDecl || k == CXCursor_FieldDecl)
        return ss_check_is_stream_type(held_type(type)) || is_handle_type(type);
    if (k == CXCursor_CallExpr && stream_out_argument(c))
        return 1;
    if (k == CXCursor_VarDecl && !ss_check_is_stream_type(type))
        type = held_type(type);
    if (!ss_check_is_stream_type(type))
        return 0;
    if (k == CXCursor_VarDecl) {
        enum CXCursorKind in = clang_getCursorKind(clang_getCursorSemanticParent(c));
        return clang_Cursor_getStorageClass(c) != CX_SC_Static && !clang_isStatement(in) &&
               in != CXCursor_FunctionDecl && in != CXCursor_CXXMethod &&
               in != CXCursor_Constructor && in != CXCursor_Destructor &&
               in != CXCursor_LambdaExpr && in != CXCursor_FunctionTemplate;
    }
    if (k != CXCursor_CallExpr && k != CXCursor_MemberRefExpr && !cast_stream(c, k))
        return 0;
    ss_stream_value v = ss_stream_constant(c);
    return !(v == SS_STREAM_NULL || v == SS_STREAM_LEGACY);
}

static enum CXChildVisitResult find_foreign(CXCursor c, CXCursor parent, CXClientData data)
{
    int *bits = data;
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_foreign_decl(c))
        return CXChildVisit_Continue;
    if (foreign_stream(c))
        *bits |= UNIT_FOREIGN_STREAM;
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        CXString name = clang_getCursorSpelling(c);
        if (strcmp(clang_getCString(name), "cudaHostRegister") == 0)
            *bits |= UNIT_HOST_REGISTER;
        clang_disposeString(name);
    }
    return CXChildVisit_Recurse;
}

/* The unit's bits (UNIT_FOREIGN_STREAM, UNIT_HOST_REGISTER), looked at once per unit. */
static int unit_bits(ss_check_ctx *ctx)
{
    if (ctx->foreign_streams == 0) {
        int bits = UNIT_LOOKED | (ctx->torch ? UNIT_FOREIGN_STREAM : 0);
        clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_foreign, &bits);
        ctx->foreign_streams = bits;
    }
    return ctx->foreign_streams;
}

/* copies_drain, where the unit knows every stream that may hold work: with its streams created
 * blocking, 0 where its code may also hold a stream it did not create (foreign_stream), which a
 * copy on the legacy stream may not wait for. */
static ss_copy_drain known_copies_drain(ss_check_ctx *ctx)
{
    ss_copy_drain d = copies_drain(ctx);
    if (d == SS_COPY_DRAIN_BLOCKING && (unit_bits(ctx) & UNIT_FOREIGN_STREAM))
        return 0;
    return d;
}

static int is_loop(CXCursor s)
{
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_DoStmt)
        return !ss_ast_do_once(s);
    return k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_CXXForRangeStmt;
}

/* Whether 'child' is the body of the loop 's'. */
static int is_body(CXCursor s, CXCursor child)
{
    unsigned n = ss_ast_child_count(s);
    if (n == 0 || !is_loop(s))
        return 0;
    return ss_ast_same_node(loop_body(s), child);
}

/* What the parts of 's' that run before its child 'child' do (the statements of a block
 * before it, an if's condition); a loop whose body is not the way down leaves the state
 * unknown. */
static void before_flow(flow *f, CXCursor s, CXCursor child)
{
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_CompoundStmt) {
        for (unsigned i = 0, n = ss_ast_child_count(s); i < n; i++) {
            CXCursor stmt = ss_ast_child(s, i);
            if (ss_ast_same_node(stmt, child))
                break;
            stmt_flow(f, stmt);
        }
    } else if (k == CXCursor_IfStmt) {
        unsigned cond = ss_ast_if_condition(s);
        if (cond < ss_ast_child_count(s) && !ss_ast_same_node(ss_ast_child(s, cond), child))
            parts_flow(f, s, 0, cond + 1);
    } else if (k == CXCursor_LabelStmt) {
        f->now = label_state(f, s);
    } else if (k == CXCursor_LambdaExpr || k == CXCursor_SwitchStmt || k == CXCursor_CaseStmt ||
               k == CXCursor_DefaultStmt || is_loop(s) ||
               (k == CXCursor_CXXTryStmt && !ss_ast_same_node(ss_ast_child(s, 0), child))) {
        /* A handler is entered from any call of its 'try' block. */
        f->now = busy();
    }
}

static drain entry_state(const question *q, CXCursor function, int depth);

/* The state that the parts of the way 'path' (of 'found' nodes) down to 'target' that run
 * before it leave, from 'in' (at the start of the function, or of the body of the loop
 * path[loop]). */
static drain way_flow(flow *f, const CXCursor *path, long found, long loop, CXCursor target,
                      drain in)
{
    f->now = in;
    if (f->gotos)
        f->gotos->count = 0; /* the gotos of another start */
    for (long i = loop + 1; i < found; i++)
        before_flow(f, path[i], i + 1 < found ? path[i + 1] : target);
    return f->now;
}

/* Whether path[loop] lies in the body of a loop further up the path. */
static int in_loop_body(const CXCursor *path, long loop)
{
    for (long i = 0; i < loop; i++) {
        if (is_body(path[i], path[i + 1]))
            return 1;
    }
    return 0;
}

/* For work on the legacy stream: the state at the start of every iteration of the loop 's'
 * entered drained ('in'), where its body and other parts queue no work on another stream (the
 * legacy stream's own work leaves the device as it is for that question): drained on each;
 * else busy. */
static drain kept_drained(flow *f, CXCursor s, drain in)
{
    if (in.state != DRAINED)
        return busy();
    f->now = in;
    drain breaks = unreached(); /* out of the loop: not the start of an iteration */
    iteration_flow(f, s, &breaks);
    return f->now.state == DRAINED ? join(in, f->now) : busy();
}

/* The state right before 'target' in 'function' (a definition): what the statements before it
 * on the way down leave, from the state at the function's start (entry_state, asked only when
 * it matters) or, in a loop's body, from the end of its previous iteration (and, for a loop in
 * another loop's body, from what comes before it there). 'depth' counts the callers gone up. */
static drain state_at(const question *q, CXCursor function, CXCursor target, int depth)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(function, target, path), loop = -1;
    for (long i = 0; i < found; i++) {
        if (is_body(path[i], i + 1 < found ? path[i + 1] : target))
            loop = i;
    }
    goto_records gotos = {NULL, 0, 0};
    flow f = flow_of(q, function, 0, busy(), &gotos);
    drain d = busy();
    if (found > 0 && loop >= 0) {
        /* The previous iteration: the body and the loop's other parts, from anything queued. */
        drain breaks = unreached(); /* out of the loop: not the start of the next iteration */
        iteration_flow(&f, path[loop], &breaks);
        drain start = f.now;
        /* A loop inside another loop's body is entered again on each of that loop's
         * iterations: its first iteration starts from what comes before it there. */
        if (start.state == DRAINED && in_loop_body(path, loop))
            start = join(start, state_at(q, function, path[loop], depth));
        else if (start.state != DRAINED && q->legacy)
            start = kept_drained(&f, path[loop], state_at(q, function, path[loop], depth));
        d = way_flow(&f, path, found, loop, target, start);
    } else if (found > 0) {
        /* Drained on the way whatever the start; else drained from a start that is. */
        d = way_flow(&f, path, found, -1, target, busy());
        if (d.state != DRAINED && clang_getCursorKind(function) != CXCursor_LambdaExpr &&
            way_flow(&f, path, found, -1, target, drained(clang_getNullCursor(), 0, 0)).state ==
                DRAINED) {
            drain entry = entry_state(q, function, depth);
            d = entry.state == DRAINED ? way_flow(&f, path, found, -1, target, entry) : busy();
        }
    }
    free(path);
    goto_records_free(&gotos);
    return d.state == DRAINED ? d : busy();
}

/* The state at the start of 'function': drained where every call of it in the unit is made
 * where the device is drained (no more than MAX_CALLERS calls, MAX_CALLER_DEPTH callers up). */
static drain entry_state(const question *q, CXCursor function, int depth)
{
    CXCursor calls[MAX_CALLERS], callers[MAX_CALLERS];
    long n = depth < MAX_CALLER_DEPTH
                 ? ss_callgraph_calls_of(q->graph, function, calls, callers, MAX_CALLERS)
                 : -1;
    if (n <= 0 || n > MAX_CALLERS)
        return busy();
    drain all = unreached();
    for (long i = 0; i < n && all.state != BUSY; i++)
        all = join(all, state_at(q, callers[i], calls[i], depth + 1));
    return all;
}

CXCursor ss_context_ends_drained(ss_check_ctx *ctx, CXCursor function)
{
    question device = device_question(ctx, 0);
    flow f = flow_of(&device, function, 0, busy(), NULL);
    flow_budget = FLOW_BUDGET;
    drain d = function_flow(&f, function, busy());
    return d.state == DRAINED && flow_budget >= 0 ? d.by : clang_getNullCursor();
}

/* The state after 'function' (a definition) runs from 'in', for a summary: within a smaller
 * budget than a finding's (every function another unit may call is summarized); its '*worked'. */
static drain summary_flow(const question *q, CXCursor function, drain in, int *worked)
{
    flow f = flow_of(q, function, 0, busy(), NULL);
    flow_budget = FLOW_BUDGET / 10;
    drain d = function_flow(&f, function, in);
    *worked = f.worked;
    return d.state == DRAINED && !d.filled && flow_budget >= 0 ? d : busy();
}

int ss_context_foreign_summary(ss_check_ctx *ctx, CXCursor function, CXCursor *by, int *wide,
                               int *worked)
{
    question device = device_question(ctx, copies_drain(ctx));
    drain d = summary_flow(&device, function, busy(), worked);
    *wide = d.state == DRAINED && !ss_ast_is_null(d.wide);
    *by = d.by;
    if (d.state == DRAINED)
        return 2;
    d = summary_flow(&device, function, drained(clang_getNullCursor(), 0, 0), worked);
    *by = d.by;
    return d.state == DRAINED;
}

/* Whether 'function', run from a drained device, reaches a wait for the whole device with work
 * queued (the first such wait into '*wait', the call of its body on the way into '*from'), the
 * calls of other units' functions taken as 'foreign' says where it is not NULL
 * (ss_context_waits_own_work). */
static int own_work_flow(ss_check_ctx *ctx, CXCursor function, ss_foreign_calls *foreign,
                         CXCursor *wait, CXCursor *from)
{
    int waited = 0;
    CXCursor through = clang_getNullCursor();
    question q = device_question(ctx, copies_drain(ctx));
    q.waited_busy = &waited;
    q.waited_at = wait;
    q.through = &through;
    q.waited_from = from;
    q.foreign = foreign;
    flow f = flow_of(&q, function, 0, busy(), NULL);
    flow_budget = FLOW_BUDGET / 10;
    function_flow(&f, function, drained(clang_getNullCursor(), 0, 0));
    return waited || flow_budget < 0;
}

int ss_context_waits_own_work(ss_check_ctx *ctx, CXCursor function, CXCursor *wait, CXCursor *from,
                              ss_assumed_waits *others)
{
    /* Each call of another unit's function taken to leave a drained device drained, and a busy
     * one busy, as the flow for a finding asks the project pass (foreign_call_flow). */
    ss_foreign_calls calls;
    memset(&calls, 0, sizeof calls);
    calls.keep = ~UINT64_C(0);
    *wait = *from = clang_getNullCursor();
    if (own_work_flow(ctx, function, &calls, wait, from)) {
        ss_assumed_waits_free(&calls.calls);
        return 2;
    }
    if (calls.calls.count > 0 && own_work_flow(ctx, function, NULL, wait, from)) {
        *others = calls.calls;
        return 1;
    }
    ss_assumed_waits_free(&calls.calls);
    return 0;
}

int ss_context_foreign_default_only(ss_check_ctx *ctx, CXCursor function)
{
    question q = device_question(ctx, 0);
    q.legacy = q.own_default = 1;
    q.per_thread = ctx->per_thread;
    int worked = 0;
    drain d = summary_flow(&q, function, drained(clang_getNullCursor(), 0, 0), &worked);
    return d.state == DRAINED;
}

/* ------------------------------------------------------------------------------------------
 * The words. */

/* Whether the way up from a call through 's' leaves what a walk forward from the call can follow:
 * a lambda, a loop's body (which goes on with the next iteration), a 'switch' (its breaks), a
 * 'try' block or handler (a throw in the block goes on in a handler). */
static int walk_stops_at(CXCursor s)
{
    enum CXCursorKind k = clang_getCursorKind(s);
    return k == CXCursor_LambdaExpr || k == CXCursor_SwitchStmt || k == CXCursor_CXXTryStmt ||
           k == CXCursor_CXXCatchStmt || is_loop(s);
}

/* Whether a 'do { } while (0)' holds path[i] below every statement where the walk up from a
 * call stops (walk_stops_at): a break or continue there goes on after it. */
static int in_do_once(const CXCursor *path, long i)
{
    for (long j = i - 1; j >= 0 && !walk_stops_at(path[j]); j--) {
        if (clang_getCursorKind(path[j]) == CXCursor_DoStmt && ss_ast_do_once(path[j]))
            return 1;
    }
    return 0;
}

/* Where 'f' stands at a drain on every way since the walk began, its call in '*drain_call'
 * and the waits it rests on in '*assumed'. Returns 1 where it does. */
static int fresh_drain(const flow *f, CXCursor *drain_call, uint64_t *assumed)
{
    if (f->worked || f->now.state != DRAINED || !f->now.fresh)
        return 0;
    *drain_call = f->now.by;
    *assumed = f->now.assumed;
    return 1;
}

/* The statements of the block 'block' after its child 'child', followed by 'f' up to device
 * work, a state not drained, or a fresh drain (fresh_drain). */
static void block_rest_flow(flow *f, CXCursor block, CXCursor child, CXCursor *drain_call,
                            uint64_t *assumed)
{
    int after = 0;
    for (unsigned s = 0, n = ss_ast_child_count(block); s < n; s++) {
        CXCursor stmt = ss_ast_child(block, s);
        if (!after) {
            after = ss_ast_same_node(stmt, child);
            continue;
        }
        stmt_flow(f, stmt);
        if (f->worked || f->now.state != DRAINED || fresh_drain(f, drain_call, assumed))
            return;
    }
}

/* A device-wide wait (or a draining copy) that follows the call 'at' in its function with no
 * device work queued between, on every way out of the blocks around it (walk_stops_at; a break
 * or continue out of a 'do { } while (0)' goes on after it), none of them left by a jump or a
 * return (jumped_away), or a null cursor. */
static CXCursor later_drain(const question *q, CXCursor function, CXCursor at, uint64_t *assumed)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(function, at, path);
    drain start = drained(clang_getNullCursor(), 0, 0), once_out = unreached();
    goto_records gotos = {NULL, 0, 0};
    flow f = flow_of(q, function, 0, start, &gotos);
    f.return_leaves = 1;
    CXCursor drain_call = clang_getNullCursor();
    for (long i = found - 1; i >= 0 && ss_ast_is_null(drain_call); i--) {
        CXCursor child = i + 1 < found ? path[i + 1] : at;
        enum CXCursorKind k = clang_getCursorKind(path[i]);
        if (walk_stops_at(path[i]))
            break;
        if (k == CXCursor_DoStmt && ss_ast_do_once(path[i])) {
            f.now = join(f.now, once_out);
            once_out = unreached();
            if (fresh_drain(&f, &drain_call, assumed))
                break;
        }
        if (k != CXCursor_CompoundStmt)
            continue;
        f.breaks = f.continues = in_do_once(path, i) ? &once_out : NULL;
        block_rest_flow(&f, path[i], child, &drain_call, assumed);
        if (f.worked || (f.now.state != DRAINED && !(f.now.state == UNREACHED && f.breaks)))
            break;
    }
    free(path);
    if (jumped_away(&f, 1))
        drain_call = clang_getNullCursor();
    goto_records_free(&gotos);
    return drain_call;
}

char *ss_context_between_waits(ss_check_ctx *ctx, CXCursor at, ss_assumed_waits *assumed)
{
    if (clang_getCursorKind(ctx->function) == CXCursor_LambdaExpr)
        return NULL;
    question q = device_question(ctx, 0);
    q.legacy = 1;
    q.per_thread = ctx->per_thread;
    q.assumed = assumed;
    flow_budget = FLOW_BUDGET;
    drain before = state_at(&q, ctx->function, at, 0);
    if (before.state != DRAINED || ss_ast_is_null(before.by))
        return NULL;
    uint64_t after = 0;
    CXCursor next = later_drain(&q, ctx->function, at, &after);
    if (ss_ast_is_null(next) || flow_budget < 0)
        return NULL;
    /* Only the calls taken for waits that the two drains rest on stay in 'assumed'. */
    keep_assumed(assumed, before.assumed | after);
    char *first = drainer_name(before.by), *then = ss_scope_callee_name(next);
    char *first_at = ss_callgraph_place(before.by), *then_at = ss_callgraph_place(next);
    char *words = ss_xasprintf(
        "between waits: '%s' at %s drained the device and '%s' at %s waits for it next, with "
        "no work on another stream queued between them on any way the unit reaches this call: "
        "there is nothing for the legacy stream to hold up or wait for",
        first ? first : "a wait", first_at, then ? then : "a wait", then_at);
    free(first);
    free(then);
    free(first_at);
    free(then_at);
    return words;
}

/* Whether no work on another stream (the question's: work on the legacy stream aside) is
 * queued after the call 'at' in 'function' on any way to its end: the rest of the blocks
 * around it, a loop around it once more (its later iterations), and, for each call of the
 * function in the unit, the same after that call in its caller ('depth' callers up, at most
 * MAX_CALLER_DEPTH; no call in the unit: the end of what the unit shows). */
static int quiet_after(const question *q, CXCursor function, CXCursor at, int depth)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(function, at, path);
    goto_records gotos = {NULL, 0, 0};
    flow f = flow_of(q, function, 0, drained(clang_getNullCursor(), 0, 0), &gotos);
    int ok = found > 0;
    for (long i = found - 1; ok && i >= 0 && f.now.state != UNREACHED && !f.worked; i--) {
        CXCursor child = i + 1 < found ? path[i + 1] : at;
        enum CXCursorKind k = clang_getCursorKind(path[i]);
        if (walk_stops_at(path[i]) && !is_loop(path[i])) {
            ok = 0;
        } else if (k == CXCursor_CompoundStmt) {
            int after = 0;
            for (unsigned s = 0, n = ss_ast_child_count(path[i]); s < n; s++) {
                CXCursor stmt = ss_ast_child(path[i], s);
                if (after)
                    stmt_flow(&f, stmt);
                after = after || ss_ast_same_node(stmt, child);
            }
        } else if (is_loop(path[i])) {
            drain breaks = unreached(); /* to the statements after the loop, followed next */
            iteration_flow(&f, path[i], &breaks);
            f.now = join(f.now, breaks);
        }
    }
    free(path);
    ok = ok && !jumped_away(&f, 0);
    goto_records_free(&gotos);
    if (!ok || f.worked || flow_budget < 0)
        return 0;
    CXCursor calls[MAX_CALLERS], callers[MAX_CALLERS];
    long n = ss_callgraph_calls_of(q->graph, function, calls, callers, MAX_CALLERS);
    if (n < 0 || n > MAX_CALLERS || (n > 0 && depth >= MAX_CALLER_DEPTH))
        return 0;
    for (long i = 0; i < n; i++) {
        if (!quiet_after(q, callers[i], calls[i], depth + 1))
            return 0;
    }
    return 1;
}

char *ss_context_after_join(ss_check_ctx *ctx, CXCursor at)
{
    if (clang_getCursorKind(ctx->function) == CXCursor_LambdaExpr)
        return NULL;
    question q = device_question(ctx, 0);
    q.legacy = 1;
    q.per_thread = ctx->per_thread;
    flow_budget = FLOW_BUDGET;
    drain before = state_at(&q, ctx->function, at, 0);
    if (before.state != DRAINED || ss_ast_is_null(before.by) ||
        !quiet_after(&q, ctx->function, at, 0))
        return NULL;
    char *name = drainer_name(before.by), *place = ss_callgraph_place(before.by);
    char *fn = ss_qualified_name(ctx->function);
    char *words = ss_xasprintf(
        "after a join: '%s' at %s drained the device, and no work on another stream is queued "
        "between it and this call, nor after this call in '%s' or its callers in the unit, on "
        "any way the unit reaches it: no other stream holds work for the legacy stream to wait "
        "for, and the unit queues none after it there for it to hold up",
        name ? name : "a wait", place, fn ? fn : "?");
    free(name);
    free(place);
    free(fn);
    return words;
}

/* The records of one event in the unit: the stream of each (all the same member, 'stream'),
 * the first, how many; 'mixed' when one is on another stream or cannot be told apart. */
typedef struct record_walk {
    CXCursor event, stream, first;
    int count, mixed;
} record_walk;

static enum CXChildVisitResult find_records(CXCursor c, CXCursor parent, CXClientData data)
{
    record_walk *w = data;
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_foreign_decl(c))
        return CXChildVisit_Continue;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    if (api == NULL || api->klass != SS_CLASS_EVENT_RECORD || clang_Cursor_getNumArguments(c) < 1)
        return CXChildVisit_Recurse;
    CXCursor e = ss_ast_strip(clang_Cursor_getArgument(c, 0));
    CXCursor event = clang_getCursorKind(e) == CXCursor_MemberRefExpr ? clang_getCursorReferenced(e)
                                                                      : clang_getNullCursor();
    if (ss_ast_is_null(event)) {
        w->mixed = 1; /* a local, a parameter, an array element: it may hold the same event */
    } else if (clang_equalCursors(event, w->event)) {
        CXCursor stream = clang_Cursor_getNumArguments(c) > api->stream_arg
                              ? this_member(clang_Cursor_getArgument(c, (unsigned)api->stream_arg))
                              : clang_getNullCursor();
        if (ss_ast_is_null(stream) ||
            (!ss_ast_is_null(w->stream) && !clang_equalCursors(stream, w->stream)))
            w->mixed = 1;
        if (w->count++ == 0) {
            w->stream = stream;
            w->first = c;
        }
    }
    return w->mixed ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* The question for the event wait 'at': its event a private or protected member of this
 * object (only the class's own functions record it), recorded in the unit on one member stream
 * of this object only. Returns 0 and fills 'q' and 'w', or -1. */
static int event_question(ss_check_ctx *ctx, CXCursor at, question *q, record_walk *w)
{
    const ss_api *api = ss_scope_callee_api(at);
    if (api == NULL || api->klass != SS_CLASS_EVENT_SYNC || clang_Cursor_getNumArguments(at) < 1)
        return -1;
    CXCursor event = this_member(clang_Cursor_getArgument(at, 0));
    if (ss_ast_is_null(event) || clang_getCXXAccessSpecifier(event) == CX_CXXPublic)
        return -1;
    *w = (record_walk){event, clang_getNullCursor(), clang_getNullCursor(), 0, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_records, w);
    if (w->mixed || w->count == 0)
        return -1;
    *q = device_question(ctx, 0);
    q->event = event;
    q->stream = w->stream;
    q->owner = clang_getCursorSemanticParent(event);
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * A wait that the next Thrust algorithm makes again. */

/* Calls of the system headers (each between spaces) that put no work on the device and read no
 * device memory: iterator and container accessors, iterator makers, a policy's 'on', a clock's
 * 'now'. */
static const char host_side_calls[] =
    " begin end cbegin cend data size get on now operator+ operator- operator++ operator--"
    " make_counting_iterator make_transform_iterator make_zip_iterator make_constant_iterator"
    " make_permutation_iterator make_discard_iterator make_reverse_iterator make_tuple"
    " raw_pointer_cast device_pointer_cast ";

/* Whether 'name' is one of the words of 'list' (each between spaces). */
static int listed(const char *name, const char *list)
{
    size_t n = name ? strlen(name) : 0;
    for (const char *p = n ? strstr(list, name) : NULL; p; p = strstr(p + 1, name)) {
        if (p[-1] == ' ' && p[n] == ' ')
            return 1;
    }
    return 0;
}

char *ss_context_thrust_callee(CXCursor call)
{
    if (clang_getCursorKind(call) != CXCursor_CallExpr || clang_Cursor_getNumArguments(call) < 2)
        return NULL;
    CXCursor decl = clang_getCursorReferenced(call);
    enum CXCursorKind k = clang_getCursorKind(decl);
    if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate)
        return NULL;
    char *name = ss_qualified_name(decl);
    if (name && strncmp(name, "thrust::", 8) == 0)
        return name;
    free(name);
    return NULL;
}

/* Whether the canonical type of 'expr' (implicit conversions and const aside) is the CUDA policy
 * class of Thrust named 'tail' ("par_t": thrust::cuda::par and thrust::device where the device
 * system is CUDA). */
static int policy_is(CXCursor expr, const char *tail)
{
    CXType type = clang_getCursorType(ss_ast_strip(expr));
    CXString ts = clang_getTypeSpelling(clang_getCanonicalType(type));
    const char *t = clang_getCString(ts);
    if (strncmp(t, "const ", 6) == 0)
        t += 6;
    size_t n = strlen(t), m = strlen(tail);
    int is = strncmp(t, "thrust::", 8) == 0 && n > m + 10 && strcmp(t + n - m, tail) == 0 &&
             strncmp(t + n - m - 10, "cuda_cub::", 10) == 0;
    clang_disposeString(ts);
    return is;
}

/* Whether the canonical type of 'expr' is an iterator of Thrust's device system: a
 * 'thrust::device_ptr', or a 'thrust::device_vector's iterator (a normal_iterator over one). An
 * algorithm given it first, with no policy, runs with the device system's policy, CUDA's
 * synchronous one on the default stream ('thrust::device'); a unit that makes another backend
 * the device system (THRUST_DEVICE_SYSTEM) is not told apart, as SYNC301 does not tell it. */
static int device_iterator(CXCursor expr)
{
    CXType type = clang_getCanonicalType(clang_getCursorType(ss_ast_strip(expr)));
    CXString ts = clang_getTypeSpelling(type);
    const char *t = clang_getCString(ts);
    if (strncmp(t, "const ", 6) == 0)
        t += 6;
    static const char vector_iterator[] = "thrust::detail::normal_iterator<thrust::device_ptr<";
    int is = strncmp(t, "thrust::device_ptr<", 19) == 0 ||
             strncmp(t, vector_iterator, sizeof vector_iterator - 1) == 0;
    clang_disposeString(ts);
    return is;
}

/* Whether 'type' is a 'thrust::device_vector' of the default allocator (the stand-in of the
 * tests names none), whose work runs with the device system's policy. Returns 1 or 0. */
static int default_device_vector(CXType type)
{
    type = clang_getCanonicalType(type);
    char *name = ss_type_template_name(type);
    int vector = name && strcmp(name, "thrust::device_vector") == 0;
    int args = clang_Type_getNumTemplateArguments(type);
    free(name);
    if (!vector || args > 2)
        return 0;
    if (args == 2) {
        char *alloc = ss_type_template_name(clang_Type_getTemplateArgumentAsType(type, 1));
        vector = alloc && strcmp(alloc, "thrust::device_allocator") == 0;
        free(alloc);
    }
    return vector;
}

/* Whether 'call' constructs a 'thrust::device_vector' of the default allocator filled with a
 * value ('v(n, x)', the count an integer): the fill (uninitialized_fill_n on the allocator's
 * system) runs with CUDA's synchronous policy on the default stream, and synchronizes that stream
 * when it ends (parallel_for's synchronize_optional in the toolkit's thrust/system/cuda/detail/).
 * Returns 1 or 0. */
static int filled_vector_call(CXCursor call)
{
    CXCursor ctor = clang_getCursorReferenced(call);
    if (clang_getCursorKind(call) != CXCursor_CallExpr ||
        clang_getCursorKind(ctor) != CXCursor_Constructor ||
        clang_Cursor_getNumArguments(call) != 2)
        return 0;
    int vector = default_device_vector(clang_getCursorType(call));
    CXType count = clang_getCanonicalType(
        clang_getCursorType(ss_ast_strip(clang_Cursor_getArgument(call, 0))));
    return vector && count.kind >= CXType_Char_U && count.kind <= CXType_Int128;
}

/* Whether 'call' assigns a 'thrust::device_vector' of the default allocator to another: its copy
 * runs on the default stream, its move frees the old storage (cudaFree). Returns 1 or 0. */
static int vector_assign_call(CXCursor call)
{
    CXCursor method = clang_getCursorReferenced(call);
    if (clang_getCursorKind(call) != CXCursor_CallExpr ||
        clang_getCursorKind(method) != CXCursor_CXXMethod)
        return 0;
    CXString name = clang_getCursorSpelling(method);
    int assign = strcmp(clang_getCString(name), "operator=") == 0;
    clang_disposeString(name);
    return assign &&
           default_device_vector(clang_getCursorType(clang_getCursorSemanticParent(method)));
}

/* Whether 'call' is a Thrust function given a CUDA policy on the default stream, synchronous
 * or not ('thrust::cuda::par', 'thrust::device', 'thrust::cuda::par_nosync'), or no policy and a
 * device iterator first (device_iterator), or a device vector's filling construction
 * (filled_vector_call): its work is on that stream only. */
static int thrust_on_default(CXCursor call)
{
    if (filled_vector_call(call) || vector_assign_call(call))
        return 1;
    char *name = ss_context_thrust_callee(call);
    int thrust = name != NULL;
    free(name);
    if (!thrust)
        return 0;
    CXCursor policy = clang_Cursor_getArgument(call, 0);
    return policy_is(policy, "par_t") || policy_is(policy, "par_nosync_t") ||
           device_iterator(policy);
}

/* Whether the policy 'policy' is synchronous: 'thrust::cuda::par' or 'thrust::device' (the
 * unit's default stream: '*stream' a null cursor), or 'thrust::cuda::par.on(s)' ('*stream' s,
 * a variable or member). Not 'par_nosync', a host policy or one given an allocator. */
static int synchronous_policy(CXCursor policy, CXCursor *stream)
{
    *stream = clang_getNullCursor();
    if (policy_is(policy, "par_t"))
        return 1;
    CXCursor on = ss_ast_strip(policy);
    if (!policy_is(policy, "execute_on_stream") || clang_getCursorKind(on) != CXCursor_CallExpr ||
        clang_Cursor_getNumArguments(on) != 1)
        return 0;
    CXString name = clang_getCursorSpelling(clang_getCursorReferenced(on));
    int is_on = strcmp(clang_getCString(name), "on") == 0;
    clang_disposeString(name);
    CXCursor s = ss_ast_strip(clang_Cursor_getArgument(on, 0));
    enum CXCursorKind k = clang_getCursorKind(s);
    if (!is_on || (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr))
        return 0;
    *stream = s;
    return 1;
}

/* Whether 'c' reads memory through a pointer on the host: '*p', 'p[i]', 'p->x' ('this->x'
 * aside). */
static int through_pointer(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_ArraySubscriptExpr)
        return 1;
    if (k == CXCursor_UnaryOperator) {
        char *text = ss_expr_text(c);
        int deref = text && text[0] == '*';
        free(text);
        return deref;
    }
    if (k != CXCursor_MemberRefExpr || ss_ast_child_count(c) == 0)
        return 0;
    CXCursor base = ss_ast_strip(ss_ast_child(c, 0));
    return clang_getCursorKind(base) != CXCursor_CXXThisExpr &&
           clang_getCanonicalType(clang_getCursorType(base)).kind == CXType_Pointer;
}

/* Whether the call 'c' stays on the host: a function of the system headers (not the CUDA API)
 * among host_side_calls, a constructor, or an assignment the compiler writes. A function of the
 * unit or of another unit may do anything. */
static int host_side_call(CXCursor c)
{
    CXCursor decl = clang_getCursorReferenced(c);
    if (ss_scope_is_launch(c) || ss_scope_callee_api(c) != NULL || ss_ast_is_null(decl) ||
        !clang_Location_isInSystemHeader(clang_getCursorLocation(decl)))
        return 0;
    enum CXCursorKind k = clang_getCursorKind(decl);
    CXString spelling = clang_getCursorSpelling(decl);
    const char *name = clang_getCString(spelling);
    int host = k == CXCursor_Constructor ||
               (strcmp(name, "operator=") == 0 && clang_CXXMethod_isDefaulted(decl)) ||
               listed(name, host_side_calls);
    clang_disposeString(spelling);
    return host;
}

/* Whether 'c' (a statement, or an argument of the Thrust call) may touch the device: a call
 * that does not stay on the host (host_side_call), or a read through a pointer, which may be
 * of memory the device writes (managed or mapped). A lambda's body does not run there. */
static enum CXChildVisitResult find_device_touch(CXCursor c, CXCursor parent, CXClientData data)
{
    int *found = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    if (through_pointer(c) || (k == CXCursor_CallExpr && !host_side_call(c))) {
        *found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static int touches_device(CXCursor c)
{
    int found = 0;
    ss_ast_visit_whole(c, c, find_device_touch, &found);
    return found;
}

/* Whether the statement 's' always runs through to the next one: a declaration or an
 * expression (not a jump, a branch, a loop or a block, which may leave the algorithm after it
 * unrun: 'if (i % 2) continue;'). */
static int straight_statement(CXCursor s)
{
    enum CXCursorKind kind = clang_getCursorKind(s);
    return kind == CXCursor_DeclStmt || clang_isExpression(kind);
}

/* The cuBLAS call that returns its result into host memory (ss_cublas_host_result) on the legacy
 * stream (ss_cublas_legacy_handle) that the statement 's' is ('cublasSasum(...);', its status
 * assigned to a variable or declared with it), its arguments staying on the host; else a null
 * cursor. Such a call returns only once its result is there, so it waits for all the work queued
 * before it on the legacy stream, as a Thrust algorithm with a synchronous policy does. */
static CXCursor cublas_statement(ss_check_ctx *ctx, CXCursor s)
{
    CXCursor none = clang_getNullCursor(), e = ss_ast_strip(s);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_DeclStmt && ss_ast_child_count(e) == 1) {
        CXCursor var = ss_ast_child(e, 0);
        unsigned n = ss_ast_child_count(var);
        if (clang_getCursorKind(var) != CXCursor_VarDecl || n == 0)
            return none;
        e = ss_ast_strip(ss_ast_child(var, n - 1));
    } else if (k == CXCursor_BinaryOperator && ss_ast_child_count(e) == 2 &&
               clang_getCursorKind(ss_ast_strip(ss_ast_child(e, 0))) == CXCursor_DeclRefExpr) {
        char op[8];
        if (ss_ast_binary_op(e, op, sizeof op) != 0 || strcmp(op, "=") != 0)
            return none;
        e = ss_ast_strip(ss_ast_child(e, 1));
    }
    int unit = ss_cublas_unit(ctx);
    char *name = ss_cublas_host_result(unit, e, NULL);
    if (name == NULL)
        return none;
    free(name);
    if (!ss_cublas_legacy_handle(ctx->cublas_memo, unit, e))
        return none;
    for (int a = 0, args = clang_Cursor_getNumArguments(e); a < args; a++) {
        if (touches_device(clang_Cursor_getArgument(e, (unsigned)a)))
            return none;
    }
    return e;
}

/* A call after a wait that waits for the same work when it ends (made_again): 'call', a Thrust
 * algorithm, a device vector's filling construction or a cuBLAS readback, with 'stream' its
 * stream (a null cursor: the default one); where it is the first device work of a function that
 * the statement after the wait calls, 'entered' that statement's call. Where that function is
 * another unit's, 'call' and 'entered' are the call of it, and 'usr' (malloc'ed) its USR: its
 * unit's summary answers (ss_project_foreign_opening). 'blocking': no drain before the wait
 * answers, and only a synchronous copy that function opens with, where every unit of the program
 * queues its work on streams that block (ss_context_streams_block), may make the wait again. */
typedef struct again {
    CXCursor call, stream, entered;
    char *usr;
    int blocking;
} again;

/* How deep 'opens_waiting' follows the unit's functions. */
enum { MAX_OPENING_DEPTH = 2 };

static int may_throw(CXCursor stmt);

/* Whether 'type' is a number or a pointer: keeping a value in it runs nothing but the store. */
static int plain_value_type(CXType type)
{
    enum CXTypeKind k = clang_getCanonicalType(type).kind;
    return (k >= CXType_FirstBuiltin && k <= CXType_LastBuiltin && k != CXType_Void) ||
           k == CXType_Pointer;
}

/* The expression whose value the statement 's' keeps: the initializer of its one variable, the
 * right side of an assignment ('=', '+=', ...) to a variable, where that variable is a number or
 * a pointer (plain_value_type); else 's' itself. Stripped (ss_ast_strip). */
static CXCursor kept_value(CXCursor s)
{
    CXCursor e = ss_ast_strip(s);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_DeclStmt && ss_ast_child_count(e) == 1) {
        CXCursor var = ss_ast_child(e, 0);
        unsigned n = ss_ast_child_count(var);
        if (clang_getCursorKind(var) == CXCursor_VarDecl && n > 0 &&
            plain_value_type(clang_getCursorType(var)))
            return ss_ast_strip(ss_ast_child(var, n - 1));
    } else if ((k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) &&
               ss_ast_child_count(e) == 2) {
        CXCursor target = ss_ast_strip(ss_ast_child(e, 0));
        char op[8];
        int assigns = ss_ast_binary_op(e, op, sizeof op) == 0 && op[0] &&
                      op[strlen(op) - 1] == '=' && strcmp(op, "==") != 0 && strcmp(op, "!=") != 0 &&
                      strcmp(op, "<=") != 0 && strcmp(op, ">=") != 0;
        if (assigns && clang_getCursorKind(target) == CXCursor_DeclRefExpr &&
            plain_value_type(clang_getCursorType(target)))
            return ss_ast_strip(ss_ast_child(e, 1));
    }
    return e;
}

/* The Thrust work of the statement 's' that synchronizes its stream when it ends, its arguments
 * staying on the host: an algorithm of readback.def's THRUST_SYNC_ALGO rows with a synchronous
 * policy (synchronous_policy; '*stream' its stream) or with no policy and a device iterator first
 * (device_iterator), the statement itself or the value it keeps (kept_value); or the
 * construction of a device vector filled with a value (filled_vector_call). Else a null cursor;
 * '*algorithm' 1 where 's' calls such an algorithm at all (with another policy too). */
static CXCursor thrust_statement(CXCursor s, CXCursor *stream, int *algorithm)
{
    CXCursor none = clang_getNullCursor(), call = kept_value(s);
    *stream = none;
    *algorithm = 0;
    if (clang_getCursorKind(call) == CXCursor_DeclStmt && ss_ast_child_count(call) == 1) {
        CXCursor var = ss_ast_child(call, 0);
        unsigned n = ss_ast_child_count(var);
        CXCursor init = n > 0 ? ss_ast_strip(ss_ast_child(var, n - 1)) : none;
        if (n == 0 || clang_getCursorKind(var) != CXCursor_VarDecl || !filled_vector_call(init))
            return none;
        *algorithm = 1;
        for (unsigned a = 0; a < 2; a++) {
            if (touches_device(clang_Cursor_getArgument(init, a)))
                return none;
        }
        return init;
    }
    char *name = ss_context_thrust_callee(call);
    const char *last = name ? strrchr(name, ':') + 1 : NULL;
    /* the Thrust algorithms that synchronize their stream when they end (readback.def,
     * THRUST_SYNC_ALGO), by their last name: an inline namespace between is none */
    char *qualified = last ? ss_xasprintf("thrust::%s", last) : NULL;
    *algorithm = ss_readback_find(qualified, SS_READBACK_THRUST_SYNC_ALGO) != NULL;
    free(qualified);
    free(name);
    if (!*algorithm)
        return none;
    CXCursor policy = clang_Cursor_getArgument(call, 0);
    int implicit = device_iterator(policy);
    int args = clang_Cursor_getNumArguments(call);
    for (int a = implicit ? 0 : 1; a < args; a++) {
        if (touches_device(clang_Cursor_getArgument(call, (unsigned)a)))
            return none;
    }
    return implicit || synchronous_policy(policy, stream) ? call : none;
}

/* The call of a function of the project that the statement 's' makes first, its arguments
 * staying on the host: the statement itself, the value it keeps (kept_value), the value a
 * 'return' returns, or the right side of an assignment to a variable through an operator of
 * the system headers ('row_sum = reduce_rows(...)', a vector's move assignment, which runs after
 * the call: what it does, freeing the old storage, comes after the call's first device work).
 * Else a null cursor. */
static CXCursor project_call(CXCursor s)
{
    CXCursor none = clang_getNullCursor(), call = kept_value(s);
    if (clang_getCursorKind(call) == CXCursor_ReturnStmt && ss_ast_child_count(call) == 1)
        call = ss_ast_strip(ss_ast_child(call, 0));
    CXCursor decl = clang_getCursorReferenced(call);
    if (clang_getCursorKind(call) == CXCursor_CallExpr &&
        clang_Location_isInSystemHeader(clang_getCursorLocation(decl)) &&
        clang_Cursor_getNumArguments(call) == 2 &&
        clang_getCursorKind(ss_ast_strip(clang_Cursor_getArgument(call, 0))) ==
            CXCursor_DeclRefExpr) {
        CXString op = clang_getCursorSpelling(decl);
        int assign = strcmp(clang_getCString(op), "operator=") == 0;
        clang_disposeString(op);
        if (!assign)
            return none;
        call = ss_ast_strip(clang_Cursor_getArgument(call, 1));
        decl = clang_getCursorReferenced(call);
    }
    enum CXCursorKind k = clang_getCursorKind(decl);
    if (clang_getCursorKind(call) != CXCursor_CallExpr || ss_scope_is_launch(call) ||
        (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod) ||
        clang_Location_isInSystemHeader(clang_getCursorLocation(decl)) ||
        ss_scope_callee_api(call) != NULL)
        return none;
    for (int a = 0, args = clang_Cursor_getNumArguments(call); a < args; a++) {
        if (touches_device(clang_Cursor_getArgument(call, (unsigned)a)))
            return none;
    }
    return call;
}

static CXCursor opens_waiting(ss_check_ctx *ctx, CXCursor first, int depth);

/* Whether 'call' is a Thrust algorithm that returns a value or a count to the host (readback.def's
 * THRUST_VALUE_ALGO and THRUST_COUNT_ALGO rows, by its last name): a readback of SYNC301. */
static int thrust_readback(CXCursor call)
{
    char *name = ss_ast_is_null(call) ? NULL : ss_context_thrust_callee(call);
    char *qualified = name ? ss_xasprintf("thrust::%s", strrchr(name, ':') + 1) : NULL;
    int readback = qualified && (ss_readback_find(qualified, SS_READBACK_THRUST_VALUE_ALGO) ||
                                 ss_readback_find(qualified, SS_READBACK_THRUST_COUNT_ALGO));
    free(name);
    free(qualified);
    return readback;
}

/* Whether the statement 's' only throws: 'throw X;', or a block of that alone. Such an arm
 * leaves its function on an error (an argument out of range) without device work. */
static int only_throws(CXCursor s)
{
    CXCursor e = ss_ast_strip(s);
    if (clang_getCursorKind(e) == CXCursor_CompoundStmt && ss_ast_child_count(e) == 1)
        e = ss_ast_strip(ss_ast_child(e, 0));
    return clang_getCursorKind(e) == CXCursor_CXXThrowExpr && !touches_device(e);
}

/* The first device work of the 'if' statement 's', where each of its arms opens with such
 * work (opens_waiting) or only throws (only_throws), and its condition stays on the host: the
 * first arm's. Else a null cursor. */
static CXCursor if_opens_waiting(ss_check_ctx *ctx, CXCursor s, int depth)
{
    CXCursor none = clang_getNullCursor(), found = none;
    unsigned n = ss_ast_child_count(s);
    if (n != 3 || touches_device(ss_ast_child(s, 0)) || may_throw(ss_ast_child(s, 0)))
        return none;
    for (unsigned arm = 1; arm < 3; arm++) {
        CXCursor c = ss_ast_child(s, arm);
        if (only_throws(c))
            continue;
        CXCursor work = opens_waiting(ctx, c, depth);
        if (ss_ast_is_null(work))
            return none;
        if (ss_ast_is_null(found))
            found = work;
    }
    return found;
}

/* The Thrust work that opens 'first' (a statement, or a block whose statements run in turn):
 * up to two statements that stay on the host and run through to the next (straight_statement)
 * and throw nothing, then a statement of such work (thrust_statement, on the default stream), an
 * 'if' each of whose arms opens so (if_opens_waiting), or a call of a function of the unit whose
 * body opens so ('depth' below MAX_OPENING_DEPTH). Such work waits for all the work queued
 * before it on the default stream. A null cursor where it is not so. */
static CXCursor opens_waiting(ss_check_ctx *ctx, CXCursor first, int depth)
{
    CXCursor none = clang_getNullCursor();
    int block = clang_getCursorKind(first) == CXCursor_CompoundStmt;
    unsigned n = block ? ss_ast_child_count(first) : 1;
    for (unsigned i = 0; i < n && i < 3; i++) {
        CXCursor s = block ? ss_ast_child(first, i) : first, stream;
        int algorithm;
        CXCursor work = thrust_statement(s, &stream, &algorithm);
        if (!ss_ast_is_null(work))
            return ss_ast_is_null(stream) ? work : none;
        if (algorithm)
            return none;
        if (clang_getCursorKind(s) == CXCursor_IfStmt)
            return if_opens_waiting(ctx, s, depth);
        CXCursor call = project_call(s);
        CXCursor callee =
            ss_ast_is_null(call) ? none : ss_callgraph_callee(ss_check_graph(ctx), call);
        if (!ss_ast_is_null(callee)) {
            CXCursor body = ss_ast_child_count(callee)
                                ? ss_ast_child(callee, ss_ast_child_count(callee) - 1)
                                : none;
            return depth < MAX_OPENING_DEPTH && clang_getCursorKind(body) == CXCursor_CompoundStmt
                       ? opens_waiting(ctx, body, depth + 1)
                       : none;
        }
        if (!straight_statement(s) || touches_device(s) || may_throw(s))
            return none;
    }
    return none;
}

/* The call of the statement after the wait 'at' that waits for the same work when it ends (an
 * again): a Thrust statement with a synchronous policy (thrust_statement), a cuBLAS readback
 * (cublas_statement), or a call of a function of the unit whose first device work is such Thrust
 * work on the default stream (opens_waiting). Only statements that stay on the host and run
 * through to the next (straight_statement) before it, up to two, none naming the stream 'waited'
 * waits for. 'call' a null cursor where there is none. */
static again next_thrust(ss_check_ctx *ctx, CXCursor at, CXCursor waited)
{
    CXCursor stmts[256], none = clang_getNullCursor();
    again found = {none, none, none, NULL, 0};
    unsigned index = 0;
    unsigned n = ss_context_statements_around(ctx->function, at, stmts, 256, &index);
    CXCursor waited_decl = ss_ast_is_null(waited) ? waited : clang_getCursorReferenced(waited);
    if (n == 0 || ss_context_queues_work(ss_check_graph(ctx), stmts[index]))
        return found;
    for (unsigned s = index + 1; s < n && s <= index + 3; s++) {
        found.call = cublas_statement(ctx, stmts[s]);
        if (!ss_ast_is_null(found.call))
            return found;
        int algorithm;
        found.call = thrust_statement(stmts[s], &found.stream, &algorithm);
        if (!ss_ast_is_null(found.call) || algorithm)
            return found;
        CXCursor call = project_call(stmts[s]);
        CXCursor callee =
            ss_ast_is_null(call) ? none : ss_callgraph_callee(ss_check_graph(ctx), call);
        found.usr = ss_ast_is_null(call) || !ss_ast_is_null(callee) || ctx->streams == NULL
                        ? NULL
                        : ss_project_foreign_usr(call);
        if (found.usr) {
            found.call = found.entered = call;
            return found;
        }
        if (!ss_ast_is_null(callee)) {
            unsigned c = ss_ast_child_count(callee);
            CXCursor body = c ? ss_ast_child(callee, c - 1) : none;
            if (clang_getCursorKind(body) == CXCursor_CompoundStmt)
                found.call = opens_waiting(ctx, body, 1);
            /* A readback there (SYNC301) would be "drained" by this wait, and the pair two
             * notes: not followed. */
            if (thrust_readback(found.call))
                found.call = none;
            found.entered = ss_ast_is_null(found.call) ? none : call;
            return found;
        }
        if (!straight_statement(stmts[s]) || touches_device(stmts[s]) ||
            (!ss_ast_is_null(waited_decl) && ss_context_mentions(stmts[s], waited_decl)))
            return found;
    }
    return found;
}

/* Whether the wait 'at' waits only for work on the stream the Thrust call 'algorithm' ('stream',
 * as synchronous_policy) synchronizes: a wait for the same stream (as written; the unit's
 * default stream however written); a device-wide wait where, on every way the unit reaches it,
 * no work on another stream than the default one is queued since the device was drained
 * ('*by': that drain). Returns 1 or 0. */
static int waits_for_thrust_stream(ss_check_ctx *ctx, CXCursor at, CXCursor waited, CXCursor stream,
                                   CXCursor *by, ss_foreign_calls *foreign)
{
    unsigned policy = ss_ast_is_null(stream) ? 0 : ss_stream_values(ctx->function, stream);
    int on_default = ss_ast_is_null(stream) || own_default_stream(policy, ctx->per_thread);
    *by = clang_getNullCursor();
    if (!ss_ast_is_null(waited)) {
        if (on_default)
            return own_default_stream(ss_stream_values(ctx->function, waited), ctx->per_thread);
        char *a = ss_expr_text(waited), *b = ss_expr_text(stream);
        int same = a && b && strcmp(a, b) == 0;
        free(a);
        free(b);
        return same;
    }
    if (!on_default)
        return 0;
    question q = device_question(ctx, 0);
    q.legacy = q.own_default = 1;
    q.per_thread = ctx->per_thread;
    q.foreign = foreign;
    flow_budget = FLOW_BUDGET;
    drain d = state_at(&q, ctx->function, at, 0);
    *by = d.by;
    if (foreign) {
        foreign->needed = d.assumed;
        foreign->strict = d.strict & d.assumed;
    }
    return d.state == DRAINED && !ss_ast_is_null(d.by) && flow_budget >= 0;
}

/* ", and since this wait drained the device on the loop's previous iteration ..." for the wait
 * 'at' drained before by 'by' (waits_for_thrust_stream), or NULL where it asks no drain (a wait
 * for the algorithm's own stream). Malloc'ed. */
static char *since_words(ss_check_ctx *ctx, CXCursor at, CXCursor by)
{
    (void)ctx;
    if (!ss_ast_is_null(by) && ss_ast_same_node(by, at))
        return ss_xstrdup(", and since this wait drained the device on the loop's previous "
                          "iteration no work on another stream is queued on any way the unit "
                          "reaches it");
    if (ss_ast_is_null(by))
        return NULL;
    char *drainer = drainer_name(by), *place = ss_callgraph_place(by);
    char *since = ss_xasprintf(", and since '%s' at %s drained the device no work on another "
                               "stream is queued on any way the unit reaches this wait",
                               drainer ? drainer : "a wait", place);
    free(drainer);
    free(place);
    return since;
}

/* Whether 'at' is a wait for a stream or for the whole device, with '*waited' the stream it
 * names (a null cursor for the whole device); 0 where it is neither, or its stream cannot be
 * read. */
static int wait_for(CXCursor at, CXCursor *waited)
{
    const ss_api *api = ss_scope_callee_api(at);
    *waited = clang_getNullCursor();
    if (api == NULL || (api->klass != SS_CLASS_DEVICE_SYNC && api->klass != SS_CLASS_STREAM_SYNC))
        return 0;
    if (api->klass == SS_CLASS_DEVICE_SYNC)
        return 1;
    *waited = ss_check_stream_arg(at, api);
    return !ss_ast_is_null(*waited);
}

/* The call of the statement after the stream or device-wide wait 'at' (of ctx->function) that
 * waits for the same work when it ends (next_thrust, waits_for_thrust_stream), with '*by' the
 * drain the wait rests on; 'call' a null cursor where there is none. With 'foreign' (its 'copy'
 * unset), a call of another unit's function after the wait counts ('usr' set), and so does, for
 * a wait for the whole device, a way on which calls of other units' functions are taken on trust
 * (foreign_call_flow): 'foreign' then says which ('needed'), as ss_context_foreign_words does.
 * Free 'usr'. */
static again made_again(ss_check_ctx *ctx, CXCursor at, CXCursor *by, ss_foreign_calls *foreign)
{
    CXCursor none = clang_getNullCursor(), waited;
    again found = {none, none, none, NULL, 0};
    if (!wait_for(at, &waited))
        return found;
    found = next_thrust(ctx, at, waited);
    if (found.usr && foreign == NULL)
        found.call = none;
    if (ss_ast_is_null(found.call) ||
        waits_for_thrust_stream(ctx, at, waited, found.stream, by, NULL))
        return found;
    if (foreign == NULL || !ss_ast_is_null(waited) || ctx->streams == NULL ||
        !waits_for_thrust_stream(ctx, at, waited, found.stream, by, foreign) ||
        foreign->needed == 0)
        found.call = none;
    /* A wait for the whole device before a call of another unit's function, with no drain
     * before it that the unit sees (a function another unit calls): a copy that function opens
     * with waits for the same work where no stream of the program holds work that the legacy
     * stream does not wait for (the project pass asks every unit). */
    if (ss_ast_is_null(found.call) && found.usr && foreign && ss_ast_is_null(waited) &&
        ctx->streams && ss_context_streams_block(ctx)) {
        found.call = found.entered;
        found.blocking = 1;
        foreign->needed = foreign->strict = 0;
        *by = none;
    }
    return found;
}

/* Whether the readback 'at' (SYNC301) is the call that makes the wait 'wait' again (made_again,
 * other units' functions taken on trust: where their summaries may make the wait a note): the
 * wait's note then names the readback as the stall, which the readback cannot in turn put on the
 * wait. Returns 1 or 0. */
static int makes_wait_again(ss_check_ctx *ctx, CXCursor at, CXCursor wait)
{
    if (ss_ast_is_null(wait))
        return 0;
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(ctx->function, wait, path);
    free(path);
    if (found <= 0)
        return 0;
    CXCursor by;
    ss_foreign_calls calls;
    memset(&calls, 0, sizeof calls);
    again a = made_again(ctx, wait, &by, &calls);
    free(a.usr);
    ss_assumed_waits_free(&calls.calls);
    return ss_ast_same_node(a.call, at);
}

/* What the Thrust work 'call' (thrust_statement) is, for the words: "'thrust::sort' with the
 * synchronous policy 'thrust::device'", "'thrust::reduce' on a device range with no policy, which
 * runs with the device system's synchronous one", or the construction of a filled device vector.
 * Malloc'ed. */
static char *thrust_work_words(CXCursor call)
{
    if (filled_vector_call(call)) {
        CXString ts = clang_getTypeSpelling(clang_getCursorType(call));
        char *words = ss_xasprintf("the construction of a '%s' filled with a value, whose fill "
                                   "runs with the synchronous policy",
                                   clang_getCString(ts));
        clang_disposeString(ts);
        return words;
    }
    char *name = ss_context_thrust_callee(call);
    CXCursor first = clang_Cursor_getArgument(call, 0);
    char *policy = device_iterator(first) ? NULL : ss_expr_text(first);
    char *words = policy ? ss_xasprintf("'%s' with the synchronous policy '%s'", name, policy)
                         : ss_xasprintf("'%s' on a device range with no policy, which runs "
                                        "with the device system's synchronous one",
                                        name);
    free(name);
    free(policy);
    return words;
}

/* "the next statement, 'thrust::sort' with the synchronous policy 'thrust::device' (line 52)",
 * or, where it is the first device work of a function the next statement calls, "the next
 * statement calls 'ones_sum()', whose first device work, ... (at x.cu:12)". Malloc'ed. */
static char *again_subject(const again *a)
{
    char *work = thrust_work_words(a->call);
    char *words;
    if (ss_ast_is_null(a->entered)) {
        words = ss_xasprintf("the next statement, %s (line %u),", work, ss_scope_line(a->call));
    } else {
        char *callee = ss_scope_callee_name(a->entered), *place = ss_callgraph_place(a->call);
        words = ss_xasprintf("the next statement calls '%s()', whose first device work, %s (at "
                             "%s),",
                             callee ? callee : "?", work, place);
        free(callee);
        free(place);
    }
    free(work);
    return words;
}

/* The words of the wait 'at' that the Thrust work of 'a' makes again (thrust_words), 'by' the
 * drain it rests on. Malloc'ed. */
static char *again_words_of(ss_check_ctx *ctx, CXCursor at, const again *a, CXCursor by)
{
    char *cublas = a->usr ? NULL : ss_cublas_host_result(0, a->call, NULL);
    char *since = since_words(ctx, at, by);
    if (cublas) {
        char *words = ss_xasprintf(
            "drained anyway: the next statement, '%s' (line %u), returns its result to host "
            "memory and so waits for the same work on the legacy default stream, its handle's "
            "stream%s: it returns only once the result is there%s",
            cublas, ss_scope_line(a->call), since ? "" : ", the stream this wait is for",
            since ? since : "");
        free(cublas);
        free(since);
        return words;
    }
    char *subject;
    if (a->usr) {
        char *callee = ss_scope_callee_name(a->call);
        subject = ss_xasprintf("the next statement calls '%s()' (line %u), defined in another "
                               "unit, whose first device work",
                               callee ? callee : "?", ss_scope_line(a->call));
        free(callee);
    } else {
        subject = again_subject(a);
    }
    char *on = ss_ast_is_null(a->stream) ? NULL : ss_expr_text(a->stream);
    char *where = on ? ss_xasprintf("'%s'", on)
                     : ss_xstrdup(ctx->per_thread ? "the per-thread default stream"
                                                  : "the legacy default stream");
    char *words = ss_xasprintf(
        "drained anyway: %s waits for the same work on %s%s: it synchronizes that stream when it "
        "ends%s",
        subject, where, since ? "" : ", the stream this wait is for", since ? since : "");
    free(subject);
    free(on);
    free(where);
    free(since);
    return words;
}

static void copy_opening_way(ss_check_ctx *ctx, CXCursor at, const again *a, CXCursor by,
                             const ss_foreign_calls *calls);

/* "drained anyway: the next statement, 'thrust::inclusive_scan' with the synchronous policy
 * 'thrust::cuda::par' (line 614), waits for the same work on the legacy default stream ..."
 * for a stream or device-wide wait (SYNC401) whose next statement is such a Thrust algorithm
 * (next_thrust) on the stream all the work it waits for is on (waits_for_thrust_stream): the
 * host waits there for that work anyway. Where that rests on other units' functions (the next
 * statement calls one, or calls of them are on the way to the wait), the words go to the project
 * pass (ss_project_foreign_opening) and the wait stays a warning here. Malloc'ed, or NULL. */
static char *thrust_words(ss_check_ctx *ctx, CXCursor at)
{
    CXCursor by;
    ss_foreign_calls calls;
    memset(&calls, 0, sizeof calls);
    again a = made_again(ctx, at, &by, &calls);
    char *words = ss_ast_is_null(a.call) || a.blocking ? NULL : again_words_of(ctx, at, &a, by);
    if (words && (a.usr || calls.needed)) {
        ss_project_foreign_opening(ctx, SS_RULE_SYNC_IN_LOOP, at, words, &calls, a.usr,
                                   SS_OPENING_THRUST, NULL);
        free(words);
        words = NULL;
    }
    /* Or that function opens with a synchronous copy between the host and the device. */
    if (a.usr && !ss_ast_is_null(a.call))
        copy_opening_way(ctx, at, &a, by, &calls);
    free(a.usr);
    ss_assumed_waits_free(&calls.calls);
    return words;
}

char *ss_context_opening_words(ss_check_ctx *ctx, CXCursor function)
{
    unsigned n = ss_ast_child_count(function);
    CXCursor body = n ? ss_ast_child(function, n - 1) : clang_getNullCursor();
    if (clang_getCursorKind(body) != CXCursor_CompoundStmt)
        return NULL;
    CXCursor work = opens_waiting(ctx, body, 1);
    if (ss_ast_is_null(work) || thrust_readback(work))
        return NULL;
    char *what = thrust_work_words(work), *place = ss_callgraph_place(work);
    char *words = ss_xasprintf("%s (at %s), which synchronizes the %s default stream when it ends",
                               what, place, ctx->per_thread ? "per-thread" : "legacy");
    free(what);
    free(place);
    return words;
}

/* "drained: 'evt' has completed here: ..." for the event wait 'at', or NULL. */
static char *event_words(ss_check_ctx *ctx, CXCursor at)
{
    question q;
    record_walk w;
    if (event_question(ctx, at, &q, &w) != 0)
        return NULL;
    flow_budget = FLOW_BUDGET;
    drain d = state_at(&q, ctx->function, at, 0);
    if (d.state != DRAINED || ss_ast_is_null(d.by))
        return NULL;
    CXString event = clang_getCursorSpelling(q.event), stream = clang_getCursorSpelling(q.stream);
    char *name = drainer_name(d.by);
    char *where = ss_callgraph_place(d.by);
    char *records = w.count == 1 ? ss_xasprintf("line %u", ss_scope_line(w.first))
                                 : ss_xasprintf("%d records, the first at line %u", w.count,
                                                ss_scope_line(w.first));
    char *words = ss_xasprintf(
        "drained: '%s' has completed here: this unit records it on '%s' only (%s), which '%s' "
        "at %s drained since, and it is not recorded again on any way the unit reaches this "
        "call: the wait waits for nothing",
        clang_getCString(event), clang_getCString(stream), records, name ? name : "a wait", where);
    clang_disposeString(event);
    clang_disposeString(stream);
    free(name);
    free(where);
    free(records);
    return words;
}

/* " (where the CUDA calls succeed: the branch at x.cu:10 runs only when one failed, and is left
 * out)" where the flow left out such a branch (if_flow) since the drain 'd'; else "".
 * Malloc'ed. */
static char *aside_words(const drain *d)
{
    if (!d->aside)
        return ss_xstrdup("");
    char *place = ss_callgraph_place(d->aside_at);
    char *words = ss_xasprintf(" (where the CUDA calls succeed: the branch at %s runs only when "
                               "one failed, and is left out)",
                               place);
    free(place);
    return words;
}

/* Why the copy 'by' ('by' its row; NULL, or not a copy: "") drained the device, with
 * 'drain_copies' (ss_copy_drain) and 'upload' (a copy from the host): " (a synchronous copy,
 * which waits for all work: the unit creates its streams blocking)". Malloc'ed. */
static char *copy_drain_words(const ss_api *by, int drain_copies, int upload)
{
    if (by == NULL || by->klass != SS_CLASS_COPY)
        return ss_xstrdup("");
    return ss_xasprintf(
        " (%s, which waits for all work%s: %s)",
        by->sync == SS_SYNC_PAGEABLE
            ? "a copy into pageable memory, which returns only once it is done and so is a "
              "synchronous copy"
            : "a synchronous copy",
        upload && drain_copies != SS_COPY_DRAIN_LEGACY_ONLY ? " before it starts" : "",
        drain_copies == SS_COPY_DRAIN_LEGACY_ONLY
            ? "the unit creates no stream and names none but the legacy one, so all its work "
              "is queued there"
            : "the unit creates its streams blocking");
}

/* Why the free 'by' drained the device (free_drains): " (it frees 'd_max', which 'cudaMalloc'
 * allocated at line 14: such a free waits for all work on the device, every stream, where that
 * allocation succeeded with a size above 0)". Malloc'ed. */
static char *free_drain_words(ss_check_ctx *ctx, CXCursor by)
{
    const ss_api *api = ss_scope_callee_api(by);
    if (api == NULL || api->dst_arg < 0 || clang_Cursor_getNumArguments(by) <= api->dst_arg)
        return ss_xstrdup("");
    /* The function the free is in: the one that declares the local it frees. */
    CXCursor arg = clang_Cursor_getArgument(by, (unsigned)api->dst_arg);
    CXCursor var = clang_getCursorReferenced(ss_ast_strip(arg));
    CXCursor function = clang_getCursorSemanticParent(var);
    CXCursor alloc = ss_ast_is_null(function)
                         ? function
                         : ss_context_free_allocation(ss_check_graph(ctx), function, by);
    if (ss_ast_is_null(alloc))
        return ss_xstrdup("");
    char *freed = ss_expr_text(arg);
    char *maker = ss_scope_callee_name(alloc);
    char *words = ss_xasprintf(" (it frees '%s', which '%s' allocated at line %u: such a free "
                               "waits for all work on the device, every stream, where that "
                               "allocation succeeded with a size above 0)",
                               freed ? freed : "...", maker ? maker : "...", ss_scope_line(alloc));
    free(freed);
    free(maker);
    return words;
}

/* Why the cuBLAS call that drained 'd' (cublas_flow) did, with 'drain_copies' (ss_copy_drain):
 * " (a cuBLAS call that returns its result to host memory, which returns only once it is there:
 * the device was drained before it, and it waits for the work it queues)"; "" where 'd' was not
 * drained by one. Malloc'ed. */
static char *cublas_drain_words(const drain *d, int drain_copies)
{
    char *name = d->state == DRAINED ? ss_cublas_host_result(0, d->by, NULL) : NULL;
    if (name == NULL)
        return ss_xstrdup("");
    free(name);
    if (d->after_drain)
        return ss_xstrdup(" (a cuBLAS call that returns its result to host memory, which returns "
                          "only once it is there: the device was drained before it, and it "
                          "waits for the work it queues)");
    return ss_xasprintf(" (a cuBLAS call that returns its result to host memory, which returns "
                        "only once it is there, and so waits for all the work queued before it "
                        "on the legacy stream, its handle's: %s)",
                        drain_copies == SS_COPY_DRAIN_LEGACY_ONLY
                            ? "the unit creates no stream and names none but the legacy one, so "
                              "all its work is queued there"
                            : "the unit creates its streams blocking");
}

/* Whether the copy that drained 'd' may miss streams that the call 'at' waits for: 'at' waits
 * for every stream (a wait for the whole device, or a call that synchronizes it implicitly,
 * SYNC402's), and the copy is on the legacy stream of a unit that creates no stream
 * (SS_COPY_DRAIN_LEGACY_ONLY), which waits for that stream only. Returns 1 or 0. */
static int copy_misses_streams(int drain_copies, CXCursor at, const drain *d)
{
    const ss_api *waits = ss_scope_callee_api(at);
    return drain_copies == SS_COPY_DRAIN_LEGACY_ONLY && waits &&
           (waits->klass == SS_CLASS_DEVICE_SYNC || waits->sync == SS_SYNC_DEVICE) &&
           drain_misses(d);
}

/* The drain 'd' found at the call 'at', or busy where it does not answer for it: where the
 * unit creates no stream (SS_COPY_DRAIN_LEGACY_ONLY), functions of other units may queue work
 * on streams of their own that a copy on the legacy stream does not wait for, but a
 * device-wide wait does, and so does an allocation or free that synchronizes the device: a
 * copy does not answer for them, unless the device was drained already when it ran (a wait
 * for the whole device before it, with nothing queued between: 'wide'). */
static drain answered(int drain_copies, CXCursor at, drain d)
{
    if (d.state == DRAINED && ss_ast_is_null(d.wide) && copy_misses_streams(drain_copies, at, &d))
        return busy();
    return d;
}

/* Whether the device-wide wait 'later' after a copy is drained already ('d', state_at): a
 * copy into pageable memory that returns once done (pageable_readback) counts only where it
 * answers for the wait (answered); a synchronous copy counts, as before such copies did. */
static int later_answered(int drain_copies, CXCursor later, drain d)
{
    const ss_api *by = d.state == DRAINED ? ss_scope_callee_api(d.by) : NULL;
    if (by && by->klass == SS_CLASS_COPY && by->sync == SS_SYNC_PAGEABLE)
        d = answered(drain_copies, later, d);
    return d.state == DRAINED;
}

/* What a device-wide call of SYNC402 at 'at' is, for the words: "allocation", "free" or
 * "registration"; NULL for a device configuration (cudaDeviceSetLimit, cudaDeviceReset), which
 * the drained flow does not judge, or a call of no such row. */
static const char *implicit_sync_noun(CXCursor at)
{
    const ss_api *api = ss_scope_callee_api(at);
    if (api == NULL || api->sync != SS_SYNC_DEVICE)
        return NULL;
    switch (api->klass) {
    case SS_CLASS_ALLOC:
    case SS_CLASS_HOST_ALLOC:
    case SS_CLASS_MANAGED_ALLOC:
        return "allocation";
    case SS_CLASS_FREE:
    case SS_CLASS_HOST_FREE:
        return "free";
    case SS_CLASS_HOST_REGISTER:
    case SS_CLASS_HOST_UNREGISTER:
        return "registration";
    default:
        return NULL;
    }
}

/* Where the copy that drained the device ('d') answers for the device-wide call 'at' only
 * because a wait for the whole device came before it (answered): ", after 'cudaDeviceSynchronize'
 * at x.cu:9 drained every stream, with nothing queued between"; else "". Malloc'ed. */
static char *wide_words(const drain *d, int drain_copies, CXCursor at)
{
    if (ss_ast_is_null(d->wide) || !copy_misses_streams(drain_copies, at, d))
        return ss_xstrdup("");
    char *name = ss_scope_callee_name(d->wide), *where = ss_callgraph_place(d->wide);
    char *words = ss_xasprintf(", after '%s' at %s drained every stream, with nothing queued "
                               "between",
                               name ? name : "a wait", where);
    free(name);
    free(where);
    return words;
}

/* "drained: the device has nothing queued here: ..." for the drain 'd' found at the call 'at'
 * of 'ctx->function', the 'what' ("copy", "wait", "free"...) that waits for nothing else.
 * Malloc'ed. */
static char *nothing_queued_words(ss_check_ctx *ctx, CXCursor at, const drain *d, int drain_copies,
                                  const char *what)
{
    char *name = drainer_name(d->by);
    char *where = ss_callgraph_place(d->by);
    const ss_api *by = ss_scope_callee_api(d->by);
    /* A copy from the host waits for all work before it starts, but from pageable memory it
     * returns once its data is staged: its own transfer may still be queued. */
    int upload = by && by->klass == SS_CLASS_COPY &&
                 copy_direction(ctx->function, d->by, by) == SS_COPY_KIND_H2D;
    char *aside = aside_words(d);
    char *why = by && (by->klass == SS_CLASS_FREE || by->klass == SS_CLASS_HOST_FREE)
                    ? free_drain_words(ctx, d->by)
                : by ? copy_drain_words(by, drain_copies, upload)
                     : cublas_drain_words(d, drain_copies);
    char *wide = wide_words(d, drain_copies, at);
    char *words = ss_xasprintf(
        "drained: the device has nothing queued here%s: '%s' at %s drained it%s%s, and no "
        "work%s is queued between it and this call on any way the unit reaches it: the %s "
        "waits for nothing else%s",
        upload ? " but, from pageable memory, the end of that copy's own transfer" : "",
        name ? name : "a wait", where, why, wide, d->filled ? " but memsets" : "", what, aside);
    free(name);
    free(where);
    free(why);
    free(wide);
    free(aside);
    return words;
}

/* For a device-wide call of SYNC402 at 'at' (an allocation, free or registration, which
 * synchronizes the device, implicitly): the drain on every way the unit reaches it, with
 * 'assumed' as in ss_context_between_waits (NULL: a call of a function the unit only declares
 * may queue work), the calls taken for waits that it rests on left in 'assumed'. As for a
 * copy, memsets may be queued since (a fill that costs the call little), and a synchronous
 * copy that drained it answers only where it waits for every stream (answered). No allocation
 * is taken for a drain (it synchronizes only sometimes), nor a free but one that surely frees
 * memory a synchronizing allocator gave (free_drains: a free of a null pointer does nothing). */
static drain implicit_sync_drain(ss_check_ctx *ctx, CXCursor at, int drain_copies,
                                 ss_assumed_waits *assumed)
{
    question device = device_question(ctx, drain_copies);
    device.assumed = assumed;
    flow_budget = FLOW_BUDGET;
    drain d = answered(drain_copies, at, state_at(&device, ctx->function, at, 0));
    if (d.state != DRAINED || ss_ast_is_null(d.by) || flow_budget < 0)
        return busy();
    keep_assumed(assumed, d.assumed);
    return d;
}

/* What a statement holding a synchronous copy does beside the copy (quiet_statement). */
typedef struct quiet_walk {
    ss_callgraph *graph;
    CXCursor copy;
    CXCursor *around; /* the statement and the nodes below it down to the copy */
    long around_count;
    int loud;
} quiet_walk;

/* The calls of the CUDA runtime that only read the last error of the host thread: they queue
 * nothing and wait for nothing. */
static const char error_queries[] = " cudaGetLastError cudaPeekAtLastError ";

/* The calls of the CUDA runtime that read an error or its text and nothing else: the error
 * queries and the names and strings of an error code. */
static const char quiet_error_calls[] =
    " cudaGetLastError cudaPeekAtLastError cudaGetErrorString cudaGetErrorName ";

/* Whether the call 'c' is one of quiet_error_calls, declared in a system header: it queues
 * nothing and waits for nothing. */
static int error_query_call(CXCursor c)
{
    CXCursor decl = clang_getCursorReferenced(c);
    if (ss_ast_is_null(decl) || !clang_Location_isInSystemHeader(clang_getCursorLocation(decl)))
        return 0;
    CXString name = clang_getCursorSpelling(decl);
    int query = listed(clang_getCString(name), quiet_error_calls);
    clang_disposeString(name);
    return query;
}

static void quiet_node(quiet_walk *w, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (w->loud || k == CXCursor_LambdaExpr)
        return;
    unsigned skip = ss_ast_child_count(c);
    if (k == CXCursor_IfStmt) {
        int throws = 0;
        unsigned failure = ss_context_failure_branch(w->graph, c, &throws);
        if (failure > 0)
            skip = failure;
    } else if (k == CXCursor_CallExpr && !ss_ast_same_node(c, w->copy)) {
        int holds = 0;
        for (long i = 0; i < w->around_count && !holds; i++)
            holds = ss_ast_same_node(c, w->around[i]);
        if (!holds && !host_side_call(c) && !error_query_call(c)) {
            w->loud = 1;
            return;
        }
    }
    for (unsigned i = 0, n = ss_ast_child_count(c); i < n && !w->loud; i++) {
        if (i != skip)
            quiet_node(w, ss_ast_child(c, i));
    }
}

/* Whether the statement 'stmt' runs the synchronous copy 'copy' whenever it runs and calls
 * nothing else that may do work of its own: besides the copy, only the calls that hold it (a
 * checking function it is handed to, which runs after it), calls that stay on the host
 * (host_side_call) and, in an 'if' of a checking macro, the branch that runs only when a CUDA
 * call failed (ss_context_failure_branch). Returns 1 or 0. */
static int quiet_statement(ss_check_ctx *ctx, CXCursor stmt, CXCursor copy)
{
    if (!ss_context_runs_whenever(stmt, copy))
        return 0;
    /* The statement itself, then the nodes below it down to the copy. */
    CXCursor *around = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH + 1, sizeof *around);
    around[0] = stmt;
    long found = ss_ast_same_node(stmt, copy) ? 0 : ss_context_path(stmt, copy, around + 1);
    quiet_walk w = {ss_check_graph(ctx), copy, around, found + 1, found < 0};
    if (!w.loud)
        quiet_node(&w, stmt);
    free(around);
    return !w.loud;
}

/* The first call in 'stmt' of a copy that returns only once it is done (SS_SYNC_ALWAYS:
 * 'cudaMemcpy', 'cudaMemcpyToSymbol', 'cuMemcpyHtoD'), or a null cursor. */
static enum CXChildVisitResult find_sync_copy(CXCursor c, CXCursor parent, CXClientData data)
{
    CXCursor *found = data;
    const ss_api *api = clang_getCursorKind(c) == CXCursor_CallExpr ? ss_scope_callee_api(c) : NULL;
    if (api && api->klass == SS_CLASS_COPY && api->sync == SS_SYNC_ALWAYS) {
        *found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether 'stmt' holds a 'throw' (a lambda's body aside), which would leave the statements after
 * it unrun. */
static enum CXChildVisitResult find_throw(CXCursor c, CXCursor parent, CXClientData data)
{
    int *found = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    *found = k == CXCursor_CXXThrowExpr;
    return *found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static int may_throw(CXCursor stmt)
{
    int found = 0;
    ss_ast_visit_whole(stmt, stmt, find_throw, &found);
    return found;
}

/* Whether the upload 'upload' ('up' its row) writes the device memory the readback 'at' ('api')
 * read, as written ('d_count' both times), or lint cannot read either side: a counter read back
 * and reset, whose reset a device-side memset or kernel could make without a wait, leaving the
 * readback's stall its own. Returns 1 or 0. */
static int resets(ss_check_ctx *ctx, CXCursor at, const ss_api *api, CXCursor upload,
                  const ss_api *up)
{
    CXCursor dst, src, up_dst, up_src;
    ss_copy_kind(ctx->function, at, api, &dst, &src);
    ss_copy_kind(ctx->function, upload, up, &up_dst, &up_src);
    if (ss_ast_is_null(src) || ss_ast_is_null(up_dst))
        return 1;
    char *read = ss_expr_text(ss_ast_strip(src)), *written = ss_expr_text(ss_ast_strip(up_dst));
    int same = read == NULL || written == NULL || strcmp(read, written) == 0;
    free(read);
    free(written);
    return same;
}

/* The upload that waits for the same work as the synchronous one-value readback 'at' (held-out
 * 18's shape AJ): the next device call after the readback's statement, in the same block (up to
 * two statements between, each a declaration or an expression that stays on the host and throws
 * nothing: straight_statement, touches_device, may_throw), is a synchronous copy to the device
 * (SS_SYNC_ALWAYS, a direction lint reads as host to device) that runs whenever its statement does
 * and writes other device memory than the readback read (resets); both statements call nothing else
 * that may work (quiet_statement); and the drained flow finds the device drained at the upload by
 * this readback, with nothing queued since (not even a memset), on every way the unit reaches it,
 * in a unit where a synchronous copy waits for all work (copies_drain). Such a copy, on the same
 * default stream as the readback, from pageable or pinned memory, returns only after all the work
 * queued before it there: the host waits there for the same work. '*d' receives the drain at the
 * upload. A null cursor where there is none. */
static CXCursor next_upload(ss_check_ctx *ctx, CXCursor at, int drain_copies, drain *d)
{
    CXCursor none = clang_getNullCursor();
    const ss_api *api = ss_scope_callee_api(at);
    if (api == NULL || api->klass != SS_CLASS_COPY || api->sync != SS_SYNC_ALWAYS ||
        copy_direction(ctx->function, at, api) != SS_COPY_KIND_D2H)
        return none;
    CXCursor stmts[256];
    unsigned index = 0;
    unsigned n = ss_context_statements_around(ctx->function, at, stmts, 256, &index);
    if (n == 0 || !quiet_statement(ctx, stmts[index], at))
        return none;
    for (unsigned s = index + 1; s < n && s <= index + 3; s++) {
        CXCursor upload = none;
        ss_ast_visit_whole(stmts[s], stmts[s], find_sync_copy, &upload);
        if (ss_ast_is_null(upload)) {
            if (!straight_statement(stmts[s]) || touches_device(stmts[s]) || may_throw(stmts[s]))
                return none;
            continue;
        }
        const ss_api *up = ss_scope_callee_api(upload);
        if (copy_direction(ctx->function, upload, up) != SS_COPY_KIND_H2D ||
            !quiet_statement(ctx, stmts[s], upload) || resets(ctx, at, api, upload, up))
            return none;
        question device = device_question(ctx, drain_copies);
        flow_budget = FLOW_BUDGET;
        *d = state_at(&device, ctx->function, upload, 0);
        if (d->state != DRAINED || ss_ast_is_null(d->by) || !ss_ast_same_node(d->by, at) ||
            d->filled || flow_budget < 0)
            return none;
        return upload;
    }
    return none;
}

char *ss_context_upload_next_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at)
{
    if (rule != SS_RULE_SCALAR_READBACK ||
        clang_getCursorKind(ctx->function) == CXCursor_LambdaExpr)
        return NULL;
    int drain_copies = copies_drain(ctx);
    drain d;
    CXCursor upload = drain_copies ? next_upload(ctx, at, drain_copies, &d) : clang_getNullCursor();
    if (ss_ast_is_null(upload))
        return NULL;
    char *name = ss_scope_callee_name(upload);
    char *aside = aside_words(&d);
    char *words = ss_xasprintf(
        "drained anyway: the next device call, '%s' at line %u, a synchronous copy to the "
        "device, waits for the same work: from pageable or pinned memory alike it returns only "
        "once the work queued before it is done (%s), and no work is queued between them on any "
        "way the unit reaches it%s: the stall is that copy's too, this readback adds none of its "
        "own",
        name ? name : "a copy", ss_scope_line(upload),
        drain_copies == SS_COPY_DRAIN_LEGACY_ONLY
            ? "the unit creates no stream and names none but the legacy one, so all its work is "
              "queued there"
            : "on the legacy stream, which waits for the work of the unit's other streams: it "
              "creates them blocking",
        aside);
    free(name);
    free(aside);
    return words;
}

/* ------------------------------------------------------------------------------------------
 * A wait that closes a loop's body, whose every way on waits for the same work at once. */

/* The call in 'stmt' of an error query (error_queries), or a null cursor. */
static enum CXChildVisitResult find_error_query(CXCursor c, CXCursor parent, CXClientData data)
{
    CXCursor *found = data;
    if (clang_getCursorKind(c) == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        CXString name = clang_getCursorSpelling(clang_getCursorReferenced(c));
        int query = listed(clang_getCString(name), error_queries);
        clang_disposeString(name);
        if (query) {
            *found = c;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* Whether 'c' reads through a pointer (through_pointer), a lambda's body aside. */
static enum CXChildVisitResult find_pointer_read(CXCursor c, CXCursor parent, CXClientData data)
{
    int *found = data;
    if (clang_getCursorKind(c) == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    *found = through_pointer(c);
    return *found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static CXCursor unit_call_statement(ss_check_ctx *ctx, CXCursor s);
static unsigned block_statements(CXCursor block, CXCursor child, CXCursor *stmts, unsigned max,
                                 unsigned *index);
static int calm_within(ss_check_ctx *ctx, CXCursor s, unsigned depth);

/* How many calls deep a checking function of the unit is followed, and how many statements its
 * body may hold, one less than this (checking_call). */
enum { MAX_CHECK_DEPTH = 2, MAX_CHECK_STATEMENTS = 16 };

/* Whether the statement 's' of a checking function's body is an 'if' whose one branch runs only
 * when a CUDA call failed (ss_context_failure_branch: 'if (code != cudaSuccess) { report; exit;
 * }'), with no other branch, its condition staying on the host. Returns 1 or 0. */
static int failure_only_if(ss_check_ctx *ctx, CXCursor s)
{
    int throws = 0;
    unsigned cond = ss_ast_if_condition(s);
    unsigned failure = ss_context_failure_branch(ss_check_graph(ctx), s, &throws);
    return failure > 0 && failure == cond + 1 && ss_ast_child_count(s) == cond + 2 &&
           !touches_device(ss_ast_child(s, cond)) && !may_throw(ss_ast_child(s, cond));
}

/* Whether 'c' declares or makes a value of a class, struct or union (or an array of them):
 * its constructor or destructor may do work lint does not see. */
static enum CXChildVisitResult find_class_value(CXCursor c, CXCursor parent, CXClientData data)
{
    int *found = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl && !clang_isExpression(k))
        return CXChildVisit_Recurse;
    CXType t = clang_getCanonicalType(clang_getCursorType(c));
    while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
        t = clang_getCanonicalType(clang_getArrayElementType(t));
    *found = t.kind == CXType_Record;
    return *found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether 'c' holds an expression (a parameter's default argument) or an attribute other than
 * '__host__' (a weak definition another unit may replace, among others). */
static enum CXChildVisitResult find_default_or_attr(CXCursor c, CXCursor parent, CXClientData data)
{
    int *found = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    *found = clang_isExpression(k) || (clang_isAttribute(k) && k != CXCursor_CUDAHostAttr);
    return *found ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Whether the declaration 'fn' of a function has a parameter with a default argument or an
 * attribute other than '__host__' (find_default_or_attr). Returns 1 or 0. */
static int defaults_or_attrs(CXCursor fn)
{
    int found = 0;
    clang_visitChildren(fn, find_default_or_attr, &found);
    for (int a = 0, n = clang_Cursor_getNumArguments(fn); a < n && !found; a++)
        clang_visitChildren(clang_Cursor_getArgument(fn, (unsigned)a), find_default_or_attr,
                            &found);
    return found;
}

/* Whether 'callee', the definition that the call statement 's' runs, is a plain function lint
 * can follow as a checking function (checking_call): a free function, not a member (whose
 * object and its members the body reads unseen), not a template nor one's specialization (whose
 * body may hide calls), whose declarations have no default argument (which runs at the call)
 * and no attribute but '__host__' ('weak': another unit may replace it), and where neither the
 * statement nor the body declares or makes a value of a class (whose constructor or destructor
 * may queue work). Returns 1 or 0. */
static int plain_checker(CXCursor s, CXCursor callee)
{
    CXCursor named = clang_getCursorReferenced(ss_ast_strip(s));
    enum CXCursorKind scope = clang_getCursorKind(clang_getCursorLexicalParent(callee));
    if (clang_getCursorKind(callee) != CXCursor_FunctionDecl ||
        clang_getCursorKind(named) != CXCursor_FunctionDecl ||
        !ss_ast_is_null(clang_getSpecializedCursorTemplate(callee)) ||
        (scope != CXCursor_TranslationUnit && scope != CXCursor_Namespace &&
         scope != CXCursor_LinkageSpec && scope != CXCursor_UnexposedDecl) ||
        defaults_or_attrs(callee) || defaults_or_attrs(named) ||
        defaults_or_attrs(clang_getCanonicalCursor(callee)))
        return 0;
    int found = 0;
    ss_ast_visit_whole(s, s, find_class_value, &found);
    if (!found)
        ss_ast_visit_whole(callee, callee, find_class_value, &found);
    return !found;
}

/* Whether the statement 's' calls a checking function of the unit that only reads the last
 * error ('check_last(__FILE__, __LINE__);' where its body keeps 'cudaGetLastError()' in a
 * variable and reports it and ends the program when it is not cudaSuccess): the call alone, its
 * arguments staying on the host (unit_call_statement), of a plain function (plain_checker),
 * whose body holds only calm statements
 * (calm_within, 'depth' calls down so far) and 'if's that run only a failure branch
 * (failure_only_if), which is left out as a checking macro's is. Returns 1 or 0. */
static int checking_call(ss_check_ctx *ctx, CXCursor s, unsigned depth)
{
    CXCursor callee = depth < MAX_CHECK_DEPTH ? unit_call_statement(ctx, s) : clang_getNullCursor();
    unsigned parts = ss_ast_is_null(callee) ? 0 : ss_ast_child_count(callee), index = 0;
    CXCursor body = parts ? ss_ast_child(callee, parts - 1) : clang_getNullCursor();
    if (clang_getCursorKind(body) != CXCursor_CompoundStmt || !plain_checker(s, callee))
        return 0;
    CXCursor stmts[MAX_CHECK_STATEMENTS];
    unsigned n = block_statements(body, clang_getNullCursor(), stmts, MAX_CHECK_STATEMENTS, &index);
    int calm = n > 0 && n < MAX_CHECK_STATEMENTS;
    for (unsigned i = 0; i < n && calm; i++)
        calm = failure_only_if(ctx, stmts[i]) || calm_within(ctx, stmts[i], depth + 1);
    return calm;
}

/* Whether the statement 's' only goes on, on the host, to the next one, with nothing the work
 * queued before it could overlap: a declaration or an expression that calls nothing but what
 * stays on the host, reads nothing through a pointer and throws nothing (as between a wait and a
 * Thrust algorithm, or a readback and an upload); a check of the last error (an error query
 * and the checking function it is handed to, or a checking macro's 'if', whose failure branch
 * is left out: quiet_statement) that reads nothing through a pointer; or, since session 33, a
 * call of a checking function of the unit that does no more (checking_call, 'depth' calls down
 * so far). Returns 1 or 0. */
static int calm_within(ss_check_ctx *ctx, CXCursor s, unsigned depth)
{
    if (straight_statement(s) && !touches_device(s) && !may_throw(s))
        return 1;
    CXCursor query = clang_getNullCursor();
    int pointer = 0;
    ss_ast_visit_whole(s, s, find_error_query, &query);
    if (!ss_ast_is_null(query))
        ss_ast_visit_whole(s, s, find_pointer_read, &pointer);
    if (!ss_ast_is_null(query))
        return !pointer && quiet_statement(ctx, s, query);
    return checking_call(ctx, s, depth);
}

/* calm_within from the statement's own function. */
static int calm_statement(ss_check_ctx *ctx, CXCursor s)
{
    return calm_within(ctx, s, 0);
}

/* ------------------------------------------------------------------------------------------
 * A function of another unit that opens with a synchronous copy between the host and the device
 * (held-out-12's M across units: hot's finish_sum_reduce waits, then calls copy_buffer). */

/* How many ways of a function 'opens_copying' follows (an 'if' per arm). */
enum { MAX_OPENING_COPIES = SS_READ_WAYS };

/* The synchronous copies between the host and the device that open 'function', one a way;
 * 'from' how many of them copy from the device. */
typedef struct opening_copies {
    CXCursor function;
    CXCursor copies[MAX_OPENING_COPIES];
    unsigned count, from;
    /* Each way's SS_READ_WAY_* word (ss_context_opening_copy_words); 'guard' the one of the
     * 'if' arm the walk is in (SS_READ_WAY_GUARD and SS_READ_WAY_TRUE bits, 0 for none). */
    unsigned ways[MAX_OPENING_COPIES], guard;
} opening_copies;

/* The operand of 'e' (stripped) where it is the unary operator 'op' ('*p', '&x'; '*had' 1), 'e'
 * itself where it is no unary operator ('*had' 0), or a null cursor where it is another one. */
static CXCursor unary_operand(CXCursor e, char op, int *had)
{
    *had = 0;
    if (clang_getCursorKind(e) != CXCursor_UnaryOperator || ss_ast_child_count(e) != 1)
        return e;
    char *text = ss_expr_text(e);
    *had = text && text[0] == op;
    free(text);
    return *had ? ss_ast_strip(ss_ast_child(e, 0)) : clang_getNullCursor();
}

/* The SS_READ_WAY_* word of the copy 'copy' ('dir' its direction) in 'function': where it copies
 * from the device into host memory that a pointer parameter of 'function' points to ('host':
 * SS_READ_WAY_DEPTH clear) or that the pointer one points to does ('*host'), that parameter's
 * index and SS_READ_WAY_D2H; else SS_READ_WAY_NO_PARAM. */
static unsigned read_way(CXCursor function, CXCursor copy, int dir)
{
    CXCursor dst, src;
    const ss_api *api = ss_scope_callee_api(copy);
    if (dir != SS_COPY_KIND_D2H || api == NULL ||
        ss_copy_kind(function, copy, api, &dst, &src) == SS_COPY_KIND_UNKNOWN ||
        ss_ast_is_null(dst))
        return SS_READ_WAY_NO_PARAM;
    int depth;
    CXCursor e = unary_operand(ss_ast_strip(dst), '*', &depth);
    if (ss_ast_is_null(e))
        return SS_READ_WAY_NO_PARAM;
    CXCursor param = clang_getCursorReferenced(e);
    int index = clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
                        clang_getCursorKind(param) == CXCursor_ParmDecl &&
                        clang_getCanonicalType(clang_getCursorType(param)).kind == CXType_Pointer
                    ? ss_context_parameter_index(function, param)
                    : -1;
    if (index < 0 || index >= SS_READ_WAY_NO_PARAM)
        return SS_READ_WAY_NO_PARAM;
    return (unsigned)index | (depth ? SS_READ_WAY_DEPTH : 0) | SS_READ_WAY_D2H;
}

/* Whether 'c' names a variable whose value the device or another thread may have written while
 * the host waited, read through no pointer: one of global or static storage (a '__managed__'
 * one too) or a reference. */
static enum CXChildVisitResult find_shared_read(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    int *found = data;
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
        return CXChildVisit_Recurse;
    CXCursor var = clang_getCursorReferenced(c);
    enum CXCursorKind k = clang_getCursorKind(var);
    enum CXTypeKind t = clang_getCursorType(var).kind;
    if ((k == CXCursor_VarDecl && clang_Cursor_hasVarDeclGlobalStorage(var) == 1) ||
        ((k == CXCursor_VarDecl || k == CXCursor_ParmDecl) &&
         (t == CXType_LValueReference || t == CXType_RValueReference))) {
        *found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

int ss_context_reads_shared(CXCursor c)
{
    int found = 0;
    if (!ss_ast_is_null(c))
        ss_ast_visit_whole(c, c, find_shared_read, &found);
    return found;
}

/* Whether the statement 's' (a declaration, an expression or a 'return') runs a synchronous copy
 * between the host and the device (find_sync_copy, of a direction lint reads: copy_direction)
 * whenever it runs, and nothing else that may work before it (quiet_statement; a checking
 * function the copy's status is handed to runs after it): such a copy returns only once the work
 * queued before it on its stream is done. Adds it to 'o'. Returns 1 or 0. */
static int copy_statement(ss_check_ctx *ctx, CXCursor s, opening_copies *o)
{
    CXCursor copy = clang_getNullCursor();
    if (!straight_statement(s) && clang_getCursorKind(s) != CXCursor_ReturnStmt)
        return 0;
    ss_ast_visit_whole(s, s, find_sync_copy, &copy);
    if (ss_ast_is_null(copy) || o->count == MAX_OPENING_COPIES)
        return 0;
    int dir = copy_direction(o->function, copy, ss_scope_callee_api(copy));
    if (!host_side(dir) || !quiet_statement(ctx, s, copy) || ss_context_reads_shared(s))
        return 0;
    o->ways[o->count] = read_way(o->function, copy, dir) | o->guard;
    o->copies[o->count++] = copy;
    o->from += dir == SS_COPY_KIND_D2H;
    return 1;
}

static int opens_copying(ss_check_ctx *ctx, CXCursor s, opening_copies *o);

/* The guard of the 'then' arm of an 'if' whose condition 'cond' is a parameter of 'function'
 * ('if (send)') or its negation ('if (!send)'): SS_READ_WAY_GUARD with the parameter's index
 * plus one, and SS_READ_WAY_TRUE where the arm runs when it is nonzero; 0 for another. */
static unsigned parameter_guard(CXCursor function, CXCursor cond)
{
    CXCursor e = ss_ast_strip(cond);
    unsigned truth = SS_READ_WAY_TRUE;
    if (clang_getCursorKind(e) == CXCursor_UnaryOperator && ss_ast_child_count(e) == 1) {
        char *text = ss_expr_text(e);
        int negated = text && text[0] == '!';
        free(text);
        if (!negated)
            return 0;
        truth = 0;
        e = ss_ast_strip(ss_ast_child(e, 0));
    }
    CXCursor param = clang_getCursorReferenced(e);
    int index = clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
                        clang_getCursorKind(param) == CXCursor_ParmDecl
                    ? ss_context_parameter_index(function, param)
                    : -1;
    if (index < 0 || index + 1 >= SS_READ_WAY_NO_PARAM)
        return 0;
    return ((unsigned)(index + 1) << SS_READ_WAY_GUARD_SHIFT) | truth;
}

/* Whether the block 'block' opens with such a copy (opens_copying): up to two statements that
 * stay on the host, read through no pointer and run through to the next (straight_statement,
 * touches_device, may_throw) before the statement that does; empty statements aside. */
static int block_opens_copying(ss_check_ctx *ctx, CXCursor block, opening_copies *o)
{
    unsigned calm = 0;
    for (unsigned i = 0, n = ss_ast_child_count(block); i < n; i++) {
        CXCursor c = ss_ast_child(block, i);
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_NullStmt)
            continue;
        if (k == CXCursor_CompoundStmt || k == CXCursor_IfStmt || !straight_statement(c) ||
            touches_device(c) || may_throw(c))
            return opens_copying(ctx, c, o);
        if (ss_context_reads_shared(c))
            return 0;
        if (++calm > 2)
            return 0;
    }
    return 0;
}

/* Whether the statement 's' opens with a synchronous copy between the host and the device on
 * every way through it: a statement that runs one first (copy_statement), a block that opens so
 * (block_opens_copying; a 'do { ... } while (0)' one's too), or an 'if' with an 'else' whose
 * condition stays on the host and reads through no pointer, each arm opening so or only
 * throwing (one at least opening so). The copies found go to 'o'. Returns 1 or 0. */
static int opens_copying(ss_check_ctx *ctx, CXCursor s, opening_copies *o)
{
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_CompoundStmt)
        return block_opens_copying(ctx, s, o);
    /* A checking macro written as 'do { ... } while (0)': its body runs once. */
    if (k == CXCursor_DoStmt && ss_ast_do_once(s) && ss_ast_child_count(s) > 0)
        return opens_copying(ctx, ss_ast_child(s, 0), o);
    if (k != CXCursor_IfStmt)
        return copy_statement(ctx, s, o);
    CXCursor cond = ss_ast_child(s, 0);
    if (ss_ast_child_count(s) != 3 || touches_device(cond) || may_throw(cond) ||
        ss_context_reads_shared(cond))
        return 0;
    int opens = 0;
    unsigned outer = o->guard, guard = outer ? outer : parameter_guard(o->function, cond);
    for (unsigned arm = 1; arm < 3; arm++) {
        CXCursor c = ss_ast_child(s, arm);
        if (only_throws(c))
            continue;
        /* The arm runs where the parameter the condition names is nonzero (then) or zero. */
        o->guard = guard && !outer ? guard ^ (arm == 2 ? SS_READ_WAY_TRUE : 0) : outer;
        int way = opens_copying(ctx, c, o);
        o->guard = outer;
        if (!way)
            return 0;
        opens = 1;
    }
    return opens;
}

int ss_context_streams_block(ss_check_ctx *ctx)
{
    return !ctx->per_thread && known_copies_drain(ctx) != 0;
}

char *ss_context_opening_copy_words(ss_check_ctx *ctx, CXCursor function, unsigned *ways,
                                    unsigned *way_count)
{
    unsigned n = ss_ast_child_count(function);
    CXCursor body = n ? ss_ast_child(function, n - 1) : clang_getNullCursor();
    opening_copies o;
    memset(&o, 0, sizeof o);
    o.function = function;
    /* A free function whose declarations have no default argument and no attribute but
     * '__host__' (a weak one another unit may replace), as plain_checker asks. */
    if (clang_getCursorKind(function) != CXCursor_FunctionDecl ||
        clang_getCursorKind(body) != CXCursor_CompoundStmt || defaults_or_attrs(function) ||
        defaults_or_attrs(clang_getCanonicalCursor(function)) ||
        !block_opens_copying(ctx, body, &o))
        return NULL;
    memcpy(ways, o.ways, sizeof o.ways);
    *way_count = o.count;
    char *list = ss_xstrdup("");
    for (unsigned i = 0; i < o.count; i++) {
        char *name = ss_scope_callee_name(o.copies[i]), *place = ss_callgraph_place(o.copies[i]);
        char *longer =
            ss_xasprintf("%s%s'%s' at %s", list, i ? ", " : "", name ? name : "a copy", place);
        free(name);
        free(place);
        free(list);
        list = longer;
    }
    const char *way = o.from == o.count ? "from the device"
                      : o.from == 0     ? "to the device"
                                        : "between the host and the device";
    char *words = ss_xasprintf(
        "a synchronous copy %s%s (%s), which returns only once the work queued before it on the "
        "%s default stream is done",
        way, o.count > 1 ? " on each of its ways" : "", list,
        ctx->per_thread ? "per-thread" : "legacy");
    free(list);
    return words;
}

/* "drained anyway: the next statement calls 'read_back()' (line 12), defined in another unit,
 * whose first device work, ..." for the wait 'at' whose next statement calls the function of
 * another unit 'a->usr' (next_thrust), 'by' the drain it rests on (waits_for_thrust_stream).
 * Malloc'ed. */
static char *copy_again_words(ss_check_ctx *ctx, CXCursor at, const again *a, CXCursor by)
{
    char *since = a->blocking ? ss_xstrdup(", and every unit of the program queues its work on "
                                           "the legacy default stream or on streams it creates "
                                           "blocking, whose work such a copy waits for too")
                              : since_words(ctx, at, by);
    char *callee = ss_scope_callee_name(a->call);
    char *words = ss_xasprintf(
        "drained anyway: the next statement calls '%s()' (line %u), defined in another unit, "
        "whose first device work, a synchronous copy between the host and the device on the %s "
        "default stream%s, waits for the same work: it returns only once the work queued before "
        "it there is done, and only statements that stay on the host run between them%s: the "
        "stall is that copy's, this wait adds none of its own",
        callee ? callee : "?", ss_scope_line(a->call), ctx->per_thread ? "per-thread" : "legacy",
        since ? "" : ", the stream this wait is for", since ? since : "");
    free(callee);
    free(since);
    return words;
}

/* How a statement after a readback first uses the object it wrote (first_use). */
typedef enum use_kind { USE_NONE = 0, USE_READ, USE_WRITE, USE_OTHER } use_kind;

/* Whether 'e' is 'var' itself (not 'pointee') or, with 'pointee', 'var[i]' or '*var'. */
static int names_object(CXCursor e, CXCursor var, int pointee)
{
    e = ss_ast_strip(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (pointee && (k == CXCursor_ArraySubscriptExpr || k == CXCursor_UnaryOperator) &&
        ss_ast_child_count(e) >= 1) {
        char *text = k == CXCursor_UnaryOperator ? ss_expr_text(e) : NULL;
        int deref = k == CXCursor_ArraySubscriptExpr || (text && text[0] == '*');
        free(text);
        return deref && names_object(ss_ast_child(e, 0), var, 0);
    }
    return !pointee && k == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(e), var);
}

/* How the expression 'c' first uses the object a readback wrote: the variable 'var', or what
 * the pointer 'var' points to ('pointee'): read ('x + 1', 'p[0]', '*p'), written ('x = 1',
 * 'p[0] = 1'; the right side first), or otherwise ('&x', 'p' handed on, a lambda naming it),
 * in the order of the children; USE_NONE where it does not. */
static use_kind first_use(CXCursor c, CXCursor var, int pointee, CXCursor root)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_UnaryExpr) /* sizeof, alignof */
        return USE_NONE;
    if (k == CXCursor_LambdaExpr)
        return ss_context_mentions(c, var) ? USE_OTHER : USE_NONE;
    char op[4] = "";
    if (k == CXCursor_BinaryOperator && ss_ast_binary_op(c, op, sizeof op) == 0 &&
        strcmp(op, "=") == 0 && ss_ast_child_count(c) == 2) {
        use_kind u = first_use(ss_ast_child(c, 1), var, pointee, root);
        if (u != USE_NONE)
            return u;
        if (names_object(ss_ast_child(c, 0), var, pointee))
            return USE_WRITE;
        return first_use(ss_ast_child(c, 0), var, pointee, root);
    }
    if (names_object(c, var, pointee)) /* a name within 'decltype' is its type's, not read */
        return ss_context_in_decltype(root, c) ? USE_NONE : USE_READ;
    /* What only one way of a '?:', or the right side of '&&' or '||', does may not run: a use
     * there is no read the caller is sure to make ('s == last ? host[0] : 0'). */
    int conditional = k == CXCursor_ConditionalOperator ||
                      (k == CXCursor_BinaryOperator && ss_ast_binary_op(c, op, sizeof op) == 0 &&
                       (strcmp(op, "&&") == 0 || strcmp(op, "||") == 0));
    if (conditional && ss_ast_child_count(c) >= 2) {
        use_kind u = first_use(ss_ast_child(c, 0), var, pointee, root);
        if (u != USE_NONE)
            return u;
        for (unsigned i = 1, n = ss_ast_child_count(c); i < n; i++) {
            if (first_use(ss_ast_child(c, i), var, pointee, root) != USE_NONE)
                return USE_OTHER;
        }
        return USE_NONE;
    }
    if (k == CXCursor_UnaryOperator && ss_ast_child_count(c) == 1 &&
        first_use(ss_ast_child(c, 0), var, pointee, root) != USE_NONE) {
        char *text = ss_expr_text(c);
        int address = text && text[0] == '&';
        free(text);
        if (address) /* '&x', '&p[0]': handed on */
            return USE_OTHER;
    }
    if (k == CXCursor_DeclRefExpr)
        return clang_equalCursors(clang_getCursorReferenced(c), var) ? USE_OTHER : USE_NONE;
    for (unsigned i = 0, n = ss_ast_child_count(c); i < n; i++) {
        use_kind u = first_use(ss_ast_child(c, i), var, pointee, root);
        if (u != USE_NONE)
            return u;
    }
    return USE_NONE;
}

/* The object the argument 'arg' hands a function that copies into what its parameter points
 * to ('depth' 0) or into what the pointer that it points to points to ('depth' 1): for 0, '&x'
 * (the variable 'x') or 'p' (what 'p' points to: '*pointee'); for 1, '&p'. A local variable or
 * a parameter, not a reference nor one of global or static storage; else a null cursor. */
static CXCursor handed_object(CXCursor arg, int depth, int *pointee)
{
    CXCursor none = clang_getNullCursor();
    int address;
    CXCursor e = unary_operand(ss_ast_strip(arg), '&', &address);
    if (ss_ast_is_null(e))
        return none;
    CXCursor var = clang_getCursorReferenced(e);
    enum CXCursorKind vk = clang_getCursorKind(var);
    enum CXTypeKind t = clang_getCanonicalType(clang_getCursorType(var)).kind;
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr ||
        (vk != CXCursor_VarDecl && vk != CXCursor_ParmDecl) || ss_context_reads_shared(e) ||
        (depth == 1 && !address) || ((depth == 1 || !address) && t != CXType_Pointer))
        return none;
    *pointee = depth == 1 || !address;
    return var;
}

/* Whether the caller needs the object 'var' ('pointee': what it points to) that a readback in
 * the statement stmts[at] wrote: a later statement of the block ('n' of them) reads it before
 * anything writes it or hands it on (first_use; a declaration, an expression, a 'return', or
 * an 'if' whose condition reads it; any other statement ends the search), or, where 'var' is a
 * pointer parameter of the function and the block is its body and no loop holds the call, the
 * block ends (or returns) first: the value goes to the function's caller ('in_body'). */
static int object_needed(CXCursor *stmts, unsigned n, unsigned at, CXCursor var, int pointee,
                         int in_body)
{
    for (unsigned s = at + 1; s < n; s++) {
        enum CXCursorKind k = clang_getCursorKind(stmts[s]);
        CXCursor look = k == CXCursor_IfStmt ? ss_ast_child(stmts[s], 0) : stmts[s];
        if (k != CXCursor_IfStmt && !straight_statement(stmts[s]) && k != CXCursor_ReturnStmt)
            return 0;
        use_kind u = first_use(look, var, pointee, look);
        if (u != USE_NONE)
            return u == USE_READ;
        if (k == CXCursor_IfStmt && ss_context_mentions(stmts[s], var))
            return 0;
        if (k == CXCursor_ReturnStmt || k == CXCursor_IfStmt)
            return k == CXCursor_ReturnStmt && in_body && pointee &&
                   clang_getCursorKind(var) == CXCursor_ParmDecl;
    }
    return in_body && pointee && clang_getCursorKind(var) == CXCursor_ParmDecl;
}

/* Whether no loop of 'function' holds 'call', and the block 'stmts' come from is its body. */
static int call_in_body(CXCursor function, CXCursor call, CXCursor first_stmt)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(function, call, path);
    int in_body = found > 0;
    for (long i = 0; i < found && in_body; i++) {
        enum CXCursorKind k = clang_getCursorKind(path[i]);
        in_body = k != CXCursor_ForStmt && k != CXCursor_WhileStmt &&
                  k != CXCursor_CXXForRangeStmt &&
                  (k != CXCursor_DoStmt || ss_ast_do_once(path[i]));
    }
    free(path);
    CXCursor body = ss_ast_body(function);
    return in_body && !ss_ast_is_null(body) && ss_ast_child_count(body) > 0 &&
           clang_equalCursors(ss_ast_child(body, 0), first_stmt);
}

/* For the call 'call' of another unit's function, in the statement stmts[at] ('n' statements
 * of its block): into args[SS_READ_ARGS_DEPTH0] and args[SS_READ_ARGS_DEPTH1] the arguments
 * (a bit each, by index) whose object the caller needs after a readback into it
 * (handed_object, object_needed); into args[SS_READ_ARGS_TRUE] and args[SS_READ_ARGS_FALSE]
 * those that are integer constants, nonzero or zero. */
static void read_args(ss_check_ctx *ctx, CXCursor call, CXCursor *stmts, unsigned n, unsigned at,
                      unsigned *args)
{
    int in_body = call_in_body(ctx->function, call, stmts[0]);
    int count = clang_Cursor_getNumArguments(call);
    for (int i = 0; i < count && i < SS_READ_WAY_NO_PARAM; i++) {
        CXCursor arg = clang_Cursor_getArgument(call, i);
        long long value;
        if (ss_ast_eval_int(arg, &value) == 0)
            args[value ? SS_READ_ARGS_TRUE : SS_READ_ARGS_FALSE] |= 1u << i;
        for (int depth = 0; depth < 2; depth++) {
            int pointee = 0;
            CXCursor var = handed_object(arg, depth, &pointee);
            if (!ss_ast_is_null(var) && object_needed(stmts, n, at, var, pointee, in_body))
                args[depth ? SS_READ_ARGS_DEPTH1 : SS_READ_ARGS_DEPTH0] |= 1u << i;
        }
    }
}

/* For the wait 'at' whose next statement calls another unit's function ('call'): whether
 * nothing from the wait to the call, its arguments too, reads a variable the device or another
 * thread may have written through no pointer (ss_context_reads_shared); the arguments the
 * caller needs the readback of into 'args' (read_args). Returns 1 or 0. */
static int calm_before_call(ss_check_ctx *ctx, CXCursor at, CXCursor call, unsigned *args)
{
    CXCursor stmts[256];
    unsigned index = 0, n = ss_context_statements_around(ctx->function, at, stmts, 256, &index);
    for (unsigned s = index + 1; s < n && s <= index + 3; s++) {
        if (ss_context_reads_shared(stmts[s]))
            return 0;
        CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
        long found = ss_ast_same_node(stmts[s], call) ? 0 : ss_context_path(stmts[s], call, path);
        free(path);
        if (found >= 0) {
            read_args(ctx, call, stmts, n, s, args);
            return 1;
        }
    }
    return 0;
}

/* For the wait 'at' (thrust_words) whose next statement calls the function of another unit
 * 'a->usr': the way on which that function opens with a synchronous copy between the host and
 * the device on this unit's default stream (ss_context_opening_copy_words in its unit), for the
 * project pass (ss_project_foreign_opening), where the call runs nothing before the function's
 * body: a free function whose declarations here have no default argument or attribute. */
static void copy_opening_way(ss_check_ctx *ctx, CXCursor at, const again *a, CXCursor by,
                             const ss_foreign_calls *calls)
{
    CXCursor decl = clang_getCursorReferenced(a->call);
    unsigned args[SS_READ_ARGS] = {0};
    if (clang_getCursorKind(decl) != CXCursor_FunctionDecl || defaults_or_attrs(decl) ||
        defaults_or_attrs(clang_getCanonicalCursor(decl)) ||
        !calm_before_call(ctx, at, a->call, args))
        return;
    char *words = copy_again_words(ctx, at, a, by);
    ss_project_foreign_opening(ctx, SS_RULE_SYNC_IN_LOOP, at, words, a->blocking ? NULL : calls,
                               a->usr, a->blocking ? SS_OPENING_COPY_BLOCKING : SS_OPENING_COPY,
                               args);
    free(words);
}

/* What a call that waits for the same work as a wait for the whole device is, for the words. */
typedef enum wait_kind { WAIT_NONE = 0, WAIT_DEVICE, WAIT_COPY_TO, WAIT_COPY_FROM } wait_kind;

/* The call of the statement 'stmt' (of 'function') that waits for all the work the unit has
 * queued, as next_wait says, run whenever 'stmt' runs, 'stmt' calling nothing else that may work
 * (quiet_statement), into '*call'. Returns what it is, or WAIT_NONE. */
static wait_kind statement_wait(ss_check_ctx *ctx, CXCursor function, CXCursor stmt,
                                int drain_copies, CXCursor *call)
{
    CXCursor found = clang_getNullCursor();
    ss_ast_visit_whole(stmt, stmt, find_sync_copy, &found);
    wait_kind kind = WAIT_NONE;
    if (!ss_ast_is_null(found)) {
        int dir = copy_direction(function, found, ss_scope_callee_api(found));
        kind = !drain_copies             ? WAIT_NONE
               : dir == SS_COPY_KIND_H2D ? WAIT_COPY_TO
               : dir == SS_COPY_KIND_D2H ? WAIT_COPY_FROM
                                         : WAIT_NONE;
    } else {
        ss_ast_visit_whole(stmt, stmt, ss_find_device_wait, &found);
        kind = ss_ast_is_null(found) ? WAIT_NONE : WAIT_DEVICE;
    }
    if (kind == WAIT_NONE || !quiet_statement(ctx, stmt, found))
        return WAIT_NONE;
    *call = found;
    return kind;
}

/* The first statement of 'stmts' (of 'n', from 'from') that is not calm (calm_statement), two
 * of them at most before it, when it holds a call that waits for all the work the unit has
 * queued: a wait for the whole device, or (with 'drain_copies') a synchronous copy between the
 * host and the device, which waits for all work on the legacy stream and, where the unit creates
 * its streams blocking, on theirs; run whenever its statement runs, which calls nothing else
 * that may work (quiet_statement). '*call' receives that call, '*calm' how many calm statements
 * come before it. Returns what it is, or WAIT_NONE. */
static wait_kind next_wait(ss_check_ctx *ctx, const CXCursor *stmts, unsigned n, unsigned from,
                           int drain_copies, CXCursor *call, unsigned *calm)
{
    *calm = 0;
    for (unsigned s = from; s < n; s++) {
        if (calm_statement(ctx, stmts[s])) {
            if (++*calm > 2)
                return WAIT_NONE;
            continue;
        }
        return statement_wait(ctx, ctx->function, stmts[s], drain_copies, call);
    }
    return WAIT_NONE;
}

/* The statements of the block 'block' ('{ ... }', empty ones left out) into 'stmts' (at most
 * 'max'); '*index' receives the position of its child 'child' (max where it is not there).
 * Returns how many. */
static unsigned block_statements(CXCursor block, CXCursor child, CXCursor *stmts, unsigned max,
                                 unsigned *index)
{
    unsigned n = 0;
    *index = max;
    for (unsigned c = 0, all = ss_ast_child_count(block); c < all && n < max; c++) {
        CXCursor stmt = ss_ast_child(block, c);
        if (clang_getCursorKind(stmt) == CXCursor_NullStmt)
            continue;
        if (!ss_ast_is_null(child) && ss_ast_same_node(stmt, child))
            *index = n;
        stmts[n++] = stmt;
    }
    return n;
}

/* " past 2 statements on the host and" and the like, malloc'ed ("" for none). */
static char *past_words(unsigned calm)
{
    return calm == 0   ? ss_xstrdup("")
           : calm == 1 ? ss_xstrdup(" 1 statement on the host and")
                       : ss_xasprintf(" %u statements on the host and", calm);
}

/* "'cudaMemcpy' at line 40, a synchronous copy to the device, which waits for all work (...)". */
static char *wait_words(CXCursor call, wait_kind kind, int drain_copies)
{
    char *name = ss_scope_callee_name(call);
    const char *copies = drain_copies == SS_COPY_DRAIN_LEGACY_ONLY
                             ? "the unit creates no stream and names none but the legacy one, "
                               "so all its work is queued there"
                             : "on the legacy stream, which waits for the work of the unit's "
                               "other streams: it creates them blocking";
    char *words =
        kind == WAIT_DEVICE
            ? ss_xasprintf("'%s' at line %u, a wait for the whole device", name ? name : "a wait",
                           ss_scope_line(call))
            : ss_xasprintf("'%s' at line %u, a synchronous copy %s the device, which waits for "
                           "all work (%s)",
                           name ? name : "a copy", ss_scope_line(call),
                           kind == WAIT_COPY_TO ? "to" : "from", copies);
    free(name);
    return words;
}

/* Whether the rest of a loop's body after the statement at 'index' of its 'n' statements
 * 'stmts' is calm (two statements at most, '*tail' of them), and the loop's own parts
 * (condition, increment; a 'for''s start too) stay on the host. */
static int rest_of_loop_calm(ss_check_ctx *ctx, CXCursor loop, CXCursor body, const CXCursor *stmts,
                             unsigned n, unsigned index, unsigned *tail)
{
    *tail = 0;
    for (unsigned s = index + 1; s < n; s++) {
        if (!calm_statement(ctx, stmts[s]) || ++*tail > 2)
            return 0;
    }
    unsigned parts = ss_ast_child_count(loop);
    for (unsigned p = 0; p < parts; p++) {
        CXCursor part = ss_ast_child(loop, p);
        if (!ss_ast_same_node(part, body) && (touches_device(part) || may_throw(part)))
            return 0;
    }
    return 1;
}

/* The parts of 'loop' that run around its back edge, for the words: "the loop's condition". */
static const char *loop_parts_words(CXCursor loop)
{
    enum CXCursorKind k = clang_getCursorKind(loop);
    unsigned parts = ss_ast_child_count(loop);
    return k == CXCursor_ForStmt && parts == 4 ? "the loop's increment and condition"
           : k == CXCursor_ForStmt             ? "the loop's own parts"
                                               : "the loop's condition";
}

/* The note of a closing wait: past 'back' calm statements and the loop's parts, the wait
 * 'top' of kind 'top_kind' at the body's top; past 'out_calm' after the loop, 'out'. */
static char *closing_words(CXCursor loop, unsigned back, CXCursor top, wait_kind top_kind,
                           CXCursor out, wait_kind out_kind, unsigned out_calm, int drain_copies)
{
    const char *head = loop_parts_words(loop);
    char *past = past_words(back), *top_words = wait_words(top, top_kind, drain_copies);
    char *out_words = wait_words(out, out_kind, drain_copies);
    char *out_past = out_calm == 0   ? ss_xstrdup("")
                     : out_calm == 1 ? ss_xstrdup("past 1 statement on the host, ")
                                     : ss_xasprintf("past %u statements on the host, ", out_calm);
    char *words = ss_xasprintf(
        "drained anyway: every way on from here waits for the same work at once: on the next "
        "iteration, past%s %s, %s; when the loop ends, %s%s; with no work queued between on "
        "either way, and nothing run but statements that stay on the host and read nothing "
        "through a pointer: the stall is theirs too, this wait adds none of its own",
        past, head, top_words, out_past, out_words);
    free(past);
    free(top_words);
    free(out_words);
    free(out_past);
    return words;
}

static char *queued_exit_words(ss_check_ctx *ctx, CXCursor loop, unsigned back, CXCursor top,
                               wait_kind top_kind, const CXCursor *after, unsigned m,
                               unsigned from);

char *ss_context_closing_wait_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at)
{
    const ss_api *api = ss_scope_callee_api(at);
    if (rule != SS_RULE_SYNC_IN_LOOP || api == NULL || api->klass != SS_CLASS_DEVICE_SYNC ||
        clang_getCursorKind(ctx->function) == CXCursor_LambdaExpr)
        return NULL;
    /* The innermost block around the wait that is a loop's body, written '{ ... }', its parent
     * a block too (the way out of the loop). */
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(ctx->function, at, path);
    long b = found - 1;
    while (b >= 2 && !(clang_getCursorKind(path[b]) == CXCursor_CompoundStmt &&
                       is_body(path[b - 1], path[b])))
        b--;
    if (b < 2 || clang_getCursorKind(path[b - 1]) == CXCursor_CXXForRangeStmt ||
        clang_getCursorKind(path[b - 2]) != CXCursor_CompoundStmt ||
        !ss_ast_written_as(path[b], "{") || !ss_ast_written_as(path[b - 2], "{")) {
        free(path);
        return NULL;
    }
    CXCursor body = path[b], loop = path[b - 1], outer = path[b - 2];
    CXCursor holder = b + 1 < found ? path[b + 1] : at;
    free(path);
    CXCursor stmts[256], after[256];
    unsigned index = 0, out_index = 0;
    unsigned n = block_statements(body, holder, stmts, 256, &index);
    unsigned m = block_statements(outer, loop, after, 256, &out_index);
    if (index >= n || out_index >= m || !quiet_statement(ctx, stmts[index], at))
        return NULL;
    unsigned tail = 0;
    if (!rest_of_loop_calm(ctx, loop, body, stmts, n, index, &tail))
        return NULL;
    int drain_copies = copies_drain(ctx);
    CXCursor top = clang_getNullCursor(), out = clang_getNullCursor();
    unsigned top_calm = 0, out_calm = 0;
    wait_kind top_kind = next_wait(ctx, stmts, n, 0, drain_copies, &top, &top_calm);
    if (top_kind == WAIT_NONE)
        return NULL;
    wait_kind out_kind = next_wait(ctx, after, m, out_index + 1, drain_copies, &out, &out_calm);
    if (out_kind == WAIT_NONE) /* work on the legacy stream queued on the way out first */
        return queued_exit_words(ctx, loop, tail + top_calm, top, top_kind, after, m,
                                 out_index + 1);
    return closing_words(loop, tail + top_calm, top, top_kind, out, out_kind, out_calm,
                         drain_copies);
}

/* ------------------------------------------------------------------------------------------
 * The way out of a loop that queues work on the legacy stream before the call that waits for the
 * closing wait's work anyway (held-out-19's shape AM, its way out). */

/* What the way out of a loop goes through, from the statement after the loop, up to the call
 * that waits (exit_statements): statements that stay on the host ('calm'), statements that queue
 * work on the legacy stream ('queued', the first such call 'first_queued'), calls of the unit's
 * functions ('depth' of them followed now; the outermost such call in 'entered'). */
typedef struct exit_walk {
    ss_check_ctx *ctx;
    int drain_copies;
    unsigned calm, queued;
    int depth;
    CXCursor first_queued, entered, call;
    wait_kind kind;
} exit_walk;

/* At most this many statements that queue work, and calls of the unit's functions nested. */
enum { MAX_EXIT_QUEUED = 4, MAX_EXIT_DEPTH = 2 };

/* A statement's calls, for legacy_work_statement: 'loud' where one may do more than queue work on
 * the legacy stream. */
typedef struct legacy_walk {
    flow *f;
    int loud;
    CXCursor first;
} legacy_walk;

/* Whether the call 'c' stays on the host: host_side_call, or a constructor of a plain type of the
 * toolkit ('dim3(n)' of a launch's configuration, declared where the toolkit's headers are). */
static int host_or_config_call(CXCursor c)
{
    CXCursor decl = clang_getCursorReferenced(c);
    return host_side_call(c) || ss_scope_is_launch_config(c) ||
           (clang_getCursorKind(decl) == CXCursor_Constructor && ss_foreign_decl(decl));
}

static enum CXChildVisitResult find_legacy_work(CXCursor c, CXCursor parent, CXClientData data)
{
    legacy_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    if (through_pointer(c) || k == CXCursor_CXXThrowExpr) {
        w->loud = 1;
        return CXChildVisit_Break;
    }
    if (k != CXCursor_CallExpr || host_or_config_call(c))
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    int queues = ss_scope_is_launch(c) ||
                 (api && (api->klass == SS_CLASS_LAUNCH || api->klass == SS_CLASS_MEMSET ||
                          api->klass == SS_CLASS_ALLOC));
    if (!queues || !on_legacy(w->f, c, api)) {
        w->loud = 1;
        return CXChildVisit_Break;
    }
    if (ss_ast_is_null(w->first))
        w->first = c;
    return CXChildVisit_Recurse;
}

/* Whether the statement 's' of 'function' queues work on the legacy stream only: a declaration or
 * an expression whose calls are launches, memsets and allocations there (the stream left out, 0
 * or cudaStreamLegacy) and calls that stay on the host, reading nothing through a pointer and
 * throwing nothing; '*first' receives its first such call. Returns 1 or 0. */
static int legacy_work_statement(CXCursor function, CXCursor s, CXCursor *first)
{
    if (!straight_statement(s))
        return 0;
    question q;
    memset(&q, 0, sizeof q);
    q.event = q.stream = q.owner = clang_getNullCursor();
    flow f = flow_of(&q, function, 0, busy(), NULL);
    legacy_walk w = {&f, 0, clang_getNullCursor()};
    ss_ast_visit_whole(s, s, find_legacy_work, &w);
    *first = w.first;
    return !w.loud && !ss_ast_is_null(w.first);
}

/* The definition of the function of the unit that the statement 's' calls, where 's' is that
 * call alone (its value unused), its arguments staying on the host (touches_device), and not a
 * virtual member function (an override in another unit may run instead); else a null cursor. */
static CXCursor unit_call_statement(ss_check_ctx *ctx, CXCursor s)
{
    CXCursor call = ss_ast_strip(s), none = clang_getNullCursor();
    if (clang_getCursorKind(call) != CXCursor_CallExpr || ss_scope_is_launch(call))
        return none;
    CXCursor callee = ss_callgraph_callee(ss_check_graph(ctx), call);
    if (ss_ast_is_null(callee) || clang_getCursorKind(callee) == CXCursor_LambdaExpr ||
        clang_CXXMethod_isVirtual(clang_getCursorReferenced(call)) ||
        clang_CXXMethod_isVirtual(callee))
        return none;
    for (int a = 0, n = clang_Cursor_getNumArguments(call); a < n; a++) {
        if (touches_device(clang_Cursor_getArgument(call, (unsigned)a)))
            return none;
    }
    return callee;
}

static int exit_statements(exit_walk *w, CXCursor function, const CXCursor *stmts, unsigned n,
                           unsigned from);

/* The statements of the body of 'callee' (a definition of the unit), called by 'call', walked as
 * exit_statements does. Returns as it does; -1 past MAX_EXIT_DEPTH calls. */
static int exit_callee(exit_walk *w, CXCursor call, CXCursor callee)
{
    unsigned parts = ss_ast_child_count(callee), index = 0;
    CXCursor body = parts ? ss_ast_child(callee, parts - 1) : clang_getNullCursor();
    if (w->depth >= MAX_EXIT_DEPTH || clang_getCursorKind(body) != CXCursor_CompoundStmt)
        return -1;
    CXCursor *stmts = ss_xreallocarray(NULL, 256, sizeof *stmts);
    unsigned n = block_statements(body, clang_getNullCursor(), stmts, 256, &index);
    if (w->depth++ == 0)
        w->entered = call;
    int found = n < 256 ? exit_statements(w, callee, stmts, n, 0) : -1;
    w->depth--;
    free(stmts);
    return found;
}

/* Walks the statements 'stmts' (of 'n', from 'from') of 'function' on the way out of a loop: two
 * that stay on the host in all at most (calm_statement), MAX_EXIT_QUEUED that queue work on the
 * legacy stream (legacy_work_statement), and calls of the unit's functions, whose bodies are
 * walked so too, up to the first call that waits for all the work the unit has queued
 * (statement_wait; a copy only where the unit's copies wait for all work: 'drain_copies').
 * Returns 1 where it found that call (in 'w'), 0 where the statements ran out before it, -1 where
 * something else comes first. */
static int exit_statements(exit_walk *w, CXCursor function, const CXCursor *stmts, unsigned n,
                           unsigned from)
{
    for (unsigned s = from; s < n; s++) {
        CXCursor first = clang_getNullCursor(), callee;
        if (calm_statement(w->ctx, stmts[s])) {
            if (++w->calm > 2)
                return -1;
        } else if ((w->kind = statement_wait(w->ctx, function, stmts[s], w->drain_copies,
                                             &w->call)) != WAIT_NONE) {
            return 1;
        } else if (legacy_work_statement(function, stmts[s], &first)) {
            if (ss_ast_is_null(w->first_queued))
                w->first_queued = first;
            if (++w->queued > MAX_EXIT_QUEUED)
                return -1;
        } else if (!ss_ast_is_null(callee = unit_call_statement(w->ctx, stmts[s]))) {
            int found = exit_callee(w, ss_ast_strip(stmts[s]), callee);
            if (found != 0)
                return found;
        } else {
            return -1;
        }
    }
    return 0;
}

/* "past 1 statement on the host and 3 statements that only allocate or queue work on the legacy
 * stream (the first, 'cudaMemset', at line 24), in 'Frontier::refresh()' (called at line 59),
 * 'cudaMemcpy' at line 26, ..." for the way out the walk 'w' found. Malloc'ed. */
static char *exit_way_words(const exit_walk *w)
{
    char *host = w->calm == 0   ? ss_xstrdup("")
                 : w->calm == 1 ? ss_xstrdup("1 statement on the host")
                                : ss_xasprintf("%u statements on the host", w->calm);
    char *first = ss_ast_is_null(w->first_queued) ? NULL : ss_scope_callee_name(w->first_queued);
    char *queued = w->queued == 0
                       ? ss_xstrdup("")
                       : ss_xasprintf("%u %s work on the legacy stream (%s'%s' at "
                                      "line %u)",
                                      w->queued,
                                      w->queued == 1 ? "statement that only allocates or queues"
                                                     : "statements that only allocate or queue",
                                      w->queued == 1 ? "" : "the first, ",
                                      first ? first : "a launch", ss_scope_line(w->first_queued));
    char *past =
        w->calm == 0 && w->queued == 0
            ? ss_xstrdup("")
            : ss_xasprintf("past %s%s%s, ", host, w->calm && w->queued ? " and " : "", queued);
    char *name = ss_ast_is_null(w->entered)
                     ? NULL
                     : ss_qualified_name(clang_getCursorReferenced(w->entered));
    char *in =
        name ? ss_xasprintf("in '%s()' (called at line %u), ", name, ss_scope_line(w->entered))
             : ss_xstrdup("");
    char *wait = wait_words(w->call, w->kind, w->drain_copies);
    char *words = ss_xasprintf("%s%s%s", past, in, wait);
    free(host);
    free(first);
    free(queued);
    free(past);
    free(name);
    free(in);
    free(wait);
    return words;
}

static char *queued_exit_words(ss_check_ctx *ctx, CXCursor loop, unsigned back, CXCursor top,
                               wait_kind top_kind, const CXCursor *after, unsigned m, unsigned from)
{
    exit_walk w;
    memset(&w, 0, sizeof w);
    w.ctx = ctx;
    w.drain_copies = known_copies_drain(ctx);
    w.first_queued = w.entered = w.call = clang_getNullCursor();
    if (exit_statements(&w, ctx->function, after, m, from) != 1 ||
        (w.queued > 0 && !w.drain_copies))
        return NULL;
    char *past = past_words(back), *top_words = wait_words(top, top_kind, w.drain_copies);
    char *out_words = exit_way_words(&w);
    const char *between =
        w.queued == 0 ? "with no work queued between on either way"
                      : "with no work queued between around the back edge, and on the way out "
                        "only work on the legacy stream, which runs after this wait's work anyway";
    char *words = ss_xasprintf(
        "drained anyway: every way on from here waits for the same work at once: on the next "
        "iteration, past%s %s, %s; when the loop ends, %s; %s, and nothing run but statements "
        "that stay on the host and read nothing through a pointer: the stall is theirs too, this "
        "wait adds none of its own%s",
        past, loop_parts_words(loop), top_words, out_words, between,
        w.queued == 0 ? ""
                      : " (on the way out, at most that work's launch latency, once per run of "
                        "the loop)");
    free(past);
    free(top_words);
    free(out_words);
    return words;
}

/* ------------------------------------------------------------------------------------------
 * A wait right before a readback that waits for the same work anyway (held-out-15's shape Y). */

/* The first copy in 'c' that returns once it is done only where its host side is pageable
 * (cudaMemcpyAsync), or a null cursor. */
static enum CXChildVisitResult find_pageable_copy(CXCursor c, CXCursor parent, CXClientData data)
{
    CXCursor *found = data;
    const ss_api *api = clang_getCursorKind(c) == CXCursor_CallExpr ? ss_scope_callee_api(c) : NULL;
    if (api && api->klass == SS_CLASS_COPY && api->sync == SS_SYNC_PAGEABLE) {
        *found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* The first read of a Thrust device container's element in a statement (ss_check_thrust_element_
 * read), into 'found'. */
typedef struct element_walk {
    CXCursor function, found;
} element_walk;

static enum CXChildVisitResult find_element_read(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    element_walk *e = data;
    if (clang_getCursorKind(c) == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    if (clang_getCursorKind(c) == CXCursor_CallExpr &&
        ss_check_thrust_element_read(e->function, c)) {
        e->found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* The readback of the statement 's': a copy from the device to the host on the unit's default
 * stream that returns only once it is done, so after all the work queued before it there: a
 * synchronous copy (find_sync_copy) that lint reads as device to host, a read of a Thrust
 * device container's element (find_element_read: 'v[n - 1]', a copy on the default stream that
 * Thrust waits for; since session 46, held-out-39's Y), or, where the default
 * stream is the legacy one, an asynchronous copy into memory lint proves pageable on it
 * (pageable_readback) in a unit that calls no cudaHostRegister (registered memory is pinned: the
 * copy returns at once); run whenever 's' runs, 's' calling nothing else that may work
 * (quiet_statement). A null cursor where there is none. */
static CXCursor statement_readback(ss_check_ctx *ctx, CXCursor s)
{
    CXCursor none = clang_getNullCursor(), copy = none;
    ss_ast_visit_whole(s, s, find_sync_copy, &copy);
    element_walk e = {ctx->function, none};
    if (ss_ast_is_null(copy))
        ss_ast_visit_whole(s, s, find_element_read, &e);
    if (!ss_ast_is_null(e.found)) {
        copy = e.found;
    } else if (!ss_ast_is_null(copy)) {
        if (copy_direction(ctx->function, copy, ss_scope_callee_api(copy)) != SS_COPY_KIND_D2H)
            return none;
    } else if (!ctx->per_thread) {
        ss_ast_visit_whole(s, s, find_pageable_copy, &copy);
        question q = device_question(ctx, 0);
        flow f = flow_of(&q, ctx->function, 0, busy(), NULL);
        if (ss_ast_is_null(copy) || !pageable_readback(&f, copy, ss_scope_callee_api(copy)) ||
            (unit_bits(ctx) & UNIT_HOST_REGISTER))
            return none;
    }
    return !ss_ast_is_null(copy) && quiet_statement(ctx, s, copy) ? copy : none;
}

/* The readback (statement_readback) of the statement after the wait 'at', with up to two
 * statements between that stay on the host or check the last error (calm_statement), none of
 * them naming the stream 'waited' the wait is for (a null cursor: the whole device); the wait's
 * own statement calling nothing else that may work (quiet_statement) and, for a stream wait,
 * queuing no work (a checking function that launches after the wait; for a wait for the whole
 * device readback_again asks the drained flow). A null cursor where there is none. */
static CXCursor readback_after(ss_check_ctx *ctx, CXCursor at, CXCursor waited)
{
    CXCursor stmts[256], none = clang_getNullCursor();
    unsigned index = 0, calm = 0;
    unsigned n = ss_context_statements_around(ctx->function, at, stmts, 256, &index);
    if (n == 0 || !quiet_statement(ctx, stmts[index], at) ||
        (!ss_ast_is_null(waited) && ss_context_queues_work(ss_check_graph(ctx), stmts[index])))
        return none;
    CXCursor waited_decl = ss_ast_is_null(waited) ? waited : clang_getCursorReferenced(waited);
    for (unsigned s = index + 1; s < n; s++) {
        if (!ss_ast_is_null(waited_decl) && ss_context_mentions(stmts[s], waited_decl))
            return none;
        if (!calm_statement(ctx, stmts[s]))
            return statement_readback(ctx, stmts[s]);
        if (++calm > 2)
            return none;
    }
    return none;
}

/* ------------------------------------------------------------------------------------------
 * A readback through a function of the unit, in a loop's condition, or after the call of a
 * function that ends with the wait (held-out-35's CL and Y across a call). */

/* Where a readback runs for a wait: 'site' the call in the function whose statement or
 * condition runs it (the copy itself, or a call of a function of the unit that opens with it),
 * 'copy' the copy (the first of 'copies', one a way through that function: 'count' of them);
 * 'caller' the function of 'site'; 'loop' the loop whose condition holds it, or a null cursor. */
typedef struct readback_site {
    CXCursor site, copy, caller, loop;
    CXCursor copies[MAX_OPENING_COPIES];
    unsigned count;
} readback_site;

/* Whether the copy 'at' is one of the copies of 'r' (whichever way runs, it makes the wait
 * again). Returns 1 or 0. */
static int site_copies(const readback_site *r, CXCursor at)
{
    for (unsigned i = 0; i < r->count; i++) {
        if (ss_ast_same_node(r->copies[i], at))
            return 1;
    }
    return 0;
}

static int ends_body(ss_check_ctx *ctx, CXCursor function, const CXCursor *stmts, unsigned n,
                     unsigned from);

/* The calls in a node of functions of the unit (find_unit_calls), MAX_UNIT_CALLS at most. */
enum { MAX_UNIT_CALLS = 2 };

typedef struct unit_calls {
    ss_callgraph *graph;
    CXCursor calls[MAX_UNIT_CALLS];
    unsigned count;
} unit_calls;

static enum CXChildVisitResult find_unit_calls(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    unit_calls *h = data;
    if (clang_getCursorKind(c) == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    if (clang_getCursorKind(c) != CXCursor_CallExpr ||
        ss_ast_is_null(ss_callgraph_callee(h->graph, c)))
        return CXChildVisit_Recurse;
    if (h->count == MAX_UNIT_CALLS)
        return CXChildVisit_Break;
    h->calls[h->count++] = c;
    return CXChildVisit_Recurse;
}

/* The readback a call in 's' (a statement or a loop's condition) of 'ctx->function' runs before
 * anything else that may work: a synchronous copy from the device (find_sync_copy), or the call
 * of a function of the unit whose body opens with one on every way (block_opens_copying, every
 * copy from the device), 's' calling nothing else that may work (quiet_statement). Fills 'r'
 * (its 'site' and 'copy'); returns 1 or 0. */
static int runs_readback(ss_check_ctx *ctx, CXCursor s, readback_site *r)
{
    CXCursor copy = clang_getNullCursor();
    ss_ast_visit_whole(s, s, find_sync_copy, &copy);
    if (!ss_ast_is_null(copy)) {
        r->site = r->copy = r->copies[0] = copy;
        r->count = 1;
        return copy_direction(ctx->function, copy, ss_scope_callee_api(copy)) == SS_COPY_KIND_D2H &&
               quiet_statement(ctx, s, copy);
    }
    unit_calls calls = {ss_check_graph(ctx), {{0}}, 0};
    ss_ast_visit_whole(s, s, find_unit_calls, &calls);
    if (calls.count != 1)
        return 0;
    CXCursor callee = ss_callgraph_callee(ss_check_graph(ctx), calls.calls[0]);
    CXCursor body = ss_ast_body(callee);
    if (ss_ast_is_null(body) || clang_getCursorKind(body) != CXCursor_CompoundStmt ||
        (clang_getCursorKind(callee) == CXCursor_CXXMethod && clang_CXXMethod_isVirtual(callee)))
        return 0;
    ss_check_ctx there = *ctx;
    there.function = callee;
    opening_copies o;
    memset(&o, 0, sizeof o);
    o.function = callee;
    if (!block_opens_copying(&there, body, &o) || o.count == 0 || o.from != o.count)
        return 0;
    r->site = calls.calls[0];
    r->copy = o.copies[0];
    r->count = o.count;
    memcpy(r->copies, o.copies, o.count * sizeof *o.copies);
    return quiet_statement(ctx, s, r->site);
}

/* The readback (runs_readback) that comes next after stmts[index] of 'n' in 'ctx->function',
 * past up to two calm statements ('*calm' counts them with those counted before): the next
 * statement's, or, where the block ends first and is the body of a 'while' or 'do' loop, its
 * condition's. Returns 1 or 0. */
static int next_readback(ss_check_ctx *ctx, const CXCursor *stmts, unsigned n, unsigned index,
                         unsigned *calm, readback_site *r)
{
    r->caller = ctx->function;
    r->loop = clang_getNullCursor();
    for (unsigned s = index + 1; s < n; s++) {
        if (!calm_statement(ctx, stmts[s]))
            return runs_readback(ctx, stmts[s], r);
        if (++*calm > 2)
            return 0;
    }
    r->loop = ss_context_body_loop(ctx->function, stmts[n - 1]);
    if (ss_ast_is_null(r->loop))
        return 0;
    unsigned c = clang_getCursorKind(r->loop) == CXCursor_DoStmt ? 1 : ss_ast_if_condition(r->loop);
    return runs_readback(ctx, ss_ast_child(r->loop, c), r);
}

/* How many calls of a function that ends with a wait are followed (callers_readback). */
enum { MAX_READBACK_CALLS = 8 };

/* The readbacks after every call of a function that ends with a wait (callers_readback). */
typedef struct readback_calls {
    long count;
    readback_site sites[MAX_READBACK_CALLS];
} readback_calls;

/* The calls of the function ctx->function, whose last statement waits, that the wait is followed
 * through to its callers (callers_readback, callers_free): the function is not virtual (a call
 * through the base is not its call), is named only in calls (a global's table of functions: its
 * calls are not seen) and switches no device or context before the wait (the caller's readback
 * or free may be another device's); at most 'max' calls, into 'found' and their functions into
 * 'callers'. Returns their count, or 0. */
static long ending_calls(ss_check_ctx *ctx, CXCursor *found, CXCursor *callers, long max)
{
    if ((clang_getCursorKind(ctx->function) == CXCursor_CXXMethod &&
         clang_CXXMethod_isVirtual(ctx->function)) ||
        ss_callgraph_named_elsewhere(ss_check_graph(ctx), ctx->function) ||
        ss_context_switches_device(ctx->function))
        return 0;
    long count = ss_callgraph_calls_of(ss_check_graph(ctx), ctx->function, found, callers, max);
    return count > 0 && count <= max ? count : 0;
}

/* The statements of the block of 'there->function' (a named function, no lambda) that holds
 * the call 'call' as its statement's only work (quiet_statement), into 'stmts' (256 at most),
 * '*index' the call's; returns how many, or 0 where it is not so (ending_calls' callers). */
static unsigned call_statements(ss_check_ctx *there, CXCursor call, CXCursor *stmts,
                                unsigned *index)
{
    unsigned n = ss_context_statements_around(there->function, call, stmts, 256, index);
    if (n == 0 || clang_getCursorKind(there->function) == CXCursor_LambdaExpr ||
        !ss_ast_same_node(ss_context_function_of(call), there->function) ||
        !quiet_statement(there, stmts[*index], call))
        return 0;
    return n;
}

/* For a wait that ends the function ctx->function past 'calm' calm statements: the readback
 * (next_readback) that every call of the function in the unit runs next after it returns, the
 * call being its statement's only work, in a block of the named function it is made in, the
 * calm statements of both counted together (ending_calls, call_statements). Fills 'calls';
 * returns 1 or 0. */
static int callers_readback(ss_check_ctx *ctx, unsigned calm, readback_calls *calls)
{
    CXCursor found[MAX_READBACK_CALLS], callers[MAX_READBACK_CALLS], stmts[256];
    calls->count = 0;
    long count = ending_calls(ctx, found, callers, MAX_READBACK_CALLS);
    for (long i = 0; i < count; i++) {
        ss_check_ctx there = *ctx;
        there.function = callers[i];
        unsigned index = 0, left = calm;
        unsigned n = call_statements(&there, found[i], stmts, &index);
        if (n == 0 || !next_readback(&there, stmts, n, index, &left, &calls->sites[i]))
            return 0;
    }
    calls->count = count;
    return count > 0;
}

/* The readback that makes the wait 'at' again where readback_after finds none in the statement
 * after it: one through a function of the unit, or in the condition of the loop whose body the
 * wait ends (next_readback), or, where the wait ends its function's body, the readback after
 * every call of that function (callers_readback: 'calls' filled, else its count 0). The wait's
 * statement calls nothing else that may work and queues no work. Returns 1 or 0. */
static int readback_beyond(ss_check_ctx *ctx, CXCursor at, readback_site *r, readback_calls *calls)
{
    CXCursor stmts[256];
    unsigned index = 0, calm = 0;
    calls->count = 0;
    unsigned n = ss_context_statements_around(ctx->function, at, stmts, 256, &index);
    if (n == 0 || !quiet_statement(ctx, stmts[index], at) ||
        ss_context_queues_work(ss_check_graph(ctx), stmts[index]))
        return 0;
    if (next_readback(ctx, stmts, n, index, &calm, r))
        return 1;
    unsigned end = index + 1 + calm;
    if (calm > 2 || !ends_body(ctx, ctx->function, stmts, n, end < n ? end : n) ||
        !callers_readback(ctx, calm, calls))
        return 0;
    *r = calls->sites[0];
    return 1;
}

/* The readback that makes the stream or device-wide wait 'at' again: the readback right after
 * it (readback_after), on the unit's default stream, which waits for all the work the wait waits
 * for, with no work queued between (for a wait for the whole device, the drained flow finds the
 * readback drained by it on every way the unit reaches it). In a unit whose streams all block
 * and that holds no stream it did not create (known_copies_drain), a copy on the legacy stream
 * waits for the work of every stream, as the drained flow takes it; else the wait must be for the
 * default stream itself, or for the whole device where only work on the default stream was queued
 * since it was drained, on every way the unit reaches it ('*by' that drain, as
 * waits_for_thrust_stream;
 * '*between' the state the drained flow finds at the readback, busy for a stream wait). Where
 * there is none right after it, the readback beyond (readback_beyond: through a function of the
 * unit, in the loop's condition, after the calls of the function the wait ends), under the same
 * rule for the streams, the drained flow asked only for one through a function in the next
 * statement. 'r' receives where the readback runs and its copies,
 * 'calls' the readbacks after each call where the wait ends its function (else a count of 0).
 * Returns the copy, or a null cursor where there is none. */
static CXCursor readback_again(ss_check_ctx *ctx, CXCursor at, CXCursor *by, drain *between,
                               readback_site *r, readback_calls *calls)
{
    CXCursor none = clang_getNullCursor(), waited;
    *by = none;
    *between = busy();
    r->site = r->copy = r->loop = none;
    r->count = 0;
    r->caller = ctx->function;
    calls->count = 0;
    if (!wait_for(at, &waited))
        return none;
    CXCursor readback = readback_after(ctx, at, waited);
    if (!ss_ast_is_null(readback)) {
        r->site = r->copy = r->copies[0] = readback;
        r->count = 1;
    } else if (!readback_beyond(ctx, at, r, calls)) {
        return none;
    }
    /* Nothing queued between, on every way (a checker's failure branch left out), where the
     * readback runs in the wait's function past its next statement's start (written there, or
     * through a function it calls); in a loop's condition or a caller only calm statements stand
     * between. */
    if (ss_ast_is_null(waited) && ss_ast_same_node(r->caller, ctx->function) &&
        ss_ast_is_null(r->loop)) {
        question device = device_question(ctx, known_copies_drain(ctx));
        flow_budget = FLOW_BUDGET;
        *between = state_at(&device, ctx->function, r->site, 0);
        if (between->state != DRAINED || !ss_ast_same_node(between->by, at) || between->filled ||
            flow_budget < 0)
            return none;
    }
    if (known_copies_drain(ctx) == SS_COPY_DRAIN_BLOCKING)
        return r->copy;
    return waits_for_thrust_stream(ctx, at, waited, none, by, NULL) ? r->copy : none;
}

/* Where the readback of 'r' runs, for the words: "(line 20)", "(line 3), in 'read_flag()',
 * called at line 14", "(line 8), in the loop's condition", "(line 3), in 'read_flag()', which the
 * loop's condition calls (line 8)". Malloc'ed. */
static char *site_words(const readback_site *r)
{
    char *fn = ss_ast_same_node(r->site, r->copy) ? NULL : ss_scope_callee_name(r->site);
    char *in =
        ss_ast_is_null(r->loop) ? ss_xstrdup("")
        : fn ? ss_xasprintf(", which the loop's condition calls (line %u)", ss_scope_line(r->site))
             : ss_xstrdup(", in the loop's condition");
    char *called = fn && ss_ast_is_null(r->loop)
                       ? ss_xasprintf(", called at line %u", ss_scope_line(r->site))
                       : ss_xstrdup("");
    char *through = fn ? ss_xasprintf(", in '%s()'", fn) : ss_xstrdup("");
    char *words = ss_xasprintf("(line %u)%s%s%s", ss_scope_line(r->copy), through, called, in);
    free(fn);
    free(in);
    free(called);
    free(through);
    return words;
}

/* "drained anyway: the next device call, 'cudaMemcpy' (line 3), in 'read_flag()', which the
 * loop's condition calls (line 8), a synchronous copy from the device, waits for the same work:
 * ..." for a wait whose readback runs through a function of the unit, in a loop's condition or
 * after the calls of the function the wait ends (readback_beyond). Malloc'ed. */
static char *beyond_words(ss_check_ctx *ctx, CXCursor at, CXCursor by, const readback_site *r,
                          const readback_calls *calls)
{
    int blocking = known_copies_drain(ctx) == SS_COPY_DRAIN_BLOCKING;
    char *since = blocking || ss_ast_is_null(by) ? NULL : since_words(ctx, at, by);
    char *where = site_words(r);
    char *name =
        ss_scope_callee_api(r->copy) ? ss_scope_callee_name(r->copy) : ss_expr_text(r->copy);
    char *lead = NULL;
    if (calls->count > 0) {
        char *function = ss_qualified_name(ss_scope_outer_function(ctx->function));
        char *caller = ss_qualified_name(ss_scope_outer_function(r->caller));
        char *which =
            calls->count == 1
                ? ss_xasprintf("its one call in this unit, in '%s()',", caller ? caller : "?")
                : ss_xasprintf("each of its %ld calls in this unit (the first in "
                               "'%s()')",
                               calls->count, caller ? caller : "?");
        lead = ss_xasprintf("'%s()' ends here, and after %s the next device call is",
                            function ? function : "the function", which);
        free(function);
        free(caller);
        free(which);
    }
    char *words = ss_xasprintf(
        "drained anyway: %s '%s' %s, a synchronous copy from the device, which waits for the same "
        "work: it returns only once %s, and only statements that stay on the host run between "
        "them%s: the stall is that readback's, this wait adds none of its own%s",
        lead ? lead : "the next device call is", name ? name : "a copy", where,
        blocking ? "all the work queued before it is done (a copy on the legacy stream waits for "
                   "the work of the unit's other streams: it creates them blocking)"
                 : "the work queued before it on the default stream is done",
        since ? since : "", calls->count > 0 ? " (calls from other units are not seen)" : "");
    free(since);
    free(where);
    free(name);
    free(lead);
    return words;
}

/* "drained anyway: the next device call, 'cudaMemcpy' at line 20, a synchronous copy from the
 * device, waits for the same work: ..." for a stream or device-wide wait (SYNC401) that a readback
 * makes again (readback_again). Malloc'ed, or NULL. */
static char *readback_words(ss_check_ctx *ctx, CXCursor at)
{
    CXCursor by;
    drain between;
    readback_site r;
    readback_calls calls;
    CXCursor readback = readback_again(ctx, at, &by, &between, &r, &calls);
    if (ss_ast_is_null(readback))
        return NULL;
    if (!ss_ast_same_node(r.site, r.copy) || !ss_ast_is_null(r.loop) || calls.count > 0)
        return beyond_words(ctx, at, by, &r, &calls);
    const ss_api *api = ss_scope_callee_api(readback);
    int blocking = known_copies_drain(ctx) == SS_COPY_DRAIN_BLOCKING;
    char *since = blocking || ss_ast_is_null(by) ? NULL : since_words(ctx, at, by);
    const char *stream =
        ctx->per_thread ? "the per-thread default stream" : "the legacy default stream";
    char *queued =
        blocking ? ss_xstrdup("all the work queued before it is done (a copy on the legacy stream "
                              "waits for the work of the unit's other streams: it creates them "
                              "blocking)")
        : since  ? ss_xasprintf("the work queued before it on %s is done", stream)
                 : ss_xasprintf("the work queued before it on %s, the stream this wait is for, "
                                 "is done",
                                stream);
    /* A read of a Thrust container's element is named by its text ('v[n - 1]'). */
    char *name = api ? ss_scope_callee_name(readback) : ss_expr_text(readback);
    char *aside = between.state == DRAINED ? aside_words(&between) : ss_xstrdup("");
    char *words = ss_xasprintf(
        "drained anyway: the next device call, '%s' at line %u, %s, waits for the same work: it "
        "returns only once %s, and only statements that stay on the host run between them%s%s: "
        "the stall is that readback's, this wait adds none of its own",
        name ? name : "a copy", ss_scope_line(readback),
        api == NULL ? "a read of a device container's element, a synchronous copy from the device"
        : api->sync == SS_SYNC_PAGEABLE ? "a copy from the device into pageable memory"
                                        : "a synchronous copy from the device",
        queued, aside, since ? since : "");
    free(aside);
    free(since);
    free(queued);
    free(name);
    return words;
}

/* ------------------------------------------------------------------------------------------
 * A wait right before a free that waits for the whole device anyway (held-out-28's shape CB). */

/* The calls that neither queue work nor wait for it, which may stand between a wait and the
 * free that makes it again: cudaDestroyTextureObject and cudaStreamDestroy measured
 * (docs/studies/validation.md, 2026-12-06 23:40), cudaDestroySurfaceObject assumed like
 * cudaDestroyTextureObject. */
static const char *const free_calm_calls =
    " cudaDestroyTextureObject cudaDestroySurfaceObject cudaStreamDestroy ";

/* The first call in 'c' of a free of the device-wide class (cudaFree, cudaFreeArray,
 * cudaFreeHost and their driver forms), or a null cursor. */
static enum CXChildVisitResult find_free(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    CXCursor *found = data;
    const ss_api *api = clang_getCursorKind(c) == CXCursor_CallExpr ? ss_scope_callee_api(c) : NULL;
    if (api && (api->klass == SS_CLASS_FREE || api->klass == SS_CLASS_HOST_FREE) &&
        api->sync == SS_SYNC_DEVICE) {
        *found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* The first call in 'c' of a function a system header declares under a name of
 * free_calm_calls, or a null cursor. */
static enum CXChildVisitResult find_calm_call(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    CXCursor *found = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    CXCursor decl = clang_getCursorReferenced(c);
    if (ss_ast_is_null(decl) || !clang_Location_isInSystemHeader(clang_getCursorLocation(decl)))
        return CXChildVisit_Recurse;
    CXString spelling = clang_getCursorSpelling(decl);
    int calm = listed(clang_getCString(spelling), free_calm_calls);
    clang_disposeString(spelling);
    if (!calm)
        return CXChildVisit_Recurse;
    *found = c;
    return CXChildVisit_Break;
}

/* Whether the statement 's' destroys a texture or surface object or a stream and does nothing
 * else that may work (quiet_statement): none of these waits for the device or queues work.
 * Returns 1 or 0. */
static int calm_destroy(ss_check_ctx *ctx, CXCursor s)
{
    CXCursor call = clang_getNullCursor();
    ss_ast_visit_whole(s, s, find_calm_call, &call);
    return !ss_ast_is_null(call) && quiet_statement(ctx, s, call);
}

/* A free whose memory a function makes through a reference parameter (statement_free): the
 * call of that function, and the argument. */
typedef struct helper_free {
    CXCursor call;
    unsigned index;
} helper_free;

/* The free of the statement 's' that surely waits for the whole device (ss_context_free_waits),
 * run whenever 's' runs, 's' calling nothing else that may work (quiet_statement); with 'h',
 * also one whose memory a function makes through a reference parameter, tested
 * (ss_context_free_helper: 'h' receives the call, which the caller must then follow). A null
 * cursor where there is none. */
static CXCursor statement_free(ss_check_ctx *ctx, CXCursor s, CXCursor wait, helper_free *h)
{
    CXCursor none = clang_getNullCursor(), call = none;
    ss_ast_visit_whole(s, s, find_free, &call);
    if (ss_ast_is_null(call))
        return none;
    if (!ss_context_free_waits(ctx->function, call, wait)) {
        if (h == NULL)
            return none;
        h->call = ss_context_free_helper(ctx->function, call, wait, &h->index);
        if (ss_ast_is_null(h->call))
            return none;
    }
    return quiet_statement(ctx, s, call) ? call : none;
}

/* Whether the 'n' statements 'stmts' are those of the body of the named function 'function'
 * and, from 'from' on, end it: none left, or only a 'return' whose value stays on the host
 * (calm_statement). Returns 1 or 0. */
static int ends_body(ss_check_ctx *ctx, CXCursor function, const CXCursor *stmts, unsigned n,
                     unsigned from)
{
    CXCursor body = ss_ast_body(function);
    if (n == 0 || from > n || ss_ast_is_null(body) ||
        clang_getCursorKind(function) == CXCursor_LambdaExpr || !ss_ast_written_as(body, "{"))
        return 0;
    unsigned i = 0, all = ss_ast_child_count(body);
    while (i < all && !ss_ast_same_node(ss_ast_child(body, i), stmts[0]))
        i++;
    if (i == all)
        return 0;
    if (from == n)
        return 1;
    if (from + 1 != n || clang_getCursorKind(stmts[from]) != CXCursor_ReturnStmt)
        return 0;
    return ss_ast_child_count(stmts[from]) == 0 ||
           calm_statement(ctx, ss_ast_child(stmts[from], 0));
}

/* The free (statement_free) of the statement after the statement stmts[index] of 'n', past
 * calm statements (calm_statement, calm_destroy; '*calm' counts them, two in all at most), that
 * makes the wait 'wait' again. A null cursor where there is none, and '*end' is then the index
 * of the statement it stopped at ('n' past the last). */
static CXCursor next_free(ss_check_ctx *ctx, const CXCursor *stmts, unsigned n, unsigned index,
                          CXCursor wait, unsigned *calm, unsigned *end, helper_free *h)
{
    for (unsigned s = index + 1; s < n; s++) {
        *end = s;
        if (calm_statement(ctx, stmts[s]) || calm_destroy(ctx, stmts[s])) {
            if (++*calm > 2)
                return clang_getNullCursor();
            continue;
        }
        return statement_free(ctx, stmts[s], wait, h);
    }
    *end = n;
    return clang_getNullCursor();
}

/* How many calls of a function whose last statement waits are followed (callers_free). */
enum { MAX_FREE_CALLS = 8 };

/* The frees right after the calls of a function that ends with a wait (callers_free). */
typedef struct free_calls {
    long count;
    CXCursor frees[MAX_FREE_CALLS], callers[MAX_FREE_CALLS];
} free_calls;

/* For a wait that ends the function ctx->function past 'calm' calm statements: the free that
 * every call of the function in the unit makes right after it returns (next_free in the caller,
 * the calm statements of both counted together): the call is its statement's only work
 * (quiet_statement), in a block of the named function it is made in (no lambda between), and
 * the free surely waits (ss_context_free_waits, its pointer written before the call). The first
 * call's free; a null cursor where a call frees nothing so, or ending_calls gives none (more
 * than MAX_FREE_CALLS calls, a virtual function, one named outside any call, one that switches
 * the device or context); the frees into 'calls'. The unit's calls only: a call in another unit is
 * not seen (as callers_words, inherent.c). */
static CXCursor callers_free(ss_check_ctx *ctx, unsigned calm, free_calls *calls)
{
    CXCursor none = clang_getNullCursor(), first = none;
    CXCursor found[MAX_FREE_CALLS], callers[MAX_FREE_CALLS], stmts[256];
    long count = ending_calls(ctx, found, callers, MAX_FREE_CALLS);
    if (count == 0)
        return none;
    for (long i = 0; i < count; i++) {
        ss_check_ctx there = *ctx;
        there.function = callers[i];
        unsigned index = 0, left = calm, end = 0;
        unsigned n = call_statements(&there, found[i], stmts, &index);
        if (n == 0)
            return none;
        CXCursor freed = next_free(&there, stmts, n, index, found[i], &left, &end, NULL);
        if (ss_ast_is_null(freed))
            return none;
        first = i == 0 ? freed : first;
        calls->frees[i] = freed;
        calls->callers[i] = callers[i];
    }
    calls->count = count;
    return first;
}

/* The free that makes the stream or device-wide wait 'at' again: the free (statement_free) of
 * the statement after it, with up to two statements between that stay on the host, check the
 * last error (calm_statement) or destroy a texture object or a stream (calm_destroy); the wait's
 * own statement calling nothing else that may work (quiet_statement) and, for a stream wait,
 * queuing no work; for a wait for the whole device, the drained flow finds the free drained by
 * it, with nothing queued between ('*between', busy for a stream wait). The free waits for all
 * the work the wait waits for, whatever its stream. Where the wait's statement is one of the
 * function's body whose statements after it are calm (the two at most counted with the
 * caller's) and end the function (ends_body), and it queues no work, whatever the wait: the free
 * every call of the function in the unit makes right after it (callers_free; 'calls' those
 * frees, else a count of 0; held-out-28's CB across a return, ASTRA's ConeBP_Array). With
 * 'h', the free after the wait in its own function may be one whose memory a function makes
 * through a reference (statement_free; 'h->call' set, which the caller follows). A null cursor
 * where there is none. */
static CXCursor free_again(ss_check_ctx *ctx, CXCursor at, drain *between, free_calls *calls,
                           helper_free *h)
{
    CXCursor stmts[256], none = clang_getNullCursor(), waited;
    unsigned index = 0, calm = 0, end = 0;
    *between = busy();
    calls->count = 0;
    if (!wait_for(at, &waited))
        return none;
    unsigned n = ss_context_statements_around(ctx->function, at, stmts, 256, &index);
    if (n == 0 || !quiet_statement(ctx, stmts[index], at))
        return none;
    int queues = ss_context_queues_work(ss_check_graph(ctx), stmts[index]);
    if (!ss_ast_is_null(waited) && queues)
        return none;
    CXCursor freed = next_free(ctx, stmts, n, index, at, &calm, &end, h);
    if (ss_ast_is_null(freed))
        return calm <= 2 && !queues && ends_body(ctx, ctx->function, stmts, n, end)
                   ? callers_free(ctx, calm, calls)
                   : none;
    if (!ss_ast_is_null(waited))
        return freed;
    question device = device_question(ctx, copies_drain(ctx));
    flow_budget = FLOW_BUDGET;
    *between = state_at(&device, ctx->function, freed, 0);
    if (between->state != DRAINED || !ss_ast_same_node(between->by, at) || between->filled ||
        flow_budget < 0)
        return none;
    return freed;
}

/* What the free 'call' frees, for the words. */
static const char *freed_words(CXCursor call)
{
    const ss_api *api = ss_scope_callee_api(call);
    if (api && api->api == SS_API_cudaFreeArray)
        return "a free of a CUDA array";
    if (api && api->api == SS_API_cudaFreeHost)
        return "a free of pinned host memory";
    return "a free of device memory from 'cudaMalloc'";
}

/* The API name of the call 'call' ("cudaFreeArray"), for the project pass; a static string. */
static const char *name_of(CXCursor call)
{
    const ss_api *api = ss_scope_callee_api(call);
    return api ? api->name : "";
}

/* " that 'make()' makes ..." for a free whose memory a function makes through a reference
 * ('h->call', free_again), where the unit defines it and it does so (ss_context_makes_out) with
 * an allocator of the free's kind; "" where 'h' holds no call. For a function of another unit,
 * " that 'make()' (another unit) makes ...", for the project pass to answer
 * (ss_project_array_question). Malloc'ed, or NULL where the unit's function does not. */
static char *made_words(CXCursor freed, const helper_free *h)
{
    if (ss_ast_is_null(h->call))
        return ss_xstrdup("");
    CXCursor decl = clang_getCursorReferenced(h->call);
    CXCursor def = clang_getCursorDefinition(decl);
    char allocator[40] = "";
    char *name = ss_qualified_name(decl);
    char *words = NULL;
    if (ss_ast_is_null(def))
        words = ss_xasprintf(" that '%s()', of another unit, makes (through its argument %u, on "
                             "every way it does not return false; the 'if' around the call "
                             "returns otherwise)",
                             name ? name : "?", h->index + 1);
    else if (ss_context_makes_out(def, h->index, allocator, sizeof allocator) &&
             ss_context_allocator_frees(name_of(freed), allocator))
        words = ss_xasprintf(" that '%s()' makes with '%s' (through its argument %u, on every "
                             "way it does not return false; the 'if' around the call returns "
                             "otherwise)",
                             name ? name : "?", allocator, h->index + 1);
    free(name);
    return words;
}

/* "drained anyway: 'bp_array()' ends here, and its one call in this unit, in 'bp()', is
 * followed by a free that waits for the whole device before it returns (where the CUDA calls
 * succeed), 'cudaFreeArray' at line 42, a free of a CUDA array, ..." for a wait that ends a
 * function whose every call in the unit frees right after it returns (free_again, 'calls').
 * Malloc'ed. */
static char *caller_free_words(ss_check_ctx *ctx, CXCursor freed, const free_calls *calls)
{
    char *name = ss_scope_callee_name(freed);
    char *in = ss_qualified_name(ss_scope_outer_function(calls->callers[0]));
    char *function = ss_qualified_name(ss_scope_outer_function(ctx->function));
    char *which = calls->count == 1
                      ? ss_xasprintf("its one call in this unit, in '%s()',", in ? in : "?")
                      : ss_xasprintf("each of its %ld calls in this unit (the first in '%s()')",
                                     calls->count, in ? in : "?");
    char *words = ss_xasprintf(
        "drained anyway: '%s()' ends here, and %s is followed by a free that waits for the whole "
        "device before it returns (where the CUDA calls succeed), '%s' at line %u, %s, and so "
        "for all the work this wait is for; only statements that stay on the host or destroy a "
        "texture object or a stream run between them: the stall is that free's, this wait adds "
        "no stall of its own (calls from other units are not seen)",
        function ? function : "the function", which, name ? name : "a free", ss_scope_line(freed),
        freed_words(freed));
    free(name);
    free(in);
    free(function);
    free(which);
    return words;
}

/* "drained anyway: the next device call, 'cudaFreeArray' at line 254, a free of a CUDA array,
 * waits for the whole device before it returns ..." for a stream or device-wide wait (SYNC401)
 * that a free makes again (free_again). Malloc'ed, or NULL. */
static char *free_words(ss_check_ctx *ctx, CXCursor at)
{
    drain between;
    free_calls calls;
    helper_free h = {clang_getNullCursor(), 0};
    CXCursor freed = free_again(ctx, at, &between, &calls, &h);
    if (ss_ast_is_null(freed))
        return NULL;
    if (calls.count > 0) {
        char *words = caller_free_words(ctx, freed, &calls);
        /* Another unit may call the function: the project pass looks for its loops. */
        char *usr = ss_project_stream_param_usr(ss_scope_outer_function(ctx->function));
        if (usr)
            ss_project_drain_question(ctx, SS_RULE_SYNC_IN_LOOP, at, usr, words);
        free(usr);
        return words;
    }
    char *made = made_words(freed, &h);
    if (made == NULL)
        return NULL;
    char *name = ss_scope_callee_name(freed);
    char *aside = between.state == DRAINED ? aside_words(&between) : ss_xstrdup("");
    char *words = ss_xasprintf(
        "drained anyway: the next device call, '%s' at line %u, %s%s, waits for the whole device "
        "before it returns (where the CUDA calls succeed), and so for all the work this wait is "
        "for, and only statements that "
        "stay on the host or destroy a texture object or a stream run between them%s: the "
        "stall is that free's, this wait adds no stall of its own",
        name ? name : "a free", ss_scope_line(freed), freed_words(freed), made, aside);
    free(name);
    free(aside);
    if (!ss_ast_is_null(h.call)) {
        /* The helper is another unit's: the project pass answers with its facts. */
        char *usr = ss_project_declared_only(h.call);
        if (usr)
            ss_project_array_question(ctx, SS_RULE_SYNC_IN_LOOP, at, usr, h.index, name_of(freed),
                                      words);
        free(usr);
        if (ss_ast_is_null(clang_getCursorDefinition(clang_getCursorReferenced(h.call)))) {
            free(made);
            free(words);
            return NULL;
        }
    }
    free(made);
    return words;
}

/* A call of a function of the unit whose definition holds the node 'wait' (called_holder). */
typedef struct holder_walk {
    CXCursor wait, found;
} holder_walk;

static enum CXChildVisitResult find_holder(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    holder_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    CXCursor def = clang_getCursorDefinition(clang_getCursorReferenced(c));
    if (ss_ast_is_null(def) || !ss_ast_is_function(def))
        return CXChildVisit_Recurse;
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(def, w->wait, path);
    free(path);
    if (found < 0)
        return CXChildVisit_Recurse;
    w->found = def;
    return CXChildVisit_Break;
}

/* The definition of the function of the unit that a call in one of the three statements before
 * the free 'at' (in its block of ctx->function) calls and that holds the wait 'wait', or a null
 * cursor. */
static CXCursor called_holder(ss_check_ctx *ctx, CXCursor at, CXCursor wait)
{
    CXCursor stmts[256];
    unsigned index = 0;
    unsigned n = ss_context_statements_around(ctx->function, at, stmts, 256, &index);
    holder_walk w = {wait, clang_getNullCursor()};
    for (unsigned s = index; n > 0 && s-- > 0 && s + 3 >= index && ss_ast_is_null(w.found);)
        ss_ast_visit_whole(stmts[s], stmts[s], find_holder, &w);
    return w.found;
}

/* Whether the free 'at' (SYNC402) makes the wait 'wait' again (free_again) and that wait has
 * work to wait for (it is not drained itself: 'drain_copies' as copies_drain): the wait's note
 * names the free as the stall, which the free cannot in turn put on the wait. The wait is in
 * the loop of the free, its statement's block being the free's, or ends a function called in
 * one of the three statements before the free (called_holder). A free of memory a function
 * makes through a reference counts where the unit's function makes it so, or another unit's
 * may (the project pass then decides the wait: the free is a warning either way). Returns 1 or
 * 0. */
static int free_makes_wait_again(ss_check_ctx *ctx, CXCursor at, CXCursor wait, int drain_copies)
{
    drain between;
    free_calls calls;
    if (ss_ast_is_null(wait))
        return 0;
    /* A wait that ends a function the free's caller called right before (callers_free). */
    ss_check_ctx there = *ctx;
    CXCursor function = called_holder(ctx, at, wait);
    if (!ss_ast_is_null(function))
        there.function = function;
    helper_free h = {clang_getNullCursor(), 0};
    CXCursor freed = free_again(&there, wait, &between, &calls, &h);
    char *made = ss_ast_is_null(freed) ? NULL : made_words(freed, &h);
    int makes = made && ss_ast_same_node(freed, at);
    free(made);
    for (long i = 0; i < calls.count && !makes; i++)
        makes = ss_ast_same_node(calls.frees[i], at);
    if (!makes)
        return 0;
    question device = device_question(&there, drain_copies);
    flow_budget = FLOW_BUDGET;
    drain d = answered(drain_copies, wait, state_at(&device, there.function, wait, 0));
    return d.state != DRAINED || d.filled;
}

/* For a wait, the words of a call after it that makes it again: a Thrust algorithm or a cuBLAS
 * readback (thrust_words), a copy back to the host (readback_words), or a free that waits for
 * the whole device (free_words). Malloc'ed, or NULL. */
static char *again_words(ss_check_ctx *ctx, CXCursor at)
{
    char *words = thrust_words(ctx, at);
    if (words == NULL)
        words = readback_words(ctx, at);
    return words ? words : free_words(ctx, at);
}

/* The function of the unit next to ctx->function that holds the node 'wait': one that calls
 * it (MAX_READBACK_CALLS at most), one a call in it calls, or one a call in one of its callers
 * calls (holder_walk: a launch helper that ends with the wait, called before it). A null cursor
 * where there is none. */
static CXCursor near_holder(ss_check_ctx *ctx, CXCursor wait)
{
    CXCursor calls[MAX_READBACK_CALLS], callers[MAX_READBACK_CALLS];
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    holder_walk w = {wait, clang_getNullCursor()};
    long count = ss_callgraph_calls_of(ss_check_graph(ctx), ctx->function, calls, callers,
                                       MAX_READBACK_CALLS);
    if (count > MAX_READBACK_CALLS)
        count = MAX_READBACK_CALLS;
    for (long i = 0; i < count && ss_ast_is_null(w.found); i++) {
        if (ss_context_path(callers[i], wait, path) > 0)
            w.found = callers[i];
    }
    free(path);
    /* The function's own body first, then its callers'. */
    for (long i = -1; i < count && ss_ast_is_null(w.found); i++) {
        CXCursor body = ss_ast_body(i < 0 ? ctx->function : callers[i]);
        if (!ss_ast_is_null(body))
            ss_ast_visit_whole(body, body, find_holder, &w);
    }
    return w.found;
}

/* Whether SYNC401 reports the wait 'wait' of ctx->function: in a loop of the function, or in a
 * function called from one of the unit (ss_callgraph_reached_from_loop) or of another unit
 * (ctx->loop_elsewhere). Returns 1 or 0. */
static int wait_in_loop(ss_check_ctx *ctx, CXCursor wait)
{
    if (!ss_ast_is_null(ss_scope_enclosing_loop(ctx->function, wait)) || ctx->loop_elsewhere)
        return 1;
    return ss_callgraph_loop_reaches(ss_check_graph(ctx), ss_scope_outer_function(ctx->function),
                                     SS_SCOPE_ENQUEUES);
}

/* Whether the copy 'at' (SYNC201, SYNC202, SYNC301) is the readback that makes the wait 'wait'
 * again (readback_again), where SYNC401 reports that wait (wait_in_loop, or in another function
 * of the unit) and it has work to wait for (it is not drained itself: 'drain_copies' as
 * copies_drain): the wait's note names the readback as the stall, which the readback cannot in
 * turn put on the wait. Returns 1 or 0. */
static int readback_makes_wait_again(ss_check_ctx *ctx, CXCursor at, CXCursor wait,
                                     int drain_copies)
{
    if (ss_ast_is_null(wait))
        return 0;
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(ctx->function, wait, path);
    free(path);
    if (found > 0 && !wait_in_loop(ctx, wait))
        return 0;
    /* A wait in another function of the unit: its readback runs through this function, or
     * after that function returns (readback_beyond). */
    ss_check_ctx there = *ctx;
    if (found <= 0)
        there.function = near_holder(ctx, wait);
    CXCursor by;
    drain between;
    readback_site r;
    readback_calls calls;
    if (ss_ast_is_null(there.function) ||
        ss_ast_is_null(readback_again(&there, wait, &by, &between, &r, &calls)))
        return 0;
    int makes = site_copies(&r, at);
    for (long i = 0; i < calls.count && !makes; i++)
        makes = site_copies(&calls.sites[i], at);
    if (!makes)
        return 0;
    question device = device_question(&there, drain_copies);
    flow_budget = FLOW_BUDGET;
    drain d = answered(drain_copies, wait, state_at(&device, there.function, wait, 0));
    return d.state != DRAINED || d.filled;
}

char *ss_context_drained_call_words(ss_check_ctx *ctx, CXCursor at, ss_assumed_waits *assumed)
{
    const char *what = implicit_sync_noun(at);
    if (what == NULL || clang_getCursorKind(ctx->function) == CXCursor_LambdaExpr)
        return NULL;
    int drain_copies = copies_drain(ctx);
    drain d = implicit_sync_drain(ctx, at, drain_copies, assumed);
    /* A free right after a wait that it makes again ("drained anyway") is the stall of the
     * two, not "drained" by that wait. */
    if (d.state == DRAINED && free_makes_wait_again(ctx, at, d.by, drain_copies))
        return NULL;
    return d.state == DRAINED ? nothing_queued_words(ctx, at, &d, drain_copies, what) : NULL;
}

char *ss_context_drained_call_blocking_words(ss_check_ctx *ctx, CXCursor at)
{
    const char *what = implicit_sync_noun(at);
    int drain_copies = copies_drain(ctx);
    if (what == NULL || clang_getCursorKind(ctx->function) == CXCursor_LambdaExpr ||
        ctx->per_thread || ctx->streams == NULL || drain_copies != SS_COPY_DRAIN_LEGACY_ONLY)
        return NULL;
    question device = device_question(ctx, drain_copies);
    flow_budget = FLOW_BUDGET;
    drain d = state_at(&device, ctx->function, at, 0);
    if (d.state != DRAINED || ss_ast_is_null(d.by) || flow_budget < 0 ||
        answered(drain_copies, at, d).state == DRAINED ||
        free_makes_wait_again(ctx, at, d.by, drain_copies))
        return NULL;
    return nothing_queued_words(ctx, at, &d, drain_copies, what);
}

char *ss_context_drained_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at)
{
    int copy = rule == SS_RULE_PAGEABLE_ASYNC_COPY || rule == SS_RULE_SYNC_COPY_IN_PIPELINE ||
               rule == SS_RULE_SCALAR_READBACK;
    if (rule == SS_RULE_DEVICE_WIDE_SYNC_CALL)
        return ss_context_drained_call_words(ctx, at, NULL);
    if ((!copy && rule != SS_RULE_SYNC_IN_LOOP) ||
        clang_getCursorKind(ctx->function) == CXCursor_LambdaExpr ||
        (!copy && ctx->wait_after_work))
        return NULL;
    int drain_copies = copies_drain(ctx);
    question device = device_question(ctx, drain_copies);
    flow_budget = FLOW_BUDGET;
    drain d = state_at(&device, ctx->function, at, 0);
    d = answered(drain_copies, at, d);
    /* A wait right before a readback that makes it again ("drained anyway") does not make the
     * readback's note too: one of them is the stall. */
    if (d.state == DRAINED && rule == SS_RULE_SCALAR_READBACK && makes_wait_again(ctx, at, d.by))
        d = busy();
    if (d.state == DRAINED && copy && readback_makes_wait_again(ctx, at, d.by, drain_copies))
        d = busy();
    if (d.state == DRAINED && (copy || !d.filled))
        return nothing_queued_words(ctx, at, &d, drain_copies, copy ? "copy" : "wait");
    /* Drained once other units' functions are taken on trust: a question for the project pass,
     * kept for the finding while its context is applied. */
    ss_project_foreign_question(ctx, rule, at);
    /* The later wait must be device-wide, and not drained already on every way to it (by this
     * copy): it is then the stall, and reported as one. */
    flow_budget = FLOW_BUDGET;
    uint64_t none = 0;
    CXCursor later = copy ? later_drain(&device, ctx->function, at, &none) : clang_getNullCursor();
    const ss_api *api = ss_ast_is_null(later) ? NULL : ss_scope_callee_api(later);
    if (api == NULL || api->klass != SS_CLASS_DEVICE_SYNC ||
        later_answered(drain_copies, later, state_at(&device, ctx->function, later, 0)) ||
        flow_budget < 0) {
        char *words = copy ? NULL : event_words(ctx, at);
        return words || copy ? words : again_words(ctx, at);
    }
    char *name = ss_scope_callee_name(later);
    char *words = ss_xasprintf("drained anyway: '%s' at line %u waits for the whole device "
                               "next, with no work queued between, and on other ways too: the "
                               "stall is that wait's, this copy adds none of its own",
                               name ? name : "a wait", ss_scope_line(later));
    free(name);
    return words;
}

char *ss_context_foreign_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at,
                               ss_foreign_calls *foreign)
{
    int copy = rule != SS_RULE_SYNC_IN_LOOP;
    int drain_copies = copies_drain(ctx);
    foreign->copy &= drain_copies != 0;
    question device = device_question(ctx, drain_copies);
    device.foreign = foreign;
    flow_budget = FLOW_BUDGET;
    drain d = answered(drain_copies, at, state_at(&device, ctx->function, at, 0));
    if (d.state != DRAINED || (!copy && d.filled) || d.assumed == 0 || flow_budget < 0 ||
        (rule == SS_RULE_SCALAR_READBACK && makes_wait_again(ctx, at, d.by)))
        return NULL;
    foreign->needed = d.assumed;
    foreign->strict = d.strict & d.assumed;
    return nothing_queued_words(ctx, at, &d, drain_copies, copy ? "copy" : "wait");
}

/* ------------------------------------------------------------------------------------------
 * The way around a loop's back edge alone, for first_round.c. */

/* The state at 'target' in the body of its innermost loop in 'function' (into '*loop') from that
 * loop's previous iteration alone (its body and other parts from anything queued, then the body
 * down to 'target'): busy where 'target' is in no loop's body. '*outer' receives the innermost
 * loop whose body holds that loop, or a null cursor. */
static drain back_edge_state(const question *q, CXCursor function, CXCursor target, CXCursor *loop,
                             CXCursor *outer)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(function, target, path), inner = -1, around = -1;
    for (long i = 0; i < found; i++) {
        if (is_body(path[i], i + 1 < found ? path[i + 1] : target)) {
            around = inner;
            inner = i;
        }
    }
    *loop = inner >= 0 && found > 0 ? path[inner] : clang_getNullCursor();
    *outer = around >= 0 && found > 0 ? path[around] : clang_getNullCursor();
    drain d = busy();
    if (found > 0 && inner >= 0) {
        goto_records gotos = {NULL, 0, 0};
        flow f = flow_of(q, function, 0, busy(), &gotos);
        drain breaks = unreached(); /* out of the loop: not the start of the next iteration */
        iteration_flow(&f, path[inner], &breaks);
        d = way_flow(&f, path, found, inner, target, f.now);
        goto_records_free(&gotos);
    }
    free(path);
    return d.state == DRAINED ? d : busy();
}

CXCursor ss_context_back_edge_drain(ss_check_ctx *ctx, CXCursor at, CXCursor *loop, CXCursor *outer)
{
    int drain_copies = copies_drain(ctx);
    question device = device_question(ctx, drain_copies);
    flow_budget = FLOW_BUDGET;
    drain d = back_edge_state(&device, ctx->function, at, loop, outer);
    d = answered(drain_copies, at, d);
    return d.state == DRAINED && flow_budget >= 0 ? d.by : clang_getNullCursor();
}

/* The question of ss_context_drained_before and ss_context_drained_around, the flow's budget
 * reset. */
static question drained_question(ss_check_ctx *ctx, int default_only)
{
    question q = device_question(ctx, copies_drain(ctx));
    q.legacy = q.own_default = default_only;
    q.per_thread = ctx->per_thread;
    flow_budget = FLOW_BUDGET;
    return q;
}

int ss_context_drained_around(ss_check_ctx *ctx, CXCursor stmt, int default_only, CXCursor *outer)
{
    question q = drained_question(ctx, default_only);
    CXCursor loop;
    drain d = back_edge_state(&q, ctx->function, stmt, &loop, outer);
    return d.state == DRAINED && flow_budget >= 0;
}

int ss_context_drained_before(ss_check_ctx *ctx, CXCursor stmt, int default_only)
{
    question q = drained_question(ctx, default_only);
    drain d = state_at(&q, ctx->function, stmt, 0);
    return d.state == DRAINED && flow_budget >= 0;
}
