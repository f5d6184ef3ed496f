/* check_compdb.c: the compile_commands.json reader: both forms, shell splitting, errors, and
 * the expansion of response files (@FILE, nvcc's --options-file). */
#include "check_main.h"
#include "internal.h"
#include "log.h"
#include "tmp_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int parse(const char *text, ss_compdb *db, char *err, size_t size)
{
    return ss_compdb_parse(text, strlen(text), "db.json", db, err, size);
}

START_TEST(test_split_shell_words)
{
    ss_args a = {0};
    ck_assert_int_eq(ss_compdb_split("nvcc  -DNAME=\"a b\" 'x y' c\\ d -I/inc\t-c", &a), 0);
    ck_assert_uint_eq(a.count, 6);
    ck_assert_str_eq(a.v[0], "nvcc");
    ck_assert_str_eq(a.v[1], "-DNAME=a b");
    ck_assert_str_eq(a.v[2], "x y");
    ck_assert_str_eq(a.v[3], "c d");
    ck_assert_str_eq(a.v[4], "-I/inc");
    ck_assert_str_eq(a.v[5], "-c");
    ck_assert_ptr_null(a.v[6]);
    ss_args_free(&a);
    ck_assert_int_eq(ss_compdb_split("cc 'unterminated", &a), -1);
    ss_args_free(&a);
    ck_assert_int_eq(ss_compdb_split("cc \"unterminated", &a), -1);
    ss_args_free(&a);
}
END_TEST

START_TEST(test_command_and_arguments_forms)
{
    char err[256] = "";
    ss_compdb db;
    const char *text =
        "[{\"directory\": \"/build\", \"command\": \"nvcc -x cu -c ../src/a.cu -o a.o\","
        "  \"file\": \"../src/a.cu\"},"
        " {\"directory\": \"/build/\", \"arguments\": [\"g++\", \"-DX=1\", \"-c\", \"b.cpp\"],"
        "  \"file\": \"/abs/b.cpp\"}]";
    ck_assert_int_eq(parse(text, &db, err, sizeof err), 0);
    ck_assert_uint_eq(db.count, 2);
    ck_assert_str_eq(db.commands[0].directory, "/build");
    ck_assert_str_eq(db.commands[0].file, "/build/../src/a.cu");
    ck_assert_uint_eq(db.commands[0].argv.count, 7);
    ck_assert_str_eq(db.commands[0].argv.v[0], "nvcc");
    ck_assert_str_eq(db.commands[0].argv.v[4], "../src/a.cu");
    ck_assert_str_eq(db.commands[1].file, "/abs/b.cpp");
    ck_assert_uint_eq(db.commands[1].argv.count, 4);
    ck_assert_str_eq(db.commands[1].argv.v[1], "-DX=1");
    ck_assert_ptr_eq(ss_compdb_find(&db, "/abs/b.cpp"), &db.commands[1]);
    ck_assert_ptr_null(ss_compdb_find(&db, "/abs/c.cpp"));
    ss_compdb_free(&db);
    ck_assert_uint_eq(db.count, 0);
}
END_TEST

/* A compiler launcher in front of the compiler (CMake's CUDA_COMPILER_LAUNCHER, CC="ccache
 * gcc") is left out, so argv[0] is the compiler; a launcher followed by an option, or alone, is
 * not one and stays. */
