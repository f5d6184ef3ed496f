/* analyzer.c: `syncscope lint` end to end: finds the translation units (files, folders,
 * compile_commands.json), checks that each is a readable text source, runs the
 * per-translation-unit analysis over them on worker threads (or takes it from the cache),
 * and merges, configures and suppresses the findings in a stable order. */
#include "analyzer.h"
#include "cache.h"
#include "compdb.h"
#include "files.h"
#include "flags.h"
#include "log.h"
#include "path.h"
#include "stack.h"
#include "tu.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* One translation unit to analyze. */
typedef struct job {
    char *file;                        /* absolute path */
    const ss_compile_command *command; /* its compile_commands.json entry, or NULL */
    unsigned readback_bytes;           /* the file's effective readback-bytes */
    char **hot_functions;              /* the file's effective hot-functions (owned) */
    size_t hot_count;
    int skip;          /* 0, or why it is not parsed (an ss_skip_reason) */
    int from_folder;   /* found by a folder walk (not named, not listed) */
    char *included_by; /* folder walk: another source #includes it, or NULL */
    int status;        /* as ss_tu_analyze returns it */
    int started;
    int finished;
    struct timespec began; /* when a worker took it (CLOCK_MONOTONIC) */
    ss_result result;      /* this unit's findings and diagnostics */
    ss_args args;          /* its clang arguments, made before the workers start */
    ss_flags_info info;
    size_t user_begin, extra_begin, extra_end; /* as in ss_tu_input */
    char *args_error; /* why its command line could not be read whole, or NULL */
    const char *text; /* the source read from standard input (not owned), or NULL */
    size_t text_len;
    ss_tu_streams streams; /* what the other units need to know of its streams */
} job;

typedef struct job_list {
    job *v;
    size_t count, cap;
} job_list;

static void add_job(job_list *jobs, const char *file, const ss_compile_command *command)
{
    for (size_t i = 0; i < jobs->count; i++) {
        if (strcmp(jobs->v[i].file, file) == 0)
            return;
    }
    if (jobs->count == jobs->cap) {
        jobs->cap = jobs->cap ? jobs->cap * 2 : 32;
        job *grown = ss_xreallocarray(jobs->v, jobs->cap, sizeof *grown);
        jobs->v = grown;
    }
    job *j = &jobs->v[jobs->count++];
    memset(j, 0, sizeof *j);
    j->file = ss_xstrdup(file);
    j->command = command;
    ss_result_init(&j->result, SS_RESULT_LINT);
}

static void free_jobs(job_list *jobs)
{
    for (size_t i = 0; i < jobs->count; i++) {
        free(jobs->v[i].file);
        ss_result_free(&jobs->v[i].result);
        ss_args_free(&jobs->v[i].args);
        ss_tu_streams_free(&jobs->v[i].streams);
        free(jobs->v[i].args_error);
        free(jobs->v[i].included_by);
        for (size_t k = 0; k < jobs->v[i].hot_count; k++)
            free(jobs->v[i].hot_functions[k]);
        free(jobs->v[i].hot_functions);
    }
    free(jobs->v);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* Whether 'path' names a header (.h, .hh, .hpp, .hxx, .cuh...): in a folder walk, headers
 * are analyzed through the files that include them, not on their own. */
static int is_header(const char *path)
{
    static const char *const exts[] = {".h", ".hh", ".hpp", ".hxx", ".h++", ".cuh", ".inl"};
    const char *dot = strrchr(path, '.');
    if (dot == NULL || strchr(dot, '/'))
        return 0;
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
        if (strcmp(dot, exts[i]) == 0)
            return 1;
    }
    return 0;
}

/* Adds every source under 'dir' (sorted, hidden folders and headers skipped). Returns how
 * many; counts the headers seen in *headers. */
static size_t scan_folder(const char *dir, const ss_compdb *db, job_list *jobs, size_t *headers)
{
    struct dirent **entries = NULL;
    int n = scandir(dir, &entries, NULL, by_name);
    size_t added = 0;
    for (int i = 0; i < n; i++) {
        const char *name = entries[i]->d_name;
        if (name[0] != '.') {
            char *path = ss_xasprintf("%s/%s", dir, name);
            struct stat st;
            ss_lang lang;
            if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
                added += scan_folder(path, db, jobs, headers);
            } else if (S_ISREG(st.st_mode) && ss_flags_lang_of(path, &lang) == 0) {
                if (is_header(path)) {
                    (*headers)++;
                } else {
                    size_t before = jobs->count;
                    add_job(jobs, path, db ? ss_compdb_find(db, path) : NULL);
                    if (jobs->count > before)
                        jobs->v[before].from_folder = 1;
                    added++;
                }
            }
            free(path);
        }
        free(entries[i]);
    }
    free(entries);
    return added;
}

/* The offset of the first byte that is not valid UTF-8, or 'len' when all are. */
static size_t utf8_invalid_at(const unsigned char *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        unsigned char c = s[i];
        size_t need;
        if (c < 0x80)
            need = 0;
        else if (c >= 0xC2 && c <= 0xDF)
            need = 1;
        else if (c >= 0xE0 && c <= 0xEF)
            need = 2;
        else if (c >= 0xF0 && c <= 0xF4)
            need = 3;
        else
            return i;
        if (i + need >= len + (need == 0))
            return i;
        for (size_t k = 1; k <= need; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return i;
        }
        i += need + 1;
    }
    return len;
}

/* Calls 'fn'('name', 'len', 'quoted', 'line', 'context') for each '#include "NAME"' and
 * '#include <NAME>' line of 'text' ('len' bytes; a '#' first on the line, as the
 * preprocessor wants it). Lines are not looked at in comments or #if blocks: a cheap look at
 * the file's own lines, not a preprocessor. */
typedef void (*include_fn)(const char *name, size_t len, int quoted, unsigned line, void *context);
static void scan_includes(const char *text, size_t len, include_fn fn, void *context)
{
    unsigned line = 1;
    for (const char *p = text; p && p < text + len; line++) {
        const char *end = memchr(p, '\n', (size_t)(text + len - p));
        end = end ? end : text + len;
        const char *q = p + strspn(p, " \t");
        if (q < end && *q == '#') {
            q++;
            q += strspn(q, " \t");
            if ((size_t)(end - q) > 8 && strncmp(q, "include", 7) == 0) {
                q += 7;
                q += strspn(q, " \t");
                char closer = *q == '"' ? '"' : *q == '<' ? '>' : '\0';
                const char *close =
                    closer && q + 1 < end ? memchr(q + 1, closer, (size_t)(end - q - 1)) : NULL;
                if (close)
                    fn(q + 1, (size_t)(close - q - 1), closer == '"', line, context);
            }
        }
        p = end + 1;
    }
}

/* The path of '#include "NAME"' in 'includer' as looked for first: beside the includer.
 * Malloc'ed. */
static char *beside(const char *includer, const char *name, size_t len)
{
    const char *slash = strrchr(includer, '/');
    return ss_xasprintf("%.*s/%.*s", (int)(slash ? slash - includer : 0), includer, (int)len, name);
}

/* The context of note_included: the jobs, and the one whose lines are scanned. */
typedef struct includer_scan {
    job_list *jobs;
    size_t includer;
} includer_scan;

/* A quoted include of the scanned job that names another job found by the folder walk marks
 * that job 'included_by' the scanned one. */
static void note_included(const char *name, size_t len, int quoted, unsigned line, void *context)
{
    (void)line;
    includer_scan *scan = context;
    job_list *jobs = scan->jobs;
    if (!quoted)
        return;
    char *path = beside(jobs->v[scan->includer].file, name, len);
    char *real = realpath(path, NULL);
    free(path);
    for (size_t k = 0; real && k < jobs->count; k++) {
        if (strcmp(jobs->v[k].file, real) == 0) {
            if (k != scan->includer && jobs->v[k].from_folder && jobs->v[k].included_by == NULL)
                jobs->v[k].included_by = ss_xstrdup(jobs->v[scan->includer].file);
            break;
        }
    }
    free(real);
}

