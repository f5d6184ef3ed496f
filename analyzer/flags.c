/* flags.c: turns compile_commands.json command lines (nvcc, nvc++, gcc, clang) into libclang
 * arguments. nvcc options are translated through one table (flag_table.c); of everything else only
 * the kinds of argument a syntax-only parse needs pass (an allow-list: include paths and macros,
 * language and standard, target, warnings, chosen -f and -m options). A compile database is
 * input like any other: an option such as -MJ FILE, -Wp,-MD,FILE or -Xclang -load would
 * otherwise make the analyzer write files or load code. What is dropped is said, on request,
 * one line per argument. */
#include "flags.h"
#include "compdb.h"
#include "flag_table.h"
#include "log.h"
#include "path.h"
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ss_args_push(ss_args *args, const char *arg)
{
    if (args->count + 1 >= args->cap) {
        size_t cap = args->cap ? args->cap * 2 : 16;
        char **grown = ss_xreallocarray(args->v, cap, sizeof *grown);
        args->v = grown;
        args->cap = cap;
    }
    args->v[args->count++] = ss_xstrdup(arg);
    args->v[args->count] = NULL;
}

void ss_args_free(ss_args *args)
{
    for (size_t i = 0; i < args->count; i++)
        free(args->v[i]);
    free(args->v);
    memset(args, 0, sizeof *args);
}

int ss_flags_lang_of(const char *path, ss_lang *out)
{
    static const struct {
        const char *ext;
        ss_lang lang;
    } exts[] = {{".cu", SS_LANG_CUDA}, {".cuh", SS_LANG_CUDA}, {".c", SS_LANG_C},
                {".cc", SS_LANG_CXX},  {".cpp", SS_LANG_CXX},  {".cxx", SS_LANG_CXX},
                {".c++", SS_LANG_CXX}, {".C", SS_LANG_CXX},    {".h", SS_LANG_CXX},
                {".hh", SS_LANG_CXX},  {".hpp", SS_LANG_CXX},  {".hxx", SS_LANG_CXX}};
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash : path, '.');
    if (dot == NULL)
        return -1;
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
        if (strcmp(dot, exts[i].ext) == 0) {
            *out = exts[i].lang;
            return 0;
        }
    }
    return -1;
}

/* What one translation is doing. */
typedef struct translation {
    const char *file;      /* the entry's source file (absolute), or NULL */
    const char *directory; /* the entry's directory, or NULL */
    const ss_flags_filter *filter;
    ss_args *out;
    ss_flags_info *info;
    int lang_set;
    int depth;          /* nesting of -Xcompiler and renamed options */
    int openmp;         /* the last of -fopenmp[=RUNTIME] and -fno-openmp turned OpenMP on */
    int openmp_version; /* -fopenmp-version=N, or 0 */
    int defines_openmp; /* the command has its own -D or -U of _OPENMP */
} translation;

/* Appends 'arg' to 'text' (grown as needed) as the user should see it: control characters
 * as \xNN, so that a compile database cannot write escape sequences to the terminal. */
static void append_shown(char **text, size_t *len, size_t *cap, const char *arg)
{
    size_t need = *len + 4 * strlen(arg) + 2;
    if (need > *cap) {
        *cap = need * 2;
        char *grown = realloc(*text, *cap);
        if (grown == NULL)
            ss_out_of_memory();
        *text = grown;
    }
    for (const unsigned char *p = (const unsigned char *)arg; *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            *len += (size_t)snprintf(*text + *len, *cap - *len, "\\x%02x", *p);
        else
            (*text)[(*len)++] = (char)*p;
    }
    (*text)[*len] = '\0';
}

