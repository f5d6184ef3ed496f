/* suppress.c: finds suppression comments in C/C++/CUDA source text (comments only, never
 * string or character literals) and answers whether a finding is suppressed. */
#include "files.h"
#include "log.h"
#include "policy_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A rule key is looked up, and suggested for, only within this many bytes; longer words name
 * no rule and are near none. */
#define SUGGEST_KEY_SIZE 96

/* A NOLINTBEGIN waiting for its NOLINTEND. */
typedef struct open_block {
    ss_rule_id rule;
    unsigned line, column;
} open_block;

typedef struct scanner {
    const char *path;
    const char *text;
    size_t len;
    size_t *line_starts; /* offset of the first byte of each line */
    size_t line_count;
    ss_suppressions *out;
    ss_result *diags;
    int problems;
    open_block *open;
    size_t open_count, open_cap;
} scanner;

static int is_ident(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static int is_rule_char(char c)
{
    return is_ident(c) || c == '-';
}

/* The 1-based line of byte offset 'pos' (a newline belongs to the line it ends). */
static unsigned line_of(const scanner *sc, size_t pos)
{
    size_t lo = 0, hi = sc->line_count;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (sc->line_starts[mid] <= pos)
            lo = mid;
        else
            hi = mid;
    }
    return (unsigned)lo + 1;
}

static unsigned column_of(const scanner *sc, size_t pos)
{
    return (unsigned)(pos - sc->line_starts[line_of(sc, pos) - 1]) + 1;
}

