/* sarif.c: the SARIF 2.1.0 writer (GitHub code scanning and other SARIF viewers). */
#include "log.h"
#include "report_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define SS_SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define SS_SARIF_SRCROOT "%SRCROOT%"
#define SS_SARIF_FINGERPRINT_KEY "syncscope/v1"

static const char *sarif_level(ss_severity severity)
{
    switch (severity) {
    case SS_SEV_NOTE:
        return "note";
    case SS_SEV_ERROR:
        return "error";
    default:
        return "warning";
    }
}

/* Percent-encodes every byte of 'path' except RFC 3986 unreserved characters and '/'. */
static char *percent_encode(const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t len = strlen(path);
    char *out = ss_xreallocarray(NULL, len + 1, 3);
    char *o = out;
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
            strchr("-._~/", *p) != NULL) {
            *o++ = (char)*p;
        } else {
            *o++ = '%';
            *o++ = hex[*p >> 4];
            *o++ = hex[*p & 15];
        }
    }
    *o = '\0';
    return out;
}

/* A message object whose text is 'text' ending with a period (SARIF asks for sentences). */
static cJSON *message(const char *text)
{
    cJSON *o = ss_report_json_checked(cJSON_CreateObject());
    size_t len = text ? strlen(text) : 0;
    if (len > 0 && text[len - 1] == '.') {
        ss_report_json_add_string(o, "text", text);
    } else {
        char *s = ss_xasprintf("%s.", text ? text : "");
        ss_report_json_add_string(o, "text", s);
        free(s);
    }
    return o;
}

/* An artifactLocation for 'file': relative to %SRCROOT% when inside the root, else an
 * absolute file URI. */
static cJSON *artifact_location(const char *root_dir, const char *file)
{
    int inside = 0;
    char *path = ss_report_relative_path(root_dir, file, &inside);
    char *encoded = percent_encode(path);
    cJSON *o = ss_report_json_checked(cJSON_CreateObject());
    if (inside) {
        ss_report_json_add_string(o, "uri", encoded);
        ss_report_json_add_string(o, "uriBaseId", SS_SARIF_SRCROOT);
    } else {
        char *uri = ss_xasprintf("file://%s", encoded);
        ss_report_json_add_string(o, "uri", uri);
        free(uri);
    }
    free(encoded);
    free(path);
    return o;
}

/* SARIF columns count UTF-16 code units; syncscope's count bytes. Converts with the line's
 * text when it is known (ASCII lines are unchanged). */
static unsigned utf16_column(const char *line_text, unsigned byte_column)
{
    if (line_text == NULL || byte_column == 0)
        return byte_column;
    unsigned column = 1;
    size_t len = strlen(line_text);
    for (size_t i = 0; i + 1 < byte_column; i++) {
        unsigned char c = i < len ? (unsigned char)line_text[i] : ' ';
        if ((c & 0xC0) == 0x80)
            continue;
        column += c >= 0xF0 ? 2 : 1;
    }
    return column;
}

/* physicalLocation {artifactLocation, region}; the region's snippet is the line from the
 * column on, the context region the whole line. */
static cJSON *physical_location(const char *root_dir, const char *file, unsigned line,
                                unsigned column, const char *line_text)
{
    cJSON *o = ss_report_json_checked(cJSON_CreateObject());
    cJSON_AddItemToObject(o, "artifactLocation", artifact_location(root_dir, file));
    if (line == 0)
        return o;
    size_t text_len = line_text ? strcspn(line_text, "\r\n") : 0;
    cJSON *region = ss_report_json_checked(cJSON_AddObjectToObject(o, "region"));
    ss_report_json_add_u64(region, "startLine", line);
    if (column)
        ss_report_json_add_u64(region, "startColumn", utf16_column(line_text, column));
    if (line_text && (column == 0 || column - 1 <= text_len)) {
        size_t from = column ? column - 1 : 0;
        char *snippet = ss_xasprintf("%.*s", (int)(text_len - from), line_text + from);
        cJSON *s = ss_report_json_checked(cJSON_AddObjectToObject(region, "snippet"));
        ss_report_json_add_string(s, "text", snippet);
        free(snippet);
        char *whole = ss_xasprintf("%.*s", (int)text_len, line_text);
        cJSON *context = ss_report_json_checked(cJSON_AddObjectToObject(o, "contextRegion"));
        ss_report_json_add_u64(context, "startLine", line);
        cJSON *cs = ss_report_json_checked(cJSON_AddObjectToObject(context, "snippet"));
        ss_report_json_add_string(cs, "text", whole);
        free(whole);
    }
    return o;
}

