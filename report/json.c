/* json.c: the JSON form of a result (docs/output-formats.md), written and read back. */
#include "files.h"
#include "log.h"
#include "report_int.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define SS_JSON_FORMAT "syncscope-result"
#define SS_JSON_FORMAT_VERSION 1

static cJSON *finding_json(const ss_finding *f)
{
    const ss_rule *rule = ss_rules_get(f->rule);
    char fingerprint[17];
    ss_finding_fingerprint(f, fingerprint);
    cJSON *o = ss_report_json_checked(cJSON_CreateObject());
    ss_report_json_add_string(o, "ruleId", rule->id);
    ss_report_json_add_string(o, "ruleName", rule->name);
    ss_report_json_add_string(o, "cost", ss_cost_name(rule->cost));
    ss_report_json_add_string(o, "severity", ss_severity_name(f->severity));
    ss_report_json_add_string(o, "origin", ss_report_origin_name(f->origin));
    ss_report_json_add_string(o, "file", f->file);
    ss_report_json_add_u64(o, "line", f->line);
    ss_report_json_add_u64(o, "column", f->column);
    ss_report_json_add_string(o, "function", f->function);
    ss_report_json_add_string(o, "message", f->message);
    ss_report_json_add_string(o, "hint", f->hint);
    ss_report_json_add_string(o, "lineText", f->line_text);
    if (f->origin == SS_ORIGIN_STATIC) {
        if (f->macro != NULL) {
            cJSON *macro = ss_report_json_checked(cJSON_AddObjectToObject(o, "expandedFrom"));
            ss_report_json_add_string(macro, "macro", f->macro);
            ss_report_json_add_u64(macro, "line", f->macro_line);
            ss_report_json_add_u64(macro, "column", f->macro_column);
        } else {
            cJSON_AddItemToObject(o, "expandedFrom", ss_report_json_checked(cJSON_CreateNull()));
        }
    }
    ss_report_json_add_string(o, "fingerprint", fingerprint);
    cJSON *frames = ss_report_json_checked(cJSON_AddArrayToObject(o, "frames"));
    for (size_t i = 0; i < f->frame_count; i++)
        cJSON_AddItemToArray(frames, ss_report_json_frame(&f->frames[i]));
    cJSON_AddItemToObject(o, "evidence", ss_report_json_evidence(&f->evidence));
    cJSON_AddItemToObject(o, "extra", ss_report_json_extra(f));
    if (f->origin == SS_ORIGIN_RUNTIME) {
        cJSON_AddItemToObject(o, "latent", ss_report_json_checked(cJSON_CreateBool(f->latent)));
        cJSON_AddItemToObject(o, "startup", ss_report_json_checked(cJSON_CreateBool(f->startup)));
        if (f->via_file != NULL || f->via_function != NULL) {
            char text[4096];
            cJSON *via = ss_report_json_checked(cJSON_AddObjectToObject(o, "via"));
            ss_report_json_add_string(via, "file", f->via_file);
            ss_report_json_add_u64(via, "line", f->via_line);
            ss_report_json_add_string(via, "function", f->via_function);
            ss_report_json_add_string(via, "text", ss_finding_via_text(f, text, sizeof text));
        } else {
            cJSON_AddItemToObject(o, "via", ss_report_json_checked(cJSON_CreateNull()));
        }
        ss_report_json_add_string(o, "module", f->module);
        if (f->module != NULL) {
            char offset[32];
            snprintf(offset, sizeof offset, "0x%" PRIx64, f->module_offset);
            ss_report_json_add_string(o, "moduleOffset", offset);
        } else {
            cJSON_AddItemToObject(o, "moduleOffset", ss_report_json_checked(cJSON_CreateNull()));
        }
    }
    return o;
}

