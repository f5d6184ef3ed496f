/* check_config.c: .syncscope.yml parsing, layering across folders, excludes, dump, apply. */
#include "check_main.h"
#include "log.h"
#include "policy.h"
#include "tmp_fixture.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void make_root(void)
{
    fixture_root_make("config");
}

/* The folder of the running test: a fresh sub-folder of the root per test. */
static char fixture_dir[300];

static void begin(const char *test_name)
{
    snprintf(fixture_dir, sizeof fixture_dir, "%s/%s", fixture_root, test_name);
    ck_assert_int_eq(mkdir(fixture_dir, 0755), 0);
}

/* 'rel' under the test's folder, in a static rotating buffer (four at a time). */
static const char *at(const char *rel)
{
    static char bufs[4][512];
    static int next;
    char *buf = bufs[next++ % 4];
    snprintf(buf, sizeof bufs[0], "%s/%s", fixture_dir, rel);
    return buf;
}

/* Writes 'text' to 'rel' under the test's folder, making the folders on the way. */
static void put(const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", fixture_dir, rel);
    for (char *p = path + strlen(fixture_dir) + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0755);
            *p = '/';
        }
    }
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

/* Loads 'text' as the configuration file 'rel' and expects the error 'expected_fmt', in which
 * "%s" stands for the file's path. */
static void expect_error(const char *rel, const char *text, const char *expected_fmt)
{
    ss_config config;
    char err[1024] = "", expected[1024];
    put(rel, text);
    ck_assert_int_eq(ss_config_load_file(at(rel), &config, err, sizeof err), -1);
    const char *mark = strstr(expected_fmt, "%s");
    ck_assert_ptr_nonnull(mark);
    snprintf(expected, sizeof expected, "%.*s%s%s", (int)(mark - expected_fmt), expected_fmt,
             at(rel), mark + 2);
    ck_assert_str_eq(err, expected);
    ck_assert_uint_eq(config.exclude_count, 0);
    ck_assert_uint_eq(config.source_count, 0);
}

START_TEST(test_every_key)
{
    begin("every_key");
    put(".syncscope.yml", "# every key\n"
                          "inherit: true\n"
                          "fail-on: error\n"
                          "readback-bytes: 64\n"
                          "exclude:\n"
                          "  - third_party/**\n"
                          "  - \"**/*_generated.cu\"\n"
                          "rules:\n"
                          "  SYNC103: off\n"
                          "  pageable-async-copy: error\n"
                          "  sync301:\n"
                          "    enabled: false\n"
                          "    severity: note\n"
                          "  SYNC402:\n"
                          "    severity: note\n"
                          "  SYNC501: true\n");
    ss_config c;
    char err[512] = "";
    ck_assert_int_eq(ss_config_load_file(at(".syncscope.yml"), &c, err, sizeof err), 0);
    ck_assert_str_eq(err, "");
    ck_assert_int_eq(c.inherit_set, 1);
    ck_assert_int_eq(c.inherit, 1);
    ck_assert_int_eq(c.fail_on_set, 1);
    ck_assert_int_eq(c.fail_on, SS_FAIL_ERROR);
    ck_assert_int_eq(c.readback_bytes_set, 1);
    ck_assert_uint_eq(c.readback_bytes, 64);
    ck_assert_uint_eq(c.exclude_count, 2);
    ck_assert_str_eq(c.excludes[0].pattern, "third_party/**");
    ck_assert_str_eq(c.excludes[0].base, fixture_dir);
    ck_assert_str_eq(c.excludes[1].pattern, "**/*_generated.cu");
    ck_assert_str_eq(c.excludes[1].base, fixture_dir);
    ck_assert_uint_eq(c.source_count, 1);
    ck_assert_str_eq(c.sources[0], at(".syncscope.yml"));

    ck_assert_int_eq(c.enabled_set[SS_RULE_BLOCKING_STREAM_CREATE], 1);
    ck_assert_int_eq(c.enabled[SS_RULE_BLOCKING_STREAM_CREATE], 0);
    ck_assert_int_eq(c.severity_set[SS_RULE_BLOCKING_STREAM_CREATE], 0);
    /* A severity given as the whole value also enables the rule. */
    ck_assert_int_eq(c.enabled_set[SS_RULE_PAGEABLE_ASYNC_COPY], 1);
    ck_assert_int_eq(c.enabled[SS_RULE_PAGEABLE_ASYNC_COPY], 1);
    ck_assert_int_eq(c.severity[SS_RULE_PAGEABLE_ASYNC_COPY], SS_SEV_ERROR);
    ck_assert_int_eq(c.enabled[SS_RULE_SCALAR_READBACK], 0);
    ck_assert_int_eq(c.severity_set[SS_RULE_SCALAR_READBACK], 1);
    ck_assert_int_eq(c.severity[SS_RULE_SCALAR_READBACK], SS_SEV_NOTE);
    ck_assert_int_eq(c.enabled_set[SS_RULE_DEVICE_WIDE_SYNC_CALL], 0);
    ck_assert_int_eq(c.severity[SS_RULE_DEVICE_WIDE_SYNC_CALL], SS_SEV_NOTE);
    ck_assert_int_eq(c.enabled[SS_RULE_CAPTURE_UNSAFE_CALL], 1);
    ck_assert_int_eq(c.severity_set[SS_RULE_CAPTURE_UNSAFE_CALL], 0);
    ck_assert_int_eq(c.enabled_set[SS_RULE_DEFAULT_STREAM_LAUNCH], 0);
    ck_assert_int_eq(c.severity_set[SS_RULE_DEFAULT_STREAM_LAUNCH], 0);
    /* Unset values read as the defaults. */
    ck_assert_int_eq(ss_config_rule_enabled(&c, SS_RULE_DEFAULT_STREAM_LAUNCH), 1);
    ck_assert_int_eq(ss_config_rule_severity(&c, SS_RULE_DEFAULT_STREAM_LAUNCH), SS_SEV_WARNING);
    ck_assert_int_eq(ss_config_rule_severity(&c, SS_RULE_CAPTURE_UNSAFE_CALL), SS_SEV_ERROR);
    ss_config_free(&c);
    ck_assert_uint_eq(c.exclude_count, 0);
}
END_TEST

