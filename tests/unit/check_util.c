/* check_util.c: util/: array growth, FNV-1a, UTF-8 decoding, the one duration format, the
 * did-you-mean distance and suggestions, SHA-256, the maps and "inside a folder". */
#include "check_main.h"
#include "log.h"
#include "map.h"
#include "path.h"
#include "sha256.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *duration(uint64_t ns)
{
    static char buf[SS_DURATION_SIZE];
    return ss_format_duration(ns, buf, sizeof buf);
}

START_TEST(test_duration_units)
{
    /* Under 100 us: microseconds, one decimal, rounded to nearest. */
    ck_assert_str_eq(duration(0), "0.0 us");
    ck_assert_str_eq(duration(49), "0.0 us");
    ck_assert_str_eq(duration(50), "0.1 us");
    ck_assert_str_eq(duration(19900), "19.9 us");
    ck_assert_str_eq(duration(99949), "99.9 us");
    /* What rounds to 100.0 us is printed as milliseconds, never as "100.0 us". */
    ck_assert_str_eq(duration(99950), "0.10 ms");
    ck_assert_str_eq(duration(300000), "0.30 ms");
    ck_assert_str_eq(duration(3614999), "3.61 ms");
    ck_assert_str_eq(duration(3615000), "3.62 ms");
    ck_assert_str_eq(duration(999994999), "999.99 ms");
    /* What rounds to 1000.00 ms is printed as seconds. */
    ck_assert_str_eq(duration(999995000), "1.00 s");
    ck_assert_str_eq(duration(3720000000u), "3.72 s");
    ck_assert_str_eq(duration(UINT64_C(86400000000000)), "86400.00 s");
}
END_TEST

START_TEST(test_duration_small_buffer)
{
    char buf[5];
    ck_assert_ptr_eq(ss_format_duration(123456789, buf, sizeof buf), buf);
    ck_assert_str_eq(buf, "123.");
}
END_TEST

START_TEST(test_grow)
{
    int *v = NULL;
    size_t cap = 0;
    ck_assert_int_eq(ss_grow((void **)&v, &cap, 1, sizeof *v), 0);
    ck_assert_uint_eq(cap, 16);
    v[15] = 7;
    ck_assert_int_eq(ss_grow((void **)&v, &cap, 16, sizeof *v), 0);
    ck_assert_uint_eq(cap, 16);
    ck_assert_int_eq(ss_grow((void **)&v, &cap, 17, sizeof *v), 0);
    ck_assert_uint_eq(cap, 32);
    ck_assert_int_eq(v[15], 7);
    ck_assert_int_eq(ss_grow((void **)&v, &cap, 100, sizeof *v), 0);
    ck_assert_uint_eq(cap, 128);
    /* A size that would overflow leaves the array as it was. */
    int *before = v;
    ck_assert_int_eq(ss_grow((void **)&v, &cap, SIZE_MAX / 2 + 2, sizeof *v), -1);
    ck_assert_ptr_eq(v, before);
    ck_assert_uint_eq(cap, 128);
    ck_assert_int_eq(ss_grow((void **)&v, &cap, SIZE_MAX / 4 + 1, sizeof *v), -1);
    ck_assert_uint_eq(cap, 128);
    free(v);
}
END_TEST

START_TEST(test_xpush)
{
    struct pair {
        int a, b;
    } *v = NULL;
    size_t cap = 0, count = 0;
    struct pair *first = ss_xpush((void **)&v, &cap, &count, sizeof *v);
    ck_assert_uint_eq(count, 1);
    ck_assert_uint_eq(cap, 16);
    ck_assert_ptr_eq(first, &v[0]);
    ck_assert_int_eq(first->a, 0);
    ck_assert_int_eq(first->b, 0);
    first->a = 5;
    for (int i = 1; i < 17; i++)
        ((struct pair *)ss_xpush((void **)&v, &cap, &count, sizeof *v))->b = i;
    ck_assert_uint_eq(count, 17);
    ck_assert_uint_eq(cap, 32);
    ck_assert_int_eq(v[0].a, 5);
    ck_assert_int_eq(v[16].a, 0);
    ck_assert_int_eq(v[16].b, 16);
    free(v);
}
END_TEST