START_TEST(test_launchers_dropped)
{
    char err[256] = "";
    ss_compdb db;
    const char *text =
        "[{\"directory\": \"/b\", \"command\": \"/usr/bin/ccache /usr/local/cuda/bin/nvcc -c "
        "a.cu\","
        "  \"file\": \"a.cu\"},"
        " {\"directory\": \"/b\", \"arguments\": [\"sccache\", \"distcc\", \"g++\", \"-c\", "
        "\"b.cpp\"], \"file\": \"b.cpp\"},"
        " {\"directory\": \"/b\", \"arguments\": [\"ccache\", \"-s\"], \"file\": \"c.cpp\"},"
        " {\"directory\": \"/b\", \"arguments\": [\"ccache\"], \"file\": \"d.cpp\"},"
        " {\"directory\": \"/b\", \"arguments\": [\"nvcc\", \"ccache\", \"-c\"], \"file\": "
        "\"e.cu\"}]";
    ck_assert_int_eq(parse(text, &db, err, sizeof err), 0);
    ck_assert_uint_eq(db.count, 5);
    ck_assert_uint_eq(db.commands[0].argv.count, 3);
    ck_assert_str_eq(db.commands[0].argv.v[0], "/usr/local/cuda/bin/nvcc");
    ck_assert_str_eq(db.commands[0].argv.v[2], "a.cu");
    ck_assert_ptr_null(db.commands[0].argv.v[3]);
    ck_assert_uint_eq(db.commands[1].argv.count, 3);
    ck_assert_str_eq(db.commands[1].argv.v[0], "g++");
    ck_assert_str_eq(db.commands[1].argv.v[2], "b.cpp");
    ck_assert_ptr_null(db.commands[1].argv.v[3]);
    ck_assert_uint_eq(db.commands[2].argv.count, 2);
    ck_assert_str_eq(db.commands[2].argv.v[0], "ccache");
    ck_assert_uint_eq(db.commands[3].argv.count, 1);
    ck_assert_str_eq(db.commands[3].argv.v[0], "ccache");
    ck_assert_uint_eq(db.commands[4].argv.count, 3);
    ck_assert_str_eq(db.commands[4].argv.v[0], "nvcc");
    ck_assert_str_eq(db.commands[4].argv.v[1], "ccache");
    ss_compdb_free(&db);
}
END_TEST

