/* log.h: the tool's messages and the allocators that abort with one when memory runs out.
 * The names carry the policy: ss_x* never return NULL (they print "out of memory" and abort),
 * while ss_grow (util.h) returns -1 and leaves the array as it was, for code that runs inside
 * the observed program. */
#ifndef SS_LOG_H
#define SS_LOG_H

#include <stdarg.h>
#include <stddef.h>

/* Messages: every line the tool prints about itself goes through these, with the
 * "syncscope: " prefix, on stderr, each line with one write so that the lines of several
 * processes do not mix. Control characters of the message are escaped as ss_text_char does. */
void ss_log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ss_log_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ss_log_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The line ss_log_error ('level' "error: "), ss_log_warning ("warning: ") or ss_log_note ("")
 * would print, with its newline, into 'line' ('size' bytes, at least 64), for a message that
 * must be written later without a call that allocates (from a signal handler). Returns its
 * length. */
size_t ss_log_compose(char *line, size_t size, const char *level, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Prints "out of memory" through ss_log_error and aborts: the tool's one answer to
 * exhausted memory. */
void ss_out_of_memory(void) __attribute__((noreturn));
/* malloc of 'size' bytes (at least one). Aborts through ss_out_of_memory on exhaustion. */
void *ss_xmalloc(size_t size);
/* realloc of 'p' to 'count' elements of 'size' bytes (at least one byte). Aborts on
 * exhaustion, and when count * size does not fit in a size_t. */
void *ss_xreallocarray(void *p, size_t count, size_t size);
/* ss_grow (util.h) that aborts through ss_out_of_memory instead of returning -1: the growth
 * of the tool's own arrays. */
void ss_xgrow(void **base, size_t *cap, size_t need, size_t size);
/* Appends one element of 'size' bytes, zeroed, to the array '*base' of '*count' elements (grown
 * as ss_xgrow) and returns it; '*count' is incremented. */
void *ss_xpush(void **base, size_t *cap, size_t *count, size_t size);
/* calloc of 'count' elements of 'size' bytes (at least one byte), aborting as
 * ss_xreallocarray. */
void *ss_xcalloc(size_t count, size_t size);
/* strdup that aborts on exhaustion; NULL stays NULL. */
char *ss_xstrdup(const char *s);
/* malloc'ed printf. Aborts on exhaustion. */
char *ss_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* ss_xasprintf with a va_list. */
char *ss_xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* printf into the caller's error buffer 'err' ('err_size' bytes), the one-line description a
 * function that returns -1 leaves for its caller to print; does nothing when 'err' is NULL or
 * 'err_size' is 0. */
void ss_set_error(char *err, size_t err_size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
