/* flags.c: turns compile_commands.json command lines (nvcc, gcc, clang) into libclang
 * arguments, through one table of nvcc translations. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

void ss_args_push(ss_args *args, const char *arg)
{
    if (args->count + 1 >= args->cap) {
        size_t cap = args->cap ? args->cap * 2 : 16;
        char **grown = realloc(args->v, cap * sizeof *grown);
        if (grown == NULL)
            abort();
        args->v = grown;
        args->cap = cap;
    }
    args->v[args->count++] = ss_strdup(arg);
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

/* What to do with one option. */
typedef enum flag_action {
    ACT_KEEP,           /* pass on unchanged (with its value, when it takes one) */
    ACT_DROP,           /* nvcc-only or output-related: remove (with its value) */
    ACT_LANG,           /* -x LANG: recorded; the analyzer adds its own -x */
    ACT_GENCODE,        /* -gencode arch=compute_80,code=sm_80 -> --cuda-gpu-arch=sm_80 */
    ACT_ARCH,           /* -arch sm_80 -> --cuda-gpu-arch=sm_80 */
    ACT_XCOMPILER,      /* -Xcompiler a,b -> a b (each translated again) */
    ACT_DEFAULT_STREAM, /* --default-stream per-thread -> per-thread mode */
    ACT_RENAME          /* the long nvcc spelling of a clang option: 'clang' + value */
} flag_action;

typedef struct flag_rule {
    const char *name; /* as written, e.g. "-gencode" or "--gpu-architecture" */
    int takes_value;  /* 1: "NAME VALUE" or "NAME=VALUE" */
    flag_action action;
    const char *clang; /* ACT_RENAME: the clang option the value is appended to */
} flag_rule;

