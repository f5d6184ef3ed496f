/* check_escape.c: control characters, bytes that are not UTF-8 and bidirectional controls in
 * names, messages and source lines reach the text and GitHub outputs escaped, exactly as
 * docs/output-formats.md says. */
#include "check_main.h"
#include "log.h"
#include "report.h"
#include "report_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Runs 'write' on 'r' into memory; returns the bytes (free them). */
static char *text_of(const ss_result *r, int github)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    ck_assert_ptr_nonnull(out);
    /* Every frame and figure, so that each of them is seen escaped. */
    ss_text_options options = {.show_source = 1, .frames = SS_TEXT_ALL_FRAMES, .evidence = 1};
    if (github)
        ck_assert_int_eq(ss_report_write_github(out, r), 0);
    else
        ck_assert_int_eq(ss_report_write_text(out, r, &options), 0);
    ck_assert_int_eq(fclose(out), 0);
    return text;
}

/* Checks that the character at the start of the first 'avail' bytes of 'in' spans 'span'
 * bytes and is written as 'want' ("" for as it is). */
static void check_char(const char *in, size_t avail, size_t span, const char *want)
{
    char escape[SS_TEXT_ESCAPE_SIZE];
    memset(escape, 'x', sizeof escape);
    size_t n = ss_text_char(in, avail, escape);
    ck_assert_msg(n == span, "0x%02x: spans %zu bytes, expected %zu", (unsigned char)in[0], n,
                  span);
    ck_assert_str_eq(escape, want);
}

START_TEST(test_char_classes)
{
    /* Printable ASCII and tab as they are. */
    check_char("a", 1, 1, "");
    check_char(" ", 1, 1, "");
    check_char("~", 1, 1, "");
    check_char("\t", 1, 1, "");
    /* C0 and DEL in caret notation. */
    check_char("\x1b", 1, 1, "^[");
    check_char("\n", 1, 1, "^J");
    check_char("\r", 1, 1, "^M");
    check_char("\x01", 1, 1, "^A");
    check_char("\x07", 1, 1, "^G");
    check_char("\x1f", 1, 1, "^_");
    check_char("\x7f", 1, 1, "^?");
    /* C1 (U+0080..U+009F, as UTF-8) and the bidirectional controls as <U+XXXX>. */
    check_char("\xc2\x80", 2, 2, "<U+0080>");
    check_char("\xc2\x9b", 2, 2, "<U+009B>");
    check_char("\xc2\x9f", 2, 2, "<U+009F>");
    check_char("\xd8\x9c", 2, 2, "<U+061C>");
    check_char("\xe2\x80\x8e", 3, 3, "<U+200E>");
    check_char("\xe2\x80\x8f", 3, 3, "<U+200F>");
    check_char("\xe2\x80\xaa", 3, 3, "<U+202A>");
    check_char("\xe2\x80\xad", 3, 3, "<U+202D>");
    check_char("\xe2\x80\xae", 3, 3, "<U+202E>");
    check_char("\xe2\x81\xa6", 3, 3, "<U+2066>");
    check_char("\xe2\x81\xa9", 3, 3, "<U+2069>");
    /* Other UTF-8 as it is: U+00A0, e acute, the euro sign, an Arabic letter, a narrow
     * no-break space, an emoji. */
    check_char("\xc2\xa0", 2, 2, "");
    check_char("\xc3\xa9", 2, 2, "");
    check_char("\xe2\x82\xac", 3, 3, "");
    check_char("\xd8\xa8", 2, 2, "");
    check_char("\xe2\x80\xaf", 3, 3, "");
    check_char("\xf0\x9f\x98\x80", 4, 4, "");
    /* Bytes that are not UTF-8, one at a time in hex: a lone C1 byte, a lone lead byte,
     * a stray continuation byte, an overlong '/', a surrogate, past U+10FFFF, a sequence cut
     * by the end of the text. */
    check_char("\x9b", 1, 1, "<9B>");
    check_char("\xff", 1, 1, "<FF>");
    check_char("\xc3 ", 2, 1, "<C3>");
    check_char("\x80", 1, 1, "<80>");
    check_char("\xc0\xaf", 2, 1, "<C0>");
    check_char("\xe0\x80\xaf", 3, 1, "<E0>");
    check_char("\xed\xa0\x80", 3, 1, "<ED>");
    check_char("\xf4\x90\x80\x80", 4, 1, "<F4>");
    check_char("\xe2\x82\xac", 2, 1, "<E2>");
}
END_TEST