cJSON *ss_report_json_files(const ss_file_counts *counts)
{
    if (!counts->counted)
        return ss_report_json_checked(cJSON_CreateNull());
    cJSON *o = ss_report_json_checked(cJSON_CreateObject());
    ss_report_json_add_u64(o, "total", counts->total);
    ss_report_json_add_u64(o, "analyzed", counts->analyzed);
    ss_report_json_add_u64(o, "withErrors", counts->with_errors_count);
    ss_report_json_add_u64(o, "notAnalyzed", counts->not_analyzed_count);
    cJSON *errors = ss_report_json_checked(cJSON_AddArrayToObject(o, "filesWithErrors"));
    for (size_t i = 0; i < counts->with_errors_count; i++) {
        cJSON *e = ss_report_json_checked(cJSON_CreateObject());
        ss_report_json_add_string(e, "file", counts->with_errors[i]);
        cJSON_AddItemToArray(errors, e);
    }
    cJSON *skipped = ss_report_json_checked(cJSON_AddArrayToObject(o, "filesNotAnalyzed"));
    for (size_t i = 0; i < counts->not_analyzed_count; i++) {
        cJSON *s = ss_report_json_checked(cJSON_CreateObject());
        ss_report_json_add_string(s, "file", counts->not_analyzed[i].file);
        ss_report_json_add_string(s, "reason", ss_skip_reason_name(counts->not_analyzed[i].reason));
        cJSON_AddItemToArray(skipped, s);
    }
    return o;
}

static cJSON *result_json(const ss_result *result)
{
    cJSON *root = ss_report_json_checked(cJSON_CreateObject());
    ss_report_json_add_string(root, "format", SS_JSON_FORMAT);
    ss_report_json_add_i64(root, "formatVersion", SS_JSON_FORMAT_VERSION);
    cJSON *tool = ss_report_json_checked(cJSON_AddObjectToObject(root, "tool"));
    ss_report_json_add_string(tool, "name", "syncscope");
    ss_report_json_add_string(tool, "version", SS_VERSION);
    ss_report_json_add_string(tool, "informationUri", SS_INFORMATION_URI);
    ss_report_json_add_string(root, "kind", ss_report_kind_name(result->kind));
    ss_report_json_add_string(root, "root", result->root);

    cJSON *run = ss_report_json_checked(cJSON_AddObjectToObject(root, "run"));
    ss_report_json_add_string(run, "program", result->program);
    ss_report_json_add_string(run, "commandLine", result->command_line);
    ss_report_json_add_string(run, "hostname", result->hostname);
    ss_report_json_add_i64(run, "pid", result->pid);
    ss_report_json_add_i64(run, "rank", result->rank);
    ss_report_json_add_string(run, "gpu", result->gpu);
    ss_report_json_add_string(run, "driver", result->driver);
    ss_report_json_add_string(run, "cuda", result->cuda);
    ss_report_json_add_string(run, "cudaRuntime", result->cuda_runtime);
    ss_report_json_add_u64(run, "wallNs", result->wall_ns);
    ss_report_json_add_u64(run, "blockedNs", result->blocked_ns);
    ss_report_json_add_u64(run, "gpuBusyNs", result->gpu_busy_ns);
    ss_report_json_add_u64(run, "events", result->events);
    ss_report_json_add_u64(run, "dropped", result->dropped);
    ss_report_json_add_string(run, "startedAt", result->started_at);

    cJSON *summary = ss_report_json_checked(cJSON_AddObjectToObject(root, "summary"));
    size_t errors = ss_result_count_at_least(result, SS_SEV_ERROR);
    size_t warnings = ss_result_count_at_least(result, SS_SEV_WARNING) - errors;
    ss_report_json_add_u64(summary, "findings", result->count);
    ss_report_json_add_u64(summary, "errors", errors);
    ss_report_json_add_u64(summary, "warnings", warnings);
    ss_report_json_add_u64(summary, "notes", result->count - errors - warnings);
    ss_report_json_add_u64(summary, "diagnostics", result->diag_count);
    cJSON_AddItemToObject(summary, "files", ss_report_json_files(&result->files));

    cJSON *findings = ss_report_json_checked(cJSON_AddArrayToObject(root, "findings"));
    for (size_t i = 0; i < result->count; i++)
        cJSON_AddItemToArray(findings, finding_json(&result->findings[i]));
    cJSON *diags = ss_report_json_checked(cJSON_AddArrayToObject(root, "diagnostics"));
    for (size_t i = 0; i < result->diag_count; i++) {
        const ss_diag *d = &result->diags[i];
        cJSON *o = ss_report_json_checked(cJSON_CreateObject());
        ss_report_json_add_string(o, "severity", ss_severity_name(d->severity));
        ss_report_json_add_string(o, "file", d->file);
        ss_report_json_add_u64(o, "line", d->line);
        ss_report_json_add_u64(o, "column", d->column);
        ss_report_json_add_string(o, "message", d->message);
        cJSON_AddItemToArray(diags, o);
    }
    return root;
}