/* The translation table. Options not listed are passed on unchanged. */
static const flag_rule flag_rules[] = {
    /* Language and GPU architecture. */
    {"-x", 1, ACT_LANG, NULL},
    {"--x", 1, ACT_LANG, NULL},
    {"-gencode", 1, ACT_GENCODE, NULL},
    {"--generate-code", 1, ACT_GENCODE, NULL},
    {"-arch", 1, ACT_ARCH, NULL},
    {"--gpu-architecture", 1, ACT_ARCH, NULL},
    {"-code", 1, ACT_DROP, NULL},
    {"--gpu-code", 1, ACT_DROP, NULL},
    /* Host compiler options and the default stream. */
    {"-Xcompiler", 1, ACT_XCOMPILER, NULL},
    {"--compiler-options", 1, ACT_XCOMPILER, NULL},
    {"-default-stream", 1, ACT_DEFAULT_STREAM, NULL},
    {"--default-stream", 1, ACT_DEFAULT_STREAM, NULL},
    /* nvcc spellings of ordinary options. */
    {"--include-path", 1, ACT_RENAME, "-I"},
    {"--system-include", 1, ACT_RENAME, "-isystem"},
    {"--define-macro", 1, ACT_RENAME, "-D"},
    {"--undefine-macro", 1, ACT_RENAME, "-U"},
    {"--pre-include", 1, ACT_RENAME, "-include"},
    {"--std", 1, ACT_RENAME, "-std="},
    /* Options clang takes with a separate value: kept together. */
    {"-Xclang", 1, ACT_KEEP, NULL},
    {"-include", 1, ACT_KEEP, NULL},
    {"-isystem", 1, ACT_KEEP, NULL},
    {"-idirafter", 1, ACT_KEEP, NULL},
    {"-iquote", 1, ACT_KEEP, NULL},
    /* Output and dependency files. */
    {"-o", 1, ACT_DROP, NULL},
    {"--output-file", 1, ACT_DROP, NULL},
    {"-odir", 1, ACT_DROP, NULL},
    {"--output-directory", 1, ACT_DROP, NULL},
    {"-c", 0, ACT_DROP, NULL},
    {"--compile", 0, ACT_DROP, NULL},
    {"-MF", 1, ACT_DROP, NULL},
    {"-MT", 1, ACT_DROP, NULL},
    {"-MQ", 1, ACT_DROP, NULL},
    {"-MD", 0, ACT_DROP, NULL},
    {"-MMD", 0, ACT_DROP, NULL},
    {"-MP", 0, ACT_DROP, NULL},
    {"-M", 0, ACT_DROP, NULL},
    {"-MM", 0, ACT_DROP, NULL},
    {"-Werror", 0, ACT_DROP, NULL},
    /* nvcc-only options. */
    {"-rdc", 1, ACT_DROP, NULL},
    {"--relocatable-device-code", 1, ACT_DROP, NULL},
    {"-dc", 0, ACT_DROP, NULL},
    {"--device-c", 0, ACT_DROP, NULL},
    {"-dw", 0, ACT_DROP, NULL},
    {"--device-w", 0, ACT_DROP, NULL},
    {"-dlink", 0, ACT_DROP, NULL},
    {"--device-link", 0, ACT_DROP, NULL},
    {"--expt-relaxed-constexpr", 0, ACT_DROP, NULL},
    {"-expt-relaxed-constexpr", 0, ACT_DROP, NULL},
    {"--expt-extended-lambda", 0, ACT_DROP, NULL},
    {"-expt-extended-lambda", 0, ACT_DROP, NULL},
    {"--extended-lambda", 0, ACT_DROP, NULL},
    {"-extended-lambda", 0, ACT_DROP, NULL},
    {"--use_fast_math", 0, ACT_DROP, NULL},
    {"-use_fast_math", 0, ACT_DROP, NULL},
    {"-lineinfo", 0, ACT_DROP, NULL},
    {"--generate-line-info", 0, ACT_DROP, NULL},
    {"-G", 0, ACT_DROP, NULL},
    {"--device-debug", 0, ACT_DROP, NULL},
    {"-Xptxas", 1, ACT_DROP, NULL},
    {"--ptxas-options", 1, ACT_DROP, NULL},
    {"-Xcudafe", 1, ACT_DROP, NULL},
    {"-Xnvlink", 1, ACT_DROP, NULL},
    {"--nvlink-options", 1, ACT_DROP, NULL},
    {"-Xfatbin", 1, ACT_DROP, NULL},
    {"-Xarchive", 1, ACT_DROP, NULL},
    {"-maxrregcount", 1, ACT_DROP, NULL},
    {"--maxrregcount", 1, ACT_DROP, NULL},
    {"-ccbin", 1, ACT_DROP, NULL},
    {"--compiler-bindir", 1, ACT_DROP, NULL},
    {"-cudart", 1, ACT_DROP, NULL},
    {"--cudart", 1, ACT_DROP, NULL},
    {"-cudadevrt", 1, ACT_DROP, NULL},
    {"--cudadevrt", 1, ACT_DROP, NULL},
    {"-t", 1, ACT_DROP, NULL},
    {"--threads", 1, ACT_DROP, NULL},
    {"-split-compile", 1, ACT_DROP, NULL},
    {"--split-compile", 1, ACT_DROP, NULL},
    {"-ftz", 1, ACT_DROP, NULL},
    {"--ftz", 1, ACT_DROP, NULL},
    {"-prec-div", 1, ACT_DROP, NULL},
    {"--prec-div", 1, ACT_DROP, NULL},
    {"-prec-sqrt", 1, ACT_DROP, NULL},
    {"--prec-sqrt", 1, ACT_DROP, NULL},
    {"-fmad", 1, ACT_DROP, NULL},
    {"--fmad", 1, ACT_DROP, NULL},
    {"-diag-suppress", 1, ACT_DROP, NULL},
    {"--diag-suppress", 1, ACT_DROP, NULL},
    {"--Werror", 1, ACT_DROP, NULL},
    {"--keep-dir", 1, ACT_DROP, NULL},
    {"-keep", 0, ACT_DROP, NULL},
    {"--keep", 0, ACT_DROP, NULL},
    {"--display-error-number", 0, ACT_DROP, NULL},
    {"--forward-unknown-to-host-compiler", 0, ACT_DROP, NULL},
    {"-forward-unknown-to-host-compiler", 0, ACT_DROP, NULL},
    {"-Wno-deprecated-gpu-targets", 0, ACT_DROP, NULL},
    {"--resource-usage", 0, ACT_DROP, NULL},
    {"-res-usage", 0, ACT_DROP, NULL},
};

