/* stream_create.c: SYNC103, streams created as blocking streams, with the fix-it that makes
 * them non-blocking. */
#include "analyzer.h"
#include "ast.h"
#include "checks.h"
#include "common.h"
#include "log.h"
#include "path.h"
#include "project_facts.h"
#include "scope.h"
#include "tu.h"

#include <stdlib.h>
#include <string.h>

/* The words that say why a SYNC103 finding has no fix-it (ss_lint_fix_refused), and its hint
 * then. */
static const char legacy_words[] = "legacy-stream work ";
static const char legacy_reason[] = " is ordered with this stream only because it is blocking: "
                                    "move that work onto the stream first";
static const char unlinted_words[] = " of the compile database that this run did not lint";
static const char legacy_hint[] = "move the legacy-stream work onto a stream, then create this "
                                  "one with cudaStreamCreateWithFlags(&stream, "
                                  "cudaStreamNonBlocking)";

/* How many places of legacy-stream work a message lists, and how many are told apart. */
enum { MAX_PLACES = 5, MAX_SEEN = 256 };

/* Walking the unit for work on the legacy default stream. */
typedef struct legacy_walk {
    ss_check_ctx *ctx;
    CXCursor function;
    CXFile file; /* the file of the stream's creation: its places are named by line alone */
    char *places[MAX_PLACES]; /* "" in 'file', else the other file's name */
    unsigned lines[MAX_PLACES];
    CXFile seen_files[MAX_SEEN];
    unsigned seen_lines[MAX_SEEN];
    size_t count; /* all places found, also those not kept */
} legacy_walk;

/* Whether 'call' puts work on the legacy default stream: a launch or an asynchronous call
 * whose stream is omitted or legacy (ss_stream_values), or a synchronous copy or memset, which
 * runs there (with the per-thread default stream, only an explicit cudaStreamLegacy). */
static int is_legacy_work(legacy_walk *w, CXCursor call)
{
    int per_thread = w->ctx->per_thread;
    const ss_api *api = NULL;
    if (!ss_scope_is_launch(call)) {
        api = ss_scope_callee_api(call);
        if (api == NULL)
            return 0;
        if (api->stream_arg < 0)
            return !per_thread && (api->klass == SS_CLASS_COPY || api->klass == SS_CLASS_MEMSET);
        if (!ss_api_enqueues(api) || api->klass == SS_CLASS_EVENT_RECORD ||
            api->klass == SS_CLASS_STREAM_WAIT)
            return 0;
    }
    CXCursor arg = ss_check_stream_arg(call, api);
    if (ss_ast_is_null(arg)) {
        /* An omitted stream (a launch without one, or a C++ default argument). */
        int omitted =
            ss_scope_is_launch(call) ||
            (api && api->stream_opt && clang_Cursor_getNumArguments(call) <= api->stream_arg);
        return omitted && !per_thread;
    }
    if (ss_check_is_omitted(arg))
        return !per_thread;
    return ss_stream_all_legacy(ss_stream_values(w->function, arg), per_thread);
}

static void add_place(legacy_walk *w, CXCursor call)
{
    CXFile file = NULL;
    unsigned line = 0;
    clang_getExpansionLocation(clang_getCursorLocation(call), &file, &line, NULL, NULL);
    size_t seen = w->count < MAX_SEEN ? w->count : MAX_SEEN;
    for (size_t i = 0; i < seen; i++) {
        if (w->seen_files[i] == file && w->seen_lines[i] == line)
            return; /* two calls on one line are one place */
    }
    if (w->count < MAX_SEEN) {
        w->seen_files[w->count] = file;
        w->seen_lines[w->count] = line;
    }
    if (w->count < MAX_PLACES) {
        char *place;
        if (file == w->file) {
            place = ss_xstrdup("");
        } else {
            CXString name = clang_getFileName(file);
            const char *path = clang_getCString(name) ? clang_getCString(name) : "";
            const char *base = strrchr(path, '/');
            place = ss_xstrdup(base ? base + 1 : path);
            clang_disposeString(name);
        }
        w->places[w->count] = place;
        w->lines[w->count] = line;
    }
    w->count++;
}

static enum CXChildVisitResult find_legacy(CXCursor c, CXCursor parent, CXClientData data)
{
    legacy_walk *w = data;
    /* Asked of the unit's top-level declarations only: the location of a node deep in a
     * left-nested expression takes time in its depth to find. */
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    if (ss_ast_is_function(c) && ss_ast_is_device_only(c))
        return CXChildVisit_Continue; /* dynamic parallelism's own streams */
    if (ss_ast_is_function(c)) {
        CXCursor outer = w->function;
        w->function = c;
        clang_visitChildren(c, find_legacy, w);
        w->function = outer;
        return CXChildVisit_Continue;
    }
    if (clang_getCursorKind(c) == CXCursor_CallExpr && is_legacy_work(w, c))
        add_place(w, c);
    return CXChildVisit_Recurse;
}

