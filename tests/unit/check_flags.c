/* check_flags.c: the nvcc-to-clang flag translation table, row by row; the allow-list (what a
 * compile database may pass to libclang, what is dropped and how it is said), --remove-arg,
 * and `syncscope lint` over compile databases that try to make it write files. */
#include "check_main.h"
#include "cli_fixture.h"
#include "internal.h"
#include "log.h"
#include "tmp_fixture.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Joins 'args' by single spaces into 'joined'. */
static void join(const ss_args *args, char *joined, size_t size)
{
    joined[0] = '\0';
    size_t len = 0;
    for (size_t i = 0; i < args->count && len < size; i++)
        len += (size_t)snprintf(joined + len, size - len, "%s%s", i ? " " : "", args->v[i]);
}

/* Translates 'line' (split like a shell) for file /src/k.cu in /build with 'filter' (may be
 * NULL) and returns the arguments joined by single spaces in 'joined'. */
static void translate_with(const char *line, const ss_flags_filter *filter, char *joined,
                           size_t size, ss_flags_info *info)
{
    ss_args argv = {0}, out = {0};
    ck_assert_int_eq(ss_compdb_split(line, &argv), 0);
    ss_flags_translate_filtered(&argv, "/src/k.cu", "/build", filter, &out, info);
    join(&out, joined, size);
    ss_args_free(&argv);
    ss_args_free(&out);
}

static void translate(const char *line, char *joined, size_t size, ss_flags_info *info)
{
    translate_with(line, NULL, joined, size, info);
}