/* The highest sm_XX that clang 16 knows; newer architectures are dropped (host-only parsing
 * does not depend on them). */
enum { MAX_CLANG_SM = 90 };

static const flag_rule *find_rule(const char *arg, const char **inline_value)
{
    *inline_value = NULL;
    for (size_t i = 0; i < sizeof flag_rules / sizeof flag_rules[0]; i++) {
        const flag_rule *r = &flag_rules[i];
        size_t len = strlen(r->name);
        if (strcmp(arg, r->name) == 0)
            return r;
        if (r->takes_value && strncmp(arg, r->name, len) == 0 && arg[len] == '=') {
            *inline_value = arg + len + 1;
            return r;
        }
    }
    return NULL;
}

/* Appends --cuda-gpu-arch=sm_NN for an architecture named "sm_NN" or "compute_NN". */
static void push_arch(const char *name, size_t len, ss_args *out)
{
    const char *digits = NULL;
    if (len > 3 && strncmp(name, "sm_", 3) == 0)
        digits = name + 3;
    else if (len > 8 && strncmp(name, "compute_", 8) == 0)
        digits = name + 8;
    if (digits == NULL)
        return;
    int sm = atoi(digits);
    if (sm <= 0 || sm > MAX_CLANG_SM)
        return;
    char arg[64];
    snprintf(arg, sizeof arg, "--cuda-gpu-arch=sm_%d", sm);
    ss_args_push(out, arg);
}

/* "arch=compute_80,code=sm_80" or "arch=compute_80,code=[sm_80,compute_80]": the first
 * sm_ code, else the virtual architecture. */
static void translate_gencode(const char *value, ss_args *out)
{
    const char *code = strstr(value, "code=");
    while (code && code > value && code[-1] != ',')
        code = strstr(code + 1, "code=");
    if (code) {
        const char *p = code + 5;
        if (*p == '[' || *p == '"')
            p++;
        const char *sm = strstr(p, "sm_");
        if (sm) {
            size_t len = strspn(sm + 3, "0123456789") + 3;
            push_arch(sm, len, out);
            return;
        }
    }
    const char *arch = strstr(value, "arch=");
    if (arch) {
        const char *p = arch + 5;
        size_t len = strcspn(p, ",]\"");
        push_arch(p, len, out);
    }
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

static int is_per_thread_define(const char *def)
{
    static const char macro[] = "CUDA_API_PER_THREAD_DEFAULT_STREAM";
    size_t len = sizeof macro - 1;
    return strncmp(def, macro, len) == 0 && (def[len] == '\0' || def[len] == '=');
}

static int same_file(const char *arg, const char *file)
{
    if (file == NULL)
        return 0;
    if (strcmp(arg, file) == 0)
        return 1;
    char *real = realpath(arg, NULL);
    int same = real && strcmp(real, file) == 0;
    free(real);
    return same;
}

static void translate_one(const char *const *argv, size_t count, size_t *i, const char *file,
                          ss_args *out, ss_flags_info *info, int *lang_set);

static void translate_xcompiler(const char *value, const char *file, ss_args *out,
                                ss_flags_info *info, int *lang_set)
{
    ss_args parts = {0};
    char *copy = ss_strdup(value);
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (*tok)
            ss_args_push(&parts, tok);
    }
    free(copy);
    for (size_t j = 0; j < parts.count; j++)
        translate_one((const char *const *)parts.v, parts.count, &j, file, out, info, lang_set);
    ss_args_free(&parts);
}

