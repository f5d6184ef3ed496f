/* html.c: the HTML report: one self-contained page joining lint and run results. */
#include "log.h"
#include "map.h"
#include "path.h"
#include "report_int.h"
#include "sha256.h"

#include "evlog.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

enum {
    EXCERPT_RADIUS = 3,       /* lines shown above and below a finding's line */
    MAX_SOURCE_LINE = 400,    /* bytes of one source line kept in an excerpt */
    MAX_STRING = 16384,       /* bytes of any other string kept in the page */
    MAX_OCCURRENCES = 50,     /* timeline moments kept per finding (the longest) */
    BLOCKED_MIN_NS = 10000,   /* a synchronizing call this long is drawn as host-blocked */
    CONTEXT_MIN_NS = 10000000 /* a first call this long, before any GPU work, created the
                               * context (context_creation_call) */
};
static const off_t MAX_SOURCE_SIZE = 16L << 20;

/* The source_index value of a file whose excerpt is refused (outside the root, not regular). */
static const size_t SOURCE_REFUSED = SIZE_MAX - 1;

/* Operation kinds of the timeline; report.js has the same table. */
enum {
    OP_KERNEL = 0,
    OP_HTOD,
    OP_DTOH,
    OP_DTOD,
    OP_COPY_OTHER,
    OP_MEMSET,
    OP_API,
    OP_BLOCKED,
    OP_CONTEXT /* the call that created the context: neither a sync nor host-blocked */
};

/* A growable byte buffer. */
typedef struct bytes {
    unsigned char *data;
    size_t len, cap;
} bytes;

static void bytes_reserve(bytes *b, size_t extra)
{
    if (extra > SIZE_MAX - b->len)
        ss_out_of_memory();
    if (b->len + extra <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + extra) {
        if (cap > SIZE_MAX / 2)
            ss_out_of_memory();
        cap *= 2;
    }
    b->data = ss_xreallocarray(b->data, cap, 1);
    b->cap = cap;
}

