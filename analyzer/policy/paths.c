/* paths.c: absolute path normalization and the '**'-aware glob matching of excludes. */
#include "path.h"
#include "policy.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *ss_policy_path_absolute(const char *path, const char *cwd)
{
    char *own_cwd = NULL;
    if (path[0] != '/' && cwd == NULL) {
        own_cwd = getcwd(NULL, 0);
        if (own_cwd == NULL)
            return NULL;
        cwd = own_cwd;
    }
    char *out = ss_path_normalize(path[0] == '/' ? NULL : cwd, path);
    free(own_cwd);
    return out;
}

/* One '/'-separated piece of a path or pattern. */
typedef struct segment {
    const char *text;
    size_t len;
} segment;

/* Splits 's' into at most 'max' non-empty segments; returns how many, or max + 1 when there
 * are more. */
static size_t split(const char *s, segment *out, size_t max)
{
    size_t n = 0;
    while (*s) {
        while (*s == '/')
            s++;
        if (*s == '\0')
            break;
        const char *start = s;
        while (*s && *s != '/')
            s++;
        if (n == max)
            return max + 1;
        out[n].text = start;
        out[n].len = (size_t)(s - start);
        n++;
    }
    return n;
}

/* Whether the byte 'c' is in the character class 'name' ('len' bytes, as in "[:alpha:]"),
 * in the C locale. An unknown name holds no byte. */
static int class_match(const char *name, size_t len, unsigned char c)
{
    static const struct {
        const char *name;
        int (*test)(int);
    } classes[] = {
        {"alnum", isalnum}, {"alpha", isalpha}, {"blank", isblank}, {"cntrl", iscntrl},
        {"digit", isdigit}, {"graph", isgraph}, {"lower", islower}, {"print", isprint},
        {"punct", ispunct}, {"space", isspace}, {"upper", isupper}, {"xdigit", isxdigit},
    };
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
        if (strlen(classes[i].name) == len && memcmp(classes[i].name, name, len) == 0)
            return classes[i].test(c) != 0;
    }
    return 0;
}

/* Reads one byte of a bracket expression at '*p' (before 'end'), taking '\' as quoting the
 * next byte and "[.x.]" or "[=x=]" as the byte x, and moves '*p' past it. Returns 1, 0 when
 * the pattern ends first, or -1 for a "[." or "[=" that is not of that form (fnmatch then
 * matches nothing). */
static int bracket_byte(const char **p, const char *end, unsigned char *out)
{
    const char *at = *p;
    if (at >= end)
        return 0;
    if (*at == '\\') {
        if (at + 1 >= end)
            return 0;
        *out = (unsigned char)at[1];
        *p = at + 2;
        return 1;
    }
    if (*at == '[' && at + 1 < end && (at[1] == '.' || at[1] == '=')) {
        if (at + 4 >= end || at[3] != at[1] || at[4] != ']')
            return -1;
        *out = (unsigned char)at[2];
        *p = at + 5;
        return 1;
    }
    *out = (unsigned char)*at;
    *p = at + 1;
    return 1;
}

/* Whether the bracket expression at 'p' (just after its '['; the pattern ends at 'end') holds
 * the byte 'c', read as fnmatch reads one: a leading '!' or '^' negates, a ']' right after
 * them is an ordinary byte, "a-z" is a range of byte values, "[:alpha:]" a class. Sets
 * '*after' past the closing ']'. Returns 1 or 0, or -1 when no ']' closes it (the '[' is then
 * an ordinary byte). */
static int bracket_match(const char *p, const char *end, unsigned char c, const char **after)
{
    int negate = 0, found = 0;
    if (p < end && (*p == '!' || *p == '^')) {
        negate = 1;
        p++;
    }
    const char *first = p;
    for (;;) {
        if (p >= end)
            return -1;
        if (*p == ']' && p != first)
            break;
        if (*p == '[' && p + 1 < end && p[1] == ':') {
            /* "[:name:]" with a lower-case name; otherwise the '[' is an ordinary byte. */
            const char *name = p + 2, *close = name;
            while (close < end && islower((unsigned char)*close))
                close++;
            if (close + 1 < end && close[0] == ':' && close[1] == ']') {
                found |= class_match(name, (size_t)(close - name), c);
                p = close + 2;
                continue;
            }
        }
        unsigned char low, high;
        int read = bracket_byte(&p, end, &low);
        high = low;
        if (read > 0 && p + 1 < end && *p == '-' && p[1] != ']') {
            p++;
            read = bracket_byte(&p, end, &high);
        }
        if (read <= 0)
            return read == 0 ? -1 : 0;
        if (p + 1 == end && *p == '-')
            return 0; /* an unclosed range: fnmatch matches nothing */
        found |= low <= c && c <= high;
    }
    *after = p + 1;
    return found != negate;
}