static void translate_one(const char *const *argv, size_t count, size_t *i, const char *file,
                          ss_args *out, ss_flags_info *info, int *lang_set)
{
    const char *arg = argv[*i];
    const char *value = NULL;
    const flag_rule *rule = find_rule(arg, &value);
    if (rule == NULL) {
        if (strncmp(arg, "-Werror=", 8) == 0)
            return;
        if (strncmp(arg, "-D", 2) == 0 && is_per_thread_define(arg + 2))
            info->per_thread = 1;
        if (strcmp(arg, "-D") == 0 && *i + 1 < count) {
            if (is_per_thread_define(argv[*i + 1]))
                info->per_thread = 1;
            ss_args_push(out, arg);
            ss_args_push(out, argv[++*i]);
            return;
        }
        if (strncmp(arg, "-x", 2) == 0 && arg[2] != '\0') {
            info->lang = lang_of_x(arg + 2, info->lang);
            *lang_set = 1;
            return;
        }
        ss_lang lang;
        if (arg[0] != '-' && (same_file(arg, file) || ss_flags_lang_of(arg, &lang) == 0))
            return; /* the source file itself */
        ss_args_push(out, arg);
        return;
    }
    if (rule->takes_value && value == NULL) {
        if (*i + 1 >= count)
            return; /* a dangling option: drop it */
        value = argv[++*i];
    }
    switch (rule->action) {
    case ACT_KEEP:
        ss_args_push(out, arg);
        if (rule->takes_value && strcmp(arg, rule->name) == 0)
            ss_args_push(out, value);
        break;
    case ACT_DROP:
        break;
    case ACT_LANG:
        info->lang = lang_of_x(value, info->lang);
        *lang_set = 1;
        break;
    case ACT_GENCODE:
        translate_gencode(value, out);
        break;
    case ACT_ARCH:
        push_arch(value, strlen(value), out);
        break;
    case ACT_XCOMPILER:
        translate_xcompiler(value, file, out, info, lang_set);
        break;
    case ACT_DEFAULT_STREAM:
        if (strcmp(value, "per-thread") == 0) {
            info->per_thread = 1;
            ss_args_push(out, "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
        }
        break;
    case ACT_RENAME: {
        size_t len = strlen(rule->clang);
        if (rule->clang[len - 1] == '=') {
            char *joined = ss_asprintf("%s%s", rule->clang, value);
            ss_args_push(out, joined);
            free(joined);
        } else {
            ss_args_push(out, rule->clang);
            ss_args_push(out, value);
        }
        break;
    }
    }
}

/* Options whose value is a path, resolved against the compile command's directory (libclang
 * would otherwise take them relative to the process's working directory). */
static const char *const path_options[] = {"-I",       "-isystem", "-iquote", "-idirafter",
                                           "-include", "-imacros", "-L"};

/* Rewrites relative path values in 'args' from index 'from' on against 'directory'. */
static void absolutize(ss_args *args, size_t from, const char *directory)
{
    for (size_t i = from; i < args->count; i++) {
        for (size_t k = 0; k < sizeof path_options / sizeof path_options[0]; k++) {
            const char *opt = path_options[k];
            size_t len = strlen(opt);
            if (strncmp(args->v[i], opt, len) != 0)
                continue;
            char **slot = NULL;
            const char *value = NULL;
            if (args->v[i][len] == '\0' && i + 1 < args->count) {
                slot = &args->v[i + 1];
                value = *slot;
                i++;
            } else if (args->v[i][len] != '\0' && (len == 2 || args->v[i][len] == '=')) {
                slot = &args->v[i];
                value = args->v[i] + len + (args->v[i][len] == '=');
            }
            if (slot && value[0] != '/' && value[0] != '\0') {
                char *joined = value == *slot ? ss_asprintf("%s/%s", directory, value)
                                              : ss_asprintf("%.*s%s/%s", (int)(value - *slot),
                                                            *slot, directory, value);
                free(*slot);
                *slot = joined;
            }
            break;
        }
    }
}

void ss_flags_translate(const ss_args *argv, const char *file, const char *directory, ss_args *out,
                        ss_flags_info *info)
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
    int lang_set = 0;
    for (size_t i = 1; i < argv->count; i++)
        translate_one((const char *const *)argv->v, argv->count, &i, file, out, info, &lang_set);
    if (directory && directory[0])
        absolutize(out, first, directory);
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