char *ss_flags_shown(const char *const *argv, size_t count)
{
    char *text = NULL;
    size_t len = 0, cap = 0;
    append_shown(&text, &len, &cap, "");
    for (size_t i = 0; i < count; i++) {
        const char *arg = argv[i];
        if (i)
            append_shown(&text, &len, &cap, " ");
        int plain =
            arg[0] != '\0' && strspn(arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                          "0123456789-_=+/.,:@%^") == strlen(arg);
        if (plain) {
            append_shown(&text, &len, &cap, arg);
            continue;
        }
        /* Single quotes, as a shell reads them; a quote inside is written '\''. */
        append_shown(&text, &len, &cap, "'");
        for (const char *p = arg; *p; p++) {
            char one[2] = {*p, '\0'};
            append_shown(&text, &len, &cap, *p == '\'' ? "'\\''" : one);
        }
        append_shown(&text, &len, &cap, "'");
    }
    return text;
}

/* Records that the 'n' arguments from argv[at] were dropped, and why. */
static void note_drop(translation *t, const char *const *argv, size_t at, size_t n, drop_why why)
{
    if (t->filter == NULL || t->filter->dropped == NULL)
        return;
    char *text = NULL;
    size_t len = 0, cap = 0;
    append_shown(&text, &len, &cap, "'");
    for (size_t k = 0; k < n; k++) {
        if (k)
            append_shown(&text, &len, &cap, " ");
        append_shown(&text, &len, &cap, argv[at + k]);
    }
    append_shown(&text, &len, &cap, "' (");
    append_shown(&text, &len, &cap, ss_flag_why_words(why));
    append_shown(&text, &len, &cap, ")");
    ss_args_push(t->filter->dropped, text);
    free(text);
}

static int removed(const translation *t, const char *arg)
{
    if (t->filter == NULL)
        return 0;
    for (size_t i = 0; i < t->filter->remove_count; i++) {
        if (ss_flag_pattern_matches(t->filter->remove[i], arg))
            return 1;
    }
    return 0;
}

/* Appends --cuda-gpu-arch=sm_NN for an architecture clang 16 knows. Returns 1 when it did. */
static int push_arch(const char *name, size_t len, ss_args *out)
{
    int sm = ss_flag_known_sm(name, len);
    if (sm == 0)
        return 0;
    char arg[64];
    snprintf(arg, sizeof arg, "--cuda-gpu-arch=sm_%d", sm);
    ss_args_push(out, arg);
    return 1;
}

/* "arch=compute_80,code=sm_80" or "arch=compute_80,code=[sm_80,compute_80]": the first
 * sm_ code, else the virtual architecture. Returns 1 when an architecture was added. */
static int translate_gencode(const char *value, ss_args *out)
{
    const char *code = strstr(value, "code=");
    while (code && code > value && code[-1] != ',')
        code = strstr(code + 1, "code=");
    if (code) {
        const char *p = code + 5;
        if (*p == '[' || *p == '"')
            p++;
        const char *sm = strstr(p, "sm_");
        if (sm)
            return push_arch(sm, strcspn(sm, ",]\""), out);
    }
    const char *arch = strstr(value, "arch=");
    if (arch) {
        const char *p = arch + 5;
        return push_arch(p, strcspn(p, ",]\""), out);
    }
    return 0;
}

/* -arch VALUE: one architecture or a comma-separated list. Returns 1 when any was added. */
static int translate_arch(const char *value, ss_args *out)
{
    int added = 0;
    for (const char *p = value; *p;) {
        size_t len = strcspn(p, ",");
        added |= push_arch(p, len, out);
        p += len + (p[len] == ',');
    }
    return added;
}

static ss_lang lang_of_x(const char *value, ss_lang fallback)
{
    if (strcmp(value, "cu") == 0 || strcmp(value, "cuda") == 0)
        return SS_LANG_CUDA;
    if (strcmp(value, "c++") == 0 || strcmp(value, "c++-header") == 0)
        return SS_LANG_CXX;
    if (strcmp(value, "c") == 0 || strcmp(value, "c-header") == 0)
        return SS_LANG_C;
    return fallback;
}

/* Whether the value 'def' of a -D or -U names the macro 'macro' (NAME or NAME=VALUE). */
static int names_macro(const char *def, const char *macro)
{
    size_t len = strlen(macro);
    return strncmp(def, macro, len) == 0 && (def[len] == '\0' || def[len] == '=');
}

static int is_per_thread_define(const char *def)
{
    return names_macro(def, "CUDA_API_PER_THREAD_DEFAULT_STREAM");
}

