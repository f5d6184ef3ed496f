/* stream_create.c: SYNC103, streams created as blocking streams, with the fix-it that makes
 * them non-blocking. */
#include "ast.h"
#include "checks.h"
#include "common.h"

#include <stdlib.h>
#include <string.h>

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
    return ss_asprintf("%.*s", (int)(w->end - w->begin), text + w->begin);
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
            stream ? ss_asprintf("cudaStreamCreateWithFlags(%s, cudaStreamNonBlocking)", stream)
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
        message = ss_asprintf("'%s' %s creates a blocking stream, which synchronizes with the "
                              "legacy default stream",
                              api->name, at);
    } else {
        int nargs = clang_Cursor_getNumArguments(call);
        long long flags;
        if (api->flags_arg < nargs &&
            ss_ast_eval_int(ss_ast_strip(clang_Cursor_getArgument(call, (unsigned)api->flags_arg)),
                            &flags) == 0 &&
            flags == 0)
            message = ss_asprintf("'%s' %s creates a blocking stream (flags 0, the default), "
                                  "which synchronizes with the legacy default stream",
                                  api->name, at);
    }
    if (message) {
        size_t before = ctx->result->count;
        ss_check_report(ctx, SS_RULE_BLOCKING_STREAM_CREATE, call, message,
                        "create it with cudaStreamCreateWithFlags(&stream, "
                        "cudaStreamNonBlocking)");
        if (ctx->result->count > before && api->domain == SS_DOMAIN_RT)
            add_fixit(ctx, call, api, &ctx->result->findings[ctx->result->count - 1]);
    }
    free(message);
    free(at);
}
