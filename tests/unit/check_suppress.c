/* check_suppress.c: suppression comments: every form, literals not honoured, diagnostics. */
#include "check_main.h"
#include "log.h"
#include "policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Scans 'text' as the file "k.cu"; the caller frees 's' and 'diags'. Returns the problems. */
static int scan(const char *text, ss_suppressions *s, ss_result *diags)
{
    ss_result_init(diags, SS_RESULT_LINT);
    return ss_suppress_scan("k.cu", text, strlen(text), s, diags);
}

static void expect_diag(const ss_result *diags, size_t i, unsigned line, unsigned column,
                        const char *message)
{
    ck_assert_uint_gt(diags->diag_count, i);
    const ss_diag *d = &diags->diags[i];
    ck_assert_int_eq(d->severity, SS_SEV_WARNING);
    ck_assert_str_eq(d->file, "k.cu");
    ck_assert_uint_eq(d->line, line);
    ck_assert_uint_eq(d->column, column);
    ck_assert_str_eq(d->message, message);
}

START_TEST(test_same_line_and_line_before)
{
    const char *text = "void f(float *h, float *d, size_t n, cudaStream_t s)\n" /* 1 */
                       "{\n"                                                    /* 2 */
                       "    cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s); "
                       "// syncscope-ignore: SYNC201\n"                             /* 3 */
                       "    // syncscope-ignore: SYNC201\n"                         /* 4 */
                       "    cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s);\n" /* 5 */
                       "    cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s);\n" /* 6 */
                       "}\n";                                                       /* 7 */
    ss_suppressions s;
    ss_result diags;
    ck_assert_int_eq(scan(text, &s, &diags), 0);
    ck_assert_uint_eq(diags.diag_count, 0);
    ck_assert_uint_eq(s.count, 2);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_PAGEABLE_ASYNC_COPY, 2), 0);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_PAGEABLE_ASYNC_COPY, 3), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_PAGEABLE_ASYNC_COPY, 4), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_PAGEABLE_ASYNC_COPY, 5), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_PAGEABLE_ASYNC_COPY, 6), 0);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEFAULT_STREAM_LAUNCH, 3), 0);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEFAULT_STREAM_ASYNC_CALL, 5), 0);
    ss_suppress_free(&s);
    ss_result_free(&diags);
}
END_TEST

START_TEST(test_lists_names_and_ids)
{
    const char *text = "x();\n"
                       "// syncscope-ignore: SYNC101, pageable-async-copy,sync301 -- pinned\n"
                       "k<<<1, 1>>>();\n"
                       "y(); // NOLINT(syncscope-Sync-In-Loop, syncscope-DEVICE-WIDE-SYNC-CALL)\n";
    ss_suppressions s;
    ss_result diags;
    ck_assert_int_eq(scan(text, &s, &diags), 0);
    ck_assert_uint_eq(diags.diag_count, 0);
    for (unsigned line = 2; line <= 3; line++) {
        ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEFAULT_STREAM_LAUNCH, line), 1);
        ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_PAGEABLE_ASYNC_COPY, line), 1);
        ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SCALAR_READBACK, line), 1);
        ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEFAULT_STREAM_ASYNC_CALL, line), 0);
    }
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEFAULT_STREAM_LAUNCH, 1), 0);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEFAULT_STREAM_LAUNCH, 4), 0);
    /* Names in any case, as IDs. */
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SYNC_IN_LOOP, 4), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEVICE_WIDE_SYNC_CALL, 4), 1);
    ss_suppress_free(&s);
    ss_result_free(&diags);
}
END_TEST