static void bytes_add(bytes *b, const void *p, size_t n)
{
    bytes_reserve(b, n);
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

static void bytes_varint(bytes *b, uint64_t v)
{
    unsigned char tmp[10];
    size_t n = 0;
    do {
        unsigned char c = v & 0x7f;
        v >>= 7;
        tmp[n++] = c | (v ? 0x80 : 0);
    } while (v);
    bytes_add(b, tmp, n);
}

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

/* ---- escaping ---- */

/* Writes 's' as a JSON string that is safe inside <script type="application/json">, at most
 * 'max' bytes of it (ss_json_write_string: '<', '>', '&' and U+2028/U+2029 escaped, invalid
 * UTF-8 as U+FFFD). NULL is written as null. */
static void json_string_max(FILE *out, const char *s, size_t max)
{
    ss_json_write_string(out, s, max);
}

static void json_string(FILE *out, const char *s)
{
    json_string_max(out, s, MAX_STRING);
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

static void json_key_string(FILE *out, const char *key, const char *value)
{
    fprintf(out, "\"%s\":", key);
    json_string(out, value);
}

static void json_key_u64(FILE *out, const char *key, uint64_t value)
{
    fprintf(out, "\"%s\":%llu", key, (unsigned long long)value);
}

/* ---- a string -> index hash map (util/map.h), aborting when memory runs out ---- */

/* Sets 'key' (copied) to 'value'. */
static void strmap_put(ss_strmap *m, const char *key, size_t value)
{
    if (ss_strmap_put(m, key, value) < 0)
        ss_out_of_memory();
}

/* ---- paths ---- */

/* The current directory, malloc'ed ("/" when it cannot be had). */
static char *current_dir(void)
{
    char buf[PATH_MAX];
    return ss_xstrdup(getcwd(buf, sizeof buf) ? buf : "/");
}

/* The file an excerpt of 'path' may be read from: 'path' resolved through every symbolic
 * link, when that lies inside 'source_root' and is a regular file. Malloc'ed, or NULL when
 * the excerpt is refused ('source_root' NULL refuses every file). */
static char *excerpt_path(const char *source_root, const char *path)
{
    if (source_root == NULL)
        return NULL;
    char *real = realpath(path, NULL);
    struct stat st;
    if (real == NULL || ss_path_under(source_root, real) == NULL || stat(real, &st) != 0 ||
        !S_ISREG(st.st_mode)) {
        free(real);
        return NULL;
    }
    return real;
}

/* 'abs' relative to 'root' when inside it, else 'abs' itself. Malloc'ed. */
static char *relative_to(const char *root, const char *abs)
{
    const char *under = ss_path_under(root, abs);
    return ss_xstrdup(under ? under : abs);
}

/* Whether 'shorter' equals 'longer' or is a trailing run of its path components. */
static bool component_suffix(const char *longer, const char *shorter)
{
    size_t nl = strlen(longer), ns = strlen(shorter);
    if (ns == 0 || ns > nl)
        return false;
    if (strcmp(longer + nl - ns, shorter) != 0)
        return false;
    return ns == nl || longer[nl - ns - 1] == '/' || shorter[0] == '/';
}

/* ---- the page model ---- */

/* One finding of one input, with what the page needs beside it. */
typedef struct page_finding {
    const ss_finding *f;
    size_t proc;
    char *key;      /* normalized path (root-relative when inside the root), or NULL */
    char *resolved; /* absolute, resolved when the file exists, or NULL */
    long source;    /* index in page.sources, -1 when no excerpt */
    size_t site;
    int api; /* ss_api_id of the evidence API, SS_API_COUNT when none */
    /* Timeline moments: start, end (ns from the process start) and lane. */
    uint64_t (*occ)[3];
    size_t occ_count;
    uint64_t occ_total;
} page_finding;

typedef struct page_site {
    int group; /* SS_ORIGIN_STATIC, SS_ORIGIN_RUNTIME, or both bits */
    size_t *members;
    size_t member_count;
    size_t next_candidate; /* next lint site with the same rule, line and base name */
} page_site;

typedef struct page_source {
    char *path;     /* as shown (the key) */
    char *resolved; /* as read: resolved, inside the root, a regular file when checked */
    unsigned *lines;
    size_t line_count, line_cap;
} page_source;

/* One lane of the timeline. */
typedef struct page_lane {
    size_t proc;
    int is_stream;
    uint32_t id;    /* host thread index or CUPTI stream id */
    int key_device; /* streams: the device the id belongs to (ids repeat across devices) */
    int legacy;
    int non_blocking;
    int device;
    size_t ops;
} page_lane;

typedef struct page_op {
    uint64_t start, end, bytes;
    uint32_t lane;
    uint32_t name;
    uint8_t kind;
} page_op;

typedef struct page {
    const ss_result *const *results;
    size_t n;
    const ss_html_options *opt;
    char *root;        /* paths are shown relative to it */
    char *source_root; /* excerpts are read from inside it only; NULL: from nowhere */
    page_finding *findings;
    size_t finding_count;
    page_site *sites;
    size_t site_count, site_cap;
    page_source *sources;
    size_t source_count, source_cap;
    ss_strmap source_index;
    /* Timeline. */
    page_lane *lanes;
    size_t lane_count, lane_cap;
    uint64_t *proc_t0, *proc_span;
    uint64_t *proc_context_ns; /* the time of the call that created the context, 0: none */
    ss_strmap names;
    char **name_list;
    size_t name_count, name_cap;
    bytes blob; /* the packed columns */
    size_t col_len[5];
    size_t op_total;
    int has_trace;
} page;

static size_t page_add_site(page *pg, int group)
{
    if (pg->site_count == pg->site_cap) {
        pg->site_cap = pg->site_cap ? pg->site_cap * 2 : 64;
        pg->sites = ss_xreallocarray(pg->sites, pg->site_cap, sizeof *pg->sites);
    }
    page_site *s = &pg->sites[pg->site_count];
    memset(s, 0, sizeof *s);
    s->group = group;
    s->next_candidate = SIZE_MAX;
    return pg->site_count++;
}

static void site_add_member(page_site *s, size_t finding)
{
    s->members = ss_xreallocarray(s->members, s->member_count + 1, sizeof *s->members);
    s->members[s->member_count++] = finding;
}

/* The folder a result's relative paths are taken from: its root (relative to the current
 * directory), else the current directory. */
static char *result_base(const page *pg, const ss_result *r)
{
    char *cwd = current_dir();
    char *base = ss_path_resolve("/", cwd);
    if (r->root && r->root[0]) {
        char *root = ss_path_resolve(base, r->root);
        free(base);
        base = root;
    }
    free(cwd);
    return base;
}

/* Sets up 'pf' for finding 'f' of process 'proc', with no site, excerpt or API yet known
 * beyond what its evidence names. */
static void page_finding_init(page_finding *pf, const ss_finding *f, size_t proc)
{
    pf->f = f;
    pf->proc = proc;
    pf->source = -1;
    pf->site = SIZE_MAX;
    pf->api = SS_API_COUNT;
    if (f->evidence.api) {
        const ss_api *row = ss_api_find(f->evidence.api);
        if (row)
            pf->api = (int)row->api;
    }
}

/* Registers the file of 'pf' as a source whose excerpt the page embeds. Returns its index in
 * pg->sources, or SOURCE_REFUSED when it may not be read (recorded, so it is asked once). */
static size_t page_add_source(page *pg, const page_finding *pf)
{
    char *readable = excerpt_path(pg->source_root, pf->resolved);
    if (readable == NULL) {
        strmap_put(&pg->source_index, pf->resolved, SOURCE_REFUSED);
        return SOURCE_REFUSED;
    }
    if (pg->source_count == pg->source_cap) {
        pg->source_cap = pg->source_cap ? pg->source_cap * 2 : 32;
        pg->sources = ss_xreallocarray(pg->sources, pg->source_cap, sizeof *pg->sources);
    }
    size_t src = pg->source_count++;
    page_source *ps = &pg->sources[src];
    memset(ps, 0, sizeof *ps);
    ps->path = ss_xstrdup(pf->key);
    ps->resolved = readable;
    strmap_put(&pg->source_index, pf->resolved, src);
    return src;
}

/* Adds the line of 'pf' to the excerpt of its file and points pf->source at it, unless the
 * file's excerpt is refused. */
static void page_add_excerpt_line(page *pg, page_finding *pf)
{
    size_t src = ss_strmap_get(&pg->source_index, pf->resolved);
    if (src == SIZE_MAX)
        src = page_add_source(pg, pf);
    if (src == SOURCE_REFUSED)
        return;
    page_source *ps = &pg->sources[src];
    if (ps->line_count == ps->line_cap) {
        ps->line_cap = ps->line_cap ? ps->line_cap * 2 : 8;
        ps->lines = ss_xreallocarray(ps->lines, ps->line_cap, sizeof *ps->lines);
    }
    ps->lines[ps->line_count++] = pf->f->line;
    pf->source = (long)src;
}

/* Normalizes every finding's path and records the source lines its excerpt needs. */
static void page_collect_findings(page *pg)
{
    size_t total = 0;
    for (size_t i = 0; i < pg->n; i++)
        total += pg->results[i]->count;
    pg->findings = ss_xcalloc(total, sizeof *pg->findings);
    for (size_t i = 0; i < pg->n; i++) {
        const ss_result *r = pg->results[i];
        char *base = result_base(pg, r);
        for (size_t j = 0; j < r->count; j++) {
            page_finding *pf = &pg->findings[pg->finding_count++];
            page_finding_init(pf, &r->findings[j], i);
            if (pf->f->file == NULL || pf->f->file[0] == '\0')
                continue;
            pf->resolved = ss_path_resolve(base, pf->f->file);
            pf->key = relative_to(pg->root, pf->resolved);
            if (!pg->opt->no_sources && pf->f->line != 0)
                page_add_excerpt_line(pg, pf);
        }
        free(base);
    }
}

/* The key of the call site of 'pf' at 'path': its rule, line and 'path'. Malloc'ed. */
static char *site_key(const page_finding *pf, const char *path)
{
    return ss_xasprintf("%s\x1f%u\x1f%s", ss_rules_get(pf->f->rule)->id, pf->f->line, path);
}

/* The lint site of the lint finding 'pf', whose site key is 'key': created when new, and then
 * chained into 'by_base' under its rule, line and base name for join_by_suffix. */
static size_t join_lint(page *pg, ss_strmap *exact, ss_strmap *by_base, const page_finding *pf,
                        const char *key)
{
    size_t site = ss_strmap_get(exact, key);
    if (site != SIZE_MAX)
        return site;
    site = page_add_site(pg, SS_ORIGIN_STATIC);
    strmap_put(exact, key, site);
    char *bkey = site_key(pf, ss_path_base_name(pf->key));
    pg->sites[site].next_candidate = ss_strmap_get(by_base, bkey);
    strmap_put(by_base, bkey, site);
    free(bkey);
    return site;
}

/* The one lint site of the rule, line and base name of the run finding 'pf' whose path is a
 * trailing run of the components of pf's path; SIZE_MAX when there is none or more than one. */
static size_t join_by_suffix(const page *pg, const ss_strmap *by_base, const page_finding *pf)
{
    char *bkey = site_key(pf, ss_path_base_name(pf->key));
    size_t found = SIZE_MAX, matches = 0;
    for (size_t c = ss_strmap_get(by_base, bkey); c != SIZE_MAX; c = pg->sites[c].next_candidate) {
        const page_finding *lf = &pg->findings[pg->sites[c].members[0]];
        if (component_suffix(pf->key, lf->key)) {
            found = c;
            matches++;
        }
    }
    free(bkey);
    return matches == 1 ? found : SIZE_MAX;
}

/* The site of the run finding 'pf', whose site key is 'key': the lint site it joins (marked as
 * observed too), else the runtime-only site of that key in its own process. */
static size_t join_run(page *pg, ss_strmap *exact, const ss_strmap *by_base, const page_finding *pf,
                       const char *key)
{
    size_t site = ss_strmap_get(exact, key);
    if (site == SIZE_MAX && pf->key[0] == '/')
        site = join_by_suffix(pg, by_base, pf);
    if (site != SIZE_MAX) {
        pg->sites[site].group |= SS_ORIGIN_RUNTIME;
        return site;
    }
    /* Runtime-only sites stay one per process. */
    char *rkey = ss_xasprintf("%s\x1f%zu", key, pf->proc);
    site = ss_strmap_get(exact, rkey);
    if (site == SIZE_MAX) {
        site = page_add_site(pg, SS_ORIGIN_RUNTIME);
        strmap_put(exact, rkey, site);
    }
    free(rkey);
    return site;
}

/* The join: lint and run findings with the same rule, normalized path and line are one
 * call site. A run path that is not under the root (a program built elsewhere) also joins a
 * lint finding of the same rule and line whose path is a trailing run of its components,
 * when exactly one such lint site exists. Lint findings are placed first, then run ones. */
static void page_join(page *pg)
{
    ss_strmap exact = {0}, by_base = {0};
    for (size_t pass = 0; pass < 2; pass++) {
        int origin = pass == 0 ? SS_ORIGIN_STATIC : SS_ORIGIN_RUNTIME;
        for (size_t i = 0; i < pg->finding_count; i++) {
            page_finding *pf = &pg->findings[i];
            int is_static = pg->results[pf->proc]->kind == SS_RESULT_LINT;
            if ((origin == SS_ORIGIN_STATIC) != is_static)
                continue;
            if (pf->key == NULL || pf->f->line == 0) {
                pf->site = page_add_site(pg, origin);
            } else {
                char *key = site_key(pf, pf->key);
                pf->site = origin == SS_ORIGIN_STATIC ? join_lint(pg, &exact, &by_base, pf, key)
                                                      : join_run(pg, &exact, &by_base, pf, key);
                free(key);
            }
            site_add_member(&pg->sites[pf->site], i);
        }
    }
    ss_strmap_free(&exact);
    ss_strmap_free(&by_base);
}

/* ---- timeline ---- */

static uint32_t page_name(page *pg, const char *text)
{
    size_t id = ss_strmap_get(&pg->names, text);
    if (id != SIZE_MAX)
        return (uint32_t)id;
    if (pg->name_count == pg->name_cap) {
        pg->name_cap = pg->name_cap ? pg->name_cap * 2 : 256;
        pg->name_list = ss_xreallocarray(pg->name_list, pg->name_cap, sizeof *pg->name_list);
    }
    pg->name_list[pg->name_count] = ss_xstrdup(text);
    strmap_put(&pg->names, text, pg->name_count);
    return (uint32_t)pg->name_count++;
}

/* The lane of host thread 'id', or of stream 'id' of 'device' (CUPTI stream ids repeat across
 * devices; a 'device' < 0, unknown, matches the first stream lane with that id). Returns its
 * index in pg->lanes, which this call may grow and move: a pointer into pg->lanes taken
 * before the call (or in the same expression) is stale after it. */
static size_t page_lane_for(page *pg, size_t first_lane, size_t proc, int is_stream, uint32_t id,
                            int device)
{
    for (size_t i = first_lane; i < pg->lane_count; i++) {
        if (pg->lanes[i].is_stream == is_stream && pg->lanes[i].id == id &&
            (!is_stream || device < 0 || pg->lanes[i].key_device < 0 ||
             pg->lanes[i].key_device == device)) {
            if (is_stream && pg->lanes[i].key_device < 0)
                pg->lanes[i].key_device = device;
            return i;
        }
    }
    if (pg->lane_count == pg->lane_cap) {
        pg->lane_cap = pg->lane_cap ? pg->lane_cap * 2 : 16;
        pg->lanes = ss_xreallocarray(pg->lanes, pg->lane_cap, sizeof *pg->lanes);
    }
    page_lane *l = &pg->lanes[pg->lane_count];
    memset(l, 0, sizeof *l);
    l->proc = proc;
    l->is_stream = is_stream;
    l->id = id;
    l->key_device = is_stream ? device : -1;
    l->device = is_stream ? device : -1;
    return pg->lane_count++;
}

static int cmp_op(const void *pa, const void *pb)
{
    const page_op *a = pa, *b = pb;
    if (a->lane != b->lane)
        return a->lane < b->lane ? -1 : 1;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return (a->end > b->end) - (a->end < b->end);
}

/* Lanes are numbered in the order: host threads, then streams by device (legacy first), each
 * by id. */
static int cmp_lane(const void *pa, const void *pb)
{
    const page_lane *a = pa, *b = pb;
    if (a->is_stream != b->is_stream)
        return a->is_stream - b->is_stream;
    if (a->is_stream && a->key_device != b->key_device)
        return a->key_device < b->key_device ? -1 : 1;
    if (a->legacy != b->legacy)
        return b->legacy - a->legacy;
    return (a->id > b->id) - (a->id < b->id);
}

/* Records one timeline moment of 'pf', keeping the longest MAX_OCCURRENCES. */
static void finding_add_moment(page_finding *pf, uint64_t start, uint64_t end, uint64_t lane)
{
    pf->occ_total++;
    if (pf->occ == NULL)
        pf->occ = ss_xcalloc(MAX_OCCURRENCES, sizeof *pf->occ);
    if (pf->occ_count < MAX_OCCURRENCES) {
        pf->occ[pf->occ_count][0] = start;
        pf->occ[pf->occ_count][1] = end;
        pf->occ[pf->occ_count][2] = lane;
        pf->occ_count++;
        return;
    }
    size_t shortest = 0;
    for (size_t i = 1; i < pf->occ_count; i++) {
        if (pf->occ[i][1] - pf->occ[i][0] < pf->occ[shortest][1] - pf->occ[shortest][0])
            shortest = i;
    }
    if (end - start > pf->occ[shortest][1] - pf->occ[shortest][0]) {
        pf->occ[shortest][0] = start;
        pf->occ[shortest][1] = end;
        pf->occ[shortest][2] = lane;
    }
}

/* The findings of one process by call site, and the findings each stack of its trace reaches,
 * while page_match_moments runs. */
typedef struct moment_match {
    ss_strmap sites;    /* "line\x1fbase name" -> the last finding with that call site */
    size_t *chain;      /* per finding: the previous one with the same key, or SIZE_MAX */
    size_t *stack_list; /* per stack: its list's start in 'lists', SIZE_MAX for none, or
                         * STACK_UNSEEN */
    size_t *lists;      /* the lists of findings, each SIZE_MAX-terminated */
    size_t list_len, list_cap;
} moment_match;

/* The stack_list value of a stack not looked at yet. */
static const size_t STACK_UNSEEN = SIZE_MAX - 1;

/* Indexes the findings of process 'proc' that have a file and line into m->sites and
 * m->chain. Returns whether there was any. */
static bool match_index_findings(const page *pg, size_t proc, moment_match *m)
{
    bool any = false;
    for (size_t i = 0; i < pg->finding_count; i++) {
        const page_finding *pf = &pg->findings[i];
        m->chain[i] = SIZE_MAX;
        if (pf->proc != proc || pf->f->file == NULL || pf->f->line == 0)
            continue;
        char *key = ss_xasprintf("%u\x1f%s", pf->f->line, ss_path_base_name(pf->f->file));
        m->chain[i] = ss_strmap_get(&m->sites, key);
        strmap_put(&m->sites, key, i);
        free(key);
        any = true;
    }
    return any;
}

/* Makes room for 'extra' more entries in m->lists. */
static void match_list_reserve(moment_match *m, size_t extra)
{
    if (m->list_len + extra > m->list_cap) {
        m->list_cap = m->list_cap ? m->list_cap * 2 : 256;
        m->lists = ss_xreallocarray(m->lists, m->list_cap, sizeof *m->lists);
    }
}

/* Appends to the list begun at 'begin' the findings whose call site is the frame at
 * 'file':'line' (the same line, and one path a trailing run of the other's components), each
 * once. */
static void match_frame(const page *pg, moment_match *m, const char *file, uint32_t line,
                        size_t begin)
{
    char *key = ss_xasprintf("%u\x1f%s", line, ss_path_base_name(file));
    for (size_t c = ss_strmap_get(&m->sites, key); c != SIZE_MAX; c = m->chain[c]) {
        const char *ffile = pg->findings[c].f->file;
        if (!component_suffix(file, ffile) && !component_suffix(ffile, file))
            continue;
        bool dup = false;
        for (size_t d = begin; d < m->list_len; d++)
            dup |= m->lists[d] == c;
        if (dup)
            continue;
        match_list_reserve(m, 2);
        m->lists[m->list_len++] = c;
    }
    free(key);
}

/* Sets m->stack_list[sid] to the list of the findings whose call site is a frame of stack
 * 'sid' of 'log', or to SIZE_MAX when there is none. */
static void match_stack(const page *pg, const ss_event_log *log, moment_match *m, uint32_t sid)
{
    m->stack_list[sid] = SIZE_MAX;
    const ss_stack *st = &log->stacks[sid];
    size_t begin = m->list_len;
    for (uint32_t k = 0; k < st->depth; k++) {
        const ss_stack_frame *fr = &st->frames[k];
        if (fr->file == 0 || fr->file >= log->string_count || fr->line == 0)
            continue;
        match_frame(pg, m, log->strings[fr->file], fr->line, begin);
    }
    if (m->list_len > begin) {
        match_list_reserve(m, 1);
        m->lists[m->list_len++] = SIZE_MAX;
        m->stack_list[sid] = begin;
    }
}

/* Adds the API call 'ev' of 'log', drawn on 'lane', as a moment of each finding of 'list'
 * (SIZE_MAX-terminated) that names no API or names the one called. */
static void add_call_moments(page *pg, const ss_event_log *log, const ss_event *ev,
                             const size_t *list, uint32_t lane, uint64_t t0)
{
    const ss_api *row = ss_evlog_api(log, ev->u.api.name);
    for (; *list != SIZE_MAX; list++) {
        page_finding *pf = &pg->findings[*list];
        if (pf->api != SS_API_COUNT && (row == NULL || (int)row->api != pf->api))
            continue;
        uint64_t start = ev->u.api.enter_ns >= t0 ? ev->u.api.enter_ns - t0 : 0;
        uint64_t end = ev->u.api.exit_ns >= ev->u.api.enter_ns ? ev->u.api.exit_ns - t0 : start;
        finding_add_moment(pf, start, end, lane);
    }
}

/* Links the API calls of 'log' to the findings of process 'proc' whose call site is on their
 * stack: those are the finding's moments on the timeline. 'api_lane' is the lane of each API
 * call, by event index; times are taken relative to 't0'. */
static void page_match_moments(page *pg, size_t proc, const ss_event_log *log,
                               const uint32_t *api_lane, uint64_t t0)
{
    moment_match m = {0};
    m.chain = ss_xcalloc(pg->finding_count, sizeof *m.chain);
    if (match_index_findings(pg, proc, &m)) {
        m.stack_list = ss_xcalloc(log->stack_count, sizeof *m.stack_list);
        for (size_t s = 0; s < log->stack_count; s++)
            m.stack_list[s] = STACK_UNSEEN;
        for (size_t e = 0; e < log->count; e++) {
            const ss_event *ev = &log->events[e];
            uint32_t sid = ev->type == SS_EV_API ? ev->u.api.stack : 0;
            if (sid == 0 || sid >= log->stack_count)
                continue;
            if (m.stack_list[sid] == STACK_UNSEEN)
                match_stack(pg, log, &m, sid);
            if (m.stack_list[sid] != SIZE_MAX)
                add_call_moments(pg, log, ev, &m.lists[m.stack_list[sid]], api_lane[e], t0);
        }
    }
    free(m.lists);
    free(m.stack_list);
    free(m.chain);
    ss_strmap_free(&m.sites);
}

/* Marks the stream lanes of process 'proc' from what 'log' says about its streams: the legacy
 * default stream (the CUPTI ids of calls given stream 0 or cudaStreamLegacy, not per-thread)
 * and the streams created non-blocking. */
static void page_mark_streams(page *pg, size_t first_lane, size_t proc, const ss_event_log *log)
{
    for (size_t e = 0; e < log->count; e++) {
        const ss_event *ev = &log->events[e];
        if (ev->type == SS_EV_API && ev->u.api.stream_id != 0 && !ev->u.api.per_thread &&
            (ev->u.api.stream == SS_STREAM_LEGACY_NULL || ev->u.api.stream == SS_STREAM_LEGACY)) {
            const ss_api *row = ss_evlog_api(log, ev->u.api.name);
            if (row && row->stream_arg >= 0) {
                /* Two statements: the call may move pg->lanes, and in one expression the old
                 * pointer could be the one indexed. */
                size_t l =
                    page_lane_for(pg, first_lane, proc, 1, ev->u.api.stream_id, ev->u.api.device);
                pg->lanes[l].legacy = 1;
            }
        } else if (ev->type == SS_EV_STREAM) {
            size_t l =
                page_lane_for(pg, first_lane, proc, 1, ev->u.stream.stream_id, ev->u.stream.device);
            pg->lanes[l].non_blocking = (ev->u.stream.flags & SS_STREAM_FLAG_NON_BLOCKING) != 0;
            pg->lanes[l].device = ev->u.stream.device;
        }
    }
}

/* Whether event 'ev' is drawn on the timeline: a top-level API call or a GPU operation. */
static bool is_drawn(const ss_event *ev)
{
    return (ev->type == SS_EV_API && !ev->u.api.nested) || ev->type == SS_EV_KERNEL ||
           ev->type == SS_EV_MEMCPY || ev->type == SS_EV_MEMSET;
}

/* The index of the call of 'log' that created the CUDA context (docs/report.md, "Context
 * creation"): the earliest top-level API call that lasted CONTEXT_MIN_NS or more and was
 * entered before any work could be pending, that is before the first GPU operation started
 * and before the first call that enqueues work was entered (its own work aside). SIZE_MAX
 * when there is none. Its time is the driver setting up, not the host waiting for the GPU. */
static size_t context_creation_call(const ss_event_log *log)
{
    uint64_t first_work = UINT64_MAX;
    for (size_t e = 0; e < log->count; e++) {
        const ss_event *ev = &log->events[e];
        uint64_t at = UINT64_MAX;
        if (ev->type == SS_EV_API) {
            const ss_api *row = ss_evlog_api(log, ev->u.api.name);
            if (row != NULL && ss_api_enqueues(row))
                at = ev->u.api.enter_ns;
        } else if (is_drawn(ev)) {
            at = ev->u.gpu.start_ns;
        }
        if (at < first_work)
            first_work = at;
    }
    size_t found = SIZE_MAX;
    for (size_t e = 0; e < log->count; e++) {
        const ss_event *ev = &log->events[e];
        if (ev->type != SS_EV_API || ev->u.api.nested || ev->u.api.enter_ns > first_work ||
            ev->u.api.exit_ns < ev->u.api.enter_ns ||
            ev->u.api.exit_ns - ev->u.api.enter_ns < CONTEXT_MIN_NS)
            continue;
        if (found == SIZE_MAX || ev->u.api.enter_ns < log->events[found].u.api.enter_ns)
            found = e;
    }
    return found;
}

/* The drawing kind of the GPU operation 'ev'. */
static uint8_t gpu_op_kind(const ss_event *ev)
{
    if (ev->type == SS_EV_KERNEL)
        return OP_KERNEL;
    if (ev->type == SS_EV_MEMSET)
        return OP_MEMSET;
    switch (ev->u.gpu.copy_kind) {
    case SS_COPY_HTOD:
        return OP_HTOD;
    case SS_COPY_DTOH:
        return OP_DTOH;
    case SS_COPY_DTOD:
        return OP_DTOD;
    default:
        return OP_COPY_OTHER;
    }
}

/* Fills 'ops' (one per drawn event of 'log', in log order) and 'api_lane' (the lane of each
 * API call, by event index), creating the lanes of process 'proc'. Returns the number of
 * operations. */
static size_t page_collect_ops(page *pg, size_t first_lane, size_t proc, const ss_event_log *log,
                               page_op *ops, uint32_t *api_lane)
{
    size_t context_call = context_creation_call(log);
    uint32_t *name_map = ss_xcalloc(log->string_count, sizeof *name_map);
    size_t o = 0;
    for (size_t e = 0; e < log->count; e++) {
        const ss_event *ev = &log->events[e];
        if (!is_drawn(ev))
            continue;
        page_op *op = &ops[o++];
        uint32_t name;
        if (ev->type == SS_EV_API) {
            const ss_ev_api *a = &ev->u.api;
            size_t lane = page_lane_for(pg, first_lane, proc, 0, a->thread, -1);
            api_lane[e] = (uint32_t)lane;
            op->lane = (uint32_t)lane;
            op->start = a->enter_ns;
            op->end = a->exit_ns > a->enter_ns ? a->exit_ns : a->enter_ns;
            op->bytes = a->bytes;
            op->kind = OP_API;
            const ss_api *row = ss_evlog_api(log, a->name);
            if (e == context_call) {
                op->kind = OP_CONTEXT;
                pg->proc_context_ns[proc] = op->end - op->start;
            } else if (row && row->sync != SS_SYNC_NEVER && op->end - op->start >= BLOCKED_MIN_NS)
                op->kind = OP_BLOCKED;
            name = a->name;
        } else {
            const ss_ev_gpu *g = &ev->u.gpu;
            size_t lane = page_lane_for(pg, first_lane, proc, 1, g->stream_id, g->device);
            if (pg->lanes[lane].device < 0)
                pg->lanes[lane].device = g->device;
            op->lane = (uint32_t)lane;
            op->start = g->start_ns;
            op->end = g->end_ns > g->start_ns ? g->end_ns : g->start_ns;
            op->bytes = g->bytes;
            op->kind = gpu_op_kind(ev);
            name = g->name;
        }
        if (name >= log->string_count)
            name = 0;
        if (name_map[name] == 0)
            name_map[name] = page_name(pg, log->strings[name]) + 1;
        op->name = name_map[name] - 1;
    }
    free(name_map);
    return o;
}

/* Numbers the lanes of one process (from 'first_lane') in display order and renumbers the
 * lanes of its 'ops' and 'api_lane' to match. */
static void page_order_lanes(page *pg, size_t first_lane, const ss_event_log *log, page_op *ops,
                             size_t op_count, uint32_t *api_lane)
{
    size_t nl = pg->lane_count - first_lane;
    page_lane *sorted = ss_xcalloc(nl, sizeof *sorted);
    memcpy(sorted, pg->lanes + first_lane, nl * sizeof *sorted);
    for (size_t i = 0; i < nl; i++)
        sorted[i].ops = i; /* remember the old position */
    qsort(sorted, nl, sizeof *sorted, cmp_lane);
    uint32_t *renumber = ss_xcalloc(nl, sizeof *renumber);
    for (size_t i = 0; i < nl; i++) {
        renumber[sorted[i].ops] = (uint32_t)(first_lane + i);
        sorted[i].ops = 0;
    }
    memcpy(pg->lanes + first_lane, sorted, nl * sizeof *sorted);
    free(sorted);
    for (size_t i = 0; i < op_count; i++)
        ops[i].lane = renumber[ops[i].lane - first_lane];
    for (size_t e = 0; e < log->count; e++) {
        if (log->events[e].type == SS_EV_API && !log->events[e].u.api.nested)
            api_lane[e] = renumber[api_lane[e] - first_lane];
    }
    free(renumber);
}

/* Appends 'ops' (sorted here) to the five columns, times relative to 't0'. */
static void page_pack_ops(page *pg, page_op *ops, size_t op_count, uint64_t t0, bytes cols[5])
{
    qsort(ops, op_count, sizeof *ops, cmp_op);
    uint64_t prev = t0;
    uint32_t prev_lane = UINT32_MAX;
    for (size_t i = 0; i < op_count; i++) {
        const page_op *op = &ops[i];
        if (op->lane != prev_lane) {
            prev = t0;
            prev_lane = op->lane;
        }
        pg->lanes[op->lane].ops++;
        bytes_varint(&cols[0], op->start - prev);
        bytes_varint(&cols[1], op->end - op->start);
        bytes_add(&cols[2], &op->kind, 1);
        bytes_varint(&cols[3], op->name);
        bytes_varint(&cols[4], op->bytes);
        prev = op->start;
    }
    pg->op_total += op_count;
}

/* Adds the lanes and operations of process 'proc' from 'log' to the timeline. */
static void page_add_trace(page *pg, size_t proc, const ss_event_log *log, bytes cols[5])
{
    size_t first_lane = pg->lane_count;
    page_mark_streams(pg, first_lane, proc, log);
    uint64_t t0 = UINT64_MAX, t1 = 0;
    size_t op_count = 0;
    for (size_t e = 0; e < log->count; e++) {
        const ss_event *ev = &log->events[e];
        if (!is_drawn(ev))
            continue;
        op_count++;
        uint64_t s = ev->type == SS_EV_API ? ev->u.api.enter_ns : ev->u.gpu.start_ns;
        uint64_t f = ev->type == SS_EV_API ? ev->u.api.exit_ns : ev->u.gpu.end_ns;
        if (s < t0)
            t0 = s;
        if (f > t1)
            t1 = f;
    }
    if (op_count == 0)
        t0 = t1 = 0;
    pg->proc_t0[proc] = t0;
    pg->proc_span[proc] = t1 > t0 ? t1 - t0 : 0;

    page_op *ops = ss_xcalloc(op_count, sizeof *ops);
    uint32_t *api_lane = ss_xcalloc(log->count, sizeof *api_lane);
    page_collect_ops(pg, first_lane, proc, log, ops, api_lane);
    page_order_lanes(pg, first_lane, log, ops, op_count, api_lane);
    page_match_moments(pg, proc, log, api_lane, t0);
    free(api_lane);
    page_pack_ops(pg, ops, op_count, t0, cols);
    free(ops);
}

/* Builds the timeline of every result that has a trace into pg->blob: the five columns
 * (start deltas, durations, kinds, names, bytes) one after the other. */
static void page_build_timeline(page *pg)
{
    bytes cols[5] = {{0}};
    for (size_t i = 0; i < pg->n; i++) {
        const ss_event_log *log = pg->opt->traces ? pg->opt->traces[i] : NULL;
        if (log && pg->results[i]->kind == SS_RESULT_RUN) {
            page_add_trace(pg, i, log, cols);
            pg->has_trace = 1;
        }
    }
    for (int c = 0; c < 5; c++) {
        pg->col_len[c] = cols[c].len;
        if (cols[c].len)
            bytes_add(&pg->blob, cols[c].data, cols[c].len);
        free(cols[c].data);
    }
}

/* ---- the data block ---- */

static void write_rules(FILE *out)
{
    size_t count = 0;
    const ss_rule *rules = ss_rules_all(&count);
    fputs("\"rules\":[", out);
    for (size_t i = 0; i < count; i++) {
        fputs(i ? ",{" : "{", out);
        json_key_string(out, "id", rules[i].id);
        fputc(',', out);
        json_key_string(out, "name", rules[i].name);
        fputc(',', out);
        json_key_string(out, "severity", ss_severity_name(rules[i].severity));
        fputc(',', out);
        json_key_string(out, "cost", ss_cost_name(rules[i].cost));
        fprintf(out, ",\"halves\":%d,", rules[i].halves);
        json_key_string(out, "summary", rules[i].summary);
        fputc(',', out);
        json_key_string(out, "explanation", rules[i].explanation);
        fputc('}', out);
    }
    fputc(']', out);
}

/* The device ordinals process 'proc' used, ascending, as a JSON array: those of its trace's
 * stream lanes and of its findings' evidence (a recorded trace may not name its GPUs, but its
 * operations carry the device they ran on). */
static void write_devices(FILE *out, const page *pg, size_t proc)
{
    enum { MAX_DEVICES = 64 };
    bool used[MAX_DEVICES] = {false};
    for (size_t i = 0; i < pg->lane_count; i++) {
        const page_lane *l = &pg->lanes[i];
        if (l->proc == proc && l->is_stream && l->device >= 0 && l->device < MAX_DEVICES)
            used[l->device] = true;
    }
    for (size_t i = 0; i < pg->finding_count; i++) {
        int d = pg->findings[i].f->evidence.device;
        if (pg->findings[i].proc == proc && d >= 0 && d < MAX_DEVICES)
            used[d] = true;
    }
    fputs("\"devices\":[", out);
    const char *sep = "";
    for (int d = 0; d < MAX_DEVICES; d++) {
        if (used[d]) {
            fprintf(out, "%s%d", sep, d);
            sep = ",";
        }
    }
    fputc(']', out);
}

static void write_procs(FILE *out, const page *pg)
{
    fputs("\"procs\":[", out);
    for (size_t i = 0; i < pg->n; i++) {
        const ss_result *r = pg->results[i];
        fputs(i ? ",{" : "{", out);
        json_key_string(out, "kind", r->kind == SS_RESULT_RUN ? "run" : "lint");
        fputc(',', out);
        json_key_string(out, "input",
                        pg->opt->inputs && i < pg->opt->input_count ? pg->opt->inputs[i] : NULL);
        fputc(',', out);
        json_key_string(out, "root", r->root);
        fputc(',', out);
        json_key_string(out, "program", r->program);
        fputc(',', out);
        json_key_string(out, "command_line", r->command_line);
        fputc(',', out);
        json_key_string(out, "hostname", r->hostname);
        fprintf(out, ",\"pid\":%ld,\"rank\":%d,", r->pid, r->rank);
        json_key_string(out, "gpu", r->gpu);
        fputc(',', out);
        json_key_string(out, "driver", r->driver);
        fputc(',', out);
        json_key_string(out, "cuda", r->cuda);
        fputc(',', out);
        json_key_string(out, "cuda_runtime", r->cuda_runtime);
        fputc(',', out);
        write_devices(out, pg, i);
        fputc(',', out);
        json_key_string(out, "started_at", r->started_at);
        fputc(',', out);
        json_key_u64(out, "wall_ns", r->wall_ns);
        fputc(',', out);
        json_key_u64(out, "blocked_ns", r->blocked_ns);
        fputc(',', out);
        json_key_u64(out, "gpu_busy_ns", r->gpu_busy_ns);
        fputc(',', out);
        json_key_u64(out, "events", r->events);
        fputc(',', out);
        json_key_u64(out, "dropped", r->dropped);
        fputc(',', out);
        json_key_u64(out, "findings", r->count);
        fputc(',', out);
        json_key_u64(out, "t0", pg->proc_t0 ? pg->proc_t0[i] : 0);
        fputc(',', out);
        json_key_u64(out, "span", pg->proc_span ? pg->proc_span[i] : 0);
        fputc(',', out);
        json_key_u64(out, "context_ns", pg->proc_context_ns ? pg->proc_context_ns[i] : 0);
        fputc('}', out);
    }
    fputc(']', out);
}

static void write_evidence(FILE *out, const ss_evidence *ev)
{
    fputs("\"ev\":{", out);
    json_key_u64(out, "count", ev->count);
    fputc(',', out);
    json_key_u64(out, "total_ns", ev->total_ns);
    fputc(',', out);
    json_key_u64(out, "max_ns", ev->max_ns);
    fputc(',', out);
    json_key_u64(out, "bytes", ev->bytes);
    fputc(',', out);
    json_key_string(out, "api", ev->api);
    fputc(',', out);
    json_key_string(out, "direction", ev->direction);
    fputc(',', out);
    json_key_string(out, "host_kind", ev->host_kind);
    fputc(',', out);
    json_key_string(out, "waited_for", ev->waited_for);
    fputc(',', out);
    json_key_string(out, "stream", ev->stream);
    fprintf(out, ",\"device\":%d}", ev->device);
}

/* The call stack of 'f': "st":[[function, file, line, module, is_python, pc, hidden], ...];
 * 'hidden' is 1 for a frame of the Python interpreter or the C library's start
 * (ss_report_frame_hidden), which the page leaves out. */
static void write_frames(FILE *out, const ss_finding *f)
{
    fputs(",\"st\":[", out);
    for (size_t i = 0; i < f->frame_count; i++) {
        const ss_frame *fr = &f->frames[i];
        fputs(i ? ",[" : "[", out);
        json_string(out, fr->function);
        fputc(',', out);
        json_string(out, fr->file);
        fprintf(out, ",%u,", fr->line);
        json_string(out, fr->module);
        fprintf(out, ",%d,%llu,%d]", fr->is_python ? 1 : 0, (unsigned long long)fr->pc,
                f->origin == SS_ORIGIN_RUNTIME && ss_report_frame_hidden(f, i));
    }
    fputc(']', out);
}

/* The detector's extra facts of 'f': "x":[[key, value], ...]. */
static void write_extra(FILE *out, const ss_finding *f)
{
    fputs(",\"x\":[", out);
    for (size_t i = 0; i < f->extra_count; i++) {
        fputs(i ? ",[" : "[", out);
        json_string(out, f->extra[i].key);
        fputc(',', out);
        json_string(out, f->extra[i].value);
        fputc(']', out);
    }
    fputc(']', out);
}

/* The timeline moments of 'pf': how many there were, and the kept [start, end, lane]. */
static void write_moments(FILE *out, const page_finding *pf)
{
    fprintf(out, ",\"occn\":%llu,\"occ\":[", (unsigned long long)pf->occ_total);
    for (size_t i = 0; i < pf->occ_count; i++)
        fprintf(out, "%s[%llu,%llu,%llu]", i ? "," : "", (unsigned long long)pf->occ[i][0],
                (unsigned long long)pf->occ[i][1], (unsigned long long)pf->occ[i][2]);
    fputc(']', out);
}

/* One finding of the data block, with the short member names report.js reads. */
static void write_finding(FILE *out, const page *pg, const page_finding *pf)
{
    const ss_finding *f = pf->f;
    fprintf(out, "{\"r\":%d,\"s\":%d,\"o\":%d,\"p\":%zu,\"site\":%zu,", (int)f->rule,
            (int)f->severity, pg->results[pf->proc]->kind == SS_RESULT_RUN ? 2 : 1, pf->proc,
            pf->site);
    json_key_string(out, "f", f->file);
    fputc(',', out);
    json_key_string(out, "k", pf->key);
    fprintf(out, ",\"l\":%u,\"c\":%u,\"src\":%ld,", f->line, f->column, pf->source);
    json_key_string(out, "fn", f->function);
    fputc(',', out);
    json_key_string(out, "m", f->message);
    fputc(',', out);
    json_key_string(out, "h", f->hint);
    fputc(',', out);
    fputs("\"t\":", out);
    json_string_max(out, f->line_text, MAX_SOURCE_LINE);
    if (pg->results[pf->proc]->kind == SS_RESULT_RUN) {
        fputc(',', out);
        write_evidence(out, &f->evidence);
        if (f->latent)
            fputs(",\"lat\":1", out);
    }
    if (f->frame_count)
        write_frames(out, f);
    if (f->extra_count)
        write_extra(out, f);
    if (pf->occ_count)
        write_moments(out, pf);
    fputc('}', out);
}

static int cmp_unsigned(const void *pa, const void *pb)
{
    unsigned a = *(const unsigned *)pa, b = *(const unsigned *)pb;
    return (a > b) - (a < b);
}

/* Reads 'path' whole (NUL-terminated) when it is a regular file of at most MAX_SOURCE_SIZE
 * bytes, else NULL. The last component is not followed when it is a symbolic link, and the
 * type is checked on the opened file: a FIFO or device named in its place is never read from
 * (O_NONBLOCK: opening a FIFO does not wait for a writer). */
static char *read_source(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > MAX_SOURCE_SIZE) {
        close(fd);
        return NULL;
    }
    size_t size = (size_t)st.st_size;
    char *text = ss_xcalloc(size + 1, 1);
    size_t got = 0;
    while (got < size) {
        ssize_t n = read(fd, text + got, size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; /* a file that shrank: keep what was read */
        got += (size_t)n;
    }
    close(fd);
    text[got] = '\0';
    *len = got;
    return text;
}

/* One source's excerpt lines: [[number, text], ...] for every line within EXCERPT_RADIUS of
 * a finding's line; an empty list when the file cannot be read. */
static void write_source(FILE *out, page_source *ps)
{
    fputs("{\"path\":", out);
    json_string(out, ps->path);
    fputs(",\"lines\":[", out);
    size_t len = 0;
    char *text = read_source(ps->resolved, &len);
    if (text) {
        qsort(ps->lines, ps->line_count, sizeof *ps->lines, cmp_unsigned);
        unsigned next = 1; /* the first line number not yet written */
        unsigned at_line = 1;
        const char *p = text, *end = text + len;
        bool first = true;
        for (size_t i = 0; i < ps->line_count; i++) {
            unsigned from = ps->lines[i] > EXCERPT_RADIUS ? ps->lines[i] - EXCERPT_RADIUS : 1;
            unsigned to = ps->lines[i] + EXCERPT_RADIUS;
            if (from < next)
                from = next;
            for (unsigned n = from; n <= to; n++) {
                while (at_line < n && p < end) {
                    const char *nl = memchr(p, '\n', (size_t)(end - p));
                    p = nl ? nl + 1 : end;
                    at_line++;
                }
                if (p >= end)
                    break;
                const char *nl = memchr(p, '\n', (size_t)(end - p));
                size_t n_bytes = nl ? (size_t)(nl - p) : (size_t)(end - p);
                if (n_bytes && p[n_bytes - 1] == '\r')
                    n_bytes--;
                char *line = ss_xcalloc(n_bytes + 1, 1);
                memcpy(line, p, n_bytes);
                fprintf(out, "%s[%u,", first ? "" : ",", n);
                json_string_max(out, line, MAX_SOURCE_LINE);
                fputc(']', out);
                free(line);
                first = false;
                next = n + 1;
            }
        }
        free(text);
    }
    fputs("]}", out);
}

static void write_timeline(FILE *out, const page *pg, int compressed, size_t raw)
{
    if (!pg->has_trace) {
        fputs("\"timeline\":null", out);
        return;
    }
    fprintf(out, "\"timeline\":{\"compressed\":%s,\"raw\":%zu,\"ops\":%zu,\"cols\":[",
            compressed ? "true" : "false", raw, pg->op_total);
    for (int c = 0; c < 5; c++)
        fprintf(out, "%s%zu", c ? "," : "", pg->col_len[c]);
    fputs("],\"lanes\":[", out);
    for (size_t i = 0; i < pg->lane_count; i++) {
        const page_lane *l = &pg->lanes[i];
        fprintf(out,
                "%s{\"p\":%zu,\"kind\":\"%s\",\"id\":%u,\"legacy\":%s,\"nonblocking\":%s,"
                "\"device\":%d,\"n\":%zu}",
                i ? "," : "", l->proc, l->is_stream ? "stream" : "thread", l->id,
                l->legacy ? "true" : "false", l->non_blocking ? "true" : "false", l->device,
                l->ops);
    }
    fputs("],\"names\":[", out);
    for (size_t i = 0; i < pg->name_count; i++) {
        if (i)
            fputc(',', out);
        json_string(out, pg->name_list[i]);
    }
    fputs("]}", out);
}

/* The sites: "sites":[{"g": group, "f": [finding, ...]}, ...]. */
static void write_sites(FILE *out, const page *pg)
{
    fputs("\"sites\":[", out);
    for (size_t i = 0; i < pg->site_count; i++) {
        const page_site *s = &pg->sites[i];
        fprintf(out, "%s{\"g\":%d,\"f\":[", i ? "," : "", s->group);
        for (size_t j = 0; j < s->member_count; j++)
            fprintf(out, "%s%zu", j ? "," : "", s->members[j]);
        fputs("]}", out);
    }
    fputc(']', out);
}

/* The diagnostics of every result: "diags":[{"p": process, "s", "f", "l", "m"}, ...]. */
static void write_diags(FILE *out, const page *pg)
{
    fputs("\"diags\":[", out);
    bool first = true;
    for (size_t i = 0; i < pg->n; i++) {
        const ss_result *r = pg->results[i];
        for (size_t j = 0; j < r->diag_count; j++) {
            const ss_diag *d = &r->diags[j];
            fprintf(out, "%s{\"p\":%zu,\"s\":%d,", first ? "" : ",", i, (int)d->severity);
            json_key_string(out, "f", d->file);
            fprintf(out, ",\"l\":%u,", d->line);
            json_key_string(out, "m", d->message);
            fputc('}', out);
            first = false;
        }
    }
    fputc(']', out);
}

/* The date the header shows: the options' one, else now (UTC) written into 'now'. */
static const char *generated_date(const page *pg, char *now, size_t size)
{
    if (pg->opt->generated_at != NULL)
        return pg->opt->generated_at;
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(now, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return now;
}

/* The page's data block: one JSON object that report.js reads. */
static void write_data(FILE *out, const page *pg, int compressed, size_t raw)
{
    fputc('{', out);
    json_key_string(out, "version", SS_VERSION);
    fputc(',', out);
    char now[32];
    json_key_string(out, "generated", generated_date(pg, now, sizeof now));
    fputc(',', out);
    json_key_string(out, "title", pg->opt->title ? pg->opt->title : "syncscope report");
    fputc(',', out);
    json_key_string(out, "root", pg->root);
    fputc(',', out);
    write_rules(out);
    fputc(',', out);
    write_procs(out, pg);
    fputs(",\"findings\":[", out);
    for (size_t i = 0; i < pg->finding_count; i++) {
        if (i)
            fputs(",\n", out);
        write_finding(out, pg, &pg->findings[i]);
    }
    fputs("],\n", out);
    write_sites(out, pg);
    fputs(",\n\"sources\":[", out);
    for (size_t i = 0; i < pg->source_count; i++) {
        if (i)
            fputs(",\n", out);
        write_source(out, &pg->sources[i]);
    }
    fputs("],\n", out);
    write_diags(out, pg);
    fputs(",\n", out);
    write_timeline(out, pg, compressed, raw);
    fputc('}', out);
}

static void page_free(page *pg)
{
    for (size_t i = 0; i < pg->finding_count; i++) {
        free(pg->findings[i].key);
        free(pg->findings[i].resolved);
        free(pg->findings[i].occ);
    }
    free(pg->findings);
    for (size_t i = 0; i < pg->site_count; i++)
        free(pg->sites[i].members);
    free(pg->sites);
    for (size_t i = 0; i < pg->source_count; i++) {
        free(pg->sources[i].path);
        free(pg->sources[i].resolved);
        free(pg->sources[i].lines);
    }
    free(pg->sources);
    ss_strmap_free(&pg->source_index);
    free(pg->lanes);
    free(pg->proc_t0);
    free(pg->proc_span);
    free(pg->proc_context_ns);
    ss_strmap_free(&pg->names);
    for (size_t i = 0; i < pg->name_count; i++)
        free(pg->name_list[i]);
    free(pg->name_list);
    free(pg->blob.data);
    free(pg->root);
    free(pg->source_root);
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

/* Sets up the page for 'n' results: its root, the folder excerpts may come from, and the
 * per-process timeline figures. */
static void page_init(page *pg, const ss_result *const *results, size_t n,
                      const ss_html_options *options)
{
    static const ss_html_options defaults = {0};
    memset(pg, 0, sizeof *pg);
    pg->results = results;
    pg->n = n;
    pg->opt = options ? options : &defaults;
    const char *root = pg->opt->root && pg->opt->root[0] ? pg->opt->root : ".";
    char cwd[PATH_MAX];
    bool have_cwd = getcwd(cwd, sizeof cwd) != NULL;
    pg->root = ss_path_resolve(have_cwd ? cwd : "/", root);
    /* Excerpts come from inside the root only, so a result or trace cannot bring any other
     * file into the page; a root that cannot be resolved to a folder allows none. */
    if (root[0] == '/' || have_cwd) {
        struct stat st;
        pg->source_root = realpath(pg->root, NULL);
        if (pg->source_root && (stat(pg->source_root, &st) != 0 || !S_ISDIR(st.st_mode))) {
            free(pg->source_root);
            pg->source_root = NULL;
        }
    }
    pg->proc_t0 = ss_xcalloc(n, sizeof *pg->proc_t0);
    pg->proc_span = ss_xcalloc(n, sizeof *pg->proc_span);
    pg->proc_context_ns = ss_xcalloc(n, sizeof *pg->proc_context_ns);
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
        write_data(out, pg, fill->compressed, pg->blob.len);
    } else if (field_is(name, len, "TRACE")) {
        if (fill->blob_len)
            base64_write(out, fill->blob, fill->blob_len);
    }
}

int ss_report_write_html(FILE *out, const ss_result *const *results, size_t n,
                         const ss_html_options *options)
{
    page pg;
    page_init(&pg, results, n, options);
    page_collect_findings(&pg);
    page_join(&pg);
    page_build_timeline(&pg);
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
    page_free(&pg);
    if (fflush(out) != 0 || ferror(out)) {
        if (errno == 0)
            errno = EIO;
        return -1;
    }
    return 0;
}
