/* html_data.c: the HTML report's data block: one JSON object that report.js reads (the rules,
 * the processes, the findings with their evidence and stacks, the source excerpts, the sites,
 * the diagnostics and the timeline's layout). */
#include "html_page.h"
#include "log.h"
#include "report_int.h"

#include "evlog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum {
    EXCERPT_RADIUS = 3,    /* lines shown above and below a finding's line */
    MAX_SOURCE_LINE = 400, /* bytes of one source line kept in an excerpt */
    MAX_STRING = 16384     /* bytes of any other string kept in the page */
};
static const off_t MAX_SOURCE_SIZE = 16L << 20;

/* ---- escaping ---- */

/* Writes 's' as a JSON string that is safe inside <script type="application/json">, at most
 * 'max' bytes of it (ss_json_write_string: '<', '>', '&' and U+2028/U+2029 escaped, invalid
 * UTF-8 as U+FFFD). NULL is written as null. */
static void json_string_max(FILE *out, const char *s, size_t max)
{
    ss_json_write_string(out, s, max);
}

static void json_string(FILE *out, const char *s)
{
    json_string_max(out, s, MAX_STRING);
}

static void json_key_string(FILE *out, const char *key, const char *value)
{
    fprintf(out, "\"%s\":", key);
    json_string(out, value);
}

static void json_key_u64(FILE *out, const char *key, uint64_t value)
{
    fprintf(out, "\"%s\":%llu", key, (unsigned long long)value);
}

/* ---- the data block ---- */

static void write_rules(FILE *out)
{
    size_t count = 0;
    const ss_rule *rules = ss_rules_all(&count);
    fputs("\"rules\":[", out);
    for (size_t i = 0; i < count; i++) {
        fputs(i ? ",{" : "{", out);
        json_key_string(out, "id", rules[i].id);
        fputc(',', out);
        json_key_string(out, "name", rules[i].name);
        fputc(',', out);
        json_key_string(out, "severity", ss_severity_name(rules[i].severity));
        fputc(',', out);
        json_key_string(out, "cost", ss_cost_name(rules[i].cost));
        fprintf(out, ",\"halves\":%d,", rules[i].halves);
        json_key_string(out, "summary", rules[i].summary);
        fputc(',', out);
        json_key_string(out, "explanation", rules[i].explanation);
        fputc('}', out);
    }
    fputc(']', out);
}

/* The device ordinals process 'proc' used, ascending, as a JSON array: those of its trace's
 * stream lanes and of its findings' evidence (a recorded trace may not name its GPUs, but its
 * operations carry the device they ran on). */
static void write_devices(FILE *out, const page *pg, size_t proc)
{
    enum { MAX_DEVICES = 64 };
    bool used[MAX_DEVICES] = {false};
    for (size_t i = 0; i < pg->lane_count; i++) {
        const page_lane *l = &pg->lanes[i];
        if (l->proc == proc && l->is_stream && l->device >= 0 && l->device < MAX_DEVICES)
            used[l->device] = true;
    }
    for (size_t i = 0; i < pg->finding_count; i++) {
        int d = pg->findings[i].f->evidence.device;
        if (pg->findings[i].proc == proc && d >= 0 && d < MAX_DEVICES)
            used[d] = true;
    }
    fputs("\"devices\":[", out);
    const char *sep = "";
    for (int d = 0; d < MAX_DEVICES; d++) {
        if (used[d]) {
            fprintf(out, "%s%d", sep, d);
            sep = ",";
        }
    }
    fputc(']', out);
}

