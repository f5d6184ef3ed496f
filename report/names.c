/* names.c: what the readable outputs leave out of a run finding: the template arguments and
 * parameter lists of kernel and function names, and the interpreter's own frames. */
#include "log.h"
#include "report_int.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define ANONYMOUS_NAMESPACE "(anonymous namespace)"
#define OPERATOR "operator"

/* Whether 'name' at 'at' is the keyword "operator" (not the end of a longer identifier such as
 * "my_operator", nor the start of one such as "operators"). */
static bool is_operator_at(const char *name, size_t at)
{
    size_t len = strlen(OPERATOR);
    if (strncmp(name + at, OPERATOR, len) != 0)
        return false;
    char before = at > 0 ? name[at - 1] : ' ';
    char after = name[at + len];
    bool ident_before = before == '_' || (before >= '0' && before <= '9') ||
                        (before >= 'a' && before <= 'z') || (before >= 'A' && before <= 'Z');
    bool ident_after = after == '_' || (after >= '0' && after <= '9') ||
                       (after >= 'a' && after <= 'z') || (after >= 'A' && after <= 'Z');
    return !ident_before && !ident_after;
}

/* The bytes of an operator's symbol after "operator" at 'name' ("()", "<<=", "[]", "->*",
 * " new"); 0 for a conversion operator ("operator bool"), whose type reads as a name. */
static size_t operator_symbol(const char *name)
{
    if (strncmp(name, "()", 2) == 0 || strncmp(name, "[]", 2) == 0)
        return 2;
    return strspn(name, "+-*/%^&|~!=<>,");
}

/* 'name' ('len' bytes) into 'out' (at least len + 1 bytes) without its template arguments,
 * up to its parameter list, trailing blanks left out; its length into '*used'. Returns false
 * when the name is to be kept as it is: its brackets do not pair (an unusual demangling) or
 * nothing was left out. */
static bool cut_templates(const char *name, size_t len, char *out, size_t *used)
{
    size_t o = 0, i = 0;
    int angle = 0, brace = 0;
    bool cut = false;
    while (i < len) {
        char c = name[i];
        size_t n = 0;
        if (angle == 0 && brace == 0 &&
            strncmp(name + i, ANONYMOUS_NAMESPACE, strlen(ANONYMOUS_NAMESPACE)) == 0)
            n = strlen(ANONYMOUS_NAMESPACE);
        else if (angle == 0 && is_operator_at(name, i))
            n = strlen(OPERATOR) + operator_symbol(name + i + strlen(OPERATOR));
        if (n > 0) {
            memcpy(out + o, name + i, n);
            o += n;
            i += n;
            continue;
        }
        if (c == '<') {
            angle++;
        } else if (c == '>' && angle > 0) {
            angle--;
        } else if (angle == 0 && c == '{') {
            brace++;
            out[o++] = c;
        } else if (angle == 0 && c == '}' && brace > 0) {
            brace--;
            out[o++] = c;
        } else if (angle == 0 && brace == 0 && c == '(') {
            cut = true;
            break;
        } else if (angle == 0) {
            out[o++] = c;
        }
        i++;
    }
    if (angle != 0 || brace != 0 || (o == len && !cut))
        return false;
    while (o > 0 && out[o - 1] == ' ')
        o--;
    out[o] = '\0';
    *used = o;
    return true;
}

/* Where the name 'out' ('o' bytes) starts without its return type: after the last space
 * outside "(anonymous namespace)" and braces (and not the one after "operator"); 0 when
 * there is none. */
static size_t after_return_type(const char *out, size_t o)
{
    size_t start = 0;
    int brace = 0;
    for (size_t k = 0; k < o; k++) {
        if (strncmp(out + k, ANONYMOUS_NAMESPACE, strlen(ANONYMOUS_NAMESPACE)) == 0) {
            k += strlen(ANONYMOUS_NAMESPACE) - 1;
            continue;
        }
        if (out[k] == '{')
            brace++;
        else if (out[k] == '}' && brace > 0)
            brace--;
        else if (out[k] == ' ' && brace == 0 && !(k >= 8 && is_operator_at(out, k - 8)))
            start = k + 1;
    }
    return start;
}

char *ss_report_short_name(const char *name)
{
    size_t len = strlen(name);
    char *out = ss_xreallocarray(NULL, len + 1, 1);
    size_t o = 0;
    size_t start = 0;
    if (cut_templates(name, len, out, &o))
        start = after_return_type(out, o);
    if (o == 0 || start >= o) {
        free(out);
        return ss_xstrdup(name);
    }
    memmove(out, out + start, o - start + 1);
    return out;
}

/* The end of the kernel name that starts at 'name' inside "kernel '...'": the first quote
 * outside brackets, else the first quote. Returns a pointer to that quote, or NULL. */
static const char *quoted_name_end(const char *name)
{
    int depth = 0;
    for (const char *p = name; *p != '\0'; p++) {
        if (*p == '<' || *p == '(' || *p == '{' || *p == '[')
            depth++;
        else if ((*p == '>' || *p == ')' || *p == '}' || *p == ']') && depth > 0)
            depth--;
        else if (*p == '\'' && depth == 0)
            return p;
    }
    return strchr(name, '\'');
}

char *ss_report_short_kernels(const char *text)
{
    static const char mark[] = "kernel '";
    size_t cap = strlen(text) + 1, len = 0;
    char *out = ss_xreallocarray(NULL, cap, 1);
    const char *p = text;
    for (const char *hit = strstr(p, mark); hit != NULL; hit = strstr(p, mark)) {
        const char *name = hit + strlen(mark);
        const char *end = quoted_name_end(name);
        if (end == NULL)
            break;
        char *full = ss_xreallocarray(NULL, (size_t)(end - name) + 1, 1);
        memcpy(full, name, (size_t)(end - name));
        full[end - name] = '\0';
        char *shown = ss_report_short_name(full);
        /* The short name is never longer than the full one, so 'out' keeps its size. */
        memcpy(out + len, p, (size_t)(name - p));
        len += (size_t)(name - p);
        memcpy(out + len, shown, strlen(shown));
        len += strlen(shown);
        free(shown);
        free(full);
        p = end;
    }
    memcpy(out + len, p, strlen(p) + 1);
    return out;
}

/* Whether 'path' names the Python interpreter: its library (libpython3.12.so.1.0) or its
 * executable (python, python3, python3.12, python3.12d). */
static bool is_interpreter_module(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash != NULL ? slash + 1 : path;
    if (strncmp(base, "libpython", 9) == 0)
        return true;
    if (strncmp(base, "python", 6) != 0)
        return false;
    return strspn(base + 6, "0123456789.dmu") == strlen(base + 6);
}

int ss_report_frame_hidden(const ss_finding *finding, size_t index)
{
    const ss_frame *fr = &finding->frames[index];
    if (fr->is_python)
        return 0;
    if (fr->module != NULL && is_interpreter_module(fr->module))
        return 1;
    /* Below the outermost Python frame (frames are innermost first) is only the interpreter
     * being started: its main, the C library's start; below a native program's main, the C
     * library's start. */
    for (size_t i = 0; i < index; i++) {
        const ss_frame *inner = &finding->frames[i];
        if (!inner->is_python && inner->function != NULL && strcmp(inner->function, "main") == 0)
            return 1;
    }
    for (size_t i = index + 1; i < finding->frame_count; i++) {
        if (finding->frames[i].is_python)
            return 0;
    }
    for (size_t i = 0; i < index; i++) {
        if (finding->frames[i].is_python)
            return 1;
    }
    return 0;
}
