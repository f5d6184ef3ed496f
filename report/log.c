/* log.c: the one place where the tool's own messages are printed, and small string helpers. */
#include "report.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void log_line(const char *level, const char *fmt, va_list ap)
{
    char buf[2048];
    vsnprintf(buf, sizeof buf, fmt, ap);
    fprintf(stderr, "syncscope: %s%s\n", level, buf);
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

static void out_of_memory(void)
{
    fputs("syncscope: error: out of memory\n", stderr);
    abort();
}

char *ss_strdup(const char *s)
{
    if (s == NULL)
        return NULL;
    char *copy = strdup(s);
    if (copy == NULL)
        out_of_memory();
    return copy;
}

char *ss_asprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *out = NULL;
    int n = vasprintf(&out, fmt, ap);
    va_end(ap);
    if (n < 0)
        out_of_memory();
    return out;
}
