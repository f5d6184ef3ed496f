/* recorded.c: the detector settings a run recorded in its trace, as `syncscope analyze` and
 * `syncscope report` take them back, and analyze's options that replace them. */
#include "cli.h"
#include "log.h"
#include "path.h"

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The numeric settings a run records (detect_options.def): the metadata key, the option that
 * replaces it, and the option's unit in the detector's (ns per us, or 1). */
static const struct {
    const char *key;
    ss_opt opt;
    uint64_t unit;
    size_t offset; /* of the uint64_t in ss_detect_options */
} numeric[] = {
#define SS_DETECT_REPLAY(id, long_name, value, metavar, help) SS_OPT_##id
#define SS_DETECT_REPLAY_SHARED(id) SS_OPT_##id
#define SS_DETECT_RECORDED(field, unit, fallback, setting, replay)                                 \
    {#field, replay, unit, offsetof(ss_detect_options, field)},
#include "detect_options.def"
#undef SS_DETECT_REPLAY
#undef SS_DETECT_REPLAY_SHARED
};

/* Where a setting came from, for --verbose. */
static const char *source(int recorded, int given)
{
    if (given)
        return "the command line";
    return recorded ? "recorded in the trace" : "the default";
}

/* A recorded number, or -1 when the key is absent or not a whole number. */
static int recorded_number(const ss_event_log *log, const char *key, uint64_t *out)
{
    const char *text = ss_evlog_get_meta(log, key);
    if (text == NULL || *text < '0' || *text > '9')
        return -1;
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end != '\0' || v == ULLONG_MAX)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

/* 'n' in the option's unit: whole, or with three decimals. */
static void put_amount(char *out, size_t size, uint64_t n, uint64_t unit)
{
    if (n % unit == 0)
        snprintf(out, size, "%llu", (unsigned long long)(n / unit));
    else
        snprintf(out, size, "%.3f", (double)n / (double)unit);
}

/* The thresholds. */
static void take_numbers(ss_cli_detect *d, const ss_event_log *log, const ss_cli_args *args,
                         const char *trace, int verbose)
{
    for (size_t i = 0; i < sizeof numeric / sizeof numeric[0]; i++) {
        uint64_t *field = (uint64_t *)((char *)&d->options + numeric[i].offset);
        uint64_t value = 0;
        int recorded = recorded_number(log, numeric[i].key, &value) == 0;
        if (recorded)
            *field = value;
        const ss_cli_given *given = args ? ss_cli_last(args, numeric[i].opt) : NULL;
        if (given != NULL)
            *field = given->number > UINT64_MAX / numeric[i].unit ? UINT64_MAX
                                                                  : given->number * numeric[i].unit;
        if (!verbose)
            continue;
        char amount[64], was[64];
        put_amount(amount, sizeof amount, *field, numeric[i].unit);
        const char *name = ss_cli_option(numeric[i].opt)->long_name;
        if (given != NULL && recorded) {
            put_amount(was, sizeof was, value, numeric[i].unit);
            ss_log_note("%s: --%s %s (the command line; the trace recorded %s)", trace, name,
                        amount, was);
        } else {
            ss_log_note("%s: --%s %s (%s)", trace, name, amount, source(recorded, given != NULL));
        }
    }
}

/* Appends 'path' to the attribution paths. */
static void add_path(ss_cli_detect *d, char *path)
{
    d->paths = ss_xreallocarray(d->paths, d->path_count + 1, sizeof *d->paths);
    d->paths[d->path_count++] = path;
}

/* --attribute-to paths, absolute against the current folder; a path under the local root of
 * --root FROM=TO is given back under FROM, where the trace's frames are. */
static void take_given_paths(ss_cli_detect *d, const ss_cli_args *args, const ss_cli_root *root)
{
    char cwd[PATH_MAX];
    const char *base = getcwd(cwd, sizeof cwd) ? cwd : NULL;
    for (size_t i = 0; i < args->given_count; i++) {
        if (args->given[i].opt != SS_OPT_ATTRIBUTE_TO)
            continue;
        char *path = ss_path_normalize(base, args->given[i].value);
        if (root != NULL && root->from != NULL) {
            ss_cli_root back = {root->to, root->from};
            char *recorded = ss_cli_root_map(&back, path);
            if (recorded != NULL) {
                free(path);
                path = recorded;
            }
        }
        add_path(d, path);
    }
}

/* The attribution (--attribute-to) and latent notes (--no-latent). */
static void take_attribution(ss_cli_detect *d, const ss_event_log *log, const ss_cli_args *args,
                             const ss_cli_root *root, const char *trace, int verbose)
{
    const char *recorded = ss_evlog_get_meta(log, "attribute_to");
    int given = args && ss_cli_has(args, SS_OPT_ATTRIBUTE_TO);
    if (given) {
        take_given_paths(d, args, root);
    } else if (recorded != NULL) {
        for (const char *p = recorded; *p;) {
            size_t len = strcspn(p, ":");
            if (len > 0)
                add_path(d, ss_xasprintf("%.*s", (int)len, p));
            p += len + (p[len] == ':');
        }
    }
    d->options.user_paths = (const char *const *)d->paths;
    d->options.user_path_count = d->path_count;
    const char *latent = ss_evlog_get_meta(log, "latent");
    int latent_recorded = latent != NULL;
    if (latent != NULL && strcmp(latent, "0") == 0)
        d->options.latent = 0;
    int no_latent = args && ss_cli_has(args, SS_OPT_NO_LATENT);
    if (no_latent)
        d->options.latent = 0;
    if (!verbose)
        return;
    char *paths = ss_xstrdup("");
    for (size_t i = 0; i < d->path_count; i++) {
        char *longer = ss_xasprintf("%s%s%s", paths, i ? ":" : "", d->paths[i]);
        free(paths);
        paths = longer;
    }
    ss_log_note("%s: --attribute-to %s (%s)", trace, d->path_count ? paths : "(none)",
                source(recorded != NULL, given));
    free(paths);
    ss_log_note("%s: latent notes %s (%s)", trace, d->options.latent ? "on" : "off",
                source(latent_recorded, no_latent));
}

/* The scopes (--profile-from-start, --nvtx-range). */
static void take_scopes(ss_cli_detect *d, const ss_event_log *log, const ss_cli_args *args,
                        const char *trace, int verbose)
{
    ss_detect_scope_from_log(&d->options, log);
    const ss_cli_given *from_start = args ? ss_cli_last(args, SS_OPT_PROFILE_FROM_START) : NULL;
    if (from_start != NULL)
        d->options.profile_from_start = from_start->number == 1;
    const char *range = args ? ss_cli_value(args, SS_OPT_NVTX_RANGE) : NULL;
    if (range != NULL)
        d->options.nvtx_range = range[0] != '\0' ? range : NULL;
    if (!verbose)
        return;
    ss_log_note(
        "%s: --profile-from-start %s (%s)", trace, d->options.profile_from_start ? "on" : "off",
        source(ss_evlog_get_meta(log, SS_META_PROFILE_FROM_START) != NULL, from_start != NULL));
    ss_log_note("%s: --nvtx-range %s (%s)", trace,
                d->options.nvtx_range ? d->options.nvtx_range : "'' (any)",
                source(ss_evlog_get_meta(log, SS_META_NVTX_RANGE) != NULL, range != NULL));
}

void ss_cli_detect_init(ss_cli_detect *d, const ss_event_log *log, const ss_cli_args *args,
                        const ss_cli_root *root, const char *trace, int verbose)
{
    memset(d, 0, sizeof *d);
    ss_detect_options_default(&d->options);
    take_numbers(d, log, args, trace, verbose);
    take_attribution(d, log, args, root, trace, verbose);
    take_scopes(d, log, args, trace, verbose);
}

void ss_cli_detect_free(ss_cli_detect *d)
{
    for (size_t i = 0; i < d->path_count; i++)
        free(d->paths[i]);
    free(d->paths);
    memset(d, 0, sizeof *d);
}