static void write_procs(FILE *out, const page *pg)
{
    fputs("\"procs\":[", out);
    for (size_t i = 0; i < pg->n; i++) {
        const ss_result *r = pg->results[i];
        fputs(i ? ",{" : "{", out);
        json_key_string(out, "kind", r->kind == SS_RESULT_RUN ? "run" : "lint");
        fputc(',', out);
        json_key_string(out, "input",
                        pg->opt->inputs && i < pg->opt->input_count ? pg->opt->inputs[i] : NULL);
        fputc(',', out);
        json_key_string(out, "root", r->root);
        fputc(',', out);
        json_key_string(out, "program", r->program);
        fputc(',', out);
        json_key_string(out, "command_line", r->command_line);
        fputc(',', out);
        json_key_string(out, "hostname", r->hostname);
        fprintf(out, ",\"pid\":%ld,\"rank\":%d,", r->pid, r->rank);
        json_key_string(out, "gpu", r->gpu);
        fputc(',', out);
        json_key_string(out, "driver", r->driver);
        fputc(',', out);
        json_key_string(out, "cuda", r->cuda);
        fputc(',', out);
        json_key_string(out, "cuda_runtime", r->cuda_runtime);
        fputc(',', out);
        write_devices(out, pg, i);
        fputc(',', out);
        json_key_string(out, "started_at", r->started_at);
        fputc(',', out);
        json_key_u64(out, "wall_ns", r->wall_ns);
        fputc(',', out);
        json_key_u64(out, "blocked_ns", r->blocked_ns);
        fputc(',', out);
        json_key_u64(out, "gpu_busy_ns", r->gpu_busy_ns);
        fputc(',', out);
        json_key_u64(out, "events", r->events);
        fputc(',', out);
        json_key_u64(out, "dropped", r->dropped);
        fputc(',', out);
        json_key_u64(out, "findings", r->count);
        fputc(',', out);
        json_key_u64(out, "t0", pg->proc_t0 ? pg->proc_t0[i] : 0);
        fputc(',', out);
        json_key_u64(out, "span", pg->proc_span ? pg->proc_span[i] : 0);
        fputc(',', out);
        json_key_u64(out, "context_ns", pg->proc_context_ns ? pg->proc_context_ns[i] : 0);
        fputc('}', out);
    }
    fputc(']', out);
}

static void write_evidence(FILE *out, const ss_evidence *ev)
{
    fputs("\"ev\":{", out);
    json_key_u64(out, "count", ev->count);
    fputc(',', out);
    json_key_u64(out, "total_ns", ev->total_ns);
    fputc(',', out);
    json_key_u64(out, "max_ns", ev->max_ns);
    fputc(',', out);
    json_key_u64(out, "bytes", ev->bytes);
    fputc(',', out);
    json_key_string(out, "api", ev->api);
    fputc(',', out);
    json_key_string(out, "direction", ev->direction);
    fputc(',', out);
    json_key_string(out, "host_kind", ev->host_kind);
    fputc(',', out);
    json_key_string(out, "waited_for", ev->waited_for);
    fputc(',', out);
    json_key_string(out, "stream", ev->stream);
    fprintf(out, ",\"device\":%d}", ev->device);
}

/* The call stack of 'f': "st":[[function, file, line, module, is_python, pc, hidden], ...];
 * 'hidden' is 1 for a frame of the Python interpreter or the C library's start
 * (ss_report_frame_hidden), which the page leaves out. */
static void write_frames(FILE *out, const ss_finding *f)
{
    fputs(",\"st\":[", out);
    for (size_t i = 0; i < f->frame_count; i++) {
        const ss_frame *fr = &f->frames[i];
        fputs(i ? ",[" : "[", out);
        json_string(out, fr->function);
        fputc(',', out);
        json_string(out, fr->file);
        fprintf(out, ",%u,", fr->line);
        json_string(out, fr->module);
        fprintf(out, ",%d,%llu,%d]", fr->is_python ? 1 : 0, (unsigned long long)fr->pc,
                f->origin == SS_ORIGIN_RUNTIME && ss_report_frame_hidden(f, i));
    }
    fputc(']', out);
}

/* The detector's extra facts of 'f': "x":[[key, value], ...]. */
static void write_extra(FILE *out, const ss_finding *f)
{
    fputs(",\"x\":[", out);
    for (size_t i = 0; i < f->extra_count; i++) {
        fputs(i ? ",[" : "[", out);
        json_string(out, f->extra[i].key);
        fputc(',', out);
        json_string(out, f->extra[i].value);
        fputc(']', out);
    }
    fputc(']', out);
}

/* The timeline moments of 'pf': how many there were, and the kept [start, end, lane]. */
static void write_moments(FILE *out, const page_finding *pf)
{
    fprintf(out, ",\"occn\":%llu,\"occ\":[", (unsigned long long)pf->occ_total);
    for (size_t i = 0; i < pf->occ_count; i++)
        fprintf(out, "%s[%llu,%llu,%llu]", i ? "," : "", (unsigned long long)pf->occ[i][0],
                (unsigned long long)pf->occ[i][1], (unsigned long long)pf->occ[i][2]);
    fputc(']', out);
}