/* "lines 12 and 20", the places of the unit's work on the legacy default stream (those in
 * 'file' by their line, others as 'name.h:40'), or NULL when it has none. Malloc'ed. */
static char *legacy_places(ss_check_ctx *ctx, CXFile file)
{
    legacy_walk w;
    memset(&w, 0, sizeof w);
    w.ctx = ctx;
    w.function = clang_getNullCursor();
    w.file = file;
    clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_legacy, &w);
    if (w.count == 0)
        return NULL;
    size_t kept = w.count < MAX_PLACES ? w.count : MAX_PLACES;
    char *list = ss_xstrdup("");
    for (size_t i = 0; i < kept; i++) {
        const char *sep = i == 0 ? "" : (i + 1 == kept && w.count == kept ? " and " : ", ");
        char *item = w.places[i][0] ? ss_xasprintf("%s:%u", w.places[i], w.lines[i])
                                    : ss_xasprintf("%u", w.lines[i]);
        char *longer = ss_xasprintf("%s%s%s", list, sep, item);
        free(item);
        free(list);
        list = longer;
        free(w.places[i]);
    }
    if (w.count > kept) {
        char *longer = ss_xasprintf("%s and %zu more", list, w.count - kept);
        free(list);
        list = longer;
    }
    char *places = ss_xasprintf("%s %s", w.count == 1 ? "line" : "lines", list);
    free(list);
    return places;
}

/* "legacy-stream work at lines 12 and 20 is ordered with ...", for the unit's work on the
 * legacy default stream ('at' is the stream's creation), or NULL when it has none.
 * Malloc'ed. */
static char *legacy_work(ss_check_ctx *ctx, CXCursor at)
{
    CXFile file = NULL;
    clang_getExpansionLocation(clang_getCursorLocation(at), &file, NULL, NULL, NULL);
    char *places = legacy_places(ctx, file);
    if (places == NULL)
        return NULL;
    char *words = ss_xasprintf("%sat %s%s", legacy_words, places, legacy_reason);
    free(places);
    return words;
}

/* Shared streams (SYNC103 across units). */

void ss_tu_streams_free(ss_tu_streams *streams)
{
    for (size_t i = 0; i < streams->created_count; i++) {
        free(streams->created[i].key);
        free(streams->created[i].name);
        free(streams->created[i].file);
    }
    free(streams->created);
    for (size_t i = 0; i < streams->used_count; i++)
        free(streams->used[i]);
    free(streams->used);
    free(streams->legacy);
    ss_project_facts_free(streams->facts);
    memset(streams, 0, sizeof *streams);
}

static int uses(const ss_tu_streams *streams, const char *key)
{
    for (size_t i = 0; i < streams->used_count; i++) {
        if (strcmp(streams->used[i], key) == 0)
            return 1;
    }
    return 0;
}

void ss_tu_streams_use(ss_tu_streams *streams, const char *key)
{
    if (uses(streams, key))
        return;
    streams->used = ss_xreallocarray(streams->used, streams->used_count + 1, sizeof *streams->used);
    streams->used[streams->used_count++] = ss_xstrdup(key);
}

void ss_tu_streams_create(ss_tu_streams *streams, const char *key, const char *name,
                          const char *file, unsigned line, unsigned column)
{
    streams->created =
        ss_xreallocarray(streams->created, streams->created_count + 1, sizeof *streams->created);
    ss_shared_stream *s = &streams->created[streams->created_count++];
    s->key = ss_xstrdup(key);
    s->name = ss_xstrdup(name);
    s->file = ss_xstrdup(file);
    s->line = line;
    s->column = column;
}

/* A stream, or an array of them. */
static int holds_streams(CXType type)
{
    CXType t = clang_getCanonicalType(type);
    while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
        t = clang_getCanonicalType(clang_getArrayElementType(t));
    return ss_check_is_stream_type(t);
}

/* Whether the function 'fn' hands a stream out: it returns one, or has a pointer or reference
 * parameter to one (or to an array of them). */
