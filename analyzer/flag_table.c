/* flag_table.c: the tables of flag translation and the lookups over them: nvcc's options
 * and what each becomes, the options dropped for a reason worth saying, the allow-list of
 * what a syntax-only parse needs, the cc1 options after -Xclang, and the GPU architectures
 * clang 16 knows. flags.c walks a command line through them. */
#include "flag_table.h"
#include "flags.h"

#include <stdlib.h>
#include <string.h>

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

const flag_rule *ss_flag_rule_find(const char *arg, const char **inline_value)
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

int ss_flag_match(const char *const *argv, size_t count, size_t i, const char *name, opt_form form,
                  const char **value, size_t *used)
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
    const flag_rule *rule = ss_flag_rule_find(arg, &value);
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

int ss_flag_pattern_matches(const char *pattern, const char *arg)
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

int ss_flag_known_sm(const char *name, size_t len)
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

int ss_flag_is_warning(const char *arg)
{
    return arg[0] == '-' && arg[1] == 'W';
}

int ss_flag_is_m_feature(const char *arg)
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

const char *ss_flag_why_words(drop_why why)
{
    return why_words[why];
}

int ss_flag_denied(const char *const *argv, size_t count, size_t i, size_t *used, drop_why *why)
{
    for (size_t k = 0; k < sizeof denied_options / sizeof denied_options[0]; k++) {
        const denied_option *d = &denied_options[k];
        const char *value;
        if (ss_flag_match(argv, count, i, d->name, d->form, &value, used)) {
            *why = d->why;
            return 1;
        }
    }
    return 0;
}

const allowed_option *ss_flag_allowed_find(const char *const *argv, size_t count, size_t i,
                                           const char **value, size_t *used)
{
    for (size_t k = 0; k < sizeof allowed_options / sizeof allowed_options[0]; k++) {
        const allowed_option *a = &allowed_options[k];
        if (ss_flag_match(argv, count, i, a->name, a->form, value, used))
            return a;
    }
    return NULL;
}

int ss_flag_cc1_allowed(const char *cc1)
{
    for (size_t k = 0; k < sizeof cc1_allowed / sizeof cc1_allowed[0]; k++) {
        if (strcmp(cc1, cc1_allowed[k]) == 0)
            return 1;
    }
    return 0;
}

int ss_flag_cc1_valued(const char *cc1, drop_why *why)
{
    for (size_t k = 0; k < sizeof cc1_valued / sizeof cc1_valued[0]; k++) {
        const char *name = cc1_valued[k].name;
        int match =
            cc1_valued[k].prefix ? strncmp(cc1, name, strlen(name)) == 0 : strcmp(cc1, name) == 0;
        if (match) {
            *why = cc1_valued[k].why;
            return 1;
        }
    }
    return 0;
}

int ss_flag_cc1_writes(const char *cc1)
{
    int writes = 0;
    for (size_t k = 0; k < sizeof cc1_writing_prefixes / sizeof cc1_writing_prefixes[0]; k++) {
        if (strncmp(cc1, cc1_writing_prefixes[k], strlen(cc1_writing_prefixes[k])) == 0)
            writes = 1;
    }
    return writes;
}
