/* report_common.c: helpers shared by the writers: JSON pieces, the root folder of relative
 * paths. */
#include "log.h"
#include "path.h"
#include "report_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *ss_report_origin_name(int origin)
{
    switch (origin) {
    case SS_ORIGIN_STATIC:
        return "static";
    case SS_ORIGIN_RUNTIME:
        return "runtime";
    default:
        return "unknown";
    }
}

const char *ss_report_kind_name(ss_result_kind kind)
{
    return kind == SS_RESULT_RUN ? "run" : "lint";
}

cJSON *ss_report_json_checked(cJSON *item)
{
    if (item == NULL)
        ss_out_of_memory();
    return item;
}

/* The bytes the character at 'text' spans (within 'avail'), or 0 when it is no valid UTF-8. */
static size_t utf8_span(const char *text, size_t avail)
{
    uint32_t code_point;
    return (unsigned char)text[0] < 0x80 ? 1 : ss_utf8_decode(text, avail, &code_point);
}

/* 'text' with every byte that does not start a valid UTF-8 sequence (a stray continuation
 * byte, a truncated or overlong sequence, a surrogate, a code point past U+10FFFF) replaced by
 * U+FFFD, one per byte, as the text and HTML writers do: cJSON passes bytes through, and JSON
 * must be UTF-8. Returns NULL when 'text' is valid UTF-8 already (nothing to copy), else a
 * malloc'ed string. */
static char *utf8_repaired(const char *text)
{
    size_t len = strlen(text), bad = 0;
    for (size_t i = 0, n; i < len; i += n ? n : 1) {
        n = utf8_span(text + i, len - i);
        bad += n == 0;
    }
    if (bad == 0)
        return NULL;
    if (bad > (SIZE_MAX - len - 1) / 2)
        ss_out_of_memory();
    char *out = ss_xreallocarray(NULL, len + 2 * bad + 1, 1);
    size_t o = 0;
    for (size_t i = 0, n; i < len; i += n ? n : 1) {
        n = utf8_span(text + i, len - i);
        if (n == 0) {
            memcpy(out + o, "\xef\xbf\xbd", 3); /* U+FFFD */
            o += 3;
        } else {
            memcpy(out + o, text + i, n);
            o += n;
        }
    }
    out[o] = '\0';
    return out;
}

void ss_report_json_add_string(cJSON *object, const char *name, const char *value)
{
    char *fixed_name = utf8_repaired(name);
    char *fixed_value = value ? utf8_repaired(value) : NULL;
    const char *text = fixed_value ? fixed_value : value;
    /* cJSON_AddItemToObject copies the name. */
    cJSON_AddItemToObject(
        object, fixed_name ? fixed_name : name,
        ss_report_json_checked(text ? cJSON_CreateString(text) : cJSON_CreateNull()));
    free(fixed_name);
    free(fixed_value);
}

/* Integers are written as raw text so that 64-bit values are printed exactly (cJSON would
 * print them through a double). */
void ss_report_json_add_u64(cJSON *object, const char *name, uint64_t value)
{
    char text[32];
    snprintf(text, sizeof text, "%" PRIu64, value);
    cJSON_AddItemToObject(object, name, ss_report_json_checked(cJSON_CreateRaw(text)));
}

void ss_report_json_add_i64(cJSON *object, const char *name, long long value)
{
    char text[32];
    snprintf(text, sizeof text, "%lld", value);
    cJSON_AddItemToObject(object, name, ss_report_json_checked(cJSON_CreateRaw(text)));
}

cJSON *ss_report_json_evidence(const ss_evidence *ev)
{
    cJSON *o = ss_report_json_checked(cJSON_CreateObject());
    ss_report_json_add_u64(o, "count", ev->count);
    ss_report_json_add_u64(o, "totalNs", ev->total_ns);
    ss_report_json_add_u64(o, "maxNs", ev->max_ns);
    ss_report_json_add_u64(o, "bytes", ev->bytes);
    ss_report_json_add_string(o, "api", ev->api);
    ss_report_json_add_string(o, "direction", ev->direction);
    ss_report_json_add_string(o, "hostKind", ev->host_kind);
    ss_report_json_add_string(o, "waitedFor", ev->waited_for);
    ss_report_json_add_string(o, "stream", ev->stream);
    ss_report_json_add_i64(o, "device", ev->device);
    return o;
}

cJSON *ss_report_json_frame(const ss_frame *fr)
{
    char pc[32];
    snprintf(pc, sizeof pc, "0x%" PRIx64, fr->pc);
    cJSON *o = ss_report_json_checked(cJSON_CreateObject());
    ss_report_json_add_string(o, "pc", pc);
    ss_report_json_add_string(o, "function", fr->function);
    ss_report_json_add_string(o, "file", fr->file);
    ss_report_json_add_u64(o, "line", fr->line);
    ss_report_json_add_string(o, "module", fr->module);
    cJSON_AddItemToObject(o, "python", ss_report_json_checked(cJSON_CreateBool(fr->is_python)));
    return o;
}

cJSON *ss_report_json_extra(const ss_finding *f)
{
    cJSON *o = ss_report_json_checked(cJSON_CreateObject());
    for (size_t i = 0; i < f->extra_count; i++)
        ss_report_json_add_string(o, f->extra[i].key ? f->extra[i].key : "", f->extra[i].value);
    return o;
}

int ss_report_json_print(FILE *out, const cJSON *root)
{
    char *text = cJSON_Print(root);
    if (text == NULL)
        ss_out_of_memory();
    int rc = fputs(text, out) < 0 || fputc('\n', out) == EOF ? -1 : 0;
    cJSON_free(text);
    return rc;
}

char *ss_report_root_dir(const ss_result *result)
{
    char *cwd = getcwd(NULL, 0);
    char *root = ss_path_normalize(cwd ? cwd : "/", result->root ? result->root : ".");
    free(cwd);
    return root;
}

char *ss_report_relative_path(const char *root_dir, const char *file, int *inside)
{
    char *cwd = getcwd(NULL, 0);
    char *abs = ss_path_normalize(cwd ? cwd : "/", file);
    free(cwd);
    const char *under = ss_path_under(root_dir, abs);
    *inside = under != NULL;
    if (under == NULL)
        return abs;
    char *rel = ss_xstrdup(under);
    free(abs);
    return rel;
}
