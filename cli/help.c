/* help.c: each subcommand's --help and the docs tables of its options, written from the
 * option table, so that the two always say the same. */
#include "log.h"
#include "options.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* --help lines are at most this wide; the descriptions start at HELP_COLUMN. */
#define HELP_WIDTH 80
#define HELP_COLUMN 24

/* The subcommand of bit 'command'. */
static const ss_command_info *command_info(unsigned command)
{
    size_t n;
    const ss_command_info *all = ss_cli_commands(&n);
    for (size_t i = 0; i < n; i++)
        if (all[i].bit == command)
            return &all[i];
    return &all[0];
}

/* Whether row 'row' is an option of 'command'. */
static int takes(const ss_option *row, unsigned command)
{
    return (row->commands & command) != 0;
}

/* How 'row' is written: "-o, --output FILE", "--format FORMAT", "-p BUILD_DIR". Malloc'ed. */
static char *spelling(const ss_option *row)
{
    const char *space = row->metavar[0] ? " " : "";
    if (row->short_name && row->long_name)
        return ss_xasprintf("-%c, --%s%s%s", row->short_name, row->long_name, space, row->metavar);
    if (row->short_name)
        return ss_xasprintf("-%c%s%s", row->short_name, space, row->metavar);
    return ss_xasprintf("--%s%s%s", row->long_name, space, row->metavar);
}

/* Characters of the docs that --help (and the manual page made from it) spells in ASCII. */
static const struct {
    const char *utf8, *ascii;
} ascii_spellings[] = {{"\u2192", "->"}, {"\u2013", "-"}, {"\u2014", "--"}, {"\u00b5", "u"}};

/* 'markdown' as plain ASCII text: code spans lose their backticks, links keep their text, and
 * arrows and dashes are spelled in ASCII. */
static char *plain_text(const char *markdown)
{
    char *out = ss_xcalloc(2 * strlen(markdown) + 1, 1);
    size_t n = 0;
    for (const char *p = markdown; *p; p++) {
        if (*p == '`')
            continue;
        size_t k = 0;
        while (k < sizeof ascii_spellings / sizeof ascii_spellings[0] &&
               strncmp(p, ascii_spellings[k].utf8, strlen(ascii_spellings[k].utf8)) != 0)
            k++;
        if (k < sizeof ascii_spellings / sizeof ascii_spellings[0]) {
            memcpy(out + n, ascii_spellings[k].ascii, strlen(ascii_spellings[k].ascii));
            n += strlen(ascii_spellings[k].ascii);
            p += strlen(ascii_spellings[k].utf8) - 1;
            continue;
        }
        const char *close = *p == '[' ? strstr(p, "](") : NULL;
        const char *end = close ? strchr(close, ')') : NULL;
        if (end != NULL && memchr(p, ']', (size_t)(close - p)) == NULL) {
            for (const char *q = p + 1; q < close; q++)
                if (*q != '`')
                    out[n++] = *q;
            p = end;
            continue;
        }
        out[n++] = *p;
    }
    return out;
}

/* The help of 'row' for 'command': a format's names the formats that the command writes
 * (report/formats.def); a row of settings.def, in plain text, names its variable and
 * default. Malloc'ed. */
static char *help_text(const ss_option *row, unsigned command)
{
    char *plain = row->variable ? plain_text(row->help) : ss_xstrdup(row->help);
    if (row->value == SS_VALUE_FORMAT) {
        char *names = ss_format_names(ss_cli_format_commands(command), " or ");
        char *longer = ss_xasprintf("%s (%s)", plain, names);
        free(names);
        free(plain);
        plain = longer;
    }
    if (row->variable == NULL)
        return plain;
    size_t len = strlen(plain);
    if (len > 0 && plain[len - 1] == '.')
        plain[len - 1] = '\0';
    char *text;
    if (row->flag_value)
        text = ss_xasprintf("%s (%s=%s)", plain, row->variable, row->flag_value);
    else if (row->default_value[0])
        text = ss_xasprintf("%s (%s; default %s)", plain, row->variable, row->default_value);
    else
        text = ss_xasprintf("%s (%s)", plain, row->variable);
    free(plain);
    return text;
}

/* The columns 'text' ('len' bytes of UTF-8) takes: its characters. */
static size_t columns(const char *text, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += ((unsigned char)text[i] & 0xC0) != 0x80;
    return n;
}

/* Writes the words of 'text' from column 'column' on, wrapped at HELP_WIDTH with the lines
 * after the first indented to 'indent', and ends the line. */
static void put_wrapped(FILE *out, const char *text, size_t column, size_t indent)
{
    int first = 1;
    for (const char *p = text; *p;) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        if (len == 0)
            break;
        size_t width = columns(p, len);
        if (!first && column + 1 + width > HELP_WIDTH) {
            fprintf(out, "\n%*s", (int)indent, "");
            column = indent;
            first = 1;
        }
        if (!first) {
            fputc(' ', out);
            column++;
        }
        fwrite(p, 1, len, out);
        column += width;
        first = 0;
        p += len;
    }
    fputc('\n', out);
}

/* Writes one option line (or two, when its spelling is too long for the column). */
static void put_option(FILE *out, const ss_option *row, unsigned command)
{
    char *spelled = spelling(row);
    char *help = help_text(row, command);
    size_t used = 2 + columns(spelled, strlen(spelled));
    fprintf(out, "  %s", spelled);
    if (used + 1 > HELP_COLUMN) {
        fprintf(out, "\n%*s", HELP_COLUMN, "");
    } else {
        fprintf(out, "%*s", (int)(HELP_COLUMN - used), "");
    }
    put_wrapped(out, help, HELP_COLUMN, HELP_COLUMN);
    free(spelled);
    free(help);
}

void ss_cli_write_help(FILE *out, unsigned command)
{
    const ss_command_info *info = command_info(command);
    fprintf(out, "usage: syncscope %s%s%s\n\n%s\noptions:\n", info->name, info->usage[0] ? " " : "",
            info->usage, info->description);
    for (size_t k = 0; k < SS_OPT_COUNT; k++)
        if (takes(ss_cli_option((ss_opt)k), command))
            put_option(out, ss_cli_option((ss_opt)k), command);
    fprintf(out, "\n%s", info->exit_status);
}

int ss_cli_write_markdown(FILE *out, unsigned command)
{
    /* The options of run that set a variable are the table of settings.def (docs/run.md). */
    fputs("| option | meaning |\n| --- | --- |\n", out);
    for (size_t k = 0; k < SS_OPT_COUNT; k++) {
        const ss_option *row = ss_cli_option((ss_opt)k);
        if (!takes(row, command) || row->variable != NULL)
            continue;
        char *spelled = spelling(row);
        fputs("| `", out);
        /* Inside a code span only '|' needs its escape. */
        ss_markdown_put(out, spelled, strlen(spelled), SS_MARKDOWN_CELL);
        fputs("` | ", out);
        char *help = help_text(row, command);
        /* The help is plain text: "<ID>" is no HTML, "PREFIX*" no emphasis. */
        ss_markdown_put(out, help, strlen(help), SS_MARKDOWN_PLAIN);
        fputs(" |\n", out);
        free(help);
        free(spelled);
    }
    return ferror(out) ? -1 : 0;
}
