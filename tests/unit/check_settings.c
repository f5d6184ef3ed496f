/* check_settings.c: interpose/settings.def and report/formats.def: each parser kind's accepted
 * and refused values (with the exact message), the rows as data, and format names taken in
 * any case by SYNCSCOPE_FORMAT, ss_format_parse and the command's --format. */
#include "check_main.h"
#include "cli_fixture.h"
#include "detect.h"
#include "interpose.h"
#include "log.h"
#include "report.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Unsets every variable of settings.def. */
static void clear_settings(void)
{
    size_t n;
    const ss_interpose_setting *rows = ss_interpose_settings(&n);
    for (size_t i = 0; i < n; i++)
        unsetenv(rows[i].variable);
}

/* Loads the settings with 'variable' set to 'value' alone; returns what the load returns. */
static int load_with(const char *variable, const char *value, ss_interpose_config *c, char *err,
                     size_t err_size)
{
    clear_settings();
    setenv(variable, value, 1);
    err[0] = '\0';
    int rc = ss_interpose_config_load(c, err, err_size);
    unsetenv(variable);
    return rc;
}

/* Asserts that 'value' for 'variable' is refused with the message 'expected'. */
static void assert_refused(const char *variable, const char *value, const char *expected)
{
    ss_interpose_config c;
    char err[512];
    ck_assert_int_eq(load_with(variable, value, &c, err, sizeof err), -1);
    ck_assert_str_eq(err, expected);
}

/* A string of 'len' copies of 'ch', malloc'ed. */
static char *repeat(char ch, size_t len)
{
    char *text = malloc(len + 1);
    ck_assert_ptr_nonnull(text);
    memset(text, ch, len);
    text[len] = '\0';
    return text;
}

START_TEST(test_defaults)
{
    clear_settings();
    setenv("XDG_CACHE_HOME", "/cache", 1);
    ss_interpose_config c;
    char err[256] = "";
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), 0);
    ck_assert_str_eq(c.output, "syncscope-%p.json");
    ck_assert_str_eq(c.format, "json");
    ck_assert_str_eq(c.sarif, "");
    ck_assert_uint_eq(c.max_memory, 256u << 20);
    ck_assert_int_eq(c.kernel_activity, 1);
    ck_assert_uint_eq(c.min_blocked_ns, 0);
    ck_assert_uint_eq(c.readback_bytes, 0);
    ck_assert_uint_eq(c.slack_ns, 0);
    ck_assert_uint_eq(c.stack_min_ns, (uint64_t)SS_DEFAULT_STACK_MIN_US * 1000);
    ck_assert_uint_eq(c.python_depth, 8);
    ck_assert_uint_eq(c.signal_flush_ms, 10000);
    ck_assert_int_eq(c.latent, 1);
    ck_assert_int_eq(c.timing, 0);
    ck_assert_str_eq(c.symbol_cache, "/cache/syncscope/symbols");
    ck_assert_int_eq(c.quiet, 0);
    ck_assert_uint_eq(c.error_exitcode, 0);
    ck_assert_str_eq(c.fail_on, "warning");
    ck_assert_str_eq(c.fail_over, "");
    ck_assert_int_eq(c.profile_from_start, 1);
    ck_assert_str_eq(c.nvtx_range, "");
    ck_assert_int_eq(c.nvtx, 1);
    ck_assert_str_eq(c.gate_file, "");
    ck_assert_int_eq(c.sync_records, 0);
    /* The --help text's default is the row's. */
    const ss_interpose_setting *stack = ss_interpose_setting_find(SS_ENV_STACK_MIN_US);
    ck_assert_ptr_nonnull(stack);
    char text[16];
    snprintf(text, sizeof text, "%d", SS_DEFAULT_STACK_MIN_US);
    ck_assert_str_eq(stack->default_value, text);
    unsetenv("XDG_CACHE_HOME");
}
END_TEST

/* An empty variable is the same as an unset one, for every kind. */
START_TEST(test_empty_is_unset)
{
    ss_interpose_config unset, empty;
    char err[256];
    clear_settings();
    setenv("XDG_CACHE_HOME", "/cache", 1);
    ck_assert_int_eq(ss_interpose_config_load(&unset, err, sizeof err), 0);
    size_t n;
    const ss_interpose_setting *rows = ss_interpose_settings(&n);
    for (size_t i = 0; i < SS_SETTING_COUNT; i++)
        setenv(rows[i].variable, "", 1);
    ck_assert_int_eq(ss_interpose_config_load(&empty, err, sizeof err), 0);
    ck_assert_int_eq(memcmp(&unset, &empty, sizeof unset), 0);
    clear_settings();
    unsetenv("XDG_CACHE_HOME");
}
END_TEST

