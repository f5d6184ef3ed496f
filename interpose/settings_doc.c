/* settings_doc.c: the Markdown tables of the SYNCSCOPE_ variables, from settings.def
 * (docs/run.md and docs/configuration.md; syncscope-gen-tables writes them). */
#include "interpose.h"
#include "util.h"

#include <string.h>

/* Writes 'text', Markdown, into a table cell. */
static void put_cell(FILE *out, const char *text)
{
    ss_markdown_put(out, text, strlen(text), SS_MARKDOWN_CELL);
}

/* The option cell: `-o, --output FILE`, `--no-nvtx`, or a dash for none. */
static void put_option(FILE *out, const ss_interpose_setting *s)
{
    if (s->form == SS_OPTION_FORM_NONE) {
        fputs("—", out);
        return;
    }
    fputc('`', out);
    if (s->short_option != 0)
        fprintf(out, "-%c, ", s->short_option);
    fputs(s->option, out);
    if (s->form != SS_OPTION_FORM_FLAG) {
        fputc(' ', out);
        put_cell(out, s->option_value);
    }
    fputc('`', out);
}

/* The variable cell: `SYNCSCOPE_X`, or `SYNCSCOPE_X=0` for the value a flag sets. */
static void put_variable(FILE *out, const ss_interpose_setting *s)
{
    fprintf(out, "`%s", s->variable);
    if (s->form == SS_OPTION_FORM_FLAG)
        fprintf(out, "=%s", s->option_value);
    fputc('`', out);
}

int ss_interpose_write_settings_table(FILE *out, int elsewhere)
{
    size_t n;
    const ss_interpose_setting *rows = ss_interpose_settings(&n);
    if (elsewhere)
        fputs("| variable | option | meaning |\n| --- | --- | --- |\n", out);
    else
        fputs("| option | variable | default | meaning |\n| --- | --- | --- | --- |\n", out);
    for (size_t i = 0; i < n; i++) {
        const ss_interpose_setting *s = &rows[i];
        if ((s->read_by != NULL) != (elsewhere != 0))
            continue;
        fputs("| ", out);
        if (elsewhere) {
            put_variable(out, s);
            fputs(" | ", out);
            put_option(out, s);
        } else {
            put_option(out, s);
            fputs(" | ", out);
            put_variable(out, s);
            fputs(" | ", out);
            const char *shown = ss_interpose_setting_default(s);
            if (shown[0] == '\0') {
                fputs("unset", out);
            } else {
                fputc('`', out);
                put_cell(out, shown);
                fputc('`', out);
            }
        }
        fputs(" | ", out);
        put_cell(out, s->doc);
        fputs(" |\n", out);
    }
    return ferror(out) ? -1 : 0;
}
