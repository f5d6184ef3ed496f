/* gen_docs.c: syncscope-gen-docs DIR writes the rule pages (DIR/<ID>.md, DIR/README.md). */
#include "log.h"
#include "report.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Writes the page of 'rule' (the index when NULL) into DIR/NAME. Returns 0, or -1 with a message.
 */
static int write_page(const char *dir, const char *name, const ss_rule *rule)
{
    char *path = ss_xasprintf("%s/%s", dir, name);
    FILE *out = fopen(path, "w");
    if (out == NULL) {
        ss_log_error("cannot write '%s': %s", path, strerror(errno));
        free(path);
        return -1;
    }
    int rc = rule ? ss_report_write_rule_doc(out, rule) : ss_report_write_rule_index(out);
    if (fclose(out) != 0)
        rc = -1;
    if (rc != 0)
        ss_log_error("cannot write '%s': %s", path, strerror(errno));
    free(path);
    return rc;
}

/* Warns about pages in 'dir' that name no rule of the catalog (they should be deleted). */
static int warn_stale(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return 0;
    int stale = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".md") != 0 ||
            strcmp(e->d_name, "README.md") == 0)
            continue;
        char id[64];
        snprintf(id, sizeof id, "%.*s", (int)(len - 3), e->d_name);
        const ss_rule *rule = ss_rules_find(id);
        if (rule == NULL || strcmp(rule->id, id) != 0) {
            ss_log_warning("'%s/%s' documents no rule of the catalog; delete it", dir, e->d_name);
            stale = 1;
        }
    }
    closedir(d);
    return stale;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: syncscope-gen-docs DIR   (writes DIR/<ID>.md and DIR/README.md "
                        "from the rule catalog)\n");
        return 2;
    }
    size_t n;
    const ss_rule *rules = ss_rules_all(&n);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s.md", rules[i].id);
        rc |= write_page(argv[1], name, &rules[i]);
    }
    rc |= write_page(argv[1], "README.md", NULL);
    return rc != 0 || warn_stale(argv[1]) ? 1 : 0;
}