START_TEST(test_literals_not_honoured)
{
    const char *text =
        "const char *a = \"// syncscope-ignore: SYNC201\";\n"                    /* 1 */
        "const char *b = \"q\\\"// syncscope-ignore: SYNC202\";\n"               /* 2 */
        "const char *c = R\"x(\" // syncscope-ignore: SYNC301 )\" )x\"; y();\n"  /* 3 */
        "const char *d = u8R\"(/* syncscope-ignore-file: SYNC101 */)\";\n"       /* 4 */
        "char e = '\"'; // syncscope-ignore: SYNC401\n"                          /* 5 */
        "int f = 1'000'000; // syncscope-ignore: SYNC402\n"                      /* 6 */
        "char g = u8'\\''; /* syncscope-ignore: SYNC501 */\n"                    /* 7 */
        "#define S \"/* not a comment\"\n"                                       /* 8 */
        "// syncscope-ignore: SYNC103\n"                                         /* 9 */
        "const char *h = R\"(a)\" \"// syncscope-ignore: SYNC102\";\n"           /* 10 */
        "int R = 0; const char *i = \"R\\\"(\"; // syncscope-ignore: SYNC202\n"; /* 11 */
    ss_suppressions s;
    ss_result diags;
    ck_assert_int_eq(scan(text, &s, &diags), 0);
    ck_assert_uint_eq(diags.diag_count, 0);
    /* Inside literals: nothing. */
    for (unsigned line = 1; line <= 12; line++) {
        ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_PAGEABLE_ASYNC_COPY, line), 0);
        ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SCALAR_READBACK, line), 0);
        ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEFAULT_STREAM_LAUNCH, line), 0);
        ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEFAULT_STREAM_ASYNC_CALL, line), 0);
    }
    /* Real comments after character literals, digit separators and '#define' strings. */
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SYNC_IN_LOOP, 5), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEVICE_WIDE_SYNC_CALL, 6), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_CAPTURE_UNSAFE_CALL, 7), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_BLOCKING_STREAM_CREATE, 10), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SYNC_COPY_IN_PIPELINE, 11), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SYNC_COPY_IN_PIPELINE, 2), 0);
    ck_assert_uint_eq(s.count, 5);
    ss_suppress_free(&s);
    ss_result_free(&diags);
}
END_TEST

START_TEST(test_block_comments_and_continuations)
{
    const char *text = "/* syncscope-ignore: SYNC301 */ x = v[0];\n"    /* 1 */
                       "y();\n"                                         /* 2 */
                       "y();\n"                                         /* 3 */
                       "/* syncscope-ignore: scalar-readback\n"         /* 4 */
                       "   the value is needed on the host anyway */\n" /* 5 */
                       "x = v.front();\n"                               /* 6 */
                       "y();\n"                                         /* 7 */
                       "// a note that goes on \\\n"                    /* 8 */
                       "   syncscope-ignore: SYNC401\n"                 /* 9 */
                       "cudaDeviceSynchronize();\n"                     /* 10 */
                       "cudaDeviceSynchronize();\r\n"                   /* 11 */
                       "// syncscope-ignore: SYNC402\r\n"               /* 12 */
                       "cudaFree(p);\r\n"                               /* 13 */
                       "cudaFree(p);\r\n";                              /* 14 */
    ss_suppressions s;
    ss_result diags;
    ck_assert_int_eq(scan(text, &s, &diags), 0);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SCALAR_READBACK, 1), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SCALAR_READBACK, 2), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SCALAR_READBACK, 3), 0);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SCALAR_READBACK, 4), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SCALAR_READBACK, 5), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SCALAR_READBACK, 6), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SCALAR_READBACK, 7), 0);
    /* The continued line comment: from the directive's line to the line after the comment. */
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SYNC_IN_LOOP, 8), 0);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SYNC_IN_LOOP, 9), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SYNC_IN_LOOP, 10), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SYNC_IN_LOOP, 11), 0);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEVICE_WIDE_SYNC_CALL, 11), 0);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEVICE_WIDE_SYNC_CALL, 12), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEVICE_WIDE_SYNC_CALL, 13), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEVICE_WIDE_SYNC_CALL, 14), 0);
    ss_suppress_free(&s);
    ss_result_free(&diags);
}
END_TEST