static void problem(scanner *sc, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Records a warning about a suppression comment at byte offset 'pos'. */
static void problem(scanner *sc, size_t pos, const char *fmt, ...)
{
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    sc->problems++;
    if (sc->diags)
        ss_result_add_diag(sc->diags, SS_SEV_WARNING, sc->path, line_of(sc, pos),
                           column_of(sc, pos), message);
}

static void add_range(ss_suppressions *s, ss_rule_id rule, unsigned first, unsigned last)
{
    if (s->count == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 16;
        s->ranges = ss_xreallocarray(s->ranges, s->cap, sizeof *s->ranges);
    }
    s->ranges[s->count].rule = rule;
    s->ranges[s->count].first = first;
    s->ranges[s->count].last = last;
    s->count++;
}

/* Whether 'word' ('len' bytes) equals the NUL-terminated 'name'. */
static int word_is(const char *word, size_t len, const char *name)
{
    return strlen(name) == len && memcmp(word, name, len) == 0;
}

static size_t skip_blanks(const scanner *sc, size_t p, size_t end)
{
    while (p < end && (sc->text[p] == ' ' || sc->text[p] == '\t'))
        p++;
    return p;
}

/* Looks up the rule named by text[p..p+len). Returns the rule or NULL. */
static const ss_rule *find_rule(const scanner *sc, size_t p, size_t len)
{
    char key[64];
    if (len == 0 || len >= sizeof key)
        return NULL;
    memcpy(key, sc->text + p, len);
    key[len] = '\0';
    return ss_rules_find(key);
}

/* Warns at byte offset 'pos' that text[p..p+len) names no rule, in a comment of the form
 * 'form', with the nearest rule suggested. */
static void unknown_rule(scanner *sc, size_t pos, size_t p, size_t len, const char *form)
{
    char key[SUGGEST_KEY_SIZE];
    char hint[SS_POLICY_HINT_SIZE];
    snprintf(key, sizeof key, "%.*s", (int)len, sc->text + p);
    problem(sc, pos, "unknown rule '%.*s' in %s comment%s", (int)len, sc->text + p, form,
            ss_policy_rule_hint(key, hint, sizeof hint));
}

/* "syncscope-ignore: A, B" and "syncscope-ignore-file: A": parses the list after the
 * directive that ends at 'p' and applies it. Returns where scanning continues. */
static size_t ignore_directive(scanner *sc, size_t start, size_t p, size_t end, int file_wide,
                               unsigned last_line)
{
    const char *form = file_wide ? "syncscope-ignore-file" : "syncscope-ignore";
    p = skip_blanks(sc, p, end);
    if (p >= end || sc->text[p] != ':') {
        problem(sc, start, "'%s' needs ':' and a list of rules (IDs or names)", form);
        return p;
    }
    p = skip_blanks(sc, p + 1, end);
    unsigned first = line_of(sc, start);
    for (;;) {
        size_t token = p;
        while (p < end && is_rule_char(sc->text[p]))
            p++;
        if (p == token) {
            problem(sc, token < end ? token : start, "'%s' needs a rule ID or name after %s", form,
                    sc->text[token - 1] == ',' ? "','" : "':'");
            return p;
        }
        const ss_rule *rule = find_rule(sc, token, p - token);
        if (rule == NULL)
            unknown_rule(sc, token, token, p - token, form);
        else if (file_wide)
            sc->out->file_wide[rule->rule] = 1;
        else
            add_range(sc->out, rule->rule, first, last_line + 1);
        size_t after = skip_blanks(sc, p, end);
        if (after >= end || sc->text[after] != ',')
            return p;
        p = skip_blanks(sc, after + 1, end);
    }
}

/* Pairs a NOLINTEND with the latest NOLINTBEGIN of the same rule. */
static void close_block(scanner *sc, ss_rule_id rule, size_t pos, const char *entry,
                        size_t entry_len)
{
    for (size_t i = sc->open_count; i-- > 0;) {
        if (sc->open[i].rule == rule) {
            add_range(sc->out, rule, sc->open[i].line, line_of(sc, pos));
            memmove(&sc->open[i], &sc->open[i + 1], (sc->open_count - i - 1) * sizeof *sc->open);
            sc->open_count--;
            return;
        }
    }
    problem(sc, pos, "NOLINTEND(%.*s) without a matching NOLINTBEGIN", (int)entry_len, entry);
}

enum nolint_kind { NOLINT_LINE, NOLINT_NEXT, NOLINT_BEGIN, NOLINT_END };

/* Applies one entry of a NOLINT directive of 'kind' on 'line', naming 'rule' (SS_RULE_COUNT:
 * every rule), the entry at text[entry..entry+entry_len): a suppressed line, the next line,
 * a block opened or the latest open block of the rule closed. */
static void nolint_apply(scanner *sc, enum nolint_kind kind, ss_rule_id rule, unsigned line,
                         size_t entry, size_t entry_len)
{
    switch (kind) {
    case NOLINT_LINE:
        add_range(sc->out, rule, line, line);
        break;
    case NOLINT_NEXT:
        add_range(sc->out, rule, line + 1, line + 1);
        break;
    case NOLINT_BEGIN:
        ss_xgrow((void **)&sc->open, &sc->open_cap, sc->open_count + 1, sizeof *sc->open);
        sc->open[sc->open_count].rule = rule;
        sc->open[sc->open_count].line = line;
        sc->open[sc->open_count].column = column_of(sc, entry);
        sc->open_count++;
        break;
    case NOLINT_END:
        close_block(sc, rule, entry, sc->text + entry, entry_len);
        break;
    }
}

/* "NOLINT(a, syncscope-B)" and its NEXTLINE/BEGIN/END forms: 'p' is at the '('. Entries that
 * do not start with "syncscope-" belong to other tools and are skipped. Returns where
 * scanning continues. */
static size_t nolint_directive(scanner *sc, size_t start, size_t p, size_t end,
                               enum nolint_kind kind, const char *form)
{
    static const char prefix[] = "syncscope-";
    const size_t prefix_len = sizeof prefix - 1;
    size_t close = p + 1;
    while (close < end && sc->text[close] != ')')
        close++;
    if (close >= end)
        return p + 1; /* no list: not a NOLINT that names syncscope rules */
    unsigned line = line_of(sc, start);
    size_t q = p + 1;
    while (q < close) {
        q = skip_blanks(sc, q, close);
        size_t entry = q;
        while (q < close && sc->text[q] != ',')
            q++;
        size_t entry_end = q;
        while (entry_end > entry &&
               (sc->text[entry_end - 1] == ' ' || sc->text[entry_end - 1] == '\t'))
            entry_end--;
        q++; /* past the ',' */
        size_t entry_len = entry_end - entry;
        if (entry_len <= prefix_len || memcmp(sc->text + entry, prefix, prefix_len) != 0)
            continue;
        size_t name = entry + prefix_len;
        size_t name_len = entry_end - name;
        ss_rule_id rule;
        if (name_len == 1 && sc->text[name] == '*') {
            rule = SS_RULE_COUNT;
        } else {
            const ss_rule *row = find_rule(sc, name, name_len);
            if (row == NULL) {
                unknown_rule(sc, entry, name, name_len, form);
                continue;
            }
            rule = row->rule;
        }
        nolint_apply(sc, kind, rule, line, entry, entry_len);
    }
    return close + 1;
}

/* Warns about the word text[p..p+len) when it is a misspelled directive: it starts with
 * "syncscope-", is followed by ':' and is near one of the directives ("syncscope-ingore:").
 * Other words that start so are left alone: a comment may mention syncscope freely. */
static void misspelled_directive(scanner *sc, size_t p, size_t len, size_t end)
{
    static const char *const directives[] = {"syncscope-ignore", "syncscope-ignore-file"};
    char word[SUGGEST_KEY_SIZE];
    size_t after = skip_blanks(sc, p + len, end);
    if (len <= 10 || memcmp(sc->text + p, "syncscope-", 10) != 0 || after >= end ||
        sc->text[after] != ':' || len >= sizeof word)
        return;
    snprintf(word, sizeof word, "%.*s", (int)len, sc->text + p);
    const char *near = ss_suggest(word, directives, 2);
    if (near)
        problem(sc, p, "unknown suppression '%s' (did you mean '%s'?)", word, near);
}

/* Looks for directives in the comment body text[begin..end); 'last_line' is the line the
 * comment ends on. */
static void scan_comment(scanner *sc, size_t begin, size_t end, unsigned last_line)
{
    static const struct {
        const char *word;
        enum nolint_kind kind;
    } nolints[] = {{"NOLINT", NOLINT_LINE},
                   {"NOLINTNEXTLINE", NOLINT_NEXT},
                   {"NOLINTBEGIN", NOLINT_BEGIN},
                   {"NOLINTEND", NOLINT_END}};
    size_t p = begin;
    while (p < end) {
        char c = sc->text[p];
        if ((c != 's' && c != 'N') || (p > begin && is_rule_char(sc->text[p - 1]))) {
            p++;
            continue;
        }
        size_t w = p;
        if (c == 's') {
            while (w < end && is_rule_char(sc->text[w]))
                w++;
            const char *word = sc->text + p;
            size_t len = w - p;
            if (len < 16 || memcmp(word, "syncscope-ignore", 16) != 0) {
                misspelled_directive(sc, p, len, end);
                p = w;
                continue;
            }
            if (word_is(word, len, "syncscope-ignore")) {
                p = ignore_directive(sc, p, w, end, 0, last_line);
            } else if (word_is(word, len, "syncscope-ignore-file")) {
                p = ignore_directive(sc, p, w, end, 1, last_line);
            } else {
                problem(sc, p,
                        "unknown suppression '%.*s' (expected syncscope-ignore or "
                        "syncscope-ignore-file)",
                        (int)len, word);
                p = w;
            }
            continue;
        }
        while (w < end && is_ident(sc->text[w]))
            w++;
        size_t which = sizeof nolints / sizeof nolints[0];
        for (size_t i = 0; i < sizeof nolints / sizeof nolints[0]; i++) {
            if (word_is(sc->text + p, w - p, nolints[i].word))
                which = i;
        }
        if (which < sizeof nolints / sizeof nolints[0] && w < end && sc->text[w] == '(')
            p = nolint_directive(sc, p, w, end, nolints[which].kind, nolints[which].word);
        else
            p = w > p ? w : p + 1;
    }
}

/* The length of a backslash-newline splice at 'p' (2 or 3 with CRLF), or 0. */
static size_t splice_at(const scanner *sc, size_t p)
{
    if (sc->text[p] != '\\')
        return 0;
    if (p + 1 < sc->len && sc->text[p + 1] == '\n')
        return 2;
    if (p + 2 < sc->len && sc->text[p + 1] == '\r' && sc->text[p + 2] == '\n')
        return 3;
    return 0;
}

/* Skips a "..." or '...' literal starting at the quote 'p'. An unescaped newline ends it
 * (unterminated literals stop at the end of their line). Returns the offset after it. */
static size_t skip_quoted(const scanner *sc, size_t p)
{
    char quote = sc->text[p++];
    while (p < sc->len) {
        char c = sc->text[p];
        if (c == '\\') {
            size_t splice = splice_at(sc, p);
            p += splice ? splice : 2;
            continue;
        }
        if (c == quote)
            return p + 1;
        if (c == '\n')
            return p;
        p++;
    }
    return sc->len;
}

/* Skips a raw string literal R"delim( ... )delim" whose '"' is at 'p'. Returns the offset
 * after it, or 0 when this is not a well-formed raw string opening. */
static size_t skip_raw(const scanner *sc, size_t p)
{
    size_t d = p + 1;
    while (d < sc->len && d - (p + 1) <= 16 && sc->text[d] != '(') {
        char c = sc->text[d];
        if (c == ' ' || c == ')' || c == '\\' || c == '\t' || c == '\n' || c == '"')
            return 0;
        d++;
    }
    if (d >= sc->len || sc->text[d] != '(')
        return 0;
    const char *delim = sc->text + p + 1;
    size_t delim_len = d - (p + 1);
    for (size_t q = d + 1; q < sc->len; q++) {
        if (sc->text[q] == ')' && q + 1 + delim_len < sc->len &&
            memcmp(sc->text + q + 1, delim, delim_len) == 0 && sc->text[q + 1 + delim_len] == '"')
            return q + delim_len + 2;
    }
    return sc->len;
}

/* Whether text[start..end) is a raw string prefix: R, LR, uR, UR or u8R. */
static int raw_prefix(const scanner *sc, size_t start, size_t end)
{
    const char *w = sc->text + start;
    size_t len = end - start;
    return word_is(w, len, "R") || word_is(w, len, "LR") || word_is(w, len, "uR") ||
           word_is(w, len, "UR") || word_is(w, len, "u8R");
}

/* Walks the source text as the C preprocessor's tokenizer would, handing every comment's
 * body to scan_comment. */
static void scan_text(scanner *sc)
{
    size_t p = 0;
    size_t word_start = 0, word_end = (size_t)-1; /* the identifier or number just before */
    while (p < sc->len) {
        char c = sc->text[p];
        size_t splice = splice_at(sc, p);
        if (splice) {
            p += splice;
            continue;
        }
        if (c == '/' && p + 1 < sc->len && sc->text[p + 1] == '/') {
            size_t q = p + 2;
            while (q < sc->len && sc->text[q] != '\n') {
                size_t s = splice_at(sc, q);
                q += s ? s : 1;
            }
            scan_comment(sc, p + 2, q, line_of(sc, q));
            p = q;
            continue;
        }
        if (c == '/' && p + 1 < sc->len && sc->text[p + 1] == '*') {
            size_t q = p + 2;
            while (q + 1 < sc->len && !(sc->text[q] == '*' && sc->text[q + 1] == '/'))
                q++;
            size_t body_end = q + 1 < sc->len ? q : sc->len;
            scan_comment(sc, p + 2, body_end, line_of(sc, body_end));
            p = body_end + 2;
            continue;
        }
        if (c == '"') {
            size_t after = 0;
            if (word_end == p && raw_prefix(sc, word_start, word_end))
                after = skip_raw(sc, p);
            p = after ? after : skip_quoted(sc, p);
            word_end = (size_t)-1;
            continue;
        }
        if (c == '\'') {
            /* 1'000'000: a digit separator inside a number, not a character literal. */
            if (word_end == p && sc->text[word_start] >= '0' && sc->text[word_start] <= '9') {
                p++;
                word_end = p;
                continue;
            }
            p = skip_quoted(sc, p);
            word_end = (size_t)-1;
            continue;
        }
        if (is_ident(c)) {
            if (word_end != p)
                word_start = p;
            p++;
            word_end = p;
            continue;
        }
        p++;
    }
}

int ss_suppress_scan(const char *path, const char *text, size_t len, ss_suppressions *out,
                     ss_result *diags)
{
    memset(out, 0, sizeof *out);
    scanner sc = {0};
    sc.path = path;
    sc.text = text;
    sc.len = len;
    sc.out = out;
    sc.diags = diags;
    size_t lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    sc.line_starts = ss_xreallocarray(NULL, lines, sizeof *sc.line_starts);
    sc.line_starts[0] = 0;
    sc.line_count = 1;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n')
            sc.line_starts[sc.line_count++] = i + 1;
    }
    scan_text(&sc);
    for (size_t i = 0; i < sc.open_count; i++) {
        const open_block *b = &sc.open[i];
        const ss_rule *rule = b->rule == SS_RULE_COUNT ? NULL : ss_rules_get(b->rule);
        char message[256];
        snprintf(message, sizeof message,
                 "NOLINTBEGIN(syncscope-%s) without a matching NOLINTEND: it suppresses nothing",
                 rule ? rule->id : "*");
        sc.problems++;
        if (diags)
            ss_result_add_diag(diags, SS_SEV_WARNING, path, b->line, b->column, message);
    }
    free(sc.open);
    free(sc.line_starts);
    return sc.problems;
}