/* Whether the argument 'arg' names the entry's source file (as written, or relative to the
 * entry's directory). */
static int same_file(const char *arg, const translation *t)
{
    if (t->file == NULL)
        return 0;
    if (strcmp(arg, t->file) == 0)
        return 1;
    char *joined = arg[0] == '/' || t->directory == NULL ? ss_xstrdup(arg)
                                                         : ss_xasprintf("%s/%s", t->directory, arg);
    /* The entry's file is named as the database names it (a symbolic link kept), its folder
     * resolved; a file named by its link's target is the same file too. */
    char *named = ss_path_named(joined);
    char *real = realpath(joined, NULL);
    int same = (named && strcmp(named, t->file) == 0) || (real && strcmp(real, t->file) == 0);
    free(named);
    free(real);
    free(joined);
    return same;
}

/* Appends CANONICAL+VALUE; a relative path value is joined to the entry's directory. */
static void push_valued(translation *t, const char *canonical, const char *value, int path)
{
    char *arg;
    if (path && value[0] != '/' && value[0] != '=' && t->directory && t->directory[0])
        arg = ss_xasprintf("%s%s/%s", canonical, t->directory, value);
    else
        arg = ss_xasprintf("%s%s", canonical, value);
    ss_args_push(t->out, arg);
    free(arg);
}

static void translate_one(translation *t, const char *const *argv, size_t count, size_t *i);

/* Translates one argument standing alone (a part of -Xcompiler, a renamed option). */
static void translate_single(translation *t, const char *arg)
{
    const char *one[] = {arg};
    size_t k = 0;
    t->depth++;
    translate_one(t, one, 1, &k);
    t->depth--;
}

static void translate_xcompiler(translation *t, const char *value)
{
    ss_args parts = {0};
    char *copy = ss_xstrdup(value);
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (*tok)
            ss_args_push(&parts, tok);
    }
    free(copy);
    t->depth++;
    for (size_t j = 0; j < parts.count; j++)
        translate_one(t, (const char *const *)parts.v, parts.count, &j);
    t->depth--;
    ss_args_free(&parts);
}