START_TEST(test_malformed_inputs)
{
    static const struct {
        const char *text;
        const char *message;
    } cases[] = {
        {"", "db.json is empty"},
        {"  \n\t ", "db.json is empty"},
        {"[{\"directory\": \"/b\",", "db.json is not valid JSON (near line 1)"},
        {"{}", "db.json is not a JSON array of compile commands"},
        {"[42]", "db.json: entry 1 is not an object"},
        {"[{\"file\": \"a.cu\", \"command\": \"nvcc\"}]",
         "db.json: entry 1 lacks a \"directory\" or \"file\" string"},
        {"[{\"directory\": \"/b\", \"file\": \"a.cu\"}]",
         "db.json: entry 1 has neither \"arguments\" nor \"command\""},
        {"[{\"directory\": \"/b\", \"file\": \"a.cu\", \"command\": \"  \"}]",
         "db.json: entry 1 has an empty command"},
        {"[{\"directory\": \"/b\", \"file\": \"a.cu\", \"arguments\": [\"cc\", 1]}]",
         "db.json: entry 1: \"arguments\" holds a non-string"},
        {"[{\"directory\": \"/b\", \"file\": \"a.cu\", \"command\": \"cc 'x\"}]",
         "db.json: entry 1: unterminated quote in \"command\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[256] = "";
        ss_compdb db;
        ck_assert_int_eq(parse(cases[i].text, &db, err, sizeof err), -1);
        ck_assert_str_eq(err, cases[i].message);
        ck_assert_uint_eq(db.count, 0);
        ck_assert_ptr_null(db.commands);
    }
    char err[256] = "";
    ss_compdb db;
    ck_assert_int_eq(ss_compdb_parse("[\0]", 3, "db.json", &db, err, sizeof err), -1);
    ck_assert_str_eq(err, "db.json is not a text file (it contains NUL bytes)");
}
END_TEST

START_TEST(test_load_from_build_dir)
{
    char dir[] = "/tmp/ss-compdb-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char err[512] = "";
    ss_compdb db;
    ck_assert_int_eq(ss_compdb_load(dir, &db, err, sizeof err), -1);
    char *expected = ss_xasprintf("cannot read '%s/compile_commands.json': No such file or "
                                  "directory",
                                  dir);
    ck_assert_str_eq(err, expected);
    free(expected);
    char *path = ss_xasprintf("%s/compile_commands.json", dir);
    FILE *out = fopen(path, "w");
    ck_assert_ptr_nonnull(out);
    fprintf(out,
            "[{\"directory\": \"%s\", \"arguments\": [\"nvcc\", \"-c\", \"k.cu\"], "
            "\"file\": \"k.cu\"}]",
            dir);
    fclose(out);
    ck_assert_int_eq(ss_compdb_load(dir, &db, err, sizeof err), 0);
    ck_assert_uint_eq(db.count, 1);
    char *file = ss_xasprintf("%s/k.cu", dir);
    ck_assert_str_eq(db.commands[0].file, file);
    ss_compdb_free(&db);
    free(file);
    unlink(path);
    free(path);
    rmdir(dir);
}
END_TEST

/* Writes 'text' to ROOT/'name', making its folder. */
static void put_file(const char *name, const char *text)
{
    char *path = ss_xasprintf("%s/%s", fixture_root, name);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    char *mkdir_p = ss_xasprintf("mkdir -p '%s'", path);
    ck_assert_int_eq(system(mkdir_p), 0);
    free(mkdir_p);
    *slash = '/';
    FILE *out = fopen(path, "w");
    ck_assert_ptr_nonnull(out);
    fputs(text, out);
    fclose(out);
    free(path);
}

/* Expands 'command' (split like a shell) in the fixture's root; returns ss_compdb_expand's
 * result, the arguments joined by '|' in 'joined' and the message in 'err'. */
static int expand(const char *command, char *joined, size_t size, char *err, size_t err_size)
{
    ss_args argv = {0}, out = {0};
    ck_assert_int_eq(ss_compdb_split(command, &argv), 0);
    err[0] = '\0';
    int rc = ss_compdb_expand(&argv, fixture_root, &out, err, err_size);
    joined[0] = '\0';
    size_t len = 0;
    for (size_t i = 0; i < out.count && len < size; i++)
        len += (size_t)snprintf(joined + len, size - len, "%s%s", i ? "|" : "", out.v[i]);
    ss_args_free(&argv);
    ss_args_free(&out);
    return rc;
}

static void setup_root(void)
{
    fixture_root_make("compdb");
}

START_TEST(test_response_files_expanded)
{
    char joined[2048], err[512];
    /* What CMake's Makefiles generator writes for nvcc (CMake 3.25, CUDA 13). */
    put_file("CMakeFiles/k.dir/includes_CUDA.rsp",
             "-I\"/p/src/inc\" -I\"/p/src/dir with space\"\n");
    ck_assert_int_eq(expand("/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DFOO=1 "
                            "--options-file CMakeFiles/k.dir/includes_CUDA.rsp  "
                            "--generate-code=arch=compute_80,code=[compute_80,sm_80] -std=c++17 "
                            "-x cu -c /p/src/k.cu -o CMakeFiles/k.dir/k.cu.o",
                            joined, sizeof joined, err, sizeof err),
                     0);
    ck_assert_str_eq(joined, "/usr/local/cuda/bin/nvcc|-forward-unknown-to-host-compiler|-DFOO=1|"
                             "-I/p/src/inc|-I/p/src/dir with space|"
                             "--generate-code=arch=compute_80,code=[compute_80,sm_80]|-std=c++17|"
                             "-x|cu|-c|/p/src/k.cu|-o|CMakeFiles/k.dir/k.cu.o");
    ck_assert_str_eq(err, "");
    /* And for gcc: @FILE. Nested files are taken from the entry's directory too; nvcc's
     * -optf takes a list. */
    put_file("CMakeFiles/k.dir/includes_CXX.rsp", "-I/a '-DQ=a b' @nested/more.rsp\n");
    put_file("nested/more.rsp", "-DMORE\n");
    put_file("one.rsp", "-DONE");
    put_file("two.rsp", "-DTWO");
    ck_assert_int_eq(expand("c++ @CMakeFiles/k.dir/includes_CXX.rsp -optf=one.rsp,two.rsp "
                            "-optf one.rsp --options-file=two.rsp @ -c k.cpp",
                            joined, sizeof joined, err, sizeof err),
                     0);
    ck_assert_str_eq(joined, "c++|-I/a|-DQ=a b|-DMORE|-DONE|-DTWO|-DONE|-DTWO|@|-c|k.cpp");
}
END_TEST

START_TEST(test_response_file_errors)
{
    char joined[2048], err[512], *expected;
    ck_assert_int_eq(expand("cc -DA @missing.rsp -DB", joined, sizeof joined, err, sizeof err), -1);
    ck_assert_str_eq(joined, "cc|-DA|-DB");
    expected = ss_xasprintf("cannot read response file '%s/missing.rsp': No such file or directory",
                            fixture_root);
    ck_assert_str_eq(err, expected);
    free(expected);

    char *fifo = ss_xasprintf("%s/fifo.rsp", fixture_root);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    free(fifo);
    ck_assert_int_eq(expand("nvcc --options-file fifo.rsp", joined, sizeof joined, err, sizeof err),
                     -1);
    expected = ss_xasprintf("cannot read response file '%s/fifo.rsp': not a regular file (a FIFO)",
                            fixture_root);
    ck_assert_str_eq(err, expected);
    free(expected);

    put_file("sub/x", "");
    ck_assert_int_eq(expand("cc @sub", joined, sizeof joined, err, sizeof err), -1);
    expected = ss_xasprintf("cannot read response file '%s/sub': not a regular file (a directory)",
                            fixture_root);
    ck_assert_str_eq(err, expected);
    free(expected);

    put_file("loop.rsp", "-DL @loop.rsp");
    ck_assert_int_eq(expand("cc @loop.rsp", joined, sizeof joined, err, sizeof err), -1);
    ck_assert_str_eq(joined, "cc|-DL|-DL|-DL|-DL|-DL|-DL|-DL|-DL");
    expected = ss_xasprintf("response files nest more than 8 deep at '%s/loop.rsp'", fixture_root);
    ck_assert_str_eq(err, expected);
    free(expected);

    put_file("quote.rsp", "-DA '-DB");
    ck_assert_int_eq(expand("cc @quote.rsp", joined, sizeof joined, err, sizeof err), -1);
    expected = ss_xasprintf("unterminated quote in response file '%s/quote.rsp'", fixture_root);
    ck_assert_str_eq(err, expected);
    free(expected);

    ck_assert_int_eq(expand("nvcc -c k.cu --options-file", joined, sizeof joined, err, sizeof err),
                     -1);
    ck_assert_str_eq(err, "'--options-file' names no file");

    /* One file over the size limit; files within it that add up to more than the budget. */
    size_t big = (size_t)SS_COMPDB_RESPONSE_MAX_BYTES;
    char *text = malloc(big + 2);
    ck_assert_ptr_nonnull(text);
    memset(text, ' ', big + 1);
    text[big + 1] = '\0';
    put_file("big.rsp", text);
    text[big] = '\0';
    put_file("full.rsp", text);
    free(text);
    ck_assert_int_eq(expand("cc @big.rsp", joined, sizeof joined, err, sizeof err), -1);
    expected =
        ss_xasprintf("cannot read response file '%s/big.rsp': larger than 1 MiB", fixture_root);
    ck_assert_str_eq(err, expected);
    free(expected);
    put_file("many.rsp", "@full.rsp @full.rsp @full.rsp @full.rsp @full.rsp @full.rsp @full.rsp "
                         "@full.rsp @full.rsp -DLAST");
    ck_assert_int_eq(expand("cc @many.rsp", joined, sizeof joined, err, sizeof err), -1);
    ck_assert_str_eq(joined, "cc|-DLAST");
    expected = ss_xasprintf("the response files of one command exceed 8388608 bytes in all (at "
                            "'%s/full.rsp')",
                            fixture_root);
    ck_assert_str_eq(err, expected);
    free(expected);
}
END_TEST

/* Appends 'times' copies of 'piece' to the string in 'buf' ('size' bytes). */
static void repeat(char *buf, size_t size, const char *piece, int times)
{
    for (int i = 0; i < times; i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, size - used, "%s", piece);
    }
}

