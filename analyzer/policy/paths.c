/* paths.c: absolute path normalization and the '**'-aware glob matching of excludes. */
#include "policy.h"

#include <fnmatch.h>
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
