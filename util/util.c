/* util.c: array growth, hashing, UTF-8 decoding and the duration format (util.h). */
#include "util.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ss_grow(void **base, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t ncap = *cap ? *cap : 16;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return -1;
        ncap *= 2;
    }
    if (size != 0 && ncap > SIZE_MAX / size)
        return -1;
    void *p = realloc(*base, ncap * size);
    if (p == NULL)
        return -1;
    *base = p;
    *cap = ncap;
    return 0;
}

uint64_t ss_fnv1a(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

size_t ss_utf8_decode(const char *text, size_t avail, uint32_t *code_point)
{
    const unsigned char *p = (const unsigned char *)text;
    unsigned c = p[0];
    size_t n;
    uint32_t cp, min;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
        cp = c & 0x1fu;
        min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        cp = c & 0x0fu;
        min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        cp = c & 0x07u;
        min = 0x10000;
    } else {
        return 0;
    }
    if (n > avail)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3fu);
    }
    /* Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not UTF-8. */
    if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
        return 0;
    *code_point = cp;
    return n;
}

const char *ss_format_duration(uint64_t ns, char *buf, size_t size)
{
    if (ns >= 999995000ull) {                            /* what rounds to 1000.00 ms or more */
        uint64_t hundredths = (ns + 5000000) / 10000000; /* of a second */
        snprintf(buf, size, "%" PRIu64 ".%02u s", hundredths / 100, (unsigned)(hundredths % 100));
    } else if (ns >= 99950) {                      /* what rounds to 100.0 us or more */
        uint64_t hundredths = (ns + 5000) / 10000; /* of a millisecond */
        snprintf(buf, size, "%" PRIu64 ".%02u ms", hundredths / 100, (unsigned)(hundredths % 100));
    } else {
        uint64_t tenths = (ns + 50) / 100; /* of a microsecond */
        snprintf(buf, size, "%" PRIu64 ".%u us", tenths / 10, (unsigned)(tenths % 10));
    }
    return buf;
}

/* Writes the ASCII character 'c' as it stands inside such a JSON string. */
static void json_ascii(FILE *out, unsigned c)
{
    switch (c) {
    case '"':
        fputs("\\\"", out);
        break;
    case '\\':
        fputs("\\\\", out);
        break;
    case '\n':
        fputs("\\n", out);
        break;
    case '\t':
        fputs("\\t", out);
        break;
    case '\r':
        fputs("\\r", out);
        break;
    case '<':
    case '>':
    case '&':
        fprintf(out, "\\u%04x", c);
        break;
    default:
        if (c < 0x20 || c == 0x7f)
            fprintf(out, "\\u%04x", c);
        else
            fputc((int)c, out);
    }
}

void ss_markdown_put(FILE *out, const char *text, size_t len, ss_markdown_source source)
{
    const char *special = source == SS_MARKDOWN_PLAIN ? "\\`*_[]<>#|" : "|";
    for (size_t i = 0; i < len; i++) {
        if (text[i] != '\0' && strchr(special, text[i]) != NULL)
            fputc('\\', out);
        fputc(text[i], out);
    }
}

void ss_json_write_string(FILE *out, const char *text, size_t max)
{
    if (text == NULL) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    const unsigned char *p = (const unsigned char *)text;
    size_t used = 0;
    while (*p) {
        uint32_t cp = 0;
        /* The string ends in a NUL, which stops the decoder before it reads past it. */
        size_t n = *p < 0x80 ? 1 : ss_utf8_decode((const char *)p, 4, &cp);
        size_t take = n ? n : 1;
        if (take > max - used) {
            fputs("\\u2026", out);
            break;
        }
        if (*p < 0x80)
            json_ascii(out, *p);
        else if (n == 0)
            fputs("\\ufffd", out);
        else if (cp == 0x2028 || cp == 0x2029)
            fprintf(out, "\\u%04x", (unsigned)cp);
        else
            fwrite(p, 1, n, out);
        p += take;
        used += take;
    }
    fputc('"', out);
}

/* ---- characters a terminal must not interpret ---- */

/* The Unicode controls that reorder the text around them (bidirectional marks, embeddings,
 * overrides and isolates): shown escaped so that a name cannot read differently from what it
 * is. */
static bool is_bidi_control(uint32_t cp)
{
    return cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
           (cp >= 0x2066 && cp <= 0x2069);
}

size_t ss_text_char(const char *text, size_t avail, char escape[SS_TEXT_ESCAPE_SIZE])
{
    unsigned c = (unsigned char)text[0];
    escape[0] = '\0';
    if (c == '\t' || (c >= 0x20 && c < 0x7f))
        return 1;
    if (c < 0x20 || c == 0x7f) {
        /* Caret notation, as git, less and cat -v show them: ESC is ^[, DEL is ^?. */
        escape[0] = '^';
        escape[1] = c == 0x7f ? '?' : (char)(c + 0x40);
        escape[2] = '\0';
        return 1;
    }
    uint32_t cp = 0;
    size_t n = ss_utf8_decode(text, avail, &cp);
    if (n == 0) {
        /* Not UTF-8: the byte in hex, as clang shows it in a source line. */
        snprintf(escape, SS_TEXT_ESCAPE_SIZE, "<%02X>", c);
        return 1;
    }
    if (cp <= 0x9f || is_bidi_control(cp))
        snprintf(escape, SS_TEXT_ESCAPE_SIZE, "<U+%04" PRIX32 ">", cp);
    return n;
}

void ss_put_text(FILE *out, const char *text, size_t len)
{
    size_t plain = 0; /* start of the run of bytes written as they are */
    size_t i = 0;
    while (i < len) {
        char escape[SS_TEXT_ESCAPE_SIZE];
        size_t n = ss_text_char(text + i, len - i, escape);
        if (escape[0]) {
            fwrite(text + plain, 1, i - plain, out);
            fputs(escape, out);
            plain = i + n;
        }
        i += n;
    }
    fwrite(text + plain, 1, len - plain, out);
}

char *ss_text_line(const char *text, size_t size, unsigned line)
{
    const char *p = text, *end = text + size;
    if (text == NULL || line == 0)
        return NULL;
    for (unsigned l = 1; l < line; l++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (nl == NULL)
            return NULL;
        p = nl + 1;
    }
    if (line > 1 && p == end)
        return NULL; /* past the final newline */
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    size_t len = eol ? (size_t)(eol - p) : (size_t)(end - p);
    if (len && p[len - 1] == '\r')
        len--;
    char *out = malloc(len + 1);
    if (out) {
        memcpy(out, p, len);
        out[len] = '\0';
    }
    return out;
}
