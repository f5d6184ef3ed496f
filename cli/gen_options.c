/* gen_options.c: syncscope-gen-options [--check] DOCS_DIR writes the options table of each
 * subcommand into the docs pages, between the lines "<!-- options: COMMAND -->" and
 * "<!-- end of options -->", from cli/options.def; with --check it writes nothing and fails
 * when a table differs (the cli_docs test). */
#include "files.h"
#include "log.h"
#include "options.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define BEGIN "<!-- options: "
#define END "<!-- end of options -->\n"

/* The commands whose options each need one table in the docs. */
static const unsigned documented = SS_CMD_LINT | SS_CMD_RUN | SS_CMD_ANALYZE | SS_CMD_REPORT;

/* The SS_CMD_* bit of the command named by the marker line at 'p' ("lint -->"), or 0. */
static unsigned marker_command(const char *p)
{
    size_t n;
    const ss_command_info *commands = ss_cli_commands(&n);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(commands[i].name);
        if (strncmp(p, commands[i].name, len) == 0 && strncmp(p + len, " -->\n", 5) == 0)
            return commands[i].bit;
    }
    return 0;
}

/* 'text' with each table regenerated, or NULL with a message for a marker without its end
 * or naming no command. Sets the bits of the commands found in '*seen'. Malloc'ed. */
static char *regenerate(const char *path, const char *text, unsigned *seen)
{
    char *out = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&out, &size);
    const char *p = text;
    const char *begin;
    while ((begin = strstr(p, "\n" BEGIN)) != NULL) {
        begin++;
        unsigned command = marker_command(begin + strlen(BEGIN));
        const char *eol = strchr(begin, '\n');
        const char *end = eol ? strstr(eol, "\n" END) : NULL;
        if (command == 0 || end == NULL) {
            ss_log_error("%s: an options marker without a command or without '%.*s'", path,
                         (int)strlen(END) - 1, END);
            fclose(f);
            free(out);
            return NULL;
        }
        fwrite(p, 1, (size_t)(eol + 1 - p), f);
        ss_cli_write_markdown(f, command);
        fputs(END, f);
        p = end + 1 + strlen(END);
        *seen |= command;
    }
    fputs(p, f);
    fclose(f);
    return out;
}

/* Regenerates (or with 'check' compares) the tables of DIR/NAME. Returns 0, or -1. */
static int process(const char *dir, const char *name, int check, unsigned *seen)
{
    char *path = ss_xasprintf("%s/%s", dir, name);
    size_t len;
    char *text = ss_read_file(path, &len);
    int rc = -1;
    char *fresh = text ? regenerate(path, text, seen) : NULL;
    if (text == NULL)
        ss_log_error("cannot read '%s': %s", path, ss_file_error());
    if (fresh != NULL && strcmp(fresh, text) == 0) {
        rc = 0;
    } else if (fresh != NULL && check) {
        ss_log_error("%s: an options table differs from cli/options.def: run cmake --build BUILD "
                     "--target cli-docs",
                     path);
    } else if (fresh != NULL) {
        FILE *out = fopen(path, "w");
        rc = out != NULL && fputs(fresh, out) >= 0 ? 0 : -1;
        if (out == NULL || fclose(out) != 0 || rc != 0) {
            ss_log_error("cannot write '%s': %s", path, strerror(errno));
            rc = -1;
        }
    }
    free(fresh);
    free(text);
    free(path);
    return rc;
}

int main(int argc, char **argv)
{
    int check = argc == 3 && strcmp(argv[1], "--check") == 0;
    if (argc != 2 + check) {
        fprintf(stderr, "usage: syncscope-gen-options [--check] DOCS_DIR   (writes the options "
                        "tables of the pages in DOCS_DIR from cli/options.def)\n");
        return 2;
    }
    const char *dir = argv[1 + check];
    DIR *d = opendir(dir);
    if (d == NULL) {
        ss_log_error("cannot read '%s': %s", dir, strerror(errno));
        return 1;
    }
    int rc = 0;
    unsigned seen = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n > 3 && strcmp(e->d_name + n - 3, ".md") == 0 &&
            process(dir, e->d_name, check, &seen) != 0)
            rc = 1;
    }
    closedir(d);
    size_t count;
    const ss_command_info *commands = ss_cli_commands(&count);
    for (size_t i = 0; i < count; i++) {
        if ((documented & commands[i].bit) && !(seen & commands[i].bit)) {
            ss_log_error("no page of %s has the options table of '%s' (a line '%s%s -->')", dir,
                         commands[i].name, BEGIN, commands[i].name);
            rc = 1;
        }
    }
    return rc;
}