static int hands_out_stream(CXCursor fn)
{
    if (ss_check_is_stream_type(clang_getCursorResultType(fn)))
        return 1;
    int n = clang_Cursor_getNumArguments(fn);
    for (int i = 0; i < n; i++) {
        CXType t = clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(fn, i)));
        if ((t.kind == CXType_Pointer || t.kind == CXType_LValueReference) &&
            holds_streams(clang_getPointeeType(t)))
            return 1;
    }
    return 0;
}

/* Whether the declaration 'decl' can give other units a stream of this one: a global variable
 * with external linkage that holds streams, or a function with external linkage that hands
 * one out; neither in a system header nor a CUDA API. Returns 1 or 0. */
static int shares_streams(CXCursor decl)
{
    enum CXCursorKind kind = clang_getCursorKind(decl);
    if ((kind != CXCursor_VarDecl && kind != CXCursor_FunctionDecl) ||
        clang_getCursorLinkage(decl) != CXLinkage_External)
        return 0;
    if (kind == CXCursor_VarDecl && (clang_Cursor_hasVarDeclGlobalStorage(decl) != 1 ||
                                     !holds_streams(clang_getCursorType(decl))))
        return 0;
    if (kind == CXCursor_FunctionDecl) {
        if (!hands_out_stream(decl))
            return 0;
        CXString name = clang_getCursorSpelling(decl);
        int api = ss_api_find(clang_getCString(name)) != NULL;
        clang_disposeString(name);
        if (api)
            return 0;
    }
    return !ss_ast_in_system_header(decl);
}

void ss_stream_note_use(ss_check_ctx *ctx, CXCursor ref)
{
    CXCursor decl = clang_getCursorReferenced(ref);
    if (!shares_streams(decl))
        return;
    char *key = ss_ast_usr(decl);
    if (key)
        ss_tu_streams_use(ctx->streams, key);
    free(key);
}

void ss_stream_note_legacy(ss_check_ctx *ctx, const char *main_file)
{
    if (ctx->streams == NULL || ctx->streams->used_count == 0)
        return;
    char *places = legacy_places(ctx, clang_getFile(ctx->tu, main_file));
    if (places == NULL)
        return;
    char *shown = ss_path_display(main_file);
    ctx->streams->legacy = ss_xasprintf("%s (%s)", shown, places);
    free(shown);
    free(places);
}

static enum CXChildVisitResult first_reference(CXCursor c, CXCursor parent, CXClientData data)
{
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
        return CXChildVisit_Recurse;
    *(CXCursor *)data = clang_getCursorReferenced(c);
    return CXChildVisit_Break;
}

/* Notes the stream that 'call' creates, reported as 'f', when other units may share it: it is
 * stored in a variable that they can name ('&g_stream', '&g_streams[i]'), or created in a
 * function they can call that hands it out. */
static void note_created(ss_check_ctx *ctx, CXCursor call, const ss_finding *f)
{
    if (ctx->streams == NULL || clang_Cursor_getNumArguments(call) < 1 || f->file == NULL)
        return;
    CXCursor held = clang_getNullCursor();
    CXCursor arg = clang_Cursor_getArgument(call, 0);
    if (clang_getCursorKind(arg) == CXCursor_DeclRefExpr)
        held = clang_getCursorReferenced(arg);
    else
        clang_visitChildren(arg, first_reference, &held);
    CXCursor decl = clang_getNullCursor();
    char *name = NULL;
    if (!ss_ast_is_null(held) && clang_getCursorKind(held) == CXCursor_VarDecl &&
        shares_streams(held)) {
        decl = held;
        CXString spelled = clang_getCursorSpelling(held);
        name = ss_xstrdup(clang_getCString(spelled));
        clang_disposeString(spelled);
    } else if (!ss_ast_is_null(ctx->function) &&
               clang_getCursorKind(ctx->function) == CXCursor_FunctionDecl &&
               shares_streams(ctx->function)) {
        decl = ctx->function;
        name = ss_xasprintf("%s()", ctx->function_name ? ctx->function_name : "");
    }
    char *key = ss_ast_is_null(decl) ? NULL : ss_ast_usr(decl);
    if (key)
        ss_tu_streams_create(ctx->streams, key, name, f->file, f->line, f->column);
    free(key);
    free(name);
}

/* Takes the fix-it of 'f' away: its stream is shared with work that relies on it being
 * blocking, or may be. */
static void drop_fixits(ss_finding *f)
{
    for (size_t k = 0; k < f->fixit_count; k++)
        free(f->fixits[k].text);
    free(f->fixits);
    f->fixits = NULL;
    f->fixit_count = 0;
}

