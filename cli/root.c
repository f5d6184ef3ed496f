/* root.c: --root DIR and --root FROM=TO: the local checkout, and the paths a run or lint on
 * another machine recorded mapped onto it. */
#include "log.h"
#include "options.h"
#include "path.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 'path' without its trailing '/' (but "/" itself). Malloc'ed. */
static char *without_slash(const char *path)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    return ss_xasprintf("%.*s", (int)n, path);
}

int ss_cli_root_parse(const char *value, ss_cli_root *root)
{
    memset(root, 0, sizeof *root);
    const char *eq = strchr(value, '=');
    char cwd[PATH_MAX];
    const char *base = getcwd(cwd, sizeof cwd) ? cwd : NULL;
    if (eq == NULL) {
        root->to = ss_path_normalize(base, value);
        return 0;
    }
    if (eq == value || eq[1] == '\0') {
        ss_log_error("--root needs a folder, or FROM=TO (got '%s')", value);
        return -1;
    }
    /* FROM is a path of the machine that recorded it: taken as written, not resolved here. */
    char *from = ss_xasprintf("%.*s", (int)(eq - value), value);
    root->from = without_slash(from);
    free(from);
    root->to = ss_path_normalize(base, eq + 1);
    return 0;
}

void ss_cli_root_free(ss_cli_root *root)
{
    free(root->from);
    free(root->to);
    memset(root, 0, sizeof *root);
}

char *ss_cli_root_map(const ss_cli_root *root, const char *path)
{
    if (root->from == NULL || path == NULL)
        return NULL;
    size_t n = strlen(root->from);
    if (strcmp(root->from, "/") == 0)
        n = 0;
    if (strncmp(path, root->from, n) != 0 || (path[n] != '/' && path[n] != '\0'))
        return NULL;
    const char *rest = path + n;
    if (strcmp(root->to, "/") == 0 && rest[0] == '/')
        return ss_xstrdup(rest);
    return ss_xasprintf("%s%s", root->to, rest);
}

/* Replaces '*path' by its mapping, when it has one. */
static void map_in_place(const ss_cli_root *root, char **path)
{
    char *mapped = ss_cli_root_map(root, *path);
    if (mapped != NULL) {
        free(*path);
        *path = mapped;
    }
}

void ss_cli_root_apply(const ss_cli_root *root, ss_result *result)
{
    for (size_t i = 0; i < result->count; i++) {
        ss_finding *f = &result->findings[i];
        map_in_place(root, &f->file);
        map_in_place(root, &f->via_file);
        for (size_t k = 0; k < f->frame_count; k++)
            map_in_place(root, &f->frames[k].file);
    }
    for (size_t i = 0; i < result->diag_count; i++)
        map_in_place(root, &result->diags[i].file);
    map_in_place(root, &result->root);
}