/* Folder walks: a source that another source #includes ('#include "kernel.cu"', common in
 * benchmark suites) is analyzed through its includer, not on its own, where it would lack
 * what the includer defines first. Marks such jobs 'included_by'. */
static void mark_included(job_list *jobs)
{
    for (size_t i = 0; i < jobs->count; i++) {
        size_t len = 0;
        char *text = ss_read_file(jobs->v[i].file, &len);
        includer_scan scan = {jobs, i};
        if (text)
            scan_includes(text, len, note_included, &scan);
        free(text);
    }
}

/* Folder walks: leaves out the sources another source #includes and, with a compile
 * database, those it does not list (headers, sources of targets not configured, generated
 * copies); counts them in *included and *unlisted, and says so with --verbose. */
static void skip_folder_extras(const ss_lint_options *o, int have_db, job_list *jobs,
                               size_t *included, size_t *unlisted)
{
    mark_included(jobs);
    /* The CUDA sources the database leaves out: CMake's old FindCUDA (cuda_add_library)
     * lists a target's .cpp files and none of its .cu files, so lint would see none of the
     * CUDA code without a word. */
    size_t cu_unlisted = 0;
    char *cu_named[2] = {NULL, NULL};
    for (size_t i = 0; i < jobs->count; i++) {
        job *j = &jobs->v[i];
        if (!j->from_folder || j->skip)
            continue;
        char *shown = NULL;
        if (j->included_by) {
            j->skip = SS_SKIP_INCLUDED;
            (*included)++;
            if (o->verbose) {
                shown = ss_path_display(j->file);
                char *by = ss_path_display(j->included_by);
                ss_log_note("%s: not analyzed on its own: %s #includes it", shown, by);
                free(by);
            }
        } else if (have_db && j->command == NULL) {
            j->skip = SS_SKIP_UNLISTED;
            (*unlisted)++;
            size_t len = strlen(j->file);
            if (len > 3 && strcmp(j->file + len - 3, ".cu") == 0 && cu_unlisted++ < 2)
                cu_named[cu_unlisted - 1] = ss_path_display(j->file);
            if (o->verbose) {
                shown = ss_path_display(j->file);
                ss_log_note("%s: not analyzed: the compile database does not list it", shown);
            }
        }
        free(shown);
    }
    if (cu_unlisted > 0) {
        char *more = cu_unlisted > 2 ? ss_xasprintf(" and %zu more", cu_unlisted - 2) : NULL;
        ss_log_warning("%zu .cu file%s under the linted folders %s not in the compile database, "
                       "so %s CUDA code is not analyzed: %s%s%s%s (CMake's FindCUDA "
                       "cuda_add_library leaves a target's .cu files out; CMake's CUDA language "
                       "lists them)",
                       cu_unlisted, cu_unlisted == 1 ? "" : "s", cu_unlisted == 1 ? "is" : "are",
                       cu_unlisted == 1 ? "its" : "their", cu_named[0],
                       cu_named[1] ? (cu_unlisted == 2 ? " and " : ", ") : "",
                       cu_named[1] ? cu_named[1] : "", more ? more : "");
        free(more);
    }
    free(cu_named[0]);
    free(cu_named[1]);
}

/* The context of note_special_include: the file scanned, and whether a line was refused. */
typedef struct special_scan {
    const char *file;  /* absolute */
    const char *shown; /* as shown to the user */
    int refused;
} special_scan;

/* libclang reads a header to its end whatever its size says: an #include of /dev/zero would
 * fill memory, one of a FIFO would wait for a writer. The include lines of the main file that
 * name such a file by an absolute path, or in quotes beside the file (where a quoted name is
 * looked for first), are refused here with their line; others are left to the guard. */
static void note_special_include(const char *name, size_t len, int quoted, unsigned line,
                                 void *context)
{
    special_scan *scan = context;
    if (scan->refused || len == 0 || (name[0] != '/' && !quoted))
        return;
    char *path =
        name[0] == '/' ? ss_xasprintf("%.*s", (int)len, name) : beside(scan->file, name, len);
    struct stat st;
    const char *kind = stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)
                           ? ss_file_kind(st.st_mode)
                           : NULL;
    if (kind) {
        ss_log_error("%s:%u: cannot #include '%.*s': not a regular file (%s)", scan->shown, line,
                     (int)len, name, kind);
        scan->refused = 1;
    }
    free(path);
}

/* File checks before parsing, of the file 'path' or of 'given' ('given_len' bytes: the
 * source read from standard input) when not NULL. Returns 0 to analyze, 1 to skip (noted),
 * -1 when the file is not a text source, or includes what is not a regular file (message
 * printed). */
static int check_content(const char *path, const char *given, size_t given_len, ss_result *out)
{
    size_t len = given_len;
    char *text = NULL;
    if (given) {
        text = ss_xmalloc(len + 1);
        memcpy(text, given, len);
        text[len] = '\0';
    } else {
        text = ss_read_file(path, &len);
    }
    if (text == NULL) {
        ss_log_error("cannot read '%s': %s", path, ss_file_error());
        return -1;
    }
    int rc = 0;
    char *shown = ss_path_display(path);
    const char *nul = memchr(text, '\0', len);
    if (len == 0) {
        ss_result_add_diag(out, SS_SEV_NOTE, shown, 0, 0, "empty file: nothing to analyze");
        rc = 1;
    } else if (nul) {
        ss_log_error("'%s' is not a text source file (NUL byte at offset %zu)", shown,
                     (size_t)(nul - text));
        rc = -1;
    } else {
        special_scan scan = {path, shown, 0};
        scan_includes(text, len, note_special_include, &scan);
        if (scan.refused) {
            free(shown);
            free(text);
            return -1;
        }
        size_t bad = utf8_invalid_at((const unsigned char *)text, len);
        if (bad < len) {
            unsigned line = 1;
            for (size_t i = 0; i < bad; i++)
                line += text[i] == '\n';
            char *msg = ss_xasprintf("invalid UTF-8 at line %u (byte offset %zu); the file is "
                                     "analyzed as raw bytes",
                                     line, bad);
            ss_result_add_diag(out, SS_SEV_WARNING, shown, line, 0, msg);
            free(msg);
        }
    }
    free(shown);
    free(text);
    return rc;
}

/* The job of the source read from standard input, analyzed as the file named 'name', which
 * need not exist. Returns 0, or -1 (message printed). */
static int collect_stdin(const ss_lint_options *o, const char *name, const ss_compdb *db,
                         job_list *jobs)
{
    char *real = ss_path_real_or_named(name);
    struct stat st;
    ss_lang lang;
    if (real == NULL) {
        ss_log_error("--stdin-filename '%s': its folder cannot be resolved: %s", name,
                     strerror(errno));
        return -1;
    }
    if ((stat(real, &st) == 0 && !S_ISREG(st.st_mode)) || ss_flags_lang_of(real, &lang) != 0) {
        ss_log_error("--stdin-filename '%s' is not a C, C++ or CUDA source file name", name);
        free(real);
        return -1;
    }
    add_job(jobs, real, db ? ss_compdb_find(db, real) : NULL);
    jobs->v[jobs->count - 1].text = o->stdin_text;
    jobs->v[jobs->count - 1].text_len = o->stdin_len;
    free(real);
    return 0;
}

