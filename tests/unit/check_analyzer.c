/* check_analyzer.c: the analyzer through its API (findings, dedupe, system headers, parse
 * errors) and `syncscope lint` end to end (output, exit codes, bad input, configuration,
 * baseline, cache, -j). */
#include "analyzer.h"
#include "check_main.h"
#include "cli_fixture.h"
#include "log.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char work[64];

/* Runs syncscope lint with 'argv' (NULL-terminated) in WORK; fills the captured stdout and
 * stderr (malloc'ed) and returns the exit status. */
static int run(const char *const *argv, char **out, char **err)
{
    static const char *const lead[] = {"lint", NULL};
    char *capture = ss_xasprintf("%s/", work);
    int status = cli_run(work, capture, NULL, lead, argv, out, err);
    free(capture);
    return status;
}

static void make_work_dir(void)
{
    snprintf(work, sizeof work, "/tmp/ss-check-analyzer-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(work));
}

static void remove_work_dir(void)
{
    char *cmd = ss_xasprintf("rm -rf '%s'", work);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
}

/* Writes 'len' bytes to WORK/name; returns the path (malloc'ed). */
static char *write_file(const char *name, const char *text, size_t len)
{
    char *path = ss_xasprintf("%s/%s", work, name);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    mkdir(path, 0755);
    *slash = '/';
    FILE *out = fopen(path, "wb");
    ck_assert_ptr_nonnull(out);
    ck_assert_uint_eq(fwrite(text, 1, len, out), len);
    fclose(out);
    return path;
}

static char *write_text(const char *name, const char *text)
{
    return write_file(name, text, strlen(text));
}

/* SYNC101 is a warning where the unit also uses another stream, the launch had one at hand and
 * its file queues at least as much work on other streams as on the legacy one (else a note):
 * the sources below that test warnings and exit status 1 end with this, and their launching
 * functions take a stream they do not use ('spare'). */
#define USES_A_STREAM                                                                              \
    "void uses_a_stream(cudaStream_t s, int *q) { cudaMemsetAsync(q, 0, 4, s); "                   \
    "cudaMemsetAsync(q, 0, 4, s); cudaMemsetAsync(q, 0, 4, s); cudaStreamSynchronize(s); }\n"

/* A warning needs a loop that lint sees repeat the call (else "how often it runs is not
 * shown", a note: docs/lint.md, "Warning or note"): those sources then end with a step loop
 * that calls their launching function ('call') on every iteration, after every line a test
 * names. */
#define STEP_LOOP(call)                                                                            \
    "void step_loop(int *p, cudaStream_t s, int steps) { for (int i = 0; i < steps; i++) " call    \
    "; }\n"

static const char launch_file[] = "#include <cuda_runtime.h>\n"
                                  "__global__ void k(int *p) { p[0] = 1; }\n"
                                  "void go(int *p, cudaStream_t spare)\n"
                                  "{\n"
                                  "    k<<<1, 1>>>(p);\n"
                                  "}\n" USES_A_STREAM STEP_LOOP("go(p, s)");

START_TEST(test_text_output_and_exit_codes)
{
    make_work_dir();
    char *path = write_text("a.cu", launch_file);
    char *out, *err;
    const char *plain[] = {"--cuda-path", "none", "--color", "never", "a.cu", NULL};
    ck_assert_int_eq(run(plain, &out, &err), 1);
    ck_assert_str_eq(out, "a.cu:5:5: warning: kernel 'k' is launched in 'go' without a stream: it "
                          "runs on the legacy default stream; it runs on every iteration: 'go()' "
                          "is called from the loop at a.cu:8, which enqueues device work [SYNC101 "
                          "default-stream-launch]\n"
                          "    k<<<1, 1>>>(p);\n"
                          "    ^\n"
                          "a.cu:5:5: note: pass an explicit stream created with "
                          "cudaStreamNonBlocking, or compile with --default-stream per-thread\n"
                          "1 warning generated.\n");
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
    const char *fail_error[] = {"--cuda-path=none", "--fail-on", "error", "a.cu", NULL};
    ck_assert_int_eq(run(fail_error, &out, &err), 0);
    free(out);
    free(err);
    const char *fail_none[] = {"--cuda-path=none", "--fail-on=none", "a.cu", NULL};
    ck_assert_int_eq(run(fail_none, &out, &err), 0);
    free(out);
    free(err);
    const char *json[] = {"--cuda-path=none", "--format", "json", "-o", "r.json", "a.cu", NULL};
    ck_assert_int_eq(run(json, &out, &err), 1);
    ck_assert_str_eq(out, "");
    free(out);
    free(err);
    char *json_path = ss_xasprintf("%s/r.json", work);
    char *report = cli_slurp(json_path);
    ck_assert_ptr_nonnull(strstr(report, "\"SYNC101\""));
    ck_assert_ptr_nonnull(strstr(report, "\"go\""));
    free(report);
    free(json_path);
    free(path);
    remove_work_dir();
}
END_TEST

START_TEST(test_notes_and_fail_on)
{
    make_work_dir();
    free(write_text("s.cu", "#include <cuda_runtime.h>\n"
                            "void make(cudaStream_t *s) { cudaStreamCreate(s); }\n"));
    char *out, *err;
    const char *def[] = {"--cuda-path=none", "s.cu", NULL};
    ck_assert_int_eq(run(def, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "s.cu:2:30: note: 'cudaStreamCreate' in 'make' creates a "
                                      "blocking stream"));
    free(out);
    free(err);
    const char *note[] = {"--cuda-path=none", "--fail-on", "note", "s.cu", NULL};
    ck_assert_int_eq(run(note, &out, &err), 1);
    free(out);
    free(err);
    remove_work_dir();
}
END_TEST

/* A usage or input error: exit 2 and exactly 'message' on stderr. */
static void expect_error(const char *const *argv, const char *message)
{
    char *out, *err;
    ck_assert_int_eq(run(argv, &out, &err), 2);
    ck_assert_str_eq(err, message);
    ck_assert_str_eq(out, "");
    free(out);
    free(err);
}

START_TEST(test_usage_errors)
{
    make_work_dir();
    free(write_text("a.cu", launch_file));
    const char *none[] = {NULL};
    expect_error(none, "syncscope: error: no input: name files or folders, or -p BUILD_DIR "
                       "(see syncscope lint --help)\n");
    const char *unknown[] = {"--frobnicate", "a.cu", NULL};
    expect_error(unknown, "syncscope: error: unknown option '--frobnicate' (see syncscope lint "
                          "--help)\n");
    const char *format[] = {"--format", "pdf", "a.cu", NULL};
    char *formats = ss_format_names(SS_FORMAT_FOR_LINT, " or ");
    char *unknown_format = ss_xasprintf("syncscope: error: unknown --format 'pdf' (%s)\n", formats);
    expect_error(format, unknown_format);
    free(unknown_format);
    free(formats);
    const char *near_format[] = {"--format", "xml", "a.cu", NULL};
    expect_error(near_format, "syncscope: error: unknown --format 'xml' (did you mean 'html'?)\n");
    const char *fail_on[] = {"--fail-on", "fatal", "a.cu", NULL};
    expect_error(fail_on, "syncscope: error: unknown --fail-on 'fatal' (note, warning, error or "
                          "none)\n");
    const char *missing_value[] = {"a.cu", "-p", NULL};
    expect_error(missing_value, "syncscope: error: option '-p' needs a value\n");
    const char *bad_cuda[] = {"--cuda-path", "/nonexistent", "a.cu", NULL};
    expect_error(bad_cuda, "syncscope: error: --cuda-path '/nonexistent' is not a CUDA toolkit "
                           "(no include/cuda_runtime.h)\n");
    char *out, *err;
    const char *help[] = {"--help", NULL};
    ck_assert_int_eq(run(help, &out, &err), 0);
    ck_assert(strncmp(out, "usage: syncscope lint [options] [FILE|DIR ...]\n", 47) == 0);
    free(out);
    free(err);
    remove_work_dir();
}
END_TEST

START_TEST(test_bad_inputs)
{
    make_work_dir();
    const char *missing[] = {"--cuda-path=none", "nope.cu", NULL};
    expect_error(missing, "syncscope: error: cannot read 'nope.cu': No such file or directory\n");
    free(write_text("docs/README.md", "no sources here\n"));
    const char *empty_dir[] = {"--cuda-path=none", "docs", NULL};
    expect_error(empty_dir, "syncscope: error: no C, C++ or CUDA sources under 'docs' (looked "
                            "for .cu, .cuh, .c, .cc, .cpp, .cxx and headers)\n");
    const char *not_source[] = {"--cuda-path=none", "docs/README.md", NULL};
    expect_error(not_source, "syncscope: error: 'docs/README.md' is not a C, C++ or CUDA source "
                             "file (by its name)\n");
    static const char binary[] = "\x7f"
                                 "ELF\0\0\x01\x02";
    char *bin = write_file("bin.cu", binary, sizeof binary - 1);
    const char *binary_args[] = {"--cuda-path=none", "bin.cu", NULL};
    expect_error(binary_args, "syncscope: error: 'bin.cu' is not a text source file (NUL byte at "
                              "offset 4)\n");
    free(bin);

    free(write_text("b1/compile_commands.json", "[{\"directory\": \"/x\", "));
    const char *malformed[] = {"--cuda-path=none", "-p", "b1", NULL};
    expect_error(malformed, "syncscope: error: b1/compile_commands.json is not valid JSON (near "
                            "line 1)\n");
    free(write_text("b2/compile_commands.json", ""));
    const char *empty_db[] = {"--cuda-path=none", "-p", "b2", NULL};
    expect_error(empty_db, "syncscope: error: b2/compile_commands.json is empty\n");
    free(write_text("b3/compile_commands.json", "[]"));
    const char *no_entries[] = {"--cuda-path=none", "-p", "b3", NULL};
    expect_error(no_entries, "syncscope: error: 'b3/compile_commands.json' holds no entries\n");
    const char *no_db[] = {"--cuda-path=none", "-p", "b4/", NULL};
    expect_error(no_db, "syncscope: error: cannot read 'b4/compile_commands.json': No such file "
                        "or directory (-p takes the folder that holds compile_commands.json: the "
                        "build folder of a CMake project configured with "
                        "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON)\n");

    /* An empty file is noted, not an error; invalid UTF-8 is analyzed with a warning. */
    free(write_file("empty.cu", "", 0));
    char *out, *err;
    const char *empty[] = {"--cuda-path=none", "empty.cu", NULL};
    ck_assert_int_eq(run(empty, &out, &err), 0);
    ck_assert_str_eq(out, "empty.cu: note: empty file: nothing to analyze\n");
    free(out);
    free(err);
    free(write_text(
        "latin1.cu",
        "#include <cuda_runtime.h>\n// caf\xe9\n"
        "__global__ void k() {}\nvoid f(cudaStream_t spare) { k<<<1, 1>>>(); }\n" USES_A_STREAM
            STEP_LOOP("f(s)")));
    const char *latin1[] = {"--cuda-path=none", "latin1.cu", NULL};
    ck_assert_int_eq(run(latin1, &out, &err), 1);
    ck_assert_ptr_nonnull(strstr(out, "latin1.cu:2: warning: invalid UTF-8 at line 2 (byte "
                                      "offset 32); the file is analyzed as raw bytes\n"));
    ck_assert_ptr_nonnull(strstr(out, "latin1.cu:4:30: warning: kernel 'k'"));
    free(out);
    free(err);
    remove_work_dir();
}
END_TEST

START_TEST(test_parse_errors_keep_going)
{
    make_work_dir();
    free(write_text(
        "broken.cu",
        "#include <cuda_runtime.h>\n"
        "#include \"missing_header.h\"\n"
        "__global__ void k() {}\n"
        "void f(cudaStream_t spare) { int x = ; k<<<1, 1>>>(); }\n" USES_A_STREAM STEP_LOOP(
            "f(s)")));
    free(write_text("z.cu", launch_file));
    char *out, *err;
    /* By default every file is analyzed, and the summary names each file with errors and its
     * first error; parse errors make the exit status 2. */
    const char *plain[] = {"--cuda-path=none", "broken.cu", "z.cu", NULL};
    ck_assert_int_eq(run(plain, &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(out, "z.cu:5:5: warning"));
    ck_assert_str_eq(err, "syncscope: 2 files, 2 analyzed, 1 with errors\n"
                          "syncscope:   broken.cu: first error: broken.cu:2:10: "
                          "'missing_header.h' file not found\n");
    free(out);
    free(err);
    const char *stop[] = {"--cuda-path=none", "--fail-fast", "broken.cu", "z.cu", NULL};
    ck_assert_int_eq(run(stop, &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(out, "broken.cu:2:10: error: 'missing_header.h' file not "
                                      "found\n"));
    ck_assert_ptr_nonnull(strstr(out, "broken.cu:4:38: error: expected expression\n"));
    /* Analyzed as far as clang recovered. */
    ck_assert_ptr_nonnull(strstr(out, "broken.cu:4:40: warning: kernel 'k'"));
    ck_assert_ptr_null(strstr(out, "z.cu:5:5"));
    free(out);
    free(err);
    const char *keep[] = {"--cuda-path=none", "--keep-going", "broken.cu", "z.cu", NULL};
    ck_assert_int_eq(run(keep, &out, &err), 1);
    ck_assert_ptr_nonnull(strstr(out, "z.cu:5:5: warning"));
    const char *first = strstr(out, "missing_header.h");
    ck_assert_ptr_nonnull(first);
    ck_assert_ptr_null(strstr(first + 1, "missing_header.h"));
    free(out);
    free(err);
    remove_work_dir();
}
END_TEST

START_TEST(test_api_headers_once_and_system_headers)
{
    make_work_dir();
    free(write_text(
        "inc/launch.cuh",
        "#pragma once\n#include <cuda_runtime.h>\n"
        "__global__ void hk(int *p) { p[0] = 2; }\n"
        "inline void header_launch(int *p, cudaStream_t spare) { hk<<<1, 1>>>(p); }\n"
        "inline void header_stream(int *p, cudaStream_t s) { hk<<<1, 1, 0, s>>>(p); }\n"));
    free(write_text("sys/syslaunch.cuh", "#pragma once\n#include <cuda_runtime.h>\n"
                                         "__global__ void sk(int *p) { p[0] = 3; }\n"
                                         "inline void sys_launch(int *p) { sk<<<1, 1>>>(p); }\n"));
    char *a = write_text(
        "one.cu",
        "#include \"inc/launch.cuh\"\n#include <syslaunch.cuh>\n"
        "void one(int *p, cudaStream_t s) { header_launch(p, s); sys_launch(p); }\n" USES_A_STREAM
            STEP_LOOP("one(p, s)"));
    char *b = write_text(
        "two.cu",
        "#include \"inc/launch.cuh\"\n#include <syslaunch.cuh>\n"
        "namespace ns { struct S { void two(int *p, cudaStream_t spare); }; }\n"
        "void ns::S::two(int *p, cudaStream_t spare) { hk<<<1, 1, 0, 0>>>(p); }\n" USES_A_STREAM
            STEP_LOOP("ns::S().two(p, s)"));
    char *sys = ss_xasprintf("-isystem%s/sys", work);
    const char *inputs[] = {b, a};
    const char *extra[] = {sys};
    ss_lint_options o = {.inputs = inputs,
                         .input_count = 2,
                         .extra_args = extra,
                         .extra_arg_count = 1,
                         .cuda_path = SS_CUDA_PATH_NONE};
    ss_result r;
    ss_result_init(&r, SS_RESULT_LINT);
    char cwd[4096];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ck_assert_int_eq(chdir(work), 0);
    ck_assert_int_eq(ss_analyzer_run(&o, &r), 0);
    ck_assert_int_eq(chdir(cwd), 0);
    ck_assert_uint_eq(r.diag_count, 0);
    ck_assert_uint_eq(r.count, 2);
    ck_assert_str_eq(r.findings[0].file, "inc/launch.cuh");
    ck_assert_uint_eq(r.findings[0].line, 4);
    ck_assert_uint_eq(r.findings[0].column, 57);
    ck_assert_str_eq(r.findings[0].function, "header_launch");
    ck_assert_str_eq(r.findings[0].line_text,
                     "inline void header_launch(int *p, cudaStream_t spare) { hk<<<1, 1>>>(p); }");
    ck_assert_int_eq(r.findings[0].rule, SS_RULE_DEFAULT_STREAM_LAUNCH);
    /* two.cu, linted first, never calls header_launch (a note there, "not called in this
     * unit"); one.cu calls it: the header's finding is one.cu's warning. */
    ck_assert_int_eq(r.findings[0].severity, SS_SEV_WARNING);
    ck_assert_ptr_null(strstr(r.findings[0].message, "not called"));
    ck_assert_int_eq(r.findings[0].origin, SS_ORIGIN_STATIC);
    ck_assert_str_eq(r.findings[1].file, "two.cu");
    ck_assert_uint_eq(r.findings[1].line, 4);
    ck_assert_str_eq(r.findings[1].function, "ns::S::two");
    ck_assert_str_eq(r.findings[1].message, "kernel 'hk' is launched in 'ns::S::two' on the "
                                            "legacy default stream (stream '0'); it runs on "
                                            "every iteration: 'ns::S::two()' is called from "
                                            "the loop at two.cu:6, which enqueues device work");
    ss_result_free(&r);
    free(sys);
    free(a);
    free(b);
    remove_work_dir();
}
END_TEST

START_TEST(test_compile_database_inputs)
{
    make_work_dir();
    free(write_text("src/k.cu", launch_file));
    free(write_text("src/ignored.txt", "not a source\n"));
    char *db = ss_xasprintf("[{\"directory\": \"%s/build\", \"file\": \"../src/k.cu\", "
                            "\"command\": \"nvcc -x cu -gencode arch=compute_80,code=sm_80 "
                            "--default-stream per-thread -c ../src/k.cu -o k.o\"}]",
                            work);
    free(write_text("build/compile_commands.json", db));
    free(db);
    char *build = ss_xasprintf("%s/build", work);
    ss_lint_options o = {.build_dir = build, .cuda_path = SS_CUDA_PATH_NONE};
    ss_result r;
    ss_result_init(&r, SS_RESULT_LINT);
    ck_assert_int_eq(ss_analyzer_run(&o, &r), 0);
    ck_assert_uint_eq(r.count, 0); /* per-thread: the omitted stream is not the legacy one */
    ss_result_free(&r);
    free(write_text("build/compile_commands.json",
                    "[{\"directory\": \"/\", \"file\": \"x.txt\", \"command\": \"cc x.txt\"}]"));
    ss_result_init(&r, SS_RESULT_LINT);
    ck_assert_int_eq(ss_analyzer_run(&o, &r), -1);
    ss_result_free(&r);
    free(build);
    remove_work_dir();
}
END_TEST

/* Copies the test tree 'name' under tests/ into WORK/'name'. */
static void copy_tree(const char *name)
{
    char *cmd = ss_xasprintf("cp -r '%s/tests/%s' '%s/%s'", SS_SOURCE_DIR, name, work, name);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
}

/* Runs syncscope lint and checks the exit status; returns stdout, frees stderr into *err_out
 * when not NULL. */
static char *lint_output(const char *const *argv, int status, char **err_out)
{
    char *out, *err;
    ck_assert_int_eq(run(argv, &out, &err), status);
    if (err_out)
        *err_out = err;
    else
        free(err);
    return out;
}

START_TEST(test_config_precedence)
{
    make_work_dir();
    copy_tree("lint-config");
    char *err;
    const char *all[] = {"--cuda-path=none", "--no-cache",  "--stats",
                         "--color=never",    "lint-config", NULL};
    char *out = lint_output(all, 1, &err);
    /* The root file: SYNC101 raised to error, SYNC103 off; the vendor folder excluded (it
     * would not parse). */
    ck_assert_ptr_nonnull(strstr(out, "lint-config/app/k.cu:7:5: error: kernel 'k' is launched "
                                      "in 'app' without a stream"));
    ck_assert_ptr_null(strstr(out, "lint-config/app/k.cu:6"));
    ck_assert_ptr_null(strstr(out, "vendor"));
    ck_assert_str_eq(err, "syncscope: parsed 3, cached 0\n");
    /* tests/ inherits the root (SYNC103 off) under its own SYNC101 note, SYNC401 off. */
    ck_assert_ptr_nonnull(strstr(out, "lint-config/app/tests/t.cu:7:5: note: kernel 'k'"));
    ck_assert_ptr_null(strstr(out, "lint-config/app/tests/t.cu:6"));
    ck_assert_ptr_null(strstr(out, "lint-config/app/tests/t.cu:10"));
    /* standalone/ does not inherit: SYNC103 at its default, SYNC401 a warning, and its own
     * hot-functions make the launch outside any loop a warning. */
    ck_assert_ptr_nonnull(strstr(out, "lint-config/app/standalone/s.cu:6:5: note: "
                                      "'cudaStreamCreate' in 'standalone'"));
    ck_assert_ptr_nonnull(strstr(out, "lint-config/app/standalone/s.cu:7:5: warning: kernel"));
    ck_assert_ptr_nonnull(strstr(out, "; 'standalone' is marked hot in the configuration "
                                      "(hot-functions) [SYNC101 default-stream-launch]\n"));
    ck_assert_ptr_nonnull(strstr(out, "lint-config/app/standalone/s.cu:10:9: warning: "
                                      "'cudaStreamSynchronize' in 'standalone' blocks the host"));
    ck_assert_ptr_nonnull(strstr(out, "2 warnings, 1 error and 2 notes generated.\n"));
    free(out);
    free(err);
    /* Each file is judged by its own fail-on: t.cu has notes only, and fail-on error. */
    const char *tests_only[] = {"--cuda-path=none", "--no-cache", "lint-config/app/tests", NULL};
    free(lint_output(tests_only, 0, NULL));
    /* The command line wins over every file. */
    const char *fail_note[] = {"--cuda-path=none",      "--no-cache", "--fail-on", "note",
                               "lint-config/app/tests", NULL};
    free(lint_output(fail_note, 1, NULL));
    const char *overrides[] = {"--cuda-path=none",
                               "--no-cache",
                               "--color=never",
                               "--severity",
                               "SYNC101=warning",
                               "--enable",
                               "blocking-stream-create",
                               "--disable",
                               "SYNC401",
                               "lint-config/app",
                               NULL};
    /* standalone/s.cu's warning fails at that file's fail-on (the default, warning). */
    out = lint_output(overrides, 1, NULL);
    ck_assert_ptr_nonnull(strstr(out, "lint-config/app/k.cu:7:5: warning: kernel"));
    ck_assert_ptr_nonnull(strstr(out, "lint-config/app/k.cu:6:5: note: 'cudaStreamCreate'"));
    ck_assert_ptr_nonnull(strstr(out, "lint-config/app/tests/t.cu:7:5: warning: kernel"));
    ck_assert_ptr_null(strstr(out, "SYNC401"));
    free(out);
    const char *exclude[] = {"--cuda-path=none",           "--no-cache",  "--stats", "--exclude",
                             "lint-config/app/standalone", "lint-config", NULL};
    out = lint_output(exclude, 1, &err);
    ck_assert_ptr_null(strstr(out, "standalone"));
    ck_assert_str_eq(err, "syncscope: parsed 2, cached 0\n");
    free(out);
    free(err);
    /* --dump-config shows the merged layers for one file. */
    const char *dump[] = {"--readback-bytes", "64", "--dump-config", "lint-config/app/tests/t.cu",
                          NULL};
    out = lint_output(dump, 0, NULL);
    char *from = ss_xasprintf("# from: %s/lint-config/app/tests/.syncscope.yml\n"
                              "# from: %s/lint-config/.syncscope.yml\n",
                              work, work);
    ck_assert_ptr_nonnull(strstr(out, from));
    ck_assert_ptr_nonnull(strstr(out, "readback-bytes: 64\n"));
    ck_assert_ptr_nonnull(strstr(out, "fail-on: error\n"));
    ck_assert_ptr_nonnull(strstr(out, "SYNC401: # sync-in-loop\n    enabled: false\n"));
    ck_assert_ptr_nonnull(strstr(out, "SYNC101: # default-stream-launch\n    enabled: true\n"
                                      "    severity: note\n"));
    free(from);
    free(out);
    remove_work_dir();
}
END_TEST

START_TEST(test_malformed_config_and_baseline)
{
    make_work_dir();
    free(write_text("src/a.cu", launch_file));
    free(write_text("src/.syncscope.yml", "rules:\n  SYNC201:\n    severty: error\n"));
    const char *lint[] = {"--cuda-path=none", "--no-cache", "src", NULL};
    char *expected = ss_xasprintf("syncscope: error: %s/src/.syncscope.yml:3:5: unknown key "
                                  "'severty' in rule 'SYNC201' (did you mean 'severity'?)\n",
                                  work);
    expect_error(lint, expected);
    free(expected);
    const char *dump[] = {"--dump-config", "src/a.cu", NULL};
    expected = ss_xasprintf("syncscope: error: %s/src/.syncscope.yml:3:5: unknown key "
                            "'severty' in rule 'SYNC201' (did you mean 'severity'?)\n",
                            work);
    expect_error(dump, expected);
    free(expected);
    free(write_text("src/.syncscope.yml", "fail-on: warning\n"));
    free(write_text("bad.json", "{\"version\": 1, \"findings\": [\n"));
    const char *bad[] = {"--cuda-path=none", "--no-cache", "--baseline", "bad.json", "src", NULL};
    expect_error(bad, "syncscope: error: bad.json:2:1: malformed baseline: the file ends inside "
                      "the JSON document\n");
    free(write_text("v2.json", "{\"version\": 2, \"findings\": []}\n"));
    const char *v2[] = {"--cuda-path=none", "--no-cache", "--baseline", "v2.json", "src", NULL};
    expect_error(v2, "syncscope: error: v2.json: unsupported baseline version 2 (this syncscope "
                     "reads version 1)\n");
    const char *missing[] = {"--cuda-path=none", "--baseline", "none.json", "src", NULL};
    expect_error(missing, "syncscope: error: none.json: No such file or directory\n");
    const char *severity[] = {"--severity", "SYNC101", "src", NULL};
    expect_error(severity, "syncscope: error: --severity needs RULE=LEVEL (got 'SYNC101')\n");
    const char *rule[] = {"--disable", "SYNC999", "src", NULL};
    expect_error(rule, "syncscope: error: --disable: unknown rule 'SYNC999' (syncscope rules "
                       "lists them)\n");
    const char *jobs[] = {"-j", "0", "src", NULL};
    expect_error(jobs, "syncscope: error: -j needs a number of jobs from 1 to 1024 (got '0')\n");
    remove_work_dir();
}
END_TEST

START_TEST(test_baseline_after_code_moves)
{
    make_work_dir();
    static const char before[] = "#include <cuda_runtime.h>\n"
                                 "__global__ void k(int *p) { p[0] = 1; }\n"
                                 "void go(int *p, cudaStream_t spare)\n"
                                 "{\n"
                                 "    k<<<1, 1>>>(p);\n"
                                 "    k<<<2, 1>>>(p);\n"
                                 "}\n" USES_A_STREAM STEP_LOOP("go(p, s)");
    free(write_text("a.cu", before));
    const char *write[] = {"--cuda-path=none", "--no-cache", "--write-baseline",
                           "base.json",        "a.cu",       NULL};
    free(lint_output(write, 0, NULL)); /* recording a baseline passes */
    char *base_path = ss_xasprintf("%s/base.json", work);
    char *base = cli_slurp(base_path);
    ck_assert_ptr_nonnull(strstr(base, "\"version\":\t1"));
    free(base);
    free(base_path);
    const char *with[] = {
        "--cuda-path=none", "--no-cache", "--color=never", "--baseline", "base.json", "a.cu", NULL};
    char *out = lint_output(with, 0, NULL);
    ck_assert_str_eq(out, "1 file, 0 findings\n");
    free(out);
    /* Lines added above and re-indentation: the same findings, still in the baseline. */
    free(write_text("a.cu", "#include <cuda_runtime.h>\n"
                            "/* a comment\n   over two lines */\n"
                            "__global__ void k(int *p) { p[0] = 1; }\n"
                            "void go(int *p, cudaStream_t spare)\n"
                            "{\n"
                            "        k<<<1, 1>>>(p);\n"
                            "  k<<<2,1>>>(p);\n"
                            "    k<<<3, 1>>>(p);\n"
                            "}\n" USES_A_STREAM STEP_LOOP("go(p, s)")));
    out = lint_output(with, 1, NULL);
    ck_assert_str_eq(out, "a.cu:9:5: warning: kernel 'k' is launched in 'go' without a stream: "
                          "it runs on the legacy default stream; it runs on every iteration: "
                          "'go()' is called from the loop at a.cu:12, which enqueues device work "
                          "[SYNC101 default-stream-launch]\n"
                          "    k<<<3, 1>>>(p);\n"
                          "    ^\n"
                          "a.cu:9:5: note: pass an explicit stream created with "
                          "cudaStreamNonBlocking, or compile with --default-stream per-thread\n"
                          "1 warning generated.\n");
    free(out);
    remove_work_dir();
}
END_TEST

/* The findings of a run in JSON, and its stderr. */
static const char cache_header_a[] = "#pragma once\n__global__ void ka(int *p) { p[0] = 1; }\n";
static const char cache_header_b[] = "#pragma once\n__global__ void kb(int *p) { p[0] = 2; }\n";

START_TEST(test_cache_invalidation)
{
    make_work_dir();
    free(write_text("inc/a.h", cache_header_a));
    free(write_text("inc/b.h", cache_header_b));
    free(write_text(
        "u1.cu",
        "#include <cuda_runtime.h>\n#include \"inc/a.h\"\n"
        "void u1(int *p, cudaStream_t spare) { ka<<<1, 1>>>(p); }\n" USES_A_STREAM STEP_LOOP(
            "u1(p, s)")));
    free(write_text(
        "u2.cu",
        "#include <cuda_runtime.h>\n#include \"inc/b.h\"\n"
        "void u2(int *p, cudaStream_t spare) { kb<<<1, 1>>>(p); }\n" USES_A_STREAM STEP_LOOP(
            "u2(p, s)")));
    free(write_text("u3.cu", "#include <cuda_runtime.h>\n#include \"inc/a.h\"\n"
                             "#include \"inc/b.h\"\n"
                             "void u3(int *p, cudaStream_t spare) { ka<<<1, 1>>>(p); kb<<<1, 1, 0, "
                             "0>>>(p); }\n" USES_A_STREAM STEP_LOOP("u3(p, s)")));
    const char *lint[] = {"--cuda-path=none", "--cache-dir", "cache", "--stats", "-j",    "2",
                          "--format",         "json",        "u1.cu", "u2.cu",   "u3.cu", NULL};
    char *err;
    char *cold = lint_output(lint, 1, &err);
    ck_assert_str_eq(err, "syncscope: parsed 3, cached 0\n");
    free(err);
    char *warm = lint_output(lint, 1, &err);
    ck_assert_str_eq(err, "syncscope: parsed 0, cached 3\n");
    ck_assert_str_eq(warm, cold);
    free(err);
    free(warm);
    /* Changing b.h re-parses exactly its dependents, u2 and u3. */
    free(write_text("inc/b.h", "#pragma once\n\n__global__ void kb(int *p) { p[0] = 3; }\n"));
    char *changed = lint_output(lint, 1, &err);
    ck_assert_str_eq(err, "syncscope: parsed 2, cached 1\n");
    ck_assert_ptr_nonnull(strstr(changed, "\"line\":\t4"));
    free(err);
    free(changed);
    /* A touched file with the same content is still cached; a changed source re-parses. */
    free(write_text("inc/a.h", cache_header_a));
    free(write_text(
        "u1.cu",
        "#include <cuda_runtime.h>\n#include \"inc/a.h\"\n"
        "void u1(int *p, cudaStream_t spare) { ka<<<2, 1>>>(p); }\n" USES_A_STREAM STEP_LOOP(
            "u1(p, s)")));
    free(lint_output(lint, 1, &err));
    ck_assert_str_eq(err, "syncscope: parsed 1, cached 2\n");
    free(err);
    /* Corrupt entries are ignored and rewritten. */
    char *corrupt = ss_xasprintf("for f in '%s'/cache/*.json; do printf '{\"format\": 1, ' > "
                                 "\"$f\"; done",
                                 work);
    ck_assert_int_eq(system(corrupt), 0);
    free(corrupt);
    free(lint_output(lint, 1, &err));
    ck_assert_str_eq(err, "syncscope: parsed 3, cached 0\n");
    free(err);
    free(lint_output(lint, 1, &err));
    ck_assert_str_eq(err, "syncscope: parsed 0, cached 3\n");
    free(err);
    const char *no_cache[] = {"--cuda-path=none",
                              "--cache-dir",
                              "cache",
                              "--no-cache",
                              "--stats",
                              "u1.cu",
                              "u2.cu",
                              "u3.cu",
                              NULL};
    free(lint_output(no_cache, 1, &err));
    ck_assert_str_eq(err, "syncscope: parsed 3, cached 0\n");
    free(err);
    /* Another readback limit is another key. */
    const char *readback[] = {"--cuda-path=none", "--cache-dir", "cache", "--stats",
                              "--readback-bytes", "8",           "u1.cu", NULL};
    free(lint_output(readback, 1, &err));
    ck_assert_str_eq(err, "syncscope: parsed 1, cached 0\n");
    free(err);
    free(cold);
    remove_work_dir();
}
END_TEST

START_TEST(test_jobs_deterministic)
{
    make_work_dir();
    char *dir = ss_xasprintf("%s/tests/lint", SS_SOURCE_DIR);
    char *include = ss_xasprintf("--extra-arg=-I%s/tests/lint/include", SS_SOURCE_DIR);
    const char *one[] = {"--cuda-path=none",
                         "--no-cache",
                         "--keep-going",
                         "--color=never",
                         include,
                         "-j1",
                         dir,
                         NULL};
    const char *four[] = {"--cuda-path=none",
                          "--no-cache",
                          "--keep-going",
                          "--color=never",
                          include,
                          "-j",
                          "4",
                          dir,
                          NULL};
    char *out1 = lint_output(one, 1, NULL);
    char *out4 = lint_output(four, 1, NULL);
    ck_assert_str_eq(out1, out4);
    ck_assert_ptr_nonnull(strstr(out1, "/tests/lint/capture.cu:11:5: error: 'cudaMemcpy'"));
    ck_assert_ptr_nonnull(strstr(out1, "/tests/lint/sync_in_loop.cu:13:9: warning: "
                                       "'cudaStreamSynchronize' in 'for_loop'"));
    free(out1);
    free(out4);
    free(include);
    free(dir);
    remove_work_dir();
}
END_TEST

START_TEST(test_headers_not_parsed_alone)
{
    make_work_dir();
    /* A header that only parses inside its includer (blockIdx comes from CUDA). */
    free(write_text("lib/work.h",
                    "__global__ void w(int *p) { p[blockIdx.x] = 1; }\n"
                    "inline void launch(int *p, cudaStream_t spare) { w<<<1, 1>>>(p); }\n"
                    "inline void launch_on(int *p, cudaStream_t s) { w<<<1, 1, 0, s>>>(p); }\n"));
    free(write_text("lib/use.cu",
                    "#include <cuda_runtime.h>\n#include \"work.h\"\n"
                    "void use(int *p, cudaStream_t s) { launch(p, s); }\n" USES_A_STREAM STEP_LOOP(
                        "use(p, s)")));
    free(write_text("lib/k.cuh", "#pragma once\n__global__ void kc(int *p) { p[0] = 1; }\n"));
    const char *folder[] = {"--cuda-path=none", "--no-cache", "--stats",
                            "--color=never",    "lib",        NULL};
    char *err;
    char *out = lint_output(folder, 1, &err);
    ck_assert_str_eq(err, "syncscope: parsed 1, cached 0\n");
    ck_assert_ptr_nonnull(strstr(out, "lib/work.h:2:50: warning: kernel 'w' is launched in "
                                      "'launch' without a stream"));
    ck_assert_ptr_null(strstr(out, "error"));
    free(out);
    free(err);
    /* Named explicitly, a header is parsed on its own (and here fails to). */
    const char *named[] = {"--cuda-path=none", "--no-cache", "--keep-going", "lib/work.h", NULL};
    out = lint_output(named, 0, NULL);
    ck_assert_ptr_nonnull(strstr(out, "lib/work.h:1:31: error: use of undeclared identifier "
                                      "'blockIdx'"));
    free(out);
    free(write_text("only/a.h", "int a;\n"));
    const char *only[] = {"--cuda-path=none", "only", NULL};
    expect_error(only, "syncscope: error: no C, C++ or CUDA sources under 'only', only headers (a "
                       "header is analyzed through the files that include it, or when named on "
                       "the command line)\n");
    remove_work_dir();
}
END_TEST

/* CUDA 13's Thrust and CUB need clang's CUDA wrapper headers (cuda_wrappers/new), which
 * libclang does not find by itself on Debian's layout: with the real toolkit, a file that
 * includes them parses with no diagnostic at all. */
START_TEST(test_real_thrust_parses)
{
    struct stat st;
    if (stat("/usr/local/cuda/include/cccl/cub/block/block_load.cuh", &st) != 0)
        return; /* no CUDA 13 toolkit here: the bundled-declaration runs cover the rest */
    make_work_dir();
    free(write_text("t.cu", "#include <thrust/device_vector.h>\n"
                            "#include <thrust/reduce.h>\n"
                            "#include <cub/block/block_load.cuh>\n"
                            "int total(const thrust::device_vector<int> &v)\n"
                            "{\n"
                            "    return thrust::reduce(v.begin(), v.end());\n"
                            "}\n"));
    const char *args[] = {"--cuda-path=/usr/local/cuda",
                          "--no-cache",
                          "--color=never",
                          "--fail-on=none",
                          "t.cu",
                          NULL};
    char *out, *err;
    ck_assert_int_eq(run(args, &out, &err), 0);
    ck_assert_ptr_null(strstr(out, "error"));
    ck_assert_ptr_null(strstr(err, "error"));
    /* A note: the function returns the value at once (docs/lint.md, "Warning or note"). */
    ck_assert_ptr_nonnull(strstr(out, "t.cu:6:12: note: 'thrust::reduce' on a device range "
                                      "returns its result to the host in 'total'"));
    ck_assert_ptr_nonnull(strstr(out, "; inherent: the host returns the value at once"));
    free(out);
    free(err);
    remove_work_dir();
}
END_TEST

/* 'text' without its lines that contain 'needle', in place. */
static void drop_lines_with(char *text, const char *needle)
{
    char *w = text;
    for (const char *r = text; *r;) {
        const char *eol = strchr(r, '\n');
        size_t len = eol ? (size_t)(eol - r) + 1 : strlen(r);
        char *line = strndup(r, len);
        if (strstr(line, needle) == NULL) {
            memmove(w, r, len);
            w += len;
        }
        free(line);
        r += len;
    }
    *w = '\0';
}

/* Whole projects: a folder walk leaves out the sources that other sources #include (and,
 * with a compile database, those it does not list), goes on after a file with errors, and
 * counts the files. */
START_TEST(test_folder_walk_of_a_project)
{
    make_work_dir();
    free(write_text("src/main.cu", "#include <cuda_runtime.h>\n"
                                   "#include \"kernel.cu\"\n"
                                   "void go(float *x) { scale<<<1, 32>>>(x); }\n"));
    /* Parsed alone it fails: no CUDA header before it. */
    free(write_text("src/kernel.cu", "__global__ void scale(float *x) { x[threadIdx.x] *= 2; }\n"));
    free(write_text("src/broken.cu", "#include <cuda_runtime.h>\n#include \"missing.h\"\n"));
    free(write_text("src/z_later.cu", "#include <cuda_runtime.h>\n"
                                      "__global__ void k2(float *x) { x[0] = 1; }\n"
                                      "void later(float *x) { k2<<<1, 1>>>(x); }\n"));
    char *out, *err;
    const char *folder[] = {"--cuda-path=none", "--no-cache", "--color=never",
                            "--verbose",        "src",        NULL};
    ck_assert_int_eq(run(folder, &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(out, "src/broken.cu:2:10: error: 'missing.h' file not found\n"));
    ck_assert_ptr_nonnull(strstr(out, "src/main.cu:3:21: "));
    ck_assert_ptr_nonnull(strstr(out, "src/z_later.cu:3:24: "));
    ck_assert_ptr_null(strstr(out, "kernel.cu:"));
    drop_lines_with(err, ": arguments lint adds "); /* check_flags tests them */
    ck_assert_str_eq(err, "syncscope: src/kernel.cu: not analyzed on its own: src/main.cu "
                          "#includes it\n"
                          "syncscope: 4 files, 3 analyzed, 1 with errors; not analyzed: 1 "
                          "#included by other sources\n"
                          "syncscope:   src/broken.cu: first error: src/broken.cu:2:10: "
                          "'missing.h' file not found\n");
    free(out);
    free(err);
    const char *keep[] = {"--cuda-path=none", "--no-cache", "--keep-going",
                          "--fail-on=note",   "src",        NULL};
    ck_assert_int_eq(run(keep, &out, &err), 1);
    free(out);
    free(err);
    /* With a compile database, only the sources it lists. */
    char *db = ss_xasprintf("[{\"directory\": \"%s\", \"file\": \"src/main.cu\", "
                            "\"command\": \"nvcc -c src/main.cu\"}]",
                            work);
    free(write_text("build/compile_commands.json", db));
    free(db);
    const char *listed[] = {"--cuda-path=none",
                            "--no-cache",
                            "--verbose",
                            "--fail-on=note",
                            "-p",
                            "build",
                            "src",
                            NULL};
    ck_assert_int_eq(run(listed, &out, &err), 1);
    ck_assert_ptr_nonnull(strstr(out, "src/main.cu:3:21: "));
    ck_assert_ptr_null(strstr(out, "z_later"));
    ck_assert_ptr_nonnull(strstr(err, "syncscope: src/broken.cu: not analyzed: the compile "
                                      "database does not list it\n"));
    ck_assert_ptr_nonnull(strstr(err, "syncscope: src/z_later.cu: not analyzed: the compile "
                                      "database does not list it\n"));
    free(out);
    free(err);
    remove_work_dir();
}
END_TEST

/* A compile database that lists a folder's .cpp files and none of its .cu files (CMake's
 * FindCUDA cuda_add_library): a warning counts and names the .cu files it leaves out, once;
 * a text run that finds nothing says so in one line. */
START_TEST(test_database_without_cuda_sources)
{
    make_work_dir();
    free(write_text("src/host.cpp", "int host_side(void) { return 1; }\n"));
    free(write_text("src/io.cpp", "int io_side(void) { return 2; }\n"));
    for (int i = 1; i <= 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "src/kernel%d.cu", i);
        free(write_text(name, "__global__ void k(float *x) { x[0] = 1; }\n"));
    }
    char *db = ss_xasprintf("[{\"directory\": \"%s\", \"file\": \"src/host.cpp\", "
                            "\"command\": \"g++ -c src/host.cpp\"}, "
                            "{\"directory\": \"%s\", \"file\": \"src/io.cpp\", "
                            "\"command\": \"g++ -c src/io.cpp\"}]",
                            work, work);
    free(write_text("build/compile_commands.json", db));
    free(db);
    char *out, *err;
    const char *argv[] = {"--cuda-path=none", "--no-cache", "-p", "build", "src", NULL};
    ck_assert_int_eq(run(argv, &out, &err), 0);
    ck_assert_str_eq(out, "2 files, 0 findings\n");
    ck_assert_str_eq(err, "syncscope: warning: 3 .cu files under the linted folders are not in "
                          "the compile database, so their CUDA code is not analyzed: "
                          "src/kernel1.cu, src/kernel2.cu and 1 more (CMake's FindCUDA "
                          "cuda_add_library leaves a target's .cu files out; CMake's CUDA "
                          "language lists them)\n");
    free(out);
    free(err);
    for (int i = 2; i <= 3; i++) {
        char *path = ss_xasprintf("%s/src/kernel%d.cu", work, i);
        ck_assert_int_eq(remove(path), 0);
        free(path);
    }
    ck_assert_int_eq(run(argv, &out, &err), 0);
    ck_assert_str_eq(out, "2 files, 0 findings\n");
    ck_assert_str_eq(err, "syncscope: warning: 1 .cu file under the linted folders is not in the "
                          "compile database, so its CUDA code is not analyzed: src/kernel1.cu "
                          "(CMake's FindCUDA cuda_add_library leaves a target's .cu files out; "
                          "CMake's CUDA language lists them)\n");
    free(out);
    free(err);
    remove_work_dir();
}
END_TEST

/* Units with parse errors are cached too: a missing header, until it appears in a folder of
 * the include path; a command line clang refuses, until it changes. */
START_TEST(test_cache_keeps_failures)
{
    make_work_dir();
    free(write_text("inc/.keep", ""));
    free(write_text("u.cu", "#include \"sub/missing.h\"\n#include <cuda_runtime.h>\n"
                            "__global__ void k() {}\nvoid f() { k<<<1, 1>>>(); }\n"));
    const char *lint[] = {"--cuda-path=none",  "--cache-dir",    "cache", "--stats", "--keep-going",
                          "--extra-arg=-Iinc", "--fail-on=note", "u.cu",  NULL};
    const char *steps[][2] = {
        {NULL, "syncscope: parsed 1, cached 0\n"},
        {NULL, "syncscope: parsed 0, cached 1\n"},
        {"mkdir inc/sub", "syncscope: parsed 1, cached 0\n"},
        {NULL, "syncscope: parsed 0, cached 1\n"},
        {"touch inc/sub/missing.h", "syncscope: parsed 1, cached 0\n"},
        {NULL, "syncscope: parsed 0, cached 1\n"},
    };
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        if (steps[i][0]) {
            char *cmd = ss_xasprintf("cd '%s' && %s", work, steps[i][0]);
            ck_assert_int_eq(system(cmd), 0);
            free(cmd);
        }
        char *out, *err;
        ck_assert_int_eq(run(lint, &out, &err), 1);
        ck_assert_msg(strcmp(err, steps[i][1]) == 0, "step %zu: %s", i, err);
        /* Until the header appears, the error is reported, from the cache too. */
        ck_assert_int_eq(strstr(out, "u.cu:1:10: error: 'sub/missing.h' file not found") != NULL,
                         i < 4);
        free(out);
        free(err);
    }
    free(write_text("c/compile_commands.json",
                    "[{\"directory\": \".\", \"file\": \"h.cpp\", \"command\": \"g++ "
                    "-std=c++99 -c h.cpp\"}]"));
    free(write_text("h.cpp", "int x;\n"));
    const char *refused[] = {
        "--cuda-path=none", "--cache-dir", "cache", "--stats", "-p", "c", "h.cpp", NULL};
    for (int pass = 0; pass < 2; pass++) {
        char *out, *err;
        ck_assert_int_eq(run(refused, &out, &err), 2);
        ck_assert_str_eq(out, "h.cpp: error: clang rejected the argument '-std=c++99' of the "
                              "compile command: correct it in the compile database or leave it "
                              "out with --remove-arg\n");
        ck_assert_ptr_nonnull(strstr(err, pass == 0 ? "syncscope: parsed 1, cached 0\n"
                                                    : "syncscope: parsed 0, cached 1\n"));
        free(out);
        free(err);
    }
    remove_work_dir();
}
END_TEST

static Suite *analyzer_suite(void)
{
    Suite *s = suite_create("analyzer");
    TCase *api = tcase_create("api");
    tcase_set_timeout(api, 60);
    tcase_add_test(api, test_api_headers_once_and_system_headers);
    tcase_add_test(api, test_compile_database_inputs);
    suite_add_tcase(s, api);
    TCase *cli = tcase_create("cli");
    tcase_set_timeout(cli, 120);
    tcase_add_test(cli, test_text_output_and_exit_codes);
    tcase_add_test(cli, test_notes_and_fail_on);
    tcase_add_test(cli, test_usage_errors);
    tcase_add_test(cli, test_bad_inputs);
    tcase_add_test(cli, test_parse_errors_keep_going);
    suite_add_tcase(s, cli);
    TCase *policy = tcase_create("policy");
    tcase_set_timeout(policy, 120);
    tcase_add_test(policy, test_config_precedence);
    tcase_add_test(policy, test_malformed_config_and_baseline);
    tcase_add_test(policy, test_baseline_after_code_moves);
    suite_add_tcase(s, policy);
    TCase *scale = tcase_create("scale");
    tcase_set_timeout(scale, 300);
    tcase_add_test(scale, test_cache_invalidation);
    tcase_add_test(scale, test_jobs_deterministic);
    tcase_add_test(scale, test_headers_not_parsed_alone);
    tcase_add_test(scale, test_database_without_cuda_sources);
    tcase_add_test(scale, test_real_thrust_parses);
    tcase_add_test(scale, test_folder_walk_of_a_project);
    tcase_add_test(scale, test_cache_keeps_failures);
    suite_add_tcase(s, scale);
    return s;
}

SS_CHECK_MAIN(analyzer_suite)
