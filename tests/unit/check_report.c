/* check_report.c: the finding writers (text, JSON, SARIF, GitHub), the JSON reader and the
 * atomic file writer produce exactly the documented bytes. */
#include "check_main.h"
#include "files.h"
#include "log.h"
#include "path.h"
#include "report.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Output of a writer, captured in memory. */
typedef struct capture {
    FILE *out;
    char *text;
    size_t size;
} capture;

static void capture_open(capture *c)
{
    c->text = NULL;
    c->size = 0;
    c->out = open_memstream(&c->text, &c->size);
    ck_assert_ptr_nonnull(c->out);
}

/* Closes the stream; the text stays in c->text (free it). */
static char *capture_close(capture *c)
{
    ck_assert_int_eq(fclose(c->out), 0);
    return c->text;
}

static char *read_file(const char *path)
{
    FILE *in = fopen(path, "rb");
    ck_assert_msg(in != NULL, "cannot open %s", path);
    capture c;
    capture_open(&c);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, n, c.out);
    fclose(in);
    return capture_close(&c);
}

static void write_file(const char *path, const char *text)
{
    FILE *out = fopen(path, "wb");
    ck_assert_ptr_nonnull(out);
    fputs(text, out);
    ck_assert_int_eq(fclose(out), 0);
}

/* A fresh folder under TMPDIR (or /tmp); the caller removes it with remove_tree. */
static char *make_temp_dir(void)
{
    const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char *dir = ss_xasprintf("%s/check_report.XXXXXX", base);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    return dir;
}