static cJSON *function_location(const char *function)
{
    cJSON *o = ss_report_json_checked(cJSON_CreateObject());
    ss_report_json_add_string(o, "name", function);
    ss_report_json_add_string(o, "kind", "function");
    return o;
}

/* The base URL set with ss_report_set_rules_url; NULL: none (the variable decides). */
static char *rules_url;

/* 1 when 'text' starts with a URI scheme and "://" ("https://", "file://"). */
static int is_absolute_url(const char *text)
{
    const char *p = text;
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
        return 0;
    while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
           *p == '+' || *p == '-' || *p == '.')
        p++;
    return strncmp(p, "://", 3) == 0 && p[3] != '\0';
}

int ss_report_set_rules_url(const char *base)
{
    if (base != NULL && !is_absolute_url(base))
        return -1;
    free(rules_url);
    rules_url = ss_xstrdup(base);
    return 0;
}

const char *ss_report_rules_url(void)
{
    if (rules_url != NULL)
        return rules_url;
    const char *env = getenv(SS_ENV_RULES_URL);
    return env != NULL && is_absolute_url(env) ? env : NULL;
}

/* The rule's page under the configured base URL ("BASE/SYNC101.md"), or NULL when none is
 * configured: SARIF wants an absolute URI here, and the project publishes its pages at no
 * address it could assume. Malloc'ed. */
static char *rule_help_uri(const ss_rule *rule)
{
    const char *base = ss_report_rules_url();
    if (base == NULL)
        return NULL;
    size_t len = strlen(base);
    return ss_xasprintf("%s%s%s.md", base, base[len - 1] == '/' ? "" : "/", rule->id);
}

static cJSON *rule_json(const ss_rule *rule)
{
    cJSON *o = ss_report_json_checked(cJSON_CreateObject());
    ss_report_json_add_string(o, "id", rule->id);
    ss_report_json_add_string(o, "name", rule->name);
    cJSON_AddItemToObject(o, "shortDescription", message(rule->summary));
    cJSON_AddItemToObject(o, "fullDescription", message(rule->explanation));
    cJSON *help = ss_report_json_checked(cJSON_AddObjectToObject(o, "help"));
    char *text = ss_xasprintf("%s.\n\n%s", rule->summary, rule->explanation);
    ss_report_json_add_string(help, "text", text);
    free(text);
    char *markdown = ss_report_rule_help_markdown(rule);
    ss_report_json_add_string(help, "markdown", markdown);
    free(markdown);
    char *uri = rule_help_uri(rule);
    if (uri != NULL)
        ss_report_json_add_string(o, "helpUri", uri);
    free(uri);
    cJSON *config = ss_report_json_checked(cJSON_AddObjectToObject(o, "defaultConfiguration"));
    ss_report_json_add_string(config, "level", sarif_level(rule->severity));
    cJSON *props = ss_report_json_checked(cJSON_AddObjectToObject(o, "properties"));
    ss_report_json_add_string(props, "cost", ss_cost_name(rule->cost));
    cJSON *tags = ss_report_json_checked(cJSON_AddArrayToObject(props, "tags"));
    cJSON_AddItemToArray(tags, ss_report_json_checked(cJSON_CreateString("cuda")));
    cJSON_AddItemToArray(tags, ss_report_json_checked(cJSON_CreateString("performance")));
    if (rule->halves & SS_HALF_STATIC)
        cJSON_AddItemToArray(tags, ss_report_json_checked(cJSON_CreateString("lint")));
    if (rule->halves & SS_HALF_RUNTIME)
        cJSON_AddItemToArray(tags, ss_report_json_checked(cJSON_CreateString("run")));
    return o;
}