/* One finding of the data block, with the short member names report.js reads. */
static void write_finding(FILE *out, const page *pg, const page_finding *pf)
{
    const ss_finding *f = pf->f;
    fprintf(out, "{\"r\":%d,\"s\":%d,\"o\":%d,\"p\":%zu,\"site\":%zu,", (int)f->rule,
            (int)f->severity, pg->results[pf->proc]->kind == SS_RESULT_RUN ? 2 : 1, pf->proc,
            pf->site);
    json_key_string(out, "f", f->file);
    fputc(',', out);
    json_key_string(out, "k", pf->key);
    fprintf(out, ",\"l\":%u,\"c\":%u,\"src\":%ld,", f->line, f->column, pf->source);
    json_key_string(out, "fn", f->function);
    fputc(',', out);
    json_key_string(out, "m", f->message);
    fputc(',', out);
    json_key_string(out, "h", f->hint);
    fputc(',', out);
    fputs("\"t\":", out);
    json_string_max(out, f->line_text, MAX_SOURCE_LINE);
    if (pg->results[pf->proc]->kind == SS_RESULT_RUN) {
        fputc(',', out);
        write_evidence(out, &f->evidence);
        if (f->latent)
            fputs(",\"lat\":1", out);
    }
    if (f->frame_count)
        write_frames(out, f);
    if (f->extra_count)
        write_extra(out, f);
    if (pf->occ_count)
        write_moments(out, pf);
    fputc('}', out);
}

static int cmp_unsigned(const void *pa, const void *pb)
{
    unsigned a = *(const unsigned *)pa, b = *(const unsigned *)pb;
    return (a > b) - (a < b);
}

/* Reads 'path' whole (NUL-terminated) when it is a regular file of at most MAX_SOURCE_SIZE
 * bytes, else NULL. The last component is not followed when it is a symbolic link, and the
 * type is checked on the opened file: a FIFO or device named in its place is never read from
 * (O_NONBLOCK: opening a FIFO does not wait for a writer). */
static char *read_source(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > MAX_SOURCE_SIZE) {
        close(fd);
        return NULL;
    }
    size_t size = (size_t)st.st_size;
    char *text = ss_xcalloc(size + 1, 1);
    size_t got = 0;
    while (got < size) {
        ssize_t n = read(fd, text + got, size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; /* a file that shrank: keep what was read */
        got += (size_t)n;
    }
    close(fd);
    text[got] = '\0';
    *len = got;
    return text;
}

/* One source's excerpt lines: [[number, text], ...] for every line within EXCERPT_RADIUS of
 * a finding's line; an empty list when the file cannot be read. */
static void write_source(FILE *out, page_source *ps)
{
    fputs("{\"path\":", out);
    json_string(out, ps->path);
    fputs(",\"lines\":[", out);
    size_t len = 0;
    char *text = read_source(ps->resolved, &len);
    if (text) {
        qsort(ps->lines, ps->line_count, sizeof *ps->lines, cmp_unsigned);
        unsigned next = 1; /* the first line number not yet written */
        unsigned at_line = 1;
        const char *p = text, *end = text + len;
        bool first = true;
        for (size_t i = 0; i < ps->line_count; i++) {
            unsigned from = ps->lines[i] > EXCERPT_RADIUS ? ps->lines[i] - EXCERPT_RADIUS : 1;
            unsigned to = ps->lines[i] + EXCERPT_RADIUS;
            if (from < next)
                from = next;
            for (unsigned n = from; n <= to; n++) {
                while (at_line < n && p < end) {
                    const char *nl = memchr(p, '\n', (size_t)(end - p));
                    p = nl ? nl + 1 : end;
                    at_line++;
                }
                if (p >= end)
                    break;
                const char *nl = memchr(p, '\n', (size_t)(end - p));
                size_t n_bytes = nl ? (size_t)(nl - p) : (size_t)(end - p);
                if (n_bytes && p[n_bytes - 1] == '\r')
                    n_bytes--;
                char *line = ss_xcalloc(n_bytes + 1, 1);
                memcpy(line, p, n_bytes);
                fprintf(out, "%s[%u,", first ? "" : ",", n);
                json_string_max(out, line, MAX_SOURCE_LINE);
                fputc(']', out);
                free(line);
                first = false;
                next = n + 1;
            }
        }
        free(text);
    }
    fputs("]}", out);
}