int ss_suppress_scan_file(const char *path, ss_suppressions *out, ss_result *diags, char *err,
                          size_t err_size)
{
    memset(out, 0, sizeof *out);
    size_t len = 0;
    char *text = ss_read_file_err(path, &len, err, err_size);
    if (text == NULL)
        return -1;
    int rc = ss_suppress_scan(path, text, len, out, diags);
    free(text);
    return rc;
}

void ss_suppress_free(ss_suppressions *suppressions)
{
    free(suppressions->ranges);
    memset(suppressions, 0, sizeof *suppressions);
}

int ss_suppress_matches(const ss_suppressions *s, ss_rule_id rule, unsigned line)
{
    if (rule < SS_RULE_COUNT && s->file_wide[rule])
        return 1;
    for (size_t i = 0; i < s->count; i++) {
        const ss_suppress_range *r = &s->ranges[i];
        if ((r->rule == rule || r->rule == SS_RULE_COUNT) && line >= r->first && line <= r->last)
            return 1;
    }
    return 0;
}

/* The suppressions and file of ss_suppress_apply, for drop_suppressed. */
typedef struct suppress_filter {
    const ss_suppressions *suppressions;
    const char *path;
} suppress_filter;

static int drop_suppressed(const ss_finding *f, void *context)
{
    const suppress_filter *filter = context;
    /* A call written in a macro's argument is also suppressed on the macro's line. */
    return f->file && strcmp(f->file, filter->path) == 0 &&
           (ss_suppress_matches(filter->suppressions, f->rule, f->line) ||
            (f->macro && ss_suppress_matches(filter->suppressions, f->rule, f->macro_line)));
}

size_t ss_suppress_apply(const ss_suppressions *s, const char *path, ss_result *result)
{
    suppress_filter filter = {s, path};
    return ss_result_remove_if(result, drop_suppressed, &filter);
}
