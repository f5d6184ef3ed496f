/* options.h: the one command-line parser of every syncscope subcommand, driven by the option
 * table (cli/options.def) and the subcommand table (cli/commands.def). */
#ifndef SS_CLI_OPTIONS_H
#define SS_CLI_OPTIONS_H

#include "report.h"

#include <stdint.h>
#include <stdio.h>

/* The subcommands, one bit each, in the order of cli/commands.def. */
enum {
    SS_CMD_LINT = 1 << 0,
    SS_CMD_RUN = 1 << 1,
    SS_CMD_ANALYZE = 1 << 2,
    SS_CMD_REPORT = 1 << 3,
    SS_CMD_RULES = 1 << 4,
    SS_CMD_EXPLAIN = 1 << 5,
    SS_CMD_ALL = (1 << 6) - 1
};

/* What an option takes, and how the parser checks it before any subcommand sees it. */
typedef enum ss_value_kind {
    SS_VALUE_NONE,         /* a switch */
    SS_VALUE_TEXT,         /* any text, even empty */
    SS_VALUE_PATH,         /* a non-empty path */
    SS_VALUE_NAME,         /* a non-empty name shorter than SS_CLI_NAME_MAX bytes */
    SS_VALUE_OPTIONAL,     /* an optional path: "--x=PATH", or the next argument unless it
                            * starts with '-' */
    SS_VALUE_FORMAT,       /* an output format, in any case */
    SS_VALUE_LEVEL,        /* note, warning, error or none, in any case */
    SS_VALUE_COLOR,        /* auto, always or never, in any case; 'number' SS_COLOR_* */
    SS_VALUE_SWITCH,       /* on or off, in any case; 'number' 1 or 0 */
    SS_VALUE_COUNT,        /* a whole number */
    SS_VALUE_SIZE,         /* a byte count with an optional K, M, G or T (powers of 1024) */
    SS_VALUE_SIZE_OR_0,    /* a size as above; 0 for no bound */
    SS_VALUE_SECONDS_OR_0, /* a number of seconds; 0 for no bound */
    SS_VALUE_JOBS,         /* a number of jobs from 1 to 1024 */
    SS_VALUE_EXITCODE,     /* an exit status from 0 to 255 */
    SS_VALUE_BUDGET,       /* a blocked-time budget: 2%, 50ms */
    SS_VALUE_RULE,         /* a rule's ID or name */
    SS_VALUE_RULE_LEVEL,   /* RULE=LEVEL with LEVEL note, warning or error */
    SS_VALUE_ROOT          /* DIR, or FROM=TO: a path mapping */
} ss_value_kind;

enum { SS_COLOR_AUTO, SS_COLOR_ALWAYS, SS_COLOR_NEVER };
#define SS_CLI_NAME_MAX 256

/* The parser kind of each SS_SETTING row (interpose/settings.def) as a value kind. */
#define SS_SETTING_VALUE_PATH SS_VALUE_PATH
#define SS_SETTING_VALUE_LIST SS_VALUE_PATH
#define SS_SETTING_VALUE_CACHE_FOLDER SS_VALUE_PATH
#define SS_SETTING_VALUE_NAME SS_VALUE_NAME
#define SS_SETTING_VALUE_LEVEL SS_VALUE_LEVEL
#define SS_SETTING_VALUE_FORMAT SS_VALUE_FORMAT
#define SS_SETTING_VALUE_COLOR SS_VALUE_COLOR
#define SS_SETTING_VALUE_SWITCH SS_VALUE_SWITCH
#define SS_SETTING_VALUE_SIZE SS_VALUE_SIZE
#define SS_SETTING_VALUE_MICROS SS_VALUE_COUNT
#define SS_SETTING_VALUE_MILLIS SS_VALUE_COUNT
#define SS_SETTING_VALUE_FRAMES SS_VALUE_COUNT
#define SS_SETTING_VALUE_EXIT_STATUS SS_VALUE_EXITCODE
#define SS_SETTING_VALUE_MODE SS_VALUE_NAME   /* checked by the interposer's parser (run.c) */
#define SS_SETTING_VALUE_SAMPLE SS_VALUE_NAME /* likewise */
#define SS_SETTING_VALUE_SECONDS SS_VALUE_COUNT
#define SS_SETTING_VALUE_PROBE SS_VALUE_NAME

/* SS_OPT_<id> for each row of cli/options.def, SS_OPT_SET_<name> for each of settings.def. */
typedef enum ss_opt {
#define SS_OPTION(id, long_name, short_name, value, metavar, commands, help) SS_OPT_##id,
#define SS_SETTING(name, field, kind, limit, default_value, option, doc) SS_OPT_SET_##name,
#include "options.def"
    SS_OPT_COUNT
} ss_opt;

