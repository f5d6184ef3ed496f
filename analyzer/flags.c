/* flags.c: turns compile_commands.json command lines (nvcc, nvc++, gcc, clang) into libclang
 * arguments. nvcc options are translated through one table; of everything else only the kinds
 * of argument a syntax-only parse needs pass (an allow-list: include paths and macros,
 * language and standard, target, warnings, chosen -f and -m options). A compile database is
 * input like any other: an option such as -MJ FILE, -Wp,-MD,FILE or -Xclang -load would
 * otherwise make the analyzer write files or load code. What is dropped is said, on request,
 * one line per argument. */
#include "flags.h"
#include "compdb.h"
#include "log.h"
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

/* Why an argument was dropped, in words for the --verbose line. */
typedef enum drop_why {
    WHY_UNNEEDED,
    WHY_WRITES,
    WHY_LOADS,
    WHY_PASSES,
    WHY_OPTIONS_FILE,
    WHY_WARNINGS,
    WHY_PCH,
    WHY_TOOLKIT,
    WHY_ARCH,
    WHY_STD_FOR_C,
    WHY_STD_FOR_CXX,
    WHY_REMOVED,
    WHY_INPUT,
    WHY_NO_VALUE,
    WHY_OPENMP
} drop_why;

static const char *const why_words[] = {
    [WHY_UNNEEDED] = "not needed to parse",
    [WHY_WRITES] = "it writes a file",
    [WHY_LOADS] = "it loads code or runs programs",
    [WHY_PASSES] = "it passes options on unchecked",
    [WHY_OPTIONS_FILE] = "it reads more options from a file",
    [WHY_WARNINGS] = "warnings are not reported",
    [WHY_PCH] = "a precompiled header is specific to the compiler that made it",
    [WHY_TOOLKIT] = "the CUDA toolkit is chosen with syncscope's --cuda-path",
    [WHY_ARCH] =
        "clang 16 does not know this GPU architecture; the host-side parse does not need it",
    [WHY_STD_FOR_C] = "a C++ standard for a C file: gcc ignores it, clang rejects it",
    [WHY_STD_FOR_CXX] = "a C standard for a C++ or CUDA file: gcc ignores it, clang rejects it",
    [WHY_REMOVED] = "--remove-arg",
    [WHY_INPUT] = "another input file",
    [WHY_NO_VALUE] = "its value is missing",
    [WHY_OPENMP] = "libclang hides the code inside OpenMP directives; they are read as plain "
                   "pragmas",
};

/* How an option is spelled with its value. */
typedef enum opt_form {
    FORM_FLAG,            /* exactly NAME */
    FORM_PREFIX,          /* any argument that starts with NAME (NAME often ends in '=') */
    FORM_PREFIX_SEPARATE, /* an argument that starts with NAME, and the next one (-Xarch_host X) */
    FORM_JOINED_OR_SEPARATE, /* NAMEVALUE, or NAME VALUE */
    FORM_SEPARATE            /* NAME VALUE, or NAME=VALUE */
} opt_form;

/* What to do with an nvcc option (or a clang option with a translation). */
typedef enum flag_action {
    ACT_LANG,           /* -x LANG: recorded; the analyzer adds its own -x */
    ACT_GENCODE,        /* -gencode arch=compute_80,code=sm_80 -> --cuda-gpu-arch=sm_80 */
    ACT_ARCH,           /* -arch sm_80 -> --cuda-gpu-arch=sm_80 */
    ACT_XCOMPILER,      /* -Xcompiler a,b -> a b (each translated again) */
    ACT_DEFAULT_STREAM, /* --default-stream per-thread -> per-thread mode */
    ACT_RDC,            /* -rdc=true, -dc -> -fgpu-rdc (relocatable device code) */
    ACT_RENAME,         /* 'clang' with the value joined to it, then checked like any argument */
    ACT_DROP            /* dropped with its value, for the reason 'why' */
} flag_action;

typedef struct flag_rule {
    const char *name; /* as written, e.g. "-gencode" or "--gpu-architecture" */
    int takes_value;  /* 1: "NAME VALUE" or "NAME=VALUE" */
    flag_action action;
    const char *clang; /* ACT_RENAME: the clang option the value is joined to */
    drop_why why;      /* ACT_DROP */
} flag_rule;

/* The translation table: nvcc options, and the GPU architecture options of clang. nvcc
 * options that take a value are listed so that the value goes with them. */
