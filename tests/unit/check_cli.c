/* check_cli.c: the one option table (cli/options.def and the rows of settings.def) and its
 * parser: the table's invariants, parsed command lines, --root mappings, and colour on a terminal
 * under NO_COLOR (the command on a pty). */
#include "check_main.h"
#include "cli.h"
#include "cli_fixture.h"
#include "log.h"
#include "options.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define TRACE SS_SOURCE_DIR "/tests/data/gpu_sync301_scalar_readback.sstrace"

/* The subcommands' bits, each once. */
static const unsigned every_command[] = {SS_CMD_LINT,   SS_CMD_RUN,   SS_CMD_ANALYZE,
                                         SS_CMD_REPORT, SS_CMD_RULES, SS_CMD_EXPLAIN};

START_TEST(test_names_unique_per_command)
{
    for (size_t c = 0; c < sizeof every_command / sizeof every_command[0]; c++) {
        for (int a = 0; a < SS_OPT_COUNT; a++) {
            const ss_option *x = ss_cli_option((ss_opt)a);
            if (!(x->commands & every_command[c]))
                continue;
            for (int b = a + 1; b < SS_OPT_COUNT; b++) {
                const ss_option *y = ss_cli_option((ss_opt)b);
                if (!(y->commands & every_command[c]))
                    continue;
                ck_assert_msg(
                    !(x->long_name && y->long_name && strcmp(x->long_name, y->long_name) == 0),
                    "--%s twice in one command", x->long_name);
                ck_assert_msg(!(x->short_name && x->short_name == y->short_name),
                              "-%c twice in one command", x->short_name);
            }
        }
    }
}
END_TEST

START_TEST(test_rows_complete)
{
    for (int k = 0; k < SS_OPT_COUNT; k++) {
        const ss_option *row = ss_cli_option((ss_opt)k);
        if (row->commands == 0) {
            /* A variable without an option (settings.def). */
            ck_assert_ptr_nonnull(row->variable);
            continue;
        }
        ck_assert_msg(row->long_name || row->short_name, "row %d has no name", k);
        ck_assert_msg(row->help[0] != '\0', "row %d has no help", k);
        ck_assert_msg((row->value == SS_VALUE_NONE) == (row->metavar[0] == '\0'),
                      "row %d: a switch has no metavar, a value has one", k);
        if (row->variable != NULL) {
            ck_assert_int_eq(row->commands, SS_CMD_RUN);
            ck_assert(strncmp(row->variable, "SYNCSCOPE_", 10) == 0);
        }
    }
    for (size_t c = 0; c < sizeof every_command / sizeof every_command[0]; c++)
        ck_assert(ss_cli_option(SS_OPT_HELP)->commands & every_command[c]);
}
END_TEST

/* Every line of every --help is ASCII (the manual page is made from it) and at most 80
 * columns wide. */
START_TEST(test_help_lines)
{
    for (size_t c = 0; c < sizeof every_command / sizeof every_command[0]; c++) {
        char *text = NULL;
        size_t size = 0;
        FILE *out = open_memstream(&text, &size);
        ss_cli_write_help(out, every_command[c]);
        fclose(out);
        ck_assert(strncmp(text, "usage: syncscope ", 17) == 0);
        for (const char *line = text; *line;) {
            size_t len = strcspn(line, "\n");
            ck_assert_msg(len <= 80, "a help line of %zu columns: %.*s", len, (int)len, line);
            for (size_t i = 0; i < len; i++)
                ck_assert_msg((unsigned char)line[i] < 0x80, "not ASCII: %.*s", (int)len, line);
            line += len + (line[len] == '\n');
        }
        free(text);
    }
}
END_TEST

/* Parses 'argv' (NULL-terminated) for 'command'. Returns the parser's result. */
static int parse(unsigned command, int stop, const char *const *argv, ss_cli_args *args)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    return ss_cli_parse(command, argc, (char **)argv, stop, args);
}

