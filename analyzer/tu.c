/* tu.c: analyzes one translation unit: parses it, turns parse errors into diagnostics,
 * and walks the AST, handing each call expression to the checks (checks.c, checks.def). */
#include "tu.h"
#include "ast.h"
#include "cache.h"
#include "callgraph.h"
#include "checks.h"
#include "checks/project_facts.h"
#include "files.h"
#include "flags.h"
#include "launch_spacing.h"
#include "log.h"
#include "path.h"
#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The AST walk: keeps the function around each node in the context, and hands every call
 * expression of host code to the checks (device-only functions are left out: a launch or a
 * stream there is dynamic parallelism's, on the device). */
static enum CXChildVisitResult walk(CXCursor c, CXCursor parent, CXClientData data)
{
    ss_check_ctx *ctx = data;
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    if (ss_ast_is_function(c) && ss_ast_is_device_only(c))
        return CXChildVisit_Continue;
    if (ss_ast_is_function(c)) {
        CXCursor saved_fn = ctx->function;
        char *saved_name = ctx->function_name;
        ctx->function = c;
        if (clang_getCursorKind(c) != CXCursor_LambdaExpr)
            ctx->function_name = ss_qualified_name(c);
        clang_visitChildren(c, walk, ctx);
        if (ctx->function_name != saved_name)
            free(ctx->function_name);
        ctx->function = saved_fn;
        ctx->function_name = saved_name;
        return CXChildVisit_Continue;
    }
    enum CXCursorKind kind = clang_getCursorKind(c);
    if (kind == CXCursor_CallExpr)
        ss_checks_dispatch(ctx, c);
    else if (kind == CXCursor_DeclRefExpr && ctx->streams)
        ss_stream_note_use(ctx, c);
    return CXChildVisit_Recurse;
}

/* Whether an included file is an ATen/torch header. */
static void find_torch(CXFile included, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
    CXString name = clang_getFileName(included);
    const char *path = clang_getCString(name);
    if (path && (strstr(path, "/ATen/") || strstr(path, "/torch/")))
        *(int *)data = 1;
    clang_disposeString(name);
}

/* Calls 'visit' with each preprocessor directive line of the main file: the text after the
 * '#' and the blanks that follow it, and its length. Stops at the first directive for which
 * 'visit' returns 1. Returns 1 when it stopped there, else 0. */
typedef int (*directive_fn)(const char *text, size_t len, const void *data);

static int scan_directives(CXTranslationUnit tu, const char *file, directive_fn visit,
                           const void *data)
{
    CXFile main_file = clang_getFile(tu, file);
    size_t size = 0;
    const char *text = main_file ? clang_getFileContents(tu, main_file, &size) : NULL;
    for (size_t i = 0; text && i < size;) {
        const char *p = text + i;
        const char *end = text + size;
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        size_t k = 0;
        while (k < len && (p[k] == ' ' || p[k] == '\t'))
            k++;
        if (k < len && p[k] == '#') {
            k++;
            while (k < len && (p[k] == ' ' || p[k] == '\t'))
                k++;
            if (visit(p + k, len - k, data))
                return 1;
        }
        i += len + 1;
    }
    return 0;
}

/* '#define CUDA_API_PER_THREAD_DEFAULT_STREAM'. */
static int is_per_thread_define(const char *text, size_t len, const void *data)
{
    static const char macro[] = "CUDA_API_PER_THREAD_DEFAULT_STREAM";
    if (len <= 6 || strncmp(text, "define", 6) != 0)
        return 0;
    size_t k = 6;
    while (k < len && (text[k] == ' ' || text[k] == '\t'))
        k++;
    size_t m = sizeof macro - 1;
    return len - k >= m && strncmp(text + k, macro, m) == 0 &&
           (len - k == m || text[k + m] == ' ' || text[k + m] == '\t' || text[k + m] == '\r');
}

/* Whether the main file itself defines CUDA_API_PER_THREAD_DEFAULT_STREAM. */
static int defines_per_thread(CXTranslationUnit tu, const char *file)
{
    return scan_directives(tu, file, is_per_thread_define, NULL);
}

/* '#include <ATen/...>' or '#include "torch/..."'; the header need not have been found. */
static int is_torch_include(const char *text, size_t len, const void *data)
{
    static const char *const prefixes[] = {"ATen/", "torch/"};
    if (len <= 7 || strncmp(text, "include", 7) != 0)
        return 0;
    size_t k = 7;
    while (k < len && (text[k] == ' ' || text[k] == '\t'))
        k++;
    if (k >= len || (text[k] != '<' && text[k] != '"'))
        return 0;
    k++;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t n = strlen(prefixes[i]);
        if (len - k > n && strncmp(text + k, prefixes[i], n) == 0)
            return 1;
    }
    return 0;
}

/* Whether the main file includes ATen/torch headers, found on the include path or not (a
 * custom operator linted without libtorch's include folders still gets the libtorch hint). */
static int includes_torch(CXTranslationUnit tu, const char *file)
{
    return scan_directives(tu, file, is_torch_include, NULL);
}

/* The parse errors shown for a unit, as many as clang shows by default: lint parses with no
 * error limit (clang_args.c), and a unit whose device code clang rejects can have thousands. */
#define SS_ERRORS_SHOWN 20

/* Whether 'out' holds a diagnostic at 'path' (may be NULL), 'line', 'column' saying 'message'. */
static int diag_seen(const ss_result *out, const char *path, unsigned line, unsigned column,
                     const char *message)
{
    for (size_t k = 0; k < out->diag_count; k++) {
        const ss_diag *o = &out->diags[k];
        if (o->line == line && o->column == column && strcmp(o->message, message) == 0 &&
            ((o->file == NULL && path == NULL) || (o->file && path && strcmp(o->file, path) == 0)))
            return 1;
    }
    return 0;
}

/* Adds parse error 'd' to 'out' unless it is there already; 1 when added. An error without a
 * location (clang's "too many errors emitted") is given the main file 'main_path'. */
static int add_error(CXDiagnostic d, const char *main_path, ss_result *out)
{
    CXFile file = NULL;
    unsigned line = 0, column = 0;
    clang_getExpansionLocation(clang_getDiagnosticLocation(d), &file, &line, &column, NULL);
    char *path = NULL;
    if (file) {
        CXString fname = clang_getFileName(file);
        path = ss_path_display(clang_getCString(fname));
        clang_disposeString(fname);
    } else {
        path = ss_path_display(main_path);
        line = column = 0;
    }
    CXString text = clang_getDiagnosticSpelling(d);
    char *message = ss_xasprintf(
        "%s%s", clang_getDiagnosticSeverity(d) == CXDiagnostic_Fatal ? "fatal error: " : "",
        clang_getCString(text));
    clang_disposeString(text);
    int added = !diag_seen(out, path, line, column, message);
    if (added)
        ss_result_add_diag(out, SS_SEV_ERROR, path, line, column, message);
    free(message);
    free(path);
    return added;
}