START_TEST(test_file_level)
{
    const char *text = "a();\n"
                       "b();\n"
                       "/* syncscope-ignore-file: SYNC103, launch-bound */\n";
    ss_suppressions s;
    ss_result diags;
    ck_assert_int_eq(scan(text, &s, &diags), 0);
    ck_assert_uint_eq(s.count, 0);
    ck_assert_int_eq(s.file_wide[SS_RULE_BLOCKING_STREAM_CREATE], 1);
    ck_assert_int_eq(s.file_wide[SS_RULE_LAUNCH_BOUND], 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_BLOCKING_STREAM_CREATE, 1), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_BLOCKING_STREAM_CREATE, 9999), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_LAUNCH_BOUND, 0), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEFAULT_STREAM_LAUNCH, 1), 0);
    ss_suppress_free(&s);
    ss_result_free(&diags);
}
END_TEST

START_TEST(test_nolint_forms)
{
    const char *text =
        "cudaMemcpyAsync(d, h, n, k, s); // NOLINT(syncscope-pageable-async-copy)\n" /* 1 */
        "// NOLINTNEXTLINE(syncscope-SYNC101)\n"                                     /* 2 */
        "k<<<1, 1>>>();\n"                                                           /* 3 */
        "k<<<1, 1>>>(); // NOLINT\n"                                                 /* 4 */
        "k<<<1, 1>>>(); // NOLINT(*)\n"                                              /* 5 */
        "x = v[0]; // NOLINT(bugprone-foo, syncscope-sync301 )\n"                    /* 6 */
        "// NOLINTNEXTLINE(syncscope-*)\n"                                           /* 7 */
        "k<<<1, 1>>>();\n"                                                           /* 8 */
        "// NOLINTBEGIN(syncscope-SYNC401)\n"                                        /* 9 */
        "for (;;) {\n"                                                               /* 10 */
        "  cudaDeviceSynchronize();\n"                                               /* 11 */
        "}\n"                                                                        /* 12 */
        "// NOLINTEND(syncscope-sync-in-loop)\n"                                     /* 13 */
        "cudaDeviceSynchronize();\n"                                                 /* 14 */
        "// NOLINTNEXTLINE\n"                                                        /* 15 */
        "k<<<1, 1>>>();\n";                                                          /* 16 */
    ss_suppressions s;
    ss_result diags;
    ck_assert_int_eq(scan(text, &s, &diags), 0);
    ck_assert_uint_eq(diags.diag_count, 0);
    /* NOLINT: its own line only. */
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_PAGEABLE_ASYNC_COPY, 1), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_PAGEABLE_ASYNC_COPY, 2), 0);
    /* NOLINTNEXTLINE: the next line only. */
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEFAULT_STREAM_LAUNCH, 2), 0);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEFAULT_STREAM_LAUNCH, 3), 1);
    /* Without a syncscope- entry, NOLINT is for other tools. */
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEFAULT_STREAM_LAUNCH, 4), 0);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEFAULT_STREAM_LAUNCH, 5), 0);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEFAULT_STREAM_LAUNCH, 16), 0);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SCALAR_READBACK, 6), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SCALAR_READBACK, 7), 0);
    /* syncscope-* covers every rule. */
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEFAULT_STREAM_LAUNCH, 8), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SERIALIZED_PIPELINE, 8), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SERIALIZED_PIPELINE, 9), 0);
    /* BEGIN..END, inclusive, matched by rule whether ID or name. */
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SYNC_IN_LOOP, 7), 0);
    for (unsigned line = 9; line <= 13; line++)
        ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SYNC_IN_LOOP, line), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SYNC_IN_LOOP, 14), 0);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEVICE_WIDE_SYNC_CALL, 11), 0);
    ss_suppress_free(&s);
    ss_result_free(&diags);
}
END_TEST

