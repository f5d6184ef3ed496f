/* paths.c: absolute path normalization and the '**'-aware glob matching of excludes. */
#include "policy.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Appends 'len' bytes of 'segment' and a leading '/' to the path under construction. */
static void push_segment(char *out, size_t *used, const char *segment, size_t len)
{
    out[(*used)++] = '/';
    memcpy(out + *used, segment, len);
    *used += len;
    out[*used] = '\0';
}

/* Drops the last segment of the path under construction ("/" stays "/"). */
static void pop_segment(char *out, size_t *used)
{
    while (*used > 0 && out[*used - 1] != '/')
        (*used)--;
    if (*used > 0)
        (*used)--;
    out[*used] = '\0';
}

/* Normalizes the segments of 'path' onto 'out', which holds an absolute path already. */
static void add_segments(char *out, size_t *used, const char *path)
{
    const char *p = path;
    while (*p) {
        while (*p == '/')
            p++;
        const char *start = p;
        while (*p && *p != '/')
            p++;
        size_t len = (size_t)(p - start);
        if (len == 0 || (len == 1 && start[0] == '.'))
            continue;
        if (len == 2 && start[0] == '.' && start[1] == '.')
            pop_segment(out, used);
        else
            push_segment(out, used, start, len);
    }
}

char *ss_policy_path_absolute(const char *path, const char *cwd)
{
    char *own_cwd = NULL;
    if (path[0] != '/' && cwd == NULL) {
        own_cwd = getcwd(NULL, 0);
        if (own_cwd == NULL)
            return NULL;
        cwd = own_cwd;
    }
    size_t cap = strlen(path) + (path[0] == '/' ? 0 : strlen(cwd)) + 3;
    char *out = malloc(cap);
    if (out == NULL) {
        free(own_cwd);
        return NULL;
    }
    size_t used = 0;
    out[0] = '\0';
    if (path[0] != '/')
        add_segments(out, &used, cwd);
    add_segments(out, &used, path);
    if (used == 0) {
        out[0] = '/';
        out[1] = '\0';
    }
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

/* fnmatch of one pattern segment against one path segment (both not NUL-terminated). */
static int segment_match(const segment *pattern, const segment *name)
{
    char pbuf[512], nbuf[512];
    if (pattern->len >= sizeof pbuf || name->len >= sizeof nbuf)
        return 0;
    memcpy(pbuf, pattern->text, pattern->len);
    pbuf[pattern->len] = '\0';
    memcpy(nbuf, name->text, name->len);
    nbuf[name->len] = '\0';
    return fnmatch(pbuf, nbuf, FNM_PATHNAME) == 0;
}

/* Whether pattern[pi..np) matches exactly path[si..ns). '**' backtracks over whole segments. */
static int match_from(const segment *pattern, size_t np, size_t pi, const segment *path, size_t ns,
                      size_t si)
{
    while (pi < np) {
        if (pattern[pi].len == 2 && memcmp(pattern[pi].text, "**", 2) == 0) {
            while (pi + 1 < np && pattern[pi + 1].len == 2 &&
                   memcmp(pattern[pi + 1].text, "**", 2) == 0)
                pi++;
            for (size_t skip = si; skip <= ns; skip++) {
                if (match_from(pattern, np, pi + 1, path, ns, skip))
                    return 1;
            }
            return 0;
        }
        if (si == ns || !segment_match(&pattern[pi], &path[si]))
            return 0;
        pi++;
        si++;
    }
    return si == ns;
}

#define SS_GLOB_MAX_SEGMENTS 256

int ss_policy_glob_match(const char *pattern, const char *path)
{
    segment pat[SS_GLOB_MAX_SEGMENTS], segs[SS_GLOB_MAX_SEGMENTS];
    size_t np = split(pattern, pat, SS_GLOB_MAX_SEGMENTS);
    size_t ns = split(path, segs, SS_GLOB_MAX_SEGMENTS);
    if (np == 0 || np > SS_GLOB_MAX_SEGMENTS || ns > SS_GLOB_MAX_SEGMENTS)
        return 0;
    /* A match of a leading run of folders excludes everything below them. */
    for (size_t prefix = 1; prefix <= ns; prefix++) {
        if (match_from(pat, np, 0, segs, prefix, 0))
            return 1;
    }
    return 0;
}