START_TEST(test_kind_path)
{
    ss_interpose_config c;
    char err[256];
    ck_assert_int_eq(load_with(SS_ENV_OUTPUT, "out/run-%r.sarif", &c, err, sizeof err), 0);
    ck_assert_str_eq(c.output, "out/run-%r.sarif");
    char *longest = repeat('a', SS_CONFIG_PATH_MAX - 1);
    ck_assert_int_eq(load_with(SS_ENV_TRACE, longest, &c, err, sizeof err), 0);
    ck_assert_str_eq(c.trace, longest);
    ck_assert_int_eq(c.sync_records, 1);
    free(longest);
    char *too_long = repeat('a', SS_CONFIG_PATH_MAX);
    assert_refused(SS_ENV_OUTPUT, too_long, "SYNCSCOPE_OUTPUT is too long");
    assert_refused(SS_ENV_BASELINE, too_long, "SYNCSCOPE_BASELINE is too long");
    free(too_long);
}
END_TEST

START_TEST(test_kind_list_and_name)
{
    ss_interpose_config c;
    char err[256];
    ck_assert_int_eq(load_with(SS_ENV_ATTRIBUTE_TO, "/src/app:/src/lib", &c, err, sizeof err), 0);
    ck_assert_str_eq(c.attribute_to, "/src/app:/src/lib");
    char *name = repeat('r', SS_CONFIG_NAME_MAX - 1);
    ck_assert_int_eq(load_with(SS_ENV_NVTX_RANGE, name, &c, err, sizeof err), 0);
    ck_assert_str_eq(c.nvtx_range, name);
    free(name);
    char *too_long = repeat('r', SS_CONFIG_NAME_MAX);
    assert_refused(SS_ENV_NVTX_RANGE, too_long, "SYNCSCOPE_NVTX_RANGE is too long");
    assert_refused(SS_ENV_FAIL_OVER, too_long, "SYNCSCOPE_FAIL_OVER is too long");
    free(too_long);
    /* A range to scope by is a range to observe, whatever SYNCSCOPE_NVTX says. */
    clear_settings();
    setenv(SS_ENV_NVTX, "0", 1);
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), 0);
    ck_assert_int_eq(c.nvtx, 0);
    setenv(SS_ENV_NVTX_RANGE, "step", 1);
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), 0);
    ck_assert_int_eq(c.nvtx, 1);
    clear_settings();
}
END_TEST

START_TEST(test_kind_switch)
{
    static const char *const off[] = {"0", "no", "NO", "off", "Off"};
    static const char *const on[] = {"1", "yes", "Yes", "on", "ON"};
    ss_interpose_config c;
    char err[256];
    for (size_t i = 0; i < 5; i++) {
        ck_assert_int_eq(load_with(SS_ENV_LATENT, off[i], &c, err, sizeof err), 0);
        ck_assert_int_eq(c.latent, 0);
        ck_assert_int_eq(load_with(SS_ENV_QUIET, on[i], &c, err, sizeof err), 0);
        ck_assert_int_eq(c.quiet, 1);
    }
    assert_refused(SS_ENV_QUIET, "2", "SYNCSCOPE_QUIET='2' is not 0 or 1");
    assert_refused(SS_ENV_PROFILE_FROM_START, "true",
                   "SYNCSCOPE_PROFILE_FROM_START='true' is not 0 or 1");
    assert_refused(SS_ENV_NVTX, " 1", "SYNCSCOPE_NVTX=' 1' is not 0 or 1");
}
END_TEST

START_TEST(test_kind_size)
{
    ss_interpose_config c;
    char err[256];
    ck_assert_int_eq(load_with(SS_ENV_MAX_MEMORY, "4M", &c, err, sizeof err), 0);
    ck_assert_uint_eq(c.max_memory, 4u << 20);
    ck_assert_int_eq(load_with(SS_ENV_MAX_MEMORY, "2GiB", &c, err, sizeof err), 0);
    ck_assert_uint_eq(c.max_memory, 2ull << 30);
    assert_refused(SS_ENV_MAX_MEMORY, "4194303",
                   "SYNCSCOPE_MAX_MEMORY='4194303' is not a size of at least 4M (e.g. 256M, 2G)");
    assert_refused(SS_ENV_MAX_MEMORY, "lots",
                   "SYNCSCOPE_MAX_MEMORY='lots' is not a size of at least 4M (e.g. 256M, 2G)");
    ck_assert_int_eq(load_with(SS_ENV_READBACK_BYTES, "0", &c, err, sizeof err), 0);
    ck_assert_uint_eq(c.readback_bytes, 0);
    ck_assert_int_eq(load_with(SS_ENV_READBACK_BYTES, "1K", &c, err, sizeof err), 0);
    ck_assert_uint_eq(c.readback_bytes, 1024);
    assert_refused(SS_ENV_READBACK_BYTES, "1.5K",
                   "SYNCSCOPE_READBACK_BYTES='1.5K' is not a byte count");
}
END_TEST