/* The message of a result: the finding's message, its hint, and for run findings what
 * was measured, each as a sentence. */
static cJSON *result_message(const ss_finding *f)
{
    char *text = ss_xstrdup(f->message ? f->message : "");
    size_t len = strlen(text);
    if (f->hint) {
        char *next = ss_xasprintf("%s%s %s", text, len && text[len - 1] == '.' ? "" : ".", f->hint);
        free(text);
        text = next;
    }
    if (f->via_file != NULL || f->via_function != NULL) {
        char via[4096];
        ss_finding_via_text(f, via, sizeof via);
        len = strlen(text);
        char *next = ss_xasprintf("%s%s Called through [%s](1)", text,
                                  len && text[len - 1] == '.' ? "" : ".", via);
        free(text);
        text = next;
    }
    if (f->origin == SS_ORIGIN_RUNTIME && f->evidence.count > 0) {
        char total[48], max[48];
        ss_format_duration(f->evidence.total_ns, total, sizeof total);
        ss_format_duration(f->evidence.max_ns, max, sizeof max);
        len = strlen(text);
        char *next = ss_xasprintf("%s%s Observed %" PRIu64 " %s, costing %s in total (%s at most)",
                                  text, len && text[len - 1] == '.' ? "" : ".", f->evidence.count,
                                  f->evidence.count == 1 ? "time" : "times", total, max);
        free(text);
        text = next;
    }
    cJSON *m = message(text);
    free(text);
    return m;
}

/* The call stack as a SARIF stack, innermost frame first. */
static cJSON *stack_json(const char *root_dir, const ss_finding *f)
{
    cJSON *stack = ss_report_json_checked(cJSON_CreateObject());
    cJSON_AddItemToObject(stack, "message", message("Call stack of the first occurrence"));
    cJSON *frames = ss_report_json_checked(cJSON_AddArrayToObject(stack, "frames"));
    for (size_t i = 0; i < f->frame_count; i++) {
        const ss_frame *fr = &f->frames[i];
        cJSON *frame = ss_report_json_checked(cJSON_CreateObject());
        cJSON *loc = ss_report_json_checked(cJSON_AddObjectToObject(frame, "location"));
        if (fr->file)
            cJSON_AddItemToObject(loc, "physicalLocation",
                                  physical_location(root_dir, fr->file, fr->line, 0, NULL));
        if (fr->function) {
            cJSON *logical =
                ss_report_json_checked(cJSON_AddArrayToObject(loc, "logicalLocations"));
            cJSON_AddItemToArray(logical, function_location(fr->function));
        }
        if (fr->module)
            ss_report_json_add_string(frame, "module", fr->module);
        cJSON *props = ss_report_json_checked(cJSON_AddObjectToObject(frame, "properties"));
        char pc[32];
        snprintf(pc, sizeof pc, "0x%" PRIx64, fr->pc);
        ss_report_json_add_string(props, "pc", pc);
        cJSON_AddItemToObject(props, "python",
                              ss_report_json_checked(cJSON_CreateBool(fr->is_python)));
        cJSON_AddItemToArray(frames, frame);
    }
    return stack;
}

/* The frames that have a source file, outermost first, as a code flow (the call path that
 * viewers such as GitHub show step by step). NULL when no frame has a file. */
static cJSON *code_flow_json(const char *root_dir, const ss_finding *f)
{
    cJSON *locations = NULL;
    for (size_t i = f->frame_count; i-- > 0;) {
        const ss_frame *fr = &f->frames[i];
        if (fr->file == NULL)
            continue;
        if (locations == NULL)
            locations = ss_report_json_checked(cJSON_CreateArray());
        cJSON *tfl = ss_report_json_checked(cJSON_CreateObject());
        cJSON *loc = ss_report_json_checked(cJSON_AddObjectToObject(tfl, "location"));
        cJSON_AddItemToObject(loc, "physicalLocation",
                              physical_location(root_dir, fr->file, fr->line, 0, NULL));
        if (fr->function)
            cJSON_AddItemToObject(loc, "message", message(fr->function));
        cJSON_AddItemToArray(locations, tfl);
    }
    if (locations == NULL)
        return NULL;
    cJSON *flow = ss_report_json_checked(cJSON_CreateObject());
    cJSON *thread_flows = ss_report_json_checked(cJSON_AddArrayToObject(flow, "threadFlows"));
    cJSON *thread_flow = ss_report_json_checked(cJSON_CreateObject());
    cJSON_AddItemToObject(thread_flow, "locations", locations);
    cJSON_AddItemToArray(thread_flows, thread_flow);
    return flow;
}