/* Adds each parse error once, the first SS_ERRORS_SHOWN of them and any fatal one, and a note
 * that counts the others; returns 1 when there was any. With KeepGoing, libclang reports what would
 * have been fatal (a missing header) as a plain error, so every error counts: the file was analyzed
 * only as far as clang recovered. */
static int collect_diagnostics(CXTranslationUnit tu, const char *main_path, ss_result *out)
{
    int fatal = 0;
    unsigned shown = 0, hidden = 0, n = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
        if (sev >= CXDiagnostic_Error) {
            fatal = 1;
            /* A fatal error (the limit of --extra-arg=-ferror-limit=N) is always shown. */
            if (shown == SS_ERRORS_SHOWN && sev != CXDiagnostic_Fatal)
                hidden++;
            else
                shown += (unsigned)add_error(d, main_path, out);
        }
        clang_disposeDiagnostic(d);
    }
    if (hidden > 0) {
        char *path = ss_path_display(main_path);
        char *message = ss_xasprintf("%u more error%s not shown; the unit was parsed and analyzed "
                                     "past them",
                                     hidden, hidden == 1 ? "" : "s");
        ss_result_add_diag(out, SS_SEV_NOTE, path, 0, 0, message);
        free(message);
        free(path);
    }
    return fatal;
}

/* A header found further down the search path because a folder of the build tree is not
 * there yet (docs/lint.md, "A header the build has not made yet"). */
typedef struct unbuilt_walk {
    const ss_args *build_dirs; /* the compile command's include folders in its build folder */
    const size_t *build_at;    /* their places in the arguments */
    const ss_tu_input *in;
    CXTranslationUnit tu;
    const ss_result *errors; /* the parse's diagnostics, from 'first' on */
    size_t first;
    char *header;             /* the first such header: 'build folder'/'name' */
    char *found;              /* where it was found instead */
    int toolkit;              /* that is the toolkit's include folder */
    CXSourceLocation include; /* its #include */
    size_t others;            /* more such headers */
} unbuilt_walk;

/* Whether 'text' ('size' bytes) has 'name' ('len' bytes) as a whole word. */
static int has_word(const char *text, size_t size, const char *name, size_t len)
{
    for (const char *p = text; p + len <= text + size;) {
        const char *hit = memmem(p, (size_t)(text + size - p), name, len);
        if (hit == NULL)
            return 0;
        int before = hit > text && (isalnum((unsigned char)hit[-1]) || hit[-1] == '_');
        int after =
            hit + len < text + size && (isalnum((unsigned char)hit[len]) || hit[len] == '_');
        if (!before && !after)
            return 1;
        p = hit + 1;
    }
    return 0;
}

/* Whether an error of the parse quotes a name (an identifier between quotes) that the text of
 * 'file' has as a word: the errors follow from that header ("no member named 'depth' in
 * 'conf'", where the header declares conf). Returns 1 or 0. */
static int errors_name(const unbuilt_walk *w, CXFile file)
{
    size_t size = 0;
    const char *text = clang_getFileContents(w->tu, file, &size);
    for (size_t k = w->first; text && k < w->errors->diag_count; k++) {
        const ss_diag *d = &w->errors->diags[k];
        const char *open = d->severity == SS_SEV_ERROR ? strchr(d->message, '\'') : NULL;
        while (open) {
            const char *close = strchr(open + 1, '\'');
            if (close == NULL)
                break;
            size_t len = (size_t)(close - open - 1);
            int identifier = len >= 2;
            for (size_t i = 0; identifier && i < len; i++)
                identifier = isalnum((unsigned char)open[1 + i]) || open[1 + i] == '_';
            if (identifier && has_word(text, size, open + 1, len))
                return 1;
            open = strchr(close + 1, '\'');
        }
    }
    return 0;
}

/* Whether 'path' lies in the folder 'dir' (a plain prefix and a slash). */
static const char *in_folder(const char *path, const char *dir)
{
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/')
        len--;
    return strncmp(path, dir, len) == 0 && path[len] == '/' ? path + len + 1 : NULL;
}

/* Whether the folder 'dir' is the absolute folder 'build' or lies in it. */
static int in_build(const char *dir, const char *build)
{
    return build && build[0] == '/' && (strcmp(dir, build) == 0 || in_folder(dir, build));
}

/* Whether the real path of 'path' lies in the folder 'dir' (or is it). */
static int really_in(const char *path, const char *dir)
{
    char real_dir[PATH_MAX], real_path[PATH_MAX];
    return dir && realpath(dir, real_dir) != NULL && realpath(path, real_path) != NULL &&
           (strcmp(real_path, real_dir) == 0 || in_folder(real_path, real_dir) != NULL);
}

/* Where found_in found a header: a folder of the project's own (a later -I or -iquote one),
 * the toolkit's include folder, or another library's (a later -isystem, -idirafter or
 * -cxx-isystem folder, /usr/local/include, /usr/include). */
enum { FOUND_PROJECT, FOUND_TOOLKIT, FOUND_LIBRARY };

static const char *const system_dirs[] = {"/usr/local/include", "/usr/include"};

/* The kind (FOUND_...) of the folder 'dir' that the include option 'opt' adds, where
 * 'toolkit' is the toolkit's include folder ("" without one): an -I of the toolkit's or a
 * system folder is no folder of the project's. */
static int kind_of(const char *opt, const char *dir, const char *toolkit)
{
    if (toolkit[0] && really_in(dir, toolkit))
        return FOUND_TOOLKIT;
    for (size_t k = 0; k < sizeof system_dirs / sizeof system_dirs[0]; k++) {
        if (really_in(dir, system_dirs[k]))
            return FOUND_LIBRARY;
    }
    return strncmp(opt, "-I", 2) == 0 || strncmp(opt, "-iquote", 7) == 0 ? FOUND_PROJECT
                                                                         : FOUND_LIBRARY;
}

/* The folder of the search path after argument 'after' that 'path' lies in: a later include
 * option's, the toolkit's (--cuda-path=ROOT: ROOT/include) or a system folder; '*kind' says
 * which (FOUND_...). NULL when none. Written into 'buf'. */