static void write_timeline(FILE *out, const page *pg, int compressed, size_t raw)
{
    if (!pg->has_trace) {
        fputs("\"timeline\":null", out);
        return;
    }
    fprintf(out, "\"timeline\":{\"compressed\":%s,\"raw\":%zu,\"ops\":%zu,\"cols\":[",
            compressed ? "true" : "false", raw, pg->op_total);
    for (int c = 0; c < 5; c++)
        fprintf(out, "%s%zu", c ? "," : "", pg->col_len[c]);
    fputs("],\"lanes\":[", out);
    for (size_t i = 0; i < pg->lane_count; i++) {
        const page_lane *l = &pg->lanes[i];
        fprintf(out,
                "%s{\"p\":%zu,\"kind\":\"%s\",\"id\":%u,\"legacy\":%s,\"nonblocking\":%s,"
                "\"device\":%d,\"n\":%zu}",
                i ? "," : "", l->proc, l->is_stream ? "stream" : "thread", l->id,
                l->legacy ? "true" : "false", l->non_blocking ? "true" : "false", l->device,
                l->ops);
    }
    fputs("],\"names\":[", out);
    for (size_t i = 0; i < pg->name_count; i++) {
        if (i)
            fputc(',', out);
        json_string(out, pg->name_list[i]);
    }
    fputs("]}", out);
}

/* The sites: "sites":[{"g": group, "f": [finding, ...]}, ...]. */
static void write_sites(FILE *out, const page *pg)
{
    fputs("\"sites\":[", out);
    for (size_t i = 0; i < pg->site_count; i++) {
        const page_site *s = &pg->sites[i];
        fprintf(out, "%s{\"g\":%d,\"f\":[", i ? "," : "", s->group);
        for (size_t j = 0; j < s->member_count; j++)
            fprintf(out, "%s%zu", j ? "," : "", s->members[j]);
        fputs("]}", out);
    }
    fputc(']', out);
}

/* The diagnostics of every result: "diags":[{"p": process, "s", "f", "l", "m"}, ...]. */
static void write_diags(FILE *out, const page *pg)
{
    fputs("\"diags\":[", out);
    bool first = true;
    for (size_t i = 0; i < pg->n; i++) {
        const ss_result *r = pg->results[i];
        for (size_t j = 0; j < r->diag_count; j++) {
            const ss_diag *d = &r->diags[j];
            fprintf(out, "%s{\"p\":%zu,\"s\":%d,", first ? "" : ",", i, (int)d->severity);
            json_key_string(out, "f", d->file);
            fprintf(out, ",\"l\":%u,", d->line);
            json_key_string(out, "m", d->message);
            fputc('}', out);
            first = false;
        }
    }
    fputc(']', out);
}

/* The date the header shows: the options' one, else now (UTC) written into 'now'. */
static const char *generated_date(const page *pg, char *now, size_t size)
{
    if (pg->opt->generated_at != NULL)
        return pg->opt->generated_at;
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(now, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return now;
}

void ss_html_write_data(FILE *out, const page *pg, int compressed, size_t raw)
{
    fputc('{', out);
    json_key_string(out, "version", SS_VERSION);
    fputc(',', out);
    char now[32];
    json_key_string(out, "generated", generated_date(pg, now, sizeof now));
    fputc(',', out);
    json_key_string(out, "title", pg->opt->title ? pg->opt->title : "syncscope report");
    fputc(',', out);
    json_key_string(out, "root", pg->root);
    fputc(',', out);
    write_rules(out);
    fputc(',', out);
    write_procs(out, pg);
    fputs(",\"findings\":[", out);
    for (size_t i = 0; i < pg->finding_count; i++) {
        if (i)
            fputs(",\n", out);
        write_finding(out, pg, &pg->findings[i]);
    }
    fputs("],\n", out);
    write_sites(out, pg);
    fputs(",\n\"sources\":[", out);
    for (size_t i = 0; i < pg->source_count; i++) {
        if (i)
            fputs(",\n", out);
        write_source(out, &pg->sources[i]);
    }
    fputs("],\n", out);
    write_diags(out, pg);
    fputs(",\n", out);
    write_timeline(out, pg, compressed, raw);
    fputc('}', out);
}