/* Number of entries in 'dir' other than "." and "..". */
static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void remove_tree(char *dir)
{
    char *cmd = ss_xasprintf("rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    free(dir);
}

static ss_finding *add_static(ss_result *r, ss_rule_id rule, const char *file, unsigned line,
                              unsigned column, const char *message, const char *line_text)
{
    ss_finding *f = ss_result_add(r);
    f->rule = rule;
    f->severity = ss_rules_get(rule)->severity;
    f->origin = SS_ORIGIN_STATIC;
    f->file = ss_xstrdup(file);
    f->line = line;
    f->column = column;
    f->message = ss_xstrdup(message);
    f->line_text = ss_xstrdup(line_text);
    return f;
}

/* A run finding with full evidence, three frames and one extra figure. */
static ss_finding *add_runtime(ss_result *r, const char *file)
{
    ss_finding *f = ss_result_add(r);
    f->rule = SS_RULE_PAGEABLE_ASYNC_COPY;
    f->severity = SS_SEV_WARNING;
    f->origin = SS_ORIGIN_RUNTIME;
    f->file = ss_xstrdup(file);
    f->line = 42;
    f->column = 9;
    f->function = ss_xstrdup("train_step");
    f->message = ss_xstrdup("cudaMemcpyAsync from pageable memory blocked the host");
    f->line_text = ss_xstrdup("        cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s);");
    f->evidence.count = 12;
    f->evidence.total_ns = 26400000;
    f->evidence.max_ns = 2200400;
    f->evidence.bytes = 201326592;
    f->evidence.api = ss_xstrdup("cudaMemcpyAsync");
    f->evidence.direction = ss_xstrdup("DtoH");
    f->evidence.host_kind = ss_xstrdup("pageable");
    f->evidence.waited_for = ss_xstrdup("a kernel on stream 13");
    f->evidence.stream = ss_xstrdup("stream 13");
    f->evidence.device = 0;
    ss_finding_add_extra(f, "predicted", "yes");
    f->frame_count = 3;
    f->frames = calloc(3, sizeof *f->frames);
    f->frames[0].pc = 0x7f0011223344ULL;
    f->frames[0].function = ss_xstrdup("cudaMemcpyAsync");
    f->frames[0].module = ss_xstrdup("libcudart.so.13");
    f->frames[1].pc = 0x401a2b;
    f->frames[1].function = ss_xstrdup("train_step");
    f->frames[1].file = ss_xstrdup(file);
    f->frames[1].line = 42;
    f->frames[2].function = ss_xstrdup("<module>");
    f->frames[2].file = ss_xstrdup("train.py");
    f->frames[2].line = 7;
    f->frames[2].is_python = 1;
    return f;
}

/* The fixed result of the text tests: a tool diagnostic, a lint warning with a hint and
 * tabs in its line, a lint note without a column, and a run finding. */
static void sample_result(ss_result *r)
{
    ss_result_init(r, SS_RESULT_LINT);
    ss_result_add_diag(r, SS_SEV_ERROR, "include/x.h", 3, 10,
                       "'thrust/device_vector.h' file not found");
    ss_finding *f = add_static(r, SS_RULE_DEFAULT_STREAM_LAUNCH, "src/a.cu", 12, 10,
                               "kernel launched on the legacy default stream in 'run'",
                               "\tfoo(x);\tk<<<1, 1>>>(p);");
    f->function = ss_xstrdup("run");
    f->hint = ss_xstrdup("launch on an explicit stream");
    add_static(r, SS_RULE_BLOCKING_STREAM_CREATE, "src/a.cu", 30, 0,
               "stream created as a blocking stream", "    cudaStreamCreate(&s);");
    add_runtime(r, "app/main.cu");
}

START_TEST(test_text_plain)
{
    ss_result r;
    sample_result(&r);
    capture c;
    capture_open(&c);
    ss_text_options options = {.color = 0, .show_source = 1};
    ck_assert_int_eq(ss_report_write_text(c.out, &r, &options), 0);
    char *text = capture_close(&c);
    const char *expected =
        "include/x.h:3:10: error: 'thrust/device_vector.h' file not found\n"
        "src/a.cu:12:10: warning: kernel launched on the legacy default stream in 'run' "
        "[SYNC101 default-stream-launch]\n"
        "\tfoo(x);\tk<<<1, 1>>>(p);\n"
        "\t       \t^\n"
        "src/a.cu:12:10: note: launch on an explicit stream\n"
        "src/a.cu:30: note: stream created as a blocking stream [SYNC103 blocking-stream-create]\n"
        "app/main.cu:42:9: warning: cudaMemcpyAsync from pageable memory blocked the host "
        "[SYNC201 pageable-async-copy]\n"
        "        cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s);\n"
        "        ^\n"
        "  observed: 12 times in cudaMemcpyAsync, blocked 26.40 ms in total, 2.20 ms at most, "
        "201326592 bytes DtoH, pageable host memory, device 0\n"
        "  waited for: a kernel on stream 13\n"
        "2 warnings and 1 note generated.\n";
    ck_assert_str_eq(text, expected);
    free(text);

    /* --frames 2: the first two frames and all the evidence. A lint finding is as before. */
    capture_open(&c);
    options.frames = 2;
    options.evidence = 1;
    ck_assert_int_eq(ss_report_write_text(c.out, &r, &options), 0);
    text = capture_close(&c);
    const char *tail = "  waited for: a kernel on stream 13\n"
                       "  stream: stream 13\n"
                       "  predicted: yes\n"
                       "  at cudaMemcpyAsync (libcudart.so.13)\n"
                       "  at train_step (app/main.cu:42)\n"
                       "2 warnings and 1 note generated.\n";
    ck_assert_str_eq(text + strlen(text) - strlen(tail), tail);
    ck_assert_ptr_nonnull(strstr(text, "src/a.cu:12:10: note: launch on an explicit stream\n"
                                       "src/a.cu:30: note: "));
    free(text);

    /* -v: every frame. */
    capture_open(&c);
    options.frames = SS_TEXT_ALL_FRAMES;
    ck_assert_int_eq(ss_report_write_text(c.out, &r, &options), 0);
    text = capture_close(&c);
    ck_assert_ptr_nonnull(strstr(text, "  at train_step (app/main.cu:42)\n"
                                       "  at <module> (train.py:7)\n"
                                       "2 warnings and 1 note generated.\n"));
    free(text);
    options.frames = 0;
    options.evidence = 0;

    /* Without the source lines. */
    capture_open(&c);
    options.show_source = 0;
    ck_assert_int_eq(ss_report_write_text(c.out, &r, &options), 0);
    text = capture_close(&c);
    ck_assert_ptr_null(strstr(text, "^\n"));
    ck_assert_ptr_null(strstr(text, "\tfoo(x);"));
    ck_assert_ptr_nonnull(strstr(text, "[SYNC101 default-stream-launch]\nsrc/a.cu:12:10: note: "));
    free(text);
    ss_result_free(&r);
}
END_TEST

/* A PyTorch run finding as recorded: a copy through libtorch, the user's Python line, and the
 * interpreter's frames around and below it; what it waited for names two kernels by their
 * full demangled names. */
static ss_finding *add_python_finding(ss_result *r)
{
    ss_finding *f = add_runtime(r, "train.py");
    free(f->evidence.waited_for);
    f->evidence.waited_for =
        ss_xstrdup("kernel 'void at::native::elementwise_kernel<128, 4, "
                   "at::native::gpu_kernel_impl<at::native::AddFunctor<float> >(at::"
                   "TensorIteratorBase&, at::native::AddFunctor<float> const&)::{lambda(int)#1}>"
                   "(int, at::native::gpu_kernel_impl<at::native::AddFunctor<float> >(at::"
                   "TensorIteratorBase&, at::native::AddFunctor<float> const&)::{lambda(int)#1})' "
                   "on stream 7 (3 times, 8.05 ms), kernel 'sm80_xmma_gemm_f32f32_nn_n' on stream "
                   "7 (2.1 us), and 2 more");
    static const struct {
        const char *function, *file, *module;
        unsigned line;
        int python;
    } frames[] = {
        {"cudaMemcpyAsync", NULL, "/venv/nvidia/cu13/lib/libcudart.so.13", 0, 0},
        {"at::native::copy_impl(at::Tensor&, at::Tensor const&, bool) [clone .isra.0]", NULL,
         "/venv/torch/lib/libtorch_cpu.so", 0, 0},
        {"c10::impl::wrap_kernel_functor_unboxed_<c10::impl::detail::WrapFunctionIntoFunctor_<"
         "c10::CompileTimeFunctionPointer<at::Tensor (at::Tensor const&), &at::(anonymous "
         "namespace)::wrapper_CUDA__nonzero>, at::Tensor> >::call(c10::OperatorKernel*)",
         NULL, "/venv/torch/lib/libtorch_cpu.so", 0, 0},
        {"_PyEval_EvalFrameDefault", NULL, "/usr/bin/python3.12", 0, 0},
        {NULL, NULL, "/usr/lib/x86_64-linux-gnu/libpython3.12.so.1.0", 0, 0},
        {"main", "train.py", NULL, 30, 1},
        {"PyObject_Vectorcall", NULL, "/usr/bin/python3.12", 0, 0},
        {"<module>", "train.py", NULL, 53, 1},
        {"Py_BytesMain", NULL, "/usr/bin/python3.12", 0, 0},
        {"__libc_start_main", NULL, "/usr/lib/x86_64-linux-gnu/libc.so.6", 0, 0},
        {"_start", NULL, "/opt/venv/bin/python", 0, 0},
    };
    size_t n = sizeof frames / sizeof frames[0];
    for (size_t i = 0; i < f->frame_count; i++) {
        free(f->frames[i].function);
        free(f->frames[i].file);
        free(f->frames[i].module);
    }
    f->frames = ss_xreallocarray(f->frames, n, sizeof *f->frames);
    memset(f->frames, 0, n * sizeof *f->frames);
    f->frame_count = n;
    for (size_t i = 0; i < n; i++) {
        f->frames[i].pc = 0x1000 + i;
        f->frames[i].function = frames[i].function ? ss_xstrdup(frames[i].function) : NULL;
        f->frames[i].file = frames[i].file ? ss_xstrdup(frames[i].file) : NULL;
        f->frames[i].module = frames[i].module ? ss_xstrdup(frames[i].module) : NULL;
        f->frames[i].line = frames[i].line;
        f->frames[i].is_python = frames[i].python;
    }
    return f;
}

/* The concise form by default; -v shows every frame but the interpreter's, with short names;
 * --full-names the names as recorded. */
START_TEST(test_text_run_detail)
{
    ss_result r;
    ss_result_init(&r, SS_RESULT_RUN);
    add_python_finding(&r);
    capture c;
    capture_open(&c);
    ss_text_options options = {.show_source = 1};
    ck_assert_int_eq(ss_report_write_text(c.out, &r, &options), 0);
    char *text = capture_close(&c);
    ck_assert_str_eq(
        text, "train.py:42:9: warning: cudaMemcpyAsync from pageable memory blocked the host "
              "[SYNC201 pageable-async-copy]\n"
              "        cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s);\n"
              "        ^\n"
              "  observed: 12 times in cudaMemcpyAsync, blocked 26.40 ms in total, 2.20 ms "
              "at most, 201326592 bytes DtoH, pageable host memory, device 0\n"
              "  waited for: kernel 'at::native::elementwise_kernel' on stream 7 (3 times, "
              "8.05 ms), kernel 'sm80_xmma_gemm_f32f32_nn_n' on stream 7 (2.1 us), and 2 "
              "more\n"
              "1 warning generated.\n");
    free(text);

    capture_open(&c);
    options.frames = SS_TEXT_ALL_FRAMES;
    options.evidence = 1;
    ck_assert_int_eq(ss_report_write_text(c.out, &r, &options), 0);
    text = capture_close(&c);
    const char *frames = "  at cudaMemcpyAsync (/venv/nvidia/cu13/lib/libcudart.so.13)\n"
                         "  at at::native::copy_impl (/venv/torch/lib/libtorch_cpu.so)\n"
                         "  at c10::impl::wrap_kernel_functor_unboxed_::call "
                         "(/venv/torch/lib/libtorch_cpu.so)\n"
                         "  at main (train.py:30)\n"
                         "  at <module> (train.py:53)\n"
                         "1 warning generated.\n";
    ck_assert_str_eq(text + strlen(text) - strlen(frames), frames);
    free(text);

    /* --frames 2 counts the frames shown. */
    capture_open(&c);
    options.frames = 4;
    ck_assert_int_eq(ss_report_write_text(c.out, &r, &options), 0);
    text = capture_close(&c);
    ck_assert_ptr_nonnull(strstr(text, "  at main (train.py:30)\n1 warning generated.\n"));
    ck_assert_ptr_null(strstr(text, "<module>"));
    free(text);

    capture_open(&c);
    options.full_names = 1;
    ck_assert_int_eq(ss_report_write_text(c.out, &r, &options), 0);
    text = capture_close(&c);
    ck_assert_ptr_nonnull(strstr(text, "  waited for: kernel 'void at::native::elementwise_kernel<"
                                       "128, 4, at::native::gpu_kernel_impl<"));
    ck_assert_ptr_nonnull(strstr(text,
                                 "  at at::native::copy_impl(at::Tensor&, at::Tensor const&, "
                                 "bool) [clone .isra.0] (/venv/torch/lib/libtorch_cpu.so)\n"));
    ck_assert_ptr_null(strstr(text, "_PyEval_EvalFrameDefault"));
    free(text);
    ss_result_free(&r);
}
END_TEST

START_TEST(test_short_name)
{
    static const char *const cases[][2] = {
        {"void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl<at::native::"
         "AddFunctor<float> >(at::TensorIteratorBase&, at::native::AddFunctor<float> const&)::"
         "{lambda(int)#1}>(int, at::native::gpu_kernel_impl<at::native::AddFunctor<float> >(at::"
         "TensorIteratorBase&, at::native::AddFunctor<float> const&)::{lambda(int)#1})",
         "at::native::elementwise_kernel"},
        {"void at::native::(anonymous namespace)::indexSelectLargeIndex<float, unsigned int, 2, "
         "2, -2, true>(at::cuda::detail::TensorInfo<float, unsigned int>)",
         "at::native::(anonymous namespace)::indexSelectLargeIndex"},
        {"at::native::copy_impl(at::Tensor&, at::Tensor const&, bool) [clone .isra.0]",
         "at::native::copy_impl"},
        {"unsigned int cub::detail::f<int>(int)", "cub::detail::f"},
        {"std::vector<int, std::allocator<int> >::operator[](unsigned long)",
         "std::vector::operator[]"},
        {"bool operator< <int>(a const&, b const&)", "operator<"},
        {"Foo::operator()(int) const", "Foo::operator()"},
        {"sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize256x128x8_cublas",
         "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize256x128x8_cublas"},
        {"_Z6kernelPfi", "_Z6kernelPfi"},
        {"spin_kernel(long long)", "spin_kernel"},
        {"void broken<int(int)", "void broken<int(int)"},
        {"", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *shown = ss_report_short_name(cases[i][0]);
        ck_assert_msg(strcmp(shown, cases[i][1]) == 0, "case %zu: '%s', not '%s'", i, shown,
                      cases[i][1]);
        free(shown);
    }
    char *text = ss_report_short_kernels("kernel 'void k<1>(int)' ran on the legacy default "
                                         "stream; kernel 'b' on stream 3, kernel 'c<'x'>()'");
    ck_assert_str_eq(text, "kernel 'k' ran on the legacy default stream; kernel 'b' on stream "
                           "3, kernel 'c'");
    free(text);
}
END_TEST

START_TEST(test_text_color)
{
    ss_result r;
    ss_result_init(&r, SS_RESULT_LINT);
    add_static(&r, SS_RULE_SCALAR_READBACK, "b.cu", 7, 3, "value read back", "  x = v[0];");
    ss_finding *f =
        add_static(&r, SS_RULE_CAPTURE_UNSAFE_CALL, "b.cu", 9, 1, "sync in capture", NULL);
    f->hint = ss_xstrdup("move it out");
    capture c;
    capture_open(&c);
    ss_text_options options = {.color = 1, .show_source = 1};
    ck_assert_int_eq(ss_report_write_text(c.out, &r, &options), 0);
    char *text = capture_close(&c);
    const char *expected =
        "\033[1mb.cu:7:3: \033[0m\033[0;1;35mwarning: \033[0m\033[1mvalue read back "
        "[SYNC301 scalar-readback]\033[0m\n"
        "  x = v[0];\n"
        "  \033[0;1;32m^\033[0m\n"
        "\033[1mb.cu:9:1: \033[0m\033[0;1;31merror: \033[0m\033[1msync in capture "
        "[SYNC501 capture-unsafe-call]\033[0m\n"
        "\033[1mb.cu:9:1: \033[0m\033[0;1;30mnote: \033[0m\033[1mmove it out\033[0m\n"
        "1 warning and 1 error generated.\n";
    ck_assert_str_eq(text, expected);
    free(text);
    ss_result_free(&r);
}
END_TEST

static char *summary_of(int warnings, int errors, int notes)
{
    ss_result r;
    ss_result_init(&r, SS_RESULT_LINT);
    for (int i = 0; i < warnings; i++)
        add_static(&r, SS_RULE_SCALAR_READBACK, "a.cu", 1, 1, "w", NULL);
    for (int i = 0; i < errors; i++)
        add_static(&r, SS_RULE_CAPTURE_UNSAFE_CALL, "a.cu", 1, 1, "e", NULL);
    for (int i = 0; i < notes; i++)
        add_static(&r, SS_RULE_SYNC_IN_LOOP, "a.cu", 1, 1, "n", NULL);
    capture c;
    capture_open(&c);
    ss_text_options options = {.color = 0, .show_source = 0};
    ck_assert_int_eq(ss_report_write_text(c.out, &r, &options), 0);
    char *text = capture_close(&c);
    ss_result_free(&r);
    char *last = strrchr(text, '\n');
    ck_assert_ptr_nonnull(last);
    *last = '\0';
    last = strrchr(text, '\n');
    char *line = ss_xstrdup(last ? last + 1 : text);
    free(text);
    return line;
}

/* The cost figure is worded by what it measures: GPU time held back for legacy-stream
 * serialization, an estimated saving for the what-if rules, host time blocked otherwise. */
START_TEST(test_text_cost_wording)
{
    static const struct {
        ss_rule_id rule;
        const char *words;
    } cases[] = {
        {SS_RULE_DEFAULT_STREAM_LAUNCH,
         ", held other streams back 26.40 ms in total, 2.20 ms at most"},
        {SS_RULE_BLOCKING_STREAM_CREATE,
         ", held other streams back 26.40 ms in total, 2.20 ms at most"},
        {SS_RULE_LAUNCH_BOUND, ", estimated saving 26.40 ms"},
        {SS_RULE_SERIALIZED_PIPELINE, ", estimated saving 26.40 ms"},
        {SS_RULE_SCALAR_READBACK, ", blocked 26.40 ms in total, 2.20 ms at most"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ss_result r;
        ss_result_init(&r, SS_RESULT_RUN);
        ss_finding *f = add_runtime(&r, "app/main.cu");
        f->rule = cases[i].rule;
        capture c;
        capture_open(&c);
        ss_text_options options = {.color = 0, .show_source = 0};
        ck_assert_int_eq(ss_report_write_text(c.out, &r, &options), 0);
        char *text = capture_close(&c);
        char *line = ss_xasprintf("  observed: 12 times in cudaMemcpyAsync%s, 201326592 bytes DtoH",
                                  cases[i].words);
        ck_assert_msg(strstr(text, line) != NULL, "case %zu: missing '%s'", i, line);
        free(line);
        free(text);
        ss_result_free(&r);
    }
}
END_TEST

START_TEST(test_text_summary_wording)
{
    char *s = summary_of(1, 0, 0);
    ck_assert_str_eq(s, "1 warning generated.");
    free(s);
    s = summary_of(3, 0, 1);
    ck_assert_str_eq(s, "3 warnings and 1 note generated.");
    free(s);
    s = summary_of(2, 1, 1);
    ck_assert_str_eq(s, "2 warnings, 1 error and 1 note generated.");
    free(s);
    s = summary_of(0, 2, 0);
    ck_assert_str_eq(s, "2 errors generated.");
    free(s);

    /* No findings: nothing at all, not even the summary. */
    ss_result r;
    ss_result_init(&r, SS_RESULT_LINT);
    capture c;
    capture_open(&c);
    ck_assert_int_eq(ss_report_write_text(c.out, &r, NULL), 0);
    char *text = capture_close(&c);
    ck_assert_uint_eq(c.size, 0);
    free(text);
    ss_result_free(&r);
}
END_TEST

static char *json_of(const ss_result *r)
{
    capture c;
    capture_open(&c);
    ck_assert_int_eq(ss_report_write_json(c.out, r), 0);
    return capture_close(&c);
}

static void run_metadata(ss_result *r)
{
    r->kind = SS_RESULT_RUN;
    r->root = ss_xstrdup("/work/app");
    r->program = ss_xstrdup("./train");
    r->command_line = ss_xstrdup("./train --epochs 1");
    r->hostname = ss_xstrdup("node1");
    r->pid = 4242;
    r->rank = 3;
    r->gpu = ss_xstrdup("NVIDIA H200");
    r->driver = ss_xstrdup("580.65.06");
    r->cuda = ss_xstrdup("13.0");
    r->cuda_runtime = ss_xstrdup("12.8");
    r->wall_ns = 5000000000123ULL;
    r->blocked_ns = 26400000;
    r->gpu_busy_ns = 3100000000ULL;
    r->events = 100000;
    r->dropped = 3;
    r->started_at = ss_xstrdup("2025-01-01T12:00:00Z");
}

START_TEST(test_json_structure)
{
    ss_result r;
    sample_result(&r);
    run_metadata(&r);
    char *text = json_of(&r);
    cJSON *root = cJSON_Parse(text);
    ck_assert_ptr_nonnull(root);
    ck_assert_str_eq(cJSON_GetObjectItem(root, "format")->valuestring, "syncscope-result");
    ck_assert_int_eq(cJSON_GetObjectItem(root, "formatVersion")->valueint, 1);
    cJSON *tool = cJSON_GetObjectItem(root, "tool");
    ck_assert_str_eq(cJSON_GetObjectItem(tool, "name")->valuestring, "syncscope");
    ck_assert_str_eq(cJSON_GetObjectItem(tool, "version")->valuestring, SS_VERSION);
    ck_assert_str_eq(cJSON_GetObjectItem(root, "kind")->valuestring, "run");
    ck_assert_str_eq(cJSON_GetObjectItem(root, "root")->valuestring, "/work/app");
    cJSON *run = cJSON_GetObjectItem(root, "run");
    ck_assert_str_eq(cJSON_GetObjectItem(run, "hostname")->valuestring, "node1");
    ck_assert_int_eq(cJSON_GetObjectItem(run, "rank")->valueint, 3);
    ck_assert_str_eq(cJSON_GetObjectItem(run, "driver")->valuestring, "580.65.06");
    ck_assert_str_eq(cJSON_GetObjectItem(run, "cuda")->valuestring, "13.0");
    ck_assert_str_eq(cJSON_GetObjectItem(run, "cudaRuntime")->valuestring, "12.8");
    ck_assert(cJSON_GetObjectItem(run, "wallNs")->valuedouble == 5000000000123.0);
    ck_assert_ptr_nonnull(strstr(text, "\"wallNs\":\t5000000000123,"));
    cJSON *summary = cJSON_GetObjectItem(root, "summary");
    ck_assert_int_eq(cJSON_GetObjectItem(summary, "warnings")->valueint, 2);
    ck_assert_int_eq(cJSON_GetObjectItem(summary, "notes")->valueint, 1);
    ck_assert_int_eq(cJSON_GetObjectItem(summary, "errors")->valueint, 0);

    cJSON *findings = cJSON_GetObjectItem(root, "findings");
    ck_assert_int_eq(cJSON_GetArraySize(findings), 3);
    cJSON *f0 = cJSON_GetArrayItem(findings, 0);
    ck_assert_str_eq(cJSON_GetObjectItem(f0, "ruleId")->valuestring, "SYNC101");
    ck_assert_str_eq(cJSON_GetObjectItem(f0, "ruleName")->valuestring, "default-stream-launch");
    ck_assert_str_eq(cJSON_GetObjectItem(f0, "severity")->valuestring, "warning");
    ck_assert_str_eq(cJSON_GetObjectItem(f0, "origin")->valuestring, "static");
    ck_assert_str_eq(cJSON_GetObjectItem(f0, "file")->valuestring, "src/a.cu");
    ck_assert_int_eq(cJSON_GetObjectItem(f0, "line")->valueint, 12);
    ck_assert_int_eq(cJSON_GetObjectItem(f0, "column")->valueint, 10);
    ck_assert_str_eq(cJSON_GetObjectItem(f0, "function")->valuestring, "run");
    ck_assert_str_eq(cJSON_GetObjectItem(f0, "hint")->valuestring, "launch on an explicit stream");
    ck_assert_str_eq(cJSON_GetObjectItem(f0, "lineText")->valuestring,
                     "\tfoo(x);\tk<<<1, 1>>>(p);");
    char fp[17];
    ss_finding_fingerprint(&r.findings[0], fp);
    ck_assert_str_eq(cJSON_GetObjectItem(f0, "fingerprint")->valuestring, fp);
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(findings, 1), "hint")));

    cJSON *f2 = cJSON_GetArrayItem(findings, 2);
    ck_assert_str_eq(cJSON_GetObjectItem(f2, "origin")->valuestring, "runtime");
    cJSON *frames = cJSON_GetObjectItem(f2, "frames");
    ck_assert_int_eq(cJSON_GetArraySize(frames), 3);
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(frames, 0), "pc")->valuestring,
                     "0x7f0011223344");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(frames, 2), "python")));
    cJSON *ev = cJSON_GetObjectItem(f2, "evidence");
    ck_assert_int_eq(cJSON_GetObjectItem(ev, "count")->valueint, 12);
    ck_assert_int_eq(cJSON_GetObjectItem(ev, "totalNs")->valueint, 26400000);
    ck_assert_int_eq(cJSON_GetObjectItem(ev, "bytes")->valueint, 201326592);
    ck_assert_str_eq(cJSON_GetObjectItem(ev, "hostKind")->valuestring, "pageable");
    ck_assert_int_eq(cJSON_GetObjectItem(ev, "device")->valueint, 0);
    ck_assert_str_eq(
        cJSON_GetObjectItem(cJSON_GetObjectItem(f2, "extra"), "predicted")->valuestring, "yes");

    cJSON *diags = cJSON_GetObjectItem(root, "diagnostics");
    ck_assert_int_eq(cJSON_GetArraySize(diags), 1);
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(diags, 0), "severity")->valuestring,
                     "error");
    cJSON_Delete(root);

    /* Deterministic: the same result gives the same bytes. */
    char *again = json_of(&r);
    ck_assert_str_eq(text, again);
    free(again);
    free(text);
    ss_result_free(&r);
}
END_TEST