START_TEST(test_parse)
{
    ss_cli_args a;
    const char *analyze[] = {"analyze", "--format=JSON", "-qv", "t.sstrace", "-oout.txt", NULL};
    ck_assert_int_eq(parse(SS_CMD_ANALYZE, 0, analyze, &a), 0);
    ck_assert_str_eq(ss_cli_value(&a, SS_OPT_FORMAT), "json");
    ck_assert(ss_cli_has(&a, SS_OPT_QUIET) && ss_cli_has(&a, SS_OPT_TRACE_VERBOSE));
    ck_assert_str_eq(ss_cli_value(&a, SS_OPT_OUTPUT), "out.txt");
    ck_assert_uint_eq(a.operand_count, 1);
    ck_assert_str_eq(a.operands[0], "t.sstrace");
    ss_cli_args_free(&a);

    const char *lint[] = {"lint", "-j4", "a.cu", "--jobs", "8", "--", "-b.cu", NULL};
    ck_assert_int_eq(parse(SS_CMD_LINT, 0, lint, &a), 0);
    ck_assert_uint_eq(ss_cli_last(&a, SS_OPT_JOBS)->number, 8);
    ck_assert_str_eq(ss_cli_last(&a, SS_OPT_JOBS)->spelled, "--jobs");
    ck_assert_str_eq(a.given[0].spelled, "-j");
    ck_assert_uint_eq(a.operand_count, 2);
    ck_assert_str_eq(a.operands[1], "-b.cu");
    ss_cli_args_free(&a);

    const char *dump[] = {"lint", "--dump-config", "-j2", "--dump-config", "src", NULL};
    ck_assert_int_eq(parse(SS_CMD_LINT, 0, dump, &a), 0);
    ck_assert_ptr_null(a.given[0].value);
    ck_assert_str_eq(ss_cli_value(&a, SS_OPT_DUMP_CONFIG), "src");
    ss_cli_args_free(&a);

    /* run: the first operand is the program; what follows is its own. */
    const char *run[] = {"run", "-q", "--format", "Sarif", "prog", "--format", "x", NULL};
    ck_assert_int_eq(parse(SS_CMD_RUN, 1, run, &a), 0);
    ck_assert_str_eq(ss_cli_value(&a, SS_OPT_SET_FORMAT), "sarif");
    ck_assert_str_eq(ss_cli_option(SS_OPT_SET_QUIET)->flag_value, "1");
    ck_assert_uint_eq(a.given_count, 2);
    ck_assert_uint_eq(a.operand_count, 3);
    ss_cli_args_free(&a);

    /* report: a --trace belongs to the input before it. */
    const char *report[] = {"report", "a.json", "--trace", "a.sstrace", "b.json", NULL};
    ck_assert_int_eq(parse(SS_CMD_REPORT, 0, report, &a), 0);
    ck_assert_uint_eq(ss_cli_last(&a, SS_OPT_REPORT_TRACE)->operands_before, 1);
    ss_cli_args_free(&a);

    /* Refused: an option of another subcommand, a bad value, a missing value. */
    const char *other[] = {"analyze", "--fix", NULL};
    ck_assert_int_eq(parse(SS_CMD_ANALYZE, 0, other, &a), -1);
    ss_cli_args_free(&a);
    const char *bad[] = {"analyze", "--min-blocked-us", "5us", NULL};
    ck_assert_int_eq(parse(SS_CMD_ANALYZE, 0, bad, &a), -1);
    ss_cli_args_free(&a);
    const char *missing[] = {"report", "--title", NULL};
    ck_assert_int_eq(parse(SS_CMD_REPORT, 0, missing, &a), -1);
    ss_cli_args_free(&a);
    const char *size[] = {"lint", "--max-memory", "4GiB", "--readback-bytes", "1K", NULL};
    ck_assert_int_eq(parse(SS_CMD_LINT, 0, size, &a), 0);
    ck_assert_uint_eq(ss_cli_last(&a, SS_OPT_LINT_MAX_MEMORY)->number, 4ull << 30);
    ck_assert_uint_eq(ss_cli_last(&a, SS_OPT_READBACK_BYTES)->number, 1024);
    ss_cli_args_free(&a);
}
END_TEST

/* 'path' mapped by --root 'value', or NULL. Malloc'ed. */
static char *mapped(const char *value, const char *path)
{
    ss_cli_root root;
    ck_assert_int_eq(ss_cli_root_parse(value, &root), 0);
    char *out = ss_cli_root_map(&root, path);
    ss_cli_root_free(&root);
    return out;
}