void ss_streams_relate(const ss_tu_streams *const *units, size_t count, size_t unlinted,
                       ss_result *out)
{
    enum { MAX_UNITS = 3 };
    for (size_t i = 0; i < count; i++) {
        for (size_t c = 0; units[i] && c < units[i]->created_count; c++) {
            const ss_shared_stream *s = &units[i]->created[c];
            char *list = ss_xstrdup("");
            size_t found = 0;
            for (size_t j = 0; j < count; j++) {
                if (j == i || units[j] == NULL || units[j]->legacy == NULL ||
                    !uses(units[j], s->key))
                    continue;
                if (found < MAX_UNITS) {
                    char *longer =
                        ss_xasprintf("%s%s%s", list, found ? ", " : "", units[j]->legacy);
                    free(list);
                    list = longer;
                }
                found++;
            }
            ss_finding *f = NULL;
            for (size_t k = 0; (found || unlinted) && k < out->count && f == NULL; k++) {
                ss_finding *o = &out->findings[k];
                if (o->rule == SS_RULE_BLOCKING_STREAM_CREATE && o->file &&
                    strcmp(o->file, s->file) == 0 && o->line == s->line && o->column == s->column &&
                    ss_lint_fix_refused(o) == NULL)
                    f = o;
            }
            if (f && !found) {
                /* Units the run left out may share it: the fix is not known to be safe. */
                char *message = ss_xasprintf(
                    "%s; %zu unit%s%s may share it through '%s' and rely on its being blocking: "
                    "lint them together (-p without naming files) before making it non-blocking",
                    f->message, unlinted, unlinted == 1 ? "" : "s", unlinted_words, s->name);
                free(f->message);
                f->message = message;
                drop_fixits(f);
            } else if (f) {
                char *more = found > MAX_UNITS ? ss_xasprintf(" and %zu more", found - MAX_UNITS)
                                               : ss_xstrdup("");
                char *message = ss_xasprintf("%s; %sin %s%s, %s the stream through '%s',%s",
                                             f->message, legacy_words, list, more,
                                             found == 1 ? "a unit that shares" : "units that share",
                                             s->name, legacy_reason);
                free(more);
                free(f->message);
                f->message = message;
                free(f->hint);
                f->hint = ss_xstrdup(legacy_hint);
                drop_fixits(f);
            }
            free(list);
        }
    }
}

const char *ss_lint_fix_refused(const ss_finding *f)
{
    if (f->rule != SS_RULE_BLOCKING_STREAM_CREATE || f->fixit_count > 0 || f->message == NULL)
        return NULL;
    const char *words = strstr(f->message, legacy_words);
    if (words && strstr(words, legacy_reason))
        return words;
    /* "...; 3 units of the compile database that this run did not lint may share it ...": from
     * the count on. */
    const char *unlinted = strstr(f->message, unlinted_words);
    for (const char *p = unlinted; p && p - f->message >= 2; p--) {
        if (p[-2] == ';' && p[-1] == ' ')
            return p;
    }
    return NULL;
}

/* Where a cursor is written: its line, first column and byte range in its file, when all of
 * it is written on one line of a file, outside any macro. */
typedef struct written {
    CXFile file;
    unsigned line, column;
    unsigned begin, end; /* byte offsets, 'end' past the last byte */
} written;

/* Fills 'out' for 'c', as written where it is expanded (a macro argument: the macro's
 * invocation). Returns 0, or -1 when that spans lines, or when 'whole' and 'c' comes from a
 * macro. */
static int written_at(CXCursor c, int whole, written *out)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXSourceLocation first = clang_getRangeStart(r), last = clang_getRangeEnd(r);
    CXFile end_file = NULL, spelled_first = NULL, spelled_last = NULL;
    unsigned end_line, spelled_begin, spelled_end;
    clang_getExpansionLocation(first, &out->file, &out->line, &out->column, &out->begin);
    clang_getExpansionLocation(last, &end_file, &end_line, NULL, &out->end);
    clang_getSpellingLocation(first, &spelled_first, NULL, NULL, &spelled_begin);
    clang_getSpellingLocation(last, &spelled_last, NULL, NULL, &spelled_end);
    if (out->file == NULL || end_file != out->file || end_line != out->line ||
        out->end <= out->begin)
        return -1;
    if (whole && (spelled_first != out->file || spelled_last != out->file ||
                  spelled_begin != out->begin || spelled_end != out->end))
        return -1;
    return 0;
}

/* The text of 'w' in its file, malloc'ed, or NULL. */
static char *written_text(CXTranslationUnit tu, const written *w)
{
    size_t size = 0;
    const char *text = clang_getFileContents(tu, w->file, &size);
    if (text == NULL || w->end > size)
        return NULL;
    return ss_xasprintf("%.*s", (int)(w->end - w->begin), text + w->begin);
}