/* Gathers the jobs. Returns 0, or -1 (message printed). */
static int collect(const ss_lint_options *o, const ss_compdb *db, job_list *jobs)
{
    if (o->stdin_text)
        return o->input_count == 1 ? collect_stdin(o, o->inputs[0], db, jobs) : -1;
    for (size_t i = 0; i < o->input_count; i++) {
        const char *input = o->inputs[i];
        struct stat st;
        if (stat(input, &st) != 0) {
            ss_log_error("cannot read '%s': %s", input, strerror(errno));
            /* Only an operand after "--" starts with '-': the options were meant to precede it
             * (pre-commit puts a hook's args after its entry, which ends in "--"). */
            if (input[0] == '-' && input[1] != '\0')
                ss_log_note("'%s' came after '--', which ends the options: it was read as a "
                            "file; options go before '--'",
                            input);
            return -1;
        }
        char *real = realpath(input, NULL);
        if (real == NULL) {
            ss_log_error("cannot resolve '%s': %s", input, strerror(errno));
            return -1;
        }
        if (S_ISDIR(st.st_mode)) {
            size_t headers = 0;
            if (scan_folder(real, db, jobs, &headers) == 0) {
                if (headers)
                    ss_log_error("no C, C++ or CUDA sources under '%s', only headers (a header "
                                 "is analyzed through the files that include it, or when "
                                 "named on the command line)",
                                 input);
                else
                    ss_log_error("no C, C++ or CUDA sources under '%s' (looked for .cu, .cuh, "
                                 ".c, .cc, .cpp, .cxx and headers)",
                                 input);
                free(real);
                return -1;
            }
        } else {
            ss_lang lang;
            if (!S_ISREG(st.st_mode) || ss_flags_lang_of(real, &lang) != 0) {
                ss_log_error("'%s' is not a C, C++ or CUDA source file (by its name)", input);
                free(real);
                return -1;
            }
            add_job(jobs, real, db ? ss_compdb_find(db, real) : NULL);
        }
        free(real);
    }
    if (o->input_count == 0 && db) {
        for (size_t i = 0; i < db->count; i++) {
            ss_lang lang;
            if (ss_flags_lang_of(db->commands[i].file, &lang) == 0)
                add_job(jobs, db->commands[i].file, &db->commands[i]);
        }
        if (jobs->count == 0) {
            ss_log_error("'%s/compile_commands.json' lists no C, C++ or CUDA sources",
                         o->build_dir);
            return -1;
        }
    }
    if (jobs->count == 0) {
        ss_log_error("no input files (name files or folders, or -p BUILD_DIR)");
        return -1;
    }
    return 0;
}

/* Whether 'dir' is a clang resource folder with the CUDA wrapper headers. */
static int is_resource_dir(const char *dir)
{
    char *probe = ss_xasprintf("%s/include/cuda_wrappers/new", dir);
    struct stat st;
    int ok = stat(probe, &st) == 0;
    free(probe);
    return ok;
}

/* clang's resource folder (builtin headers, cuda_wrappers/) for the libclang actually loaded.
 * libclang derives it from the path it was loaded by, and Debian's layout defeats that: the
 * real library lies in /usr/lib/<triple>/ while the folder is /usr/lib/llvm-N/lib/clang/N, so
 * cuda_wrappers/new is missing and Thrust/CUB fail to parse. Tried in order: beside the
 * library as loaded, beside it with links resolved, the folder found at build time, and
 * /usr/lib/llvm-N/lib/clang/N. Malloc'ed, or NULL when none has the wrappers. */
static char *clang_resource_dir(void)
{
    CXString version = clang_getClangVersion();
    const char *v = strstr(clang_getCString(version), "version ");
    int major = v ? atoi(v + 8) : 0;
    clang_disposeString(version);
    if (major <= 0)
        return NULL;
    char *candidates[4] = {NULL, NULL, NULL, NULL};
    Dl_info where;
    if (dladdr((void *)clang_createIndex, &where) != 0 && where.dli_fname != NULL) {
        const char *slash = strrchr(where.dli_fname, '/');
        if (slash != NULL)
            candidates[0] = ss_xasprintf("%.*s/clang/%d", (int)(slash - where.dli_fname),
                                         where.dli_fname, major);
        char *lib = realpath(where.dli_fname, NULL);
        char *rslash = lib ? strrchr(lib, '/') : NULL;
        if (rslash != NULL)
            candidates[1] = ss_xasprintf("%.*s/clang/%d", (int)(rslash - lib), lib, major);
        free(lib);
    }
#ifdef SS_CLANG_RESOURCE_DIR
    candidates[2] = ss_xstrdup(SS_CLANG_RESOURCE_DIR);
#endif
    candidates[3] = ss_xasprintf("/usr/lib/llvm-%d/lib/clang/%d", major, major);
    char *found = NULL;
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
        if (found == NULL && candidates[i] != NULL && is_resource_dir(candidates[i])) {
            found = candidates[i];
            candidates[i] = NULL;
        }
        free(candidates[i]);
    }
    return found;
}

/* Whether the user's own arguments already choose a resource folder. */
static int has_resource_dir(const ss_args *args)
{
    for (size_t i = 0; i < args->count; i++) {
        if (strncmp(args->v[i], "-resource-dir", 13) == 0)
            return 1;
    }
    return 0;
}

/* Makes the clang arguments of one job: the compile command's response files expanded and
 * its arguments translated (what the allow-list drops and --remove-arg names left out, and
 * said with --verbose), the toolkit's arguments, the --extra-arg values. */
static void job_args(job *j, const ss_lint_options *o, const ss_toolkit *toolkit,
                     const char *resource_dir)
{
    ss_args translated = {0}, dropped = {0};
    ss_flags_info *info = &j->info;
    if (j->command) {
        ss_args expanded = {0};
        char err[1024];
        if (ss_compdb_expand(&j->command->argv, j->command->directory, &expanded, err,
                             sizeof err) != 0)
            j->args_error = ss_xstrdup(err);
        ss_flags_filter filter = {o->remove_args, o->remove_arg_count,
                                  o->verbose ? &dropped : NULL};
        ss_flags_translate_filtered(&expanded, j->file, j->command->directory, &filter, &translated,
                                    info);
        ss_args_free(&expanded);
    } else {
        memset(info, 0, sizeof *info);
        info->lang = SS_LANG_CXX;
        ss_flags_lang_of(j->file, &info->lang);
    }
    ss_flags_scan(o->extra_args, o->extra_arg_count, info);
    ss_args *args = &j->args;
    ss_toolkit_args(toolkit, info->lang, args);
    /* Warnings are not reported; relative paths were made absolute during translation
     * (clang's -working-directory would change the whole process's directory). */
    ss_args_push(args, "-w");
    j->user_begin = args->count;
    for (size_t i = 0; i < translated.count; i++)
        ss_args_push(args, translated.v[i]);
    j->extra_begin = args->count;
    for (size_t i = 0; i < o->extra_arg_count; i++)
        ss_args_push(args, o->extra_args[i]);
    j->extra_end = args->count;
    ss_toolkit_search_args(toolkit, info->lang, args);
    if (resource_dir && !has_resource_dir(args)) {
        char *flag = ss_xasprintf("-resource-dir=%s", resource_dir);
        ss_args_push(args, flag);
        free(flag);
        /* clang's own omp.h (libomp-N-dev, in the resource folder of LLVM 14) declares
         * omp_is_initial_device twice, for host and device, in 'declare variant' blocks that
         * only -fopenmp (which lint leaves out: flags.c) keeps apart: where it is there, the
         * fallback omp.h is searched before it (after the command's own -isystem folders). */
        char *omp = ss_xasprintf("%s/include/omp.h", resource_dir);
        if (access(omp, F_OK) == 0) {
            ss_args_push(args, "-isystem");
            ss_args_push(args, SS_VIRTUAL_INCLUDE "/openmp-first");
        }
        free(omp);
    }
    if (o->verbose) {
        char *shown = ss_path_display(j->file);
        for (size_t i = 0; i < dropped.count; i++)
            ss_log_note("%s: dropped %s", shown, dropped.v[i]);
        if (j->command) {
            char *kept = ss_flags_shown((const char *const *)translated.v, translated.count);
            ss_log_note("%s: arguments from the compile command: %s", shown,
                        translated.count ? kept : "(none)");
            free(kept);
        }
        /* Every argument lint adds itself, and where: the command's own come in between. */
        char *before = ss_flags_shown((const char *const *)args->v, j->user_begin);
        char *after =
            ss_flags_shown((const char *const *)args->v + j->extra_end, args->count - j->extra_end);
        ss_log_note("%s: arguments lint adds before them: %s", shown, before);
        ss_log_note("%s: arguments lint adds after them: %s", shown, after);
        free(before);
        free(after);
        free(shown);
    }
    ss_args_free(&translated);
    ss_args_free(&dropped);
}