START_TEST(test_values_spelled_other_ways)
{
    begin("values_spelled_other_ways");
    put("a.yml", "inherit: no\nfail-on: None\nrules:\n  SYNC101: On\n  SYNC102: NO\n"
                 "  SYNC103: Warning\n  Sync-In-Loop: off\n  sync402: Error\nexclude: []\n");
    ss_config c;
    char err[512] = "";
    ck_assert_int_eq(ss_config_load_file(at("a.yml"), &c, err, sizeof err), 0);
    ck_assert_int_eq(c.inherit, 0);
    ck_assert_int_eq(c.inherit_set, 1);
    ck_assert_int_eq(c.fail_on, SS_FAIL_NONE);
    ck_assert_int_eq(c.enabled[SS_RULE_DEFAULT_STREAM_LAUNCH], 1);
    ck_assert_int_eq(c.enabled[SS_RULE_DEFAULT_STREAM_ASYNC_CALL], 0);
    ck_assert_int_eq(c.severity[SS_RULE_BLOCKING_STREAM_CREATE], SS_SEV_WARNING);
    ck_assert_int_eq(c.enabled[SS_RULE_SYNC_IN_LOOP], 0); /* a name in any case */
    ck_assert_int_eq(c.enabled_set[SS_RULE_SYNC_IN_LOOP], 1);
    ck_assert_int_eq(c.severity[SS_RULE_DEVICE_WIDE_SYNC_CALL], SS_SEV_ERROR);
    ck_assert_uint_eq(c.exclude_count, 0);
    ss_config_free(&c);

    /* An empty file and a file of comments are empty configurations. */
    put("empty.yml", "");
    ck_assert_int_eq(ss_config_load_file(at("empty.yml"), &c, err, sizeof err), 0);
    ck_assert_int_eq(c.fail_on_set, 0);
    ck_assert_uint_eq(c.source_count, 1);
    ss_config_free(&c);
    put("comments.yml", "# nothing yet\n\n# still nothing\n");
    ck_assert_int_eq(ss_config_load_file(at("comments.yml"), &c, err, sizeof err), 0);
    ck_assert_int_eq(c.readback_bytes_set, 0);
    ss_config_free(&c);
    put("nulls.yml", "rules:\nexclude:\n");
    ck_assert_int_eq(ss_config_load_file(at("nulls.yml"), &c, err, sizeof err), 0);
    ss_config_free(&c);
}
END_TEST

START_TEST(test_missing_file)
{
    begin("missing_file");
    ss_config c;
    char err[512] = "", expected[600];
    ck_assert_int_eq(ss_config_load_file(at("absent.yml"), &c, err, sizeof err), -1);
    snprintf(expected, sizeof expected, "%s: No such file or directory", at("absent.yml"));
    ck_assert_str_eq(err, expected);
}
END_TEST

START_TEST(test_precedence_nested_and_cli)
{
    begin("precedence_nested_and_cli");
    put(".syncscope.yml", "fail-on: note\n"
                          "readback-bytes: 32\n"
                          "exclude: [gen/**]\n"
                          "rules:\n"
                          "  SYNC101: error\n"
                          "  SYNC103: off\n");
    put("sub/.syncscope.yml", "inherit: true\n"
                              "readback-bytes: 8\n"
                              "exclude: [\"*.cuh\"]\n"
                              "rules:\n"
                              "  default-stream-launch: note\n");
    put("sub/deep/x.cu", "\n");
    put("other/.syncscope.yml", "rules:\n  SYNC102: off\n");
    put("plain/.syncscope.yml", "inherit: false\n");

    ss_config_cache *cache = ss_config_cache_new();
    ss_config e;
    char err[512] = "";

    /* Nearest first, then the parent it inherits from, then the defaults. */
    ck_assert_int_eq(ss_config_for_path(cache, at("sub/deep/x.cu"), NULL, &e, err, sizeof err), 0);
    ck_assert_int_eq(e.severity[SS_RULE_DEFAULT_STREAM_LAUNCH], SS_SEV_NOTE);
    ck_assert_int_eq(e.enabled[SS_RULE_DEFAULT_STREAM_LAUNCH], 1);
    ck_assert_uint_eq(e.readback_bytes, 8);
    ck_assert_int_eq(e.fail_on, SS_FAIL_NOTE);
    ck_assert_int_eq(e.enabled[SS_RULE_BLOCKING_STREAM_CREATE], 0);
    ck_assert_int_eq(e.enabled[SS_RULE_DEFAULT_STREAM_ASYNC_CALL], 1);
    ck_assert_int_eq(e.severity[SS_RULE_CAPTURE_UNSAFE_CALL], SS_SEV_ERROR);
    ck_assert_int_eq(e.inherit, 0);
    ck_assert_uint_eq(e.exclude_count, 2);
    ck_assert_str_eq(e.excludes[0].pattern, "*.cuh");
    ck_assert_str_eq(e.excludes[0].base, at("sub"));
    ck_assert_str_eq(e.excludes[1].pattern, "gen/**");
    ck_assert_str_eq(e.excludes[1].base, fixture_dir);
    ck_assert_uint_eq(e.source_count, 2);
    ck_assert_str_eq(e.sources[0], at("sub/.syncscope.yml"));
    ck_assert_str_eq(e.sources[1], at(".syncscope.yml"));
    for (int r = 0; r < SS_RULE_COUNT; r++) {
        ck_assert_int_eq(e.enabled_set[r], 1);
        ck_assert_int_eq(e.severity_set[r], 1);
    }
    ss_config_free(&e);

    /* The command line beats every file. */
    ss_config cli;
    ss_config_init(&cli);
    ck_assert_int_eq(ss_config_set_severity(&cli, "SYNC101", "warning", err, sizeof err), 0);
    ck_assert_int_eq(ss_config_set_enabled(&cli, "blocking-stream-create", 1, err, sizeof err), 0);
    ck_assert_int_eq(ss_config_set_fail_on(&cli, "none", err, sizeof err), 0);
    ck_assert_int_eq(ss_config_set_readback_bytes(&cli, "4", err, sizeof err), 0);
    ck_assert_int_eq(ss_config_for_path(cache, at("sub/deep/x.cu"), &cli, &e, err, sizeof err), 0);
    ck_assert_int_eq(e.severity[SS_RULE_DEFAULT_STREAM_LAUNCH], SS_SEV_WARNING);
    ck_assert_int_eq(e.enabled[SS_RULE_BLOCKING_STREAM_CREATE], 1);
    ck_assert_int_eq(e.fail_on, SS_FAIL_NONE);
    ck_assert_uint_eq(e.readback_bytes, 4);
    ss_config_free(&e);
    ss_config_free(&cli);

    /* Without 'inherit: true' the nearest file is the whole story. */
    ck_assert_int_eq(ss_config_for_path(cache, at("other/y.cu"), NULL, &e, err, sizeof err), 0);
    ck_assert_int_eq(e.enabled[SS_RULE_DEFAULT_STREAM_ASYNC_CALL], 0);
    ck_assert_int_eq(e.severity[SS_RULE_DEFAULT_STREAM_LAUNCH], SS_SEV_WARNING);
    ck_assert_int_eq(e.enabled[SS_RULE_BLOCKING_STREAM_CREATE], 1);
    ck_assert_uint_eq(e.readback_bytes, SS_CONFIG_DEFAULT_READBACK_BYTES);
    ck_assert_int_eq(e.fail_on, SS_FAIL_WARNING);
    ck_assert_uint_eq(e.exclude_count, 0);
    ck_assert_uint_eq(e.source_count, 1);
    ck_assert_str_eq(e.sources[0], at("other/.syncscope.yml"));
    ss_config_free(&e);

    /* A file directly in the root; and a folder given as the path starts at that folder. */
    ck_assert_int_eq(ss_config_for_path(cache, at("z.cu"), NULL, &e, err, sizeof err), 0);
    ck_assert_int_eq(e.severity[SS_RULE_DEFAULT_STREAM_LAUNCH], SS_SEV_ERROR);
    ck_assert_uint_eq(e.readback_bytes, 32);
    ss_config_free(&e);
    ck_assert_int_eq(ss_config_for_path(cache, at("sub"), NULL, &e, err, sizeof err), 0);
    ck_assert_uint_eq(e.readback_bytes, 8);
    ss_config_free(&e);

    /* Defaults only. */
    ck_assert_int_eq(ss_config_for_path(cache, at("plain/p.cu"), NULL, &e, err, sizeof err), 0);
    for (int r = 0; r < SS_RULE_COUNT; r++) {
        ck_assert_int_eq(e.enabled[r], 1);
        ck_assert_int_eq(e.severity[r], ss_rules_get((ss_rule_id)r)->severity);
    }
    ck_assert_uint_eq(e.readback_bytes, 16);
    ck_assert_int_eq(e.fail_on, SS_FAIL_WARNING);
    ss_config_free(&e);

    /* Each folder is read once per cache: a later edit is seen only by a new cache. */
    put("sub/.syncscope.yml", "inherit: true\nreadback-bytes: 100\n");
    ck_assert_int_eq(ss_config_for_path(cache, at("sub/deep/x.cu"), NULL, &e, err, sizeof err), 0);
    ck_assert_uint_eq(e.readback_bytes, 8);
    ss_config_free(&e);
    ss_config_cache_free(cache);
    cache = ss_config_cache_new();
    ck_assert_int_eq(ss_config_for_path(cache, at("sub/deep/x.cu"), NULL, &e, err, sizeof err), 0);
    ck_assert_uint_eq(e.readback_bytes, 100);
    ck_assert_int_eq(e.severity[SS_RULE_DEFAULT_STREAM_LAUNCH], SS_SEV_ERROR);
    ss_config_free(&e);
    ss_config_cache_free(cache);
}
END_TEST

