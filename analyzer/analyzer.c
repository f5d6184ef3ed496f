/* analyzer.c: `syncscope lint` end to end: finds the translation units (files, folders,
 * compile_commands.json), checks that each is a readable text source, and runs the
 * per-translation-unit analysis over them in a stable order. */
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* One translation unit to analyze. */
typedef struct job {
    char *file;                        /* absolute path */
    const ss_compile_command *command; /* its compile_commands.json entry, or NULL */
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
        job *grown = realloc(jobs->v, jobs->cap * sizeof *grown);
        if (grown == NULL)
            abort();
        jobs->v = grown;
    }
    jobs->v[jobs->count].file = ss_strdup(file);
    jobs->v[jobs->count].command = command;
    jobs->count++;
}

static void free_jobs(job_list *jobs)
{
    for (size_t i = 0; i < jobs->count; i++)
        free(jobs->v[i].file);
    free(jobs->v);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* Adds every source under 'dir' (sorted, hidden folders skipped). Returns how many. */
static size_t scan_folder(const char *dir, const ss_compdb *db, job_list *jobs)
{
    struct dirent **entries = NULL;
    int n = scandir(dir, &entries, NULL, by_name);
    size_t added = 0;
    for (int i = 0; i < n; i++) {
        const char *name = entries[i]->d_name;
        if (name[0] != '.') {
            char *path = ss_asprintf("%s/%s", dir, name);
            struct stat st;
            ss_lang lang;
            if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
                added += scan_folder(path, db, jobs);
            } else if (S_ISREG(st.st_mode) && ss_flags_lang_of(path, &lang) == 0) {
                add_job(jobs, path, db ? ss_compdb_find(db, path) : NULL);
                added++;
            }
            free(path);
        }
        free(entries[i]);
    }
    free(entries);
    return added;
}

/* Reads a file whole. Returns 0, or -1 with errno set. */
static int read_whole(const char *path, char **text, size_t *len)
{
    FILE *in = fopen(path, "rb");
    if (in == NULL)
        return -1;
    size_t cap = 8192, n = 0, got;
    char *buf = malloc(cap);
    if (buf == NULL)
        abort();
    while ((got = fread(buf + n, 1, cap - n, in)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            char *grown = realloc(buf, cap);
            if (grown == NULL)
                abort();
            buf = grown;
        }
    }
    int err = ferror(in);
    fclose(in);
    if (err) {
        free(buf);
        errno = EIO;
        return -1;
    }
    *text = buf;
    *len = n;
    return 0;
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

/* File checks before parsing. Returns 0 to analyze, 1 to skip (noted), -1 when the file is
 * not a text source (message printed). */
static int check_content(const char *path, ss_result *out)
{
    char *text = NULL;
    size_t len = 0;
    if (read_whole(path, &text, &len) != 0) {
        ss_log_error("cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    int rc = 0;
    char *shown = ss_display_path(path);
    const char *nul = memchr(text, '\0', len);
    if (len == 0) {
        ss_result_add_diag(out, SS_SEV_NOTE, shown, 0, 0, "empty file: nothing to analyze");
        rc = 1;
    } else if (nul) {
        ss_log_error("'%s' is not a text source file (NUL byte at offset %zu)", shown,
                     (size_t)(nul - text));
        rc = -1;
    } else {
        size_t bad = utf8_invalid_at((const unsigned char *)text, len);
        if (bad < len) {
            unsigned line = 1;
            for (size_t i = 0; i < bad; i++)
                line += text[i] == '\n';
            char *msg = ss_asprintf("invalid UTF-8 at line %u (byte offset %zu); the file is "
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

/* Gathers the jobs. Returns 0, or -1 (message printed). */
static int collect(const ss_lint_options *o, const ss_compdb *db, job_list *jobs)
{
    for (size_t i = 0; i < o->input_count; i++) {
        const char *input = o->inputs[i];
        struct stat st;
        if (stat(input, &st) != 0) {
            ss_log_error("cannot read '%s': %s", input, strerror(errno));
            return -1;
        }
        char *real = realpath(input, NULL);
        if (real == NULL) {
            ss_log_error("cannot resolve '%s': %s", input, strerror(errno));
            return -1;
        }
        if (S_ISDIR(st.st_mode)) {
            if (scan_folder(real, db, jobs) == 0) {
                ss_log_error("no C, C++ or CUDA sources under '%s' (looked for .cu, .cuh, .c, "
                             ".cc, .cpp, .cxx and headers)",
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

/* The clang arguments of one job. */
static void job_args(const job *j, const ss_lint_options *o, const ss_toolkit *toolkit,
                     ss_args *args, ss_flags_info *info)
{
    ss_args translated = {0};
    if (j->command) {
        ss_flags_translate(&j->command->argv, j->file, j->command->directory, &translated, info);
    } else {
        memset(info, 0, sizeof *info);
        info->lang = SS_LANG_CXX;
        ss_flags_lang_of(j->file, &info->lang);
    }
    ss_flags_scan(o->extra_args, o->extra_arg_count, info);
    ss_toolkit_args(toolkit, info->lang, args);
    /* Warnings are not reported; relative paths were made absolute during translation
     * (clang's -working-directory would change the whole process's directory). */
    ss_args_push(args, "-w");
    for (size_t i = 0; i < translated.count; i++)
        ss_args_push(args, translated.v[i]);
    for (size_t i = 0; i < o->extra_arg_count; i++)
        ss_args_push(args, o->extra_args[i]);
    ss_args_free(&translated);
}

int ss_analyzer_run(const ss_lint_options *o, ss_result *out)
{
    ss_compdb db;
    int have_db = 0;
    if (o->build_dir) {
        char err[1024];
        if (ss_compdb_load(o->build_dir, &db, err, sizeof err) != 0) {
            ss_log_error("%s", err);
            return -1;
        }
        if (db.count == 0) {
            ss_log_error("'%s/compile_commands.json' holds no entries", o->build_dir);
            ss_compdb_free(&db);
            return -1;
        }
        have_db = 1;
    }
    job_list jobs = {0};
    ss_toolkit toolkit = {0};
    int rc = collect(o, have_db ? &db : NULL, &jobs);
    for (size_t i = 0; rc == 0 && i < jobs.count; i++) {
        int content = check_content(jobs.v[i].file, out);
        if (content < 0)
            rc = -1;
    }
    if (rc == 0)
        rc = ss_toolkit_find(o->cuda_path, &toolkit);
    int fatal_units = 0;
    if (rc == 0) {
        /* One index per worker; a single worker for now. */
        CXIndex index = clang_createIndex(0, 0);
        for (size_t i = 0; i < jobs.count; i++) {
            struct stat st;
            if (stat(jobs.v[i].file, &st) == 0 && st.st_size == 0)
                continue; /* noted as empty */
            ss_args args = {0};
            ss_flags_info info;
            job_args(&jobs.v[i], o, &toolkit, &args, &info);
            int unit = ss_tu_analyze(index, jobs.v[i].file, &args, &info, out);
            ss_args_free(&args);
            if (unit != 0) {
                fatal_units++;
                if (!o->keep_going)
                    break;
            }
        }
        clang_disposeIndex(index);
        ss_result_sort(out);
    }
    ss_toolkit_free(&toolkit);
    free_jobs(&jobs);
    if (have_db)
        ss_compdb_free(&db);
    return rc < 0 ? -1 : fatal_units;
}