/* An nvcc option of the translation table; the value, if any, is 'value'. */
static void apply_rule(translation *t, const flag_rule *rule, const char *value,
                       const char *const *argv, size_t at, size_t used)
{
    switch (rule->action) {
    case ACT_LANG:
        t->info->lang = lang_of_x(value, t->info->lang);
        t->lang_set = 1;
        break;
    case ACT_GENCODE:
        if (!translate_gencode(value, t->out))
            note_drop(t, argv, at, used, WHY_ARCH);
        break;
    case ACT_ARCH:
        if (!translate_arch(value, t->out))
            note_drop(t, argv, at, used, WHY_ARCH);
        break;
    case ACT_XCOMPILER:
        translate_xcompiler(t, value);
        break;
    case ACT_DEFAULT_STREAM:
        if (strcmp(value, "per-thread") == 0) {
            t->info->per_thread = 1;
            ss_args_push(t->out, "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
        }
        break;
    case ACT_RDC:
        /* Relocatable device code changes what parses: 'extern __shared__' arrays and
         * __device__ variables declared 'extern' in another unit (clang: -fgpu-rdc). -dc is
         * -rdc=true -c. */
        if (!rule->takes_value || strcmp(value, "true") == 0)
            ss_args_push(t->out, "-fgpu-rdc");
        else if (strcmp(value, "false") == 0)
            ss_args_push(t->out, "-fno-gpu-rdc");
        else
            note_drop(t, argv, at, used, WHY_UNNEEDED);
        break;
    case ACT_RENAME: {
        char *joined = ss_xasprintf("%s%s", rule->clang, value);
        translate_single(t, joined);
        free(joined);
        break;
    }
    case ACT_DROP:
        note_drop(t, argv, at, used, rule->why);
        break;
    }
}

/* -Xclang VALUE at argv[*i]: a few cc1 options pass; -Xclang -include -Xclang FILE becomes
 * -include FILE (CMake's precompiled-header lines); the rest is dropped, with the value of a
 * cc1 option that takes one. */
static void translate_xclang(translation *t, const char *const *argv, size_t count, size_t *i)
{
    size_t at = *i;
    if (at + 1 >= count) {
        note_drop(t, argv, at, 1, WHY_NO_VALUE);
        return;
    }
    const char *cc1 = argv[at + 1];
    *i = at + 1;
    if (ss_flag_cc1_allowed(cc1)) {
        ss_args_push(t->out, argv[at]);
        ss_args_push(t->out, cc1);
        return;
    }
    int has_value = at + 3 < count && strcmp(argv[at + 2], "-Xclang") == 0;
    if (strcmp(cc1, "-include") == 0 && has_value) {
        *i = at + 3;
        const char *pair[] = {"-include", argv[at + 3]};
        size_t k = 0;
        t->depth++;
        translate_one(t, pair, 2, &k);
        t->depth--;
        return;
    }
    drop_why why;
    if (ss_flag_cc1_valued(cc1, &why)) {
        *i = has_value ? at + 3 : at + 1;
        note_drop(t, argv, at, has_value ? 4 : 2, why);
        return;
    }
    note_drop(t, argv, at, 2, ss_flag_cc1_writes(cc1) ? WHY_WRITES : WHY_UNNEEDED);
}

/* An OpenMP option at argv['i']. libclang 16 shows the code inside an OpenMP directive
 * (the block after '#pragma omp parallel', the loop after '#pragma omp parallel for') only
 * as the variables it captures, so that launches, copies and syncs there would go unseen:
 * the options are dropped, the directives become pragmas clang ignores, and _OPENMP is
 * defined instead where the command turned OpenMP on (openmp_macro). Returns 1 when
 * argv['i'] was one. */
static int translate_openmp(translation *t, const char *const *argv, size_t i)
{
    static const char *const plain[] = {"-fopenmp-simd", "-fno-openmp-simd", "-fopenmp-extensions",
                                        "-fno-openmp-extensions"};
    const char *arg = argv[i];
    int known = 1;
    if (strcmp(arg, "-fopenmp") == 0) {
        t->openmp = 1;
    } else if (strncmp(arg, "-fopenmp=", 9) == 0) {
        /* clang turns OpenMP on for its own runtimes only (libomp, libiomp5). */
        t->openmp = strcmp(arg + 9, "libgomp") != 0;
    } else if (strcmp(arg, "-fno-openmp") == 0) {
        t->openmp = 0;
    } else if (strncmp(arg, "-fopenmp-version=", 17) == 0) {
        t->openmp_version = atoi(arg + 17);
    } else {
        known = 0;
        for (size_t k = 0; k < sizeof plain / sizeof plain[0] && !known; k++)
            known = strcmp(arg, plain[k]) == 0;
    }
    if (known)
        note_drop(t, argv, i, 1, WHY_OPENMP);
    return known;
}

/* -D_OPENMP=VALUE as clang 16 defines it for -fopenmp-version='version' (0: its default,
 * OpenMP 5.0). Malloc'ed. */
static char *openmp_macro(int version)
{
    static const struct {
        int version;
        const char *value;
    } values[] = {{31, "201107"}, {40, "201307"}, {45, "201511"}, {51, "202011"}, {52, "202111"}};
    const char *value = "201811";
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        if (values[i].version == version)
            value = values[i].value;
    }
    return ss_xasprintf("-D_OPENMP=%s", value);
}

