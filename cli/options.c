/* options.c: the option table and the one parser every subcommand's command line goes through. */
#include "options.h"
#include "detect.h"
#include "interpose.h"
#include "log.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* How a `syncscope run` option of settings.def sets its variable, spelled as the fields
 * of ss_option that follow 'metavar': long name without "--", short name, metavar, flag value,
 * list, commands, and the macro that turns the row's kind into a value kind. */
#define SS_OPTION_VALUE(long_name, short_name, value)                                              \
    (long_name) + 2, short_name, value, NULL, 0, SS_CMD_RUN, SETTING_TAKES
#define SS_OPTION_FLAG(long_name, short_name, value)                                               \
    (long_name) + 2, short_name, "", value, 0, SS_CMD_RUN, SETTING_FLAG
#define SS_OPTION_LIST(long_name, short_name, value)                                               \
    (long_name) + 2, short_name, value, NULL, 1, SS_CMD_RUN, SETTING_TAKES
#define SS_OPTION_NONE NULL, 0, "", NULL, 0, 0, SETTING_FLAG
#define SETTING_TAKES(kind) SS_SETTING_VALUE_##kind
#define SETTING_FLAG(kind) SS_VALUE_NONE

#define SETTING_ROW(name, kind, limit, default_value, doc, long_name, short_name, metavar, flag,   \
                    list, commands, value_of)                                                      \
    {long_name,          short_name, value_of(kind), metavar,       commands, doc,                 \
     "SYNCSCOPE_" #name, flag,       list,           default_value, limit},
#define SETTING_ROW_EXPANDED(...) SETTING_ROW(__VA_ARGS__)

/* The detectors' defaults as a user writes them, named by their rows of
 * detect/detect_options.def: a detector's threshold (SS_SETTING_DETECTOR) shows its
 * detector's default. */
#define SS_DETECT_OPTION(field, unit, fallback)                                                    \
    static const char detector_default_##field[] = #fallback;
#include "detect_options.def"

static const ss_option options[SS_OPT_COUNT] = {
#define SS_OPTION(id, long_name, short_name, value, metavar, commands, help)                       \
    {long_name, short_name, value, metavar, commands, help, NULL, NULL, 0, "", 0},
#define SS_SETTING(name, field, kind, limit, default_value, option, doc)                           \
    SETTING_ROW_EXPANDED(name, kind, limit, default_value, doc, option)
#define SS_SETTING_DETECTOR(name, field, kind, detector, option, doc)                              \
    SETTING_ROW_EXPANDED(name, kind, 0, detector_default_##detector, doc, option)
#include "options.def"
};

const ss_option *ss_cli_option(ss_opt opt)
{
    return &options[opt];
}

static const ss_command_info commands[] = {
#define SS_COMMAND(id, summary, usage, description, exit_status)                                   \
    {#id, 0, summary, usage, description, exit_status},
#include "commands.def"
};

#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

const ss_command_info *ss_cli_commands(size_t *count)
{
    static ss_command_info numbered[COMMAND_COUNT];
    if (numbered[0].name == NULL) {
        for (size_t i = 0; i < COMMAND_COUNT; i++) {
            numbered[i] = commands[i];
            numbered[i].bit = 1u << i;
        }
    }
    *count = COMMAND_COUNT;
    return numbered;
}

/* The name of subcommand 'command' (an SS_CMD_* bit). */
static const char *command_name(unsigned command)
{
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        if (command == 1u << i)
            return commands[i].name;
    return "?";
}

/* The words an enumerated kind takes, in the order of its 'number', and how a refusal lists
 * them. */
typedef struct word_set {
    const char *words[8];
    const char *listed;
} word_set;

static const word_set level_words = {{"note", "warning", "error", "none"},
                                     "note, warning, error or none"};
static const word_set color_words = {{"auto", "always", "never"}, "auto, always or never"};
static const word_set switch_words = {{"off", "on"}, "on or off"};

/* The index of 'text' among the words of 'set', in any case, or -1. */
static int find_word(const word_set *set, const char *text)
{
    for (int i = 0; i < 8 && set->words[i]; i++)
        if (strcasecmp(text, set->words[i]) == 0)
            return i;
    return -1;
}

/* Parses a whole number, or with 'size' a byte count with an optional K, M, G or T (powers of
 * 1024) that may be followed by "B" or "iB", in any case; or a plain count followed by "B".
 * Returns 0, or -1 when 'text' is not one or overflows. */
static int parse_number(const char *text, int size, uint64_t *out)
{
    uint64_t n = 0;
    const char *p = text;
    if (!isdigit((unsigned char)*p))
        return -1;
    for (; isdigit((unsigned char)*p); p++) {
        unsigned digit = (unsigned)(*p - '0');
        if (n > (UINT64_MAX - digit) / 10)
            return -1;
        n = n * 10 + digit;
    }
    unsigned shift = 0;
    if (size && *p != '\0') {
        const char *unit = strchr("KMGT", toupper((unsigned char)*p));
        if (unit != NULL && *unit != '\0') {
            shift = 10 * (unsigned)(unit - "KMGT" + 1);
            p++;
            if (strcasecmp(p, "ib") == 0)
                p += 2;
        }
        if (strcasecmp(p, "b") == 0)
            p++;
    }
    if (*p != '\0' || (shift && n > (UINT64_MAX >> shift)))
        return -1;
    *out = n << shift;
    return 0;
}

/* What each numeric kind needs, for "OPTION needs WHAT (got 'VALUE')". */
static const char *needs(ss_value_kind kind)
{
    switch (kind) {
    case SS_VALUE_COUNT:
        return "a whole number";
    case SS_VALUE_SIZE:
        return "a size such as 16, 4K or 256M";
    case SS_VALUE_SIZE_OR_0:
        return "a size such as 512M, 4G or 0 (no bound)";
    case SS_VALUE_SECONDS_OR_0:
        return "a number of seconds, or 0 (no bound)";
    case SS_VALUE_JOBS:
        return "a number of jobs from 1 to 1024";
    case SS_VALUE_EXITCODE:
        return "an exit status from 0 to 255";
    case SS_VALUE_BUDGET:
        return "a share of the wall time such as 2% or a duration such as 50ms";
    case SS_VALUE_NAME:
        return "a name of 1 to 255 bytes";
    case SS_VALUE_ROOT:
        return "a folder, or FROM=TO";
    case SS_VALUE_RULE_LEVEL:
        return "RULE=LEVEL";
    default:
        return "a non-empty value";
    }
}

/* Checks the value of a numeric kind into given->number. Returns 0, or -1 when it is not
 * valid. */
static int check_number(const ss_option *row, ss_cli_given *given)
{
    ss_value_kind kind = row->value;
    int size = kind == SS_VALUE_SIZE || kind == SS_VALUE_SIZE_OR_0;
    if (parse_number(given->value, size, &given->number) != 0)
        return -1;
    switch (kind) {
    case SS_VALUE_SIZE:
        return given->number >= row->limit ? 0 : -1;
    case SS_VALUE_JOBS:
        return given->number >= 1 && given->number <= 1024 ? 0 : -1;
    case SS_VALUE_EXITCODE:
        return given->number <= 255 ? 0 : -1;
    default:
        return 0;
    }
}

/* Checks an enumerated kind: the canonical word becomes the value. An unknown word is refused
 * with the nearest word, or with the list when none is near. Returns 0, or -1 with a message
 * printed. */
static int check_word(const word_set *set, ss_cli_given *given)
{
    int i = find_word(set, given->value);
    if (i < 0) {
        size_t n = 0;
        while (n < 8 && set->words[n])
            n++;
        const char *near = ss_suggest(given->value, set->words, n);
        if (near)
            ss_log_error("unknown %s '%s' (did you mean '%s'?)", given->spelled, given->value,
                         near);
        else
            ss_log_error("unknown %s '%s' (%s)", given->spelled, given->value, set->listed);
        return -1;
    }
    given->value = set->words[i];
    given->number = (uint64_t)i;
    return 0;
}

/* Checks a RULE=LEVEL value: the rule must exist (the level is the configuration's to
 * check). Returns 0, or -1 with a message printed. */
static int check_rule_level(ss_cli_given *given)
{
    const char *eq = strchr(given->value, '=');
    if (eq == NULL)
        return -1;
    char *rule = ss_xasprintf("%.*s", (int)(eq - given->value), given->value);
    const ss_rule *found = ss_cli_find_rule(given->spelled, rule);
    free(rule);
    return found ? 0 : -2;
}

unsigned ss_cli_format_commands(unsigned command)
{
    unsigned writes = 0;
    writes |= command & SS_CMD_LINT ? SS_FORMAT_FOR_LINT : 0;
    writes |= command & SS_CMD_RUN ? SS_FORMAT_FOR_RUN : 0;
    writes |= command & SS_CMD_ANALYZE ? SS_FORMAT_FOR_ANALYZE : 0;
    writes |= command & SS_CMD_REPORT ? SS_FORMAT_FOR_REPORT : 0;
    return writes;
}

/* Checks a format's name (report/formats.def, in any case) for 'command': its canonical name
 * becomes the value. Returns 0, or -1 with a message printed. */
static int check_format(unsigned command, ss_cli_given *given)
{
    ss_format format;
    unsigned writes = ss_cli_format_commands(command);
    const ss_format_info *info =
        ss_format_parse(given->value, &format) == 0 ? ss_format_get(format) : NULL;
    if (info != NULL && (info->commands & writes)) {
        given->value = info->name;
        given->number = (uint64_t)format;
        return 0;
    }
    char *names = ss_format_names(writes, " or ");
    const char *candidates[SS_FORMAT_COUNT];
    size_t n = 0;
    for (int f = 0; f < SS_FORMAT_COUNT; f++)
        if (ss_format_get((ss_format)f)->commands & writes)
            candidates[n++] = ss_format_get((ss_format)f)->name;
    const char *near = info == NULL ? ss_suggest(given->value, candidates, n) : NULL;
    if (near != NULL)
        ss_log_error("unknown %s '%s' (did you mean '%s'?)", given->spelled, given->value, near);
    else if (info == NULL)
        ss_log_error("unknown %s '%s' (%s)", given->spelled, given->value, names);
    else
        ss_log_error("%s does not write %s (it writes %s)", command_name(command), info->name,
                     names);
    free(names);
    return -1;
}

/* Checks the value of 'given' as its row's kind says, for subcommand 'command'. Returns 0, or
 * -1 with a message printed. */
static int check_value(unsigned command, const ss_option *row, ss_cli_given *given)
{
    ss_gate gate;
    int rc = 0;
    switch (row->value) {
    case SS_VALUE_NONE:
    case SS_VALUE_TEXT:
    case SS_VALUE_OPTIONAL:
        return 0;
    case SS_VALUE_FORMAT:
        return check_format(command, given);
    case SS_VALUE_LEVEL:
        return check_word(&level_words, given);
    case SS_VALUE_COLOR:
        return check_word(&color_words, given);
    case SS_VALUE_SWITCH:
        return check_word(&switch_words, given);
    case SS_VALUE_RULE:
        return ss_cli_find_rule(given->spelled, given->value) ? 0 : -1;
    case SS_VALUE_RULE_LEVEL:
        rc = check_rule_level(given);
        if (rc == -2)
            return -1;
        break;
    case SS_VALUE_BUDGET:
        ss_gate_init(&gate);
        rc = ss_gate_parse_budget(given->value, &gate);
        break;
    case SS_VALUE_PATH:
        rc = given->value[0] == '\0' ? -1 : 0;
        break;
    case SS_VALUE_NAME:
        rc = given->value[0] == '\0' || strlen(given->value) >= SS_CLI_NAME_MAX ? -1 : 0;
        break;
    case SS_VALUE_ROOT: {
        const char *eq = strchr(given->value, '=');
        rc = given->value[0] == '\0' || (eq && (eq == given->value || eq[1] == '\0')) ? -1 : 0;
        break;
    }
    default:
        rc = check_number(row, given);
        break;
    }
    if (rc != 0) {
        if (row->value == SS_VALUE_SIZE && row->limit > 0)
            ss_log_error("%s needs a size of at least %lluM, such as 256M (got '%s')",
                         given->spelled, (unsigned long long)(row->limit >> 20), given->value);
        else
            ss_cli_refuse(given, row->value);
        return -1;
    }
    return 0;
}

void ss_cli_refuse(const ss_cli_given *given, ss_value_kind kind)
{
    ss_log_error("%s needs %s (got '%s')", given->spelled, needs(kind), given->value);
}

/* The parser's state. */
typedef struct parser {
    unsigned command;
    int argc;
    char **argv;
    int i; /* the argument being read */
    ss_cli_args *out;
} parser;

/* The row of this subcommand with long name 'name' ('len' bytes), or NULL. */
static const ss_option *find_long(unsigned command, const char *name, size_t len)
{
    for (size_t k = 0; k < SS_OPT_COUNT; k++) {
        const ss_option *row = &options[k];
        if ((row->commands & command) && row->long_name && strlen(row->long_name) == len &&
            strncmp(row->long_name, name, len) == 0)
            return row;
    }
    return NULL;
}

/* The row of this subcommand with short name 'c', or NULL. */
static const ss_option *find_short(unsigned command, char c)
{
    for (size_t k = 0; k < SS_OPT_COUNT; k++)
        if ((options[k].commands & command) && options[k].short_name == c)
            return &options[k];
    return NULL;
}

/* Refuses 'word', an unknown option, with the nearest option of the subcommand when one is
 * near. */
static void unknown_option(unsigned command, const char *word)
{
    const char *names[SS_OPT_COUNT];
    char *spelled[SS_OPT_COUNT];
    size_t n = 0;
    for (size_t k = 0; k < SS_OPT_COUNT; k++) {
        if ((options[k].commands & command) && options[k].long_name) {
            spelled[n] = ss_xasprintf("--%s", options[k].long_name);
            names[n] = spelled[n];
            n++;
        }
    }
    const char *near = ss_suggest(word, names, n);
    if (near)
        ss_log_error("unknown option '%s' (did you mean '%s'?)", word, near);
    else
        ss_log_error("unknown option '%s' (see syncscope %s --help)", word, command_name(command));
    for (size_t k = 0; k < n; k++)
        free(spelled[k]);
}

/* Records option 'row' as spelled 'spelled' ('len' bytes) with 'value' (NULL: none) after
 * checking the value. Returns 0, or -1 with a message printed. */
static int record(parser *p, const ss_option *row, const char *spelled, size_t len,
                  const char *value)
{
    ss_cli_given *given = &p->out->given[p->out->given_count++];
    given->opt = (ss_opt)(row - options);
    given->spelled = ss_xasprintf("%.*s", (int)len, spelled);
    given->value = value;
    given->number = 0;
    given->operands_before = p->out->operand_count;
    return value != NULL ? check_value(p->command, row, given) : 0;
}

/* The value of 'row' that follows its name: 'attached' ("--x=V", "-xV"), else the next
 * argument. Sets '*value' (NULL for a switch and an absent optional value). Returns 0, or -1
 * with a message printed. */
static int take_value(parser *p, const ss_option *row, const char *spelled, size_t len,
                      const char *attached, const char **value)
{
    *value = NULL;
    if (row->value == SS_VALUE_NONE) {
        if (attached != NULL) {
            ss_log_error("option '%.*s' takes no value (got '%s')", (int)len, spelled, attached);
            return -1;
        }
        return 0;
    }
    if (attached != NULL) {
        *value = attached;
        return 0;
    }
    const char *next = p->i + 1 < p->argc ? p->argv[p->i + 1] : NULL;
    if (row->value == SS_VALUE_OPTIONAL) {
        if (next != NULL && next[0] != '-')
            *value = p->argv[++p->i];
        return 0;
    }
    if (next == NULL) {
        ss_log_error("option '%.*s' needs a value", (int)len, spelled);
        return -1;
    }
    *value = p->argv[++p->i];
    return 0;
}

/* Reads the long option at argv[i] ("--name", "--name=VALUE"). Returns 0, or -1 with a
 * message printed. */
static int parse_long(parser *p)
{
    const char *arg = p->argv[p->i];
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    const ss_option *row = find_long(p->command, arg + 2, len - 2);
    if (row == NULL) {
        char *word = ss_xasprintf("%.*s", (int)len, arg);
        unknown_option(p->command, word);
        free(word);
        return -1;
    }
    const char *value;
    if (take_value(p, row, arg, len, eq ? eq + 1 : NULL, &value) != 0)
        return -1;
    return record(p, row, arg, len, value);
}

/* Reads the short options at argv[i] ("-q", "-qv", "-j4", "-o FILE"). Returns 0, or -1 with
 * a message printed. */
static int parse_short(parser *p)
{
    const char *arg = p->argv[p->i];
    for (size_t k = 1; arg[k] != '\0'; k++) {
        const ss_option *row = find_short(p->command, arg[k]);
        if (row == NULL && k == 1) {
            unknown_option(p->command, arg);
            return -1;
        }
        if (row == NULL) {
            ss_log_error("unknown option '-%c' in '%s' (see syncscope %s --help)", arg[k], arg,
                         command_name(p->command));
            return -1;
        }
        char spelled[3] = {'-', arg[k], '\0'};
        const char *attached = row->value != SS_VALUE_NONE && arg[k + 1] ? arg + k + 1 : NULL;
        const char *value;
        if (take_value(p, row, spelled, 2, attached, &value) != 0 ||
            record(p, row, spelled, 2, value) != 0)
            return -1;
        if (row->value != SS_VALUE_NONE)
            break;
    }
    return 0;
}

int ss_cli_parse(unsigned command, int argc, char **argv, int stop_at_operand, ss_cli_args *out)
{
    memset(out, 0, sizeof *out);
    out->command = command;
    out->given = ss_xcalloc((size_t)argc + 1, sizeof *out->given);
    out->operands = ss_xcalloc((size_t)argc + 1, sizeof *out->operands);
    parser p = {command, argc, argv, 1, out};
    int options_done = 0;
    for (; p.i < argc; p.i++) {
        char *arg = argv[p.i];
        if (options_done || arg[0] != '-' || arg[1] == '\0') {
            out->operands[out->operand_count++] = arg;
            options_done |= stop_at_operand;
        } else if (strcmp(arg, "--") == 0) {
            options_done = 1;
        } else if ((arg[1] == '-' ? parse_long(&p) : parse_short(&p)) != 0) {
            return -1;
        } else if (ss_cli_has(out, SS_OPT_HELP)) {
            ss_cli_write_help(stdout, command);
            return 1;
        }
    }
    return 0;
}

void ss_cli_args_free(ss_cli_args *args)
{
    for (size_t i = 0; i < args->given_count; i++)
        free((char *)args->given[i].spelled);
    free(args->given);
    free(args->operands);
    memset(args, 0, sizeof *args);
}

const ss_cli_given *ss_cli_last(const ss_cli_args *args, ss_opt opt)
{
    for (size_t i = args->given_count; i > 0; i--)
        if (args->given[i - 1].opt == opt)
            return &args->given[i - 1];
    return NULL;
}

const char *ss_cli_value(const ss_cli_args *args, ss_opt opt)
{
    const ss_cli_given *given = ss_cli_last(args, opt);
    return given ? given->value : NULL;
}

int ss_cli_has(const ss_cli_args *args, ss_opt opt)
{
    return ss_cli_last(args, opt) != NULL;
}

int ss_cli_color(const ss_cli_args *args, int terminal)
{
    const ss_cli_given *color = ss_cli_last(args, SS_OPT_COLOR);
    if (color != NULL && color->number != SS_COLOR_AUTO)
        return color->number == SS_COLOR_ALWAYS;
    const char *no_color = getenv("NO_COLOR");
    return terminal && (no_color == NULL || no_color[0] == '\0');
}