/* One row of cli/options.def or of interpose/settings.def. */
typedef struct ss_option {
    const char *long_name; /* without "--"; NULL: a short name only */
    char short_name;       /* 0: none */
    ss_value_kind value;
    const char *metavar;
    unsigned commands; /* SS_CMD_* bits; 0: a variable with no option */
    const char *help;  /* plain text; Markdown for the rows of settings.def */
    /* The rows of settings.def (syncscope run); NULL and 0 for those of options.def. */
    const char *variable;      /* "SYNCSCOPE_OUTPUT" */
    const char *flag_value;    /* a switch: the value it sets the variable to */
    int list;                  /* repeatable: the values, made absolute, joined with ':' */
    const char *default_value; /* as written in the variable ("" none); a detector's threshold:
                                  the detector's default (detect/detect_options.def) */
    uint64_t limit;            /* a size's smallest value; 0 none */
} ss_option;

/* The row of 'opt'. */
const ss_option *ss_cli_option(ss_opt opt);

/* One subcommand of cli/commands.def. */
typedef struct ss_command_info {
    const char *name;
    unsigned bit; /* SS_CMD_* */
    const char *summary, *usage, *description, *exit_status;
} ss_command_info;

/* The subcommands, in --help order; '*count' is set to their number. */
const ss_command_info *ss_cli_commands(size_t *count);

/* One option as the command line gave it. */
typedef struct ss_cli_given {
    ss_opt opt;
    const char *spelled;    /* as written, without "=VALUE": "-j", "--format" */
    const char *value;      /* NULL for a switch and an absent optional value; for formats,
                             * levels, colours and switches the canonical lower-case word */
    uint64_t number;        /* the parsed value of the numeric, format, colour and switch kinds */
    size_t operands_before; /* how many operands came before it (report's --trace) */
} ss_cli_given;

/* A parsed command line: the options in the order given, and the operands. */
typedef struct ss_cli_args {
    unsigned command; /* SS_CMD_* */
    ss_cli_given *given;
    size_t given_count;
    char **operands; /* point into argv; for run, the program and its arguments */
    size_t operand_count;
} ss_cli_args;

/* Parses the arguments of subcommand 'command' (argv[0] is the subcommand's name): long
 * options as "--name VALUE" or "--name=VALUE", short ones as "-x VALUE" or "-xVALUE", switches
 * bundled ("-qv"), "--" ends the options. With 'stop_at_operand' (run) the first operand ends
 * them too. Every value is checked as its row's kind says. An unknown option is refused with
 * the nearest option of this subcommand suggested. Returns 0; 1 when --help was given (the
 * help written to standard output); -1 with a message printed (exit 2). 'out' is freed with
 * ss_cli_args_free in every case. */
int ss_cli_parse(unsigned command, int argc, char **argv, int stop_at_operand, ss_cli_args *out);
void ss_cli_args_free(ss_cli_args *args);

/* The last occurrence of 'opt', or NULL when it was not given. */
const ss_cli_given *ss_cli_last(const ss_cli_args *args, ss_opt opt);
/* The value of the last occurrence of 'opt', or NULL. */
const char *ss_cli_value(const ss_cli_args *args, ss_opt opt);
/* Whether 'opt' was given. */
int ss_cli_has(const ss_cli_args *args, ss_opt opt);

/* The SS_FORMAT_FOR_* bits (report/formats.def) of the subcommands in 'command'. */
unsigned ss_cli_format_commands(unsigned command);

/* Refuses the value of 'given' as not of 'kind': "OPTION needs WHAT (got 'VALUE')". */
void ss_cli_refuse(const ss_cli_given *given, ss_value_kind kind);

/* Whether text output is coloured: --color always, or auto (and no --color) when 'terminal'
 * and NO_COLOR is unset or empty (https://no-color.org). */
int ss_cli_color(const ss_cli_args *args, int terminal);

/* Writes the --help of 'command' (an SS_CMD_* bit) to 'out'. */
void ss_cli_write_help(FILE *out, unsigned command);
/* Writes the options of 'command' as a Markdown table (the docs tables). Returns 0, or -1
 * when writing failed. */
int ss_cli_write_markdown(FILE *out, unsigned command);

/* A path mapping of --root FROM=TO: 'from' and 'to' without a trailing '/' (malloc'ed);
 * 'from' NULL for a plain --root DIR, where 'to' is DIR. */
typedef struct ss_cli_root {
    char *from;
    char *to;
} ss_cli_root;

/* Parses a --root value into 'root' (absolute and normalized against the current folder).
 * Returns 0, or -1 with a message printed. */
int ss_cli_root_parse(const char *value, ss_cli_root *root);
void ss_cli_root_free(ss_cli_root *root);
/* 'path' with the mapping of 'root' applied: under FROM, the same path under TO; else NULL.
 * Malloc'ed. */
char *ss_cli_root_map(const ss_cli_root *root, const char *path);
/* Applies the mapping of 'root' to every path of 'result': findings, frames, via,
 * diagnostics and the result's own root. */
void ss_cli_root_apply(const ss_cli_root *root, ss_result *result);

/* Checks that 'key' names a rule. Returns the rule, or NULL with "CONTEXT: unknown rule
 * 'KEY'" printed ('context' NULL: no prefix), followed by "(did you mean 'X'?)" when one is
 * near, else by "(syncscope rules lists them)". */
const ss_rule *ss_cli_find_rule(const char *context, const char *key);

#endif