START_TEST(test_put_text)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    ck_assert_ptr_nonnull(out);
    const char in[] = "ok \x1b[2J\xc3\xa9\xff\0tail";
    ss_put_text(out, in, sizeof in - 1);
    ck_assert_int_eq(fclose(out), 0);
    /* The NUL inside the given length is a control character too. */
    ck_assert_uint_eq(size, strlen("ok ^[[2J\xc3\xa9<FF>^@tail"));
    ck_assert_mem_eq(text, "ok ^[[2J\xc3\xa9<FF>^@tail", size);
    free(text);
}
END_TEST

START_TEST(test_text_writer)
{
    ss_result r;
    ss_result_init(&r, SS_RESULT_LINT);
    ss_result_add_diag(&r, SS_SEV_WARNING,
                       "in\x1b"
                       "c.h",
                       2, 0, "bad\x07 bell");
    ss_result_add_diag(&r, SS_SEV_NOTE, NULL, 0, 0, "no\nfile");

    ss_finding *f = ss_result_add(&r);
    f->rule = SS_RULE_DEFAULT_STREAM_LAUNCH;
    f->severity = SS_SEV_WARNING;
    f->origin = SS_ORIGIN_STATIC;
    f->file = ss_xstrdup("src/\x1b[31mred.cu");
    f->line = 3;
    f->column = 13; /* the 'k' */
    f->message = ss_xstrdup("launch of 'k\x1b]0;pwn\x07'\nsrc/x.cu:1:1: error: forged");
    f->hint = ss_xstrdup("use \xe2\x80\xae"
                         "evil");
    f->line_text = ss_xstrdup("\tx\x1b[2J\xc2\x9b\xff = k();");

    f = ss_result_add(&r);
    f->rule = SS_RULE_PAGEABLE_ASYNC_COPY;
    f->severity = SS_SEV_WARNING;
    f->origin = SS_ORIGIN_RUNTIME;
    f->file = ss_xstrdup("m.cu");
    f->message = ss_xstrdup("copy\x7f");
    f->evidence.count = 1;
    f->evidence.total_ns = 1000000;
    f->evidence.max_ns = 1000000;
    f->evidence.bytes = 4;
    f->evidence.api = ss_xstrdup("cudaMemcpyAsync\x1b[8m");
    f->evidence.direction = ss_xstrdup("Dt\x9boH");
    f->evidence.host_kind = ss_xstrdup("page\xc2\x9d"
                                       "able");
    f->evidence.waited_for = ss_xstrdup("stream\r7");
    f->evidence.stream = ss_xstrdup("s\xe2\x81\xa7");
    f->evidence.device = -1;
    ss_finding_add_extra(f, "k\x1b", "v\n");
    f->frame_count = 2;
    f->frames = calloc(2, sizeof *f->frames);
    ck_assert_ptr_nonnull(f->frames);
    f->frames[0].function = ss_xstrdup("f\x1b");
    f->frames[0].file = ss_xstrdup("a\x1b.cu");
    f->frames[0].line = 5;
    f->frames[1].pc = 0x10;
    f->frames[1].module = ss_xstrdup("lib\x1b.so");

    char *text = text_of(&r, 0);
    const char *expected =
        "in^[c.h:2: warning: bad^G bell\n"
        "syncscope: note: no^Jfile\n"
        "src/^[[31mred.cu:3:13: warning: launch of 'k^[]0;pwn^G'^Jsrc/x.cu:1:1: error: forged "
        "[SYNC101 default-stream-launch]\n"
        "\tx^[[2J<U+009B><FF> = k();\n"
        /* x, ^[, [2J, <U+009B>, <FF>, " = ": 1 + 2 + 3 + 8 + 4 + 3 cells before the 'k'. */
        "\t                     ^\n"
        "src/^[[31mred.cu:3:13: note: use <U+202E>evil\n"
        "m.cu: warning: copy^? [SYNC201 pageable-async-copy]\n"
        "  observed: 1 time in cudaMemcpyAsync^[[8m, blocked 1.00 ms in total, 1.00 ms at "
        "most, 4 bytes Dt<9B>oH, page<U+009D>able host memory\n"
        "  waited for: stream^M7\n"
        "  stream: s<U+2067>\n"
        "  k^[: v^J\n"
        "  at f^[ (a^[.cu:5)\n"
        "  at 0x10 (lib^[.so)\n"
        "2 warnings generated.\n";
    ck_assert_str_eq(text, expected);
    /* No control byte but tab and the line ends, no byte that is not UTF-8. */
    for (const char *p = text; *p; p++)
        ck_assert(*p == '\t' || *p == '\n' || ((unsigned char)*p >= 0x20 && *p != 0x7f));
    free(text);
    ss_result_free(&r);
}
END_TEST