START_TEST(test_json_round_trip)
{
    char *dir = make_temp_dir();
    ss_result r;
    sample_result(&r);
    run_metadata(&r);
    /* Characters JSON must escape, and a non-ASCII one. */
    free(r.findings[1].message);
    r.findings[1].message = ss_xstrdup("quote \" slash \\ \x01 caf\xc3\xa9");
    char *path = ss_xasprintf("%s/result.json", dir);
    ck_assert_int_eq(ss_report_write(path, SS_FORMAT_JSON, &r, NULL), 0);
    char *first = read_file(path);

    ss_result back;
    char err[512];
    ck_assert_msg(ss_report_read_json(path, &back, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(back.kind, SS_RESULT_RUN);
    ck_assert_uint_eq(back.count, 3);
    ck_assert_uint_eq(back.diag_count, 1);
    ck_assert_uint_eq(back.wall_ns, 5000000000123ULL);
    ck_assert_int_eq(back.rank, 3);
    ck_assert_str_eq(back.cuda, "13.0");
    ck_assert_str_eq(back.cuda_runtime, "12.8");
    ck_assert_str_eq(back.findings[1].message, "quote \" slash \\ \x01 caf\xc3\xa9");
    ck_assert_uint_eq(back.findings[2].frames[0].pc, 0x7f0011223344ULL);
    ck_assert_int_eq(back.findings[2].frames[2].is_python, 1);
    ck_assert_int_eq(back.findings[2].evidence.device, 0);
    ck_assert_int_eq(back.findings[0].evidence.device, -1);
    ck_assert_str_eq(back.findings[2].extra[0].key, "predicted");
    ck_assert_ptr_null(back.findings[1].hint);
    char *second = json_of(&back);
    ck_assert_str_eq(first, second);

    /* A lint result with nothing optional set survives too. */
    ss_result empty, empty_back;
    ss_result_init(&empty, SS_RESULT_LINT);
    ck_assert_int_eq(ss_report_write(path, SS_FORMAT_JSON, &empty, NULL), 0);
    ck_assert_msg(ss_report_read_json(path, &empty_back, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(empty_back.kind, SS_RESULT_LINT);
    ck_assert_int_eq(empty_back.rank, -1);
    char *a = json_of(&empty), *b = json_of(&empty_back);
    ck_assert_str_eq(a, b);

    free(a);
    free(b);
    ss_result_free(&empty);
    ss_result_free(&empty_back);
    free(first);
    free(second);
    free(path);
    ss_result_free(&back);
    ss_result_free(&r);
    remove_tree(dir);
}
END_TEST

/* Reads 'text' as a JSON result and returns the error message (or "" on success). */
static char *read_error(const char *dir, const char *text)
{
    char *path = ss_xasprintf("%s/in.json", dir);
    write_file(path, text);
    ss_result r;
    char err[512] = "";
    int rc = ss_report_read_json(path, &r, err, sizeof err);
    ck_assert_int_eq(rc, err[0] ? -1 : 0);
    ck_assert_uint_eq(r.count, 0);
    ss_result_free(&r);
    /* Messages start with the path; return what follows it. */
    size_t n = strlen(path);
    ck_assert_msg(strncmp(err, path, n) == 0 || err[0] == '\0', "%s", err);
    char *rest = ss_xstrdup(err[0] ? err + n : "");
    free(path);
    return rest;
}

START_TEST(test_json_read_errors)
{
    char *dir = make_temp_dir();
    char *e = read_error(dir, "{\n  \"format\": \"syncscope-result\",\n  \"kind\": lint\n}\n");
    ck_assert_str_eq(e, ":3:11: malformed JSON");
    free(e);
    e = read_error(dir, "[1,\n2,]");
    ck_assert_str_eq(e, ":2:3: malformed JSON");
    free(e);
    e = read_error(dir, "{\"format\": \"syncscope-result\"} x");
    ck_assert_str_eq(e, ":1:32: malformed JSON");
    free(e);
    e = read_error(dir, "[]");
    ck_assert_str_eq(e, ": not a syncscope JSON result: the top level must be an object");
    free(e);
    e = read_error(dir, "{\"format\": \"sarif\"}");
    ck_assert_str_eq(e, ": not a syncscope JSON result: \"format\" must be \"syncscope-result\"");
    free(e);
    e = read_error(dir, "{\"format\": \"syncscope-result\"}");
    ck_assert_str_eq(e, ": not a syncscope JSON result: $.formatVersion is missing");
    free(e);
    e = read_error(dir, "{\"format\": \"syncscope-result\", \"formatVersion\": 2}");
    ck_assert_str_eq(e, ": not a syncscope JSON result: formatVersion 2 is not supported (this "
                        "syncscope reads version 1)");
    free(e);
    e = read_error(dir,
                   "{\"format\": \"syncscope-result\", \"formatVersion\": 1, \"kind\": \"lint\", "
                   "\"findings\": [{\"ruleId\": \"SYNC999\", \"severity\": \"note\", "
                   "\"origin\": \"static\", \"message\": \"m\"}]}");
    ck_assert_str_eq(e,
                     ": not a syncscope JSON result: findings[0].ruleId: unknown rule 'SYNC999'");
    free(e);
    e = read_error(dir,
                   "{\"format\": \"syncscope-result\", \"formatVersion\": 1, \"kind\": \"lint\", "
                   "\"findings\": [{\"ruleId\": \"SYNC201\", \"severity\": \"note\", "
                   "\"origin\": \"static\", \"message\": \"m\", \"line\": -4}]}");
    ck_assert_str_eq(e, ": not a syncscope JSON result: findings[0].line must be a non-negative "
                        "integer");
    free(e);
    e = read_error(dir,
                   "{\"format\": \"syncscope-result\", \"formatVersion\": 1, \"kind\": \"lint\"}");
    ck_assert_str_eq(e, ": not a syncscope JSON result: $.findings is missing");
    free(e);
    e = read_error(dir,
                   "{\"format\": \"syncscope-result\", \"formatVersion\": 1, \"kind\": \"lint\", "
                   "\"findings\": [], \"diagnostics\": [{\"severity\": \"fatal\", "
                   "\"message\": \"m\"}]}");
    ck_assert_str_eq(e, ": not a syncscope JSON result: diagnostics[0].severity: unknown severity "
                        "'fatal'");
    free(e);

    char *missing = ss_xasprintf("%s/none.json", dir);
    ss_result r;
    char err[512];
    ck_assert_int_eq(ss_report_read_json(missing, &r, err, sizeof err), -1);
    char *expected = ss_xasprintf("cannot read '%s': No such file or directory", missing);
    ck_assert_str_eq(err, expected);
    ss_result_free(&r);
    free(expected);
    free(missing);
    remove_tree(dir);
}
END_TEST

static char *sarif_of(const ss_result *r)
{
    capture c;
    capture_open(&c);
    ck_assert_int_eq(ss_report_write_sarif(c.out, r), 0);
    return capture_close(&c);
}

static cJSON *path_get(cJSON *item, const char *path)
{
    /* "a.b.0.c": members and array indexes. */
    char *copy = ss_xstrdup(path);
    char *save = NULL;
    for (char *tok = strtok_r(copy, ".", &save); tok && item; tok = strtok_r(NULL, ".", &save)) {
        if (tok[0] >= '0' && tok[0] <= '9')
            item = cJSON_GetArrayItem(item, atoi(tok));
        else
            item = cJSON_GetObjectItemCaseSensitive(item, tok);
    }
    free(copy);
    ck_assert_msg(item != NULL, "no %s in the SARIF log", path);
    return item;
}

static const char *path_str(cJSON *root, const char *path)
{
    cJSON *item = path_get(root, path);
    ck_assert_msg(cJSON_IsString(item), "%s is not a string", path);
    return item->valuestring;
}

/* The string at 'path' in the SARIF rule of 'rule' (its index in 'rules'). */
static const char *rule_str(cJSON *rules, ss_rule_id rule, const char *path)
{
    char full[128];
    snprintf(full, sizeof full, "%d.%s", (int)rule, path);
    return path_str(rules, full);
}

START_TEST(test_sarif_structure)
{
    unsetenv(SS_ENV_RULES_URL);
    ss_result r;
    ss_result_init(&r, SS_RESULT_RUN);
    r.root = ss_xstrdup("/work/my project");
    add_static(&r, SS_RULE_SCALAR_READBACK, "/work/my project/src/my kernel#1.cu", 12, 10,
               "value read back", "/* \xc3\xa9 */ x = v[0];");
    add_static(&r, SS_RULE_SYNC_IN_LOOP, "/elsewhere/lib.cu", 3, 0, "sync in loop.", NULL);
    ss_finding *f = add_runtime(&r, "/work/my project/app/main.cu");
    f->hint = ss_xstrdup("pin the buffer");
    ss_result_add_diag(&r, SS_SEV_WARNING, NULL, 0, 0, "3 events were dropped");
    char *text = sarif_of(&r);
    cJSON *root = cJSON_Parse(text);
    ck_assert_ptr_nonnull(root);

    ck_assert_str_eq(path_str(root, "version"), "2.1.0");
    ck_assert_str_eq(path_str(root, "$schema"), "https://json.schemastore.org/sarif-2.1.0.json");
    ck_assert_str_eq(path_str(root, "runs.0.tool.driver.name"), "syncscope");
    ck_assert_str_eq(path_str(root, "runs.0.tool.driver.semanticVersion"), SS_VERSION);
    cJSON *rules = path_get(root, "runs.0.tool.driver.rules");
    ck_assert_int_eq(cJSON_GetArraySize(rules), SS_RULE_COUNT);
    /* A rule's row is at its catalog index (the results' ruleIndex), whatever rules precede
     * it. */
    ck_assert_str_eq(rule_str(rules, SS_RULE_PAGEABLE_ASYNC_COPY, "id"), "SYNC201");
    ck_assert_str_eq(rule_str(rules, SS_RULE_PAGEABLE_ASYNC_COPY, "name"), "pageable-async-copy");
    ck_assert_str_eq(rule_str(rules, SS_RULE_PAGEABLE_ASYNC_COPY, "shortDescription.text"),
                     "Asynchronous copy from or to pageable host memory.");
    ck_assert_str_eq(rule_str(rules, SS_RULE_CAPTURE_UNSAFE_CALL, "defaultConfiguration.level"),
                     "error");
    cJSON *tags = path_get(cJSON_GetArrayItem(rules, SS_RULE_LAUNCH_BOUND), "properties.tags");
    ck_assert_int_eq(cJSON_GetArraySize(tags), 3);
    ck_assert_str_eq(rule_str(rules, SS_RULE_LAUNCH_BOUND, "properties.tags.2"), "run");
    ck_assert_str_eq(rule_str(rules, SS_RULE_DEFAULT_STREAM_LAUNCH, "properties.tags.2"), "lint");
    /* No base URL for the rule pages is configured: no helpUri (test_sarif_help_uri). */
    ck_assert_ptr_null(cJSON_GetObjectItem(path_get(rules, "0"), "helpUri"));
    ck_assert_str_eq(path_str(root, "runs.0.originalUriBaseIds.%SRCROOT%.uri"),
                     "file:///work/my%20project/");

    cJSON *results = path_get(root, "runs.0.results");
    ck_assert_int_eq(cJSON_GetArraySize(results), 3);
    for (int i = 0; i < 3; i++) {
        cJSON *res = cJSON_GetArrayItem(results, i);
        char rule_path[32];
        snprintf(rule_path, sizeof rule_path, "%d.id", path_get(res, "ruleIndex")->valueint);
        ck_assert_str_eq(path_str(rules, rule_path), path_str(res, "ruleId"));
    }
    ck_assert_int_eq(path_get(results, "0.ruleIndex")->valueint, SS_RULE_SCALAR_READBACK);
    ck_assert_str_eq(path_str(results, "0.level"), "warning");
    ck_assert_str_eq(path_str(results, "1.level"), "note");
    ck_assert_str_eq(path_str(results, "0.message.text"), "value read back.");
    ck_assert_str_eq(path_str(results, "1.message.text"), "sync in loop.");
    ck_assert_str_eq(path_str(results, "0.locations.0.physicalLocation.artifactLocation.uri"),
                     "src/my%20kernel%231.cu");
    ck_assert_str_eq(path_str(results, "0.locations.0.physicalLocation.artifactLocation.uriBaseId"),
                     "%SRCROOT%");
    ck_assert_int_eq(path_get(results, "0.locations.0.physicalLocation.region.startLine")->valueint,
                     12);
    /* Byte column 10 after a two-byte letter is UTF-16 column 9. */
    ck_assert_int_eq(
        path_get(results, "0.locations.0.physicalLocation.region.startColumn")->valueint, 9);
    ck_assert_str_eq(path_str(results, "0.locations.0.physicalLocation.region.snippet.text"),
                     "x = v[0];");
    ck_assert_str_eq(path_str(results, "0.locations.0.physicalLocation.contextRegion.snippet.text"),
                     "/* \xc3\xa9 */ x = v[0];");
    char fp[17];
    ss_finding_fingerprint(&r.findings[0], fp);
    ck_assert_str_eq(path_str(results, "0.partialFingerprints.syncscope/v1"), fp);
    /* Outside the root: an absolute file URI without a base. */
    ck_assert_str_eq(path_str(results, "1.locations.0.physicalLocation.artifactLocation.uri"),
                     "file:///elsewhere/lib.cu");
    ck_assert_ptr_null(cJSON_GetObjectItem(
        path_get(results, "1.locations.0.physicalLocation.artifactLocation"), "uriBaseId"));
    ck_assert_ptr_null(cJSON_GetObjectItem(
        path_get(results, "1.locations.0.physicalLocation.region"), "startColumn"));

    /* The run finding: message with hint and cost, stack, code flow, evidence. */
    ck_assert_str_eq(path_str(results, "2.message.text"),
                     "cudaMemcpyAsync from pageable memory blocked the host. pin the buffer. "
                     "Observed 12 times, costing 26.40 ms in total (2.20 ms at most).");
    ck_assert_str_eq(path_str(results, "2.properties.origin"), "runtime");
    ck_assert_int_eq(path_get(results, "2.properties.evidence.totalNs")->valueint, 26400000);
    ck_assert_str_eq(path_str(results, "2.stacks.0.frames.0.module"), "libcudart.so.13");
    ck_assert_str_eq(path_str(results, "2.stacks.0.frames.1.location.logicalLocations.0.name"),
                     "train_step");
    ck_assert_str_eq(
        path_str(results, "2.stacks.0.frames.1.location.physicalLocation.artifactLocation.uri"),
        "app/main.cu");
    /* The code flow runs outermost first: train.py, then main.cu. */
    ck_assert_int_eq(cJSON_GetArraySize(path_get(results, "2.codeFlows.0.threadFlows.0.locations")),
                     2);
    ck_assert_int_eq(path_get(results, "2.codeFlows.0.threadFlows.0.locations.0.location."
                                       "physicalLocation.region.startLine")
                         ->valueint,
                     7);
    ck_assert_str_eq(
        path_str(root, "runs.0.invocations.0.toolExecutionNotifications.0.message.text"),
        "3 events were dropped.");
    ck_assert(cJSON_IsTrue(path_get(root, "runs.0.invocations.0.executionSuccessful")));
    ck_assert_str_eq(path_str(root, "runs.0.properties.kind"), "run");
    cJSON_Delete(root);
    free(text);
    ss_result_free(&r);
}
END_TEST

START_TEST(test_sarif_location_fallback)
{
    ss_result r;
    ss_result_init(&r, SS_RESULT_RUN);
    r.root = ss_xstrdup("/work");
    r.program = ss_xstrdup("./train");
    ss_finding *f = add_runtime(&r, "/work/app/main.cu");
    free(f->file);
    f->file = NULL;
    f = ss_result_add(&r);
    f->rule = SS_RULE_LAUNCH_BOUND;
    f->origin = SS_ORIGIN_RUNTIME;
    f->message = ss_xstrdup("GPU idle");
    char *text = sarif_of(&r);
    cJSON *root = cJSON_Parse(text);
    cJSON *results = path_get(root, "runs.0.results");
    /* No file of its own: the innermost frame with a source file. */
    ck_assert_str_eq(path_str(results, "0.locations.0.physicalLocation.artifactLocation.uri"),
                     "app/main.cu");
    ck_assert_int_eq(path_get(results, "0.locations.0.physicalLocation.region.startLine")->valueint,
                     42);
    ck_assert_str_eq(path_str(results, "0.locations.0.logicalLocations.0.name"), "train_step");
    /* Nothing at all: the program. */
    ck_assert_ptr_null(cJSON_GetObjectItem(path_get(results, "1.locations.0"), "physicalLocation"));
    ck_assert_str_eq(path_str(results, "1.locations.0.logicalLocations.0.name"), "./train");
    ck_assert_str_eq(path_str(results, "1.locations.0.logicalLocations.0.kind"), "module");
    cJSON_Delete(root);
    free(text);
    ss_result_free(&r);
}
END_TEST

START_TEST(test_fingerprint_stability)
{
    ss_result r;
    ss_result_init(&r, SS_RESULT_LINT);
    ss_finding *f = add_static(&r, SS_RULE_PAGEABLE_ASYNC_COPY, "src/copy.cu", 12, 5, "m",
                               "    cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s);");
    char before[17], after[17];
    ss_finding_fingerprint(f, before);
    /* A known value: baselines written by earlier versions must keep matching. */
    ck_assert_str_eq(before, "7182f488a79a8c13");

    /* Moved to another line and re-indented: same fingerprint, in SARIF too. */
    char *sarif_before = sarif_of(&r);
    f->line = 99;
    f->column = 1;
    free(f->line_text);
    f->line_text = ss_xstrdup("\tcudaMemcpyAsync(d, h, n,  cudaMemcpyHostToDevice, s);");
    ss_finding_fingerprint(f, after);
    ck_assert_str_eq(before, after);
    char *sarif_after = sarif_of(&r);
    cJSON *a = cJSON_Parse(sarif_before), *b = cJSON_Parse(sarif_after);
    ck_assert_str_eq(path_str(a, "runs.0.results.0.partialFingerprints.syncscope/v1"), before);
    ck_assert_str_eq(path_str(b, "runs.0.results.0.partialFingerprints.syncscope/v1"), before);
    ck_assert_int_eq(
        path_get(b, "runs.0.results.0.locations.0.physicalLocation.region.startLine")->valueint,
        99);
    cJSON_Delete(a);
    cJSON_Delete(b);
    free(sarif_before);
    free(sarif_after);

    /* Another rule, file or line text: another fingerprint. */
    f->rule = SS_RULE_DEFAULT_STREAM_ASYNC_CALL;
    ss_finding_fingerprint(f, after);
    ck_assert_str_ne(before, after);
    f->rule = SS_RULE_PAGEABLE_ASYNC_COPY;
    free(f->file);
    f->file = ss_xstrdup("src/other.cu");
    ss_finding_fingerprint(f, after);
    ck_assert_str_ne(before, after);
    free(f->file);
    f->file = ss_xstrdup("src/copy.cu");
    free(f->line_text);
    f->line_text = ss_xstrdup("cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, t);");
    ss_finding_fingerprint(f, after);
    ck_assert_str_ne(before, after);

    /* A line that is not UTF-8 (a Latin-1 byte) is fingerprinted as the writers spell it, with
     * U+FFFD: the fingerprint survives a round trip through JSON, which repairs the byte. */
    char latin1[17], repaired[17];
    free(f->line_text);
    f->line_text = ss_xstrdup("h[0] = 1; /* caf\xe9 */");
    ss_finding_fingerprint(f, latin1);
    free(f->line_text);
    f->line_text = ss_xstrdup("h[0] = 1; /* caf\xef\xbf\xbd */");
    ss_finding_fingerprint(f, repaired);
    ck_assert_str_eq(latin1, repaired);
    ss_result_free(&r);
}
END_TEST

START_TEST(test_github_escaping)
{
    ss_result r;
    ss_result_init(&r, SS_RESULT_LINT);
    r.root = ss_xstrdup("/repo");
    add_static(&r, SS_RULE_SCALAR_READBACK, "/repo/dir,a:b/x%.cu", 4, 7,
               "50% of time: read,\r\nthen wait", NULL);
    ss_finding *f = add_static(&r, SS_RULE_SYNC_IN_LOOP, "src/l.cu", 9, 0, "sync: loop", NULL);
    f->hint = ss_xstrdup("use an event");
    add_static(&r, SS_RULE_CAPTURE_UNSAFE_CALL, "/repo/c.cu", 0, 0, "capture broken", NULL);
    ss_result_add_diag(&r, SS_SEV_WARNING, NULL, 0, 0, "dropped 3 events, 1%");
    capture c;
    capture_open(&c);
    ck_assert_int_eq(ss_report_write_github(c.out, &r), 0);
    char *text = capture_close(&c);
    char *cwd = getcwd(NULL, 0);
    char *expected = ss_xasprintf(
        "::warning title=syncscope::dropped 3 events, 1%%25\n"
        "::warning file=dir%%2Ca%%3Ab/x%%25.cu,line=4,col=7,title=SYNC301 scalar-readback::50%%25 "
        "of time: read,%%0D%%0Athen wait\n"
        "::notice file=%s/src/l.cu,line=9,title=SYNC401 sync-in-loop::sync: loop%%0Ause an event\n"
        "::error file=c.cu,title=SYNC501 capture-unsafe-call::capture broken\n",
        strcmp(cwd, "/") == 0 ? "" : cwd);
    ck_assert_str_eq(text, expected);
    free(expected);
    free(cwd);
    free(text);
    ss_result_free(&r);
}
END_TEST

/* A backslash is a character of a file name on Linux, not a separator: it is kept in GitHub's
 * file= and GitLab's path, and percent-encoded in a SARIF URI ('\\' read as '/' named another
 * file, one that may exist). */
START_TEST(test_backslash_in_file_names)
{
    unsetenv(SS_ENV_RULES_URL);
    ss_result r;
    ss_result_init(&r, SS_RESULT_LINT);
    r.root = ss_xstrdup("/repo");
    add_static(&r, SS_RULE_SCALAR_READBACK, "/repo/src\\evil/..\\a.cu", 4, 7, "read back", NULL);
    add_static(&r, SS_RULE_SYNC_IN_LOOP, "/elsewhere/x\\y.cu", 9, 0, "sync in loop", NULL);

    char *text = sarif_of(&r);
    cJSON *root = cJSON_Parse(text);
    ck_assert_ptr_nonnull(root);
    cJSON *results = path_get(root, "runs.0.results");
    ck_assert_str_eq(path_str(results, "0.locations.0.physicalLocation.artifactLocation.uri"),
                     "src%5Cevil/..%5Ca.cu");
    ck_assert_str_eq(path_str(results, "1.locations.0.physicalLocation.artifactLocation.uri"),
                     "file:///elsewhere/x%5Cy.cu");
    cJSON_Delete(root);
    free(text);

    capture c;
    capture_open(&c);
    ck_assert_int_eq(ss_report_write_github(c.out, &r), 0);
    text = capture_close(&c);
    ck_assert_str_eq(text, "::warning file=src\\evil/..\\a.cu,line=4,col=7,title=SYNC301 "
                           "scalar-readback::read back\n"
                           "::notice file=/elsewhere/x\\y.cu,line=9,title=SYNC401 "
                           "sync-in-loop::sync in loop\n");
    free(text);

    capture_open(&c);
    ck_assert_int_eq(ss_report_write_gitlab(c.out, &r), 0);
    text = capture_close(&c);
    root = cJSON_Parse(text);
    ck_assert_ptr_nonnull(root);
    ck_assert_str_eq(path_str(root, "0.location.path"), "src\\evil/..\\a.cu");
    ck_assert_str_eq(path_str(root, "1.location.path"), "/elsewhere/x\\y.cu");
    cJSON_Delete(root);
    free(text);
    ss_result_free(&r);
}
END_TEST

START_TEST(test_write_atomic)
{
    char *dir = make_temp_dir();
    ss_result r;
    sample_result(&r);
    char *path = ss_xasprintf("%s/report.sarif", dir);
    umask(022);
    ck_assert_int_eq(ss_report_write(path, SS_FORMAT_SARIF, &r, NULL), 0);
    char *written = read_file(path);
    char *expected = sarif_of(&r);
    ck_assert_str_eq(written, expected);
    ck_assert_int_eq(count_entries(dir), 1); /* no temporary file left */
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0644);
    free(written);
    free(expected);

    /* Replacing keeps the old file's mode. */
    ck_assert_int_eq(chmod(path, 0600), 0);
    ck_assert_int_eq(ss_report_write(path, SS_FORMAT_TEXT, &r, NULL), 0);
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0600);
    ck_assert_int_eq(count_entries(dir), 1);

    /* HTML goes through the same atomic path: one self-contained page replaces the file. */
    write_file(path, "old");
    ck_assert_int_eq(ss_report_write(path, SS_FORMAT_HTML, &r, NULL), 0);
    written = read_file(path);
    ck_assert(strncmp(written, "<!DOCTYPE html>", 15) == 0);
    ck_assert_ptr_nonnull(strstr(written, "Content-Security-Policy"));
    free(written);
    ck_assert_int_eq(count_entries(dir), 1);
    write_file(path, "old");

    /* A write that fails half way (file size limit): target unchanged, temp removed. */
    /* The limit is set in a child process: Check's own bookkeeping files must not be
     * subject to it. The child exits 0 when the write failed as it should. */
    fflush(NULL);
    pid_t child = fork();
    ck_assert_int_ge(child, 0);
    if (child == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit small = {64, 64};
        struct rlimit saved;
        if (getrlimit(RLIMIT_FSIZE, &saved) != 0)
            _exit(3);
        small.rlim_max = saved.rlim_max;
        if (setrlimit(RLIMIT_FSIZE, &small) != 0)
            _exit(4);
        _exit(ss_report_write(path, SS_FORMAT_JSON, &r, NULL) == -1 ? 0 : 1);
    }
    int status = 0;
    ck_assert_int_eq(waitpid(child, &status, 0), child);
    ck_assert(WIFEXITED(status));
    ck_assert_int_eq(WEXITSTATUS(status), 0);
    written = read_file(path);
    ck_assert_str_eq(written, "old");
    free(written);
    ck_assert_int_eq(count_entries(dir), 1);

    /* The target is a folder: rename fails, the folder is untouched, temp removed. */
    char *sub = ss_xasprintf("%s/folder", dir);
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    ck_assert_int_eq(ss_report_write(sub, SS_FORMAT_JSON, &r, NULL), -1);
    ck_assert_int_eq(count_entries(dir), 2);
    ck_assert_int_eq(count_entries(sub), 0);

    /* A folder that does not exist. */
    char *nowhere = ss_xasprintf("%s/no/such/report.json", dir);
    ck_assert_int_eq(ss_report_write(nowhere, SS_FORMAT_JSON, &r, NULL), -1);
    ck_assert_int_eq(count_entries(dir), 2);

    free(nowhere);
    free(sub);
    free(path);
    ss_result_free(&r);
    remove_tree(dir);
}
END_TEST

START_TEST(test_write_stdout)
{
    char *dir = make_temp_dir();
    char *path = ss_xasprintf("%s/stdout.txt", dir);
    ss_result r;
    sample_result(&r);
    ck_assert_ptr_nonnull(freopen(path, "w", stdout));
    ck_assert_int_eq(ss_report_write("-", SS_FORMAT_GITHUB, &r, NULL), 0);
    ck_assert_int_eq(ss_report_write(NULL, SS_FORMAT_GITHUB, &r, NULL), 0);
    fflush(stdout);
    char *written = read_file(path);
    capture c;
    capture_open(&c);
    ck_assert_int_eq(ss_report_write_github(c.out, &r), 0);
    char *once = capture_close(&c);
    char *twice = ss_xasprintf("%s%s", once, once);
    ck_assert_str_eq(written, twice);
    ck_assert_ptr_nonnull(strstr(once, "::warning file=src/a.cu,line=12,col=10,title=SYNC101 "
                                       "default-stream-launch::kernel launched"));
    free(twice);
    free(once);
    free(written);
    free(path);
    ss_result_free(&r);
    remove_tree(dir);
}
END_TEST

/* A write callback that writes 'text' and then reports failure. */
static int write_then_fail(FILE *out, void *text)
{
    fputs(text, out);
    errno = ENOSPC;
    return -1;
}

static int write_text(FILE *out, void *text)
{
    return fputs(text, out) < 0 ? -1 : 0;
}

START_TEST(test_write_atomic_statuses)
{
    char *dir = make_temp_dir();
    char *path = ss_xasprintf("%s/out.txt", dir);
    umask(022);
    ck_assert_int_eq(ss_write_atomic(path, write_text, "first\n"), SS_WRITE_OK);
    char *written = read_file(path);
    ck_assert_str_eq(written, "first\n");
    free(written);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0644);

    /* The callback fails: the old file stays whole, the temporary file is gone, errno says
     * why. */
    errno = 0;
    ck_assert_int_eq(ss_write_atomic(path, write_then_fail, "partial"), SS_WRITE_FAILED);
    ck_assert_int_eq(errno, ENOSPC);
    written = read_file(path);
    ck_assert_str_eq(written, "first\n");
    free(written);
    ck_assert_int_eq(count_entries(dir), 1);

    /* No folder to put the temporary file in. */
    char *nowhere = ss_xasprintf("%s/no/such/out.txt", dir);
    ck_assert_int_eq(ss_write_atomic(nowhere, write_text, "x"), SS_WRITE_CREATE_FAILED);
    ck_assert_int_eq(errno, ENOENT);
    ck_assert_int_eq(count_entries(dir), 1);
    free(nowhere);

    /* ss_read_file gives back exactly what was written, with its length. */
    size_t len = 99;
    ck_assert_int_eq(ss_write_atomic(path, write_text, "a\nb"), SS_WRITE_OK);
    char *text = ss_read_file(path, &len);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_eq(len, 3);
    ck_assert_str_eq(text, "a\nb");
    free(text);
    errno = 0;
    ck_assert_ptr_null(ss_read_file(dir, &len)); /* a folder: reading fails */
    ck_assert_int_eq(errno, EISDIR);

    free(path);
    remove_tree(dir);
}
END_TEST

static int drop_line_even(const ss_finding *f, void *calls)
{
    (*(int *)calls)++;
    return f->line % 2 == 0;
}

START_TEST(test_result_remove_if)
{
    ss_result r;
    ss_result_init(&r, SS_RESULT_LINT);
    for (unsigned line = 1; line <= 5; line++)
        add_static(&r, SS_RULE_SYNC_IN_LOOP, "a.cu", line, 1, "m", NULL);
    int calls = 0;
    ck_assert_uint_eq(ss_result_remove_if(&r, drop_line_even, &calls), 2);
    ck_assert_int_eq(calls, 5);
    ck_assert_uint_eq(r.count, 3);
    ck_assert_uint_eq(r.findings[0].line, 1);
    ck_assert_uint_eq(r.findings[1].line, 3);
    ck_assert_uint_eq(r.findings[2].line, 5);
    ck_assert_str_eq(r.findings[2].file, "a.cu");
    ss_result_free(&r);
}
END_TEST

/* An allocation whose byte count does not fit in a size_t must not wrap around into a small
 * buffer: it ends the process with the out-of-memory message. */
START_TEST(test_reallocarray_overflow)
{
    void *p = ss_xreallocarray(NULL, SIZE_MAX / 2 + 2, 2);
    free(p);
}
END_TEST

/* ss_xgrow grows as ss_grow does (to hold 'need', doubling from 16, the contents kept) and
 * ends the process where ss_grow would return -1. */
START_TEST(test_xgrow)
{
    int *v = NULL;
    size_t cap = 0;
    ss_xgrow((void **)&v, &cap, 3, sizeof *v);
    ck_assert_uint_eq(cap, 16);
    v[2] = 9;
    ss_xgrow((void **)&v, &cap, 300, sizeof *v);
    ck_assert_uint_eq(cap, 512);
    ck_assert_int_eq(v[2], 9);
    free(v);
}
END_TEST

START_TEST(test_xgrow_overflow)
{
    int *v = NULL;
    size_t cap = 0;
    ss_xgrow((void **)&v, &cap, SIZE_MAX / 2 + 2, sizeof *v);
    free(v);
}
END_TEST

/* One lexical normalizer serves the report, the HTML join and the configuration layers. */
START_TEST(test_path_normalize)
{
    static const struct {
        const char *base, *path, *expected;
    } cases[] = {
        {"/src", "a/./b/../c.cu", "/src/a/c.cu"},
        {"/src/x", "../../../y.cu", "/y.cu"},
        {"/ignored", "//abs//p/./q/", "/abs/p/q"},
        {NULL, "/a/b/..", "/a"},
        {"/", ".", "/"},
        {NULL, "/..", "/"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = ss_path_normalize(cases[i].base, cases[i].path);
        ck_assert_msg(strcmp(got, cases[i].expected) == 0, "case %zu: '%s' != '%s'", i, got,
                      cases[i].expected);
        free(got);
    }
}
END_TEST

/* The fingerprint of 'f' as ss_finding_fingerprint writes it. */
static char *fingerprint_of(const ss_finding *f)
{
    char fp[17];
    ss_finding_fingerprint(f, fp);
    return ss_xstrdup(fp);
}

START_TEST(test_gitlab_exact)
{
    ss_result r;
    ss_result_init(&r, SS_RESULT_RUN);
    r.program = ss_xstrdup("./train");
    const char *copy_line = "    cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s);";
    ss_finding *f = add_static(&r, SS_RULE_PAGEABLE_ASYNC_COPY, "src/copy.cu", 12, 5,
                               "cudaMemcpyAsync from pageable memory", copy_line);
    f->hint = ss_xstrdup("pin the buffer");
    /* The same call on another line: the same ss_finding_fingerprint, another issue. */
    add_static(&r, SS_RULE_PAGEABLE_ASYNC_COPY, "src/copy.cu", 40, 5,
               "cudaMemcpyAsync from pageable memory.", copy_line);
    ss_finding *unsafe = add_static(&r, SS_RULE_CAPTURE_UNSAFE_CALL, "/elsewhere/lib.cu", 0, 0,
                                    "capture \"broken\"", NULL);
    ss_finding *note = add_static(&r, SS_RULE_BLOCKING_STREAM_CREATE, "src/a.cu", 30, 0,
                                  "stream created as a blocking stream.", NULL);
    ss_finding *frame = add_runtime(&r, "src/main.cu");
    free(frame->file);
    frame->file = NULL;
    frame->hint = ss_xstrdup("use pinned memory");
    ss_finding *nowhere = ss_result_add(&r);
    nowhere->rule = SS_RULE_LAUNCH_BOUND;
    nowhere->severity = SS_SEV_NOTE;
    nowhere->origin = SS_ORIGIN_RUNTIME;
    nowhere->message = ss_xstrdup("GPU idle");
    char *fp_capture = fingerprint_of(unsafe), *fp_note = fingerprint_of(note),
         *fp_frame = fingerprint_of(frame), *fp_nowhere = fingerprint_of(nowhere);

    capture c;
    capture_open(&c);
    ck_assert_int_eq(ss_report_write_gitlab(c.out, &r), 0);
    char *text = capture_close(&c);
    char *expected = ss_xasprintf(
        "[{\n"
        "\t\t\"type\":\t\"issue\",\n"
        "\t\t\"description\":\t\"cudaMemcpyAsync from pageable memory. pin the buffer "
        "[SYNC201 pageable-async-copy]\",\n"
        "\t\t\"check_name\":\t\"SYNC201\",\n"
        "\t\t\"categories\":\t[\"Performance\"],\n"
        "\t\t\"fingerprint\":\t\"7182f488a79a8c13\",\n"
        "\t\t\"severity\":\t\"minor\",\n"
        "\t\t\"location\":\t{\n"
        "\t\t\t\"path\":\t\"src/copy.cu\",\n"
        "\t\t\t\"lines\":\t{\n"
        "\t\t\t\t\"begin\":\t12\n"
        "\t\t\t}\n"
        "\t\t}\n"
        "\t}, {\n"
        "\t\t\"type\":\t\"issue\",\n"
        "\t\t\"description\":\t\"cudaMemcpyAsync from pageable memory. "
        "[SYNC201 pageable-async-copy]\",\n"
        "\t\t\"check_name\":\t\"SYNC201\",\n"
        "\t\t\"categories\":\t[\"Performance\"],\n"
        "\t\t\"fingerprint\":\t\"a38966ffa06d997e\",\n"
        "\t\t\"severity\":\t\"minor\",\n"
        "\t\t\"location\":\t{\n"
        "\t\t\t\"path\":\t\"src/copy.cu\",\n"
        "\t\t\t\"lines\":\t{\n"
        "\t\t\t\t\"begin\":\t40\n"
        "\t\t\t}\n"
        "\t\t}\n"
        "\t}, {\n"
        "\t\t\"type\":\t\"issue\",\n"
        "\t\t\"description\":\t\"capture \\\"broken\\\" [SYNC501 capture-unsafe-call]\",\n"
        "\t\t\"check_name\":\t\"SYNC501\",\n"
        "\t\t\"categories\":\t[\"Performance\"],\n"
        "\t\t\"fingerprint\":\t\"%s\",\n"
        "\t\t\"severity\":\t\"major\",\n"
        "\t\t\"location\":\t{\n"
        "\t\t\t\"path\":\t\"/elsewhere/lib.cu\",\n"
        "\t\t\t\"lines\":\t{\n"
        "\t\t\t\t\"begin\":\t1\n"
        "\t\t\t}\n"
        "\t\t}\n"
        "\t}, {\n"
        "\t\t\"type\":\t\"issue\",\n"
        "\t\t\"description\":\t\"stream created as a blocking stream. "
        "[SYNC103 blocking-stream-create]\",\n"
        "\t\t\"check_name\":\t\"SYNC103\",\n"
        "\t\t\"categories\":\t[\"Performance\"],\n"
        "\t\t\"fingerprint\":\t\"%s\",\n"
        "\t\t\"severity\":\t\"info\",\n"
        "\t\t\"location\":\t{\n"
        "\t\t\t\"path\":\t\"src/a.cu\",\n"
        "\t\t\t\"lines\":\t{\n"
        "\t\t\t\t\"begin\":\t30\n"
        "\t\t\t}\n"
        "\t\t}\n"
        "\t}, {\n"
        "\t\t\"type\":\t\"issue\",\n"
        "\t\t\"description\":\t\"cudaMemcpyAsync from pageable memory blocked the host. use "
        "pinned memory [SYNC201 pageable-async-copy]\",\n"
        "\t\t\"check_name\":\t\"SYNC201\",\n"
        "\t\t\"categories\":\t[\"Performance\"],\n"
        "\t\t\"fingerprint\":\t\"%s\",\n"
        "\t\t\"severity\":\t\"minor\",\n"
        "\t\t\"location\":\t{\n"
        "\t\t\t\"path\":\t\"src/main.cu\",\n"
        "\t\t\t\"lines\":\t{\n"
        "\t\t\t\t\"begin\":\t42\n"
        "\t\t\t}\n"
        "\t\t}\n"
        "\t}, {\n"
        "\t\t\"type\":\t\"issue\",\n"
        "\t\t\"description\":\t\"GPU idle [SYNC502 launch-bound]\",\n"
        "\t\t\"check_name\":\t\"SYNC502\",\n"
        "\t\t\"categories\":\t[\"Performance\"],\n"
        "\t\t\"fingerprint\":\t\"%s\",\n"
        "\t\t\"severity\":\t\"info\",\n"
        "\t\t\"location\":\t{\n"
        "\t\t\t\"path\":\t\"./train\",\n"
        "\t\t\t\"lines\":\t{\n"
        "\t\t\t\t\"begin\":\t1\n"
        "\t\t\t}\n"
        "\t\t}\n"
        "\t}]\n",
        fp_capture, fp_note, fp_frame, fp_nowhere);
    ck_assert_str_eq(text, expected);
    /* Six issues, six fingerprints: GitLab keeps one issue per fingerprint. */
    ck_assert_str_ne(fp_capture, fp_note);
    ck_assert_str_ne(fp_frame, fp_nowhere);
    ck_assert_str_ne(fp_frame, "7182f488a79a8c13");
    free(expected);
    free(text);
    free(fp_capture);
    free(fp_note);
    free(fp_frame);
    free(fp_nowhere);
    ss_result_free(&r);
}
END_TEST

START_TEST(test_gitlab_empty_and_format)
{
    ss_format format = SS_FORMAT_TEXT;
    ck_assert_int_eq(ss_format_parse("gitlab", &format), 0);
    ck_assert_int_eq(format, SS_FORMAT_GITLAB);
    /* Format names are taken in any case (report/formats.def). */
    format = SS_FORMAT_TEXT;
    ck_assert_int_eq(ss_format_parse("GitLab", &format), 0);
    ck_assert_int_eq(format, SS_FORMAT_GITLAB);
    ck_assert_int_eq(ss_format_parse("gitlabs", &format), -1);
    ss_result r;
    ss_result_init(&r, SS_RESULT_LINT);
    char *dir = make_temp_dir();
    char *path = ss_xasprintf("%s/gl-code-quality-report.json", dir);
    ck_assert_int_eq(ss_report_write(path, SS_FORMAT_GITLAB, &r, NULL), 0);
    char *text = read_file(path);
    ck_assert_str_eq(text, "[]\n");
    free(text);
    free(path);
    remove_tree(dir);
    ss_result_free(&r);
}
END_TEST

/* The helpUri of the first rule (SYNC101) in the SARIF log of an empty result, or NULL. */
static char *help_uri(void)
{
    ss_result r;
    ss_result_init(&r, SS_RESULT_LINT);
    char *text = sarif_of(&r);
    cJSON *root = cJSON_Parse(text);
    cJSON *uri = cJSON_GetObjectItem(path_get(root, "runs.0.tool.driver.rules.0"), "helpUri");
    char *value = cJSON_IsString(uri) ? ss_xstrdup(uri->valuestring) : NULL;
    cJSON_Delete(root);
    free(text);
    ss_result_free(&r);
    return value;
}

START_TEST(test_sarif_help_uri)
{
    /* No base URL: no helpUri (SARIF wants an absolute URI, and none is assumed). */
    unsetenv(SS_ENV_RULES_URL);
    ck_assert_ptr_null(ss_report_rules_url());
    ck_assert_ptr_null(help_uri());
    /* The variable, with or without a trailing slash. */
    setenv(SS_ENV_RULES_URL, "https://docs.example.org/syncscope/rules/", 1);
    char *uri = help_uri();
    ck_assert_str_eq(uri, "https://docs.example.org/syncscope/rules/SYNC101.md");
    free(uri);
    setenv(SS_ENV_RULES_URL, "https://git.example.com/t/syncscope/-/blob/v0.1.0/docs/rules", 1);
    uri = help_uri();
    ck_assert_str_eq(uri,
                     "https://git.example.com/t/syncscope/-/blob/v0.1.0/docs/rules/SYNC101.md");
    free(uri);
    /* A relative value of the variable is not a URL: ignored. */
    setenv(SS_ENV_RULES_URL, "docs/rules", 1);
    ck_assert_ptr_null(help_uri());
    /* The option's value wins over the variable; a relative one is refused. */
    setenv(SS_ENV_RULES_URL, "https://docs.example.org/rules", 1);
    ck_assert_int_eq(ss_report_set_rules_url("file:///usr/share/doc/syncscope/rules"), 0);
    ck_assert_int_eq(ss_report_set_rules_url("docs/rules"), -1);
    ck_assert_int_eq(ss_report_set_rules_url("://x"), -1);
    ck_assert_int_eq(ss_report_set_rules_url("https://"), -1);
    uri = help_uri();
    ck_assert_str_eq(uri, "file:///usr/share/doc/syncscope/rules/SYNC101.md");
    free(uri);
    ck_assert_int_eq(ss_report_set_rules_url(NULL), 0);
    uri = help_uri();
    ck_assert_str_eq(uri, "https://docs.example.org/rules/SYNC101.md");
    free(uri);
}
END_TEST

static Suite *report_suite(void)
{
    Suite *s = suite_create("report");
    TCase *text = tcase_create("text");
    tcase_add_test(text, test_text_plain);
    tcase_add_test(text, test_text_run_detail);
    tcase_add_test(text, test_short_name);
    tcase_add_test(text, test_text_color);
    tcase_add_test(text, test_text_summary_wording);
    tcase_add_test(text, test_text_cost_wording);
    suite_add_tcase(s, text);
    TCase *json = tcase_create("json");
    tcase_add_test(json, test_json_structure);
    tcase_add_test(json, test_json_round_trip);
    tcase_add_test(json, test_json_read_errors);
    suite_add_tcase(s, json);
    TCase *sarif = tcase_create("sarif");
    tcase_add_test(sarif, test_sarif_structure);
    tcase_add_test(sarif, test_sarif_location_fallback);
    tcase_add_test(sarif, test_fingerprint_stability);
    tcase_add_test(sarif, test_sarif_help_uri);
    suite_add_tcase(s, sarif);
    TCase *github = tcase_create("github");
    tcase_add_test(github, test_github_escaping);
    tcase_add_test(github, test_backslash_in_file_names);
    suite_add_tcase(s, github);
    TCase *gitlab = tcase_create("gitlab");
    tcase_add_test(gitlab, test_gitlab_exact);
    tcase_add_test(gitlab, test_gitlab_empty_and_format);
    suite_add_tcase(s, gitlab);
    TCase *write = tcase_create("write");
    tcase_add_test(write, test_write_atomic);
    tcase_add_test(write, test_write_stdout);
    tcase_add_test(write, test_write_atomic_statuses);
    tcase_add_test(write, test_result_remove_if);
    tcase_add_test(write, test_path_normalize);
    tcase_add_test_raise_signal(write, test_reallocarray_overflow, SIGABRT);
    tcase_add_test(write, test_xgrow);
    tcase_add_test_raise_signal(write, test_xgrow_overflow, SIGABRT);
    suite_add_tcase(s, write);
    return s;
}

SS_CHECK_MAIN(report_suite)
