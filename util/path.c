/* path.c: paths as text (path.h): normalized, resolved, and taken relative to a folder. */
#include "path.h"
#include "log.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Appends 'len' bytes of 's' to the growing string 'buf'. */
static void append(char **buf, size_t *len, const char *s, size_t n)
{
    if (n > SIZE_MAX - *len - 1)
        ss_out_of_memory();
    char *p = ss_xreallocarray(*buf, *len + n + 1, 1);
    memcpy(p + *len, s, n);
    *len += n;
    p[*len] = '\0';
    *buf = p;
}

char *ss_path_normalize(const char *base, const char *path)
{
    char *joined =
        path[0] == '/' || base == NULL ? ss_xstrdup(path) : ss_xasprintf("%s/%s", base, path);
    char *out = NULL;
    size_t len = 0;
    append(&out, &len, "", 0);
    const char *p = joined;
    while (*p) {
        while (*p == '/')
            p++;
        const char *end = strchr(p, '/');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == 0)
            break;
        if (n == 1 && p[0] == '.') {
            /* skip */
        } else if (n == 2 && p[0] == '.' && p[1] == '.') {
            char *slash = strrchr(out, '/');
            len = slash ? (size_t)(slash - out) : 0;
            out[len] = '\0';
        } else {
            append(&out, &len, "/", 1);
            append(&out, &len, p, n);
        }
        p += n;
    }
    free(joined);
    if (len == 0)
        append(&out, &len, "/", 1);
    return out;
}

const char *ss_path_under(const char *root, const char *path)
{
    size_t n = strlen(root);
    if (n > 0 && root[n - 1] == '/')
        n--; /* the root "/" */
    if (strncmp(path, root, n) == 0 && path[n] == '/' && path[n + 1] != '\0')
        return path + n + 1;
    return NULL;
}

char *ss_path_resolve(const char *base, const char *path)
{
    char *joined = path[0] == '/' ? ss_xstrdup(path) : ss_xasprintf("%s/%s", base, path);
    char *real = realpath(joined, NULL);
    if (real) {
        free(joined);
        return real;
    }
    char *norm = ss_path_normalize(NULL, joined);
    free(joined);
    return norm;
}

char *ss_path_real_or_named(const char *path)
{
    char *real = realpath(path, NULL);
    const char *slash = strrchr(path, '/');
    if (real || errno != ENOENT || (slash && slash[1] == '\0'))
        return real;
    return ss_path_named(path);
}

char *ss_path_named(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash == path ? 1 : (size_t)(slash - path);
    char *dir = slash ? ss_xasprintf("%.*s", (int)dir_len, path) : ss_xstrdup(".");
    char *real_dir = realpath(dir, NULL);
    free(dir);
    if (real_dir == NULL)
        return NULL;
    const char *name = slash ? slash + 1 : path;
    char *named = ss_xasprintf("%s%s%s", real_dir, strcmp(real_dir, "/") == 0 ? "" : "/", name);
    free(real_dir);
    return named;
}

const char *ss_path_base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

char *ss_path_display(const char *path)
{
    char *real = ss_path_real_or_named(path);
    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof cwd) == NULL)
        return real ? real : ss_xstrdup(path);
    /* A file in a folder that does not exist (yet) is shown relative all the same. */
    const char *under = ss_path_under(cwd, real ? real : path);
    char *shown = ss_xstrdup(under ? under : real ? real : path);
    free(real);
    return shown;
}