/* What the workers share. */
typedef struct run_state {
    const ss_lint_options *options;
    const ss_toolkit *toolkit;
    const char *resource_dir; /* clang's resource folder, or NULL */
    char *build_dir;          /* -p BUILD_DIR, absolute, or NULL */
    job_list *jobs;
    ss_cache *cache;
    pthread_mutex_t lock;
    size_t next;    /* the next job to start */
    int keep_going; /* analyze every unit after one with parse errors (all but --fail-fast) */
    size_t stop;    /* with --fail-fast: the first job with parse errors (count: none) */
    size_t done;    /* jobs finished, for the progress line */
    size_t total;   /* jobs to parse, for the progress line */
    size_t parsed, cached;
    struct timespec started;
    /* The guard (below): its bounds, and its wake-up for the end of the run. */
    uint64_t max_memory;    /* bytes, or SS_LINT_NO_LIMIT */
    uint64_t parse_timeout; /* seconds per unit, or SS_LINT_NO_LIMIT */
    pthread_cond_t guard_wake;
    int workers_done;
} run_state;

static double seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/* Redraws the progress line (the caller holds the lock). */
static void show_progress(run_state *st, const char *current)
{
    if (!st->options->progress)
        return;
    char *shown = current ? ss_path_display(current) : NULL;
    fprintf(stderr, "\r\033[K[%zu/%zu] %.1fs %s", st->done, st->total, seconds_since(&st->started),
            shown ? shown : "");
    fflush(stderr);
    free(shown);
}

/* The guard. libclang reads a header to its end, whatever its size says (it treats the user's
 * files as volatile): a header that is /dev/zero, or a link to it, fills memory without end,
 * and one that is a FIFO waits for a writer forever. A parse cannot be interrupted from
 * outside, and a thread inside libclang cannot be stopped safely, so a guard thread samples
 * the resident memory of the process and the time of each unit being parsed, and past a bound
 * names the file and ends the process. */
#define GUARD_PERIOD_NS 100000000L /* 0.1 s between samples */
#define GUARD_EXIT_STATUS 2        /* the tool-error status of the command line */

/* Reads at most 'size' - 1 bytes of the small system file 'path' (/proc, /sys) into 'buf'
 * with a NUL after them. Returns 0, or -1 when it cannot be read. */
static int read_small(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    return 0;
}

/* The resident memory of this process in bytes (/proc/self/statm), or 0 when unknown. */
static uint64_t resident_bytes(void)
{
    char buf[256];
    unsigned long long size, resident;
    long page = sysconf(_SC_PAGESIZE);
    if (read_small("/proc/self/statm", buf, sizeof buf) != 0 ||
        sscanf(buf, "%llu %llu", &size, &resident) != 2)
        return 0;
    return (uint64_t)resident * (uint64_t)(page > 0 ? page : 4096);
}

/* The memory this process may use: the machine's (MemTotal), or the limit of its control
 * group (cgroup v2 memory.max: a container's) when that is less. 0 when unknown. */
static uint64_t memory_available(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t total = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
    char group[512], limit[64];
    if (read_small("/proc/self/cgroup", group, sizeof group) == 0 &&
        strncmp(group, "0::", 3) == 0) {
        group[strcspn(group, "\n")] = '\0';
        char *path = ss_xasprintf("/sys/fs/cgroup%s/memory.max",
                                  strcmp(group + 3, "/") == 0 ? "" : group + 3);
        char *end = NULL;
        unsigned long long bytes = 0;
        if (read_small(path, limit, sizeof limit) == 0)
            bytes = strtoull(limit, &end, 10);
        if (end != NULL && end != limit && bytes > 0 && (total == 0 || bytes < total))
            total = bytes;
        free(path);
    }
    return total;
}

/* The default memory bound for 'workers' threads: 8 GiB, or 2 GiB per worker when that is
 * more (a large unit under libclang takes about one), but at most three quarters of the
 * memory available (past that, the system would swap or kill the process without a word). */
static uint64_t default_max_memory(unsigned workers)
{
    uint64_t bound = 8ull << 30;
    if ((uint64_t)workers * (2ull << 30) > bound)
        bound = (uint64_t)workers * (2ull << 30);
    uint64_t available = memory_available();
    if (available > 0 && bound > available / 4 * 3)
        bound = available / 4 * 3;
    return bound;
}

/* 'bytes' for a message: "8 GiB", "1.5 GiB", "512 MiB", "4096 bytes". Returns 'out'. */
static const char *size_words(uint64_t bytes, char *out, size_t size)
{
    static const struct {
        unsigned shift;
        const char *unit;
    } units[] = {{40, "TiB"}, {30, "GiB"}, {20, "MiB"}, {10, "KiB"}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        uint64_t one = 1ull << units[i].shift;
        if (bytes < one)
            continue;
        if (bytes % one == 0)
            snprintf(out, size, "%llu %s", (unsigned long long)(bytes / one), units[i].unit);
        else
            snprintf(out, size, "%.1f %s", (double)bytes / (double)one, units[i].unit);
        return out;
    }
    snprintf(out, size, "%llu bytes", (unsigned long long)bytes);
    return out;
}

/* Ends the process because a bound was passed: the memory bound when 'resident' (the memory
 * measured) is not 0, else the time bound by unit 'j'. 'j' is the unit being parsed longest
 * (NULL when none was). Says which, and that nothing was written. The caller holds the lock,
 * so that no progress line is drawn meanwhile. Does not return. */
static void guard_stop(run_state *st, const job *j, uint64_t resident)
{
    if (st->options->progress)
        fputs("\r\033[K", stderr);
    char *shown = j ? ss_path_display(j->file) : NULL;
    const char *option;
    if (resident > 0) {
        char bound[32];
        size_words(st->max_memory, bound, sizeof bound);
        if (shown)
            ss_log_error("%s: parsing stopped: memory use passed %s (a header that never ends, "
                         "such as an #include of a device file?)",
                         shown, bound);
        else
            ss_log_error("lint stopped: memory use passed %s", bound);
        /* The memory is the process's: any unit parsed at the same time may have taken it. */
        char others[1024] = "";
        size_t used = 0;
        for (size_t i = 0; i < st->next && i < st->jobs->count; i++) {
            const job *other = &st->jobs->v[i];
            if (other == j || !other->started || other->finished || used >= sizeof others)
                continue;
            char *name = ss_path_display(other->file);
            used += (size_t)snprintf(others + used, sizeof others - used, "%s%s", used ? ", " : "",
                                     name);
            free(name);
        }
        if (used)
            ss_log_note("being parsed at the same time: %s (-j 1 tells which one it was)", others);
        option = "--max-memory SIZE sets the bound";
    } else {
        ss_log_error("%s: parsing stopped: it took longer than %llu s (a header that never "
                     "arrives, such as an #include of a FIFO?)",
                     shown, (unsigned long long)st->parse_timeout);
        option = "--parse-timeout SECONDS sets the bound";
    }
    ss_log_note("nothing was written: no report, no baseline (libclang cannot be stopped in "
                "the middle of a parse); %s, 0 for none",
                option);
    fflush(stderr);
    free(shown);
    /* exit() would run the destructors of libclang's globals under the other workers. */
    _exit(GUARD_EXIT_STATUS);
}

