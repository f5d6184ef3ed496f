/* clang_args.c: the clang command line of each unit: the compile command's arguments
 * translated, the toolkit's, clang's resource folder for the libclang loaded, and the
 * --extra-arg values. */
#include "jobs.h"
#include "log.h"
#include "path.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Whether 'dir' is a clang resource folder with the CUDA wrapper headers. */
static int is_resource_dir(const char *dir)
{
    char *probe = ss_xasprintf("%s/include/cuda_wrappers/new", dir);
    struct stat st;
    int ok = stat(probe, &st) == 0;
    free(probe);
    return ok;
}

char *ss_clang_resource_dir(void)
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

/* The arguments of job 'j''s compile command: its response files expanded and its arguments
 * translated into 'translated' (what the allow-list drops and --remove-arg names left out,
 * and gathered in 'dropped' with --verbose); sets j->info (a job without a command is C++
 * unless its name says otherwise) and j->args_error when a response file cannot be read. */
static void translate_command(ss_job *j, const ss_lint_options *o, ss_args *translated,
                              ss_args *dropped)
{
    ss_flags_info *info = &j->info;
    if (j->command == NULL) {
        memset(info, 0, sizeof *info);
        info->lang = SS_LANG_CXX;
        ss_flags_lang_of(j->file, &info->lang);
        return;
    }
    ss_args expanded = {0};
    char err[1024];
    if (ss_compdb_expand(&j->command->argv, j->command->directory, &expanded, err, sizeof err) != 0)
        j->args_error = ss_xstrdup(err);
    ss_flags_filter filter = {o->remove_args, o->remove_arg_count, o->verbose ? dropped : NULL};
    ss_flags_translate_filtered(&expanded, j->file, j->command->directory, &filter, translated,
                                info);
    ss_args_free(&expanded);
}

/* Appends clang's resource folder 'resource_dir' to 'args', unless they choose one. */
static void push_resource_dir(ss_args *args, const char *resource_dir)
{
    if (has_resource_dir(args))
        return;
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

/* --verbose: says what was dropped from job 'j''s compile command, what was kept of it
 * ('translated') and what lint adds before and after it. */
static void say_args(const ss_job *j, const ss_args *translated, const ss_args *dropped)
{
    const ss_args *args = &j->args;
    char *shown = ss_path_display(j->file);
    for (size_t i = 0; i < dropped->count; i++)
        ss_log_note("%s: dropped %s", shown, dropped->v[i]);
    if (j->command) {
        char *kept = ss_flags_shown((const char *const *)translated->v, translated->count);
        ss_log_note("%s: arguments from the compile command: %s", shown,
                    translated->count ? kept : "(none)");
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

void ss_job_args(ss_job *j, const ss_lint_options *o, const ss_toolkit *toolkit,
                 const char *resource_dir)
{
    ss_args translated = {0}, dropped = {0};
    translate_command(j, o, &translated, &dropped);
    ss_flags_info *info = &j->info;
    ss_flags_scan(o->extra_args, o->extra_arg_count, info);
    ss_args *args = &j->args;
    ss_toolkit_args(toolkit, info->lang, args);
    if (info->nvcc)
        ss_toolkit_nvcc_macros(toolkit, args);
    /* Warnings are not reported; relative paths were made absolute during translation
     * (clang's -working-directory would change the whole process's directory). */
    ss_args_push(args, "-w");
    /* No error limit: at clang's default (20) the parse stops instantiating templates and
     * skips the bodies after the limit, losing every finding past it in a unit whose errors
     * are not the host code's (device code nvcc accepts and clang does not). The errors shown
     * are limited instead (tu.c). --extra-arg=-ferror-limit=N, given after this, sets one. */
    ss_args_push(args, "-ferror-limit=0");
    j->user_begin = args->count;
    for (size_t i = 0; i < translated.count; i++)
        ss_args_push(args, translated.v[i]);
    j->extra_begin = args->count;
    for (size_t i = 0; i < o->extra_arg_count; i++)
        ss_args_push(args, o->extra_args[i]);
    j->extra_end = args->count;
    ss_toolkit_search_args(toolkit, info->lang, args);
    if (resource_dir)
        push_resource_dir(args, resource_dir);
    if (o->verbose)
        say_args(j, &translated, &dropped);
    ss_args_free(&translated);
    ss_args_free(&dropped);
}
