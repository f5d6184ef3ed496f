/* util.h: the small helpers every part shares: array growth, UTF-8 decoding and FNV-1a hashing,
 * the one duration format and the one "did you mean". No part of syncscope lies below util/; it
 * depends on libc alone. */
#ifndef SS_UTIL_H
#define SS_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The line 'line' (from 1) of 'text' ('size' bytes, not NUL-terminated), without its
 * newline ('\n' or '\r\n'), malloc'ed; NULL for line 0, a line past the end, or when memory is
 * exhausted. */
char *ss_text_line(const char *text, size_t size, unsigned line);

/* Grows the array '*base' of '*cap' elements of 'size' bytes to hold at least 'need'
 * (capacity doubles from 16). Returns 0, or -1 when memory is exhausted or the size would
 * overflow; then '*base' and '*cap' are unchanged. This is the out-of-memory policy of code
 * that runs inside the observed program (the event log, the detectors): report and go on,
 * never abort. The tool's own writers use the ss_x* allocators of log.h, which abort with
 * "out of memory" instead. */
int ss_grow(void **base, size_t *cap, size_t need, size_t size);

/* FNV-1a (64 bits): 'h' (SS_FNV1A_SEED to start) updated with 'len' bytes of 'data'. */
#define SS_FNV1A_SEED 0xcbf29ce484222325ULL
uint64_t ss_fnv1a(uint64_t h, const void *data, size_t len);

/* Decodes the UTF-8 character at 'text' ('avail' bytes readable): returns its length (2-4)
 * and sets '*code_point', or returns 0 when the bytes there are not one well-formed
 * multi-byte character (ASCII, an overlong form, a surrogate, past U+10FFFF, cut short). */
size_t ss_utf8_decode(const char *text, size_t avail, uint32_t *code_point);

/* Bytes an escape of ss_text_char needs, its NUL included. */
#define SS_TEXT_ESCAPE_SIZE 12

/* How the character at 'text' (at most 'avail' bytes, at least one) is written where a
 * terminal shows it (docs/output-formats.md, "Control characters"): sets 'escape' to its
 * escaped form, or to "" when it is written as it is. Returns the bytes it spans. */
size_t ss_text_char(const char *text, size_t avail, char escape[SS_TEXT_ESCAPE_SIZE]);

/* Writes the 'len' bytes at 'text' to 'out' with every character ss_text_char
 * escapes escaped. */
void ss_put_text(FILE *out, const char *text, size_t len);

/* How ss_markdown_put reads its text. */
typedef enum ss_markdown_source {
    /* Markdown already, written into a table cell: only '|' is escaped ("\|"), which would
     * end the cell (also inside a code span) */
    SS_MARKDOWN_CELL,
    /* plain text: each character Markdown would read (\ ` * _ [ ] < > # |) is escaped with a
     * backslash, so that the text renders as written ("k<<<grid>>>" is no HTML, "PREFIX*" no
     * emphasis); also safe in a table cell */
    SS_MARKDOWN_PLAIN
} ss_markdown_source;

/* Writes the 'len' bytes at 'text' to 'out' escaped as 'source' says: the one Markdown escape
 * of the generated docs (the tables of settings, formats and options, the rule pages) and of
 * SARIF's rule help. */
void ss_markdown_put(FILE *out, const char *text, size_t len, ss_markdown_source source);

/* Writes 'text' to 'out' as a JSON string that is also safe inside an HTML <script> block:
 * quotes, backslashes and control characters escaped ("\n", "\t", "\r", else \u00XX), '<',
 * '>' and '&' and U+2028/U+2029 as \u escapes, each byte that starts no UTF-8 sequence as
 * U+FFFD; at most 'max' bytes of 'text' are written (cut before the character that would pass
 * it, then an ellipsis, U+2026); SIZE_MAX for all of it. NULL is written as null. The one
 * JSON string writer of the hand-written JSON outputs (the Chrome trace, the HTML page's data
 * block); the result files go through cJSON. */
void ss_json_write_string(FILE *out, const char *text, size_t max);

/* The one way a duration is printed, in every message and writer: under 100 us as
 * microseconds with one decimal ("12.3 us"), under 1 s as milliseconds with two ("0.30 ms",
 * "123.46 ms"), from 1 s as seconds with two ("3.72 s"); rounded to nearest. Writes into
 * 'buf' ('size' bytes, SS_DURATION_SIZE is enough) and returns it. */
#define SS_DURATION_SIZE 32
const char *ss_format_duration(uint64_t ns, char *buf, size_t size);

/* The optimal string alignment distance between 'a' and 'b' (insertions, deletions,
 * substitutions and transpositions of neighbours), compared without regard to case, computed
 * up to 'limit': any larger distance, and any word longer than 64 bytes, gives limit + 1. */
size_t ss_edit_distance(const char *a, const char *b, size_t limit);

/* The largest edit distance a suggestion may have. */
#define SS_SUGGEST_DISTANCE 2

/* "Did you mean": among 'candidates' ('count' strings, NULL entries skipped), the one nearest
 * to 'word' within SS_SUGGEST_DISTANCE and less than the word's length, compared without regard
 * to case; between equally near ones, the one that shares the longest start with 'word', then
 * the first. Else the one candidate that starts with 'word' (of 3 characters or more). Returns
 * a pointer into 'candidates', or NULL when none is near. */
const char *ss_suggest(const char *word, const char *const *candidates, size_t count);

#endif
