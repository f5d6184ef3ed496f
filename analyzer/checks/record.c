/* record.c: how a check's finding is recorded (ss_check_report): its location, written in a
 * macro's argument or spelled by a macro's body, once per header, and its context applied. */
#include "ast.h"
#include "checks.h"
#include "context.h"
#include "log.h"
#include "path.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* The text of line 'line' of 'file', malloc'ed, or NULL. */
static char *line_text(CXTranslationUnit tu, CXFile file, unsigned line)
{
    size_t size = 0;
    const char *text = clang_getFileContents(tu, file, &size);
    if (text == NULL)
        return NULL;
    return ss_text_line(text, size, line);
}

/* The name of the macro invoked at 'offset' of 'file', malloc'ed, or NULL. */
static char *macro_name_at(CXTranslationUnit tu, CXFile file, unsigned offset)
{
    CXToken *tok = clang_getToken(tu, clang_getLocationForOffset(tu, file, offset));
    if (tok == NULL)
        return NULL;
    char *name = NULL;
    if (clang_getTokenKind(*tok) == CXToken_Identifier) {
        CXString s = clang_getTokenSpelling(tu, *tok);
        name = ss_xstrdup(clang_getCString(s));
        clang_disposeString(s);
    }
    clang_disposeTokens(tu, tok, 1);
    return name;
}

/* Adds the finding as ss_check_report does, before its context is applied. */
static void record(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const char *message,
                   const char *hint)
{
    if (ss_ast_in_system_header(at))
        return;
    CXFile file = NULL, spelled_file = NULL;
    unsigned line, column, offset, spelled_line, spelled_column, spelled_offset;
    CXSourceLocation loc = clang_getCursorLocation(at);
    clang_getExpansionLocation(loc, &file, &line, &column, &offset);
    if (file == NULL)
        return;
#if CINDEX_VERSION_MAJOR == 0 && CINDEX_VERSION_MINOR < 63
    /* Before LLVM 16 clang_getSpellingLocation gives a macro argument's expansion location;
     * clang_getFileLocation gives where the argument is written (and a macro body's call at
     * the invocation, as the expansion location). */
    clang_getFileLocation(loc, &spelled_file, &spelled_line, &spelled_column, &spelled_offset);
#else
    clang_getSpellingLocation(loc, &spelled_file, &spelled_line, &spelled_column, &spelled_offset);
#endif
    /* A call written in a macro's argument (the call on the line after 'checkCudaErrors(') is
     * reported where it is written, with the macro it is expanded from, as clang does; a call
     * that a macro's body spells is reported at the macro's invocation. */
    char *macro = NULL;
    unsigned macro_line = line, macro_column = column;
    if (spelled_file == file && spelled_offset > offset) {
        macro = macro_name_at(ctx->tu, file, offset);
        line = spelled_line;
        column = spelled_column;
    }
    CXString name = clang_getFileName(file);
    char *path = ss_path_display(clang_getCString(name));
    clang_disposeString(name);
    /* A finding in a header seen by several translation units is reported once. */
    for (size_t i = 0; i < ctx->result->count; i++) {
        const ss_finding *f = &ctx->result->findings[i];
        if (f->rule == rule && f->line == line && f->column == column &&
            strcmp(f->file, path) == 0) {
            free(path);
            free(macro);
            return;
        }
    }
    ss_finding *f = ss_result_add(ctx->result);
    f->rule = rule;
    f->severity = ss_rules_get(rule)->severity;
    f->origin = SS_ORIGIN_STATIC;
    f->file = path;
    f->line = line;
    f->column = column;
    f->function = ss_xstrdup(ctx->function_name);
    f->message = ss_xstrdup(message);
    f->hint = ss_xstrdup(hint);
    f->line_text = line_text(ctx->tu, file, line);
    if (macro) {
        f->macro = macro;
        f->macro_line = macro_line;
        f->macro_column = macro_column;
    }
}

void ss_check_report(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const char *message,
                     const char *hint)
{
    size_t before = ctx->result->count;
    record(ctx, rule, at, message, hint);
    if (ctx->result->count > before)
        ss_context_apply(ctx, rule, at, &ctx->result->findings[ctx->result->count - 1]);
    ctx->loop_said = 0;
    ctx->loop = NULL;
}