static const char *found_in(const ss_args *args, size_t after, const char *path, int *kind,
                            char *buf, size_t size)
{
    /* clang searches the toolkit's include folder after every -isystem one, wherever
     * --cuda-path stands. */
    char toolkit[PATH_MAX] = "";
    for (size_t i = 0; i < args->count; i++) {
        if (strncmp(args->v[i], "--cuda-path=", 12) == 0)
            snprintf(toolkit, sizeof toolkit, "%s/include", args->v[i] + 12);
    }
    for (size_t i = after + 1; i < args->count; i++) {
        const char *dir = ss_flags_include_dir((const char *const *)args->v, args->count, i);
        if (dir && dir[0] == '/' && in_folder(path, dir)) {
            *kind = kind_of(args->v[i], dir, toolkit);
            snprintf(buf, size, "%s", dir);
            return buf;
        }
    }
    *kind = FOUND_TOOLKIT;
    if (toolkit[0] && in_folder(path, toolkit)) {
        snprintf(buf, size, "%s", toolkit);
        return buf;
    }
    *kind = FOUND_LIBRARY;
    for (size_t k = 0; k < sizeof system_dirs / sizeof system_dirs[0]; k++) {
        if (in_folder(path, system_dirs[k])) {
            snprintf(buf, size, "%s", system_dirs[k]);
            return buf;
        }
    }
    return NULL;
}

/* Whether the configure template of the header 'dir'/'rel' is there (NAME.in, NAME.cmake). */
static int has_template(const char *dir, const char *rel)
{
    static const char *const templates[] = {".in", ".cmake"};
    int found = 0;
    for (size_t k = 0; k < sizeof templates / sizeof templates[0] && !found; k++) {
        char *path = ss_xasprintf("%s/%s%s", dir, rel, templates[k]);
        struct stat st;
        found = stat(path, &st) == 0;
        free(path);
    }
    return found;
}

/* The folder that holds 'dir' or is 'dir', up to the command's folder or the build folder,
 * and holds CMakeCache.txt (CMAKE_BINARY_DIR); NULL when none does. */
static char *cmake_build_root(const char *dir, const ss_tu_input *in)
{
    char *cur = ss_xstrdup(dir);
    while (in_build(cur, in->directory) || in_build(cur, in->build_dir)) {
        char *cache = ss_xasprintf("%s/CMakeCache.txt", cur);
        struct stat st;
        int found = stat(cache, &st) == 0;
        free(cache);
        if (found)
            return cur;
        char *slash = strrchr(cur, '/');
        if (slash == NULL || slash == cur)
            break;
        *slash = '\0';
    }
    free(cur);
    return NULL;
}

/* Whether 'c', the byte after a path in a build file, ends it (a NUL too: the end of the
 * text). */
static int path_ends(char c)
{
    return strchr(" \t\r\n\"':;|,)", c) != NULL;
}

/* Whether the file 'path' names the header 'header', 'below' the build folder: its absolute
 * path, or 'below' as a path of its own (not the end of another folder's path), each followed
 * by the path's end (not 'conf.hpp' for 'conf.h'). */
static int file_names(const char *path, const char *header, const char *below)
{
    size_t len = 0;
    char *text = ss_read_file_max(path, (uint64_t)1 << 30, 0, &len);
    int named = 0;
    const char *needles[2] = {header, below};
    for (int k = 0; k < 2 && text && !named; k++) {
        size_t n = strlen(needles[k]);
        for (const char *p = text;
             !named && (p = memmem(p, len - (size_t)(p - text), needles[k], n)) != NULL; p++)
            named = (k == 0 || p == text || strchr(" \t\n\"$:=", p[-1]) != NULL) && path_ends(p[n]);
    }
    free(text);
    return named;
}

/* Whether a file of the folder 'dir' whose name starts with 'prefix' and ends with '.ninja'
 * names the header (file_names); '*seen' is set when there is such a file. */
static int ninja_names(const char *dir, const char *prefix, const char *header, const char *below,
                       int *seen)
{
    DIR *d = opendir(dir);
    int named = 0;
    size_t lead = strlen(prefix);
    for (struct dirent *e; d && !named && (e = readdir(d)) != NULL;) {
        size_t n = strlen(e->d_name);
        if (strncmp(e->d_name, prefix, lead) != 0 || n < lead + 6 ||
            strcmp(e->d_name + n - 6, ".ninja") != 0)
            continue;
        char *ninja = ss_xasprintf("%s/%s", dir, e->d_name);
        *seen = 1;
        named = file_names(ninja, header, below);
        free(ninja);
    }
    if (d)
        closedir(d);
    return named;
}

/* Whether the rules of the Makefile generators name the header (file_names): each target's
 * 'dir'/CMakeFiles/NAME.dir/build.make, then the same in each folder below 'dir' that has a
 * Makefile of its own (a folder add_subdirectory made), to 'depth' more levels. Other
 * folders (objects, outputs, the sources of an in-tree build) are not walked; links are not
 * followed. */
static int build_make_names(const char *dir, const char *header, const char *below, int depth)
{
    char *cmake_files = ss_xasprintf("%s/CMakeFiles", dir);
    DIR *d = opendir(cmake_files);
    int named = 0;
    for (struct dirent *e; d && !named && (e = readdir(d)) != NULL;) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".dir") != 0)
            continue;
        char *rules = ss_xasprintf("%s/%s/build.make", cmake_files, e->d_name);
        struct stat st;
        named = lstat(rules, &st) == 0 && S_ISREG(st.st_mode) && file_names(rules, header, below);
        free(rules);
    }
    if (d)
        closedir(d);
    free(cmake_files);
    d = depth > 0 && !named ? opendir(dir) : NULL;
    for (struct dirent *e; d && !named && (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "CMakeFiles") == 0)
            continue;
        char *sub = ss_xasprintf("%s/%s", dir, e->d_name);
        char *makefile = ss_xasprintf("%s/Makefile", sub);
        struct stat st, mt;
        if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode) && lstat(makefile, &mt) == 0)
            named = build_make_names(sub, header, below, depth - 1);
        free(makefile);
        free(sub);
    }
    if (d)
        closedir(d);
    return named;
}

/* What cmake_may_make found lately, by a hash of the build folder and the header: the units of
 * one build ask the same question, each answer a read of the build's rules. */
enum { MAY_MAKE_MEMO = 64 };
static uint64_t may_make_memo[MAY_MAKE_MEMO];
static size_t may_make_memo_next;
static pthread_mutex_t may_make_memo_lock = PTHREAD_MUTEX_INITIALIZER;

/* Whether the CMake build folder 'root' may make 'header' (a path in it): its generated build
 * files name the header's path below 'root' or its absolute path (the Ninja generators:
 * build.ninja, Ninja Multi-Config's build-CONFIG.ninja and the .ninja files of CMakeFiles that they
 * include; the Makefile generators: each target's build.make), or there are none yet
 * (configured, not generated). An include folder no rule writes to is no sign of a header to
 * be made (kfusion's -I${CMAKE_BINARY_DIR}/include, which stays empty). */