START_TEST(test_error_found_upward)
{
    begin("error_found_upward");
    put(".syncscope.yml", "rules:\n  SYNC101: loud\n");
    put("sub/.syncscope.yml", "inherit: true\n");
    ss_config_cache *cache = ss_config_cache_new();
    ss_config e;
    char err[512] = "", expected[600];
    snprintf(expected, sizeof expected,
             "%s:2:12: rule 'SYNC101' must be true, false, a severity (note, warning, error) or "
             "a mapping with 'enabled' and 'severity' (got 'loud')",
             at(".syncscope.yml"));
    for (int round = 0; round < 2; round++) {
        ck_assert_int_eq(ss_config_for_path(cache, at("sub/a.cu"), NULL, &e, err, sizeof err), -1);
        ck_assert_str_eq(err, expected);
        ck_assert_uint_eq(e.source_count, 0);
    }
    ss_config_cache_free(cache);
}
END_TEST

START_TEST(test_cli_setters_reject)
{
    begin("cli_setters_reject");
    ss_config c;
    char err[256] = "";
    ss_config_init(&c);
    ck_assert_int_eq(ss_config_set_enabled(&c, "SYNC999", 0, err, sizeof err), -1);
    ck_assert_str_eq(err, "unknown rule 'SYNC999' (syncscope rules lists them)");
    ck_assert_int_eq(ss_config_set_severity(&c, "SYNC201", "loud", err, sizeof err), -1);
    ck_assert_str_eq(err, "severity must be note, warning or error (got 'loud')");
    ck_assert_int_eq(ss_config_set_severity(&c, "nope", "note", err, sizeof err), -1);
    ck_assert_str_eq(err, "unknown rule 'nope' (syncscope rules lists them)");
    ck_assert_int_eq(ss_config_set_fail_on(&c, "always", err, sizeof err), -1);
    ck_assert_str_eq(err, "fail-on must be note, warning, error or none (got 'always')");
    /* A near miss names what was meant, in any case. */
    ck_assert_int_eq(ss_config_set_enabled(&c, "SYNC310", 0, err, sizeof err), -1);
    ck_assert_str_eq(err, "unknown rule 'SYNC310' (did you mean 'SYNC301'?)");
    ck_assert_int_eq(ss_config_set_severity(&c, "scalar-redback", "note", err, sizeof err), -1);
    ck_assert_str_eq(err, "unknown rule 'scalar-redback' (did you mean 'scalar-readback'?)");
    ck_assert_int_eq(ss_config_set_severity(&c, "SYNC201", "Warnig", err, sizeof err), -1);
    ck_assert_str_eq(err, "severity must be note, warning or error (got 'Warnig'; did you mean "
                          "'warning'?)");
    ck_assert_int_eq(ss_config_set_fail_on(&c, "EROR", err, sizeof err), -1);
    ck_assert_str_eq(err, "fail-on must be note, warning, error or none (got 'EROR'; did you mean "
                          "'error'?)");
    ck_assert_int_eq(ss_config_set_readback_bytes(&c, "0", err, sizeof err), -1);
    ck_assert_str_eq(err, "readback-bytes must be an integer from 1 to 1048576 (got '0')");
    ck_assert_int_eq(ss_config_set_readback_bytes(&c, "1048577", err, sizeof err), -1);
    ck_assert_int_eq(ss_config_set_readback_bytes(&c, "12k", err, sizeof err), -1);
    ck_assert_int_eq(ss_config_set_readback_bytes(&c, "1048576", err, sizeof err), 0);
    ck_assert_uint_eq(c.readback_bytes, 1048576);
    for (int r = 0; r < SS_RULE_COUNT; r++) {
        ck_assert_int_eq(c.enabled_set[r], 0);
        ck_assert_int_eq(c.severity_set[r], 0);
    }
    ck_assert_int_eq(c.fail_on_set, 0);
    ss_config_free(&c);
}
END_TEST