START_TEST(test_unknown_rules_and_bad_forms)
{
    const char *text = "int a; // syncscope-ignore: SYNC999, SYNC201\n" /* 1 */
                       "// NOLINT(syncscope-pagable-async-copy)\n"      /* 2 */
                       "/* syncscope-ignore-file: nope */\n"            /* 3 */
                       "// syncscope-ignore SYNC201\n"                  /* 4 */
                       "// syncscope-ignore-line: SYNC201\n"            /* 5 */
                       "// NOLINTBEGIN(syncscope-SYNC101)\n"            /* 6 */
                       "// NOLINTEND(syncscope-SYNC102)\n"              /* 7 */
                       "// syncscope-ignore:\n"                         /* 8 */
                       "\t// syncscope-ignore: SYNC101,\n";             /* 9 */
    ss_suppressions s;
    ss_result diags;
    ck_assert_int_eq(scan(text, &s, &diags), 9);
    ck_assert_uint_eq(diags.diag_count, 9);
    expect_diag(&diags, 0, 1, 29,
                "unknown rule 'SYNC999' in syncscope-ignore comment (syncscope rules lists them)");
    expect_diag(&diags, 1, 2, 11,
                "unknown rule 'pagable-async-copy' in NOLINT comment (did you mean "
                "'pageable-async-copy'?)");
    expect_diag(&diags, 2, 3, 27,
                "unknown rule 'nope' in syncscope-ignore-file comment (syncscope rules lists "
                "them)");
    expect_diag(&diags, 3, 4, 4, "'syncscope-ignore' needs ':' and a list of rules (IDs or names)");
    expect_diag(&diags, 4, 5, 4,
                "unknown suppression 'syncscope-ignore-line' (expected syncscope-ignore or "
                "syncscope-ignore-file)");
    expect_diag(&diags, 5, 7, 14, "NOLINTEND(syncscope-SYNC102) without a matching NOLINTBEGIN");
    expect_diag(&diags, 6, 8, 4, "'syncscope-ignore' needs a rule ID or name after ':'");
    expect_diag(&diags, 7, 9, 5, "'syncscope-ignore' needs a rule ID or name after ','");
    expect_diag(&diags, 8, 6, 16,
                "NOLINTBEGIN(syncscope-SYNC101) without a matching NOLINTEND: it suppresses "
                "nothing");
    /* The valid names next to the unknown ones still count; the broken forms do nothing. */
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_PAGEABLE_ASYNC_COPY, 1), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_PAGEABLE_ASYNC_COPY, 5), 0);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEFAULT_STREAM_LAUNCH, 7), 0);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEFAULT_STREAM_LAUNCH, 9), 1);
    ss_suppress_free(&s);
    ss_result_free(&diags);

    /* Without a diagnostics list the problems are still counted. */
    ck_assert_int_eq(ss_suppress_scan("k.cu", text, strlen(text), &s, NULL), 9);
    ss_suppress_free(&s);
}
END_TEST

/* Fifty nines: a word longer than any rule key. */
#define NINES_50 "99999999999999999999999999999999999999999999999999"

/* An unknown rule in a comment names the rule meant when one is near, in every form; a word
 * too long to be near anything is quoted whole. */