START_TEST(test_text_plain_utf8_unchanged)
{
    ss_result r;
    ss_result_init(&r, SS_RESULT_LINT);
    ss_finding *f = ss_result_add(&r);
    f->rule = SS_RULE_SCALAR_READBACK;
    f->severity = SS_SEV_WARNING;
    f->origin = SS_ORIGIN_STATIC;
    f->file = ss_xstrdup("caf\xc3\xa9/\xe2\x82\xac.cu");
    f->line = 1;
    f->column = 6;
    f->message = ss_xstrdup("\xd8\xa8 \xf0\x9f\x98\x80 read back");
    f->line_text = ss_xstrdup("\xc3\xa9\xc3\xa9 x = v[0];");
    char *text = text_of(&r, 0);
    /* Each two-byte character takes one cell of the caret line. */
    ck_assert_str_eq(text, "caf\xc3\xa9/\xe2\x82\xac.cu:1:6: warning: \xd8\xa8 \xf0\x9f\x98\x80 "
                           "read back [SYNC301 scalar-readback]\n"
                           "\xc3\xa9\xc3\xa9 x = v[0];\n"
                           "   ^\n"
                           "1 warning generated.\n");
    free(text);
    ss_result_free(&r);
}
END_TEST

START_TEST(test_github)
{
    ss_result r;
    ss_result_init(&r, SS_RESULT_LINT);
    r.root = ss_xstrdup("/repo");
    ss_result_add_diag(&r, SS_SEV_NOTE, NULL, 0, 0, "d\x07");
    ss_finding *f = ss_result_add(&r);
    f->rule = SS_RULE_DEFAULT_STREAM_LAUNCH;
    f->severity = SS_SEV_WARNING;
    f->origin = SS_ORIGIN_STATIC;
    f->file = ss_xstrdup("/repo/a\x1b,:\xc2\x9b.cu");
    f->line = 1;
    f->column = 2;
    f->message = ss_xstrdup("m\x1b[1m\r\n\xc2\x9b\xff%::x");
    f->hint = ss_xstrdup("h\xe2\x80\xae\x7f");
    char *text = text_of(&r, 1);
    ck_assert_str_eq(text, "::notice title=syncscope::d^G\n"
                           "::warning file=a^[%2C%3A<U+009B>.cu,line=1,col=2,title=SYNC101 "
                           "default-stream-launch::m^[[1m%0D%0A<U+009B><FF>%25::x%0Ah<U+202E>^?\n");
    free(text);
    ss_result_free(&r);
}
END_TEST

START_TEST(test_log_line)
{
    /* The tool's messages (e.g. the run's summary at exit, which names kernels) go through
     * ss_log_*: captured here from file descriptor 2. */
    FILE *tmp = tmpfile();
    ck_assert_ptr_nonnull(tmp);
    fflush(stderr);
    int saved = dup(2);
    ck_assert_int_ge(saved, 0);
    ck_assert_int_eq(dup2(fileno(tmp), 2), 2);
    ss_log_note("  SYNC301 %s  %s", "k\x1b[2J\n", "a\xc2\x9b\xff.cu:3");
    ss_log_warning("tab\tand \xc3\xa9 stay");
    fflush(stderr);
    ck_assert_int_eq(dup2(saved, 2), 2);
    close(saved);
    char got[256];
    rewind(tmp);
    size_t n = fread(got, 1, sizeof got - 1, tmp);
    got[n] = '\0';
    fclose(tmp);
    ck_assert_str_eq(got, "syncscope:   SYNC301 k^[[2J^J  a<U+009B><FF>.cu:3\n"
                          "syncscope: warning: tab\tand \xc3\xa9 stay\n");
}
END_TEST

START_TEST(test_log_long_line)
{
    /* A message longer than 2,048 bytes (--verbose's line of a long compile command's
     * arguments) is written whole, its escapes too: it was cut at 2,047 bytes. */
    char big[6001];
    memset(big, 'a', 5000);
    memcpy(big + 5000, "\x1b-END", 6);
    big[5006] = '\0';
    FILE *tmp = tmpfile();
    ck_assert_ptr_nonnull(tmp);
    fflush(stderr);
    int saved = dup(2);
    ck_assert_int_ge(saved, 0);
    ck_assert_int_eq(dup2(fileno(tmp), 2), 2);
    ss_log_note("args: %s", big);
    fflush(stderr);
    ck_assert_int_eq(dup2(saved, 2), 2);
    close(saved);
    static char got[8192];
    rewind(tmp);
    size_t n = fread(got, 1, sizeof got - 1, tmp);
    got[n] = '\0';
    fclose(tmp);
    ck_assert_uint_eq(n, strlen("syncscope: args: ") + 5000 + strlen("^[-END") + 1);
    ck_assert_int_eq(strncmp(got, "syncscope: args: aaa", 20), 0);
    ck_assert_str_eq(got + n - 8, "a^[-END\n");
}
END_TEST