START_TEST(test_kind_micros)
{
    ss_interpose_config c;
    char err[256];
    ck_assert_int_eq(load_with(SS_ENV_MIN_BLOCKED_US, "250", &c, err, sizeof err), 0);
    ck_assert_uint_eq(c.min_blocked_ns, 250000);
    ck_assert_int_eq(load_with(SS_ENV_SLACK_US, "18446744073709551", &c, err, sizeof err), 0);
    ck_assert_uint_eq(c.slack_ns, 18446744073709551000ull);
    assert_refused(SS_ENV_SLACK_US, "18446744073709552",
                   "SYNCSCOPE_SLACK_US='18446744073709552' is not a number of microseconds");
    assert_refused(SS_ENV_STACK_MIN_US, "-1",
                   "SYNCSCOPE_STACK_MIN_US='-1' is not a number of microseconds");
    assert_refused(SS_ENV_MIN_BLOCKED_US, "5ms",
                   "SYNCSCOPE_MIN_BLOCKED_US='5ms' is not a number of microseconds");
}
END_TEST

START_TEST(test_kind_bounded_numbers)
{
    ss_interpose_config c;
    char err[256];
    ck_assert_int_eq(load_with(SS_ENV_PYTHON_DEPTH, "32", &c, err, sizeof err), 0);
    ck_assert_uint_eq(c.python_depth, 32);
    ck_assert_int_eq(load_with(SS_ENV_PYTHON_DEPTH, "0", &c, err, sizeof err), 0);
    ck_assert_uint_eq(c.python_depth, 0);
    assert_refused(SS_ENV_PYTHON_DEPTH, "33",
                   "SYNCSCOPE_PYTHON_DEPTH='33' is not a number of frames from 0 to 32");
    ck_assert_int_eq(load_with(SS_ENV_ERROR_EXITCODE, "255", &c, err, sizeof err), 0);
    ck_assert_uint_eq(c.error_exitcode, 255);
    assert_refused(SS_ENV_ERROR_EXITCODE, "256",
                   "SYNCSCOPE_ERROR_EXITCODE='256' is not an exit status from 0 to 255");
    assert_refused(SS_ENV_SIGNAL_FLUSH_MS, "99999999999999999999",
                   "SYNCSCOPE_SIGNAL_FLUSH_MS='99999999999999999999' is not a number of "
                   "milliseconds from 0 to 3600000");
}
END_TEST