int ss_report_write_json(FILE *out, const ss_result *result)
{
    cJSON *root = result_json(result);
    int rc = ss_report_json_print(out, root);
    cJSON_Delete(root);
    return rc == 0 && !ferror(out) ? 0 : -1;
}

/* Reading: every accessor records the first problem in 'rd' with the JSON path of the
 * offending member, and later accessors do nothing once one has failed. */
typedef struct reader {
    char *err;
    size_t err_size;
    const char *path; /* the file, for messages */
    int failed;
} reader;

static void fail(reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void fail(reader *rd, const char *fmt, ...)
{
    if (rd->failed)
        return;
    rd->failed = 1;
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(rd->err, rd->err_size, "%s: not a syncscope JSON result: %s", rd->path, what);
}

/* A member of the JSON type that 'is_kind' accepts ('kind' names it in the message): NULL
 * when absent or null (or, when 'required', an error). */
static const cJSON *get_member(reader *rd, const cJSON *obj, const char *ctx, const char *name,
                               int required, cJSON_bool (*is_kind)(const cJSON *), const char *kind)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (item == NULL || cJSON_IsNull(item)) {
        if (required)
            fail(rd, "%s.%s is missing", ctx, name);
        return NULL;
    }
    if (!is_kind(item)) {
        fail(rd, "%s.%s must be %s", ctx, name, kind);
        return NULL;
    }
    return item;
}

/* A string member: NULL when absent or null (or, when 'required', an error). */
static char *get_string(reader *rd, const cJSON *obj, const char *ctx, const char *name,
                        int required)
{
    const cJSON *item = get_member(rd, obj, ctx, name, required, cJSON_IsString, "a string");
    return item == NULL || rd->failed ? NULL : ss_xstrdup(item->valuestring);
}

/* Doubles hold integers exactly up to 2^53; larger values cannot be read back exactly. */
#define SS_JSON_MAX_INT 9007199254740992.0

static uint64_t get_u64(reader *rd, const cJSON *obj, const char *ctx, const char *name,
                        uint64_t max)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (item == NULL || cJSON_IsNull(item))
        return 0;
    double v = cJSON_IsNumber(item) ? item->valuedouble : -1;
    if (v < 0 || v != floor(v) || v > SS_JSON_MAX_INT || v > (double)max) {
        fail(rd, "%s.%s must be a non-negative integer", ctx, name);
        return 0;
    }
    return (uint64_t)v;
}

static long long get_i64(reader *rd, const cJSON *obj, const char *ctx, const char *name,
                         long long min, long long max, long long absent)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (item == NULL || cJSON_IsNull(item))
        return absent;
    double v = cJSON_IsNumber(item) ? item->valuedouble : 0.5;
    if (v != floor(v) || v < (double)min || v > (double)max || fabs(v) > SS_JSON_MAX_INT) {
        fail(rd, "%s.%s must be an integer from %lld to %lld", ctx, name, min, max);
        return absent;
    }
    return (long long)v;
}

static const cJSON *get_object(reader *rd, const cJSON *obj, const char *ctx, const char *name,
                               int required)
{
    return get_member(rd, obj, ctx, name, required, cJSON_IsObject, "an object");
}

static const cJSON *get_array(reader *rd, const cJSON *obj, const char *ctx, const char *name,
                              int required)
{
    return get_member(rd, obj, ctx, name, required, cJSON_IsArray, "an array");
}

static ss_severity get_severity(reader *rd, const cJSON *obj, const char *ctx)
{
    ss_severity severity = SS_SEV_WARNING;
    char *text = get_string(rd, obj, ctx, "severity", 1);
    if (text && ss_severity_parse(text, &severity) != 0)
        fail(rd, "%s.severity: unknown severity '%s'", ctx, text);
    free(text);
    return severity;
}

