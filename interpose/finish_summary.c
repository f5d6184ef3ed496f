/* finish_summary.c: the summary the finisher prints on stderr at the end of the run: the time
 * blocked, the costliest findings of the program's loop, then what only its startup did, the
 * missing source lines, the dropped events and where the results are. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "finish_int.h"
#include "interpose.h"
#include "log.h"
#include "rules.h"
#include "util.h"

/* Findings listed on stderr; the rest are in the result file. */
#define SUMMARY_LINES 20

/* Where a summary line puts a finding: "file:line", else "function (module+0xOFFSET)", else
 * the function; then " via LIBRARY-LINE" when the call went through a library. */
static void summary_where(const ss_finding *f, char *out, size_t size)
{
    char via[PATH_MAX];
    ss_finding_via_text(f, via, sizeof via);
    int n;
    if (f->file != NULL && f->line > 0)
        n = snprintf(out, size, "%s:%u", f->file, f->line);
    else if (f->module != NULL)
        n = (int)strlen(ss_finding_module_text(f, out, size));
    else
        n = snprintf(out, size, "%s", f->function != NULL ? f->function : "?");
    if (via[0] != '\0' && n >= 0 && (size_t)n < size)
        snprintf(out + n, size - (size_t)n, " via %s", via);
}

/* What the summary says about the findings besides listing them. */
typedef struct summary_counts {
    size_t startup;      /* findings only in the startup phase */
    uint64_t startup_ns; /* what those blocked (latent ones not counted) */
    size_t latent;       /* synchronized, blocked under the threshold */
    size_t unlined;      /* a function and its offset in a module, no source line */
} summary_counts;

/* Counts what the summary says of the findings of 'r' into 'c'. */
static void count_findings(const ss_result *r, summary_counts *c)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < r->count; i++) {
        const ss_finding *f = &r->findings[i];
        c->latent += f->latent;
        c->unlined += f->file == NULL && f->module != NULL;
        if (f->startup) {
            c->startup++;
            c->startup_ns += f->latent ? 0 : f->evidence.total_ns;
        }
    }
}

/* One line per finding outside the startup phase, in the result's order (costliest first), at
 * most SUMMARY_LINES, kernel names shortened unless 'full_names'. Returns how many it
 * printed. */
static size_t list_findings(const ss_result *r, int full_names)
{
    size_t shown = 0;
    for (size_t i = 0; i < r->count && shown < SUMMARY_LINES; i++) {
        const ss_finding *f = &r->findings[i];
        if (f->startup)
            continue;
        const ss_rule *rule = ss_rules_get(f->rule);
        char cost[32];
        ss_format_duration(f->evidence.total_ns, cost, sizeof cost);
        char where[PATH_MAX * 2 + 64];
        summary_where(f, where, sizeof where);
        char *message = f->message == NULL ? NULL
                        : full_names       ? ss_xstrdup(f->message)
                                           : ss_report_short_kernels(f->message);
        ss_log_note("  %s %-9s %s x%llu  %s  %s", rule->id, cost,
                    f->evidence.api ? f->evidence.api : "", (unsigned long long)f->evidence.count,
                    where, message != NULL ? message : rule->summary);
        free(message);
        shown++;
    }
    return shown;
}

/* The summary's closing lines: what the startup phase did, the missing source lines, the
 * dropped events and where the results are ('written', or NULL). */
static void print_summary_notes(const ss_result *r, const summary_counts *c, const char *written)
{
    if (c->startup > 0) {
        char cost[32];
        ss_format_duration(c->startup_ns, cost, sizeof cost);
        ss_log_note("  %zu finding%s only in the startup phase (before the first repeated GPU "
                    "work: loading, compiling, autotuning), %s blocked: see the result file",
                    c->startup, c->startup == 1 ? "" : "s", cost);
    }
    if (c->unlined > 0)
        ss_log_note("build with -g (or -lineinfo for device code) for source lines: %zu "
                    "finding%s only a function and its offset in a module",
                    c->unlined, c->unlined == 1 ? " has" : "s have");
    /* What the light or sampled mode cannot report (detect.c, report_mode), said once. */
    for (size_t i = 0; i < r->diag_count; i++) {
        const char *m = r->diags[i].message;
        if (m != NULL &&
            (strncmp(m, "light mode: ", 12) == 0 || strncmp(m, "sampled mode: ", 14) == 0))
            ss_log_note("%s", m);
    }
    if (r->dropped > 0)
        ss_log_warning("%llu events were dropped past the memory cap (%s); findings may be "
                       "incomplete",
                       (unsigned long long)r->dropped, SS_ENV_MAX_MEMORY);
    if (written != NULL)
        ss_log_note("results: %s", written);
}

/* The summary on stderr: the time blocked, the findings of the loop the program spends its
 * time in, then what only its startup did (loading, compiling, autotuning, moving data in) in
 * one line after them; 'written' is the result file, or NULL; 'full_names': kernel names as
 * recorded (--full-names), else shortened as the text report shows them. */
void fin_print_summary(const ss_result *r, const char *written, int full_names)
{
    char blocked[32], wall[32];
    ss_format_duration(r->blocked_ns, blocked, sizeof blocked);
    ss_format_duration(r->wall_ns, wall, sizeof wall);
    summary_counts c;
    count_findings(r, &c);
    size_t listed = r->count - c.startup;
    double share = r->wall_ns > 0 ? 100.0 * (double)r->blocked_ns / (double)r->wall_ns : 0.0;
    char notes[96] = "";
    if (c.latent > 0)
        snprintf(notes, sizeof notes, " (%zu latent: synchronized, blocked under the threshold)",
                 c.latent);
    ss_log_note("%s of %s (%.1f%%) host time blocked in implicit synchronization; %zu "
                "finding%s%s%s",
                blocked, wall, share, r->count, r->count == 1 ? "" : "s", notes,
                listed > 0 ? ", costliest first:" : "");
    size_t shown = list_findings(r, full_names);
    if (listed > shown)
        ss_log_note("  ... and %zu more", listed - shown);
    print_summary_notes(r, &c, written);
}