static const flag_rule flag_rules[] = {
    /* Language and GPU architecture. */
    {"-x", 1, ACT_LANG, NULL, 0},
    {"--x", 1, ACT_LANG, NULL, 0},
    {"-gencode", 1, ACT_GENCODE, NULL, 0},
    {"--generate-code", 1, ACT_GENCODE, NULL, 0},
    {"-arch", 1, ACT_ARCH, NULL, 0},
    {"--gpu-architecture", 1, ACT_ARCH, NULL, 0},
    {"--cuda-gpu-arch", 1, ACT_ARCH, NULL, 0},
    {"--offload-arch", 1, ACT_ARCH, NULL, 0},
    {"-code", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"--gpu-code", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    /* Host compiler options and the default stream. */
    {"-Xcompiler", 1, ACT_XCOMPILER, NULL, 0},
    {"--compiler-options", 1, ACT_XCOMPILER, NULL, 0},
    {"-default-stream", 1, ACT_DEFAULT_STREAM, NULL, 0},
    {"--default-stream", 1, ACT_DEFAULT_STREAM, NULL, 0},
    /* nvcc spellings of ordinary options. */
    {"--include-path", 1, ACT_RENAME, "-I", 0},
    {"--system-include", 1, ACT_RENAME, "-isystem", 0},
    {"--define-macro", 1, ACT_RENAME, "-D", 0},
    {"--undefine-macro", 1, ACT_RENAME, "-U", 0},
    {"--pre-include", 1, ACT_RENAME, "-include", 0},
    {"--std", 1, ACT_RENAME, "-std=", 0},
    {"--machine", 1, ACT_RENAME, "-m", 0},
    {"--optimize", 1, ACT_RENAME, "-O", 0},
    /* nvcc options that write files. */
    {"-odir", 1, ACT_DROP, NULL, WHY_WRITES},
    {"--output-directory", 1, ACT_DROP, NULL, WHY_WRITES},
    {"--output-file", 1, ACT_DROP, NULL, WHY_WRITES},
    {"-keep-dir", 1, ACT_DROP, NULL, WHY_WRITES},
    {"--keep-dir", 1, ACT_DROP, NULL, WHY_WRITES},
    {"-time", 1, ACT_DROP, NULL, WHY_WRITES},
    {"--time", 1, ACT_DROP, NULL, WHY_WRITES},
    {"-fdevice-time-trace", 1, ACT_DROP, NULL, WHY_WRITES},
    {"--fdevice-time-trace", 1, ACT_DROP, NULL, WHY_WRITES},
    {"--dependency-output", 1, ACT_DROP, NULL, WHY_WRITES},
    {"--dependency-target-name", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"--options-file", 1, ACT_DROP, NULL, WHY_OPTIONS_FILE},
    {"-optf", 1, ACT_DROP, NULL, WHY_OPTIONS_FILE},
    {"-ccbin", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"--compiler-bindir", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    /* Other nvcc options with a value (device code, linking, diagnostics). */
    {"-rdc", 1, ACT_RDC, NULL, 0},
    {"--relocatable-device-code", 1, ACT_RDC, NULL, 0},
    {"-dc", 0, ACT_RDC, NULL, 0},
    {"--device-c", 0, ACT_RDC, NULL, 0},
    {"-Xptxas", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"--ptxas-options", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"-Xcudafe", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"-Xnvlink", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"--nvlink-options", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"-Xfatbin", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"--fatbin-options", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"-Xarchive", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"--archive-options", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"--linker-options", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"-maxrregcount", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"--maxrregcount", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"-cudart", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"--cudart", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"-cudadevrt", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"--cudadevrt", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"-t", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"--threads", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"-split-compile", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"--split-compile", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"-ftz", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"--ftz", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"-prec-div", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"--prec-div", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"-prec-sqrt", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"--prec-sqrt", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"-fmad", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"--fmad", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"-diag-suppress", 1, ACT_DROP, NULL, WHY_WARNINGS},
    {"--diag-suppress", 1, ACT_DROP, NULL, WHY_WARNINGS},
    {"-diag-error", 1, ACT_DROP, NULL, WHY_WARNINGS},
    {"--diag-error", 1, ACT_DROP, NULL, WHY_WARNINGS},
    {"-diag-warn", 1, ACT_DROP, NULL, WHY_WARNINGS},
    {"--diag-warn", 1, ACT_DROP, NULL, WHY_WARNINGS},
    {"--Werror", 1, ACT_DROP, NULL, WHY_WARNINGS},
    {"-compress-mode", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"--compress-mode", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"-dopt", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"--dopt", 1, ACT_DROP, NULL, WHY_UNNEEDED},
    {"-Wno-deprecated-gpu-targets", 0, ACT_DROP, NULL, WHY_WARNINGS},
};

/* Options that are dropped for a reason worth saying, and how they take their value (so
 * that the value goes with them). Looked at before the allow-list, so that a longer name
 * here wins over a shorter allowed one (-include-pch over -include, -Werror over -W). */
typedef struct denied_option {
    const char *name;
    opt_form form;
    drop_why why;
} denied_option;

static const denied_option denied_options[] = {
    /* Outputs and dependency files. */
    {"-o", FORM_JOINED_OR_SEPARATE, WHY_WRITES},
    {"--output", FORM_SEPARATE, WHY_WRITES},
    {"-MF", FORM_JOINED_OR_SEPARATE, WHY_WRITES},
    {"-MJ", FORM_JOINED_OR_SEPARATE, WHY_WRITES},
    {"-MT", FORM_JOINED_OR_SEPARATE, WHY_UNNEEDED},
    {"-MQ", FORM_JOINED_OR_SEPARATE, WHY_UNNEEDED},
    {"-MD", FORM_FLAG, WHY_WRITES},
    {"-MMD", FORM_FLAG, WHY_WRITES},
    {"-M", FORM_FLAG, WHY_WRITES},
    {"-MM", FORM_FLAG, WHY_WRITES},
    {"--write-dependencies", FORM_FLAG, WHY_WRITES},
    {"--write-user-dependencies", FORM_FLAG, WHY_WRITES},
    {"--generate-dependencies", FORM_FLAG, WHY_WRITES},
    {"--generate-nonsystem-dependencies", FORM_FLAG, WHY_WRITES},
    {"--generate-dependencies-with-compile", FORM_FLAG, WHY_WRITES},
    {"--generate-nonsystem-dependencies-with-compile", FORM_FLAG, WHY_WRITES},
    {"--serialize-diagnostics", FORM_SEPARATE, WHY_WRITES},
    {"-save-temps", FORM_PREFIX, WHY_WRITES},
    {"--save-temps", FORM_PREFIX, WHY_WRITES},
    {"-ftime-trace", FORM_PREFIX, WHY_WRITES},
    {"-fprofile-", FORM_PREFIX, WHY_WRITES},
    {"-fcs-profile-generate", FORM_PREFIX, WHY_WRITES},
    {"--coverage", FORM_FLAG, WHY_WRITES},
    {"-ftest-coverage", FORM_FLAG, WHY_WRITES},
    {"-fcoverage-", FORM_PREFIX, WHY_WRITES},
    {"-fsave-optimization-record", FORM_PREFIX, WHY_WRITES},
    {"-foptimization-record-file=", FORM_PREFIX, WHY_WRITES},
    {"-fcrash-diagnostics", FORM_PREFIX, WHY_WRITES},
    {"-gsplit-dwarf", FORM_PREFIX, WHY_WRITES},
    {"-fstack-usage", FORM_FLAG, WHY_WRITES},
    {"-fproc-stat-report", FORM_PREFIX, WHY_WRITES},
    {"-fmodules", FORM_PREFIX, WHY_WRITES},
    {"-emit-", FORM_PREFIX, WHY_WRITES},
    {"--analyze", FORM_FLAG, WHY_WRITES},
    {"--analyzer-output", FORM_SEPARATE, WHY_WRITES},
    {"-Xanalyzer", FORM_SEPARATE, WHY_WRITES},
    /* Code and programs. */
    {"-fplugin=", FORM_PREFIX, WHY_LOADS},
    {"-fplugin-arg-", FORM_PREFIX, WHY_LOADS},
    {"-fpass-plugin=", FORM_PREFIX, WHY_LOADS},
    {"-B", FORM_JOINED_OR_SEPARATE, WHY_LOADS},
    {"--prefix", FORM_SEPARATE, WHY_LOADS},
    {"-ccc-", FORM_PREFIX, WHY_LOADS},
    /* Options handed on to another tool unchecked. */
    {"-Wp,", FORM_PREFIX, WHY_PASSES},
    {"-Wp", FORM_FLAG, WHY_PASSES},
    {"-Xpreprocessor", FORM_SEPARATE, WHY_PASSES},
    {"-mllvm", FORM_SEPARATE, WHY_PASSES},
    {"-Xarch_", FORM_PREFIX_SEPARATE, WHY_PASSES},
    {"-Xcuda-", FORM_PREFIX_SEPARATE, WHY_PASSES},
    {"-Xopenmp-target", FORM_PREFIX_SEPARATE, WHY_PASSES},
    {"-Xoffload-linker", FORM_PREFIX_SEPARATE, WHY_PASSES},
    {"-Wl,", FORM_PREFIX, WHY_UNNEEDED},
    {"-Wa,", FORM_PREFIX, WHY_UNNEEDED},
    {"-Xlinker", FORM_SEPARATE, WHY_UNNEEDED},
    {"-Xassembler", FORM_SEPARATE, WHY_UNNEEDED},
    {"-L", FORM_JOINED_OR_SEPARATE, WHY_UNNEEDED},
    {"-l", FORM_JOINED_OR_SEPARATE, WHY_UNNEEDED},
    /* More options from files. */
    {"--config", FORM_SEPARATE, WHY_OPTIONS_FILE},
    {"--config-system-dir=", FORM_PREFIX, WHY_OPTIONS_FILE},
    {"--config-user-dir=", FORM_PREFIX, WHY_OPTIONS_FILE},
    {"-specs=", FORM_PREFIX, WHY_OPTIONS_FILE},
    {"--specs", FORM_SEPARATE, WHY_OPTIONS_FILE},
    /* Include options that do not fit this parse. */
    {"-include-pch", FORM_SEPARATE, WHY_PCH},
    {"-I-", FORM_FLAG, WHY_UNNEEDED},
    {"-ivfsoverlay", FORM_JOINED_OR_SEPARATE, WHY_UNNEEDED},
    {"--cuda-path", FORM_SEPARATE, WHY_TOOLKIT},
    /* Warnings turned into errors (warnings are off: -w). */
    {"-Werror", FORM_PREFIX, WHY_WARNINGS},
    {"-pedantic-errors", FORM_FLAG, WHY_WARNINGS},
    {"--pedantic-errors", FORM_FLAG, WHY_WARNINGS},
};

/* The allow-list: what passes (besides -W warnings and the -f, -m and -O lists below). */
typedef struct allowed_option {
    const char *name;
    opt_form form;
    int path;              /* the value is a path: a relative one is joined to the directory */
    const char *canonical; /* value options: passed on as CANONICAL+VALUE (NULL: NAME+VALUE) */
} allowed_option;

static const allowed_option allowed_options[] = {
    /* Include paths and files. Longer names first where one is a prefix of another. */
    {"-I", FORM_JOINED_OR_SEPARATE, 1, NULL},
    {"--include-directory", FORM_SEPARATE, 1, "-I"},
    {"-isystem", FORM_JOINED_OR_SEPARATE, 1, NULL},
    {"-iquote", FORM_JOINED_OR_SEPARATE, 1, NULL},
    {"-idirafter", FORM_JOINED_OR_SEPARATE, 1, NULL},
    {"--include-directory-after", FORM_SEPARATE, 1, "-idirafter"},
    {"-cxx-isystem", FORM_JOINED_OR_SEPARATE, 1, NULL},
    {"-iwithprefixbefore", FORM_JOINED_OR_SEPARATE, 0, NULL},
    {"-iwithprefix", FORM_JOINED_OR_SEPARATE, 0, NULL},
    {"-iprefix", FORM_JOINED_OR_SEPARATE, 1, NULL},
    {"-isysroot", FORM_JOINED_OR_SEPARATE, 1, NULL},
    {"--sysroot", FORM_SEPARATE, 1, "--sysroot="},
    {"--gcc-toolchain", FORM_SEPARATE, 1, "--gcc-toolchain="},
    {"-resource-dir", FORM_SEPARATE, 1, "-resource-dir="},
    {"-include", FORM_JOINED_OR_SEPARATE, 1, NULL},
    {"--include", FORM_SEPARATE, 1, "-include"},
    {"-imacros", FORM_JOINED_OR_SEPARATE, 1, NULL},
    {"--imacros", FORM_SEPARATE, 1, "-imacros"},
    {"-nostdinc", FORM_FLAG, 0, NULL},
    {"-nostdinc++", FORM_FLAG, 0, NULL},
    {"-nostdlibinc", FORM_FLAG, 0, NULL},
    {"-nobuiltininc", FORM_FLAG, 0, NULL},
    {"--no-standard-includes", FORM_FLAG, 0, NULL},
    {"-stdlib=", FORM_PREFIX, 0, NULL},
    /* Macros. */
    {"-D", FORM_JOINED_OR_SEPARATE, 0, NULL},
    {"-U", FORM_JOINED_OR_SEPARATE, 0, NULL},
    {"-undef", FORM_FLAG, 0, NULL},
    {"-pthread", FORM_FLAG, 0, NULL},
    /* Language standard (the language itself is the analyzer's -x) and target. */
    {"-std=", FORM_PREFIX, 0, NULL},
    {"-ansi", FORM_FLAG, 0, NULL},
    {"-trigraphs", FORM_FLAG, 0, NULL},
    {"-target", FORM_SEPARATE, 0, "--target="},
    {"--target", FORM_SEPARATE, 0, "--target="},
    /* Warnings (the -W options are checked in code). */
    {"-w", FORM_FLAG, 0, NULL},
    {"-pedantic", FORM_FLAG, 0, NULL},
    {"--pedantic", FORM_FLAG, 0, NULL},
    /* Optimization: -O sets __OPTIMIZE__ and __OPTIMIZE_SIZE__. */
    {"-O", FORM_FLAG, 0, NULL},
    {"-O0", FORM_FLAG, 0, NULL},
    {"-O1", FORM_FLAG, 0, NULL},
    {"-O2", FORM_FLAG, 0, NULL},
    {"-O3", FORM_FLAG, 0, NULL},
    {"-Os", FORM_FLAG, 0, NULL},
    {"-Oz", FORM_FLAG, 0, NULL},
    {"-Ofast", FORM_FLAG, 0, NULL},
    {"-Og", FORM_FLAG, 0, NULL},
    /* -f options that change what the source means: the language (exceptions, RTTI, MS
     * extensions, char8_t...) or predefined macros (__PIC__, __FAST_MATH__, __NO_INLINE__,
     * __GNUC__...). The OpenMP options are translate_openmp's. */
    {"-fexceptions", FORM_FLAG, 0, NULL},
    {"-fno-exceptions", FORM_FLAG, 0, NULL},
    {"-fcxx-exceptions", FORM_FLAG, 0, NULL},
    {"-fno-cxx-exceptions", FORM_FLAG, 0, NULL},
    {"-frtti", FORM_FLAG, 0, NULL},
    {"-fno-rtti", FORM_FLAG, 0, NULL},
    {"-fsigned-char", FORM_FLAG, 0, NULL},
    {"-fno-signed-char", FORM_FLAG, 0, NULL},
    {"-funsigned-char", FORM_FLAG, 0, NULL},
    {"-fno-unsigned-char", FORM_FLAG, 0, NULL},
    {"-fshort-wchar", FORM_FLAG, 0, NULL},
    {"-fno-short-wchar", FORM_FLAG, 0, NULL},
    {"-fshort-enums", FORM_FLAG, 0, NULL},
    {"-fno-short-enums", FORM_FLAG, 0, NULL},
    {"-fms-extensions", FORM_FLAG, 0, NULL},
    {"-fno-ms-extensions", FORM_FLAG, 0, NULL},
    {"-fms-compatibility", FORM_FLAG, 0, NULL},
    {"-fno-ms-compatibility", FORM_FLAG, 0, NULL},
    {"-fms-compatibility-version=", FORM_PREFIX, 0, NULL},
    {"-fmsc-version=", FORM_PREFIX, 0, NULL},
    {"-fdeclspec", FORM_FLAG, 0, NULL},
    {"-fno-declspec", FORM_FLAG, 0, NULL},
    {"-fgnuc-version=", FORM_PREFIX, 0, NULL},
    {"-fgnu-keywords", FORM_FLAG, 0, NULL},
    {"-fno-gnu-keywords", FORM_FLAG, 0, NULL},
    {"-fgnu89-inline", FORM_FLAG, 0, NULL},
    {"-fasm", FORM_FLAG, 0, NULL},
    {"-fno-asm", FORM_FLAG, 0, NULL},
    {"-fgnu-inline-asm", FORM_FLAG, 0, NULL},
    {"-fno-gnu-inline-asm", FORM_FLAG, 0, NULL},
    {"-fchar8_t", FORM_FLAG, 0, NULL},
    {"-fno-char8_t", FORM_FLAG, 0, NULL},
    {"-fcoroutines-ts", FORM_FLAG, 0, NULL},
    {"-foperator-names", FORM_FLAG, 0, NULL},
    {"-fno-operator-names", FORM_FLAG, 0, NULL},
    {"-fdigraphs", FORM_FLAG, 0, NULL},
    {"-fno-digraphs", FORM_FLAG, 0, NULL},
    {"-fdouble-square-bracket-attributes", FORM_FLAG, 0, NULL},
    {"-fno-double-square-bracket-attributes", FORM_FLAG, 0, NULL},
    {"-frelaxed-template-template-args", FORM_FLAG, 0, NULL},
    {"-fno-relaxed-template-template-args", FORM_FLAG, 0, NULL},
    {"-fdelayed-template-parsing", FORM_FLAG, 0, NULL},
    {"-fno-delayed-template-parsing", FORM_FLAG, 0, NULL},
    {"-faccess-control", FORM_FLAG, 0, NULL},
    {"-fno-access-control", FORM_FLAG, 0, NULL},
    {"-fsized-deallocation", FORM_FLAG, 0, NULL},
    {"-fno-sized-deallocation", FORM_FLAG, 0, NULL},
    {"-faligned-new", FORM_FLAG, 0, NULL},
    {"-fno-aligned-new", FORM_FLAG, 0, NULL},
    {"-faligned-allocation", FORM_FLAG, 0, NULL},
    {"-fno-aligned-allocation", FORM_FLAG, 0, NULL},
    {"-felide-constructors", FORM_FLAG, 0, NULL},
    {"-fno-elide-constructors", FORM_FLAG, 0, NULL},
    {"-fthreadsafe-statics", FORM_FLAG, 0, NULL},
    {"-fno-threadsafe-statics", FORM_FLAG, 0, NULL},
    {"-fconstexpr-depth=", FORM_PREFIX, 0, NULL},
    {"-fconstexpr-steps=", FORM_PREFIX, 0, NULL},
    {"-ftemplate-depth=", FORM_PREFIX, 0, NULL},
    {"-fbracket-depth=", FORM_PREFIX, 0, NULL},
    {"-fblocks", FORM_FLAG, 0, NULL},
    {"-fno-blocks", FORM_FLAG, 0, NULL},
    {"-fcommon", FORM_FLAG, 0, NULL},
    {"-fno-common", FORM_FLAG, 0, NULL},
    {"-fdollars-in-identifiers", FORM_FLAG, 0, NULL},
    {"-fno-dollars-in-identifiers", FORM_FLAG, 0, NULL},
    {"-flax-vector-conversions", FORM_FLAG, 0, NULL},
    {"-fno-lax-vector-conversions", FORM_FLAG, 0, NULL},
    {"-flax-vector-conversions=", FORM_PREFIX, 0, NULL},
    {"-fPIC", FORM_FLAG, 0, NULL},
    {"-fno-PIC", FORM_FLAG, 0, NULL},
    {"-fpic", FORM_FLAG, 0, NULL},
    {"-fno-pic", FORM_FLAG, 0, NULL},
    {"-fPIE", FORM_FLAG, 0, NULL},
    {"-fno-PIE", FORM_FLAG, 0, NULL},
    {"-fpie", FORM_FLAG, 0, NULL},
    {"-fno-pie", FORM_FLAG, 0, NULL},
    {"-ffast-math", FORM_FLAG, 0, NULL},
    {"-fno-fast-math", FORM_FLAG, 0, NULL},
    {"-ffinite-math-only", FORM_FLAG, 0, NULL},
    {"-fno-finite-math-only", FORM_FLAG, 0, NULL},
    {"-fmath-errno", FORM_FLAG, 0, NULL},
    {"-fno-math-errno", FORM_FLAG, 0, NULL},
    {"-ffp-model=", FORM_PREFIX, 0, NULL},
    {"-fwrapv", FORM_FLAG, 0, NULL},
    {"-fno-wrapv", FORM_FLAG, 0, NULL},
    {"-ftrapv", FORM_FLAG, 0, NULL},
    {"-fbuiltin", FORM_FLAG, 0, NULL},
    {"-fno-builtin", FORM_FLAG, 0, NULL},
    {"-fno-builtin-", FORM_PREFIX, 0, NULL},
    {"-ffreestanding", FORM_FLAG, 0, NULL},
    {"-finline", FORM_FLAG, 0, NULL},
    {"-fno-inline", FORM_FLAG, 0, NULL},
    {"-fvisibility=", FORM_PREFIX, 0, NULL},
    {"-fvisibility-inlines-hidden", FORM_FLAG, 0, NULL},
    {"-fsyntax-only", FORM_FLAG, 0, NULL},
    /* CUDA: relocatable device code sets __CLANG_RDC__. */
    {"-fgpu-rdc", FORM_FLAG, 0, NULL},
    {"-fno-gpu-rdc", FORM_FLAG, 0, NULL},
    /* -m options that set predefined macros: the word size, the CPU, instruction sets. */
    {"-m16", FORM_FLAG, 0, NULL},
    {"-m32", FORM_FLAG, 0, NULL},
    {"-m64", FORM_FLAG, 0, NULL},
    {"-mx32", FORM_FLAG, 0, NULL},
    {"-march=", FORM_PREFIX, 0, NULL},
    {"-mcpu=", FORM_PREFIX, 0, NULL},
    {"-mtune=", FORM_PREFIX, 0, NULL},
    {"-mfpmath=", FORM_PREFIX, 0, NULL},
    {"-mfpu=", FORM_PREFIX, 0, NULL},
    {"-mfloat-abi=", FORM_PREFIX, 0, NULL},
    {"-mabi=", FORM_PREFIX, 0, NULL},
    {"-mthumb", FORM_FLAG, 0, NULL},
    {"-mno-thumb", FORM_FLAG, 0, NULL},
    {"-marm", FORM_FLAG, 0, NULL},
    {"-mbig-endian", FORM_FLAG, 0, NULL},
    {"-mlittle-endian", FORM_FLAG, 0, NULL},
};

/* Instruction-set features: -mFEATURE and -mno-FEATURE pass (they set __AVX2__ and such). */
static const char *const m_features[] = {
    "mmx",     "sse",      "sse2",     "sse3",     "ssse3",    "sse4",       "sse4.1",   "sse4.2",
    "sse4a",   "avx",      "avx2",     "fma",      "fma4",     "f16c",       "bmi",      "bmi2",
    "popcnt",  "lzcnt",    "aes",      "pclmul",   "rdrnd",    "rdseed",     "fsgsbase", "movbe",
    "cx16",    "adx",      "sha",      "xsave",    "xsaveopt", "vpclmulqdq", "vaes",     "gfni",
    "avxvnni", "amx-tile", "amx-int8", "amx-bf16", "altivec",  "vsx"};

/* cc1 options that pass after -Xclang. */
static const char *const cc1_allowed[] = {"-fcuda-allow-variadic-functions",
                                          "-fno-cuda-host-device-constexpr"};

/* cc1 options that take their value as the next -Xclang argument, with why they are
 * dropped ('prefix': the name is a prefix, as in -plugin-arg-NAME). */
static const struct {
    const char *name;
    int prefix;
    drop_why why;
} cc1_valued[] = {
    {"-load", 0, WHY_LOADS},
    {"-plugin", 0, WHY_LOADS},
    {"-add-plugin", 0, WHY_LOADS},
    {"-plugin-arg-", 1, WHY_LOADS},
    {"-dependency-file", 0, WHY_WRITES},
    {"-header-include-file", 0, WHY_WRITES},
    {"-dependency-dot", 0, WHY_WRITES},
    {"-module-dependency-dir", 0, WHY_WRITES},
    {"-o", 0, WHY_WRITES},
    {"-MT", 0, WHY_UNNEEDED},
    {"-include-pch", 0, WHY_PCH},
    {"-main-file-name", 0, WHY_UNNEEDED},
};

/* cc1 options without a value that write files. */
static const char *const cc1_writing_prefixes[] = {"-emit-", "-stats-file=", "-ast-dump",
                                                   "-analyze", "-analyzer-output"};

/* The GPU architectures clang 16 knows (sm_NN); others are dropped. */
static const int clang_sms[] = {20, 21, 30, 32, 35, 37, 50, 52, 53, 60,
                                61, 62, 70, 72, 75, 80, 86, 87, 89, 90};

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
    append_shown(&text, &len, &cap, why_words[why]);
    append_shown(&text, &len, &cap, ")");
    ss_args_push(t->filter->dropped, text);
    free(text);
}

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

/* Whether argv[i] is the option 'name' written in 'form'. Sets *value (NULL for flags and
 * prefixes, and when a separate value is missing) and *used (how many arguments it spans). */
static int match_option(const char *const *argv, size_t count, size_t i, const char *name,
                        opt_form form, const char **value, size_t *used)
{
    const char *arg = argv[i];
    size_t len = strlen(name);
    *value = NULL;
    *used = 1;
    switch (form) {
    case FORM_FLAG:
        return strcmp(arg, name) == 0;
    case FORM_PREFIX:
        return strncmp(arg, name, len) == 0;
    case FORM_PREFIX_SEPARATE:
        if (strncmp(arg, name, len) != 0)
            return 0;
        *used = i + 1 < count ? 2 : 1;
        return 1;
    case FORM_JOINED_OR_SEPARATE:
    case FORM_SEPARATE:
        if (strcmp(arg, name) == 0) {
            if (i + 1 < count) {
                *value = argv[i + 1];
                *used = 2;
            }
            return 1;
        }
        if (strncmp(arg, name, len) != 0)
            return 0;
        if (form == FORM_SEPARATE) {
            if (arg[len] != '=')
                return 0;
            *value = arg + len + 1;
            return 1;
        }
        *value = arg + len;
        return 1;
    }
    return 0;
}

int ss_flags_takes_value(const char *arg)
{
    const char *value;
    if (strcmp(arg, "-Xclang") == 0)
        return 1;
    const flag_rule *rule = find_rule(arg, &value);
    if (rule)
        return rule->takes_value && value == NULL;
    for (size_t i = 0; i < sizeof denied_options / sizeof denied_options[0]; i++) {
        const denied_option *d = &denied_options[i];
        if (d->form == FORM_PREFIX_SEPARATE && strncmp(arg, d->name, strlen(d->name)) == 0)
            return 1;
        if ((d->form == FORM_SEPARATE || d->form == FORM_JOINED_OR_SEPARATE) &&
            strcmp(arg, d->name) == 0)
            return 1;
    }
    for (size_t i = 0; i < sizeof allowed_options / sizeof allowed_options[0]; i++) {
        const allowed_option *a = &allowed_options[i];
        if ((a->form == FORM_SEPARATE || a->form == FORM_JOINED_OR_SEPARATE) &&
            strcmp(arg, a->name) == 0)
            return 1;
    }
    return 0;
}

/* Whether --remove-arg 'pattern' names 'arg': the same argument; for a pattern ending in
 * '*', any argument that starts with the rest; for an option, also its NAME=VALUE form and,
 * for an option that takes a value, its joined form (-I removes -Ifoo). */
static int pattern_matches(const char *pattern, const char *arg)
{
    size_t len = strlen(pattern);
    if (len && pattern[len - 1] == '*')
        return strncmp(arg, pattern, len - 1) == 0;
    if (strcmp(arg, pattern) == 0)
        return 1;
    if (pattern[0] != '-' || strncmp(arg, pattern, len) != 0)
        return 0;
    if (arg[len] == '=')
        return 1;
    for (size_t i = 0; i < sizeof allowed_options / sizeof allowed_options[0]; i++) {
        if (allowed_options[i].form == FORM_JOINED_OR_SEPARATE &&
            strcmp(allowed_options[i].name, pattern) == 0)
            return 1;
    }
    return 0;
}

static int removed(const translation *t, const char *arg)
{
    if (t->filter == NULL)
        return 0;
    for (size_t i = 0; i < t->filter->remove_count; i++) {
        if (pattern_matches(t->filter->remove[i], arg))
            return 1;
    }
    return 0;
}

/* The number NN of an architecture named "sm_NN" or "compute_NN" ('len' bytes), when clang
 * 16 knows it; else 0. */
static int known_sm(const char *name, size_t len)
{
    const char *digits = NULL;
    if (len > 3 && strncmp(name, "sm_", 3) == 0)
        digits = name + 3;
    else if (len > 8 && strncmp(name, "compute_", 8) == 0)
        digits = name + 8;
    if (digits == NULL)
        return 0;
    size_t ndigits = (size_t)(name + len - digits);
    if (ndigits == 0 || ndigits > 3 || strspn(digits, "0123456789") != ndigits)
        return 0;
    int sm = atoi(digits);
    for (size_t i = 0; i < sizeof clang_sms / sizeof clang_sms[0]; i++) {
        if (clang_sms[i] == sm)
            return sm;
    }
    return 0;
}

/* Appends --cuda-gpu-arch=sm_NN for an architecture clang 16 knows. Returns 1 when it did. */
static int push_arch(const char *name, size_t len, ss_args *out)
{
    int sm = known_sm(name, len);
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
    char *real = realpath(joined, NULL);
    int same = real && strcmp(real, t->file) == 0;
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
    for (size_t k = 0; k < sizeof cc1_allowed / sizeof cc1_allowed[0]; k++) {
        if (strcmp(cc1, cc1_allowed[k]) == 0) {
            ss_args_push(t->out, argv[at]);
            ss_args_push(t->out, cc1);
            return;
        }
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
    for (size_t k = 0; k < sizeof cc1_valued / sizeof cc1_valued[0]; k++) {
        const char *name = cc1_valued[k].name;
        int match =
            cc1_valued[k].prefix ? strncmp(cc1, name, strlen(name)) == 0 : strcmp(cc1, name) == 0;
        if (match) {
            *i = has_value ? at + 3 : at + 1;
            note_drop(t, argv, at, has_value ? 4 : 2, cc1_valued[k].why);
            return;
        }
    }
    drop_why why = WHY_UNNEEDED;
    for (size_t k = 0; k < sizeof cc1_writing_prefixes / sizeof cc1_writing_prefixes[0]; k++) {
        if (strncmp(cc1, cc1_writing_prefixes[k], strlen(cc1_writing_prefixes[k])) == 0)
            why = WHY_WRITES;
    }
    note_drop(t, argv, at, 2, why);
}

/* Whether 'arg' is a -W warning option. (-Wp, -Wl, -Wa and -Werror are denied before the
 * allow-list is consulted.) */
static int is_warning_option(const char *arg)
{
    return arg[0] == '-' && arg[1] == 'W';
}

/* Whether 'arg' is -mFEATURE or -mno-FEATURE for a known instruction-set feature, or an
 * -mavx512... feature. */
static int is_m_feature(const char *arg)
{
    if (strncmp(arg, "-m", 2) != 0)
        return 0;
    const char *feature = arg + 2;
    if (strncmp(feature, "no-", 3) == 0)
        feature += 3;
    if (strncmp(feature, "avx512", 6) == 0)
        return feature[6] != '\0' &&
               strspn(feature + 6, "abcdefghijklmnopqrstuvwxyz0123456789") == strlen(feature + 6);
    for (size_t i = 0; i < sizeof m_features / sizeof m_features[0]; i++) {
        if (strcmp(feature, m_features[i]) == 0)
            return 1;
    }
    return 0;
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
    for (size_t k = 0; k < sizeof allowed_options / sizeof allowed_options[0]; k++) {
        const allowed_option *a = &allowed_options[k];
        const char *value;
        size_t used;
        if (!match_option(argv, count, *i, a->name, a->form, &value, &used))
            continue;
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
    if (is_warning_option(arg) || is_m_feature(arg)) {
        ss_args_push(t->out, arg);
        return 1;
    }
    return 0;
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
        ss_lang lang;
        if (same_file(arg, t))
            return;
        note_drop(t, argv, *i, 1,
                  arg[0] != '-' && ss_flags_lang_of(arg, &lang) == 0 ? WHY_INPUT : WHY_UNNEEDED);
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
    const flag_rule *rule = find_rule(arg, &value);
    if (rule) {
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
    for (size_t k = 0; k < sizeof denied_options / sizeof denied_options[0]; k++) {
        const denied_option *d = &denied_options[k];
        size_t used;
        if (match_option(argv, count, *i, d->name, d->form, &value, &used)) {
            note_drop(t, argv, *i, used, d->why);
            *i += used - 1;
            return;
        }
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
