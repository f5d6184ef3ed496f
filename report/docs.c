/* docs.c: the Markdown rule pages (docs/rules/), generated from the rule catalog only. */
#include "log.h"
#include "report_int.h"
#include "util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *generated_banner =
    "<!-- Generated from rules/rules.def by syncscope-gen-docs; do not edit. Change the "
    "catalog, then run: cmake --build BUILD --target rule-docs -->\n";

/* Writes 'len' bytes of catalog text, plain, with Markdown's special characters escaped, so
 * the text renders as written ("k<<<grid, block>>>" must not become HTML). */
static void put_escaped(FILE *out, const char *text, size_t len)
{
    ss_markdown_put(out, text, len, SS_MARKDOWN_PLAIN);
}

static const char *detected_by(int halves)
{
    switch (halves) {
    case SS_HALF_STATIC:
        return "`syncscope lint` (static analysis)";
    case SS_HALF_RUNTIME:
        return "`syncscope run` (observed at run time)";
    default:
        return "`syncscope lint` (static analysis) and `syncscope run` (observed at run time)";
    }
}

/* The explanation's paragraphs under "Explanation", and the one that starts with "Fix: "
 * under "How to fix"; 'hashes' is the heading prefix ("##"). */
static void put_body(FILE *out, const ss_rule *rule, const char *hashes)
{
    static const char fix_prefix[] = "Fix: ";
    const char *p = rule->explanation;
    const char *fix = NULL;
    size_t fix_len = 0;
    fprintf(out, "%s Explanation\n\n", hashes);
    while (*p) {
        const char *end = strstr(p, "\n\n");
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (strncmp(p, fix_prefix, sizeof fix_prefix - 1) == 0 && fix == NULL) {
            fix = p + sizeof fix_prefix - 1;
            fix_len = len - (sizeof fix_prefix - 1);
        } else {
            put_escaped(out, p, len);
            fputs("\n\n", out);
        }
        p += len;
        while (*p == '\n')
            p++;
    }
    if (fix) {
        /* "Fix: launch on ..." becomes "Launch on ..." under its own heading. */
        fprintf(out, "%s How to fix\n\n", hashes);
        if (fix_len > 0) {
            char first = (char)toupper((unsigned char)fix[0]);
            put_escaped(out, &first, 1);
            put_escaped(out, fix + 1, fix_len - 1);
        }
        fputs("\n\n", out);
    }
}

int ss_report_write_rule_doc(FILE *out, const ss_rule *rule)
{
    fputs(generated_banner, out);
    fprintf(out, "# %s: %s\n\n", rule->id, rule->name);
    put_escaped(out, rule->summary, strlen(rule->summary));
    fputs(".\n\n", out);
    fputs("| ID | Name | Default severity | Detected by |\n", out);
    fputs("|----|------|------------------|-------------|\n", out);
    fprintf(out, "| `%s` | `%s` | %s | %s |\n\n", rule->id, rule->name,
            ss_severity_name(rule->severity), detected_by(rule->halves));
    put_body(out, rule, "##");
    fputs("## Turning it off\n\n", out);
    fprintf(out,
            "Disable the rule with `--disable %s` (or `--disable %s`), change its severity in "
            "the configuration, or silence one line with `// syncscope-ignore: %s` on that "
            "line or the line before.\n",
            rule->id, rule->name, rule->id);
    return ferror(out) ? -1 : 0;
}

int ss_report_write_rule_index(FILE *out)
{
    size_t n;
    const ss_rule *rules = ss_rules_all(&n);
    fputs(generated_banner, out);
    fputs("# syncscope rules\n\n", out);
    fputs("One page per rule. `syncscope rules` lists them and `syncscope explain ID` prints "
          "one.\n\n",
          out);
    fputs("| ID | Name | Default severity | Detected by | Summary |\n", out);
    fputs("|----|------|------------------|-------------|---------|\n", out);
    for (size_t i = 0; i < n; i++) {
        const ss_rule *r = &rules[i];
        const char *by = r->halves == SS_HALF_STATIC    ? "lint"
                         : r->halves == SS_HALF_RUNTIME ? "run"
                                                        : "lint, run";
        fprintf(out, "| [%s](%s.md) | `%s` | %s | %s | ", r->id, r->id, r->name,
                ss_severity_name(r->severity), by);
        put_escaped(out, r->summary, strlen(r->summary));
        fputs(" |\n", out);
    }
    return ferror(out) ? -1 : 0;
}

char *ss_report_rule_help_markdown(const ss_rule *rule)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (out == NULL)
        ss_out_of_memory();
    fprintf(out, "**%s %s** (default severity: %s)\n\n", rule->id, rule->name,
            ss_severity_name(rule->severity));
    put_escaped(out, rule->summary, strlen(rule->summary));
    fputs(".\n\n", out);
    put_body(out, rule, "###");
    if (fclose(out) != 0 || text == NULL)
        ss_out_of_memory();
    /* No trailing blank line. */
    while (size > 0 && text[size - 1] == '\n')
        text[--size] = '\0';
    return text;
}