/* The result's location. GitHub needs one for every result: a run finding without a
 * source line of its own is placed on the innermost frame that has one, and one with no
 * source at all on its function, or on the program. */
static cJSON *primary_location(const char *root_dir, const char *program, const ss_finding *f)
{
    const char *file = f->file, *line_text = f->line_text, *function = f->function;
    unsigned line = f->line, column = f->column;
    /* A site without a source line (a binary built without -g) is at an offset in its module:
     * the module is the artifact, the offset its relative address. */
    if (file == NULL && f->module != NULL) {
        cJSON *loc = ss_report_json_checked(cJSON_CreateObject());
        cJSON *physical = physical_location(root_dir, f->module, 0, 0, NULL);
        cJSON *address = ss_report_json_checked(cJSON_AddObjectToObject(physical, "address"));
        ss_report_json_add_u64(address, "relativeAddress", f->module_offset);
        if (function != NULL)
            ss_report_json_add_string(address, "name", function);
        cJSON_AddItemToObject(loc, "physicalLocation", physical);
        if (function != NULL) {
            cJSON *logical =
                ss_report_json_checked(cJSON_AddArrayToObject(loc, "logicalLocations"));
            cJSON_AddItemToArray(logical, function_location(function));
        }
        return loc;
    }
    for (size_t i = 0; i < f->frame_count && file == NULL; i++) {
        if (f->frames[i].file) {
            file = f->frames[i].file;
            line = f->frames[i].line;
            column = 0;
            line_text = NULL;
        }
    }
    for (size_t i = 0; i < f->frame_count && function == NULL; i++)
        function = f->frames[i].function;
    cJSON *loc = ss_report_json_checked(cJSON_CreateObject());
    if (file)
        cJSON_AddItemToObject(loc, "physicalLocation",
                              physical_location(root_dir, file, line, column, line_text));
    cJSON *logical = NULL;
    if (function || file == NULL)
        logical = ss_report_json_checked(cJSON_AddArrayToObject(loc, "logicalLocations"));
    if (function) {
        cJSON_AddItemToArray(logical, function_location(function));
    } else if (file == NULL) {
        cJSON *module = ss_report_json_checked(cJSON_CreateObject());
        ss_report_json_add_string(module, "name", program ? program : "unknown program");
        ss_report_json_add_string(module, "kind", "module");
        cJSON_AddItemToArray(logical, module);
    }
    return loc;
}

/* The finding's fix-its as one SARIF fix: its description is the hint, its one artifact
 * change the finding's file, one replacement per fix-it (the deleted region in the run's
 * UTF-16 columns, empty for an insertion). */
static cJSON *fixes_json(const char *root_dir, const ss_finding *f)
{
    cJSON *fixes = ss_report_json_checked(cJSON_CreateArray());
    cJSON *fix = ss_report_json_checked(cJSON_CreateObject());
    if (f->hint)
        cJSON_AddItemToObject(fix, "description", message(f->hint));
    cJSON *changes = ss_report_json_checked(cJSON_AddArrayToObject(fix, "artifactChanges"));
    cJSON *change = ss_report_json_checked(cJSON_CreateObject());
    cJSON_AddItemToObject(change, "artifactLocation", artifact_location(root_dir, f->file));
    cJSON *replacements = ss_report_json_checked(cJSON_AddArrayToObject(change, "replacements"));
    for (size_t i = 0; i < f->fixit_count; i++) {
        const ss_fixit *x = &f->fixits[i];
        const char *line_text = x->line == f->line ? f->line_text : NULL;
        cJSON *r = ss_report_json_checked(cJSON_CreateObject());
        cJSON *region = ss_report_json_checked(cJSON_AddObjectToObject(r, "deletedRegion"));
        ss_report_json_add_u64(region, "startLine", x->line);
        ss_report_json_add_u64(region, "startColumn", utf16_column(line_text, x->column));
        ss_report_json_add_u64(region, "endLine", x->line);
        ss_report_json_add_u64(region, "endColumn", utf16_column(line_text, x->end_column));
        cJSON *inserted = ss_report_json_checked(cJSON_AddObjectToObject(r, "insertedContent"));
        ss_report_json_add_string(inserted, "text", x->text);
        cJSON_AddItemToArray(replacements, r);
    }
    cJSON_AddItemToArray(changes, change);
    cJSON_AddItemToArray(fixes, fix);
    return fixes;
}