/* --mode, --sample and --interval (docs/run.md, "Modes", "Interval lines"). */
START_TEST(test_kind_modes)
{
    ss_interpose_config c;
    char err[512];
    ck_assert_int_eq(load_with(SS_ENV(MODE), "Light", &c, err, sizeof err), 0);
    ck_assert_str_eq(c.mode, "light");
    ck_assert_int_eq(load_with(SS_ENV(MODE), "", &c, err, sizeof err), 0);
    ck_assert_str_eq(c.mode, "full");
    assert_refused(SS_ENV(MODE), "heavy", "SYNCSCOPE_MODE='heavy' is not one of full, light");
    ck_assert_int_eq(load_with(SS_ENV(SAMPLE), "5s/120s", &c, err, sizeof err), 0);
    ck_assert_str_eq(c.sample, "5s/120s");
    uint64_t on = 0, every = 0;
    ck_assert_int_eq(ss_interpose_parse_sample("5s/120s", &on, &every), 0);
    ck_assert_uint_eq(on, 5000000000ull);
    ck_assert_uint_eq(every, 120000000000ull);
    ck_assert_int_eq(ss_interpose_parse_sample("250ms/2m", &on, &every), 0);
    ck_assert_uint_eq(on, 250000000ull);
    ck_assert_uint_eq(every, 120000000000ull);
    static const char *const bad[] = {"5s",     "5s/",   "/5s",   "5/120s",     "5s/120",
                                      "0ms/1s", "2s/2s", "5h/9h", "5s/120s/1s", "-1s/2s"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(ss_interpose_parse_sample(bad[i], &on, &every) == -1, "%s", bad[i]);
    assert_refused(SS_ENV(SAMPLE), "5s",
                   "SYNCSCOPE_SAMPLE='5s' is not ON/EVERY, two durations with ms, s or m, ON at "
                   "least 1ms and shorter than EVERY (such as 5s/120s)");
    ck_assert_int_eq(load_with(SS_ENV(INTERVAL), "86400", &c, err, sizeof err), 0);
    ck_assert_uint_eq(c.interval, 86400);
    assert_refused(SS_ENV(INTERVAL), "86401",
                   "SYNCSCOPE_INTERVAL='86401' is not a number of seconds from 0 to 86400");
    ck_assert_int_eq(load_with(SS_ENV(INTERVAL), "", &c, err, sizeof err), 0);
    ck_assert_uint_eq(c.interval, 0);
    ck_assert(strstr(c.interval_file, "syncscope-%p.jsonl") != NULL);
    /* The measurement aid of docs/studies/performance.md: unset by default. */
    ck_assert_int_eq(load_with(SS_ENV(LIGHT_PROBE), "NoOp_Driver", &c, err, sizeof err), 0);
    ck_assert_str_eq(c.light_probe, "noop_driver");
    ck_assert_int_eq(load_with(SS_ENV(LIGHT_PROBE), "", &c, err, sizeof err), 0);
    ck_assert_str_eq(c.light_probe, "");
    assert_refused(SS_ENV(LIGHT_PROBE), "subscribed",
                   "SYNCSCOPE_LIGHT_PROBE='subscribed' is not one of load, subscribe, noop, "
                   "noop_runtime, noop_driver, switch, wrap (did you mean 'subscribe'?)");
}
END_TEST

START_TEST(test_kind_level)
{
    ss_interpose_config c;
    char err[256];
    static const char *const levels[] = {"note", "warning", "error", "none"};
    for (size_t i = 0; i < 4; i++) {
        ck_assert_int_eq(load_with(SS_ENV_FAIL_ON, levels[i], &c, err, sizeof err), 0);
        ck_assert_str_eq(c.fail_on, levels[i]);
    }
    /* In any case, as `syncscope run --fail-on` takes them; kept in lower case. */
    ck_assert_int_eq(load_with(SS_ENV_FAIL_ON, "WARNING", &c, err, sizeof err), 0);
    ck_assert_str_eq(c.fail_on, "warning");
    ck_assert_int_eq(load_with(SS_ENV_FAIL_ON, "Error", &c, err, sizeof err), 0);
    ck_assert_str_eq(c.fail_on, "error");
    assert_refused(SS_ENV_FAIL_ON, "eror",
                   "SYNCSCOPE_FAIL_ON='eror' is not one of note, warning, error, none (did you "
                   "mean 'error'?)");
    assert_refused(SS_ENV_FAIL_ON, "severe",
                   "SYNCSCOPE_FAIL_ON='severe' is not one of note, warning, error, none");
}
END_TEST

START_TEST(test_kind_format_any_case)
{
    ss_interpose_config c;
    char err[256];
    static const char *const written[][2] = {{"JSON", "json"}, {"gitLAB", "gitlab"}};
    for (size_t i = 0; i < sizeof written / sizeof written[0]; i++) {
        ck_assert_int_eq(load_with(SS_ENV_FORMAT, written[i][0], &c, err, sizeof err), 0);
        ck_assert_str_eq(c.format, written[i][1]);
    }
    /* Every format that run writes, written in upper case, is kept as its name. */
    for (int i = 0; i < SS_FORMAT_COUNT; i++) {
        const ss_format_info *info = ss_format_get((ss_format)i);
        if (!(info->commands & SS_FORMAT_FOR_RUN))
            continue;
        char upper[16];
        size_t len = strlen(info->name);
        ck_assert_uint_lt(len, sizeof upper);
        for (size_t k = 0; k <= len; k++)
            upper[k] = (char)toupper((unsigned char)info->name[k]);
        ck_assert_int_eq(load_with(SS_ENV_FORMAT, upper, &c, err, sizeof err), 0);
        ck_assert_str_eq(c.format, info->name);
    }
    char *names = ss_format_names(SS_FORMAT_FOR_RUN, ", ");
    char *expected = ss_xasprintf("SYNCSCOPE_FORMAT='xml' is not one of %s", names);
    assert_refused(SS_ENV_FORMAT, "xml", expected);
    free(expected);
    expected = ss_xasprintf("SYNCSCOPE_FORMAT='jsonl' is not one of %s", names);
    assert_refused(SS_ENV_FORMAT, "jsonl", expected);
    free(expected);
    free(names);
}
END_TEST

START_TEST(test_kind_cache_folder)
{
    ss_interpose_config c;
    char err[256];
    ck_assert_int_eq(load_with(SS_ENV_SYMBOL_CACHE, "OFF", &c, err, sizeof err), 0);
    ck_assert_str_eq(c.symbol_cache, "");
    ck_assert_int_eq(load_with(SS_ENV_SYMBOL_CACHE, "/srv/symbols", &c, err, sizeof err), 0);
    ck_assert_str_eq(c.symbol_cache, "/srv/symbols");
    ck_assert_int_eq(load_with(SS_ENV_SYMBOL_CACHE, "symbols", &c, err, sizeof err), 0);
    char expected[SS_CONFIG_PATH_MAX + 16];
    snprintf(expected, sizeof expected, "%s/symbols", c.cwd);
    ck_assert_str_eq(c.symbol_cache, expected);
    char *too_long = repeat('s', SS_CONFIG_PATH_MAX);
    assert_refused(SS_ENV_SYMBOL_CACHE, too_long, "SYNCSCOPE_SYMBOL_CACHE is too long");
    free(too_long);
}
END_TEST

/* The SYNCSCOPE_ variables that the public headers of the parts name (#define SS_ENV_X
 * SS_ENV(X) or "SYNCSCOPE_X"), one a line, malloc'ed. */
static char *variables_named_in_headers(void)
{
    static const char *const headers[] = {"interpose/interpose.h", "report/report.h",
                                          "analyzer/analyzer.h"};
    char *names = ss_xstrdup("");
    for (size_t h = 0; h < sizeof headers / sizeof headers[0]; h++) {
        char *path = ss_xasprintf("%s/%s", SS_SOURCE_DIR, headers[h]);
        FILE *in = fopen(path, "r");
        ck_assert_msg(in != NULL, "cannot read %s", path);
        char line[512], macro[128], name[128];
        while (fgets(line, sizeof line, in) != NULL) {
            const char *variable = NULL;
            char *more;
            if (sscanf(line, "#define SS_ENV_%127s SS_ENV(%127[A-Z_])", macro, name) == 2)
                variable = name;
            else if (sscanf(line, "#define SS_ENV_%127s \"SYNCSCOPE_%127[A-Z_]\"", macro, name) ==
                     2)
                variable = name;
            if (variable == NULL)
                continue;
            more = ss_xasprintf("%sSYNCSCOPE_%s\n", names, variable);
            free(names);
            names = more;
        }
        fclose(in);
        free(path);
    }
    return names;
}

/* Whether two read_by columns name the same part (NULL: the interposer). */
static int same_part(const char *a, const char *b)
{
    return a == NULL || b == NULL ? a == b : strcmp(a, b) == 0;
}

/* The rows as data: every variable the code names has its row; each row is well formed, with
 * a doc line and its option columns. */
START_TEST(test_rows)
{
    char *named = variables_named_in_headers();
    size_t found = 0;
    for (char *line = named, *end; (end = strchr(line, '\n')) != NULL; line = end + 1) {
        *end = '\0';
        ck_assert_msg(ss_interpose_setting_find(line) != NULL, "%s has no row in settings.def",
                      line);
        found++;
    }
    /* The headers do name variables (this reads them): the interposer's and RULES_URL. */
    ck_assert_uint_gt(found, 1);
    free(named);
    size_t n;
    const ss_interpose_setting *rows = ss_interpose_settings(&n);
    ck_assert_uint_gt(n, SS_SETTING_COUNT);
    for (size_t i = 0; i < n; i++) {
        const ss_interpose_setting *s = &rows[i];
        ck_assert_msg(strncmp(s->variable, "SYNCSCOPE_", 10) == 0, "%s", s->variable);
        ck_assert_ptr_eq(ss_interpose_setting_find(s->variable), s); /* one row each */
        /* The interposer's rows first, then those another part reads. */
        ck_assert_msg((s->read_by == NULL) == (i < SS_SETTING_COUNT), "%s: read_by", s->variable);
        /* A doc line for the tables, --help and the manual page: ASCII only (troff warns). */
        ck_assert_msg(s->doc[0] != '\0', "%s has no doc line", s->variable);
        for (const char *p = s->doc; *p; p++)
            ck_assert_msg((unsigned char)*p < 0x80, "%s: the doc line is not ASCII", s->variable);
        /* The option columns: none, or a long option (no other row's) and its value. */
        if (s->form == SS_OPTION_FORM_NONE) {
            ck_assert_ptr_null(s->option);
            ck_assert_int_eq(s->short_option, 0);
            continue;
        }
        ck_assert_msg(s->option != NULL && strncmp(s->option, "--", 2) == 0, "%s: option",
                      s->variable);
        ck_assert_ptr_nonnull(s->option_value);
        for (size_t j = 0; j < i; j++)
            ck_assert_msg(rows[j].option == NULL || strcmp(rows[j].option, s->option) != 0 ||
                              !same_part(rows[j].read_by, s->read_by),
                          "%s and %s share %s", rows[j].variable, s->variable, s->option);
    }
    const ss_interpose_setting *rules_url = ss_interpose_setting_find(SS_ENV_RULES_URL);
    ck_assert_ptr_nonnull(rules_url);
    ck_assert_str_eq(rules_url->read_by, "report");
    ck_assert_ptr_null(ss_interpose_setting_find("SYNCSCOPE_NOTHING"));

    const ss_interpose_setting *output = ss_interpose_setting_find(SS_ENV_OUTPUT);
    ck_assert_int_eq(output->form, SS_OPTION_FORM_VALUE);
    ck_assert_str_eq(output->option, "--output");
    ck_assert_int_eq(output->short_option, 'o');
    ck_assert_str_eq(output->option_value, "FILE");
    ck_assert_str_eq(output->kind_name, "PATH");
    ck_assert_str_eq(output->default_value, SS_DEFAULT_OUTPUT);
    const ss_interpose_setting *quiet = ss_interpose_setting_find(SS_ENV_QUIET);
    ck_assert_int_eq(quiet->form, SS_OPTION_FORM_FLAG);
    ck_assert_str_eq(quiet->option, "--quiet");
    ck_assert_int_eq(quiet->short_option, 'q');
    ck_assert_str_eq(quiet->option_value, "1");
    const ss_interpose_setting *attribute = ss_interpose_setting_find(SS_ENV_ATTRIBUTE_TO);
    ck_assert_int_eq(attribute->form, SS_OPTION_FORM_LIST);
    ck_assert_int_eq(attribute->kind, SS_KIND_LIST);
    const ss_interpose_setting *depth = ss_interpose_setting_find(SS_ENV_PYTHON_DEPTH);
    ck_assert_int_eq(depth->form, SS_OPTION_FORM_NONE);
    ck_assert_ptr_null(depth->option);
    ck_assert_uint_eq(depth->limit, SS_MAX_PYTHON_DEPTH);

    /* ss_interpose_setting_set parses one row and leaves the others. */
    ss_interpose_config c;
    memset(&c, 0, sizeof c);
    char err[256];
    ck_assert_int_eq(ss_interpose_setting_set(&c, depth, "12", err, sizeof err), 0);
    ck_assert_uint_eq(c.python_depth, 12);
    ck_assert_str_eq(c.output, "");
    ck_assert_int_eq(ss_interpose_setting_set(&c, depth, NULL, err, sizeof err), 0);
    ck_assert_uint_eq(c.python_depth, 8);
    ck_assert_int_eq(ss_interpose_setting_set(&c, rules_url, "x", err, sizeof err), -1);
    ck_assert_str_eq(err, "SYNCSCOPE_RULES_URL is not read by the interposer");
}
END_TEST

/* The names of the rows of formats.def that a command of 'commands' writes, in the table's
 * order, joined by ", " and 'last' before the last one (malloc'ed). */
static char *joined_names(unsigned commands, const char *last)
{
    size_t count = 0, done = 0;
    for (int i = 0; i < SS_FORMAT_COUNT; i++)
        count += (ss_format_get((ss_format)i)->commands & commands) != 0;
    char *text = ss_xstrdup("");
    for (int i = 0; i < SS_FORMAT_COUNT; i++) {
        const ss_format_info *info = ss_format_get((ss_format)i);
        if (!(info->commands & commands))
            continue;
        done++;
        char *longer = ss_xasprintf("%s%s%s", text,
                                    done == 1       ? ""
                                    : done == count ? last
                                                    : ", ",
                                    info->name);
        free(text);
        text = longer;
    }
    return text;
}

START_TEST(test_format_parse_any_case)
{
    ss_format f = SS_FORMAT_TEXT;
    ck_assert_int_eq(ss_format_parse("JSON", &f), 0);
    ck_assert_int_eq(f, SS_FORMAT_JSON);
    ck_assert_int_eq(ss_format_parse("Html", &f), 0);
    ck_assert_int_eq(f, SS_FORMAT_HTML);
    ck_assert_int_eq(ss_format_parse("gitlab", &f), 0);
    ck_assert_int_eq(f, SS_FORMAT_GITLAB);
    ck_assert_int_eq(ss_format_parse("xml", &f), -1);
    ck_assert_int_eq(ss_format_parse("", &f), -1);
    ck_assert_int_eq(ss_format_parse(NULL, &f), -1);
    ck_assert_int_eq(f, SS_FORMAT_GITLAB);
    for (int i = 0; i < SS_FORMAT_COUNT; i++) {
        const ss_format_info *info = ss_format_get((ss_format)i);
        ck_assert_ptr_nonnull(info);
        ck_assert_int_eq(info->format, i);
        ck_assert_int_eq(ss_format_parse(info->name, &f), 0);
        ck_assert_int_eq(f, i);
    }
    ck_assert_ptr_null(ss_format_get(SS_FORMAT_COUNT));
    for (int i = 0; i < SS_FORMAT_COUNT; i++) {
        for (const char *p = ss_format_get((ss_format)i)->doc; *p; p++)
            ck_assert_msg((unsigned char)*p < 0x80, "%s: the doc line is not ASCII",
                          ss_format_get((ss_format)i)->name);
    }
    ck_assert_str_eq(ss_format_get(SS_FORMAT_SARIF)->extension, "sarif");

    /* The names of each command's formats: the rows that command writes, in the table's
     * order, the last after 'last'; an example of each separator. */
    static const unsigned commands[] = {SS_FORMAT_FOR_LINT, SS_FORMAT_FOR_RUN,
                                        SS_FORMAT_FOR_ANALYZE, SS_FORMAT_FOR_REPORT};
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
        char *names = ss_format_names(commands[c], " or ");
        char *expected = joined_names(commands[c], " or ");
        ck_assert_str_eq(names, expected);
        ck_assert_str_ne(names, "");
        free(expected);
        free(names);
    }
    char *names = ss_format_names(SS_FORMAT_FOR_LINT, " or ");
    ck_assert_int_eq(strncmp(names, "text, json, sarif, ", 19), 0);
    free(names);
    names = ss_format_names(SS_FORMAT_FOR_REPORT, " or ");
    ck_assert_ptr_nonnull(strstr(names, "html"));
    free(names);
    names = ss_format_names(0, " or ");
    ck_assert_str_eq(names, "");
    free(names);
}
END_TEST