static int cmake_may_make(const char *root, const char *header)
{
    const char *below = in_folder(header, root);
    if (below == NULL)
        return 1;
    uint64_t key = ss_hash_bytes(root, strlen(root) + 1, ss_hash_bytes(header, strlen(header), 0));
    int known = -1;
    pthread_mutex_lock(&may_make_memo_lock);
    for (size_t i = 0; i < MAY_MAKE_MEMO && known < 0; i++)
        known = (may_make_memo[i] | 1) == (key | 1) ? (int)(may_make_memo[i] & 1) : -1;
    pthread_mutex_unlock(&may_make_memo_lock);
    if (known >= 0)
        return known;
    int seen = 0;
    int named = ninja_names(root, "build", header, below, &seen);
    if (seen && !named) {
        char *cmake_files = ss_xasprintf("%s/CMakeFiles", root);
        named = ninja_names(cmake_files, "", header, below, &seen);
        free(cmake_files);
    }
    char *makefile = ss_xasprintf("%s/Makefile", root);
    struct stat st;
    if (!named && stat(makefile, &st) == 0) {
        seen = 1;
        named = build_make_names(root, header, below, 32);
    }
    free(makefile);
    int made = !seen || named;
    pthread_mutex_lock(&may_make_memo_lock);
    may_make_memo[may_make_memo_next++ % MAY_MAKE_MEMO] = (key & ~(uint64_t)1) | (uint64_t)made;
    pthread_mutex_unlock(&may_make_memo_lock);
    return made;
}

/* Whether the include folder 'dir' of the command is the build's, so that a header 'rel' it
 * lacks, found as a copy of kind 'kind' (FOUND_...) further down the search path, is one the
 * build makes: the header's configure template is in 'dir' (NAME.in, NAME.cmake); else the
 * copy is another library's or the toolkit's (a header of the project's own -I folders that
 * the build folder lacks is no sign of anything), 'dir' does not hold the unit's main file
 * (a source folder: '-I./' of an in-tree build) and it is a folder of a CMake build folder
 * whose rules may make it (cmake_may_make), or, outside any CMake build folder, a folder not
 * made yet or one of the compile database's folder when that does not hold the main file (an
 * out-of-tree build). A project's own include folder beside its sources is not
 * the build's (cuhnsw's -Icpp/include/, which lacks thrust/copy.h). */
static int build_made(const char *dir, const char *rel, int kind, const ss_tu_input *in)
{
    if (has_template(dir, rel))
        return 1;
    if (kind == FOUND_PROJECT || really_in(in->file, dir))
        return 0;
    char *root = cmake_build_root(dir, in);
    if (root) {
        char *header = ss_xasprintf("%s/%s", dir, rel);
        int made = cmake_may_make(root, header);
        free(header);
        free(root);
        return made;
    }
    struct stat st;
    return stat(dir, &st) != 0 ||
           (in_build(dir, in->build_dir) && !really_in(in->file, in->build_dir));
}

static void find_unbuilt(CXFile included, CXSourceLocation *stack, unsigned depth,
                         CXClientData data)
{
    unbuilt_walk *w = data;
    /* Only a header the project's own files include (not the toolkit's own includes, nor one
     * the command line includes), whose names the errors quote. */
    CXFile includer = NULL;
    if (depth > 0)
        clang_getExpansionLocation(stack[0], &includer, NULL, NULL, NULL);
    if (includer == NULL || clang_Location_isInSystemHeader(stack[0]) || !errors_name(w, included))
        return;
    CXString name = clang_getFileName(included);
    const char *path = clang_getCString(name);
    for (size_t m = 0; path && path[0] == '/' && m < w->build_dirs->count; m++) {
        char buf[PATH_MAX];
        int kind = FOUND_PROJECT;
        const char *dir = found_in(w->in->args, w->build_at[m], path, &kind, buf, sizeof buf);
        const char *rel = dir ? in_folder(path, dir) : NULL;
        if (rel && !build_made(w->build_dirs->v[m], rel, kind, w->in))
            continue;
        char *header = rel ? ss_xasprintf("%s/%s", w->build_dirs->v[m], rel) : NULL;
        struct stat st;
        int absent = header && stat(header, &st) != 0;
        free(header);
        if (!absent)
            continue;
        if (w->header) {
            w->others++;
            break;
        }
        w->header = ss_xasprintf("%s/%s", w->build_dirs->v[m], rel);
        w->found = ss_xstrdup(dir);
        w->toolkit = kind == FOUND_TOOLKIT;
        w->include = stack[0];
        break;
    }
    clang_disposeString(name);
}

/* The compile command's include folders (-I and the like, between the user's first argument
 * and the extra ones) that lie in its folder or its build folder, into 'dirs', and each one's
 * place in the arguments into 'at'. */
static void collect_build_dirs(const ss_tu_input *in, ss_args *dirs, size_t *at)
{
    for (size_t i = in->user_begin; i < in->extra_begin && i < in->args->count; i++) {
        const char *dir =
            ss_flags_include_dir((const char *const *)in->args->v, in->args->count, i);
        if (dir && dir[0] == '/' &&
            (in_build(dir, in->directory) || in_build(dir, in->build_dir))) {
            at[dirs->count] = i;
            ss_args_push(dirs, dir);
        }
    }
}

/* The message that replaces the parse's 'errors' errors (the first of them from 'first_diag'
 * on in 'out') when 'w' found a header not built yet. */
static char *unbuilt_message(const unbuilt_walk *w, const ss_result *out, size_t first_diag,
                             size_t errors)
{
    const ss_diag *d = NULL;
    for (size_t k = first_diag; k < out->diag_count && d == NULL; k++)
        d = out->diags[k].severity == SS_SEV_ERROR ? &out->diags[k] : NULL;
    char *first = d->file && d->line
                      ? ss_xasprintf("%s:%u:%u: %s", d->file, d->line, d->column, d->message)
                      : ss_xstrdup(d->message);
    char *header = ss_path_display(w->header);
    char *found = ss_path_display(w->found);
    char *copy =
        w->toolkit ? ss_xstrdup("the toolkit's copy") : ss_xasprintf("the copy in %s", found);
    char *others = w->others ? ss_xasprintf(" (and for %zu other header%s)", w->others,
                                            w->others == 1 ? "" : "s")
                             : ss_xstrdup("");
    char *message = ss_xasprintf(
        "%s does not exist yet: %s was used%s; build the project first (the %zu error%s of "
        "this parse may follow from it; the first: %s)",
        header, copy, others, errors, errors == 1 ? "" : "s", first);
    free(others);
    free(copy);
    free(found);
    free(header);
    free(first);
    return message;
}

/* The unit's errors (from 'first_diag' on in 'out') replaced by one error, 'message', at
 * 'include' (an #include); its other diagnostics stay, in their order. */