START_TEST(test_root)
{
    char *m = mapped("/builds/ci/proj=/home/me/proj", "/builds/ci/proj/src/a.cu");
    ck_assert_str_eq(m, "/home/me/proj/src/a.cu");
    free(m);
    m = mapped("/builds/ci/proj/=/home/me/proj/", "/builds/ci/proj");
    ck_assert_str_eq(m, "/home/me/proj");
    free(m);
    ck_assert_ptr_null(mapped("/builds/ci/proj=/home/me/proj", "/builds/ci/projx/a.cu"));
    ck_assert_ptr_null(mapped("/builds/ci/proj=/home/me/proj", "src/a.cu"));
    ck_assert_ptr_null(mapped("/home/me/proj", "/home/me/proj/a.cu")); /* DIR maps nothing */
    m = mapped("/=/mnt/other", "/usr/include/x.h");
    ck_assert_str_eq(m, "/mnt/other/usr/include/x.h");
    free(m);
    m = mapped("/src=/", "/src/a.cu");
    ck_assert_str_eq(m, "/a.cu");
    free(m);

    /* The whole result: findings, frames, via, diagnostics and its root. */
    ss_result result;
    ss_result_init(&result, SS_RESULT_RUN);
    ss_finding *f = ss_result_add(&result);
    f->file = ss_xstrdup("/b/p/a.cu");
    f->via_file = ss_xstrdup("/b/p/lib/l.h");
    f->frames = ss_xcalloc(2, sizeof *f->frames);
    f->frame_count = 2;
    f->frames[0].file = ss_xstrdup("/usr/include/x.h");
    f->frames[1].file = ss_xstrdup("/b/p/a.cu");
    result.root = ss_xstrdup("/b/p/build");
    ss_cli_root root;
    ck_assert_int_eq(ss_cli_root_parse("/b/p=/l/q", &root), 0);
    ss_cli_root_apply(&root, &result);
    ck_assert_str_eq(f->file, "/l/q/a.cu");
    ck_assert_str_eq(f->via_file, "/l/q/lib/l.h");
    ck_assert_str_eq(f->frames[0].file, "/usr/include/x.h");
    ck_assert_str_eq(f->frames[1].file, "/l/q/a.cu");
    ck_assert_str_eq(result.root, "/l/q/build");
    ss_cli_root_free(&root);
    ss_result_free(&result);
}
END_TEST

/* Runs syncscope with 'argv' (NULL-terminated, without the program name) with its standard
 * output on a terminal, and NO_COLOR set to 'no_color' (NULL: unset). Returns what it wrote,
 * carriage returns left out (malloc'ed). */
static char *on_terminal(const char *const *argv, const char *no_color)
{
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    ck_assert_int_ge(master, 0);
    ck_assert_int_eq(grantpt(master), 0);
    ck_assert_int_eq(unlockpt(master), 0);
    char *slave_name = ptsname(master);
    ck_assert_ptr_nonnull(slave_name);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        setsid();
        int slave = open(slave_name, O_RDWR);
        int null = open("/dev/null", O_RDWR);
        if (slave < 0 || null < 0)
            _exit(127);
        dup2(null, 0);
        dup2(slave, 1);
        dup2(null, 2);
        if (no_color)
            setenv("NO_COLOR", no_color, 1);
        else
            unsetenv("NO_COLOR");
        const char *args[16] = {SYNCSCOPE};
        for (size_t k = 0; argv[k] && k < 14; k++)
            args[k + 1] = argv[k];
        execv(SYNCSCOPE, (char *const *)args);
        _exit(127);
    }
    char *text = ss_xcalloc(1, 1 << 20);
    size_t n = 0;
    for (;;) {
        ssize_t got = read(master, text + n, (1 << 20) - 1 - n);
        if (got > 0) {
            n += (size_t)got;
            continue;
        }
        if (got < 0 && errno == EINTR)
            continue;
        break; /* EIO: the terminal's other side is closed */
    }
    close(master);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (text[i] != '\r')
            text[kept++] = text[i];
    text[kept] = '\0';
    return text;
}

/* What syncscope writes to a pipe for 'argv'. */
static char *on_pipe(const char *const *argv)
{
    char *out, *err;
    cli_run(".", "check_cli_color", NULL, NULL, argv, &out, &err);
    free(err);
    return out;
}

