/* log.c: the one place where the tool's own messages are printed, and the allocators that
 * abort with a message when memory runs out (log.h). */
#include "log.h"
#include "util.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Messages quote names from traces and sources (kernels, files): their control characters
 * are escaped as in the text format, so that a name cannot drive the terminal. */
static size_t compose_line(char *line, size_t size, const char *level, const char *message)
{
    int o = snprintf(line, size, "syncscope: %s", level);
    size_t used = o > 0 ? (size_t)o : 0, len = strlen(message);
    if (used >= size)
        used = size - 1;
    for (size_t i = 0; i < len;) {
        char escape[SS_TEXT_ESCAPE_SIZE];
        size_t n = ss_text_char(message + i, len - i, escape);
        const char *piece = escape[0] ? escape : message + i;
        size_t piece_len = escape[0] ? strlen(escape) : n;
        if (used + piece_len + 1 >= size)
            break;
        memcpy(line + used, piece, piece_len);
        used += piece_len;
        i += n;
    }
    line[used++] = '\n';
    line[used] = '\0';
    return used;
}

size_t ss_log_compose(char *line, size_t size, const char *level, const char *fmt, ...)
{
    char message[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    return compose_line(line, size, level, message);
}

/* The line is written with one call, so that lines of several processes on one stderr do
 * not mix. */
static void log_line(const char *level, const char *fmt, va_list ap)
{
    /* A message longer than the buffers on the stack (--verbose's argument lines of a long
     * compile command) is written whole, from the heap; where that fails, cut. */
    char message[2048], line[4096];
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(message, sizeof message, fmt, ap);
    char *text = message;
    if (n >= (int)sizeof message && (text = malloc((size_t)n + 1)) != NULL)
        vsnprintf(text, (size_t)n + 1, fmt, again);
    else
        text = message;
    va_end(again);
    size_t size = strlen("syncscope: ") + strlen(level) + strlen(text) * SS_TEXT_ESCAPE_SIZE + 2;
    char *out = size > sizeof line ? malloc(size) : NULL;
    if (out == NULL) {
        out = line;
        size = sizeof line;
    }
    size_t used = compose_line(out, size, level, text);
    fwrite(out, 1, used, stderr);
    if (out != line)
        free(out);
    if (text != message)
        free(text);
}

void ss_log_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    log_line("error: ", fmt, ap);
    va_end(ap);
}

void ss_log_warning(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    log_line("warning: ", fmt, ap);
    va_end(ap);
}

void ss_log_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    log_line("", fmt, ap);
    va_end(ap);
}

void ss_out_of_memory(void)
{
    ss_log_error("out of memory");
    abort();
}

void *ss_xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (p == NULL)
        ss_out_of_memory();
    return p;
}

void *ss_xreallocarray(void *p, size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size)
        ss_out_of_memory();
    size_t bytes = count * size;
    void *q = realloc(p, bytes ? bytes : 1);
    if (q == NULL)
        ss_out_of_memory();
    return q;
}

void ss_xgrow(void **base, size_t *cap, size_t need, size_t size)
{
    if (ss_grow(base, cap, need, size) != 0)
        ss_out_of_memory();
}

void *ss_xpush(void **base, size_t *cap, size_t *count, size_t size)
{
    ss_xgrow(base, cap, *count + 1, size);
    void *item = (char *)*base + *count * size;
    memset(item, 0, size);
    (*count)++;
    return item;
}

void *ss_xcalloc(size_t count, size_t size)
{
    void *p = calloc(count && size ? count : 1, count && size ? size : 1);
    if (p == NULL)
        ss_out_of_memory();
    return p;
}

char *ss_xstrdup(const char *s)
{
    if (s == NULL)
        return NULL;
    char *copy = strdup(s);
    if (copy == NULL)
        ss_out_of_memory();
    return copy;
}

char *ss_xvasprintf(const char *fmt, va_list ap)
{
    char *out = NULL;
    if (vasprintf(&out, fmt, ap) < 0)
        ss_out_of_memory();
    return out;
}

void ss_set_error(char *err, size_t err_size, const char *fmt, ...)
{
    if (err == NULL || err_size == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_size, fmt, ap);
    va_end(ap);
}

char *ss_xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *out = ss_xvasprintf(fmt, ap);
    va_end(ap);
    return out;
}
