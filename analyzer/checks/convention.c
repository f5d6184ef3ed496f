/* convention.c: whether legacy-stream work (SYNC101, SYNC102) is its file's own convention:
 * counted over the unit's code in each file, the work queued on the legacy stream (launches and
 * asynchronous calls without a stream or with the legacy one, synchronous copies within the
 * device and memsets of device memory) outweighs the work queued on other streams, or there is
 * none of the latter. Such a file serializes with its unit's other streams by design; the
 * warning is kept for legacy-stream work where the file queues at least as much on other
 * streams (an omitted stream argument among its explicit ones). docs/lint.md, "Legacy-stream
 * notes". */
#include "ast.h"
#include "common.h"
#include "log.h"

#include <stdint.h>
#include <stdlib.h>

/* How many files of a unit are counted; work in a file beyond them is not counted, and a
 * finding there keeps its severity. */
enum { MAX_FILES = 64 };

typedef struct file_count {
    CXFile file;
    unsigned legacy, other;
} file_count;

struct ss_convention {
    int walked;
    file_count files[MAX_FILES];
    size_t count;
};

ss_convention *ss_convention_new(void)
{
    return ss_xcalloc(1, sizeof(ss_convention));
}

void ss_convention_free(ss_convention *c)
{
    free(c);
}

typedef struct convention_walk {
    ss_check_ctx *ctx;
    ss_convention *counts;
    CXCursor function;
} convention_walk;

/* The count of 'file', added (unless MAX_FILES others are there) where 'add' is set; NULL when
 * there is none. */
static file_count *count_of(ss_convention *counts, CXFile file, int add)
{
    if (file == NULL)
        return NULL;
    for (size_t i = 0; i < counts->count; i++) {
        if (clang_File_isEqual(counts->files[i].file, file))
            return &counts->files[i];
    }
    if (!add || counts->count == MAX_FILES)
        return NULL;
    counts->files[counts->count] = (file_count){file, 0, 0};
    return &counts->files[counts->count++];
}

/* The file 'c' is expanded in, or NULL. */
static CXFile file_of(CXCursor c)
{
    CXFile file = NULL;
    clang_getExpansionLocation(clang_getCursorLocation(c), &file, NULL, NULL, NULL);
    return file;
}

/* Whether the API row 'api' queues work on a stream it takes, of the classes SYNC101 and
 * SYNC102 look at: checks.def's row of ss_check_default_stream_call. */
static int queues_on_stream(const ss_api *api)
{
    size_t count = 0;
    const ss_check *rows = ss_checks_all(&count);
    for (size_t i = 0; i < count; i++) {
        if (rows[i].entry == ss_check_default_stream_call)
            return api->stream_arg >= 0 && (rows[i].classes & (UINT64_C(1) << api->klass));
    }
    return 0;
}

/* Where the call 'c' queues its work: 1 the legacy stream, 2 another stream, 0 neither or not
 * known (a launch configuration's field, an incomplete call). */
static int queued_where(const convention_walk *w, CXCursor c)
{
    const ss_api *api = NULL;
    CXCursor arg;
    if (ss_scope_is_launch(c)) {
        arg = ss_check_stream_arg(c, NULL);
    } else {
        api = ss_scope_callee_api(c);
        if (api == NULL)
            return 0;
        CXCursor target;
        if (api->stream_arg < 0)
            return ss_default_stream_device_side(w->function, c, api, &target) ? 1 : 0;
        if (!queues_on_stream(api))
            return 0;
        if (clang_Cursor_getNumArguments(c) <= api->stream_arg)
            return api->stream_opt ? 1 : 0;
        arg = clang_Cursor_getArgument(c, (unsigned)api->stream_arg);
        if (clang_getCursorKind(ss_ast_strip(arg)) == CXCursor_UnaryOperator)
            return 0; /* '&cfg': the stream is a field of a launch configuration */
    }
    if (ss_ast_is_null(arg) || ss_check_is_omitted(arg))
        return 1;
    unsigned values = ss_stream_values(w->function, arg);
    return ss_stream_all_legacy(values, w->ctx->per_thread) ? 1 : 2;
}

static enum CXChildVisitResult count_work(CXCursor c, CXCursor parent, CXClientData data)
{
    convention_walk *w = data;
    /* System headers are left at the unit's top level, as the other whole-unit walks do. */
    if ((clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_ast_in_system_header(c)) ||
        (ss_ast_is_function(c) && ss_ast_is_device_only(c)))
        return CXChildVisit_Continue;
    if (ss_ast_is_function(c) && clang_getCursorKind(c) != CXCursor_LambdaExpr) {
        CXCursor outer = w->function;
        w->function = c;
        clang_visitChildren(c, count_work, w);
        w->function = outer;
        return CXChildVisit_Continue;
    }
    if (clang_getCursorKind(c) != CXCursor_CallExpr || ss_ast_is_null(w->function))
        return CXChildVisit_Recurse;
    int where = queued_where(w, c);
    file_count *count = where ? count_of(w->counts, file_of(c), 1) : NULL;
    if (count && where == 1)
        count->legacy++;
    else if (count)
        count->other++;
    return CXChildVisit_Recurse;
}

char *ss_context_convention_words(ss_check_ctx *ctx, CXCursor at)
{
    ss_convention *counts = ctx->convention;
    if (counts == NULL)
        return NULL;
    if (!counts->walked) {
        counts->walked = 1;
        convention_walk w = {ctx, counts, clang_getNullCursor()};
        clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), count_work, &w);
    }
    const file_count *count = count_of(counts, file_of(at), 0);
    if (count == NULL || (count->other > 0 && count->other >= count->legacy))
        return NULL;
    unsigned all = count->legacy + count->other;
    if (count->other == 0)
        return ss_xasprintf("convention: this file queues all of its device work on the legacy "
                            "stream (%u launches, asynchronous calls, device-side copies and "
                            "memsets), none on another: the streams it serializes with are other "
                            "code's",
                            all);
    return ss_xasprintf("convention: this file queues most of its device work on the legacy "
                        "stream (%u of %u launches, asynchronous calls, device-side copies and "
                        "memsets), not a stream argument left out of its work on other streams",
                        count->legacy, all);
}