/* The guard thread: every GUARD_PERIOD_NS until the workers are done, the resident memory of
 * the process against max_memory and the oldest unit being parsed against parse_timeout. */
static void *guard(void *data)
{
    run_state *st = data;
    pthread_mutex_lock(&st->lock);
    while (!st->workers_done) {
        struct timespec wake;
        clock_gettime(CLOCK_MONOTONIC, &wake);
        wake.tv_nsec += GUARD_PERIOD_NS;
        if (wake.tv_nsec >= 1000000000L) {
            wake.tv_sec++;
            wake.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&st->guard_wake, &st->lock, &wake);
        if (st->workers_done)
            break;
        pthread_mutex_unlock(&st->lock);
        uint64_t resident = st->max_memory != SS_LINT_NO_LIMIT ? resident_bytes() : 0;
        pthread_mutex_lock(&st->lock);
        const job *oldest = NULL;
        for (size_t i = 0; i < st->next && i < st->jobs->count; i++) {
            const job *j = &st->jobs->v[i];
            if (j->started && !j->finished &&
                (oldest == NULL || j->began.tv_sec < oldest->began.tv_sec ||
                 (j->began.tv_sec == oldest->began.tv_sec &&
                  j->began.tv_nsec < oldest->began.tv_nsec)))
                oldest = j;
        }
        if (st->max_memory != SS_LINT_NO_LIMIT && resident > st->max_memory)
            guard_stop(st, oldest, resident);
        if (oldest && st->parse_timeout != SS_LINT_NO_LIMIT &&
            seconds_since(&oldest->began) > (double)st->parse_timeout)
            guard_stop(st, oldest, 0);
    }
    pthread_mutex_unlock(&st->lock);
    return NULL;
}

/* Appends 'path' with 'hash' to 'files', once. */
static void files_add(ss_tu_files *files, const char *path, uint64_t hash)
{
    for (size_t i = 0; i < files->count; i++) {
        if (strcmp(files->v[i].path, path) == 0)
            return;
    }
    if (files->count == files->cap) {
        files->cap = files->cap ? files->cap * 2 : 16;
        files->v = ss_xreallocarray(files->v, files->cap, sizeof *files->v);
    }
    files->v[files->count].path = ss_xstrdup(path);
    files->v[files->count].hash = hash;
    files->count++;
}

/* Lists, as a folder the entry depends on, the deepest existing folder on the way from 'dir'
 * to 'dir'/'name' (a header that was not found): the header, or a folder on its way,
 * appears there. 'dir' must exist. */
static void watch_missing(ss_tu_files *files, const char *dir, const char *name)
{
    struct stat st;
    if (dir[0] != '/' || strncmp(dir, SS_VIRTUAL_INCLUDE, strlen(SS_VIRTUAL_INCLUDE)) == 0 ||
        stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return;
    char *deepest = ss_xasprintf("%s/", dir);
    const char *slash = name;
    while ((slash = strchr(slash, '/')) != NULL) {
        char *candidate = ss_xasprintf("%s/%.*s/", dir, (int)(slash - name), name);
        if (stat(candidate, &st) != 0 || !S_ISDIR(st.st_mode)) {
            free(candidate);
            break;
        }
        free(deepest);
        deepest = candidate;
        slash++;
    }
    uint64_t hash;
    if (ss_cache_folder_hash(deepest, &hash) == 0)
        files_add(files, deepest, hash);
    else
        files->incomplete = 1;
    free(deepest);
}

/* Lists, as a folder the entry depends on, the deepest existing folder on the way to 'path'
 * (absolute or relative to the working directory), a header that is not there yet: it, or a
 * folder on its way, appears there. */
static void watch_absent(ss_tu_files *files, const char *path)
{
    char cwd[PATH_MAX];
    char *absolute = NULL;
    if (path[0] == '/')
        absolute = ss_xstrdup(path);
    else if (getcwd(cwd, sizeof cwd))
        absolute = ss_xasprintf("%s/%s", cwd, path);
    if (absolute == NULL) {
        files->incomplete = 1;
        return;
    }
    char *dir = ss_xstrdup(absolute);
    struct stat st;
    char *slash;
    while ((slash = strrchr(dir, '/')) != NULL && slash != dir) {
        *slash = '\0';
        if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) {
            watch_missing(files, dir, absolute + strlen(dir) + 1);
            break;
        }
    }
    free(dir);
    free(absolute);
}

/* The folders a unit's headers are searched in: its include options (joined or separate),
 * the resource folder's and the toolkit's include folders, and the usual system folders.
 * Appended (malloc'ed) to 'dirs'. */
static void include_folders(const ss_args *args, ss_args *dirs)
{
    for (size_t i = 0; i < args->count; i++) {
        const char *arg = args->v[i];
        const char *value = ss_flags_include_dir((const char *const *)args->v, args->count, i);
        if (value) {
            /* A relative folder (from --extra-arg) is relative to the working directory. */
            char *real = value[0] ? realpath(value, NULL) : NULL;
            if (real)
                ss_args_push(dirs, real);
            free(real);
        }
        if (strncmp(arg, "-resource-dir=", 14) == 0 || strncmp(arg, "--cuda-path=", 12) == 0) {
            char *inc = ss_xasprintf("%s/include", strchr(arg, '=') + 1);
            ss_args_push(dirs, inc);
            free(inc);
        }
    }
    ss_args_push(dirs, "/usr/local/include");
    ss_args_push(dirs, "/usr/include");
}

/* Makes a unit's result fit for the cache: a unit libclang could not parse at all (status -1)
 * depends on its main file; a unit with a header that was not found also depends on the
 * folders the header could appear in (those of its include path and of the file that
 * included it), so that installing the header re-parses it. Returns 0, or -1 when the
 * result cannot be cached. */
static int watch_failures(const job *j, int status, const ss_result *result, ss_tu_files *files)
{
    if (status < 0) {
        size_t len = 0;
        char *text = ss_read_file(j->file, &len);
        if (text == NULL)
            return -1;
        files_add(files, j->file, ss_hash_bytes(text, len, 0));
        free(text);
    }
    ss_args dirs = {0};
    for (size_t i = 0; i < result->diag_count; i++) {
        const ss_diag *d = &result->diags[i];
        /* A header the build has not made yet (tu.c): making it re-parses the unit. */
        const char *unbuilt = strstr(d->message, " does not exist yet: ");
        if (unbuilt && d->severity == SS_SEV_ERROR) {
            char *header = ss_xasprintf("%.*s", (int)(unbuilt - d->message), d->message);
            watch_absent(files, header);
            free(header);
            continue;
        }
        const char *end = strstr(d->message, "' file not found");
        const char *start = d->message[0] == '\'' ? d->message + 1 : NULL;
        if (end == NULL || start == NULL || end < start)
            continue;
        char *name = ss_xstrdup(start);
        name[end - start] = '\0';
        if (dirs.count == 0)
            include_folders(&j->args, &dirs);
        for (size_t k = 0; k < dirs.count; k++)
            watch_missing(files, dirs.v[k], name);
        /* A quoted include is looked for beside the file that has it first. */
        char *includer = d->file ? realpath(d->file, NULL) : NULL;
        char *slash = includer ? strrchr(includer, '/') : NULL;
        if (slash && slash != includer) {
            *slash = '\0';
            watch_missing(files, includer, name);
        }
        free(includer);
        free(name);
    }
    ss_args_free(&dirs);
    return files->incomplete || files->count == 0 ? -1 : 0;
}