static void read_frame(reader *rd, const cJSON *o, const char *ctx, ss_frame *fr)
{
    if (!cJSON_IsObject(o)) {
        fail(rd, "%s must be an object", ctx);
        return;
    }
    char *pc = get_string(rd, o, ctx, "pc", 0);
    if (pc) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(pc, &end, 16);
        if (strncmp(pc, "0x", 2) != 0 || *end != '\0' || errno != 0)
            fail(rd, "%s.pc must be a hexadecimal address like \"0x4005d0\"", ctx);
        fr->pc = v;
        free(pc);
    }
    fr->function = get_string(rd, o, ctx, "function", 0);
    fr->file = get_string(rd, o, ctx, "file", 0);
    fr->line = (unsigned)get_u64(rd, o, ctx, "line", UINT32_MAX);
    fr->module = get_string(rd, o, ctx, "module", 0);
    const cJSON *python = cJSON_GetObjectItemCaseSensitive(o, "python");
    if (python && !cJSON_IsBool(python) && !cJSON_IsNull(python))
        fail(rd, "%s.python must be true or false", ctx);
    fr->is_python = cJSON_IsTrue(python);
}

static void read_evidence(reader *rd, const cJSON *o, const char *ctx, ss_evidence *ev)
{
    ev->count = get_u64(rd, o, ctx, "count", UINT64_MAX);
    ev->total_ns = get_u64(rd, o, ctx, "totalNs", UINT64_MAX);
    ev->max_ns = get_u64(rd, o, ctx, "maxNs", UINT64_MAX);
    ev->bytes = get_u64(rd, o, ctx, "bytes", UINT64_MAX);
    ev->api = get_string(rd, o, ctx, "api", 0);
    ev->direction = get_string(rd, o, ctx, "direction", 0);
    ev->host_kind = get_string(rd, o, ctx, "hostKind", 0);
    ev->waited_for = get_string(rd, o, ctx, "waitedFor", 0);
    ev->stream = get_string(rd, o, ctx, "stream", 0);
    ev->device = (int)get_i64(rd, o, ctx, "device", -1, INT32_MAX, -1);
}

/* A boolean member: 0 when absent or null. */
static int get_bool(reader *rd, const cJSON *obj, const char *ctx, const char *name)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (item != NULL && !cJSON_IsBool(item) && !cJSON_IsNull(item))
        fail(rd, "%s.%s must be true or false", ctx, name);
    return cJSON_IsTrue(item);
}

/* The run-only members of a finding: latent, startup, via, module, moduleOffset. */
static void read_run_location(reader *rd, const cJSON *o, const char *ctx, ss_finding *f)
{
    f->latent = get_bool(rd, o, ctx, "latent");
    f->startup = get_bool(rd, o, ctx, "startup");
    const cJSON *via = get_object(rd, o, ctx, "via", 0);
    if (via != NULL) {
        char sub[96];
        snprintf(sub, sizeof sub, "%s.via", ctx);
        f->via_file = get_string(rd, via, sub, "file", 0);
        f->via_line = (unsigned)get_u64(rd, via, sub, "line", UINT32_MAX);
        f->via_function = get_string(rd, via, sub, "function", 0);
    }
    f->module = get_string(rd, o, ctx, "module", 0);
    char *offset = get_string(rd, o, ctx, "moduleOffset", 0);
    if (offset != NULL) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(offset, &end, 16);
        if (strncmp(offset, "0x", 2) != 0 || *end != '\0' || errno != 0)
            fail(rd, "%s.moduleOffset must be a hexadecimal offset like \"0x1a2b\"", ctx);
        f->module_offset = v;
        free(offset);
    }
}

/* ruleId and origin of a finding: a rule of the catalog, "static" or "runtime". */
static void read_rule_origin(reader *rd, const cJSON *o, const char *ctx, ss_finding *f)
{
    char *id = get_string(rd, o, ctx, "ruleId", 1);
    const ss_rule *rule = id ? ss_rules_find(id) : NULL;
    if (id && (rule == NULL || strcmp(rule->id, id) != 0))
        fail(rd, "%s.ruleId: unknown rule '%s'", ctx, id);
    free(id);
    if (rule)
        f->rule = rule->rule;
    f->severity = get_severity(rd, o, ctx);
    char *origin = get_string(rd, o, ctx, "origin", 1);
    if (origin && strcmp(origin, "static") == 0)
        f->origin = SS_ORIGIN_STATIC;
    else if (origin && strcmp(origin, "runtime") == 0)
        f->origin = SS_ORIGIN_RUNTIME;
    else if (origin)
        fail(rd, "%s.origin must be \"static\" or \"runtime\"", ctx);
    free(origin);
}