START_TEST(test_translation_table)
{
    static const struct {
        const char *command;
        const char *clang;
    } rows[] = {
        {"nvcc -x cu -c /src/k.cu -o k.o", ""},
        {"nvcc -gencode arch=compute_80,code=sm_80 /src/k.cu", "--cuda-gpu-arch=sm_80"},
        {"nvcc -gencode=arch=compute_90,code=[sm_90,compute_90] /src/k.cu",
         "--cuda-gpu-arch=sm_90"},
        {"nvcc --generate-code arch=compute_75,code=compute_75 k.cu", "--cuda-gpu-arch=sm_75"},
        {"nvcc -arch=sm_70 k.cu", "--cuda-gpu-arch=sm_70"},
        {"nvcc -arch sm_100 -gencode arch=compute_120,code=sm_120 k.cu", ""},
        {"nvcc -arch sm_13 -arch=native -arch all k.cu", ""},
        {"clang++ --cuda-gpu-arch=sm_90a --offload-arch=sm_86 k.cu", "--cuda-gpu-arch=sm_86"},
        {"nvcc -Xcompiler -fPIC,-Wall -Xcompiler=-O2 k.cu", "-fPIC -Wall -O2"},
        /* OpenMP: the directives become plain pragmas, and _OPENMP is defined as clang 16
         * defines it for the command's OpenMP version, unless the command defines it. */
        {"nvcc --compiler-options -fopenmp k.cu", "-D_OPENMP=201811"},
        {"clang++ -fopenmp=libomp -fopenmp-version=45 -fopenmp-simd k.cu", "-D_OPENMP=201511"},
        {"clang++ -fopenmp -fopenmp-version=51 -fopenmp-extensions k.cu", "-D_OPENMP=202011"},
        {"clang++ -fopenmp=libgomp -fopenmp-simd -fno-openmp-simd k.cu", ""},
        {"g++ -fopenmp -O2 -fno-openmp k.cu", "-O2"},
        {"g++ -fopenmp -D_OPENMP=201511 k.cu", "-D_OPENMP=201511"},
        {"nvcc -Xcompiler -fopenmp --undefine-macro _OPENMP k.cu", "-U_OPENMP"},
        {"nvcc --expt-relaxed-constexpr --expt-extended-lambda --extended-lambda "
         "--use_fast_math -lineinfo -G k.cu",
         ""},
        /* Relocatable device code: 'extern __shared__' and extern __device__ variables. */
        {"nvcc -rdc=true k.cu", "-fgpu-rdc"},
        {"nvcc -rdc true --relocatable-device-code=false k.cu", "-fgpu-rdc -fno-gpu-rdc"},
        {"nvcc --relocatable-device-code true -O2 k.cu", "-fgpu-rdc -O2"},
        {"nvcc -dc k.cu", "-fgpu-rdc"},
        {"nvcc --device-c -o k.o k.cu", "-fgpu-rdc"},
        {"nvcc -rdc=maybe k.cu", ""},
        {"nvcc -Xptxas -v --ptxas-options=-v -Xcudafe --diag_suppress=1 -maxrregcount 32 "
         "-ccbin /usr/bin/g++ -cudart shared -t 4 --diag-suppress 20012 k.cu",
         ""},
        {"nvcc -compress-mode=size --compress-mode size -cuda -Wno-deprecated-gpu-targets "
         "-forward-unknown-to-host-compiler k.cu",
         ""},
        {"nvcc -MD -MF k.d -MT k.o -Werror -Werror=shadow -c k.cu -o k.o", ""},
        {"nvcc --include-path inc --system-include /sys --define-macro A=1 --std c++17 "
         "--machine 64 --optimize 3 k.cu",
         "-I/build/inc -isystem/sys -DA=1 -std=c++17 -m64 -O3"},
        /* CMake's system include folders for nvcc: '-isystem=DIR'. */
        {"nvcc -isystem=/usr/local/trt/include -isystem=third -isystem /s2 -c k.cu",
         "-isystem/usr/local/trt/include -isystem/build/third -isystem/s2"},
        {"g++ -Iinclude -I ../other -isystem third -include cfg.h -DX -O2 -c k.cu",
         "-I/build/include -I/build/../other -isystem/build/third -include/build/cfg.h -DX -O2"},
        {"clang++ -Xclang -fcuda-allow-variadic-functions -std=c++17 k.cu",
         "-Xclang -fcuda-allow-variadic-functions -std=c++17"},
        /* CMake's precompiled header for clang: the header is included, the PCH is not. */
        {"clang++ -Xclang -include-pch -Xclang /b/cmake_pch.hxx.pch -Xclang -include -Xclang "
         "cmake_pch.hxx k.cu",
         "-include/build/cmake_pch.hxx"},
        {"g++ --include-directory=a --include-directory b -iquote q -idirafter /d -imacros m.h "
         "--sysroot /sr -isysroot s -resource-dir r -target x86_64-linux-gnu --target=aarch64 "
         "k.cu",
         "-I/build/a -I/build/b -iquote/build/q -idirafter/d -imacros/build/m.h --sysroot=/sr "
         "-isysroot/build/s -resource-dir=/build/r --target=x86_64-linux-gnu --target=aarch64"},
        {"g++ -m64 -mavx2 -mno-sse4a -march=native -mavx512f -mllvm -x -fopenmp -fPIC "
         "-fno-exceptions -fvisibility=hidden -g -pipe -fno-strict-aliasing -w -Wall "
         "-Wno-unused -pthread k.cu",
         "-m64 -mavx2 -mno-sse4a -march=native -mavx512f -fPIC -fno-exceptions "
         "-fvisibility=hidden -w -Wall -Wno-unused -pthread -D_OPENMP=201811"},
        /* A C standard for a CUDA file: gcc ignores it, clang refuses it. */
        {"g++ -std=gnu11 -std=c++14 k.cu", "-std=c++14"},
        /* An empty value would take the next argument as its own. */
        {"g++ -D '' -I/x -I", "-I/x"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char joined[1024];
        ss_flags_info info;
        translate(rows[i].command, joined, sizeof joined, &info);
        ck_assert_msg(strcmp(joined, rows[i].clang) == 0, "row %zu: '%s' gave '%s', not '%s'", i,
                      rows[i].command, joined, rows[i].clang);
        ck_assert_int_eq(info.per_thread, 0);
    }
}
END_TEST

START_TEST(test_language_and_compiler)
{
    char joined[256];
    ss_flags_info info;
    ss_args argv = {0}, out = {0};
    ss_compdb_split("nvcc -x cu -c host.cpp", &argv);
    ss_flags_translate(&argv, "/src/host.cpp", NULL, &out, &info);
    ck_assert_int_eq(info.lang, SS_LANG_CUDA);
    ck_assert_int_eq(info.nvcc, 1);
    ck_assert_uint_eq(out.count, 0);
    ss_args_free(&argv);
    ss_args_free(&out);
    translate("/usr/bin/g++ -c /src/k.cu", joined, sizeof joined, &info);
    ck_assert_int_eq(info.nvcc, 0);
    ck_assert_int_eq(info.lang, SS_LANG_CUDA);
    /* A C file built by nvcc with a C++ standard (nvcc and gcc only warn). */
    ss_compdb_split("nvcc -std=c++17 -DX -c util.c", &argv);
    ss_flags_translate(&argv, "/src/util.c", NULL, &out, &info);
    ck_assert_int_eq(info.lang, SS_LANG_C);
    join(&out, joined, sizeof joined);
    ck_assert_str_eq(joined, "-DX");
    ss_args_free(&argv);
    ss_args_free(&out);
    ss_lang lang;
    ck_assert_int_eq(ss_flags_lang_of("a/b.cuh", &lang), 0);
    ck_assert_int_eq(lang, SS_LANG_CUDA);
    ck_assert_int_eq(ss_flags_lang_of("b.c", &lang), 0);
    ck_assert_int_eq(lang, SS_LANG_C);
    ck_assert_int_eq(ss_flags_lang_of("b.hpp", &lang), 0);
    ck_assert_int_eq(lang, SS_LANG_CXX);
    ck_assert_int_eq(ss_flags_lang_of("b.o", &lang), -1);
    ck_assert_int_eq(ss_flags_lang_of("dir.cu/README", &lang), -1);
}
END_TEST

START_TEST(test_default_stream_per_thread)
{
    char joined[256];
    ss_flags_info info;
    translate("nvcc --default-stream per-thread -c k.cu", joined, sizeof joined, &info);
    ck_assert_int_eq(info.per_thread, 1);
    ck_assert_str_eq(joined, "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
    translate("nvcc -default-stream=per-thread k.cu", joined, sizeof joined, &info);
    ck_assert_int_eq(info.per_thread, 1);
    translate("nvcc --default-stream legacy k.cu", joined, sizeof joined, &info);
    ck_assert_int_eq(info.per_thread, 0);
    ck_assert_str_eq(joined, "");
    translate("nvcc -DCUDA_API_PER_THREAD_DEFAULT_STREAM k.cu", joined, sizeof joined, &info);
    ck_assert_int_eq(info.per_thread, 1);
    translate("nvcc -D CUDA_API_PER_THREAD_DEFAULT_STREAM=1 k.cu", joined, sizeof joined, &info);
    ck_assert_int_eq(info.per_thread, 1);
    ck_assert_str_eq(joined, "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
    translate("nvcc -DCUDA_API_PER_THREAD_DEFAULT_STREAMS k.cu", joined, sizeof joined, &info);
    ck_assert_int_eq(info.per_thread, 0);

    const char *extra[] = {"-x", "cuda", "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1"};
    ss_flags_info scanned = {SS_LANG_C, 0, 0};
    ss_flags_scan(extra, 3, &scanned);
    ck_assert_int_eq(scanned.per_thread, 1);
    ck_assert_int_eq(scanned.lang, SS_LANG_CUDA);
}
END_TEST

/* Translates 'line' with --remove-arg 'patterns' and checks the arguments passed on and the
 * dropped lines (joined by '|'). */
static void expect_dropped(const char *line, const char *const *patterns, size_t npatterns,
                           const char *clang, const char *dropped)
{
    ss_args notes = {0};
    ss_flags_filter filter = {patterns, npatterns, &notes};
    char joined[1024], notes_joined[2048] = "";
    ss_flags_info info;
    translate_with(line, &filter, joined, sizeof joined, &info);
    size_t len = 0;
    for (size_t i = 0; i < notes.count; i++)
        len += (size_t)snprintf(notes_joined + len, sizeof notes_joined - len, "%s%s", i ? "|" : "",
                                notes.v[i]);
    ck_assert_msg(strcmp(joined, clang) == 0, "'%s' gave '%s', not '%s'", line, joined, clang);
    ck_assert_msg(strcmp(notes_joined, dropped) == 0, "'%s' dropped '%s', not '%s'", line,
                  notes_joined, dropped);
    ss_args_free(&notes);
}

START_TEST(test_dropped_arguments_are_said)
{
    expect_dropped("nvcc -MD -MF k.d -c /src/k.cu -o k.o -compress-mode=size -O2 "
                   "-Xcompiler -Wp,-MD,x.d other.cu",
                   NULL, 0, "-O2",
                   "'-MD' (it writes a file)|'-MF k.d' (it writes a file)|"
                   "'-c' (not needed to parse)|'-o k.o' (it writes a file)|"
                   "'-compress-mode=size' (not needed to parse)|"
                   "'-Wp' (it passes options on unchecked)|'-MD' (it writes a file)|"
                   "'x.d' (not needed to parse)|'other.cu' (another input file)");
    expect_dropped("clang++ -Xclang -load -Xclang /p.so -fplugin=/p.so -B /bin -Xclang -plugin "
                   "-Xclang x -Xclang -plugin-arg-x -Xclang y /src/k.cu",
                   NULL, 0, "",
                   "'-Xclang -load -Xclang /p.so' (it loads code or runs programs)|"
                   "'-fplugin=/p.so' (it loads code or runs programs)|"
                   "'-B /bin' (it loads code or runs programs)|"
                   "'-Xclang -plugin -Xclang x' (it loads code or runs programs)|"
                   "'-Xclang -plugin-arg-x -Xclang y' (it loads code or runs programs)");
    expect_dropped("clang++ --config /c.cfg -Xclang -emit-pch -include-pch /a.pch -arch sm_13 "
                   "--cuda-path=/opt/cuda -std=c99 /src/k.cu",
                   NULL, 0, "",
                   "'--config /c.cfg' (it reads more options from a file)|"
                   "'-Xclang -emit-pch' (it writes a file)|"
                   "'-include-pch /a.pch' (a precompiled header is specific to the compiler that "
                   "made it)|"
                   "'-arch sm_13' (clang 16 does not know this GPU architecture; the host-side "
                   "parse does not need it)|"
                   "'--cuda-path=/opt/cuda' (the CUDA toolkit is chosen with syncscope's "
                   "--cuda-path)|"
                   "'-std=c99' (a C standard for a C++ or CUDA file: gcc ignores it, clang "
                   "rejects it)");
    /* OpenMP options are said; --remove-arg takes the define made for them too. */
    expect_dropped("nvcc -Xcompiler -fopenmp,-fopenmp-simd /src/k.cu", NULL, 0, "-D_OPENMP=201811",
                   "'-fopenmp' (libclang hides the code inside OpenMP directives; they are read "
                   "as plain pragmas)|'-fopenmp-simd' (libclang hides the code inside OpenMP "
                   "directives; they are read as plain pragmas)");
    const char *no_define[] = {"-D_OPENMP"};
    expect_dropped("g++ -fopenmp /src/k.cu", no_define, 1, "",
                   "'-fopenmp' (libclang hides the code inside OpenMP directives; they are read "
                   "as plain pragmas)|'-D_OPENMP=201811' (--remove-arg)");
    /* Control characters from a compile database never reach the terminal as they are. */
    expect_dropped("g++ '-fbogus\033[31m' /src/k.cu", NULL, 0, "",
                   "'-fbogus\\x1b[31m' (not needed to parse)");
    /* --remove-arg: an argument, an option with its value (separate or joined), a prefix,
     * and a translated argument. */
    const char *patterns[] = {"-compress-mode*", "-DX", "-I", "-std=c++20", "-Xclang"};
    expect_dropped("nvcc -compress-mode=size -DX -DY -I inc -Ifoo -isystem /s --std c++20 "
                   "-Xcompiler -compress-mode=none -Xclang -fcuda-allow-variadic-functions "
                   "/src/k.cu",
                   patterns, 5, "-DY -isystem/s",
                   "'-compress-mode=size' (--remove-arg)|'-DX' (--remove-arg)|"
                   "'-I inc' (--remove-arg)|'-Ifoo' (--remove-arg)|'-std=c++20' (--remove-arg)|"
                   "'-compress-mode=none' (--remove-arg)|"
                   "'-Xclang -fcuda-allow-variadic-functions' (--remove-arg)");
}
END_TEST

START_TEST(test_argument_helpers)
{
    const char *args[] = {"-DA=b c", "it's", "-I/x", ""};
    char *shown = ss_flags_shown(args, 4);
    ck_assert_str_eq(shown, "'-DA=b c' 'it'\\''s' -I/x ''");
    free(shown);
    static const struct {
        const char *arg;
        int takes_value;
    } rows[] = {{"-isystem", 1}, {"-I", 1},         {"-I/x", 0},       {"-Xclang", 1},
                {"-MF", 1},      {"-Xptxas", 1},    {"-O2", 0},        {"-DX", 0},
                {"-x", 1},       {"-target", 1},    {"--target=x", 0}, {"-Xarch_host", 1},
                {"-arch", 1},    {"-arch=sm_80", 0}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        ck_assert_msg(ss_flags_takes_value(rows[i].arg) == rows[i].takes_value, "'%s'",
                      rows[i].arg);
    const char *line[] = {"-isystem", "/x", "-DY", "-I"};
    ck_assert_uint_eq(ss_flags_group_len(line, 4, 0), 2);
    ck_assert_uint_eq(ss_flags_group_len(line, 4, 2), 1);
    ck_assert_uint_eq(ss_flags_group_len(line, 4, 3), 1);
}
END_TEST

/* `syncscope lint` end to end, in a fresh folder per test (the fixture's root). */

/* Writes 'text' to ROOT/'name'. */
static void put_file(const char *name, const char *text)
{
    char *path = ss_xasprintf("%s/%s", fixture_root, name);
    FILE *out = fopen(path, "w");
    ck_assert_ptr_nonnull(out);
    fputs(text, out);
    fclose(out);
    free(path);
}

/* 'format' with every "@T@" replaced by the fixture's root. Malloc'ed. */
static char *with_root(const char *format)
{
    size_t cap = strlen(format) * 2 + 4096, len = 0;
    char *out = malloc(cap);
    ck_assert_ptr_nonnull(out);
    for (const char *p = format; *p;) {
        if (strncmp(p, "@T@", 3) == 0) {
            len += (size_t)snprintf(out + len, cap - len, "%s", fixture_root);
            p += 3;
        } else {
            out[len++] = *p++;
        }
    }
    out[len] = '\0';
    return out;
}

/* Runs `syncscope lint ARGS` (NULL-terminated) in the fixture's root, with stdout and stderr
 * captured outside it (so that the root holds only what the run wrote). Returns the exit
 * status; *out and *err are malloc'ed. */
static int run_lint(const char *const *argv, char **out, char **err)
{
    static const char *const lead[] = {"lint", NULL};
    return cli_run(fixture_root, fixture_root, NULL, lead, argv, out, err);
}

/* 'text' with the value of every -resource-dir= (which depends on where libclang is) replaced
 * by "DIR", in place. */
static void mask_resource_dir(char *text)
{
    for (char *p = strstr(text, "-resource-dir="); p; p = strstr(p, "-resource-dir=")) {
        p += strlen("-resource-dir=");
        size_t len = strcspn(p, " \n");
        if (len >= 3) {
            memcpy(p, "DIR", 3);
            memmove(p + 3, p + len, strlen(p + len) + 1);
        }
    }
}

/* Appends the names under 'dir' (relative to the root, sorted, folders with a '/') to
 * 'list'. */
static void list_tree(const char *dir, const char *prefix, char *list, size_t size)
{
    struct dirent **entries = NULL;
    int n = scandir(dir, &entries, NULL, alphasort);
    for (int i = 0; i < n; i++) {
        const char *name = entries[i]->d_name;
        if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0) {
            char *path = ss_xasprintf("%s/%s", dir, name);
            char *shown = ss_xasprintf("%s%s", prefix, name);
            struct stat st;
            int is_dir = lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
            size_t len = strlen(list);
            snprintf(list + len, size - len, "%s%s\n", shown, is_dir ? "/" : "");
            if (is_dir) {
                char *sub = ss_xasprintf("%s/", shown);
                list_tree(path, sub, list, size);
                free(sub);
            }
            free(shown);
            free(path);
        }
        free(entries[i]);
    }
    free(entries);
}

static void setup_root(void)
{
    fixture_root_make("flags");
}

/* One compile database that tries to make lint write a file or load code ("@T@" stands for
 * the folder it is in), and the --verbose line that must name what was dropped. */
static const struct {
    const char *arguments; /* JSON array items after the compiler */
    const char *dropped;   /* the expected "dropped ..." text */
} unsafe_forms[] = {
    {"\"-MD\"", "'-MD' (it writes a file)"},
    {"\"-MMD\"", "'-MMD' (it writes a file)"},
    {"\"-MD\", \"-MF\", \"@T@/dep.d\"", "'-MF @T@/dep.d' (it writes a file)"},
    {"\"-MMD\", \"-MF@T@/joined.d\"", "'-MF@T@/joined.d' (it writes a file)"},
    {"\"-Wp,-MD,@T@/wp.d\"", "'-Wp,-MD,@T@/wp.d' (it passes options on unchecked)"},
    {"\"-Wp,-MMD,@T@/wpm.d\"", "'-Wp,-MMD,@T@/wpm.d' (it passes options on unchecked)"},
    {"\"-Xpreprocessor\", \"-MD\"", "'-Xpreprocessor -MD' (it passes options on unchecked)"},
    {"\"-MJ\", \"@T@/cdb.json\"", "'-MJ @T@/cdb.json' (it writes a file)"},
    {"\"-Xclang\", \"-dependency-file\", \"-Xclang\", \"@T@/x.d\", \"-Xclang\", \"-MT\", "
     "\"-Xclang\", \"k.o\"",
     "'-Xclang -dependency-file -Xclang @T@/x.d' (it writes a file)"},
    {"\"-Xclang\", \"-header-include-file\", \"-Xclang\", \"@T@/h.txt\", \"-H\"",
     "'-Xclang -header-include-file -Xclang @T@/h.txt' (it writes a file)"},
    {"\"-Xclang\", \"-dependency-dot\", \"-Xclang\", \"@T@/d.dot\"",
     "'-Xclang -dependency-dot -Xclang @T@/d.dot' (it writes a file)"},
    {"\"-o\", \"@T@/k.o\"", "'-o @T@/k.o' (it writes a file)"},
    {"\"-o@T@/joined.o\"", "'-o@T@/joined.o' (it writes a file)"},
    {"\"--serialize-diagnostics\", \"@T@/k.dia\"",
     "'--serialize-diagnostics @T@/k.dia' (it writes a file)"},
    {"\"-save-temps\"", "'-save-temps' (it writes a file)"},
    {"\"-save-temps=obj\", \"-o\", \"@T@/obj/k.o\"", "'-save-temps=obj' (it writes a file)"},
    {"\"-ftime-trace\"", "'-ftime-trace' (it writes a file)"},
    {"\"-ftime-trace=@T@/trace.json\"", "'-ftime-trace=@T@/trace.json' (it writes a file)"},
    {"\"-fprofile-instr-generate=@T@/p.profraw\"",
     "'-fprofile-instr-generate=@T@/p.profraw' (it writes a file)"},
    {"\"-fprofile-arcs\", \"-ftest-coverage\"", "'-fprofile-arcs' (it writes a file)"},
    {"\"--coverage\"", "'--coverage' (it writes a file)"},
    {"\"--analyze\", \"-Xanalyzer\", \"-analyzer-output=html\"", "'--analyze' (it writes a file)"},
    {"\"-Xclang\", \"-analyzer-output=html\"",
     "'-Xclang -analyzer-output=html' (it writes a file)"},
    {"\"-Xclang\", \"-emit-pch\"", "'-Xclang -emit-pch' (it writes a file)"},
    {"\"-Xclang\", \"-load\", \"-Xclang\", \"@T@/plugin.so\"",
     "'-Xclang -load -Xclang @T@/plugin.so' (it loads code or runs programs)"},
    {"\"-Xclang\", \"-plugin\", \"-Xclang\", \"print-fns\"",
     "'-Xclang -plugin -Xclang print-fns' (it loads code or runs programs)"},
    {"\"-fplugin=@T@/plugin.so\"", "'-fplugin=@T@/plugin.so' (it loads code or runs programs)"},
    {"\"-fpass-plugin=@T@/plugin.so\"",
     "'-fpass-plugin=@T@/plugin.so' (it loads code or runs programs)"},
    {"\"-B\", \"@T@/bin\"", "'-B @T@/bin' (it loads code or runs programs)"},
    {"\"-fmodules\", \"-fmodules-cache-path=@T@/mcache\"",
     "'-fmodules-cache-path=@T@/mcache' (it writes a file)"},
    {"\"-fcrash-diagnostics-dir=@T@/crash\"",
     "'-fcrash-diagnostics-dir=@T@/crash' (it writes a file)"},
    {"\"-gsplit-dwarf\"", "'-gsplit-dwarf' (it writes a file)"},
    {"\"-fsave-optimization-record\"", "'-fsave-optimization-record' (it writes a file)"},
    {"\"-mllvm\", \"-debug-pass=Structure\"",
     "'-mllvm -debug-pass=Structure' (it passes options on unchecked)"},
    {"\"--config\", \"@T@/evil.cfg\"",
     "'--config @T@/evil.cfg' (it reads more options from a file)"},
};

START_TEST(test_compile_database_cannot_write_files)
{
    char *arguments = with_root(unsafe_forms[_i].arguments);
    char *db = ss_xasprintf("[{\"directory\": \"%s\", \"file\": \"k.cpp\", \"arguments\": "
                            "[\"clang++\", %s, \"-c\", \"k.cpp\"]}]",
                            fixture_root, arguments);
    put_file("compile_commands.json", db);
    put_file("k.cpp", "int answer(void) { return 42; }\n");
    put_file("evil.cfg", "-MJ evil.json\n");
    char *out, *err;
    const char *argv[] = {"-p",   ".",         "--no-cache", "--cuda-path",
                          "none", "--verbose", "k.cpp",      NULL};
    ck_assert_int_eq(run_lint(argv, &out, &err), 0);
    ck_assert_str_eq(out, "1 file, 0 findings\n");
    /* Nothing but the inputs. */
    char listing[4096] = "";
    list_tree(fixture_root, "", listing, sizeof listing);
    ck_assert_str_eq(listing, "compile_commands.json\nevil.cfg\nk.cpp\n");
    char *dropped = with_root(unsafe_forms[_i].dropped);
    char *line = ss_xasprintf("\nsyncscope: k.cpp: dropped %s\n", dropped);
    char *err_lines = ss_xasprintf("\n%s", err);
    ck_assert_msg(strstr(err_lines, line) != NULL, "no line '%s' in:\n%s", line + 1, err);
    free(err_lines);
    free(line);
    free(dropped);
    free(out);
    free(err);
    free(db);
    free(arguments);
}
END_TEST

/* Unknown nvcc options are dropped, never passed to clang; --remove-arg takes out the rest. */
START_TEST(test_unknown_nvcc_options_and_remove_arg)
{
    put_file("compile_commands.json",
             "[{\"directory\": \".\", \"file\": \"k.cu\", \"command\": \"nvcc -compress-mode=size "
             "-cuda --frobnicate -DFOO=1 -DBAR -c k.cu -o k.o\"}]");
    put_file("k.cu", "#if !defined(FOO) || defined(BAR)\n"
                     "#error wrong macros\n"
                     "#endif\n"
                     "__global__ void k() {}\n"
                     "void go() { k<<<1, 1>>>(); }\n");
    char *out, *err;
    const char *argv[] = {"-p",           ".",     "--no-cache",
                          "--cuda-path",  "none",  "--verbose",
                          "--remove-arg", "-DBAR", "--remove-arg=-cuda*",
                          "--color",      "never", "--fail-on",
                          "note",         "k.cu",  NULL};
    /* (The finding's wording and severity are the rule's business.) */
    ck_assert_int_eq(run_lint(argv, &out, &err), 1);
    ck_assert_msg(strncmp(out, "k.cu:5:13: ", 11) == 0 &&
                      strstr(out, "[SYNC101 default-stream-launch]\n") != NULL,
                  "%s", out);
    mask_resource_dir(err);
    ck_assert_str_eq(err, "syncscope: k.cu: dropped '-compress-mode=size' (not needed to parse)\n"
                          "syncscope: k.cu: dropped '-cuda' (--remove-arg)\n"
                          "syncscope: k.cu: dropped '--frobnicate' (not needed to parse)\n"
                          "syncscope: k.cu: dropped '-DBAR' (--remove-arg)\n"
                          "syncscope: k.cu: dropped '-c' (not needed to parse)\n"
                          "syncscope: k.cu: dropped '-o k.o' (it writes a file)\n"
                          "syncscope: k.cu: arguments from the compile command: -DFOO=1\n"
                          "syncscope: k.cu: arguments lint adds before them: -x cuda -idirafter "
                          "/__syncscope__/include/openmp -Wno-error=reserved-user-defined-literal "
                          "-std=c++17 --cuda-host-only -nocudalib -Wno-unknown-cuda-version "
                          "-nocudainc -include cuda_runtime.h -include "
                          "/__syncscope__/include/cudacc/__syncscope_cudacc.h -w -ferror-limit=0\n"
                          "syncscope: k.cu: arguments lint adds after them: -isystem "
                          "/__syncscope__/include/bundled -resource-dir=DIR\n");
    free(out);
    free(err);
    /* Without --verbose nothing is said. */
    const char *quiet[] = {"-p", ".", "--no-cache", "--cuda-path", "none", "k.cu", NULL};
    ck_assert_int_eq(run_lint(quiet, &out, &err), 2);
    ck_assert_str_eq(err, "");
    ck_assert_ptr_nonnull(strstr(out, "k.cu:2:2: error: wrong macros\n"));
    free(out);
    free(err);
}
END_TEST

/* A compile database as CMake's Makefiles generator writes it (CMake 3.25, CUDA 13): include
 * paths in response files, --options-file for nvcc and @FILE for the host compiler, relative
 * to the entry's directory. */
START_TEST(test_cmake_makefiles_response_files)
{
    char *db = with_root(
        "[\n"
        "{\n"
        "  \"directory\": \"@T@/b\",\n"
        "  \"command\": \"/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DFOO=1 "
        "--options-file CMakeFiles/k.dir/includes_CUDA.rsp  "
        "--generate-code=arch=compute_80,code=[compute_80,sm_80] -std=c++17 -x cu -c @T@/src/k.cu "
        "-o CMakeFiles/k.dir/k.cu.o\",\n"
        "  \"file\": \"@T@/src/k.cu\"\n"
        "},\n"
        "{\n"
        "  \"directory\": \"@T@/b\",\n"
        "  \"command\": \"/usr/bin/c++ -DFOO=1 @CMakeFiles/k.dir/includes_CXX.rsp  -o "
        "CMakeFiles/k.dir/host.cpp.o -c @T@/src/host.cpp\",\n"
        "  \"file\": \"@T@/src/host.cpp\"\n"
        "}\n"
        "]");
    char *rsp = with_root("-I\"@T@/src/inc\" -I\"@T@/src/dir with space\"\n");
    const char *folders[] = {"b",   "b/CMakeFiles", "b/CMakeFiles/k.dir",
                             "src", "src/inc",      "src/dir with space"};
    for (size_t i = 0; i < sizeof folders / sizeof folders[0]; i++) {
        char *path = ss_xasprintf("%s/%s", fixture_root, folders[i]);
        ck_assert_int_eq(mkdir(path, 0755), 0);
        free(path);
    }
    put_file("b/compile_commands.json", db);
    put_file("b/CMakeFiles/k.dir/includes_CUDA.rsp", rsp);
    put_file("b/CMakeFiles/k.dir/includes_CXX.rsp", rsp);
    put_file("src/inc/inc.h", "#define INC_OK 1\n");
    put_file("src/dir with space/sp.h", "#define SPACE_OK 1\n");
    put_file("src/k.cu", "#include \"inc.h\"\n"
                         "#include \"sp.h\"\n"
                         "__global__ void k() {}\n"
                         "void f() { k<<<1, 1>>>(); }\n");
    put_file("src/host.cpp", "#include \"inc.h\"\n"
                             "#include \"sp.h\"\n"
                             "int g() { return INC_OK + SPACE_OK + FOO; }\n");
    char *out, *err;
    const char *argv[] = {"-p",      "b",     "--no-cache", "--cuda-path", "none",
                          "--color", "never", "--fail-on",  "note",        NULL};
    ck_assert_int_eq(run_lint(argv, &out, &err), 1);
    /* The one finding, at its place (its wording and severity are the rule's business): no
     * parse error, so both include folders and the macro were found. */
    ck_assert_msg(strncmp(out, "src/k.cu:4:12: ", 15) == 0 &&
                      strstr(out, "[SYNC101 default-stream-launch]\n") != NULL &&
                      strstr(out, "error") == NULL,
                  "%s", out);
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
    /* A response file that cannot be read is an error of that file; the others go on. */
    char *gone = ss_xasprintf("%s/b/CMakeFiles/k.dir/includes_CXX.rsp", fixture_root);
    ck_assert_int_eq(unlink(gone), 0);
    const char *keep_going[] = {"-p",        "b",       "--no-cache", "--cuda-path",
                                "none",      "--color", "never",      "--keep-going",
                                "--fail-on", "none",    NULL};
    ck_assert_int_eq(run_lint(keep_going, &out, &err), 0);
    char *expected = ss_xasprintf("src/host.cpp: error: cannot read response file '%s': No such "
                                  "file or directory\n"
                                  "src/k.cu:4:12: ",
                                  gone);
    ck_assert_msg(strstr(out, expected) != NULL, "'%s' not in:\n%s", expected, out);
    free(expected);
    free(gone);
    free(out);
    free(err);
    free(rsp);
    free(db);
}
END_TEST

/* The toolkit's include folders are searched after the command's own, as nvcc searches them:
 * a project's newer CCCL given with -isystem (as CMake gives an imported target's folders)
 * wins over the toolkit's. --verbose names every argument lint adds, and where. */
START_TEST(test_toolkit_folders_after_the_command)
{
    const char *dirs[] = {
        "cuda",    "cuda/include", "cuda/include/cccl",  "cuda/include/cccl/thrust",
        "project", "project/cccl", "project/cccl/thrust"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        char *path = ss_xasprintf("%s/%s", fixture_root, dirs[i]);
        ck_assert_int_eq(mkdir(path, 0755), 0);
        free(path);
    }
    put_file("cuda/include/cuda_runtime.h", "#pragma once\n");
    put_file("cuda/include/cccl/thrust/version.h", "#define THRUST_VERSION 200900\n");
    put_file("project/cccl/thrust/version.h", "#define THRUST_VERSION 300300\n");
    put_file("project/a.cpp", "#include <thrust/version.h>\n"
                              "#if THRUST_VERSION < 300000\n"
                              "#error requires CCCL 3.3\n"
                              "#endif\n");
    char *db = with_root("[{\"directory\": \"@T@/project\", \"file\": \"a.cpp\", "
                         "\"command\": \"g++ -isystem cccl -c a.cpp\"}]");
    put_file("project/compile_commands.json", db);
    free(db);
    char *out, *err;
    char *cuda = ss_xasprintf("%s/cuda", fixture_root);
    const char *argv[] = {"-p",        "project", "--no-cache", "--cuda-path", cuda,
                          "--verbose", "--color", "never",      NULL};
    ck_assert_int_eq(run_lint(argv, &out, &err), 0);
    ck_assert_ptr_null(strstr(out, "error"));
    mask_resource_dir(err);
    char *want = with_root(
        "syncscope: project/a.cpp: dropped '-c' (not needed to parse)\n"
        "syncscope: project/a.cpp: arguments from the compile command: -isystem@T@/project/cccl\n"
        "syncscope: project/a.cpp: arguments lint adds before them: -x c++ -idirafter "
        "/__syncscope__/include/openmp -Wno-error=reserved-user-defined-literal -w "
        "-ferror-limit=0\n"
        "syncscope: project/a.cpp: arguments lint adds after them: -isystem @T@/cuda/include "
        "-isystem @T@/cuda/include/cccl -resource-dir=DIR\n");
    ck_assert_str_eq(err, want);
    free(want);
    free(out);
    free(err);
    free(cuda);
}
END_TEST

/* A command line clang rejects: the message says which argument and what to do. */
START_TEST(test_rejected_command_line)
{
    put_file("compile_commands.json",
             "[{\"directory\": \".\", \"file\": \"k.cpp\", \"command\": \"g++ -DOK -std=c++99 "
             "-march=bogus-cpu -O2 -c k.cpp\"}]");
    put_file("k.cpp", "int answer(void) { return 42; }\n");
    char *out, *err;
    const char *argv[] = {"-p",      ".",     "--no-cache", "--cuda-path", "none",
                          "--color", "never", "k.cpp",      NULL};
    ck_assert_int_eq(run_lint(argv, &out, &err), 2);
    ck_assert_str_eq(out, "k.cpp: error: clang rejected the arguments '-std=c++99', "
                          "'-march=bogus-cpu' of the compile command: correct them in the "
                          "compile database or leave them out with --remove-arg\n");
    /* Nothing else, not even from LeakSanitizer in the sanitizer build: the bundled headers
     * are never handed to libclang with a command line it refuses. */
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
    const char *removed[] = {"-p",
                             ".",
                             "--no-cache",
                             "--cuda-path",
                             "none",
                             "--remove-arg",
                             "-std=c++99",
                             "--remove-arg",
                             "-march=*",
                             "--extra-arg",
                             "-fbogus-extra",
                             "k.cpp",
                             NULL};
    ck_assert_int_eq(run_lint(removed, &out, &err), 2);
    ck_assert_str_eq(out, "k.cpp: error: unknown argument: '-fbogus-extra'\n");
    free(out);
    free(err);
    const char *fixed[] = {"-p",         ".",
                           "--no-cache", "--cuda-path",
                           "none",       "--remove-arg",
                           "-std=c++99", "--remove-arg",
                           "-march=*",   "k.cpp",
                           NULL};
    ck_assert_int_eq(run_lint(fixed, &out, &err), 0);
    ck_assert_str_eq(out, "1 file, 0 findings\n");
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
    /* An --extra-arg that clang rejects is named as such. */
    const char *extra[] = {"-p",          ".",          "--no-cache", "--cuda-path", "none",
                           "--extra-arg", "-std=c++99", "k.cpp",      NULL};
    ck_assert_int_eq(run_lint(extra, &out, &err), 2);
    ck_assert_str_eq(out, "k.cpp: error: clang rejected the arguments '-std=c++99', "
                          "'-march=bogus-cpu' of the compile command: correct them in the "
                          "compile database or leave them out with --remove-arg; clang rejected "
                          "the argument '-std=c++99' given with --extra-arg\n");
    free(out);
    free(err);
}
END_TEST

static Suite *flags_suite(void)
{
    Suite *s = suite_create("flags");
    TCase *table = tcase_create("table");
    tcase_add_test(table, test_translation_table);
    tcase_add_test(table, test_language_and_compiler);
    tcase_add_test(table, test_dropped_arguments_are_said);
    tcase_add_test(table, test_argument_helpers);
    suite_add_tcase(s, table);
    TCase *stream = tcase_create("default_stream");
    tcase_add_test(stream, test_default_stream_per_thread);
    suite_add_tcase(s, stream);
    TCase *lint = tcase_create("lint");
    tcase_add_checked_fixture(lint, setup_root, remove_root);
    tcase_add_loop_test(lint, test_compile_database_cannot_write_files, 0,
                        sizeof unsafe_forms / sizeof unsafe_forms[0]);
    tcase_add_test(lint, test_unknown_nvcc_options_and_remove_arg);
    tcase_add_test(lint, test_rejected_command_line);
    tcase_add_test(lint, test_toolkit_folders_after_the_command);
    tcase_add_test(lint, test_cmake_makefiles_response_files);
    tcase_set_timeout(lint, 60);
    suite_add_tcase(s, lint);
    return s;
}

SS_CHECK_MAIN(flags_suite)