static void run_job(run_state *st, CXIndex index, job *j)
{
    ss_tu_input in = {
        j->file,       &j->args,       &j->info,     j->readback_bytes,
        j->user_begin, j->extra_begin, j->extra_end, (const char *const *)j->hot_functions,
        j->hot_count,  j->text,        j->text_len,  j->command ? j->command->directory : NULL,
        st->build_dir};
    char key[17];
    int from_cache = 0;
    if (st->cache) {
        ss_cache_key(&in, key);
        from_cache = ss_cache_lookup(st->cache, key, &j->result, &j->status, &j->streams);
    }
    if (!from_cache) {
        ss_tu_files files = {0};
        ss_stack_set_unit(j->file);
        j->status = ss_tu_analyze(index, &in, &j->result, st->cache ? &files : NULL, &j->streams);
        ss_stack_set_unit(NULL);
        if (st->cache && watch_failures(j, j->status, &j->result, &files) == 0)
            ss_cache_store(st->cache, key, &files, &j->result, j->status, &j->streams);
        ss_tu_files_free(&files);
    }
    if (j->args_error) {
        /* A response file that could not be read: the command line was not whole. */
        char *shown = ss_path_display(j->file);
        ss_result_add_diag(&j->result, SS_SEV_ERROR, shown, 0, 0, j->args_error);
        free(shown);
        if (j->status == 0)
            j->status = 1;
    }
    pthread_mutex_lock(&st->lock);
    if (from_cache)
        st->cached++;
    else
        st->parsed++;
    st->done++;
    j->finished = 1;
    if (j->status != 0 && !st->keep_going) {
        size_t index_of = (size_t)(j - st->jobs->v);
        if (index_of < st->stop)
            st->stop = index_of;
    }
    show_progress(st, j->file);
    pthread_mutex_unlock(&st->lock);
}

/* A worker: one libclang index, jobs taken in input order until none is left (or, without
 * keep_going, none before the first unit with parse errors). */
static void *worker(void *data)
{
    run_state *st = data;
    CXIndex index = clang_createIndex(0, 0);
    for (;;) {
        pthread_mutex_lock(&st->lock);
        job *j = NULL;
        while (st->next < st->jobs->count && st->next <= st->stop) {
            job *candidate = &st->jobs->v[st->next++];
            if (!candidate->skip) {
                j = candidate;
                j->started = 1;
                clock_gettime(CLOCK_MONOTONIC, &j->began);
                break;
            }
        }
        if (j)
            show_progress(st, j->file);
        pthread_mutex_unlock(&st->lock);
        if (j == NULL)
            break;
        run_job(st, index, j);
    }
    clang_disposeIndex(index);
    return NULL;
}

static unsigned worker_count(const ss_lint_options *o, size_t units)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned n = o->jobs ? o->jobs : (unsigned)(cpus > 0 ? cpus : 1);
    if (n > units)
        n = (unsigned)units;
    return n ? n : 1;
}

/* A set of 64-bit keys (open addressing), for dropping repeated findings and diagnostics. */
typedef struct key_set {
    uint64_t *slots;
    size_t cap, count;
} key_set;

/* Adds 'key'. Returns 1 when it was new, 0 when it was there already. */
static int key_set_add(key_set *set, uint64_t key)
{
    key |= 1; /* 0 marks an empty slot */
    if (2 * (set->count + 1) > set->cap) {
        key_set grown = {ss_xcalloc(set->cap ? set->cap * 2 : 256, sizeof(uint64_t)), 0, 0};
        grown.cap = set->cap ? set->cap * 2 : 256;
        for (size_t i = 0; i < set->cap; i++) {
            if (set->slots[i])
                key_set_add(&grown, set->slots[i]);
        }
        free(set->slots);
        *set = grown;
    }
    size_t i = (size_t)(key % set->cap);
    while (set->slots[i]) {
        if (set->slots[i] == key)
            return 0;
        i = (i + 1) % set->cap;
    }
    set->slots[i] = key;
    set->count++;
    return 1;
}

static uint64_t hash_string(const char *s, uint64_t seed)
{
    return s ? ss_hash_bytes(s, strlen(s) + 1, seed) : ss_hash_bytes("", 0, seed ^ 1);
}

/* Moves the findings and diagnostics of the jobs up to 'last' into 'out' in job order,
 * each finding (rule and position) and each diagnostic once: a header seen by several
 * translation units is reported once. */
static void merge(job_list *jobs, size_t last, ss_result *out)
{
    key_set findings = {0}, diags = {0};
    for (size_t i = 0; i < out->diag_count; i++) {
        const ss_diag *d = &out->diags[i];
        uint64_t h = hash_string(d->message, hash_string(d->file, d->line * 65599ULL + d->column));
        key_set_add(&diags, h);
    }
    for (size_t i = 0; i <= last && i < jobs->count; i++) {
        ss_result *r = &jobs->v[i].result;
        for (size_t k = 0; k < r->count; k++) {
            ss_finding *f = &r->findings[k];
            uint64_t h = hash_string(f->file, ((uint64_t)f->rule << 48) ^
                                                  ((uint64_t)f->line << 20) ^ f->column);
            if (key_set_add(&findings, h)) {
                *ss_result_add(out) = *f;
                memset(f, 0, sizeof *f);
            }
        }
        for (size_t k = 0; k < r->diag_count; k++) {
            const ss_diag *d = &r->diags[k];
            uint64_t h =
                hash_string(d->message, hash_string(d->file, d->line * 65599ULL + d->column));
            if (key_set_add(&diags, h))
                ss_result_add_diag(out, d->severity, d->file, d->line, d->column, d->message);
        }
    }
    free(findings.slots);
    free(diags.slots);
}

static int cmp_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files the policy is applied to: those of the findings of 'out' and the main files
 * 'sources', sorted (a name may repeat). Malloc'ed, each name too; '*count' receives their
 * number. */
static char **policy_files(const ss_result *out, char **sources, size_t source_count, size_t *count)
{
    size_t file_count = 0;
    char **files = ss_xreallocarray(NULL, out->count + source_count + 1, sizeof *files);
    for (size_t i = 0; i < out->count; i++) {
        if (out->findings[i].file)
            files[file_count++] = ss_xstrdup(out->findings[i].file);
    }
    for (size_t i = 0; i < source_count; i++)
        files[file_count++] = ss_xstrdup(sources[i]);
    qsort(files, file_count, sizeof *files, cmp_strings);
    *count = file_count;
    return files;
}

/* Moves finding 'i' of 'from' to 'to', leaving an empty finding behind. */
static void move_finding(ss_result *from, size_t i, ss_result *to)
{
    *ss_result_add(to) = from->findings[i];
    memset(&from->findings[i], 0, sizeof(ss_finding));
}

/* Applies to 'slice', the findings of 'file', the file's own configuration (when it has
 * findings) and then, unless that failed, its suppression comments (whose diagnostics go to
 * 'out'). Returns 0, or -1 (message printed) for a malformed configuration file. */