START_TEST(test_unknown_rules_suggested)
{
    const char *text = "k<<<1, 1>>>(); // syncscope-ignore: SYNC310\n"        /* 1 */
                       "// syncscope-ignore: sync-in-lop, SYNC201\n"          /* 2 */
                       "// NOLINTNEXTLINE(syncscope-SYNC1O1)\n"               /* 3 */
                       "/* syncscope-ignore-file: default-stream-lunch */\n"  /* 4 */
                       "// NOLINTBEGIN(syncscope-legacy-default-stream)\n"    /* 5 */
                       "// NOLINT(readability-x, syncscope-scalar-redback)\n" /* 6 */
                       "// syncscope-ignore: SYNC" NINES_50 NINES_50 "\n";    /* 7 */
    ss_suppressions s;
    ss_result diags;
    ck_assert_int_eq(scan(text, &s, &diags), 7);
    ck_assert_uint_eq(diags.diag_count, 7);
    expect_diag(&diags, 0, 1, 37,
                "unknown rule 'SYNC310' in syncscope-ignore comment (did you mean 'SYNC301'?)");
    expect_diag(&diags, 1, 2, 22,
                "unknown rule 'sync-in-lop' in syncscope-ignore comment (did you mean "
                "'sync-in-loop'?)");
    expect_diag(&diags, 2, 3, 19,
                "unknown rule 'SYNC1O1' in NOLINTNEXTLINE comment (did you mean 'SYNC101'?)");
    expect_diag(&diags, 3, 4, 27,
                "unknown rule 'default-stream-lunch' in syncscope-ignore-file comment (did you "
                "mean 'default-stream-launch'?)");
    expect_diag(&diags, 4, 5, 16,
                "unknown rule 'legacy-default-stream' in NOLINTBEGIN comment (syncscope rules "
                "lists them)");
    expect_diag(&diags, 5, 6, 26,
                "unknown rule 'scalar-redback' in NOLINT comment (did you mean "
                "'scalar-readback'?)");
    expect_diag(&diags, 6, 7, 22,
                "unknown rule 'SYNC" NINES_50 NINES_50
                "' in syncscope-ignore comment (syncscope rules lists them)");
    /* The known rule beside an unknown one still counts; the unknown ones suppress nothing. */
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_PAGEABLE_ASYNC_COPY, 2), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SCALAR_READBACK, 1), 0);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_SYNC_IN_LOOP, 2), 0);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEFAULT_STREAM_LAUNCH, 4), 0);
    ss_suppress_free(&s);
    ss_result_free(&diags);
}
END_TEST

/* A directive misspelled before its ':' is warned about with the one meant; other words that
 * start with "syncscope-" are not directives. */
START_TEST(test_misspelled_directives)
{
    const char *text = "k<<<1, 1>>>(); // syncscope-ingore: SYNC101\n"       /* 1 */
                       "/* syncscope-ignroe-file : SYNC201 */\n"             /* 2 */
                       "// Syncscope-Ignore: SYNC301\n"                      /* 3 */
                       "// syncscope-Ignore: SYNC301\n"                      /* 4 */
                       "// syncscope-ingore SYNC101 -- no ':'\n"             /* 5 */
                       "// see syncscope-docs: the manual; syncscope-x: y\n" /* 6 */
                       "// syncscope-ignored-by-design: SYNC101\n";          /* 7 */
    ss_suppressions s;
    ss_result diags;
    ck_assert_int_eq(scan(text, &s, &diags), 4);
    ck_assert_uint_eq(diags.diag_count, 4);
    expect_diag(&diags, 0, 1, 19,
                "unknown suppression 'syncscope-ingore' (did you mean 'syncscope-ignore'?)");
    expect_diag(&diags, 1, 2, 4,
                "unknown suppression 'syncscope-ignroe-file' (did you mean "
                "'syncscope-ignore-file'?)");
    expect_diag(&diags, 2, 4, 4,
                "unknown suppression 'syncscope-Ignore' (did you mean 'syncscope-ignore'?)");
    expect_diag(&diags, 3, 7, 4,
                "unknown suppression 'syncscope-ignored-by-design' (expected syncscope-ignore or "
                "syncscope-ignore-file)");
    ck_assert_uint_eq(s.count, 0);
    for (int r = 0; r < SS_RULE_COUNT; r++)
        ck_assert_int_eq(s.file_wide[r], 0);
    ss_suppress_free(&s);
    ss_result_free(&diags);
}
END_TEST