START_TEST(test_fnv1a)
{
    /* The published FNV-1a 64 test vectors. */
    ck_assert_uint_eq(ss_fnv1a(SS_FNV1A_SEED, "", 0), UINT64_C(0xcbf29ce484222325));
    ck_assert_uint_eq(ss_fnv1a(SS_FNV1A_SEED, "a", 1), UINT64_C(0xaf63dc4c8601ec8c));
    ck_assert_uint_eq(ss_fnv1a(SS_FNV1A_SEED, "foobar", 6), UINT64_C(0x85944171f73967e8));
    /* Incremental use gives the same hash as one call. */
    ck_assert_uint_eq(ss_fnv1a(ss_fnv1a(SS_FNV1A_SEED, "foo", 3), "bar", 3),
                      UINT64_C(0x85944171f73967e8));
}
END_TEST

START_TEST(test_utf8_decode)
{
    uint32_t cp = 0;
    ck_assert_uint_eq(ss_utf8_decode("\xc3\xa9", 2, &cp), 2);
    ck_assert_uint_eq(cp, 0xe9);
    ck_assert_uint_eq(ss_utf8_decode("\xe2\x80\xae", 3, &cp), 3);
    ck_assert_uint_eq(cp, 0x202e);
    ck_assert_uint_eq(ss_utf8_decode("\xf0\x9f\x98\x80", 4, &cp), 4);
    ck_assert_uint_eq(cp, 0x1f600);
    cp = 1;
    ck_assert_uint_eq(ss_utf8_decode("a", 1, &cp), 0);                /* ASCII */
    ck_assert_uint_eq(ss_utf8_decode("\xc0\xaf", 2, &cp), 0);         /* overlong */
    ck_assert_uint_eq(ss_utf8_decode("\xe0\x80\xaf", 3, &cp), 0);     /* overlong */
    ck_assert_uint_eq(ss_utf8_decode("\xed\xa0\x80", 3, &cp), 0);     /* surrogate */
    ck_assert_uint_eq(ss_utf8_decode("\xf4\x90\x80\x80", 4, &cp), 0); /* past U+10FFFF */
    ck_assert_uint_eq(ss_utf8_decode("\xe2\x80\xae", 2, &cp), 0);     /* cut short */
    ck_assert_uint_eq(ss_utf8_decode("\xe2\x28\xae", 3, &cp), 0);     /* bad continuation */
    ck_assert_uint_eq(cp, 1);
}
END_TEST

/* What ss_json_write_string writes for 'text' and 'max', in a static buffer. */
static const char *json(const char *text, size_t max)
{
    static char *buf;
    size_t size;
    free(buf);
    FILE *out = open_memstream(&buf, &size);
    ck_assert_ptr_nonnull(out);
    ss_json_write_string(out, text, max);
    fclose(out);
    return buf;
}

/* What ss_markdown_put writes for the first 'len' bytes of 'text' read as 'source', in a
 * static buffer. */
static const char *markdown(const char *text, size_t len, ss_markdown_source source)
{
    static char *buf;
    size_t size;
    free(buf);
    FILE *out = open_memstream(&buf, &size);
    ck_assert_ptr_nonnull(out);
    ss_markdown_put(out, text, len, source);
    fclose(out);
    return buf;
}

START_TEST(test_markdown_put)
{
    static const char text[] = "a|b k<<<g>>> PREFIX* x_y [1] #2 `c` \\ 'q' \"r\" é";
    /* Markdown already, into a table cell: only the '|' that would end it. */
    ck_assert_str_eq(markdown(text, strlen(text), SS_MARKDOWN_CELL),
                     "a\\|b k<<<g>>> PREFIX* x_y [1] #2 `c` \\ 'q' \"r\" é");
    /* Plain text: every character Markdown would read, so that it renders as written. */
    ck_assert_str_eq(markdown(text, strlen(text), SS_MARKDOWN_PLAIN),
                     "a\\|b k\\<\\<\\<g\\>\\>\\> PREFIX\\* x\\_y \\[1\\] \\#2 \\`c\\` \\\\ 'q' "
                     "\"r\" é");
    /* 'len' bytes only. */
    ck_assert_str_eq(markdown("<a>|", 2, SS_MARKDOWN_PLAIN), "\\<a");
    ck_assert_str_eq(markdown("", 0, SS_MARKDOWN_PLAIN), "");
}
END_TEST