static int apply_to_file(const ss_lint_options *o, ss_config_cache *configs, const char *file,
                         ss_result *slice, ss_result *out)
{
    char err[2048];
    if (slice->count) {
        ss_config effective;
        if (ss_config_for_path(configs, file, o->config, &effective, err, sizeof err) != 0) {
            ss_log_error("%s", err);
            return -1;
        }
        ss_policy_apply(&effective, slice);
        ss_config_free(&effective);
    }
    ss_suppressions sup;
    /* The source read from standard input has its comments in its text, not in the file. */
    char *stdin_shown = o->stdin_text ? ss_path_display(o->inputs[0]) : NULL;
    int scanned = stdin_shown && strcmp(stdin_shown, file) == 0
                      ? ss_suppress_scan(file, o->stdin_text, o->stdin_len, &sup, out)
                      : ss_suppress_scan_file(file, &sup, out, err, sizeof err);
    free(stdin_shown);
    if (scanned >= 0) {
        ss_suppress_apply(&sup, file, slice);
        ss_suppress_free(&sup);
    }
    return 0;
}

/* Applies, file by file, the file's own configuration and its suppression comments to the
 * sorted findings of 'out'. 'sources' are the analyzed main files (their suppression
 * comments are checked even when they have no finding). Returns 0, or -1 (message printed)
 * for a malformed configuration file. */
static int apply_policy(const ss_lint_options *o, ss_config_cache *configs, char **sources,
                        size_t source_count, ss_result *out)
{
    size_t file_count;
    char **files = policy_files(out, sources, source_count, &file_count);
    ss_result kept;
    ss_result_init(&kept, SS_RESULT_LINT);
    size_t next = 0;
    int rc = 0;
    for (size_t i = 0; i < file_count && rc == 0; i++) {
        if (i > 0 && strcmp(files[i], files[i - 1]) == 0)
            continue;
        const char *file = files[i];
        /* Findings are sorted by file, like 'files'. A finding without a file (none today)
         * is kept as it is. */
        while (next < out->count &&
               (out->findings[next].file == NULL || strcmp(out->findings[next].file, file) < 0))
            move_finding(out, next++, &kept);
        ss_result slice;
        ss_result_init(&slice, SS_RESULT_LINT);
        while (next < out->count && out->findings[next].file &&
               strcmp(out->findings[next].file, file) == 0)
            move_finding(out, next++, &slice);
        rc = apply_to_file(o, configs, file, &slice, out);
        for (size_t k = 0; k < slice.count; k++)
            move_finding(&slice, k, &kept);
        ss_result_free(&slice);
    }
    while (next < out->count)
        move_finding(out, next++, &kept);
    for (size_t i = 0; i < file_count; i++)
        free(files[i]);
    free(files);
    /* Hand the surviving findings back to 'out'. */
    for (size_t i = 0; i < out->count; i++)
        ss_finding_clear(&out->findings[i]);
    free(out->findings);
    out->findings = kept.findings;
    out->count = kept.count;
    out->cap = kept.cap;
    kept.findings = NULL;
    kept.count = kept.cap = 0;
    ss_result_free(&kept);
    return rc;
}

/* Records in 'counts' what became of each job, in input order: not parsed (and why), not
 * reached because the result ends at job 'last', or analyzed (with or without errors). */
static void count_files(const job_list *jobs, size_t last, ss_file_counts *counts)
{
    counts->counted = 1;
    counts->total = jobs->count;
    for (size_t i = 0; i < jobs->count; i++) {
        const job *j = &jobs->v[i];
        char *shown = ss_path_display(j->file);
        if (j->skip) {
            ss_file_counts_add_skipped(counts, shown, (ss_skip_reason)j->skip);
        } else if (!j->started || i > last) {
            ss_file_counts_add_skipped(counts, shown, SS_SKIP_STOPPED);
        } else {
            counts->analyzed++;
            if (j->status != 0) {
                ss_file_counts_add_error(counts, shown);
                /* Its first error, for the summary (before the results are merged). */
                for (size_t k = 0; k < j->result.diag_count; k++) {
                    const ss_diag *d = &j->result.diags[k];
                    if (d->severity != SS_SEV_ERROR)
                        continue;
                    char *where = d->file && d->line
                                      ? ss_xasprintf("%s:%u:%u: ", d->file, d->line, d->column)
                                  : d->file ? ss_xasprintf("%s: ", d->file)
                                            : ss_xstrdup("");
                    char *text = ss_xasprintf("%s%s", where, d->message);
                    ss_file_counts_set_first_error(counts, text);
                    free(text);
                    free(where);
                    break;
                }
            }
        }
        free(shown);
    }
}

/* Resolves each job's configuration: excluded files are skipped, the others get their
 * readback limit. Returns 0, or -1 (message printed) for a malformed configuration. */
static int configure_jobs(const ss_lint_options *o, ss_config_cache *configs, job_list *jobs,
                          size_t *excluded)
{
    for (size_t i = 0; i < jobs->count; i++) {
        ss_config effective;
        char err[2048];
        if (ss_config_for_path(configs, jobs->v[i].file, o->config, &effective, err, sizeof err) !=
            0) {
            ss_log_error("%s", err);
            return -1;
        }
        if (ss_config_excluded(&effective, jobs->v[i].file)) {
            jobs->v[i].skip = SS_SKIP_EXCLUDED;
            (*excluded)++;
        }
        jobs->v[i].readback_bytes = effective.readback_bytes;
        /* Taken over from the effective configuration. */
        for (size_t k = 0; k < jobs->v[i].hot_count; k++)
            free(jobs->v[i].hot_functions[k]);
        free(jobs->v[i].hot_functions);
        jobs->v[i].hot_functions = effective.hot_functions;
        jobs->v[i].hot_count = effective.hot_function_count;
        effective.hot_functions = NULL;
        effective.hot_function_count = 0;
        ss_config_free(&effective);
    }
    return 0;
}

/* Reads BUILD_DIR/compile_commands.json into 'db'. Returns 0, or -1 (message printed) when it
 * cannot be read or holds no entries. */
static int load_compdb(const char *build_dir, ss_compdb *db)
{
    char err[1024];
    if (ss_compdb_load(build_dir, db, err, sizeof err) != 0) {
        int missing = errno == ENOENT;
        ss_log_error("%s%s", err,
                     missing ? " (-p takes the folder that holds compile_commands.json: the build "
                               "folder of a CMake project configured with "
                               "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON)"
                             : "");
        return -1;
    }
    if (db->count == 0) {
        ss_log_error("'%s/compile_commands.json' holds no entries", build_dir);
        ss_compdb_free(db);
        return -1;
    }
    return 0;
}

/* What became of the files before any was parsed, for --stats. */
typedef struct prepared {
    size_t excluded; /* by the configuration */
    size_t included; /* folder walk: #included by another source */
    size_t unlisted; /* folder walk: not in the compile database */
    int folder_walk; /* some file was found by a folder walk */
} prepared;

/* Makes the jobs: the translation units named by 'o' (and 'db', may be NULL), their
 * configuration, the folder walk's extras left out, and each remaining file checked to be a
 * readable text source (empty ones are skipped, refused ones noted in 'out'). Returns 0, or
 * -1 (message printed). */
static int prepare_jobs(const ss_lint_options *o, const ss_compdb *db, ss_config_cache *configs,
                        job_list *jobs, ss_result *out, prepared *prep)
{
    if (collect(o, db, jobs) != 0 || configure_jobs(o, configs, jobs, &prep->excluded) != 0)
        return -1;
    for (size_t i = 0; i < jobs->count; i++)
        prep->folder_walk |= jobs->v[i].from_folder;
    if (prep->folder_walk)
        skip_folder_extras(o, db != NULL, jobs, &prep->included, &prep->unlisted);
    for (size_t i = 0; i < jobs->count; i++) {
        if (jobs->v[i].skip)
            continue;
        int content = check_content(jobs->v[i].file, jobs->v[i].text, jobs->v[i].text_len, out);
        if (content < 0)
            return -1;
        if (content > 0)
            jobs->v[i].skip = SS_SKIP_EMPTY; /* noted as such */
    }
    return 0;
}

