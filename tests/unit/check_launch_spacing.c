/* check_launch_spacing.c: spaced kernel launches ('k << <g, b >> >(a)') found and rewritten in
 * place (analyzer/launch_spacing.c): what is rewritten, byte for byte, and the C++ that looks
 * alike and is left alone (operator<< specialized, '>> >' closing templates, comments and
 * literals, an opening that closes in no launch configuration). */
#include "check_main.h"
#include "launch_spacing.h"

#include <stdlib.h>
#include <string.h>

/* 'text' rewritten is exactly 'want' (NULL: nothing rewritten), with 'launches' launches. */
static void rewrites(const char *text, const char *want, size_t launches)
{
    size_t count = 99;
    char *out = ss_launch_spacing_rewrite(text, strlen(text), &count);
    if (want == NULL) {
        ck_assert_msg(out == NULL, "'%s' was rewritten: '%s'", text, out ? out : "");
        ck_assert_uint_eq(count, 0);
        return;
    }
    ck_assert_msg(out != NULL, "'%s' was not rewritten", text);
    ck_assert_str_eq(out, want);
    ck_assert_uint_eq(strlen(out), strlen(text));
    ck_assert_uint_eq(count, launches);
    free(out);
}

START_TEST(launches_rewritten)
{
    rewrites("k << <g, b >> >(a);", "k <<< g, b >>> (a);", 1);
    rewrites("k << <g, b, 0, s >> >(a);", "k <<< g, b, 0, s >>> (a);", 1);
    rewrites("k<<\t\t<g, b>>  >(a);", "k<<<\t\tg, b>>>  (a);", 1);
    /* The configuration's own shifts, calls, templates and brackets. */
    rewrites("k << <dim3((n + 255) >> 8), f<int>(x), m[i >> 1], s >> >(a);",
             "k <<< dim3((n + 255) >> 8), f<int>(x), m[i >> 1], s >>> (a);", 1);
    /* An opening written spaced, the closing not. */
    rewrites("k << <g, b>>>(a);", "k <<< g, b>>>(a);", 1);
    /* Two on two lines: the newline stays where it was. */
    rewrites("a << <1, 1 >> >();\n  b << <2, 2 >> >();\n",
             "a <<< 1, 1 >>> ();\n  b <<< 2, 2 >>> ();\n", 2);
    /* A digit separator is no character literal. */
    rewrites("int n = 1'000; k << <g, b >> >(a); char c = '<';",
             "int n = 1'000; k <<< g, b >>> (a); char c = '<';", 1);
}
END_TEST

START_TEST(look_alikes_kept)
{
    rewrites("template ostream &operator<< <>(ostream &, const A<int> &);", NULL, 0);
    rewrites("template ostream &operator<< <A<B<int>> >(ostream &, const A<B<B<int>>> &);", NULL,
             0);
    rewrites("auto p = &operator <<\n  <A<B<int>> >;", NULL, 0);
    rewrites("A<B<C<int>> > x; y = z >> 2 > w;", NULL, 0);
    /* An opening whose expression ends (';', an unmatched ')') before a '>> >'. */
    rewrites("x << <y; A<B<C<int>> > z;", NULL, 0);
    rewrites("f(x << <y) + A<B<C<int>> >::v;", NULL, 0);
}
END_TEST

START_TEST(comments_and_literals_kept)
{
    rewrites("// k << <g, b >> >(a);\n", NULL, 0);
    rewrites("/* k << <g, b >> >(a); */", NULL, 0);
    rewrites("// k << <g,\nA<B<C<int>> > x;", NULL, 0);
    rewrites("// k << <g, \\\n b >> >(a);\n", NULL, 0);
    rewrites("const char *s = \"k << <g, b >> >(a)\";", NULL, 0);
    rewrites("int n = sizeof \"<< <\" + A<B<C<int>> >::v;", NULL, 0);
    rewrites("const char *r = R\"x(k << <g, \")\" b >> >(a))x\";", NULL, 0);
    rewrites("char c = '\\'', d = '<'; // << <\n", NULL, 0);
    /* A comment between the brackets: not a spaced launch (its text would move). */
    rewrites("k << /**/ <g, b >> >(a);", NULL, 0);
    /* Code after a comment and a literal is still searched. */
    rewrites("/* << < */ s = \"<< <\"; k << <g, b >> >(a);",
             "/* << < */ s = \"<< <\"; k <<< g, b >>> (a);", 1);
}
END_TEST

START_TEST(error_places)
{
    static const char text[] = "k << <g, b >> >(a); operator<< <>(o); x <<<g>>>(); y<<  <z>> >();";
    size_t size = sizeof text - 1;
    ck_assert_int_eq(ss_launch_spacing_at(text, size, 5), 1);
    ck_assert_int_eq(ss_launch_spacing_at(text, size, 2), 0);
    ck_assert_int_eq(ss_launch_spacing_at(text, size, 31), 0);
    ck_assert_int_eq(ss_launch_spacing_at(text, size, 42), 0);
    ck_assert_int_eq(ss_launch_spacing_at(text, size, 56), 1);
    ck_assert_int_eq(ss_launch_spacing_at(text, size, size), 0);
}
END_TEST

static Suite *launch_spacing_suite(void)
{
    Suite *s = suite_create("launch_spacing");
    TCase *rewritten = tcase_create("rewritten");
    tcase_add_test(rewritten, launches_rewritten);
    suite_add_tcase(s, rewritten);
    TCase *kept = tcase_create("kept");
    tcase_add_test(kept, look_alikes_kept);
    tcase_add_test(kept, comments_and_literals_kept);
    suite_add_tcase(s, kept);
    TCase *places = tcase_create("places");
    tcase_add_test(places, error_places);
    suite_add_tcase(s, places);
    return s;
}

SS_CHECK_MAIN(launch_spacing_suite)