START_TEST(test_color_on_a_terminal)
{
    const char *always[] = {"analyze", "--color=always", TRACE, NULL};
    const char *plain[] = {"analyze", TRACE, NULL};
    const char *never[] = {"analyze", "--color", "never", TRACE, NULL};
    char *colored = on_pipe(always);
    char *uncolored = on_pipe(plain);
    ck_assert_ptr_nonnull(strstr(colored, "\033[0;1;35mwarning: \033[0m"));
    ck_assert_ptr_null(strchr(uncolored, '\033'));
    struct {
        const char *const *argv;
        const char *no_color;
        const char *expected;
    } cases[] = {
        {plain, NULL, colored},   /* a terminal: colour */
        {plain, "", colored},     /* NO_COLOR empty is NO_COLOR unset */
        {plain, "1", uncolored},  /* NO_COLOR set and not empty: none */
        {always, "1", colored},   /* --color always beats NO_COLOR */
        {never, NULL, uncolored}, /* --color never on a terminal */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = on_terminal(cases[i].argv, cases[i].no_color);
        ck_assert_msg(strcmp(got, cases[i].expected) == 0, "case %zu: %s", i, got);
        free(got);
    }
    free(colored);
    free(uncolored);
}
END_TEST

/* Replays a trace that recorded 'key' as a value other than the detector's default, alone and
 * with the row's analyze option given: analyze takes the recorded value, and the option
 * replaces it (in the option's unit). */
static void check_recorded(const char *key, size_t offset, uint64_t unit, ss_opt opt)
{
    ss_detect_options defaults;
    ss_detect_options_default(&defaults);
    uint64_t fallback = *(const uint64_t *)((const char *)&defaults + offset);
    uint64_t recorded = fallback + 3 * unit;
    ss_event_log log;
    ck_assert_int_eq(ss_evlog_init(&log), 0);
    char text[32];
    snprintf(text, sizeof text, "%llu", (unsigned long long)recorded);
    ck_assert_int_eq(ss_evlog_set_meta(&log, key, text), 0);
    ss_cli_detect d;
    ss_cli_detect_init(&d, &log, NULL, NULL, "run.trace", 0);
    ck_assert_msg(*(uint64_t *)((char *)&d.options + offset) == recorded,
                  "%s: the recorded %s was not replayed", key, text);
    ss_cli_detect_free(&d);

    char *name = ss_xasprintf("--%s", ss_cli_option(opt)->long_name);
    const char *argv[] = {"analyze", name, "7", "run.trace", NULL};
    ss_cli_args args;
    ck_assert_int_eq(parse(SS_CMD_ANALYZE, 0, argv, &args), 0);
    ss_cli_detect_init(&d, &log, &args, NULL, "run.trace", 0);
    ck_assert_msg(*(uint64_t *)((char *)&d.options + offset) == 7 * unit,
                  "%s: %s 7 did not replace the recorded value", key, name);
    ss_cli_detect_free(&d);
    ss_cli_args_free(&args);
    free(name);
    ss_evlog_free(&log);
}

/* Every detector option a run records in its trace (the SS_DETECT_RECORDED rows of
 * detect/detect_options.def) is honoured by analyze. */
START_TEST(test_recorded_options_replayed)
{
    size_t rows = 0;
#define SS_DETECT_REPLAY(id, long_name, value, metavar, help) SS_OPT_##id
#define SS_DETECT_REPLAY_SHARED(id) SS_OPT_##id
#define SS_DETECT_RECORDED(field, unit, fallback, setting, replay)                                 \
    check_recorded(#field, offsetof(ss_detect_options, field), unit, replay);                      \
    rows++;
#include "detect_options.def"
#undef SS_DETECT_REPLAY
#undef SS_DETECT_REPLAY_SHARED
    /* min_blocked_ns, readback_max_bytes and slack_ns at least. */
    ck_assert_uint_ge(rows, 3);
}
END_TEST

static Suite *cli_suite(void)
{
    Suite *s = suite_create("cli");
    TCase *table = tcase_create("table");
    tcase_add_test(table, test_names_unique_per_command);
    tcase_add_test(table, test_rows_complete);
    tcase_add_test(table, test_help_lines);
    suite_add_tcase(s, table);
    TCase *parser = tcase_create("parse");
    tcase_add_test(parser, test_parse);
    tcase_add_test(parser, test_root);
    tcase_add_test(parser, test_recorded_options_replayed);
    suite_add_tcase(s, parser);
    TCase *color = tcase_create("color");
    tcase_set_timeout(color, 60);
    tcase_add_test(color, test_color_on_a_terminal);
    suite_add_tcase(s, color);
    return s;
}

SS_CHECK_MAIN(cli_suite)