/* Sets up 'st' to run 'jobs': their clang arguments, the cache, the lock, the guard's bounds
 * and wake-up. Returns the number of workers to start. */
static unsigned start_run(run_state *st, const ss_lint_options *o, job_list *jobs,
                          const ss_toolkit *toolkit, const char *resource_dir)
{
    st->options = o;
    st->keep_going = !o->fail_fast;
    st->toolkit = toolkit;
    st->resource_dir = resource_dir;
    st->build_dir = o->build_dir ? realpath(o->build_dir, NULL) : NULL;
    st->jobs = jobs;
    st->stop = jobs->count;
    for (size_t i = 0; i < jobs->count; i++)
        st->total += !jobs->v[i].skip;
    for (size_t i = 0; i < jobs->count; i++) {
        if (!jobs->v[i].skip)
            job_args(&jobs->v[i], o, toolkit, resource_dir);
    }
    st->cache = o->cache_dir && !o->stdin_text ? ss_cache_open(o->cache_dir) : NULL;
    pthread_mutex_init(&st->lock, NULL);
    clock_gettime(CLOCK_MONOTONIC, &st->started);
    unsigned nworkers = worker_count(o, st->total);
    st->max_memory = o->max_memory ? o->max_memory : default_max_memory(nworkers);
    st->parse_timeout = o->parse_timeout ? o->parse_timeout : SS_LINT_DEFAULT_PARSE_TIMEOUT;
    pthread_condattr_t wake_attr;
    pthread_condattr_init(&wake_attr);
    pthread_condattr_setclock(&wake_attr, CLOCK_MONOTONIC);
    pthread_cond_init(&st->guard_wake, &wake_attr);
    pthread_condattr_destroy(&wake_attr);
    return nworkers;
}

/* Runs the jobs on 'nworkers' worker threads with large stacks (stack.c; on this thread when
 * none can be started) under the guard thread, then releases what start_run set up. */
static void run_workers(run_state *st, unsigned nworkers)
{
    /* libclang's crash recovery is enabled by the first index; the stack overflow handler
     * goes in front of it. */
    CXIndex first = clang_createIndex(0, 0);
    ss_stack_prepare();
    clang_disposeIndex(first);
    pthread_t guard_thread;
    int guarded = (st->max_memory != SS_LINT_NO_LIMIT || st->parse_timeout != SS_LINT_NO_LIMIT) &&
                  pthread_create(&guard_thread, NULL, guard, st) == 0;
    pthread_t *threads = ss_xcalloc(nworkers, sizeof *threads);
    unsigned started = 0;
    for (unsigned i = 0; i < nworkers; i++) {
        if (ss_stack_thread_create(&threads[i], worker, st) == 0)
            started++;
    }
    if (started == 0)
        worker(st);
    for (unsigned i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    free(threads);
    if (guarded) {
        pthread_mutex_lock(&st->lock);
        st->workers_done = 1;
        pthread_cond_signal(&st->guard_wake);
        pthread_mutex_unlock(&st->lock);
        pthread_join(guard_thread, NULL);
    }
    pthread_cond_destroy(&st->guard_wake);
    if (st->options->progress) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    pthread_mutex_destroy(&st->lock);
    ss_cache_close(st->cache);
}

/* Gathers the results of the jobs up to the one the run stopped at ('stop'; the count when
 * none) into 'out': merged, counted, sorted, then configured and suppressed file by file.
 * '*fatal_units' receives the number of units with parse errors. Returns 0, or -1 (message
 * printed) for a malformed configuration. */
static int finish_results(const ss_lint_options *o, ss_config_cache *configs, job_list *jobs,
                          size_t stop, size_t unlinted, ss_result *out, int *fatal_units)
{
    size_t last = stop < jobs->count ? stop : jobs->count - 1;
    char **sources = ss_xreallocarray(NULL, jobs->count + 1, sizeof *sources);
    size_t source_count = 0;
    for (size_t i = 0; i <= last && i < jobs->count; i++) {
        if (jobs->v[i].started) {
            *fatal_units += jobs->v[i].status != 0;
            sources[source_count++] = ss_path_display(jobs->v[i].file);
        }
    }
    merge(jobs, last, out);
    /* SYNC103 across units: a blocking stream that another unit of the run shares. */
    const ss_tu_streams **streams = ss_xcalloc(jobs->count + 1, sizeof *streams);
    for (size_t i = 0; i <= last && i < jobs->count; i++)
        streams[i] = jobs->v[i].started ? &jobs->v[i].streams : NULL;
    ss_streams_relate(streams, last < jobs->count ? last + 1 : jobs->count, unlinted, out);
    free(streams);
    count_files(jobs, last, &out->files);
    ss_result_sort(out);
    int rc = apply_policy(o, configs, sources, source_count, out);
    for (size_t i = 0; i < source_count; i++)
        free(sources[i]);
    free(sources);
    return rc;
}

/* How many C, C++ and CUDA units of the compile database 'db' the run does not analyze
 * (files were named, or some were excluded or skipped). */
static size_t unlinted_units(const ss_compdb *db, const job_list *jobs)
{
    /* A file the database lists twice (two targets build it) is one unit of the run. */
    const char **files = ss_xcalloc(db->count + 1, sizeof *files);
    size_t sources = 0, listed = 0, linted = 0;
    for (size_t i = 0; i < db->count; i++) {
        ss_lang lang;
        if (ss_flags_lang_of(db->commands[i].file, &lang) == 0)
            files[sources++] = db->commands[i].file;
    }
    qsort(files, sources, sizeof *files, cmp_strings);
    for (size_t i = 0; i < sources; i++)
        listed += i == 0 || strcmp(files[i], files[i - 1]) != 0;
    free(files);
    for (size_t i = 0; i < jobs->count; i++)
        linted += jobs->v[i].command != NULL && jobs->v[i].started;
    return listed > linted ? listed - linted : 0;
}

int ss_analyzer_run(const ss_lint_options *o, ss_result *out)
{
    ss_compdb db;
    int have_db = o->build_dir != NULL;
    if (have_db && load_compdb(o->build_dir, &db) != 0)
        return -1;
    job_list jobs = {0};
    ss_toolkit toolkit = {0};
    ss_config_cache *configs = o->config_cache ? o->config_cache : ss_config_cache_new();
    prepared prep = {0};
    int rc = prepare_jobs(o, have_db ? &db : NULL, configs, &jobs, out, &prep);
    if (rc == 0)
        rc = ss_toolkit_find(o->cuda_path, &toolkit);
    int fatal_units = 0;
    char *resource_dir = NULL;
    run_state st;
    memset(&st, 0, sizeof st);
    if (rc == 0) {
        resource_dir = clang_resource_dir();
        unsigned nworkers = start_run(&st, o, &jobs, &toolkit, resource_dir);
        run_workers(&st, nworkers);
        rc = finish_results(o, configs, &jobs, st.stop, have_db ? unlinted_units(&db, &jobs) : 0,
                            out, &fatal_units);
    }
    if (o->stats) {
        o->stats->units = st.parsed + st.cached;
        o->stats->parsed = st.parsed;
        o->stats->cached = st.cached;
        o->stats->excluded = prep.excluded;
        o->stats->files = jobs.count;
        o->stats->failed = (size_t)fatal_units;
        o->stats->included = prep.included;
        o->stats->unlisted = prep.unlisted;
    }
    free(resource_dir);
    free(st.build_dir);
    if (configs != o->config_cache)
        ss_config_cache_free(configs);
    ss_toolkit_free(&toolkit);
    free_jobs(&jobs);
    if (have_db)
        ss_compdb_free(&db);
    return rc < 0 ? -1 : fatal_units;
}