/* A related location of result 'o' (its "relatedLocations", with one location, id 1, which
 * the message links to) at 'file':'line':'column' (no physical location when 'file' is NULL).
 * Returns the location, for its logical location and message. */
static cJSON *add_related(cJSON *o, const char *root_dir, const char *file, unsigned line,
                          unsigned column)
{
    cJSON *related = ss_report_json_checked(cJSON_AddArrayToObject(o, "relatedLocations"));
    cJSON *loc = ss_report_json_checked(cJSON_CreateObject());
    ss_report_json_add_i64(loc, "id", 1);
    if (file != NULL)
        cJSON_AddItemToObject(loc, "physicalLocation",
                              physical_location(root_dir, file, line, column, NULL));
    cJSON_AddItemToArray(related, loc);
    return loc;
}

/* The related locations of 'f': the library frame the call went through, which the message
 * links to ("[...](1)"); for a lint finding in a macro's argument, the macro's invocation, as
 * clang's "expanded from macro" note. */
static void add_related_locations(cJSON *o, const char *root_dir, const ss_finding *f)
{
    if (f->via_file != NULL || f->via_function != NULL) {
        char text[4096];
        ss_finding_via_text(f, text, sizeof text);
        cJSON *loc = add_related(o, root_dir, f->via_file, f->via_line, 0);
        if (f->via_function != NULL) {
            cJSON *logical =
                ss_report_json_checked(cJSON_AddArrayToObject(loc, "logicalLocations"));
            cJSON_AddItemToArray(logical, function_location(f->via_function));
        }
        char *what = ss_xasprintf("via %s", text);
        cJSON_AddItemToObject(loc, "message", message(what));
        free(what);
    }
    if (f->macro != NULL && f->file != NULL) {
        cJSON *loc = add_related(o, root_dir, f->file, f->macro_line, f->macro_column);
        char *what = ss_xasprintf("expanded from macro '%s'", f->macro);
        cJSON_AddItemToObject(loc, "message", message(what));
        free(what);
    }
}

/* The result's "properties": where it comes from, the rule's name, the hint, a run finding's
 * evidence and the figures of its own. */
static void add_properties(cJSON *o, const ss_rule *rule, const ss_finding *f)
{
    cJSON *props = ss_report_json_checked(cJSON_AddObjectToObject(o, "properties"));
    ss_report_json_add_string(props, "origin", ss_report_origin_name(f->origin));
    ss_report_json_add_string(props, "ruleName", rule->name);
    if (f->hint)
        ss_report_json_add_string(props, "hint", f->hint);
    if (f->origin == SS_ORIGIN_RUNTIME)
        cJSON_AddItemToObject(props, "evidence", ss_report_json_evidence(&f->evidence));
    if (f->extra_count > 0)
        cJSON_AddItemToObject(props, "extra", ss_report_json_extra(f));
}