/* A finding's frames, when it has any and nothing failed before them. */
static void read_frames(reader *rd, const cJSON *o, const char *ctx, ss_finding *f)
{
    char sub[96];
    snprintf(sub, sizeof sub, "%s.frames", ctx);
    const cJSON *frames = get_array(rd, o, ctx, "frames", 0);
    int n = frames ? cJSON_GetArraySize(frames) : 0;
    if (n <= 0 || rd->failed)
        return;
    f->frames = ss_xcalloc((size_t)n, sizeof *f->frames);
    f->frame_count = (size_t)n;
    int i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, frames)
    {
        char fctx[128];
        snprintf(fctx, sizeof fctx, "%s[%d]", sub, i);
        read_frame(rd, item, fctx, &f->frames[i++]);
    }
}

/* A finding's extra facts: an object of strings. */
static void read_extra(reader *rd, const cJSON *o, const char *ctx, ss_finding *f)
{
    const cJSON *extra = get_object(rd, o, ctx, "extra", 0);
    const cJSON *item;
    if (extra == NULL || rd->failed)
        return;
    cJSON_ArrayForEach(item, extra)
    {
        if (!cJSON_IsString(item)) {
            fail(rd, "%s.extra.%s must be a string", ctx, item->string);
            break;
        }
        ss_finding_add_extra(f, item->string, item->valuestring);
    }
}

static void read_finding(reader *rd, const cJSON *o, const char *ctx, ss_finding *f)
{
    if (!cJSON_IsObject(o)) {
        fail(rd, "%s must be an object", ctx);
        return;
    }
    read_rule_origin(rd, o, ctx, f);
    f->file = get_string(rd, o, ctx, "file", 0);
    f->line = (unsigned)get_u64(rd, o, ctx, "line", UINT32_MAX);
    f->column = (unsigned)get_u64(rd, o, ctx, "column", UINT32_MAX);
    f->function = get_string(rd, o, ctx, "function", 0);
    f->message = get_string(rd, o, ctx, "message", 1);
    f->hint = get_string(rd, o, ctx, "hint", 0);
    f->line_text = get_string(rd, o, ctx, "lineText", 0);
    const cJSON *macro = get_object(rd, o, ctx, "expandedFrom", 0);
    if (macro != NULL) {
        char at[96];
        snprintf(at, sizeof at, "%s.expandedFrom", ctx);
        f->macro = get_string(rd, macro, at, "macro", 1);
        f->macro_line = (unsigned)get_u64(rd, macro, at, "line", UINT32_MAX);
        f->macro_column = (unsigned)get_u64(rd, macro, at, "column", UINT32_MAX);
    }
    read_frames(rd, o, ctx, f);
    char sub[96];
    snprintf(sub, sizeof sub, "%s.evidence", ctx);
    const cJSON *evidence = get_object(rd, o, ctx, "evidence", 0);
    if (evidence)
        read_evidence(rd, evidence, sub, &f->evidence);
    read_run_location(rd, o, ctx, f);
    read_extra(rd, o, ctx, f);
}

static void read_run(reader *rd, const cJSON *run, ss_result *out)
{
    const char *ctx = "run";
    out->program = get_string(rd, run, ctx, "program", 0);
    out->command_line = get_string(rd, run, ctx, "commandLine", 0);
    out->hostname = get_string(rd, run, ctx, "hostname", 0);
    out->pid = (long)get_i64(rd, run, ctx, "pid", 0, INT64_MAX, 0);
    out->rank = (int)get_i64(rd, run, ctx, "rank", -1, INT32_MAX, -1);
    out->gpu = get_string(rd, run, ctx, "gpu", 0);
    out->driver = get_string(rd, run, ctx, "driver", 0);
    out->cuda = get_string(rd, run, ctx, "cuda", 0);
    out->cuda_runtime = get_string(rd, run, ctx, "cudaRuntime", 0);
    out->wall_ns = get_u64(rd, run, ctx, "wallNs", UINT64_MAX);
    out->blocked_ns = get_u64(rd, run, ctx, "blockedNs", UINT64_MAX);
    out->gpu_busy_ns = get_u64(rd, run, ctx, "gpuBusyNs", UINT64_MAX);
    out->events = get_u64(rd, run, ctx, "events", UINT64_MAX);
    out->dropped = get_u64(rd, run, ctx, "dropped", UINT64_MAX);
    out->started_at = get_string(rd, run, ctx, "startedAt", 0);
}