START_TEST(test_glob_match)
{
    begin("glob_match");
    ck_assert_int_eq(ss_policy_glob_match("third_party/**", "third_party/a/b.cu"), 1);
    ck_assert_int_eq(ss_policy_glob_match("third_party/**", "third_partyx/a.cu"), 0);
    ck_assert_int_eq(ss_policy_glob_match("third_party", "third_party/x.cu"), 1);
    ck_assert_int_eq(ss_policy_glob_match("build/", "build/x.cu"), 1);
    ck_assert_int_eq(ss_policy_glob_match("**/*_generated.cu", "a/b/k_generated.cu"), 1);
    ck_assert_int_eq(ss_policy_glob_match("**/*_generated.cu", "k_generated.cu"), 1);
    ck_assert_int_eq(ss_policy_glob_match("**/*_generated.cu", "a/k_generated.cuh"), 0);
    ck_assert_int_eq(ss_policy_glob_match("src/*.cu", "src/a.cu"), 1);
    ck_assert_int_eq(ss_policy_glob_match("src/*.cu", "src/a/b.cu"), 0);
    ck_assert_int_eq(ss_policy_glob_match("*.cu", "a.cu"), 1);
    ck_assert_int_eq(ss_policy_glob_match("*.cu", "dir/a.cu"), 0);
    ck_assert_int_eq(ss_policy_glob_match("src/**/test/*.cu", "src/test/a.cu"), 1);
    ck_assert_int_eq(ss_policy_glob_match("src/**/test/*.cu", "src/x/y/test/a.cu"), 1);
    ck_assert_int_eq(ss_policy_glob_match("src/**/test/*.cu", "src/x/test/b/a.cu"), 0);
    ck_assert_int_eq(ss_policy_glob_match("a/**/**/b", "a/b"), 1);
    ck_assert_int_eq(ss_policy_glob_match("a/**/b", "a/x/y/z/b/c.cu"), 1);
    ck_assert_int_eq(ss_policy_glob_match("**", "anything/at/all.cu"), 1);
    ck_assert_int_eq(ss_policy_glob_match("k[0-9].cu", "k7.cu"), 1);
    ck_assert_int_eq(ss_policy_glob_match("k?.cu", "k10.cu"), 0);
    ck_assert_int_eq(ss_policy_glob_match("x**y/z", "xaby/z"), 1);
    ck_assert_int_eq(ss_policy_glob_match("", "a.cu"), 0);
    ck_assert_int_eq(ss_policy_glob_match("**", ""), 0);
    ck_assert_int_eq(ss_policy_glob_match("src/**", "src"), 1);
    ck_assert_int_eq(ss_policy_glob_match("*", "a/b.cu"), 1);
    ck_assert_int_eq(ss_policy_glob_match("a*b*c.cu", "axxbyyc.cu"), 1);
    ck_assert_int_eq(ss_policy_glob_match("a*b*c.cu", "axxbyyc.cuh"), 0);
    ck_assert_int_eq(ss_policy_glob_match("a*b*c.cu", "acb.cu"), 0);
    ck_assert_int_eq(ss_policy_glob_match("**/b/**/c", "x/b/y/z/c/d.cu"), 1);
    ck_assert_int_eq(ss_policy_glob_match("**/b/**/c", "x/c/b/d.cu"), 0);
    ck_assert_int_eq(ss_policy_glob_match("**/*/*/x.cu", "a/x.cu"), 0);
    ck_assert_int_eq(ss_policy_glob_match("**/*/*/x.cu", "a/b/x.cu"), 1);
    /* Brackets, classes and quoting as fnmatch reads them. */
    ck_assert_int_eq(ss_policy_glob_match("[!a]*.cu", "b.cu"), 1);
    ck_assert_int_eq(ss_policy_glob_match("[!a]*.cu", "a.cu"), 0);
    ck_assert_int_eq(ss_policy_glob_match("[^a]*.cu", "a.cu"), 0);
    ck_assert_int_eq(ss_policy_glob_match("[]x]", "]"), 1);
    ck_assert_int_eq(ss_policy_glob_match("[a-]", "-"), 1);
    ck_assert_int_eq(ss_policy_glob_match("k[[:digit:]].cu", "k7.cu"), 1);
    ck_assert_int_eq(ss_policy_glob_match("k[[:digit:]].cu", "kx.cu"), 0);
    ck_assert_int_eq(ss_policy_glob_match("k[[:alpha:]_].cu", "k_.cu"), 1);
    ck_assert_int_eq(ss_policy_glob_match("k[[=x=]].cu", "kx.cu"), 1);
    ck_assert_int_eq(ss_policy_glob_match("k[ab.cu", "k[ab.cu"), 1);
    ck_assert_int_eq(ss_policy_glob_match("k[ab.cu", "ka.cu"), 0);
    ck_assert_int_eq(ss_policy_glob_match("\\*.cu", "*.cu"), 1);
    ck_assert_int_eq(ss_policy_glob_match("\\*.cu", "a.cu"), 0);
    ck_assert_int_eq(ss_policy_glob_match("[\\]]x", "]x"), 1);
    ck_assert_int_eq(ss_policy_glob_match("a\\", "a"), 0);
    ck_assert_int_eq(ss_policy_glob_match(".*", ".hidden/a.cu"), 1);
    /* A name of any length (the matcher once gave up on names of 512 bytes and more). */
    char long_name[700];
    memset(long_name, 'n', sizeof long_name - 4);
    memcpy(long_name + sizeof long_name - 4, ".cu", 4);
    ck_assert_int_eq(ss_policy_glob_match("*.cu", long_name), 1);
    ck_assert_int_eq(ss_policy_glob_match("*.cuh", long_name), 0);
}
END_TEST

/* Appends 'times' copies of 'piece' to 'buf' (of 'size' bytes). */
static void repeat(char *buf, size_t size, const char *piece, int times)
{
    for (int i = 0; i < times; i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, size - used, "%s", piece);
    }
}

/* Patterns that take exponential time in a backtracking matcher; ctest runs this case alone
 * (config_glob_bound) with a TIMEOUT of a few seconds. */