static void replace_errors(ss_result *out, size_t first_diag, CXSourceLocation include,
                           const char *message)
{
    CXFile file = NULL;
    unsigned line = 0, column = 0;
    clang_getExpansionLocation(include, &file, &line, &column, NULL);
    CXString fname = clang_getFileName(file);
    char *where = clang_getCString(fname) ? ss_path_display(clang_getCString(fname)) : NULL;
    clang_disposeString(fname);
    size_t kept = first_diag;
    for (size_t k = first_diag; k < out->diag_count; k++) {
        if (out->diags[k].severity == SS_SEV_ERROR) {
            free(out->diags[k].file);
            free(out->diags[k].message);
        } else {
            out->diags[kept++] = out->diags[k];
        }
    }
    out->diag_count = kept;
    ss_result_add_diag(out, SS_SEV_ERROR, where, line, column, message);
    free(where);
}

/* After a parse with errors: where a header that the project's files include, and whose
 * names the errors quote, was found further down the search path than an include folder of
 * the compile command in its build folder that does not have it (yet: the folder or the
 * header is not made before the build runs; the toolkit's copy of a header the build
 * generates), the unit's errors ('out'->diags from 'first_diag' on) are replaced by one that
 * says so at its #include, with how many there were and the first of them. Returns 1 when it
 * did. */
static int explain_unbuilt(CXTranslationUnit tu, const ss_tu_input *in, ss_result *out,
                           size_t first_diag)
{
    if (in->directory == NULL && in->build_dir == NULL)
        return 0;
    ss_args build_dirs = {0};
    size_t *build_at = ss_xcalloc(in->args->count + 1, sizeof *build_at);
    collect_build_dirs(in, &build_dirs, build_at);
    unbuilt_walk w = {
        &build_dirs, build_at, in, tu, out, first_diag, NULL, NULL, 0, clang_getNullLocation(), 0};
    if (build_dirs.count)
        clang_getInclusions(tu, find_unbuilt, &w);
    int said = w.header != NULL;
    size_t errors = 0;
    for (size_t k = first_diag; said && k < out->diag_count; k++)
        errors += out->diags[k].severity == SS_SEV_ERROR;
    if (said && errors) {
        char *message = unbuilt_message(&w, out, first_diag, errors);
        replace_errors(out, first_diag, w.include, message);
        free(message);
    }
    free(w.header);
    free(w.found);
    ss_args_free(&build_dirs);
    free(build_at);
    return said && errors;
}

void ss_tu_files_free(ss_tu_files *files)
{
    for (size_t i = 0; i < files->count; i++)
        free(files->v[i].path);
    free(files->v);
    memset(files, 0, sizeof *files);
}

typedef struct inclusion_walk {
    CXTranslationUnit tu;
    const ss_tu_input *in;
    ss_tu_files *files;
} inclusion_walk;

/* Records each file the translation unit read, with the hash of its content as parsed. */
static void record_inclusion(CXFile included, CXSourceLocation *stack, unsigned depth,
                             CXClientData data)
{
    inclusion_walk *walk_state = data;
    ss_tu_files *files = walk_state->files;
    CXString name = clang_getFileName(included);
    const char *path = clang_getCString(name);
    if (path == NULL || strncmp(path, SS_VIRTUAL_INCLUDE, strlen(SS_VIRTUAL_INCLUDE)) == 0) {
        clang_disposeString(name);
        return;
    }
    /* The main file's text as lint was given it, every other file's read again: libclang's
     * clang_getFileContents looks the file up by a scan of the unit's whole source-location
     * table, once per file: up to half the parse's time on units with many headers. */
    size_t size = 0;
    const ss_tu_input *in = walk_state->in;
    char *read = depth == 0 && in->text ? NULL : ss_read_file(path, &size);
    const char *text = read;
    if (depth == 0 && in->text) {
        text = in->text;
        size = in->text_len;
    }
    if (text == NULL)
        files->incomplete = 1;
    if (files->count == files->cap) {
        files->cap = files->cap ? files->cap * 2 : 64;
        ss_tu_file *grown = ss_xreallocarray(files->v, files->cap, sizeof *grown);
        files->v = grown;
    }
    files->v[files->count].path = ss_xstrdup(path);
    files->v[files->count].hash = text ? ss_hash_bytes(text, size, 0) : 0;
    files->count++;
    free(read);
    clang_disposeString(name);
}

/* Whether libclang accepts the command line 'args' ('count' of them): an empty file
 * (/dev/null) is parsed in their language, with the CUDA headers left out (-nocudainc), which
 * takes milliseconds. No unsaved file is handed over: libclang 16 never frees its copies of
 * the unsaved files of a command line it refuses (clang's ASTUnit::LoadFromCommandLine
 * returns before it takes them over). */
static int command_accepted(CXIndex index, const char *const *args, size_t count)
{
    const char **probe = ss_xcalloc(count + 1, sizeof *probe);
    memcpy(probe, args, count * sizeof *probe);
    probe[count] = "-nocudainc";
    CXTranslationUnit tu = NULL;
    enum CXErrorCode rc = clang_parseTranslationUnit2(index, "/dev/null", probe, (int)count + 1,
                                                      NULL, 0, CXTranslationUnit_Incomplete, &tu);
    if (tu)
        clang_disposeTranslationUnit(tu);
    free(probe);
    return rc == CXError_Success && tu != NULL;
}

/* The command lines libclang accepted lately, by a hash of their arguments: the files of
 * one target share theirs, and one probe answers for all of them. */
enum { ACCEPTED_MEMO = 64 };
static uint64_t accepted_memo[ACCEPTED_MEMO];
static size_t accepted_memo_next;
static pthread_mutex_t accepted_memo_lock = PTHREAD_MUTEX_INITIALIZER;

/* Whether libclang accepts the command line of 'in' (command_accepted, remembered). It is
 * asked before the parse that hands over the bundled headers, so that a command line clang
 * refuses never gets them. */
static int input_accepted(CXIndex index, const ss_tu_input *in)
{
    uint64_t key = ss_hash_bytes("accepted", 8, 0);
    for (size_t i = 0; i < in->args->count; i++)
        key = ss_hash_bytes(in->args->v[i], strlen(in->args->v[i]) + 1, key);
    key |= 1;
    int known = 0;
    pthread_mutex_lock(&accepted_memo_lock);
    for (size_t i = 0; i < ACCEPTED_MEMO && !known; i++)
        known = accepted_memo[i] == key;
    pthread_mutex_unlock(&accepted_memo_lock);
    if (known)
        return 1;
    if (!command_accepted(index, (const char *const *)in->args->v, in->args->count))
        return 0;
    pthread_mutex_lock(&accepted_memo_lock);
    accepted_memo[accepted_memo_next++ % ACCEPTED_MEMO] = key;
    pthread_mutex_unlock(&accepted_memo_lock);
    return 1;
}