static cJSON *result_json(const char *root_dir, const char *program, const ss_finding *f)
{
    const ss_rule *rule = ss_rules_get(f->rule);
    cJSON *o = ss_report_json_checked(cJSON_CreateObject());
    ss_report_json_add_string(o, "ruleId", rule->id);
    ss_report_json_add_i64(o, "ruleIndex", (long long)f->rule);
    ss_report_json_add_string(o, "level", sarif_level(f->severity));
    cJSON_AddItemToObject(o, "message", result_message(f));
    cJSON *locations = ss_report_json_checked(cJSON_AddArrayToObject(o, "locations"));
    cJSON_AddItemToArray(locations, primary_location(root_dir, program, f));
    add_related_locations(o, root_dir, f);
    char fingerprint[17];
    ss_finding_fingerprint(f, fingerprint);
    cJSON *fps = ss_report_json_checked(cJSON_AddObjectToObject(o, "partialFingerprints"));
    ss_report_json_add_string(fps, SS_SARIF_FINGERPRINT_KEY, fingerprint);
    if (f->fixit_count > 0 && f->file != NULL)
        cJSON_AddItemToObject(o, "fixes", fixes_json(root_dir, f));
    if (f->frame_count > 0) {
        cJSON *flow = code_flow_json(root_dir, f);
        if (flow) {
            cJSON *flows = ss_report_json_checked(cJSON_AddArrayToObject(o, "codeFlows"));
            cJSON_AddItemToArray(flows, flow);
        }
        cJSON *stacks = ss_report_json_checked(cJSON_AddArrayToObject(o, "stacks"));
        cJSON_AddItemToArray(stacks, stack_json(root_dir, f));
    }
    add_properties(o, rule, f);
    return o;
}

/* A toolExecutionNotification: 'text' at 'severity', about 'file' (may be NULL) at 'line' and
 * 'column' (0: none). */
static cJSON *notification(const char *root_dir, ss_severity severity, const char *text,
                           const char *file, unsigned line, unsigned column)
{
    cJSON *n = ss_report_json_checked(cJSON_CreateObject());
    ss_report_json_add_string(n, "level", sarif_level(severity));
    cJSON_AddItemToObject(n, "message", message(text));
    if (file) {
        cJSON *locations = ss_report_json_checked(cJSON_AddArrayToObject(n, "locations"));
        cJSON *loc = ss_report_json_checked(cJSON_CreateObject());
        cJSON_AddItemToObject(loc, "physicalLocation",
                              physical_location(root_dir, file, line, column, NULL));
        cJSON_AddItemToArray(locations, loc);
    }
    return n;
}

static cJSON *invocation_json(const char *root_dir, const ss_result *result)
{
    cJSON *inv = ss_report_json_checked(cJSON_CreateObject());
    cJSON_AddItemToObject(inv, "executionSuccessful", ss_report_json_checked(cJSON_CreateTrue()));
    const ss_file_counts *files = &result->files;
    /* An empty file's note is among the diagnostics already. */
    size_t skipped = 0;
    for (size_t i = 0; i < files->not_analyzed_count; i++)
        skipped += files->not_analyzed[i].reason != SS_SKIP_EMPTY;
    if (result->diag_count == 0 && files->with_errors_count == 0 && skipped == 0)
        return inv;
    cJSON *notes =
        ss_report_json_checked(cJSON_AddArrayToObject(inv, "toolExecutionNotifications"));
    for (size_t i = 0; i < result->diag_count; i++) {
        const ss_diag *d = &result->diags[i];
        cJSON_AddItemToArray(
            notes, notification(root_dir, d->severity, d->message, d->file, d->line, d->column));
    }
    /* Then one per file that had errors or was left out, so that a viewer shows how much of
     * the project was analyzed. */
    for (size_t i = 0; i < files->with_errors_count; i++)
        cJSON_AddItemToArray(notes, notification(root_dir, SS_SEV_WARNING,
                                                 "analyzed with parse errors: findings in this "
                                                 "file may be missing",
                                                 files->with_errors[i], 0, 0));
    for (size_t i = 0; i < files->not_analyzed_count; i++) {
        const ss_skipped_file *s = &files->not_analyzed[i];
        if (s->reason != SS_SKIP_EMPTY)
            cJSON_AddItemToArray(notes,
                                 notification(root_dir, SS_SEV_NOTE,
                                              ss_skip_reason_sentence(s->reason), s->file, 0, 0));
    }
    return inv;
}