/* Response files that name others many times: the files opened are counted across the whole
 * expansion, and nothing is opened after the first failure. */
START_TEST(test_response_file_fan_out)
{
    char joined[4096], err[512], *expected;
    /* Almost 1 MiB of "@self.rsp": before, 8 reads used up the byte budget, and then each of
     * the 104,857 words pending at every depth was read (1 MiB) and refused: 700 GB. */
    enum { SELF_WORDS = (int)(SS_COMPDB_RESPONSE_MAX_BYTES / 10) };
    char *words = malloc(SELF_WORDS * 10 + 1);
    ck_assert_ptr_nonnull(words);
    for (int i = 0; i < SELF_WORDS; i++)
        memcpy(words + i * 10, "@self.rsp ", 10);
    words[SELF_WORDS * 10] = '\0';
    put_file("self.rsp", words);
    free(words);
    ck_assert_int_eq(
        expand("cc -DA @self.rsp -DB @self.rsp", joined, sizeof joined, err, sizeof err), -1);
    ck_assert_str_eq(joined, "cc|-DA|-DB");
    expected = ss_xasprintf("response files nest more than 8 deep at '%s/self.rsp'", fixture_root);
    ck_assert_str_eq(err, expected);
    free(expected);

    /* 1 + 16 + 16 * 16 = 273 files named, each within every other bound: the 257th is
     * refused (the 16th of the middle ones), and the 15 before it were expanded. */
    char middle[16 * 10 + 1] = "", top[16 * 12 + 1] = "";
    repeat(middle, sizeof middle, "@leaf.rsp ", 16);
    repeat(top, sizeof top, "@middle.rsp ", 16);
    put_file("top.rsp", top);
    put_file("middle.rsp", middle);
    put_file("leaf.rsp", "-DL");
    ck_assert_int_eq(expand("cc @top.rsp -DEND @leaf.rsp", joined, sizeof joined, err, sizeof err),
                     -1);
    expected = ss_xasprintf("the command names more than 256 response files in all (at "
                            "'%s/middle.rsp')",
                            fixture_root);
    ck_assert_str_eq(err, expected);
    free(expected);
    /* cc, 15 * 16 leaves, -DEND; the last @leaf.rsp is not opened. */
    char want[4096] = "cc";
    repeat(want, sizeof want, "|-DL", 15 * 16);
    repeat(want, sizeof want, "|-DEND", 1);
    ck_assert_str_eq(joined, want);
}
END_TEST

static Suite *compdb_suite(void)
{
    Suite *s = suite_create("compdb");
    TCase *words = tcase_create("words");
    tcase_add_test(words, test_split_shell_words);
    suite_add_tcase(s, words);
    TCase *forms = tcase_create("forms");
    tcase_add_test(forms, test_command_and_arguments_forms);
    tcase_add_test(forms, test_load_from_build_dir);
    tcase_add_test(forms, test_launchers_dropped);
    suite_add_tcase(s, forms);
    TCase *bad = tcase_create("bad_input");
    tcase_add_test(bad, test_malformed_inputs);
    suite_add_tcase(s, bad);
    TCase *response = tcase_create("response_files");
    tcase_add_checked_fixture(response, setup_root, remove_root);
    tcase_add_test(response, test_response_files_expanded);
    tcase_add_test(response, test_response_file_errors);
    tcase_add_test(response, test_response_file_fan_out);
    suite_add_tcase(s, response);
    return s;
}

SS_CHECK_MAIN(compdb_suite)