/* An argument of the allow-list at argv[*i]. Returns 1 when it was one (and was handled). */
static int translate_allowed(translation *t, const char *const *argv, size_t count, size_t *i)
{
    const char *value;
    size_t used;
    const allowed_option *a = ss_flag_allowed_find(argv, count, *i, &value, &used);
    if (a) {
        if (a->form == FORM_FLAG || a->form == FORM_PREFIX) {
            ss_args_push(t->out, argv[*i]);
            return 1;
        }
        /* An empty value would leave the option to take the next argument as its value. */
        if (value == NULL || value[0] == '\0') {
            note_drop(t, argv, *i, used, WHY_NO_VALUE);
            *i += used - 1;
            return 1;
        }
        if (strcmp(a->name, "-D") == 0 && is_per_thread_define(value))
            t->info->per_thread = 1;
        if ((strcmp(a->name, "-D") == 0 || strcmp(a->name, "-U") == 0) &&
            names_macro(value, "_OPENMP"))
            t->defines_openmp = 1;
        push_valued(t, a->canonical ? a->canonical : a->name, value, a->path);
        *i += used - 1;
        return 1;
    }
    const char *arg = argv[*i];
    if (ss_flag_is_warning(arg) || ss_flag_is_m_feature(arg)) {
        ss_args_push(t->out, arg);
        return 1;
    }
    return 0;
}

/* A positional argument at argv['i']: the entry's source file itself is left out, any other
 * input is dropped. */
static void translate_positional(translation *t, const char *const *argv, size_t i)
{
    const char *arg = argv[i];
    ss_lang lang;
    if (same_file(arg, t))
        return;
    note_drop(t, argv, i, 1,
              arg[0] != '-' && ss_flags_lang_of(arg, &lang) == 0 ? WHY_INPUT : WHY_UNNEEDED);
}

/* The option of the translation table 'rule' at argv[*i], with its value 'value' when it was
 * joined to it, else the next argument (*i moves past it). */
static void translate_rule(translation *t, const flag_rule *rule, const char *value,
                           const char *const *argv, size_t count, size_t *i)
{
    size_t at = *i, used = 1;
    if (rule->takes_value && value == NULL) {
        if (*i + 1 >= count) {
            note_drop(t, argv, at, 1, WHY_NO_VALUE);
            return;
        }
        value = argv[++*i];
        used = 2;
    }
    apply_rule(t, rule, value, argv, at, used);
}

static void translate_one(translation *t, const char *const *argv, size_t count, size_t *i)
{
    const char *arg = argv[*i];
    if (t->depth > 4) {
        note_drop(t, argv, *i, 1, WHY_UNNEEDED);
        return;
    }
    if (removed(t, arg)) {
        /* An option that takes its value as the next argument goes with it. */
        size_t used = ss_flags_takes_value(arg) && *i + 1 < count ? 2 : 1;
        note_drop(t, argv, *i, used, WHY_REMOVED);
        *i += used - 1;
        return;
    }
    /* Positional arguments: the source file itself, other inputs. */
    if (arg[0] != '-' || arg[1] == '\0' || strcmp(arg, "--") == 0) {
        translate_positional(t, argv, *i);
        return;
    }
    /* nvcc takes any option's value after '=': CMake writes a target's system include folder
     * as '-isystem=DIR' for nvcc, which clang would read as '=DIR', a folder under the
     * sysroot (not for the host compiler's options, -Xcompiler's, where that is meant). */
    if (t->info->nvcc && t->depth == 0 && strncmp(arg, "-isystem=", 9) == 0) {
        char *joined = ss_xasprintf("-isystem%s", arg + 9);
        translate_single(t, joined);
        free(joined);
        return;
    }
    const char *value = NULL;
    const flag_rule *rule = ss_flag_rule_find(arg, &value);
    if (rule) {
        translate_rule(t, rule, value, argv, count, i);
        return;
    }
    if (strncmp(arg, "-x", 2) == 0 && arg[2] != '\0') {
        t->info->lang = lang_of_x(arg + 2, t->info->lang);
        t->lang_set = 1;
        return;
    }
    if (strcmp(arg, "-Xclang") == 0) {
        translate_xclang(t, argv, count, i);
        return;
    }
    size_t used;
    drop_why why;
    if (ss_flag_denied(argv, count, *i, &used, &why)) {
        note_drop(t, argv, *i, used, why);
        *i += used - 1;
        return;
    }
    if (translate_openmp(t, argv, *i) || translate_allowed(t, argv, count, i))
        return;
    note_drop(t, argv, *i, 1, WHY_UNNEEDED);
}

/* Drops, from out->v[from] on, a -std= that names a standard of the other language (nvcc
 * and gcc only warn about it; clang refuses the command line) and the arguments that a
 * --remove-arg pattern names as translated. */