static cJSON *run_properties(const ss_result *result)
{
    cJSON *props = ss_report_json_checked(cJSON_CreateObject());
    ss_report_json_add_string(props, "kind", ss_report_kind_name(result->kind));
    if (result->files.counted)
        cJSON_AddItemToObject(props, "files", ss_report_json_files(&result->files));
    if (result->kind != SS_RESULT_RUN)
        return props;
    ss_report_json_add_string(props, "program", result->program);
    ss_report_json_add_string(props, "commandLine", result->command_line);
    ss_report_json_add_string(props, "hostname", result->hostname);
    ss_report_json_add_i64(props, "pid", result->pid);
    ss_report_json_add_i64(props, "rank", result->rank);
    ss_report_json_add_string(props, "gpu", result->gpu);
    ss_report_json_add_string(props, "driver", result->driver);
    ss_report_json_add_string(props, "cuda", result->cuda);
    ss_report_json_add_string(props, "cudaRuntime", result->cuda_runtime);
    ss_report_json_add_u64(props, "wallNs", result->wall_ns);
    ss_report_json_add_u64(props, "blockedNs", result->blocked_ns);
    ss_report_json_add_u64(props, "gpuBusyNs", result->gpu_busy_ns);
    ss_report_json_add_u64(props, "events", result->events);
    ss_report_json_add_u64(props, "dropped", result->dropped);
    ss_report_json_add_string(props, "startedAt", result->started_at);
    return props;
}

int ss_report_write_sarif(FILE *out, const ss_result *result)
{
    char *root_dir = ss_report_root_dir(result);
    cJSON *root = ss_report_json_checked(cJSON_CreateObject());
    ss_report_json_add_string(root, "$schema", SS_SARIF_SCHEMA);
    ss_report_json_add_string(root, "version", "2.1.0");
    cJSON *runs = ss_report_json_checked(cJSON_AddArrayToObject(root, "runs"));
    cJSON *run = ss_report_json_checked(cJSON_CreateObject());
    cJSON_AddItemToArray(runs, run);

    cJSON *driver = ss_report_json_checked(cJSON_CreateObject());
    cJSON *tool = ss_report_json_checked(cJSON_AddObjectToObject(run, "tool"));
    cJSON_AddItemToObject(tool, "driver", driver);
    ss_report_json_add_string(driver, "name", "syncscope");
    ss_report_json_add_string(driver, "version", SS_VERSION);
    ss_report_json_add_string(driver, "semanticVersion", SS_VERSION);
    ss_report_json_add_string(driver, "informationUri", SS_INFORMATION_URI);
    cJSON *rules = ss_report_json_checked(cJSON_AddArrayToObject(driver, "rules"));
    size_t rule_count;
    const ss_rule *all = ss_rules_all(&rule_count);
    for (size_t i = 0; i < rule_count; i++)
        cJSON_AddItemToArray(rules, rule_json(&all[i]));

    cJSON *invocations = ss_report_json_checked(cJSON_AddArrayToObject(run, "invocations"));
    cJSON_AddItemToArray(invocations, invocation_json(root_dir, result));

    cJSON *base_ids = ss_report_json_checked(cJSON_AddObjectToObject(run, "originalUriBaseIds"));
    cJSON *srcroot = ss_report_json_checked(cJSON_AddObjectToObject(base_ids, SS_SARIF_SRCROOT));
    char *encoded = percent_encode(root_dir);
    char *root_uri = ss_xasprintf("file://%s%s", encoded, strcmp(root_dir, "/") ? "/" : "");
    ss_report_json_add_string(srcroot, "uri", root_uri);
    free(root_uri);
    free(encoded);

    ss_report_json_add_string(run, "columnKind", "utf16CodeUnits");
    cJSON *results = ss_report_json_checked(cJSON_AddArrayToObject(run, "results"));
    for (size_t i = 0; i < result->count; i++)
        cJSON_AddItemToArray(results, result_json(root_dir, result->program, &result->findings[i]));
    cJSON_AddItemToObject(run, "properties", run_properties(result));

    int rc = ss_report_json_print(out, root);
    cJSON_Delete(root);
    free(root_dir);
    return rc == 0 && !ferror(out) ? 0 : -1;
}