/* Adds to the finding just reported for 'call' the edit that creates the stream
 * non-blocking: cudaStreamCreate(&s) becomes cudaStreamCreateWithFlags(&s,
 * cudaStreamNonBlocking); a flags argument of 0 / cudaStreamDefault becomes
 * cudaStreamNonBlocking (a macro such as cudaStreamDefault is replaced as written). Nothing
 * is added for a call that spans lines or comes from a macro. */
static void add_fixit(ss_check_ctx *ctx, CXCursor call, const ss_api *api, ss_finding *f)
{
    written w, arg;
    if (written_at(call, 1, &w) != 0 || w.line != f->line)
        return;
    /* As written here: the API's name, '(' and, last, ')' (not a macro that expands to it). */
    char *call_text = written_text(ctx->tu, &w);
    size_t name_len = strlen(api->name);
    size_t open = name_len;
    int plain = call_text && strncmp(call_text, api->name, name_len) == 0;
    while (plain && (call_text[open] == ' ' || call_text[open] == '\t'))
        open++;
    plain = plain && call_text[open] == '(' && call_text[strlen(call_text) - 1] == ')';
    free(call_text);
    if (!plain)
        return;
    /* The bytes between the parentheses, where the arguments must be written. */
    unsigned inner_begin = w.begin + (unsigned)open + 1, inner_end = w.end - 1;
    if (api->flags_arg < 0) {
        if (strcmp(api->name, "cudaStreamCreate") != 0 || clang_Cursor_getNumArguments(call) != 1 ||
            written_at(clang_Cursor_getArgument(call, 0), 0, &arg) != 0 || arg.file != w.file ||
            arg.begin < inner_begin || arg.end > inner_end)
            return;
        char *stream = written_text(ctx->tu, &arg);
        char *replacement =
            stream ? ss_xasprintf("cudaStreamCreateWithFlags(%s, cudaStreamNonBlocking)", stream)
                   : NULL;
        if (replacement)
            ss_finding_add_fixit(f, w.line, w.column, w.column + (w.end - w.begin), replacement);
        free(replacement);
        free(stream);
        return;
    }
    written flags;
    if (written_at(clang_Cursor_getArgument(call, (unsigned)api->flags_arg), 0, &flags) != 0 ||
        flags.file != w.file || flags.begin < inner_begin || flags.end > inner_end)
        return;
    ss_finding_add_fixit(f, flags.line, flags.column, flags.column + (flags.end - flags.begin),
                         "cudaStreamNonBlocking");
}

/* SYNC103 (checks.def): cudaStreamCreate and friends creating a blocking stream, with the
 * fix-it that makes it non-blocking. */
void ss_check_stream_create(ss_check_ctx *ctx, CXCursor call, const ss_api *api)
{
    char *at = ss_check_where(ctx);
    char *message = NULL;
    if (api->flags_arg < 0) {
        message = ss_xasprintf("'%s' %s creates a blocking stream, which synchronizes with the "
                               "legacy default stream",
                               api->name, at);
    } else {
        int nargs = clang_Cursor_getNumArguments(call);
        long long flags;
        if (api->flags_arg < nargs &&
            ss_ast_eval_int(ss_ast_strip(clang_Cursor_getArgument(call, (unsigned)api->flags_arg)),
                            &flags) == 0 &&
            flags == 0)
            message = ss_xasprintf("'%s' %s creates a blocking stream (flags 0, the default), "
                                   "which synchronizes with the legacy default stream",
                                   api->name, at);
    }
    if (message) {
        /* Work on the legacy stream is ordered with a blocking stream; made non-blocking, the
         * stream would race with it. Then the fix is to move that work first, and there is no
         * fix-it. */
        char *legacy = legacy_work(ctx, call);
        if (legacy) {
            char *longer = ss_xasprintf("%s; %s", message, legacy);
            free(message);
            message = longer;
        }
        size_t before = ctx->result->count;
        ss_check_report(ctx, SS_RULE_BLOCKING_STREAM_CREATE, call, message,
                        legacy ? legacy_hint
                               : "create it with cudaStreamCreateWithFlags(&stream, "
                                 "cudaStreamNonBlocking)");
        if (ctx->result->count > before && legacy == NULL) {
            ss_finding *f = &ctx->result->findings[ctx->result->count - 1];
            if (api->domain == SS_DOMAIN_RT)
                add_fixit(ctx, call, api, f);
            note_created(ctx, call, f);
        }
        free(legacy);
    }
    free(message);
    free(at);
}