/* What rejected_command found for recent command lines, by a hash of the arguments and their
 * origins: the files of one target share their command line, and finding the rejected
 * argument takes a parse per argument. */
enum { REJECTED_MEMO = 32 };
static struct {
    uint64_t key;
    char *message;
} rejected_memo[REJECTED_MEMO];
static size_t rejected_memo_next;
static pthread_mutex_t rejected_memo_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t command_key(const ss_tu_input *in, enum CXErrorCode rc)
{
    size_t ranges[4] = {in->user_begin, in->extra_begin, in->extra_end, (size_t)rc};
    uint64_t h = ss_hash_bytes(ranges, sizeof ranges, 0);
    for (size_t i = 0; i < in->args->count; i++)
        h = ss_hash_bytes(in->args->v[i], strlen(in->args->v[i]) + 1, h);
    return h | 1;
}

/* Appends ", 'ARG'" (or "'ARG'" first) to a growing list of rejected arguments. */
static void list_rejected(char **list, const char *const *argv, size_t n)
{
    char *shown = ss_flags_shown(argv, n);
    char *grown = *list ? ss_xasprintf("%s, '%s'", *list, shown) : ss_xasprintf("'%s'", shown);
    free(*list);
    free(shown);
    *list = grown;
}

/* What to tell the user about the rejected arguments: 'from_db' ('db_count' of them, from the
 * compile command) and 'from_extra' ('extra_count', from --extra-arg), lists made by
 * list_rejected or NULL. Malloc'ed. */
static char *rejected_words(const char *from_db, size_t db_count, const char *from_extra,
                            size_t extra_count)
{
    char *db_words = from_db
                         ? ss_xasprintf("clang rejected the argument%s %s of the compile command: "
                                        "correct %s in the compile database or leave %s out with "
                                        "--remove-arg",
                                        db_count > 1 ? "s" : "", from_db,
                                        db_count > 1 ? "them" : "it", db_count > 1 ? "them" : "it")
                         : NULL;
    char *extra_words =
        from_extra ? ss_xasprintf("clang rejected the argument%s %s given with --extra-arg",
                                  extra_count > 1 ? "s" : "", from_extra)
                   : NULL;
    char *message;
    if (db_words && extra_words)
        message = ss_xasprintf("%s; %s", db_words, extra_words);
    else if (db_words || extra_words)
        message = ss_xstrdup(db_words ? db_words : extra_words);
    else
        message = ss_xstrdup("clang rejected the command line, but no one argument of it "
                             "(see them with --verbose)");
    free(db_words);
    free(extra_words);
    return message;
}

/* Why libclang produced no translation unit ('rc'), in words for the user: when its command
 * line is the cause, which arguments clang rejected (found by adding the user's arguments,
 * an option with its value at a time, to the analyzer's own until the command line is
 * refused) and what to do. libclang keeps the driver's own message to itself. Malloc'ed. */
static char *find_rejected(CXIndex index, const ss_tu_input *in, enum CXErrorCode rc)
{
    const char *const *argv = (const char *const *)in->args->v;
    size_t n = in->args->count;
    if ((rc != CXError_Failure && rc != CXError_ASTReadError) || command_accepted(index, argv, n))
        return ss_xstrdup(ss_cx_error_words(rc));
    size_t user_begin = in->user_begin, extra_end = in->extra_end;
    if (user_begin > extra_end || extra_end > n)
        user_begin = extra_end = 0;
    const char **kept = ss_xcalloc(n + 1, sizeof *kept);
    size_t nkept = 0;
    for (size_t i = 0; i < n; i++) {
        if (i < user_begin || i >= extra_end)
            kept[nkept++] = argv[i];
    }
    char *message = NULL;
    if (!command_accepted(index, kept, nkept)) {
        message = ss_xstrdup("clang rejected the command line the analyzer made for this file "
                             "(try --cuda-path DIR, or --cuda-path none)");
    } else {
        char *from_db = NULL, *from_extra = NULL;
        size_t db_count = 0, extra_count = 0;
        for (size_t i = user_begin; i < extra_end;) {
            size_t group = ss_flags_group_len(argv, extra_end, i);
            memcpy(kept + nkept, argv + i, group * sizeof *kept);
            if (command_accepted(index, kept, nkept + group)) {
                nkept += group;
            } else if (i < in->extra_begin) {
                list_rejected(&from_db, argv + i, group);
                db_count++;
            } else {
                list_rejected(&from_extra, argv + i, group);
                extra_count++;
            }
            i += group;
        }
        message = rejected_words(from_db, db_count, from_extra, extra_count);
        free(from_db);
        free(from_extra);
    }
    free(kept);
    return message;
}

/* find_rejected, remembered for the command lines seen last. Malloc'ed. */
static char *rejected_command(CXIndex index, const ss_tu_input *in, enum CXErrorCode rc)
{
    uint64_t key = command_key(in, rc);
    char *message = NULL;
    pthread_mutex_lock(&rejected_memo_lock);
    for (size_t i = 0; i < REJECTED_MEMO && message == NULL; i++) {
        if (rejected_memo[i].key == key)
            message = ss_xstrdup(rejected_memo[i].message);
    }
    pthread_mutex_unlock(&rejected_memo_lock);
    if (message)
        return message;
    message = find_rejected(index, in, rc);
    pthread_mutex_lock(&rejected_memo_lock);
    size_t slot = rejected_memo_next++ % REJECTED_MEMO;
    free(rejected_memo[slot].message);
    rejected_memo[slot].key = key;
    rejected_memo[slot].message = ss_xstrdup(message);
    pthread_mutex_unlock(&rejected_memo_lock);
    return message;
}

/* Walks the parsed unit 'tu' of 'in' with the checks: findings into 'out', the files it read
 * into 'files' and what the other units need to know of its streams into 'streams' (either
 * may be NULL). */
