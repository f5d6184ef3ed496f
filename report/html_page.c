/* html_page.c: the HTML report's page model: each finding with its normalized path, its
 * source excerpt and its call site, and the join of lint and run findings on the same site. */
#include "html_page.h"
#include "log.h"
#include "path.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The source_index value of a file whose excerpt is refused (outside the root, not regular). */
static const size_t SOURCE_REFUSED = SIZE_MAX - 1;

void ss_html_strmap_put(ss_strmap *m, const char *key, size_t value)
{
    if (ss_strmap_put(m, key, value) < 0)
        ss_out_of_memory();
}

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

bool ss_html_component_suffix(const char *longer, const char *shorter)
{
    size_t nl = strlen(longer), ns = strlen(shorter);
    if (ns == 0 || ns > nl)
        return false;
    if (strcmp(longer + nl - ns, shorter) != 0)
        return false;
    return ns == nl || longer[nl - ns - 1] == '/' || shorter[0] == '/';
}

static size_t page_add_site(page *pg, int group)
{
    ss_xgrow((void **)&pg->sites, &pg->site_cap, pg->site_count + 1, sizeof *pg->sites);
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
        ss_html_strmap_put(&pg->source_index, pf->resolved, SOURCE_REFUSED);
        return SOURCE_REFUSED;
    }
    ss_xgrow((void **)&pg->sources, &pg->source_cap, pg->source_count + 1, sizeof *pg->sources);
    size_t src = pg->source_count++;
    page_source *ps = &pg->sources[src];
    memset(ps, 0, sizeof *ps);
    ps->path = ss_xstrdup(pf->key);
    ps->resolved = readable;
    ss_html_strmap_put(&pg->source_index, pf->resolved, src);
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
    ss_xgrow((void **)&ps->lines, &ps->line_cap, ps->line_count + 1, sizeof *ps->lines);
    ps->lines[ps->line_count++] = pf->f->line;
    pf->source = (long)src;
}

void ss_html_page_collect_findings(page *pg)
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
    ss_html_strmap_put(exact, key, site);
    char *bkey = site_key(pf, ss_path_base_name(pf->key));
    pg->sites[site].next_candidate = ss_strmap_get(by_base, bkey);
    ss_html_strmap_put(by_base, bkey, site);
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
        if (ss_html_component_suffix(pf->key, lf->key)) {
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
        ss_html_strmap_put(exact, rkey, site);
    }
    free(rkey);
    return site;
}

void ss_html_page_join(page *pg)
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

void ss_html_page_init(page *pg, const ss_result *const *results, size_t n,
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

void ss_html_page_free(page *pg)
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
