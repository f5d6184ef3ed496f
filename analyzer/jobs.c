/* jobs.c: the translation units of a lint run: the files named, the folders walked, the
 * compile database's entries, each unit's configuration, and the checks before parsing that
 * each is a readable text source. */
#include "jobs.h"
#include "files.h"
#include "log.h"
#include "path.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void add_job(ss_job_list *jobs, const char *file, const ss_compile_command *command)
{
    for (size_t i = 0; i < jobs->count; i++) {
        if (strcmp(jobs->v[i].file, file) == 0)
            return;
    }
    if (jobs->count == jobs->cap) {
        jobs->cap = jobs->cap ? jobs->cap * 2 : 32;
        ss_job *grown = ss_xreallocarray(jobs->v, jobs->cap, sizeof *grown);
        jobs->v = grown;
    }
    ss_job *j = &jobs->v[jobs->count++];
    memset(j, 0, sizeof *j);
    j->file = ss_xstrdup(file);
    j->command = command;
    ss_result_init(&j->result, SS_RESULT_LINT);
}

void ss_jobs_free(ss_job_list *jobs)
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
static size_t scan_folder(const char *dir, const ss_compdb *db, ss_job_list *jobs, size_t *headers)
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
    ss_job_list *jobs;
    size_t includer;
} includer_scan;

/* A quoted include of the scanned job that names another job found by the folder walk marks
 * that job 'included_by' the scanned one. */
static void note_included(const char *name, size_t len, int quoted, unsigned line, void *context)
{
    (void)line;
    includer_scan *scan = context;
    ss_job_list *jobs = scan->jobs;
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
static void mark_included(ss_job_list *jobs)
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
static void skip_folder_extras(const ss_lint_options *o, int have_db, ss_job_list *jobs,
                               size_t *included, size_t *unlisted)
{
    mark_included(jobs);
    /* The CUDA sources the database leaves out: CMake's old FindCUDA (cuda_add_library)
     * lists a target's .cpp files and none of its .cu files, so lint would see none of the
     * CUDA code without a word. */
    size_t cu_unlisted = 0;
    char *cu_named[2] = {NULL, NULL};
    for (size_t i = 0; i < jobs->count; i++) {
        ss_job *j = &jobs->v[i];
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
                         ss_job_list *jobs)
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

/* The jobs of one file or folder named on the command line, 'input' (the file, or the sources
 * found under the folder). Returns 0, or -1 (message printed). */
static int collect_input(const char *input, const ss_compdb *db, ss_job_list *jobs)
{
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
    int rc = 0;
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
            rc = -1;
        }
    } else {
        /* Judged by the name given, a symbolic link's own (ss_path_named). */
        ss_lang lang;
        char *named = ss_path_named(input);
        if (!S_ISREG(st.st_mode) || named == NULL || ss_flags_lang_of(named, &lang) != 0) {
            ss_log_error("'%s' is not a C, C++ or CUDA source file (by its name)", input);
            rc = -1;
        } else {
            add_job(jobs, named, db ? ss_compdb_find(db, named) : NULL);
        }
        free(named);
    }
    free(real);
    return rc;
}

/* A -p run without files: a job for each entry of the compile database whose file is a C, C++
 * or CUDA source by the name the database gives it (a symbolic link to 'k.cpp.Cuda' named
 * 'k.cpp' is C++). The others (assembly, Fortran, ...) are left out with a note that names
 * them: each with --verbose, else the first two and a count. */
static void add_database_jobs(const ss_lint_options *o, const ss_compdb *db, ss_job_list *jobs)
{
    size_t left = 0;
    char *named[2] = {NULL, NULL};
    for (size_t i = 0; i < db->count; i++) {
        ss_lang lang;
        const char *file = db->commands[i].file;
        if (ss_flags_lang_of(file, &lang) == 0) {
            add_job(jobs, file, &db->commands[i]);
            continue;
        }
        char *shown = ss_path_display(file);
        if (o->verbose)
            ss_log_note("%s: not analyzed: not a C, C++ or CUDA source by its name", shown);
        if (left < 2)
            named[left] = shown;
        else
            free(shown);
        left++;
    }
    if (left > 0 && !o->verbose) {
        char *more = left > 2 ? ss_xasprintf(" and %zu more", left - 2) : NULL;
        ss_log_note("%zu compile-database %s: %s%s%s%s", left,
                    left == 1 ? "entry is not analyzed, not a C, C++ or CUDA source by its name"
                              : "entries are not analyzed, not C, C++ or CUDA sources by their "
                                "names",
                    named[0], named[1] ? (left == 2 ? " and " : ", ") : "",
                    named[1] ? named[1] : "", more ? more : "");
        free(more);
    }
    free(named[0]);
    free(named[1]);
}

/* Gathers the jobs. Returns 0, or -1 (message printed). */
static int collect(const ss_lint_options *o, const ss_compdb *db, ss_job_list *jobs)
{
    if (o->stdin_text)
        return o->input_count == 1 ? collect_stdin(o, o->inputs[0], db, jobs) : -1;
    for (size_t i = 0; i < o->input_count; i++) {
        if (collect_input(o->inputs[i], db, jobs) != 0)
            return -1;
    }
    if (o->input_count == 0 && db) {
        add_database_jobs(o, db, jobs);
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

/* Resolves each job's configuration: excluded files are skipped, the others get their
 * readback limit. Returns 0, or -1 (message printed) for a malformed configuration. */
static int configure_jobs(const ss_lint_options *o, ss_config_cache *configs, ss_job_list *jobs,
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

int ss_jobs_prepare(const ss_lint_options *o, const ss_compdb *db, ss_config_cache *configs,
                    ss_job_list *jobs, ss_result *out, ss_jobs_prepared *prep)
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
