/* html.c: the HTML report: one self-contained page joining lint and run results: the page
 * template filled with its assets, its Content-Security-Policy, the data block (html_data.c)
 * and the timeline (html_timeline.c) of the page model (html_page.c). */
#include "html_page.h"
#include "log.h"
#include "sha256.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#ifdef SS_HAVE_ZLIB
#include <zlib.h>
#endif

/* The page's assets, embedded at build time (report/html/embed.cmake). */
extern const char ss_html_page_html[];
extern const char ss_html_report_css[];
extern const char ss_html_report_js[];
extern const size_t ss_html_page_html_len;
extern const size_t ss_html_report_css_len;
extern const size_t ss_html_report_js_len;

static const char b64_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Writes 'len' bytes as base64 into 'out' (at least 4 * ((len + 2) / 3) + 1 bytes). */
static void base64_encode(const unsigned char *p, size_t len, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        if (i + 1 < len)
            v |= (uint32_t)p[i + 1] << 8;
        if (i + 2 < len)
            v |= p[i + 2];
        out[o++] = b64_alphabet[(v >> 18) & 63];
        out[o++] = b64_alphabet[(v >> 12) & 63];
        out[o++] = i + 1 < len ? b64_alphabet[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < len ? b64_alphabet[v & 63] : '=';
    }
    out[o] = '\0';
}

/* Streams 'len' bytes to 'out' as base64, in chunks. */
static void base64_write(FILE *out, const unsigned char *p, size_t len)
{
    char chunk[4 * 16384 / 3 + 8];
    for (size_t i = 0; i < len; i += 12288) {
        size_t n = len - i < 12288 ? len - i : 12288;
        base64_encode(p + i, n, chunk);
        fputs(chunk, out);
    }
}

/* 'sha256-<base64>' of 'len' bytes at 'p', into 'out' (at least 60 bytes). */
static void csp_hash(const char *p, size_t len, char *out, size_t size)
{
    unsigned char digest[32];
    char b64[48];
    ss_sha256(p, len, digest);
    base64_encode(digest, sizeof digest, b64);
    snprintf(out, size, "'sha256-%s'", b64);
}

/* Writes 's' as HTML text (for the few strings placed outside the JSON block). */
static void html_text(FILE *out, const char *s)
{
    for (const char *p = s; *p; p++) {
        switch (*p) {
        case '&':
            fputs("&amp;", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        case '\'':
            fputs("&#39;", out);
            break;
        default:
            fputc(*p, out);
        }
    }
}

/* Writes the template up to the next "{{NAME}}" and returns NAME's start, or NULL at the end. */
static const char *template_until_field(FILE *out, const char *p, const char *end, size_t *name_len)
{
    const char *open = p;
    while ((open = memchr(open, '{', (size_t)(end - open))) != NULL) {
        if (open + 1 < end && open[1] == '{') {
            const char *close = strstr(open + 2, "}}");
            if (close && close < end) {
                fwrite(p, 1, (size_t)(open - p), out);
                *name_len = (size_t)(close - open - 2);
                return open + 2;
            }
        }
        open++;
    }
    fwrite(p, 1, (size_t)(end - p), out);
    return NULL;
}

/* What fills the template besides the page model: the Content-Security-Policy hashes of the
 * style and the script, and the timeline as embedded. */
typedef struct page_fill {
    char style_hash[80], script_hash[80];
    const unsigned char *blob; /* pg->blob, or 'deflated' */
    size_t blob_len;
    int compressed;
    unsigned char *deflated; /* malloc'ed, or NULL */
} page_fill;

/* Fills 'fill' for 'pg': the timeline deflated when zlib is there and it helps. */
static void page_fill_init(const page *pg, page_fill *fill)
{
    memset(fill, 0, sizeof *fill);
    fill->blob = pg->blob.data;
    fill->blob_len = pg->blob.len;
#ifdef SS_HAVE_ZLIB
    if (!pg->opt->no_compress && fill->blob_len > 0) {
        uLongf dlen = compressBound((uLong)fill->blob_len);
        fill->deflated = ss_xcalloc(dlen, 1);
        if (compress2(fill->deflated, &dlen, fill->blob, (uLong)fill->blob_len, 6) == Z_OK &&
            dlen < fill->blob_len) {
            fill->blob = fill->deflated;
            fill->blob_len = dlen;
            fill->compressed = 1;
        }
    }
#endif
    csp_hash(ss_html_report_css, ss_html_report_css_len, fill->style_hash, sizeof fill->style_hash);
    csp_hash(ss_html_report_js, ss_html_report_js_len, fill->script_hash, sizeof fill->script_hash);
}

/* Whether the template field 'name' ('len' bytes) is 'field'. */
static bool field_is(const char *name, size_t len, const char *field)
{
    return len == strlen(field) && memcmp(name, field, len) == 0;
}

/* Writes what the template field 'name' ('len' bytes) stands for; an unknown field writes
 * nothing. */
static void write_field(FILE *out, const page *pg, const page_fill *fill, const char *name,
                        size_t len)
{
    if (field_is(name, len, "CSP")) {
        fprintf(out,
                "default-src 'none'; script-src %s; style-src %s; img-src data:; "
                "base-uri 'none'; form-action 'none'",
                fill->script_hash, fill->style_hash);
    } else if (field_is(name, len, "VERSION")) {
        fputs(SS_VERSION, out);
    } else if (field_is(name, len, "TITLE")) {
        html_text(out, pg->opt->title ? pg->opt->title : "syncscope report");
    } else if (field_is(name, len, "STYLE")) {
        fwrite(ss_html_report_css, 1, ss_html_report_css_len, out);
    } else if (field_is(name, len, "SCRIPT")) {
        fwrite(ss_html_report_js, 1, ss_html_report_js_len, out);
    } else if (field_is(name, len, "DATA")) {
        ss_html_write_data(out, pg, fill->compressed, pg->blob.len);
    } else if (field_is(name, len, "TRACE")) {
        if (fill->blob_len)
            base64_write(out, fill->blob, fill->blob_len);
    }
}

int ss_report_write_html(FILE *out, const ss_result *const *results, size_t n,
                         const ss_html_options *options)
{
    page pg;
    ss_html_page_init(&pg, results, n, options);
    ss_html_page_collect_findings(&pg);
    ss_html_page_join(&pg);
    ss_html_page_build_timeline(&pg);
    page_fill fill;
    page_fill_init(&pg, &fill);

    const char *p = ss_html_page_html, *end = ss_html_page_html + ss_html_page_html_len;
    size_t name_len = 0;
    const char *name;
    while ((name = template_until_field(out, p, end, &name_len)) != NULL) {
        write_field(out, &pg, &fill, name, name_len);
        p = name + name_len + 2;
    }
    free(fill.deflated);
    ss_html_page_free(&pg);
    if (fflush(out) != 0 || ferror(out)) {
        if (errno == 0)
            errno = EIO;
        return -1;
    }
    return 0;
}