/* Bytes that are not UTF-8, one U+FFFD each, and valid characters as they are. */
static const char bad_utf8[] = "a\xff"
                               "b \xe2\x82 c \xc0\xaf d \xed\xa0\x80 e \xf4\x90\x80\x80 ok "
                               "\xc3\xa9 \xf0\x9f\x98\x80";
#define FFFD "\xef\xbf\xbd"
static const char repaired_utf8[] = "a" FFFD "b " FFFD FFFD " c " FFFD FFFD " d " FFFD FFFD FFFD
                                    " e " FFFD FFFD FFFD FFFD " ok \xc3\xa9 \xf0\x9f\x98\x80";

/* Whether all 'len' bytes of 'text' are valid UTF-8. */
static int all_utf8(const char *text, size_t len)
{
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = (unsigned char)text[i] < 0x80 ? 1 : ss_utf8_decode(text + i, len - i, &cp);
        if (n == 0)
            return 0;
        i += n;
    }
    return 1;
}

/* Writes 'r' as JSON (0) or SARIF (1) into memory; returns the bytes (free them). */
static char *json_of(const ss_result *r, int sarif)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    ck_assert_ptr_nonnull(out);
    ck_assert_int_eq(sarif ? ss_report_write_sarif(out, r) : ss_report_write_json(out, r), 0);
    ck_assert_int_eq(fclose(out), 0);
    return text;
}

START_TEST(test_json_invalid_utf8)
{
    ss_result r;
    ss_result_init(&r, SS_RESULT_RUN);
    ss_finding *f = ss_result_add(&r);
    f->rule = SS_RULE_SCALAR_READBACK;
    f->severity = SS_SEV_WARNING;
    f->origin = SS_ORIGIN_RUNTIME;
    f->file = ss_xstrdup("app.cu");
    f->line = 3;
    f->column = 1;
    f->message = ss_xstrdup(bad_utf8);
    f->function = ss_xstrdup("f\x80");
    ss_finding_add_extra(f, "k\xfe", "v");
    char *json = json_of(&r, 0);
    ck_assert(all_utf8(json, strlen(json)));
    char *want = ss_xasprintf("\"message\":\t\"%s\",\n", repaired_utf8);
    ck_assert_msg(strstr(json, want) != NULL, "no %s in %s", want, json);
    free(want);
    ck_assert_ptr_nonnull(strstr(json, "\"function\":\t\"f" FFFD "\",\n"));
    ck_assert_ptr_nonnull(strstr(json, "\"k" FFFD "\":\t\"v\""));
    /* Read back: the repaired text. */
    char path[] = "/tmp/check_escape_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, json, strlen(json)), (ssize_t)strlen(json));
    close(fd);
    ss_result back;
    char err[256];
    ck_assert_int_eq(ss_report_read_json(path, &back, err, sizeof err), 0);
    unlink(path);
    ck_assert_str_eq(back.findings[0].message, repaired_utf8);
    ss_result_free(&back);
    free(json);

    char *sarif = json_of(&r, 1);
    ck_assert(all_utf8(sarif, strlen(sarif)));
    want = ss_xasprintf("\"text\":\t\"%s", repaired_utf8);
    ck_assert_msg(strstr(sarif, want) != NULL, "no %s in the SARIF log", want);
    free(want);
    free(sarif);
    ss_result_free(&r);
}
END_TEST

static Suite *escape_suite(void)
{
    Suite *s = suite_create("escape");
    TCase *chars = tcase_create("chars");
    tcase_add_test(chars, test_char_classes);
    tcase_add_test(chars, test_put_text);
    suite_add_tcase(s, chars);
    TCase *text = tcase_create("text");
    tcase_add_test(text, test_text_writer);
    tcase_add_test(text, test_text_plain_utf8_unchanged);
    tcase_add_test(text, test_log_line);
    tcase_add_test(text, test_log_long_line);
    suite_add_tcase(s, text);
    TCase *json = tcase_create("json");
    tcase_add_test(json, test_json_invalid_utf8);
    suite_add_tcase(s, json);
    TCase *github = tcase_create("github");
    tcase_add_test(github, test_github);
    suite_add_tcase(s, github);
    return s;
}

SS_CHECK_MAIN(escape_suite)