/* The dispatch writes through the row's writer: the same bytes as the writer itself. */
START_TEST(test_write_format_dispatch)
{
    ss_result r;
    ss_result_init(&r, SS_RESULT_LINT);
    char *direct = NULL, *dispatched = NULL;
    size_t direct_len = 0, dispatched_len = 0;
    FILE *a = open_memstream(&direct, &direct_len);
    FILE *b = open_memstream(&dispatched, &dispatched_len);
    ck_assert_int_eq(ss_report_write_json(a, &r), 0);
    ck_assert_int_eq(ss_report_write_format(b, SS_FORMAT_JSON, &r, NULL), 0);
    fclose(a);
    fclose(b);
    ck_assert_str_eq(dispatched, direct);
    free(direct);
    free(dispatched);
    FILE *c = open_memstream(&dispatched, &dispatched_len);
    errno = 0;
    ck_assert_int_eq(ss_report_write_format(c, SS_FORMAT_COUNT, &r, NULL), -1);
    ck_assert_int_eq(errno, EINVAL);
    fclose(c);
    free(dispatched);
    ss_result_free(&r);
}
END_TEST

/* `syncscope analyze --format JSON` is `--format json`; an unknown name is refused (exit 2). */
START_TEST(test_cli_format_any_case)
{
    char dir[] = "/tmp/ss-settings-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char *capture = ss_xasprintf("%s/out", dir);
    static const char *const lower[] = {"analyze", "--format", "json",
                                        SS_SOURCE_DIR "/tests/data/readback_loop.sstrace", NULL};
    static const char *const upper[] = {"analyze", "--format", "JSON",
                                        SS_SOURCE_DIR "/tests/data/readback_loop.sstrace", NULL};
    static const char *const unknown[] = {"analyze", "--format", "xml",
                                          SS_SOURCE_DIR "/tests/data/readback_loop.sstrace", NULL};
    char *out_lower, *err_lower, *out_upper, *err_upper, *out, *err;
    int rc_lower = cli_run(dir, capture, NULL, NULL, lower, &out_lower, &err_lower);
    int rc_upper = cli_run(dir, capture, NULL, NULL, upper, &out_upper, &err_upper);
    ck_assert_int_eq(rc_upper, rc_lower);
    ck_assert_ptr_nonnull(strstr(out_lower, "\"format\":\t\"syncscope-result\""));
    ck_assert_str_eq(out_upper, out_lower);
    ck_assert_int_eq(cli_run(dir, capture, NULL, NULL, unknown, &out, &err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_ptr_eq(strstr(err, "syncscope: error: "), err);
    ck_assert_ptr_nonnull(strstr(err, "--format 'xml'"));
    free(out_lower);
    free(err_lower);
    free(out_upper);
    free(err_upper);
    free(out);
    free(err);
    free(capture);
    rmdir(dir);
}
END_TEST

/* The detector thresholds of settings.def and the recorded rows of detect_options.def. */
static const struct {
    const char *variable;
    size_t setting, detector; /* offsets in ss_interpose_config and ss_detect_options */
} thresholds[] = {
#define SS_SETTING_DETECTOR(name, field, kind, detector, option, doc)                              \
    {SS_ENV(name), offsetof(ss_interpose_config, field), offsetof(ss_detect_options, detector)},
#include "settings.def"
};

static const struct {
    const char *field;
    size_t setting, detector;
} recorded[] = {
#define SS_DETECT_RECORDED(field, unit, fallback, setting, replay)                                 \
    {#field, offsetof(ss_interpose_config, setting), offsetof(ss_detect_options, field)},
#include "detect_options.def"
};

static uint64_t member(const void *object, size_t offset)
{
    uint64_t value;
    memcpy(&value, (const char *)object + offset, sizeof value);
    return value;
}

/* Every option column of the interposer's rows is an option of `syncscope run`, in its --help
 * with the row's value name. */
START_TEST(test_run_takes_every_option)
{
    char dir[] = "/tmp/ss-settings-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char *capture = ss_xasprintf("%s/out", dir);
    static const char *const help[] = {"run", "--help", NULL};
    char *out, *err;
    ck_assert_int_eq(cli_run(dir, capture, NULL, NULL, help, &out, &err), 0);
    size_t n, options = 0;
    const ss_interpose_setting *rows = ss_interpose_settings(&n);
    for (size_t i = 0; i < SS_SETTING_COUNT; i++) {
        if (rows[i].form == SS_OPTION_FORM_NONE)
            continue;
        char *shown = rows[i].form == SS_OPTION_FORM_FLAG
                          ? ss_xstrdup(rows[i].option)
                          : ss_xasprintf("%s %s", rows[i].option, rows[i].option_value);
        char *variable = ss_xasprintf("(%s", rows[i].variable);
        ck_assert_msg(strstr(out, shown) != NULL, "%s: run --help has no '%s'", rows[i].variable,
                      shown);
        ck_assert_msg(strstr(out, variable) != NULL, "run --help does not name %s",
                      rows[i].variable);
        options++;
        free(variable);
        free(shown);
    }
    ck_assert_uint_gt(options, 0);
    /* A detector's threshold says the detector's default, "(SYNCSCOPE_MIN_BLOCKED_US; default
     * 5)"; the help wraps its lines, so every run of blanks is made one space first. */
    char *flat = out, *w = out;
    for (const char *r = out; *r; r++) {
        if (isspace((unsigned char)*r) && (w == flat || w[-1] == ' '))
            continue;
        *w++ = isspace((unsigned char)*r) ? ' ' : *r;
    }
    *w = '\0';
    for (size_t i = 0; i < sizeof thresholds / sizeof thresholds[0]; i++) {
        const ss_interpose_setting *row = ss_interpose_setting_find(thresholds[i].variable);
        char *said =
            ss_xasprintf("(%s; default %s)", row->variable, ss_interpose_setting_default(row));
        ck_assert_msg(strstr(flat, said) != NULL, "run --help has no '%s'", said);
        free(said);
    }
    free(out);
    free(err);
    free(capture);
    rmdir(dir);
}
END_TEST

/* A detector's threshold (SS_SETTING_DETECTOR) names its row of detect/detect_options.def,
 * which holds the default: the rows point at each other, the default shown is the detector's
 * (written in the variable, it gives the detector's own value), and unset leaves it to the
 * detector. */
START_TEST(test_detector_defaults)
{
    ss_detect_options defaults;
    ss_detect_options_default(&defaults);
    char err[256];
    for (size_t i = 0; i < sizeof thresholds / sizeof thresholds[0]; i++) {
        const ss_interpose_setting *row = ss_interpose_setting_find(thresholds[i].variable);
        ck_assert_ptr_nonnull(row);
        ck_assert_ptr_nonnull(row->detector);
        ck_assert_str_eq(row->default_value, "");
        /* The default shown, as the variable's value, is the detector's default. */
        const char *shown = ss_interpose_setting_default(row);
        ss_interpose_config config;
        memset(&config, 0, sizeof config);
        ck_assert_int_eq(ss_interpose_setting_set(&config, row, shown, err, sizeof err), 0);
        ck_assert_msg(member(&config, thresholds[i].setting) ==
                          member(&defaults, thresholds[i].detector),
                      "%s: the default shown, %s, is not the detector's %s", row->variable, shown,
                      row->detector);
        /* Unset, the field stays 0 and the detector's default applies. */
        ck_assert_int_eq(ss_interpose_setting_set(&config, row, NULL, err, sizeof err), 0);
        ck_assert_uint_eq(member(&config, thresholds[i].setting), 0);
        /* The row of the detector names this setting back. */
        size_t named = 0;
        for (size_t k = 0; k < sizeof recorded / sizeof recorded[0]; k++) {
            if (recorded[k].detector != thresholds[i].detector)
                continue;
            ck_assert_str_eq(recorded[k].field, row->detector);
            ck_assert_uint_eq(recorded[k].setting, thresholds[i].setting);
            named++;
        }
        ck_assert_msg(named == 1, "%s: %s is not a recorded row of detect_options.def",
                      row->variable, row->detector);
    }
    /* Every recorded row has its threshold setting. */
    for (size_t k = 0; k < sizeof recorded / sizeof recorded[0]; k++) {
        size_t found = 0;
        for (size_t i = 0; i < sizeof thresholds / sizeof thresholds[0]; i++)
            found += thresholds[i].detector == recorded[k].detector;
        ck_assert_msg(found == 1, "%s: no SS_SETTING_DETECTOR row names it", recorded[k].field);
    }
    /* A named row: SYNCSCOPE_MIN_BLOCKED_US shows 5 (us), the detector's 5000 ns. */
    const ss_interpose_setting *min = ss_interpose_setting_find(SS_ENV_MIN_BLOCKED_US);
    ck_assert_str_eq(min->detector, "min_blocked_ns");
    ck_assert_str_eq(ss_interpose_setting_default(min), "5");
    ck_assert_uint_eq(defaults.min_blocked_ns, 5000);
    /* Every other row shows its own default. */
    size_t n;
    const ss_interpose_setting *rows = ss_interpose_settings(&n);
    for (size_t i = 0; i < n; i++) {
        if (rows[i].detector == NULL)
            ck_assert_ptr_eq(ss_interpose_setting_default(&rows[i]), rows[i].default_value);
    }
}
END_TEST

static Suite *settings_suite(void)
{
    Suite *s = suite_create("settings");
    TCase *kinds = tcase_create("kinds");
    tcase_add_test(kinds, test_defaults);
    tcase_add_test(kinds, test_empty_is_unset);
    tcase_add_test(kinds, test_kind_path);
    tcase_add_test(kinds, test_kind_list_and_name);
    tcase_add_test(kinds, test_kind_switch);
    tcase_add_test(kinds, test_kind_size);
    tcase_add_test(kinds, test_kind_micros);
    tcase_add_test(kinds, test_kind_bounded_numbers);
    tcase_add_test(kinds, test_kind_level);
    tcase_add_test(kinds, test_kind_format_any_case);
    tcase_add_test(kinds, test_kind_cache_folder);
    tcase_add_test(kinds, test_kind_modes);
    tcase_add_test(kinds, test_rows);
    tcase_add_test(kinds, test_run_takes_every_option);
    tcase_add_test(kinds, test_detector_defaults);
    suite_add_tcase(s, kinds);
    TCase *formats = tcase_create("formats");
    tcase_add_test(formats, test_format_parse_any_case);
    tcase_add_test(formats, test_write_format_dispatch);
    tcase_add_test(formats, test_cli_format_any_case);
    tcase_set_timeout(formats, 60);
    suite_add_tcase(s, formats);
    return s;
}

SS_CHECK_MAIN(settings_suite)