START_TEST(test_apply_and_scan_file)
{
    char dir[] = "/tmp/ss-suppress-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/k.cu", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("a();\n// syncscope-ignore: SYNC201\nb();\nc();\n", f);
    ck_assert_int_eq(fclose(f), 0);

    ss_suppressions s;
    char err[256] = "";
    int rc = ss_suppress_scan_file(path, &s, NULL, err, sizeof err);
    unlink(path);
    rmdir(dir);
    ck_assert_int_eq(rc, 0);

    ss_result r;
    ss_result_init(&r, SS_RESULT_LINT);
    const unsigned lines[] = {1, 3, 4, 3};
    const ss_rule_id rules[] = {SS_RULE_PAGEABLE_ASYNC_COPY, SS_RULE_PAGEABLE_ASYNC_COPY,
                                SS_RULE_PAGEABLE_ASYNC_COPY, SS_RULE_DEFAULT_STREAM_LAUNCH};
    for (size_t i = 0; i < 4; i++) {
        ss_finding *x = ss_result_add(&r);
        x->rule = rules[i];
        x->file = ss_xstrdup(path);
        x->line = lines[i];
    }
    ss_finding *other = ss_result_add(&r);
    other->rule = SS_RULE_PAGEABLE_ASYNC_COPY;
    other->file = ss_xstrdup("other.cu");
    other->line = 3;
    ck_assert_uint_eq(ss_suppress_apply(&s, path, &r), 1);
    ck_assert_uint_eq(r.count, 4);
    ck_assert_uint_eq(r.findings[0].line, 1);
    ck_assert_uint_eq(r.findings[1].line, 4);
    ck_assert_int_eq(r.findings[2].rule, SS_RULE_DEFAULT_STREAM_LAUNCH);
    ck_assert_str_eq(r.findings[3].file, "other.cu");
    ss_result_free(&r);
    ss_suppress_free(&s);

    char expected[200];
    snprintf(expected, sizeof expected, "%s: No such file or directory", path);
    ck_assert_int_eq(ss_suppress_scan_file(path, &s, NULL, err, sizeof err), -1);
    ck_assert_str_eq(err, expected);
    ck_assert_uint_eq(s.count, 0);
}
END_TEST

START_TEST(test_unterminated_constructs)
{
    /* Unterminated literals end at the line's end; an unterminated comment at the file's. */
    const char *text = "char c = 'x;\n"
                       "// syncscope-ignore: SYNC101\n"
                       "const char *s = \"abc\n"
                       "// syncscope-ignore: SYNC102\n"
                       "const char *r = R\"(never closed\n"
                       "// syncscope-ignore: SYNC103\n";
    ss_suppressions s;
    ss_result diags;
    ck_assert_int_eq(scan(text, &s, &diags), 0);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEFAULT_STREAM_LAUNCH, 3), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_DEFAULT_STREAM_ASYNC_CALL, 5), 1);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_BLOCKING_STREAM_CREATE, 7), 0);
    ss_suppress_free(&s);
    ss_result_free(&diags);
    text = "/* syncscope-ignore: SYNC201";
    ck_assert_int_eq(scan(text, &s, &diags), 0);
    ck_assert_int_eq(ss_suppress_matches(&s, SS_RULE_PAGEABLE_ASYNC_COPY, 2), 1);
    ss_suppress_free(&s);
    ss_result_free(&diags);
    ck_assert_int_eq(ss_suppress_scan("k.cu", "", 0, &s, NULL), 0);
    ck_assert_uint_eq(s.count, 0);
    ss_suppress_free(&s);
}
END_TEST

static Suite *suppress_suite(void)
{
    Suite *s = suite_create("suppress");
    TCase *forms = tcase_create("forms");
    tcase_add_test(forms, test_same_line_and_line_before);
    tcase_add_test(forms, test_lists_names_and_ids);
    tcase_add_test(forms, test_file_level);
    tcase_add_test(forms, test_nolint_forms);
    suite_add_tcase(s, forms);
    TCase *lexing = tcase_create("lexing");
    tcase_add_test(lexing, test_literals_not_honoured);
    tcase_add_test(lexing, test_block_comments_and_continuations);
    tcase_add_test(lexing, test_unterminated_constructs);
    suite_add_tcase(s, lexing);
    TCase *problems = tcase_create("problems");
    tcase_add_test(problems, test_unknown_rules_and_bad_forms);
    tcase_add_test(problems, test_unknown_rules_suggested);
    tcase_add_test(problems, test_misspelled_directives);
    suite_add_tcase(s, problems);
    TCase *use = tcase_create("use");
    tcase_add_test(use, test_apply_and_scan_file);
    suite_add_tcase(s, use);
    return s;
}

SS_CHECK_MAIN(suppress_suite)