static void analyze_unit(CXTranslationUnit tu, const ss_tu_input *in, ss_result *out,
                         ss_tu_files *files, ss_tu_streams *streams)
{
    ss_check_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.tu = tu;
    ctx.result = out;
    ctx.per_thread = in->info->per_thread || defines_per_thread(tu, in->file);
    ctx.function = clang_getNullCursor();
    ctx.readback_bytes = in->readback_bytes;
    ctx.hot_functions = in->hot_functions;
    ctx.hot_count = in->hot_count;
    ctx.streams = streams;
    ctx.memo = ss_check_memo_new();
    ctx.convention = ss_convention_new();
    ctx.branch = ss_branch_memo_new();
    ctx.cublas_memo = ss_cublas_memo_new();
    ctx.drain_memo = ss_drain_memo_new();
    clang_getInclusions(tu, find_torch, &ctx.torch);
    if (!ctx.torch)
        ctx.torch = includes_torch(tu, in->file);
    if (files) {
        inclusion_walk state = {tu, in, files};
        clang_getInclusions(tu, record_inclusion, &state);
    }
    clang_visitChildren(clang_getTranslationUnitCursor(tu), walk, &ctx);
    if (streams) {
        ss_stream_note_legacy(&ctx, in->file);
        ss_project_summarize(&ctx);
    }
    ss_callgraph_free(ctx.graph);
    ss_check_memo_free(ctx.memo);
    ss_convention_free(ctx.convention);
    ss_branch_memo_free(ctx.branch);
    ss_cublas_memo_free(ctx.cublas_memo);
    ss_drain_memo_free(ctx.drain_memo);
}

/* The files of a unit read with their spaced launches rewritten (launch_spacing.c). */
typedef struct respaced_file {
    char *name;     /* as libclang names it */
    char *text;     /* rewritten ('size' bytes); NULL: it had none that could be */
    char *original; /* as it was parsed first */
    size_t size;
    size_t launches; /* launches rewritten */
} respaced_file;

typedef struct respaced {
    respaced_file *v;
    size_t count, cap;
} respaced;

/* Keeps the first 'count' files of 'set' (0: frees it). */
static void respaced_truncate(respaced *set, size_t count)
{
    for (size_t i = count; i < set->count; i++) {
        free(set->v[i].name);
        free(set->v[i].text);
        free(set->v[i].original);
    }
    set->count = count;
    if (count == 0) {
        free(set->v);
        memset(set, 0, sizeof *set);
    }
}

/* The rewritten text 'set' holds for the file 'name', or NULL. '*listed' says whether 'set'
 * holds the file at all. */
static const respaced_file *respaced_find(const respaced *set, const char *name, int *listed)
{
    for (size_t i = 0; i < set->count; i++) {
        if (strcmp(set->v[i].name, name) == 0) {
            *listed = 1;
            return set->v[i].text ? &set->v[i] : NULL;
        }
    }
    *listed = 0;
    return NULL;
}

/* Adds the file 'name' ('text', 'size' bytes, as parsed) to 'set' with its spaced launches
 * rewritten. Returns 1 when it had any that could be, else 0: it is then listed all the same
 * where 'always' is set (not to be tried again), else not at all. */
static int respaced_add(respaced *set, const char *name, const char *text, size_t size, int always)
{
    size_t launches = 0;
    char *rewritten = ss_launch_spacing_rewrite(text, size, &launches);
    if (rewritten == NULL && !always)
        return 0;
    ss_xgrow((void **)&set->v, &set->cap, set->count + 1, sizeof *set->v);
    respaced_file *f = &set->v[set->count++];
    f->name = ss_xstrdup(name);
    f->text = rewritten;
    f->original = NULL;
    f->size = size;
    f->launches = launches;
    if (f->text) {
        f->original = ss_xmalloc(size + 1);
        memcpy(f->original, text, size);
        f->original[size] = '\0';
    }
    return f->text != NULL;
}

typedef struct respace_walk {
    const ss_tu_input *in;
    respaced *set;
} respace_walk;

/* Adds the included file to the walk's set when it has spaced launches: not a file in memory
 * (SS_VIRTUAL_INCLUDE), nor one a system header includes; read from disk (the main file's text
 * as lint was given it), as record_inclusion does, not with clang_getFileContents (a scan of
 * the unit's source-location table per file). */
static void respace_inclusion(CXFile included, CXSourceLocation *stack, unsigned depth,
                              CXClientData data)
{
    respace_walk *w = data;
    if (depth > 0 && clang_Location_isInSystemHeader(stack[0]))
        return;
    CXString fname = clang_getFileName(included);
    const char *name = clang_getCString(fname);
    int listed = 1;
    if (name && strncmp(name, SS_VIRTUAL_INCLUDE, strlen(SS_VIRTUAL_INCLUDE)) != 0)
        respaced_find(w->set, name, &listed);
    if (!listed) {
        int given = depth == 0 && w->in->text;
        size_t size = given ? w->in->text_len : 0;
        char *read = given ? NULL : ss_read_file(name, &size);
        const char *text = given ? w->in->text : read;
        if (text)
            respaced_add(w->set, name, text, size, 0);
        free(read);
    }
    clang_disposeString(fname);
}

/* Adds to 'set' each file of 'tu' that 'set' does not list yet and where an error of the parse
 * stands at a spaced launch's opening (ss_launch_spacing_at: clang's "expected expression" at
 * the third '<'), with its launches rewritten. Returns how many files had any rewritten. A
 * parse without errors costs nothing more; a file's text is looked up once for the errors
 * that follow each other in it. */
static size_t respace_erring_files(CXTranslationUnit tu, respaced *set)
{
    size_t added = 0;
    CXFile last = NULL;
    const char *text = NULL;
    size_t size = 0;
    unsigned n = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        CXFile file = NULL;
        unsigned offset = 0;
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error)
            clang_getFileLocation(clang_getDiagnosticLocation(d), &file, NULL, NULL, &offset);
        clang_disposeDiagnostic(d);
        if (file == NULL)
            continue;
        if (last == NULL || !clang_File_isEqual(last, file)) {
            text = clang_getFileContents(tu, file, &size);
            last = file;
        }
        if (text == NULL || !ss_launch_spacing_at(text, size, offset))
            continue;
        CXString fname = clang_getFileName(file);
        const char *name = clang_getCString(fname);
        int listed = 1;
        if (name)
            respaced_find(set, name, &listed);
        if (!listed)
            added += (size_t)respaced_add(set, name, text, size, 1);
        clang_disposeString(fname);
    }
    return added;
}

/* The analyzer's in-memory headers, the main file's text when it is not read from disk (every
 * reader of the source, tokens, provenance, fix-its, quoted text, asks libclang for it), and
 * the rewritten files of 'set' (may be NULL), as unsaved files for libclang; '*count' of them,
 * malloc'ed (the texts are borrowed). */
static struct CXUnsavedFile *unsaved_files(const ss_tu_input *in, const respaced *set,
                                           unsigned *count)
{
    unsigned nvirtual;
    const struct CXUnsavedFile *virtual_files = ss_toolkit_virtual_files(&nvirtual);
    size_t nset = set ? set->count : 0;
    struct CXUnsavedFile *unsaved = ss_xcalloc(nvirtual + 1 + nset, sizeof *unsaved);
    memcpy(unsaved, virtual_files, nvirtual * sizeof *unsaved);
    unsigned n = nvirtual;
    int listed = 0;
    if (in->text && !(set && respaced_find(set, in->file, &listed))) {
        unsaved[n].Filename = in->file;
        unsaved[n].Contents = in->text;
        unsaved[n].Length = (unsigned long)in->text_len;
        n++;
    }
    for (size_t i = 0; i < nset; i++) {
        if (set->v[i].text) {
            unsaved[n].Filename = set->v[i].name;
            unsaved[n].Contents = set->v[i].text;
            unsaved[n].Length = (unsigned long)set->v[i].size;
            n++;
        }
    }
    *count = n;
    return unsaved;
}