static void filter_output(translation *t, size_t from)
{
    ss_args *out = t->out;
    size_t kept = from;
    for (size_t k = from; k < out->count; k++) {
        const char *arg = out->v[k];
        int drop = 0;
        drop_why why = WHY_REMOVED;
        size_t span = strcmp(arg, "-Xclang") == 0 && k + 1 < out->count ? 2 : 1;
        if (strncmp(arg, "-std=", 5) == 0) {
            const char *std = arg + 5;
            int cxx = strncmp(std, "c++", 3) == 0 || strncmp(std, "gnu++", 5) == 0;
            if (t->info->lang == SS_LANG_C && cxx) {
                drop = 1;
                why = WHY_STD_FOR_C;
            } else if (t->info->lang != SS_LANG_C && !cxx) {
                drop = 1;
                why = WHY_STD_FOR_CXX;
            }
        }
        for (size_t s = 0; !drop && s < span; s++)
            drop = removed(t, out->v[k + s]);
        if (drop) {
            note_drop(t, (const char *const *)out->v, k, span, why);
            for (size_t s = 0; s < span; s++)
                free(out->v[k + s]);
        } else {
            for (size_t s = 0; s < span; s++)
                out->v[kept++] = out->v[k + s];
        }
        k += span - 1;
    }
    out->count = kept;
    out->v[kept] = NULL;
}

void ss_flags_translate_filtered(const ss_args *argv, const char *file, const char *directory,
                                 const ss_flags_filter *filter, ss_args *out, ss_flags_info *info)
{
    size_t first = out->count;
    memset(info, 0, sizeof *info);
    info->lang = SS_LANG_CXX;
    if (file)
        ss_flags_lang_of(file, &info->lang);
    if (argv->count == 0)
        return;
    const char *compiler = strrchr(argv->v[0], '/');
    compiler = compiler ? compiler + 1 : argv->v[0];
    info->nvcc = strncmp(compiler, "nvcc", 4) == 0;
    translation t = {file, directory, filter, out, info, 0, 0, 0, 0, 0};
    for (size_t i = 1; i < argv->count; i++)
        translate_one(&t, (const char *const *)argv->v, argv->count, &i);
    if (t.openmp && !t.defines_openmp) {
        char *define = openmp_macro(t.openmp_version);
        ss_args_push(out, define);
        free(define);
    }
    if (out->count > first)
        filter_output(&t, first);
}

void ss_flags_translate(const ss_args *argv, const char *file, const char *directory, ss_args *out,
                        ss_flags_info *info)
{
    ss_flags_translate_filtered(argv, file, directory, NULL, out, info);
}

const char *ss_flags_include_dir(const char *const *argv, size_t count, size_t i)
{
    static const char *const options[] = {"-I",      "-isystem-after", "-isystem",
                                          "-iquote", "-idirafter",     "-cxx-isystem"};
    const char *arg = argv[i];
    for (size_t k = 0; k < sizeof options / sizeof options[0]; k++) {
        size_t len = strlen(options[k]);
        if (strncmp(arg, options[k], len) == 0)
            return arg[len] ? arg + len : i + 1 < count ? argv[i + 1] : NULL;
    }
    return NULL;
}

size_t ss_flags_group_len(const char *const *argv, size_t count, size_t i)
{
    return i + 1 < count && ss_flags_takes_value(argv[i]) ? 2 : 1;
}

void ss_flags_scan(const char *const *argv, size_t count, ss_flags_info *info)
{
    for (size_t i = 0; i < count; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "-D", 2) == 0 && is_per_thread_define(arg + 2))
            info->per_thread = 1;
        else if (strcmp(arg, "-D") == 0 && i + 1 < count && is_per_thread_define(argv[i + 1]))
            info->per_thread = 1;
        else if (strcmp(arg, "-x") == 0 && i + 1 < count)
            info->lang = lang_of_x(argv[i + 1], info->lang);
        else if (strncmp(arg, "-x", 2) == 0 && arg[2] != '\0')
            info->lang = lang_of_x(arg + 2, info->lang);
    }
}