START_TEST(test_json_string)
{
    ck_assert_str_eq(json(NULL, SIZE_MAX), "null");
    ck_assert_str_eq(json("", SIZE_MAX), "\"\"");
    ck_assert_str_eq(json("k<T>(a && b) \"q\" \\", SIZE_MAX),
                     "\"k\\u003cT\\u003e(a \\u0026\\u0026 b) \\\"q\\\" \\\\\"");
    ck_assert_str_eq(json("a\nb\tc\rd\x01\x7f", SIZE_MAX), "\"a\\nb\\tc\\rd\\u0001\\u007f\"");
    /* UTF-8 kept, the two line separators JavaScript ends a line at escaped, invalid bytes
     * replaced. */
    ck_assert_str_eq(json("caf\xc3\xa9 \xe2\x80\xa8 \xff\xc3", SIZE_MAX),
                     "\"caf\xc3\xa9 \\u2028 \\ufffd\\ufffd\"");
    /* Cut before the character that would pass 'max' bytes, then an ellipsis. */
    ck_assert_str_eq(json("abcdef", 4), "\"abcd\\u2026\"");
    ck_assert_str_eq(json("ab\xc3\xa9", 3), "\"ab\\u2026\"");
    ck_assert_str_eq(json("ab\xc3\xa9", 4), "\"ab\xc3\xa9\"");
    ck_assert_str_eq(json("abc", 0), "\"\\u2026\"");
}
END_TEST

START_TEST(test_distance)
{
    ck_assert_uint_eq(ss_edit_distance("lnit", "lint", 2), 1);        /* a transposition */
    ck_assert_uint_eq(ss_edit_distance("--formt", "--format", 2), 1); /* an insertion */
    ck_assert_uint_eq(ss_edit_distance("LINT", "lint", 2), 0);        /* any case */
    ck_assert_uint_eq(ss_edit_distance("kitten", "sitting", 5), 3);
    ck_assert_uint_eq(ss_edit_distance("kitten", "sitting", 2), 3); /* limit + 1 */
    ck_assert_uint_eq(ss_edit_distance("ca", "abc", 3), 3);         /* OSA, not Damerau's 2 */
    ck_assert_uint_eq(ss_edit_distance("", "ab", 2), 2);
    ck_assert_uint_eq(ss_edit_distance("abcdef", "uvwxyz", 2), 3);
}
END_TEST

START_TEST(test_suggest)
{
    const char *commands[] = {"lint", "run", "analyze", "report", "rules", "explain"};
    ck_assert_str_eq(ss_suggest("lnit", commands, 6), "lint");
    ck_assert_str_eq(ss_suggest("rn", commands, 6), "run");
    ck_assert_str_eq(ss_suggest("Rules", commands, 6), "rules");
    ck_assert_str_eq(ss_suggest("expl", commands, 6), "explain"); /* the one it starts */
    ck_assert_ptr_null(ss_suggest("bogus", commands, 6));
    ck_assert_ptr_null(ss_suggest("r", commands, 6));  /* as long as its distance */
    ck_assert_ptr_null(ss_suggest("re", commands, 6)); /* report and rules start so */
    /* Equally near: the one that keeps more of the start, whatever the order. */
    const char *ids[] = {"SYNC101", "SYNC301", "SYNC401"};
    ck_assert_str_eq(ss_suggest("SYNC310", ids, 3), "SYNC301");
    ck_assert_str_eq(ss_suggest("SYNC410", ids, 3), "SYNC401");
    const char *levels[] = {"note", "warning", "error", "none"};
    ck_assert_str_eq(ss_suggest("eror", levels, 4), "error");
    ck_assert_str_eq(ss_suggest("Warnig", levels, 4), "warning");
    ck_assert_ptr_null(ss_suggest("loud", levels, 4));
}
END_TEST

static const char *sha256_hex(const char *text, char hex[2 * SS_SHA256_SIZE + 1])
{
    unsigned char digest[SS_SHA256_SIZE];
    ss_sha256(text, strlen(text), digest);
    for (size_t i = 0; i < SS_SHA256_SIZE; i++)
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
    return hex;
}

/* FIPS 180-4's examples: one block, the empty message, and 56 bytes, whose padding needs a
 * second block. */