/* Parses 'in' into '*tu', with the files of 'set' (may be NULL) as rewritten. Returns
 * libclang's error code. */
static enum CXErrorCode parse_unit(CXIndex index, const ss_tu_input *in, const respaced *set,
                                   CXTranslationUnit *tu)
{
    unsigned nunsaved;
    struct CXUnsavedFile *unsaved = unsaved_files(in, set, &nunsaved);
    unsigned options =
        CXTranslationUnit_KeepGoing | CXTranslationUnit_IgnoreNonErrorsFromIncludedFiles;
    enum CXErrorCode rc = CXError_Failure;
    *tu = NULL;
    if (input_accepted(index, in))
        rc = clang_parseTranslationUnit2(index, in->file, (const char *const *)in->args->v,
                                         (int)in->args->count, unsaved, nunsaved, options, tu);
    free(unsaved);
    return rc;
}

/* The number of errors of the parse 'tu'; UINT_MAX when clang stopped at its error limit
 * ("too many errors emitted", the one fatal error under KeepGoing): the rest of the unit was
 * not parsed, and the count says nothing of it. */
static unsigned count_errors(CXTranslationUnit tu)
{
    unsigned errors = 0, n = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n && errors < UINT_MAX; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
        errors = sev == CXDiagnostic_Fatal ? UINT_MAX : errors + (sev == CXDiagnostic_Error);
        clang_disposeDiagnostic(d);
    }
    return errors;
}

/* After a parse ('tu') with errors at spaced launches ('k << <g, b >> >(a)', which nvcc reads
 * as '<<<' and '>>>'): parses the unit anew with those files, and every other file it read
 * that has spaced launches (not the system headers), given to libclang as unsaved files whose
 * launches are rewritten in place (docs/lint.md, "Launches written '<< <' ... '>> >'"), and
 * again while the new parse has such errors in files not rewritten yet (up to 4 parses; a
 * file clang did not read in the first parse, which stopped at its error limit). A new parse, not
 * clang_reparseTranslationUnit: after a parse that reached the error limit, a re-parse keeps
 * its "too many errors emitted" (libclang 14 to 16). Keeps the last parse when it has fewer
 * errors than the first, or the first stopped at the error limit. Returns the unit to analyze and
 * the files rewritten in it in 'set'; NULL (and 'set' empty) when the unit is to be parsed as it is
 * again. */
static CXTranslationUnit respace_launches(CXIndex index, CXTranslationUnit tu,
                                          const ss_tu_input *in, respaced *set)
{
    if (respace_erring_files(tu, set) == 0) {
        respaced_truncate(set, 0);
        return tu;
    }
    /* The errors clang reported need not be all there are (an error limit given with
     * --extra-arg, a missing header): every other file of the unit with spaced launches is
     * rewritten too. */
    respace_walk walk = {in, set};
    clang_getInclusions(tu, respace_inclusion, &walk);
    unsigned first_errors = count_errors(tu);
    clang_disposeTranslationUnit(tu);
    tu = NULL;
    for (int parses = 1; parses <= 4; parses++) {
        size_t applied = set->count;
        enum CXErrorCode rc = parse_unit(index, in, set, &tu);
        if (rc != CXError_Success || tu == NULL || respace_erring_files(tu, set) == 0 ||
            parses == 4) {
            respaced_truncate(set, applied);
            break;
        }
        clang_disposeTranslationUnit(tu);
        tu = NULL;
    }
    if (tu && (first_errors == UINT_MAX || count_errors(tu) < first_errors))
        return tu;
    if (tu)
        clang_disposeTranslationUnit(tu);
    respaced_truncate(set, 0);
    return NULL;
}

/* After a parse of rewritten files ('set'): the findings from 'first' on in 'out' that stand in
 * one of them quote its line as written, not as rewritten; with --verbose, says which files
 * were read so. */
static void respaced_report(const respaced *set, const ss_tu_input *in, ss_result *out,
                            size_t first)
{
    char *list = NULL;
    size_t launches = 0;
    for (size_t i = 0; i < set->count; i++) {
        launches += set->v[i].launches;
        if (set->v[i].text == NULL)
            continue;
        char *shown = ss_path_display(set->v[i].name);
        for (size_t k = first; k < out->count; k++) {
            ss_finding *f = &out->findings[k];
            char *line = f->file && strcmp(f->file, shown) == 0
                             ? ss_text_line(set->v[i].original, set->v[i].size, f->line)
                             : NULL;
            if (line) {
                free(f->line_text);
                f->line_text = line;
            }
        }
        char *grown = list ? ss_xasprintf("%s, %s", list, shown) : ss_xstrdup(shown);
        free(list);
        list = grown;
        free(shown);
    }
    if (list && in->verbose) {
        char *unit = ss_path_display(in->file);
        ss_log_note("%s: parsed again with %zu kernel launch%s written '<< <' ... '>> >' read as "
                    "'<<<' ... '>>>', in %s",
                    unit, launches, launches == 1 ? "" : "es", list);
        free(unit);
    }
    free(list);
}

int ss_tu_analyze(CXIndex index, const ss_tu_input *in, ss_result *out, ss_tu_files *files,
                  ss_tu_streams *streams)
{
    CXTranslationUnit tu = NULL;
    respaced set = {0};
    enum CXErrorCode rc = parse_unit(index, in, NULL, &tu);
    if (rc == CXError_Success && tu) {
        tu = respace_launches(index, tu, in, &set);
        if (tu == NULL)
            rc = parse_unit(index, in, NULL, &tu);
    }
    if (rc != CXError_Success || tu == NULL) {
        char *path = ss_path_display(in->file);
        char *message = rejected_command(index, in, rc);
        ss_result_add_diag(out, SS_SEV_ERROR, path, 0, 0, message);
        free(message);
        free(path);
        return -1;
    }
    size_t first_diag = out->diag_count, first_finding = out->count;
    int fatal = collect_diagnostics(tu, in->file, out);
    if (fatal)
        explain_unbuilt(tu, in, out, first_diag);
    analyze_unit(tu, in, out, files, streams);
    respaced_report(&set, in, out, first_finding);
    respaced_truncate(&set, 0);
    ss_ast_forget_unit();
    clang_disposeTranslationUnit(tu);
    return fatal ? 1 : 0;
}