START_TEST(test_glob_pathological)
{
    char pattern[1024] = "", path[1024] = "";
    /* 30 pairs of "**" + "*" against 60 folders: each '*' takes one segment. */
    repeat(pattern, sizeof pattern, "**/*/", 30);
    repeat(pattern, sizeof pattern, "x.cu", 1);
    repeat(path, sizeof path, "d/", 60);
    repeat(path, sizeof path, "y.cu", 1);
    ck_assert_int_eq(ss_policy_glob_match(pattern, path), 0);
    path[0] = '\0';
    repeat(path, sizeof path, "d/", 60);
    repeat(path, sizeof path, "x.cu", 1);
    ck_assert_int_eq(ss_policy_glob_match(pattern, path), 1);
    path[0] = '\0';
    repeat(path, sizeof path, "d/", 29);
    repeat(path, sizeof path, "x.cu", 1);
    ck_assert_int_eq(ss_policy_glob_match(pattern, path), 0);
    path[0] = '\0';
    repeat(path, sizeof path, "d/", 30);
    repeat(path, sizeof path, "x.cu", 1);
    ck_assert_int_eq(ss_policy_glob_match(pattern, path), 1);
    /* 30 stars in one segment against a name of 900 bytes. */
    char name[901];
    memset(name, 'a', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    pattern[0] = '\0';
    repeat(pattern, sizeof pattern, "*a", 30);
    repeat(pattern, sizeof pattern, "b", 1);
    ck_assert_int_eq(ss_policy_glob_match(pattern, name), 0);
    name[sizeof name - 2] = 'b';
    ck_assert_int_eq(ss_policy_glob_match(pattern, name), 1);
}
END_TEST

START_TEST(test_path_absolute)
{
    begin("path_absolute");
    char *p = ss_policy_path_absolute("a/./b/../c", "/x/y");
    ck_assert_str_eq(p, "/x/y/a/c");
    free(p);
    p = ss_policy_path_absolute("/../a//b/", NULL);
    ck_assert_str_eq(p, "/a/b");
    free(p);
    p = ss_policy_path_absolute("..", "/");
    ck_assert_str_eq(p, "/");
    free(p);
    p = ss_policy_path_absolute("../../q", "/x/y/z/");
    ck_assert_str_eq(p, "/x/q");
    free(p);
}
END_TEST

START_TEST(test_excluded)
{
    begin("excluded");
    put(".syncscope.yml", "exclude:\n  - third_party/**\n  - \"**/*.gen.cu\"\n");
    put("src/a.cu", "\n");
    ss_config_cache *cache = ss_config_cache_new();
    ss_config e;
    char err[512] = "";
    ck_assert_int_eq(ss_config_for_path(cache, at("src/a.cu"), NULL, &e, err, sizeof err), 0);
    ck_assert_int_eq(ss_config_excluded(&e, at("third_party/x/y.cu")), 1);
    ck_assert_int_eq(ss_config_excluded(&e, at("src/../third_party/y.cu")), 1);
    ck_assert_int_eq(ss_config_excluded(&e, at("src/a.cu")), 0);
    ck_assert_int_eq(ss_config_excluded(&e, at("src/k/a.gen.cu")), 1);
    ck_assert_int_eq(ss_config_excluded(&e, at("a.gen.cu")), 1);
    /* Relative to the configuration's folder, not to the working directory. */
    ck_assert_int_eq(ss_config_excluded(&e, "/elsewhere/third_party/x.cu"), 0);
    ck_assert_int_eq(chdir(at("src")), 0);
    ck_assert_int_eq(ss_config_excluded(&e, "../third_party/x.cu"), 1);
    ck_assert_int_eq(ss_config_excluded(&e, "third_party/x.cu"), 0);
    /* Command-line excludes are relative to the working directory; absolute ones are not. */
    ck_assert_int_eq(ss_config_add_exclude(&e, "vendor", NULL), 0);
    ck_assert_str_eq(e.excludes[2].base, at("src"));
    ck_assert_int_eq(ss_config_excluded(&e, "vendor/v.cu"), 1);
    ck_assert_int_eq(ss_config_excluded(&e, at("vendor/v.cu")), 0);
    ck_assert_int_eq(ss_config_add_exclude(&e, "/opt/**/include", "/ignored"), 0);
    ck_assert_int_eq(ss_config_excluded(&e, "/opt/cuda/13/include/cuda.h"), 1);
    ck_assert_int_eq(ss_config_excluded(&e, "/opt/cuda/13/lib/x.h"), 0);
    ck_assert_int_eq(chdir("/"), 0);
    ss_config_free(&e);
    ss_config_cache_free(cache);
}
END_TEST

START_TEST(test_malformed_yaml)
{
    begin("malformed_yaml");
    expect_error("tab.yml", "rules:\n\tSYNC101: off\n",
                 "%s:2:1: YAML syntax error: found character that cannot start any token "
                 "(while scanning for the next token at 2:1)");
    expect_error("flow.yml", "fail-on: note\nexclude: [a, b\nrules:\n",
                 "%s:3:6: YAML syntax error: did not find expected ',' or ']' (while parsing a "
                 "flow sequence at 2:10)");
    expect_error("colon.yml", "fail-on: note\nreadback-bytes 8\nrules: {}\n",
                 "%s:3:1: YAML syntax error: could not find expected ':' (while scanning a "
                 "simple key at 2:1)");
    expect_error("quote.yml", "exclude: [\"a/**]\n",
                 "%s:2:1: YAML syntax error: found unexpected end of stream (while scanning a "
                 "quoted scalar at 1:11)");
    expect_error("two.yml", "fail-on: note\n---\nfail-on: error\n",
                 "%s:3:1: only one YAML document is allowed");
}
END_TEST

/* 'times' copies of 'piece' after 'head' and 'tail' copies of 'close', malloc'ed. */
static char *nested(const char *head, const char *piece, int times, const char *close, int tail)
{
    size_t size = strlen(head) + strlen(piece) * (size_t)times + strlen(close) * (size_t)tail + 2;
    char *text = malloc(size);
    ck_assert_ptr_nonnull(text);
    char *p = text + snprintf(text, size, "%s", head);
    for (int i = 0; i < times; i++)
        p += snprintf(p, size - (size_t)(p - text), "%s", piece);
    for (int i = 0; i < tail; i++)
        p += snprintf(p, size - (size_t)(p - text), "%s", close);
    snprintf(p, size - (size_t)(p - text), "\n");
    return text;
}

/* Loads 'text' as "deep.yml" and expects the error 'expected'. */
static void expect_string_error(char *text, const char *expected)
{
    ss_config config;
    char err[1024] = "";
    ck_assert_int_eq(
        ss_config_load_string("deep.yml", text, strlen(text), &config, err, sizeof err), -1);
    ck_assert_str_eq(err, expected);
    ck_assert_uint_eq(config.exclude_count, 0);
    free(text);
}

/* Nesting is refused past SS_CONFIG_MAX_DEPTH at the collection that goes too deep, before
 * the document is built (100,000 levels took libyaml 43 s to build and then refuse). */
START_TEST(test_nesting_depth)
{
    const char *too_deep = "nested more than 64 levels deep (a configuration needs 3)";
    char expected[256];
    /* The top mapping is level 1: the 64th '[' is level 65, at column 10 + 63. */
    snprintf(expected, sizeof expected, "deep.yml:1:73: %s", too_deep);
    expect_string_error(nested("exclude: ", "[", 100000, "]", 100000), expected);
    expect_string_error(nested("exclude: ", "[", 64, "]", 64), expected);
    snprintf(expected, sizeof expected, "deep.yml:1:%d: %s", 10 + 63 * 4, too_deep);
    expect_string_error(nested("exclude: ", "{a: ", 100000, "}", 100000), expected);
    /* Block sequences: "- - - x", the 65th '-' at column 1 + 64 * 2. */
    snprintf(expected, sizeof expected, "deep.yml:1:129: %s", too_deep);
    expect_string_error(nested("", "- ", 100000, "x", 1), expected);
    /* Unclosed: refused before the syntax error at the end is reached. */
    expect_string_error(nested("rules: ", "[", 100000, "", 0),
                        "deep.yml:1:71: nested more than 64 levels deep (a configuration "
                        "needs 3)");
    /* 64 levels are read, and refused for what they hold. */
    expect_string_error(nested("exclude: ", "[", 63, "]", 63),
                        "deep.yml:1:11: 'exclude' entries must be non-empty glob patterns");
}
END_TEST

START_TEST(test_unknown_keys)
{
    begin("unknown_keys");
    /* A near miss: the key meant; a far one: the keys there are. */
    expect_error("k1.yml", "fail-on: error\nreadback_bytes: 8\n",
                 "%s:2:1: unknown key 'readback_bytes' (did you mean 'readback-bytes'?)");
    expect_error("k2.yml", "rules:\n  SYNC201:\n    severty: error\n",
                 "%s:3:5: unknown key 'severty' in rule 'SYNC201' (did you mean 'severity'?)");
    expect_error("k5.yml", "fail-on: error\nverbosity: 8\n",
                 "%s:2:1: unknown key 'verbosity' (expected inherit, fail-on, readback-bytes, "
                 "exclude, rules, min-severity, hot-functions)");
    expect_error("k6.yml", "rules:\n  SYNC201:\n    level: error\n",
                 "%s:3:5: unknown key 'level' in rule 'SYNC201' (expected enabled, severity)");
    expect_error("k7.yml", "Rules:\n  SYNC201: off\n",
                 "%s:1:1: unknown key 'Rules' (did you mean 'rules'?)");
    expect_error("k3.yml", "fail-on: error\nfail-on: note\n",
                 "%s:2:1: duplicate key 'fail-on' (first at line 1)");
    expect_error("k4.yml", "rules:\n  SYNC201:\n    enabled: true\n    enabled: false\n",
                 "%s:4:5: duplicate key 'enabled' in rule 'SYNC201'");
}
END_TEST

START_TEST(test_bad_values)
{
    begin("bad_values");
    expect_error("v1.yml", "rules:\n  SYNC201:\n    severity: fatal\n",
                 "%s:3:15: 'severity' must be note, warning or error (got 'fatal')");
    expect_error("v2.yml", "fail-on: always\n",
                 "%s:1:10: 'fail-on' must be note, warning, error or none (got 'always')");
    expect_error("v3.yml", "readback-bytes: 0\n",
                 "%s:1:17: 'readback-bytes' must be an integer from 1 to 1048576 (got '0')");
    expect_error("v4.yml", "readback-bytes: [8]\n",
                 "%s:1:17: 'readback-bytes' must be an integer from 1 to 1048576 (got 'a "
                 "collection')");
    expect_error("v5.yml", "inherit: maybe\n",
                 "%s:1:10: 'inherit' must be true or false (got "
                 "'maybe')");
    expect_error("v6.yml", "rules:\n  SYNC201:\n    enabled: 2\n",
                 "%s:3:14: 'enabled' must be true or false (got '2')");
    expect_error("v7.yml", "exclude: third_party\n",
                 "%s:1:10: 'exclude' must be a list of glob patterns");
    expect_error("v8.yml", "exclude:\n  - [a]\n",
                 "%s:2:5: 'exclude' entries must be non-empty glob patterns");
    expect_error("v9.yml", "- fail-on\n",
                 "%s:1:1: the configuration must be a mapping of "
                 "settings");
    expect_error("v10.yml", "rules: [SYNC101]\n",
                 "%s:1:8: 'rules' must be a mapping of rule IDs or names to settings");
    expect_error("v11.yml", "rules:\n  SYNC201: [on]\n",
                 "%s:2:12: rule 'SYNC201' must be true, false, a severity or a mapping");
}
END_TEST

START_TEST(test_bad_rule_names)
{
    begin("bad_rule_names");
    /* A far miss: where the rules are listed; a close one: the rule meant, by ID or name. */
    expect_error("r1.yml", "rules:\n  SYNC999: off\n",
                 "%s:2:3: unknown rule 'SYNC999' in 'rules' (syncscope rules lists them)");
    expect_error("r2.yml", "rules:\n  SYNC101: off\n  pageable-async-kopy: off\n",
                 "%s:3:3: unknown rule 'pageable-async-kopy' in 'rules' (did you mean "
                 "'pageable-async-copy'?)");
    expect_error("r3.yml", "rules:\n  SYNC201: off\n  pageable-async-copy: on\n",
                 "%s:3:3: rule 'pageable-async-copy' is configured twice (first at line 2)");
    expect_error("r4.yml", "fail-on: error\nrules:\n  SYNC101: off\n  SYNC310: error\n",
                 "%s:4:3: unknown rule 'SYNC310' in 'rules' (did you mean 'SYNC301'?)");
    expect_error("r5.yml", "rules:\n  sync4o2: off\n",
                 "%s:2:3: unknown rule 'sync4o2' in 'rules' (did you mean 'SYNC402'?)");
    expect_error("r6.yml", "rules:\n  sync-in-lop: off\n",
                 "%s:2:3: unknown rule 'sync-in-lop' in 'rules' (did you mean 'sync-in-loop'?)");
    expect_error("r7.yml", "rules:\n  legacy-default-stream: off\n",
                 "%s:2:3: unknown rule 'legacy-default-stream' in 'rules' (syncscope rules lists "
                 "them)");
    expect_error("r8.yml", "rules:\n  {a: b}: off\n",
                 "%s:2:3: unknown rule '(collection)' in 'rules' (syncscope rules lists them)");
}
END_TEST

/* Levels and booleans are read in any case; a near miss is named. */
START_TEST(test_bad_levels_suggested)
{
    begin("bad_levels_suggested");
    expect_error("l1.yml", "rules:\n  SYNC201:\n    severity: Eror\n",
                 "%s:3:15: 'severity' must be note, warning or error (got 'Eror'; did you mean "
                 "'error'?)");
    expect_error("l2.yml", "fail-on: WARNIGN\n",
                 "%s:1:10: 'fail-on' must be note, warning, error or none (got 'WARNIGN'; did you "
                 "mean 'warning'?)");
    expect_error("l3.yml", "fail-on: non\n",
                 "%s:1:10: 'fail-on' must be note, warning, error or none (got 'non'; did you "
                 "mean 'none'?)");
    expect_error("l4.yml", "rules:\n  SYNC201: nots\n",
                 "%s:2:12: rule 'SYNC201' must be true, false, a severity (note, warning, error) "
                 "or a mapping with 'enabled' and 'severity' (got 'nots'; did you mean 'note'?)");
    expect_error("l5.yml", "rules:\n  SYNC201: flase\n",
                 "%s:2:12: rule 'SYNC201' must be true, false, a severity (note, warning, error) "
                 "or a mapping with 'enabled' and 'severity' (got 'flase'; did you mean "
                 "'false'?)");
    expect_error("l6.yml", "rules:\n  SYNC201:\n    enabled: ture\n",
                 "%s:3:14: 'enabled' must be true or false (got 'ture'; did you mean 'true'?)");
    expect_error("l7.yml", "inherit: yse\n",
                 "%s:1:10: 'inherit' must be true or false (got 'yse'; did you mean 'yes'?)");

    /* Every level in any case. */
    put("ok.yml", "fail-on: ERROR\nrules:\n  SYNC101: Note\n  SYNC201: {severity: ERROR}\n"
                  "  SYNC301:\n    severity: wArNiNg\n");
    ss_config c;
    char err[512] = "";
    ck_assert_int_eq(ss_config_load_file(at("ok.yml"), &c, err, sizeof err), 0);
    ck_assert_int_eq(c.fail_on, SS_FAIL_ERROR);
    ck_assert_int_eq(c.severity[SS_RULE_DEFAULT_STREAM_LAUNCH], SS_SEV_NOTE);
    ck_assert_int_eq(c.severity[SS_RULE_PAGEABLE_ASYNC_COPY], SS_SEV_ERROR);
    ck_assert_int_eq(c.severity[SS_RULE_SCALAR_READBACK], SS_SEV_WARNING);
    ss_config_free(&c);
    ss_config_init(&c);
    ck_assert_int_eq(ss_config_set_severity(&c, "SYNC101", "Warning", err, sizeof err), 0);
    ck_assert_int_eq(c.severity[SS_RULE_DEFAULT_STREAM_LAUNCH], SS_SEV_WARNING);
    ck_assert_int_eq(ss_config_set_fail_on(&c, "NONE", err, sizeof err), 0);
    ck_assert_int_eq(c.fail_on, SS_FAIL_NONE);
    ss_config_free(&c);
}
END_TEST

START_TEST(test_dump_round_trip)
{
    begin("dump_round_trip");
    put(".syncscope.yml", "fail-on: error\nrules:\n  SYNC103: off\n  SYNC201: error\n");
    put("sub/.syncscope.yml", "inherit: true\nreadback-bytes: 24\nexclude: [\"gen/**\"]\n");
    ss_config_cache *cache = ss_config_cache_new();
    ss_config e;
    char err[512] = "";
    ck_assert_int_eq(ss_config_for_path(cache, at("sub/k.cu"), NULL, &e, err, sizeof err), 0);
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    ck_assert_int_eq(ss_config_dump(mem, &e), 0);
    fclose(mem);
    /* Every rule of the catalog, in its order, with its default severity but for the two the
     * file sets (those two rows are also checked as written below). */
    char *rules = ss_xstrdup("");
    size_t rule_count;
    const ss_rule *catalog = ss_rules_all(&rule_count);
    for (size_t r = 0; r < rule_count; r++) {
        ss_rule_id id = catalog[r].rule;
        ss_severity severity =
            id == SS_RULE_PAGEABLE_ASYNC_COPY ? SS_SEV_ERROR : catalog[r].severity;
        char *more =
            ss_xasprintf("%s  %s: # %s\n    enabled: %s\n    severity: %s\n", rules, catalog[r].id,
                         catalog[r].name, id == SS_RULE_BLOCKING_STREAM_CREATE ? "false" : "true",
                         ss_severity_name(severity));
        free(rules);
        rules = more;
    }
    char *expected = ss_xasprintf("# syncscope configuration\n"
                                  "# from: %s/sub/.syncscope.yml\n"
                                  "# from: %s/.syncscope.yml\n"
                                  "inherit: false\n"
                                  "fail-on: error\n"
                                  "readback-bytes: 24\n"
                                  "min-severity: note\n"
                                  "hot-functions: []\n"
                                  "exclude:\n"
                                  "  - \"%s/sub/gen/**\"\n"
                                  "rules:\n%s",
                                  fixture_dir, fixture_dir, fixture_dir, rules);
    ck_assert_str_eq(text, expected);
    ck_assert_ptr_nonnull(strstr(text, "  SYNC103: # blocking-stream-create\n"
                                       "    enabled: false\n"
                                       "    severity: note\n"));
    ck_assert_ptr_nonnull(strstr(text, "  SYNC201: # pageable-async-copy\n"
                                       "    enabled: true\n"
                                       "    severity: error\n"));
    free(expected);
    free(rules);

    /* The dump loads back, from anywhere, into the same configuration. */
    put("elsewhere/dumped.yml", text);
    ss_config back;
    ck_assert_int_eq(ss_config_load_file(at("elsewhere/dumped.yml"), &back, err, sizeof err), 0);
    for (int r = 0; r < SS_RULE_COUNT; r++) {
        ck_assert_int_eq(back.enabled[r], e.enabled[r]);
        ck_assert_int_eq(back.severity[r], e.severity[r]);
    }
    ck_assert_uint_eq(back.readback_bytes, 24);
    ck_assert_int_eq(back.fail_on, SS_FAIL_ERROR);
    ck_assert_int_eq(ss_config_excluded(&back, at("sub/gen/a/b.cu")), 1);
    ck_assert_int_eq(ss_config_excluded(&back, at("gen/a.cu")), 0);
    ss_config_free(&back);
    free(text);
    ss_config_free(&e);
    ss_config_cache_free(cache);
}
END_TEST

/* 'config' dumped as YAML, malloc'ed. */
static char *dump_of(const ss_config *config)
{
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    ck_assert_int_eq(ss_config_dump(mem, config), 0);
    fclose(mem);
    return text;
}

START_TEST(test_dump_escapes)
{
    /* Characters YAML refuses raw (DEL, a C1 control) or reads back as something else (U+2028
     * as a line break, U+FEFF) are escaped, so the dump loads back into the same patterns. */
    static const char yml[] = "exclude: [\"a\\x7fb\", \"c\\Ld\", \"e\\x85f\", \"\\uFEFFg\"]\n";
    ss_config c, back;
    char err[512] = "";
    ck_assert_msg(
        ss_config_load_string("/p/.syncscope.yml", yml, strlen(yml), &c, err, sizeof err) == 0,
        "%s", err);
    char *text = dump_of(&c);
    ck_assert_ptr_nonnull(strstr(text, "exclude:\n"
                                       "  - \"/p/a\\x7fb\"\n"
                                       "  - \"/p/c\\Ld\"\n"
                                       "  - \"/p/e\\x85f\"\n"
                                       "  - \"/p/\\uFEFFg\"\n"));
    ck_assert_msg(
        ss_config_load_string("/p/.syncscope.yml", text, strlen(text), &back, err, sizeof err) == 0,
        "%s", err);
    char *again = dump_of(&back);
    ck_assert_str_eq(again, text);
    free(again);
    free(text);
    ss_config_free(&back);
    ss_config_free(&c);
}
END_TEST

static ss_finding *add_finding(ss_result *r, ss_rule_id rule, const char *file, unsigned line)
{
    ss_finding *f = ss_result_add(r);
    f->rule = rule;
    f->severity = ss_rules_get(rule)->severity;
    f->origin = SS_ORIGIN_STATIC;
    f->file = ss_xstrdup(file);
    f->line = line;
    f->message = ss_xstrdup("m");
    return f;
}

START_TEST(test_apply_and_fail_on)
{
    begin("apply_and_fail_on");
    put(".syncscope.yml", "fail-on: error\nexclude: [vendor]\n"
                          "rules:\n  SYNC103: off\n  SYNC201: error\n  SYNC101: note\n");
    ss_config_cache *cache = ss_config_cache_new();
    ss_config e;
    char err[512] = "";
    ck_assert_int_eq(ss_config_for_path(cache, at("a.cu"), NULL, &e, err, sizeof err), 0);
    ss_result r;
    ss_result_init(&r, SS_RESULT_LINT);
    add_finding(&r, SS_RULE_BLOCKING_STREAM_CREATE, at("a.cu"), 3);
    add_finding(&r, SS_RULE_PAGEABLE_ASYNC_COPY, at("a.cu"), 7);
    add_finding(&r, SS_RULE_DEFAULT_STREAM_LAUNCH, at("a.cu"), 9);
    add_finding(&r, SS_RULE_PAGEABLE_ASYNC_COPY, at("vendor/v.cu"), 1);
    add_finding(&r, SS_RULE_SCALAR_READBACK, at("a.cu"), 12);
    ck_assert_uint_eq(ss_policy_apply(&e, &r), 2);
    ck_assert_uint_eq(r.count, 3);
    ck_assert_int_eq(r.findings[0].rule, SS_RULE_PAGEABLE_ASYNC_COPY);
    ck_assert_uint_eq(r.findings[0].line, 7);
    ck_assert_int_eq(r.findings[0].severity, SS_SEV_ERROR);
    ck_assert_int_eq(r.findings[1].rule, SS_RULE_DEFAULT_STREAM_LAUNCH);
    ck_assert_int_eq(r.findings[1].severity, SS_SEV_NOTE);
    ck_assert_int_eq(r.findings[2].rule, SS_RULE_SCALAR_READBACK);
    ck_assert_int_eq(r.findings[2].severity, SS_SEV_WARNING);
    ck_assert_int_eq(ss_policy_failed(&e, &r), 1);
    /* Without the error-level finding, fail-on: error is not reached. */
    ss_finding_clear(&r.findings[0]);
    r.findings[0] = r.findings[2];
    r.count = 2;
    ck_assert_int_eq(ss_policy_failed(&e, &r), 0);
    e.fail_on = SS_FAIL_NOTE;
    ck_assert_int_eq(ss_policy_failed(&e, &r), 1);
    e.fail_on = SS_FAIL_NONE;
    ck_assert_int_eq(ss_policy_failed(&e, &r), 0);
    ss_result_free(&r);
    ss_config_free(&e);
    ss_config_cache_free(cache);
}
END_TEST

/* A check's lowered severity (SYNC101 as a note where nothing else uses a stream) stands
 * unless a layer configures the rule's severity, to any value, the default one included. */
START_TEST(test_apply_keeps_lowered_severity)
{
    begin("apply_keeps_lowered_severity");
    put("plain/a.cu", "");
    put("configured/.syncscope.yml", "rules:\n  SYNC101: warning\n");
    ss_config_cache *cache = ss_config_cache_new();
    ss_config plain, configured;
    char err[512] = "";
    ck_assert_int_eq(ss_config_for_path(cache, at("plain/a.cu"), NULL, &plain, err, sizeof err), 0);
    ck_assert_int_eq(
        ss_config_for_path(cache, at("configured/a.cu"), NULL, &configured, err, sizeof err), 0);
    ss_result r;
    ss_result_init(&r, SS_RESULT_LINT);
    add_finding(&r, SS_RULE_DEFAULT_STREAM_LAUNCH, at("plain/a.cu"), 3)->severity = SS_SEV_NOTE;
    add_finding(&r, SS_RULE_DEFAULT_STREAM_LAUNCH, at("plain/a.cu"), 5);
    ck_assert_uint_eq(ss_policy_apply(&plain, &r), 0);
    ck_assert_int_eq(r.findings[0].severity, SS_SEV_NOTE);
    ck_assert_int_eq(r.findings[1].severity, SS_SEV_WARNING);
    ck_assert_int_eq(ss_policy_failed(&plain, &r), 1);
    r.findings[1].severity = SS_SEV_NOTE;
    ck_assert_int_eq(ss_policy_failed(&plain, &r), 0);
    /* 'SYNC101: warning' is configured, although it is the default: every finding gets it. */
    ck_assert_uint_eq(ss_policy_apply(&configured, &r), 0);
    ck_assert_int_eq(r.findings[0].severity, SS_SEV_WARNING);
    ck_assert_int_eq(r.findings[1].severity, SS_SEV_WARNING);
    /* On the command line too, and a copy of an effective configuration keeps the marks. */
    ss_config cli, copy;
    ss_config_init(&cli);
    ck_assert_int_eq(ss_config_set_severity(&cli, "SYNC101", "warning", err, sizeof err), 0);
    ss_config_free(&configured);
    ck_assert_int_eq(
        ss_config_for_path(cache, at("plain/a.cu"), &cli, &configured, err, sizeof err), 0);
    r.findings[0].severity = SS_SEV_NOTE;
    ss_policy_apply(&configured, &r);
    ck_assert_int_eq(r.findings[0].severity, SS_SEV_WARNING);
    ss_config_copy(&copy, &plain);
    r.findings[0].severity = SS_SEV_NOTE;
    ss_policy_apply(&copy, &r);
    ck_assert_int_eq(r.findings[0].severity, SS_SEV_NOTE);
    ss_result_free(&r);
    ss_config_free(&copy);
    ss_config_free(&cli);
    ss_config_free(&plain);
    ss_config_free(&configured);
    ss_config_cache_free(cache);
}
END_TEST

static Suite *config_suite(void)
{
    Suite *s = suite_create("config");
    TCase *parse = tcase_create("parse");
    tcase_add_unchecked_fixture(parse, make_root, remove_root);
    tcase_add_test(parse, test_every_key);
    tcase_add_test(parse, test_values_spelled_other_ways);
    tcase_add_test(parse, test_missing_file);
    suite_add_tcase(s, parse);
    TCase *errors = tcase_create("errors");
    tcase_add_unchecked_fixture(errors, make_root, remove_root);
    tcase_add_test(errors, test_malformed_yaml);
    tcase_add_test(errors, test_nesting_depth);
    tcase_add_test(errors, test_unknown_keys);
    tcase_add_test(errors, test_bad_values);
    tcase_add_test(errors, test_bad_levels_suggested);
    tcase_add_test(errors, test_bad_rule_names);
    tcase_add_test(errors, test_cli_setters_reject);
    suite_add_tcase(s, errors);
    TCase *layers = tcase_create("layers");
    tcase_add_unchecked_fixture(layers, make_root, remove_root);
    tcase_add_test(layers, test_precedence_nested_and_cli);
    tcase_add_test(layers, test_error_found_upward);
    tcase_add_test(layers, test_dump_round_trip);
    tcase_add_test(layers, test_dump_escapes);
    tcase_add_test(layers, test_apply_and_fail_on);
    tcase_add_test(layers, test_apply_keeps_lowered_severity);
    suite_add_tcase(s, layers);
    TCase *paths = tcase_create("paths");
    tcase_add_unchecked_fixture(paths, make_root, remove_root);
    tcase_add_test(paths, test_glob_match);
    tcase_add_test(paths, test_path_absolute);
    tcase_add_test(paths, test_excluded);
    suite_add_tcase(s, paths);
    TCase *glob_bound = tcase_create("glob_bound");
    tcase_add_test(glob_bound, test_glob_pathological);
    suite_add_tcase(s, glob_bound);
    return s;
}

SS_CHECK_MAIN(config_suite)