/* Whether the pattern token at 'p' (not '*'; the pattern ends at 'end') matches the byte 'c'.
 * Sets '*next' past the token. Returns 1 or 0. */
static int token_match(const char *p, const char *end, unsigned char c, const char **next)
{
    switch (*p) {
    case '?':
        *next = p + 1;
        return 1;
    case '[': {
        int in = bracket_match(p + 1, end, c, next);
        if (in >= 0)
            return in;
        break;
    }
    case '\\':
        if (p + 1 >= end) {
            /* A '\' that quotes nothing matches nothing (as in fnmatch). */
            *next = p + 1;
            return 0;
        }
        *next = p + 2;
        return (unsigned char)p[1] == c;
    default:
        break;
    }
    *next = p + 1;
    return (unsigned char)*p == c;
}

/* Whether one pattern segment matches one path segment whole (both not NUL-terminated), as
 * fnmatch(FNM_PATHNAME) does in the C locale. Every token but '*' matches exactly one byte,
 * so a failed match needs to go back only to the last '*' and let it take one more byte:
 * at most pattern length times name length steps. */
static int segment_match(const segment *pattern, const segment *name)
{
    const char *p = pattern->text, *pend = p + pattern->len;
    const char *s = name->text, *send = s + name->len;
    const char *star_p = NULL, *star_s = NULL;
    while (s < send) {
        if (p < pend && *p == '*') {
            while (p < pend && *p == '*')
                p++;
            star_p = p;
            star_s = s;
            continue;
        }
        const char *next;
        if (p < pend && token_match(p, pend, (unsigned char)*s, &next)) {
            p = next;
            s++;
            continue;
        }
        if (star_p == NULL)
            return 0;
        p = star_p;
        s = ++star_s;
    }
    while (p < pend && *p == '*')
        p++;
    return p == pend;
}

/* Whether a pattern segment is exactly '**'. */
static int is_globstar(const segment *pattern)
{
    return pattern->len == 2 && memcmp(pattern->text, "**", 2) == 0;
}

/* Whether pattern[0..np) matches a leading run path[0..k) with k >= 1 of the ns >= 1 path
 * segments. A '**' matches any run of whole segments and every other segment exactly one, so,
 * as in segment_match, a failed match goes back only to the last '**' and lets it take one
 * more segment: at most np times ns segment matches. Returns 1 or 0. */
static int match_leading(const segment *pattern, size_t np, const segment *path, size_t ns)
{
    size_t pi = 0, si = 0, star_pi = 0, star_si = 0;
    int have_star = 0;
    for (;;) {
        /* The pattern is used up: the segments left are below a matched folder. A pattern of
         * only '**' gets here at si == 0 and matches the first segment as well. */
        if (pi == np)
            return 1;
        if (is_globstar(&pattern[pi])) {
            star_pi = ++pi;
            star_si = si;
            have_star = 1;
            continue;
        }
        if (si < ns && segment_match(&pattern[pi], &path[si])) {
            pi++;
            si++;
            continue;
        }
        if (!have_star || star_si == ns)
            return 0;
        pi = star_pi;
        si = ++star_si;
    }
}

#define SS_GLOB_MAX_SEGMENTS 256

int ss_policy_glob_match(const char *pattern, const char *path)
{
    segment pat[SS_GLOB_MAX_SEGMENTS], segs[SS_GLOB_MAX_SEGMENTS];
    size_t np = split(pattern, pat, SS_GLOB_MAX_SEGMENTS);
    size_t ns = split(path, segs, SS_GLOB_MAX_SEGMENTS);
    if (np == 0 || np > SS_GLOB_MAX_SEGMENTS || ns == 0 || ns > SS_GLOB_MAX_SEGMENTS)
        return 0;
    return match_leading(pat, np, segs, ns);
}
