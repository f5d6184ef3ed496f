/* check_flags.c: the nvcc-to-clang flag translation table, row by row. */
#include "check_main.h"
#include "internal.h"

#include <string.h>

/* Translates 'line' (split like a shell) for file /src/k.cu in /build and returns the
 * arguments joined by single spaces in 'joined'. */
static void translate(const char *line, char *joined, size_t size, ss_flags_info *info)
{
    ss_args argv = {0}, out = {0};
    ck_assert_int_eq(ss_compdb_split(line, &argv), 0);
    ss_flags_translate(&argv, "/src/k.cu", "/build", &out, info);
    joined[0] = '\0';
    size_t len = 0;
    for (size_t i = 0; i < out.count; i++)
        len += (size_t)snprintf(joined + len, size - len, "%s%s", i ? " " : "", out.v[i]);
    ss_args_free(&argv);
    ss_args_free(&out);
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
        {"nvcc -Xcompiler -fPIC,-Wall -Xcompiler=-O2 k.cu", "-fPIC -Wall -O2"},
        {"nvcc --compiler-options -fopenmp k.cu", "-fopenmp"},
        {"nvcc --expt-relaxed-constexpr --expt-extended-lambda --extended-lambda "
         "--use_fast_math -lineinfo -G -rdc=true -rdc true -dc k.cu",
         ""},
        {"nvcc -Xptxas -v --ptxas-options=-v -Xcudafe --diag_suppress=1 -maxrregcount 32 "
         "-ccbin /usr/bin/g++ -cudart shared -t 4 --diag-suppress 20012 k.cu",
         ""},
        {"nvcc -MD -MF k.d -MT k.o -Werror -Werror=shadow -c k.cu -o k.o", ""},
        {"nvcc --include-path inc --system-include /sys --define-macro A=1 --std c++17 k.cu",
         "-I /build/inc -isystem /sys -D A=1 -std=c++17"},
        {"g++ -Iinclude -I ../other -isystem third -include cfg.h -DX -O2 -c k.cu",
         "-I/build/include -I /build/../other -isystem /build/third -include /build/cfg.h "
         "-DX -O2"},
        {"clang++ -Xclang -fcuda-allow-variadic-functions -std=c++17 k.cu",
         "-Xclang -fcuda-allow-variadic-functions -std=c++17"},
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
    ck_assert_str_eq(joined, "-D CUDA_API_PER_THREAD_DEFAULT_STREAM=1");
    translate("nvcc -DCUDA_API_PER_THREAD_DEFAULT_STREAMS k.cu", joined, sizeof joined, &info);
    ck_assert_int_eq(info.per_thread, 0);

    const char *extra[] = {"-x", "cuda", "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1"};
    ss_flags_info scanned = {SS_LANG_C, 0, 0};
    ss_flags_scan(extra, 3, &scanned);
    ck_assert_int_eq(scanned.per_thread, 1);
    ck_assert_int_eq(scanned.lang, SS_LANG_CUDA);
}
END_TEST

static Suite *flags_suite(void)
{
    Suite *s = suite_create("flags");
    TCase *table = tcase_create("table");
    tcase_add_test(table, test_translation_table);
    tcase_add_test(table, test_language_and_compiler);
    suite_add_tcase(s, table);
    TCase *stream = tcase_create("default_stream");
    tcase_add_test(stream, test_default_stream_per_thread);
    suite_add_tcase(s, stream);
    return s;
}

SS_CHECK_MAIN(flags_suite)