START_TEST(test_sha256)
{
    char hex[2 * SS_SHA256_SIZE + 1];
    ck_assert_str_eq(sha256_hex("abc", hex),
                     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    ck_assert_str_eq(sha256_hex("", hex),
                     "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    ck_assert_str_eq(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", hex),
                     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}
END_TEST

START_TEST(test_map)
{
    ss_map map = {0};
    ck_assert_uint_eq(ss_map_get(&map, 1, 2), SS_MAP_NONE);
    for (uint32_t i = 0; i < 1000; i++)
        ck_assert_int_eq(ss_map_put(&map, i, i * 7, i + 5), 0);
    ck_assert_uint_eq(map.count, 1000);
    ck_assert_uint_eq(ss_map_get(&map, 999, 6993), 1004);
    ck_assert_uint_eq(ss_map_get(&map, 6993, 999), SS_MAP_NONE);
    ck_assert_uint_eq(ss_map_put_first(&map, 3, 21, 77), 8);
    ck_assert_uint_eq(ss_map_put_first(&map, 3, 22, 77), 77);
    ck_assert_int_eq(ss_map_put(&map, 3, 21, 9), 0);
    ck_assert_uint_eq(ss_map_get(&map, 3, 21), 9);
    ss_map_free(&map);
    ck_assert_uint_eq(map.count, 0);
}
END_TEST

START_TEST(test_strmap)
{
    ss_strmap map = {0};
    ck_assert_uint_eq(ss_strmap_get(&map, "a.cu"), SIZE_MAX);
    char key[32];
    for (size_t i = 0; i < 500; i++) {
        snprintf(key, sizeof key, "src/file%zu.cu", i);
        ck_assert_int_eq(ss_strmap_put(&map, key, i * 3), 0);
    }
    ck_assert_uint_eq(map.count, 500);
    ck_assert_uint_eq(ss_strmap_get(&map, "src/file0.cu"), 0);
    ck_assert_uint_eq(ss_strmap_get(&map, "src/file499.cu"), 1497);
    ck_assert_uint_eq(ss_strmap_get(&map, "src/file500.cu"), SIZE_MAX);
    /* A key is copied, and setting it again changes its value, not the count. */
    snprintf(key, sizeof key, "src/file7.cu");
    ck_assert_int_eq(ss_strmap_put(&map, key, 1), 0);
    key[0] = 'x';
    ck_assert_uint_eq(ss_strmap_get(&map, "src/file7.cu"), 1);
    ck_assert_uint_eq(map.count, 500);
    /* The empty string is a key like another. */
    ck_assert_int_eq(ss_strmap_put(&map, "", 42), 0);
    ck_assert_uint_eq(ss_strmap_get(&map, ""), 42);
    ss_strmap_free(&map);
    ck_assert_uint_eq(ss_strmap_get(&map, "src/file0.cu"), SIZE_MAX);
}
END_TEST

START_TEST(test_path_under)
{
    ck_assert_str_eq(ss_path_under("/work/root", "/work/root/a/b.cu"), "a/b.cu");
    ck_assert_str_eq(ss_path_under("/work/root/", "/work/root/a.cu"), "a.cu");
    ck_assert_ptr_null(ss_path_under("/work/root", "/work/rootx/a.cu"));
    ck_assert_ptr_null(ss_path_under("/work/root", "/work/root"));
    ck_assert_ptr_null(ss_path_under("/work/root", "/work/root/"));
    ck_assert_str_eq(ss_path_under("/", "/usr/include/x.h"), "usr/include/x.h");
    ck_assert_ptr_null(ss_path_under("/", "/"));
    ck_assert_ptr_null(ss_path_under("/work", "work/a.cu"));
}
END_TEST

START_TEST(test_text_line)
{
    const char text[] = "first\r\nsecond\n\nlast";
    size_t size = sizeof text - 1;
    const char *want[] = {NULL, "first", "second", "", "last", NULL};
    for (unsigned line = 0; line < 6; line++) {
        char *got = ss_text_line(text, size, line);
        if (want[line] == NULL)
            ck_assert_ptr_null(got);
        else
            ck_assert_str_eq(got, want[line]);
        free(got);
    }
    /* A line past the final newline is none. */
    ck_assert_ptr_null(ss_text_line("one\n", 4, 2));
    ck_assert_ptr_null(ss_text_line("one\n", 4, 3));
}
END_TEST

static Suite *util_suite(void)
{
    Suite *s = suite_create("util");
    TCase *tc = tcase_create("util");
    tcase_add_test(tc, test_duration_units);
    tcase_add_test(tc, test_duration_small_buffer);
    tcase_add_test(tc, test_grow);
    tcase_add_test(tc, test_xpush);
    tcase_add_test(tc, test_fnv1a);
    tcase_add_test(tc, test_utf8_decode);
    tcase_add_test(tc, test_json_string);
    tcase_add_test(tc, test_markdown_put);
    tcase_add_test(tc, test_sha256);
    tcase_add_test(tc, test_map);
    tcase_add_test(tc, test_strmap);
    tcase_add_test(tc, test_path_under);
    tcase_add_test(tc, test_text_line);
    suite_add_tcase(s, tc);
    TCase *suggest = tcase_create("suggest");
    tcase_add_test(suggest, test_distance);
    tcase_add_test(suggest, test_suggest);
    suite_add_tcase(s, suggest);
    return s;
}

SS_CHECK_MAIN(util_suite)