/* summary.files.filesWithErrors: [{"file"}], added to 'counts'. */
static void read_files_with_errors(reader *rd, const cJSON *errors, const char *ctx,
                                   ss_file_counts *counts)
{
    const cJSON *item;
    int i = 0;
    cJSON_ArrayForEach(item, errors)
    {
        char at[64];
        snprintf(at, sizeof at, "%s.filesWithErrors[%d]", ctx, i++);
        if (!cJSON_IsObject(item)) {
            fail(rd, "%s must be an object", at);
            return;
        }
        char *file = get_string(rd, item, at, "file", 1);
        if (!rd->failed)
            ss_file_counts_add_error(counts, file);
        free(file);
        if (rd->failed)
            return;
    }
}

/* summary.files.filesNotAnalyzed: [{"file", "reason"}], added to 'counts'. */
static void read_files_not_analyzed(reader *rd, const cJSON *skipped, const char *ctx,
                                    ss_file_counts *counts)
{
    const cJSON *item;
    int i = 0;
    cJSON_ArrayForEach(item, skipped)
    {
        char at[64];
        snprintf(at, sizeof at, "%s.filesNotAnalyzed[%d]", ctx, i++);
        if (!cJSON_IsObject(item)) {
            fail(rd, "%s must be an object", at);
            return;
        }
        char *file = get_string(rd, item, at, "file", 1);
        char *reason = get_string(rd, item, at, "reason", 1);
        ss_skip_reason why = SS_SKIP_EXCLUDED;
        if (reason && ss_skip_reason_parse(reason, &why) != 0)
            fail(rd, "%s.reason: unknown reason '%s'", at, reason);
        if (!rd->failed)
            ss_file_counts_add_skipped(counts, file, why);
        free(file);
        free(reason);
        if (rd->failed)
            return;
    }
}

/* summary.files (written by ss_report_json_files): the counts must agree with the lists. */
static void read_files(reader *rd, const cJSON *o, ss_file_counts *counts)
{
    const char *ctx = "summary.files";
    counts->counted = 1;
    counts->total = (size_t)get_u64(rd, o, ctx, "total", SIZE_MAX);
    counts->analyzed = (size_t)get_u64(rd, o, ctx, "analyzed", SIZE_MAX);
    uint64_t with_errors = get_u64(rd, o, ctx, "withErrors", SIZE_MAX);
    uint64_t not_analyzed = get_u64(rd, o, ctx, "notAnalyzed", SIZE_MAX);
    const cJSON *errors = get_array(rd, o, ctx, "filesWithErrors", 1);
    const cJSON *skipped = get_array(rd, o, ctx, "filesNotAnalyzed", 1);
    if (errors && !rd->failed)
        read_files_with_errors(rd, errors, ctx, counts);
    if (skipped && !rd->failed)
        read_files_not_analyzed(rd, skipped, ctx, counts);
    if (!rd->failed &&
        (with_errors != counts->with_errors_count || not_analyzed != counts->not_analyzed_count ||
         counts->with_errors_count > counts->analyzed ||
         counts->total != counts->analyzed + counts->not_analyzed_count))
        fail(rd,
             "%s: the counts do not agree with the lists (total %zu, analyzed %zu, withErrors "
             "%" PRIu64 ", notAnalyzed %" PRIu64 "; listed: %zu with errors, %zu not analyzed)",
             ctx, counts->total, counts->analyzed, with_errors, not_analyzed,
             counts->with_errors_count, counts->not_analyzed_count);
}

/* The header of a result: "format" and "formatVersion" this syncscope reads. Returns 0, or
 * -1 (failed) when the rest cannot be read as a result. */
static int read_header(reader *rd, const cJSON *root)
{
    if (!cJSON_IsObject(root)) {
        fail(rd, "the top level must be an object");
        return -1;
    }
    const cJSON *format = cJSON_GetObjectItemCaseSensitive(root, "format");
    if (!cJSON_IsString(format) || strcmp(format->valuestring, SS_JSON_FORMAT) != 0) {
        fail(rd, "\"format\" must be \"" SS_JSON_FORMAT "\"");
        return -1;
    }
    long long version = get_i64(rd, root, "$", "formatVersion", 0, INT32_MAX, -1);
    if (!rd->failed && version == -1) {
        fail(rd, "$.formatVersion is missing");
        return -1;
    }
    if (!rd->failed && version != SS_JSON_FORMAT_VERSION) {
        fail(rd, "formatVersion %lld is not supported (this syncscope reads version %d)", version,
             SS_JSON_FORMAT_VERSION);
        return -1;
    }
    return 0;
}

