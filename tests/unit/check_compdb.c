/* check_compdb.c: the compile_commands.json reader: both forms, shell splitting, errors. */
#include "check_main.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    char *expected = ss_asprintf("cannot read '%s/compile_commands.json': No such file or "
                                 "directory",
                                 dir);
    ck_assert_str_eq(err, expected);
    free(expected);
    char *path = ss_asprintf("%s/compile_commands.json", dir);
    FILE *out = fopen(path, "w");
    ck_assert_ptr_nonnull(out);
    fprintf(out,
            "[{\"directory\": \"%s\", \"arguments\": [\"nvcc\", \"-c\", \"k.cu\"], "
            "\"file\": \"k.cu\"}]",
            dir);
    fclose(out);
    ck_assert_int_eq(ss_compdb_load(dir, &db, err, sizeof err), 0);
    ck_assert_uint_eq(db.count, 1);
    char *file = ss_asprintf("%s/k.cu", dir);
    ck_assert_str_eq(db.commands[0].file, file);
    ss_compdb_free(&db);
    free(file);
    unlink(path);
    free(path);
    rmdir(dir);
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
    suite_add_tcase(s, forms);
    TCase *bad = tcase_create("bad_input");
    tcase_add_test(bad, test_malformed_inputs);
    suite_add_tcase(s, bad);
    return s;
}

SS_CHECK_MAIN(compdb_suite)