/* The findings of a result, each added to 'out'; reading stops at the first that fails. */
static void read_findings(reader *rd, const cJSON *findings, ss_result *out)
{
    const cJSON *item;
    int i = 0;
    cJSON_ArrayForEach(item, findings)
    {
        char ctx[64];
        snprintf(ctx, sizeof ctx, "findings[%d]", i++);
        read_finding(rd, item, ctx, ss_result_add(out));
        if (rd->failed)
            return;
    }
}

/* The diagnostics of a result, each added to 'out' while nothing failed. */
static void read_diags(reader *rd, const cJSON *diags, ss_result *out)
{
    const cJSON *item;
    int i = 0;
    cJSON_ArrayForEach(item, diags)
    {
        char ctx[64];
        snprintf(ctx, sizeof ctx, "diagnostics[%d]", i++);
        if (!cJSON_IsObject(item)) {
            fail(rd, "%s must be an object", ctx);
            return;
        }
        ss_severity severity = get_severity(rd, item, ctx);
        char *file = get_string(rd, item, ctx, "file", 0);
        unsigned line = (unsigned)get_u64(rd, item, ctx, "line", UINT32_MAX);
        unsigned column = (unsigned)get_u64(rd, item, ctx, "column", UINT32_MAX);
        char *message = get_string(rd, item, ctx, "message", 1);
        if (!rd->failed)
            ss_result_add_diag(out, severity, file, line, column, message);
        free(file);
        free(message);
    }
}

static void read_result(reader *rd, const cJSON *root, ss_result *out)
{
    if (read_header(rd, root) != 0)
        return;
    char *kind = get_string(rd, root, "$", "kind", 1);
    if (kind && strcmp(kind, "lint") == 0)
        out->kind = SS_RESULT_LINT;
    else if (kind && strcmp(kind, "run") == 0)
        out->kind = SS_RESULT_RUN;
    else if (kind)
        fail(rd, "$.kind must be \"lint\" or \"run\"");
    free(kind);
    out->root = get_string(rd, root, "$", "root", 0);
    const cJSON *run = get_object(rd, root, "$", "run", 0);
    if (run)
        read_run(rd, run, out);
    const cJSON *summary = get_object(rd, root, "$", "summary", 0);
    const cJSON *files = summary ? get_object(rd, summary, "summary", "files", 0) : NULL;
    if (files)
        read_files(rd, files, &out->files);
    const cJSON *findings = get_array(rd, root, "$", "findings", 1);
    if (findings && !rd->failed)
        read_findings(rd, findings, out);
    const cJSON *diags = get_array(rd, root, "$", "diagnostics", 0);
    if (diags && !rd->failed)
        read_diags(rd, diags, out);
}

int ss_report_read_json(const char *path, ss_result *out, char *err, size_t err_size)
{
    ss_result_init(out, SS_RESULT_LINT);
    size_t size = 0;
    char *text = ss_read_file(path, &size);
    if (text == NULL) {
        snprintf(err, err_size, "cannot read '%s': %s", path, ss_file_error());
        return -1;
    }
    const char *end = NULL;
    /* The length includes the terminating NUL: cJSON 1.7.15 rejects trailing whitespace
     * when the length ends right after it. A NUL inside the file counts as malformed. */
    cJSON *root = strlen(text) == size ? cJSON_ParseWithLengthOpts(text, size + 1, &end, 1) : NULL;
    if (root == NULL && strlen(text) != size)
        end = text + strlen(text);
    if (root == NULL) {
        /* Turn cJSON's error position into a 1-based line and column. */
        size_t offset = end && end >= text && end <= text + size ? (size_t)(end - text) : 0;
        unsigned line = 1, column = 1;
        for (size_t i = 0; i < offset; i++) {
            if (text[i] == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
        }
        snprintf(err, err_size, "%s:%u:%u: malformed JSON", path, line, column);
        free(text);
        return -1;
    }
    reader rd = {err, err_size, path, 0};
    read_result(&rd, root, out);
    cJSON_Delete(root);
    free(text);
    if (rd.failed) {
        ss_result_free(out);
        ss_result_init(out, SS_RESULT_LINT);
        return -1;
    }
    return 0;
}
