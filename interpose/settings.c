/* settings.c: the interposer's settings from the SYNCSCOPE_* variables of settings.def (one
 * parser per kind, parse_<KIND>), output names, ranks. */
#include "interpose.h"

#include <ctype.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "util.h"

int ss_interpose_parse_uint(const char *text, uint64_t *out)
{
    if (text == NULL || !isdigit((unsigned char)*text))
        return -1;
    uint64_t value = 0;
    for (const char *p = text; *p; p++) {
        if (!isdigit((unsigned char)*p))
            return -1;
        unsigned digit = (unsigned)(*p - '0');
        if (value > (UINT64_MAX - digit) / 10)
            return -1;
        value = value * 10 + digit;
    }
    *out = value;
    return 0;
}

/* A duration of --sample: digits then ms, s or m, into nanoseconds. Returns 0 or -1. */
static int parse_duration(const char *text, size_t len, uint64_t *out)
{
    char digits[16];
    size_t n = 0;
    while (n < len && isdigit((unsigned char)text[n])) {
        if (n + 1 >= sizeof digits)
            return -1;
        digits[n] = text[n];
        n++;
    }
    digits[n] = '\0';
    uint64_t value, unit;
    if (n == 0 || ss_interpose_parse_uint(digits, &value) < 0)
        return -1;
    const char *suffix = text + n;
    size_t rest = len - n;
    if (rest == 2 && strncasecmp(suffix, "ms", 2) == 0)
        unit = 1000000ull;
    else if (rest == 1 && (suffix[0] == 's' || suffix[0] == 'S'))
        unit = 1000000000ull;
    else if (rest == 1 && (suffix[0] == 'm' || suffix[0] == 'M'))
        unit = 60000000000ull;
    else
        return -1;
    if (value > UINT64_MAX / unit)
        return -1;
    *out = value * unit;
    return 0;
}

int ss_interpose_parse_sample(const char *text, uint64_t *on_ns, uint64_t *every_ns)
{
    const char *slash = text != NULL ? strchr(text, '/') : NULL;
    uint64_t on, every;
    if (slash == NULL || parse_duration(text, (size_t)(slash - text), &on) < 0 ||
        parse_duration(slash + 1, strlen(slash + 1), &every) < 0 || on < 1000000ull || on >= every)
        return -1;
    *on_ns = on;
    *every_ns = every;
    return 0;
}

int ss_interpose_parse_size(const char *text, uint64_t *out)
{
    if (text == NULL || !isdigit((unsigned char)*text))
        return -1;
    char digits[32];
    size_t n = 0;
    while (isdigit((unsigned char)text[n])) {
        if (n + 1 >= sizeof digits)
            return -1;
        digits[n] = text[n];
        n++;
    }
    digits[n] = '\0';
    uint64_t value;
    if (ss_interpose_parse_uint(digits, &value) < 0)
        return -1;
    const char *suffix = text + n;
    unsigned shift = 0;
    switch (toupper((unsigned char)*suffix)) {
    case '\0':
        break;
    case 'K':
        shift = 10;
        break;
    case 'M':
        shift = 20;
        break;
    case 'G':
        shift = 30;
        break;
    case 'T':
        shift = 40;
        break;
    case 'B':
        shift = 0;
        if (suffix[1] != '\0')
            return -1;
        break;
    default:
        return -1;
    }
    if (shift > 0) {
        suffix++;
        if (strcasecmp(suffix, "") != 0 && strcasecmp(suffix, "b") != 0 &&
            strcasecmp(suffix, "ib") != 0)
            return -1;
    }
    if (shift > 0 && value > (UINT64_MAX >> shift))
        return -1;
    *out = value << shift;
    return 0;
}

int ss_interpose_rank(void)
{
    static const char *const names[] = SS_RANK_VARIABLES;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        uint64_t rank;
        if (v != NULL && ss_interpose_parse_uint(v, &rank) == 0 && rank <= INT_MAX)
            return (int)rank;
    }
    return -1;
}

/* Appends 'text' at out[*len]; returns -1 when it does not fit with a NUL. */
static int put(char *out, size_t size, size_t *len, const char *text)
{
    size_t n = strlen(text);
    if (*len + n + 1 > size)
        return -1;
    memcpy(out + *len, text, n);
    *len += n;
    out[*len] = '\0';
    return 0;
}

int ss_interpose_expand(const char *pattern, long pid, const char *host, int rank, char *out,
                        size_t size)
{
    if (size == 0)
        return -1;
    size_t len = 0;
    out[0] = '\0';
    for (const char *p = pattern; *p; p++) {
        char piece[32];
        const char *text = piece;
        if (*p != '%' || p[1] == '\0') {
            piece[0] = *p;
            piece[1] = '\0';
        } else {
            p++;
            switch (*p) {
            case 'p':
                snprintf(piece, sizeof piece, "%ld", pid);
                break;
            case 'h':
                text = host != NULL ? host : "";
                break;
            case 'r':
                snprintf(piece, sizeof piece, "%d", rank < 0 ? 0 : rank);
                break;
            case '%':
                memcpy(piece, "%", 2);
                break;
            default:
                piece[0] = '%';
                piece[1] = *p;
                piece[2] = '\0';
                break;
            }
        }
        if (put(out, size, &len, text) < 0)
            return -1;
    }
    return 0;
}

/* ---- the settings of settings.def ---- */

/* Rows of the option column as data. */
#define SS_OPTION_VALUE(long_name, short_name, value)                                              \
    SS_OPTION_FORM_VALUE, long_name, short_name, value
#define SS_OPTION_FLAG(long_name, short_name, value)                                               \
    SS_OPTION_FORM_FLAG, long_name, short_name, value
#define SS_OPTION_LIST(long_name, short_name, value)                                               \
    SS_OPTION_FORM_LIST, long_name, short_name, value
#define SS_OPTION_NONE SS_OPTION_FORM_NONE, NULL, 0, NULL

/* The detectors' defaults as a user writes them, named by their rows (SS_SETTING_DETECTOR
 * names one). */
#define SS_DETECT_OPTION(field, unit, fallback)                                                    \
    static const char detector_default_##field[] = #fallback;
#include "detect_options.def"

static const ss_interpose_setting settings[] = {
#define SS_SETTING(name, field, kind, limit, default_value, option, doc)                           \
    {SS_ENV(name), SS_KIND_##kind, #kind, limit, default_value, option, doc, NULL, NULL, NULL},
#define SS_SETTING_DETECTOR(name, field, kind, detector, option, doc)                              \
    {SS_ENV(name), SS_KIND_##kind,                                                                 \
     #kind,        0,                                                                              \
     "",           option,                                                                         \
     doc,          NULL,                                                                           \
     #detector,    detector_default_##detector},
#include "settings.def"
#define SS_SETTING_ELSEWHERE(name, part, option, doc)                                              \
    {SS_ENV(name), SS_KIND_PATH, "", 0, "", option, doc, part, NULL, NULL},
#include "settings.def"
};

#undef SS_OPTION_VALUE
#undef SS_OPTION_FLAG
#undef SS_OPTION_LIST
#undef SS_OPTION_NONE

const ss_interpose_setting *ss_interpose_settings(size_t *n)
{
    *n = sizeof settings / sizeof settings[0];
    return settings;
}

const char *ss_interpose_setting_default(const ss_interpose_setting *setting)
{
    return setting->detector != NULL ? setting->detector_default : setting->default_value;
}

const ss_interpose_setting *ss_interpose_setting_find(const char *variable)
{
    for (size_t i = 0; variable != NULL && i < sizeof settings / sizeof settings[0]; i++) {
        if (strcmp(settings[i].variable, variable) == 0)
            return &settings[i];
    }
    return NULL;
}

/* Parses 'value' (never empty) for the row 's' into 'field' ('size' bytes of 'config').
 * Returns 0, or -1 with a one-line description in 'err'. */
typedef int (*setting_parser)(const ss_interpose_setting *s, const ss_interpose_config *config,
                              const char *value, void *field, size_t size, char *err,
                              size_t err_size);

/* PATH, LIST, NAME: the text as written. */
static int parse_text(const ss_interpose_setting *s, const ss_interpose_config *config,
                      const char *value, void *field, size_t size, char *err, size_t err_size)
{
    size_t len = strlen(value);
    if (len >= size) {
        snprintf(err, err_size, "%s is too long", s->variable);
        return -1;
    }
    memcpy(field, value, len + 1);
    return 0;
}

#define parse_PATH parse_text
#define parse_LIST parse_text
#define parse_NAME parse_text

/* Whether 'value' is one of the words of a switch: 1 on, 0 off, -1 neither. */
static int switch_word(const char *value)
{
    if (strcmp(value, "0") == 0 || strcasecmp(value, "no") == 0 || strcasecmp(value, "off") == 0)
        return 0;
    if (strcmp(value, "1") == 0 || strcasecmp(value, "yes") == 0 || strcasecmp(value, "on") == 0)
        return 1;
    return -1;
}

static int parse_SWITCH(const ss_interpose_setting *s, const ss_interpose_config *config,
                        const char *value, void *field, size_t size, char *err, size_t err_size)
{
    int on = switch_word(value);
    if (on < 0) {
        snprintf(err, err_size, "%s='%s' is not 0 or 1", s->variable, value);
        return -1;
    }
    *(int *)field = on;
    return 0;
}

/* The row's limit as a size is written: "4M". */
static void size_text(uint64_t bytes, char *out, size_t size)
{
    static const char units[] = "KMGT";
    int unit = -1;
    while (unit < 3 && bytes >= 1024 && bytes % 1024 == 0) {
        bytes /= 1024;
        unit++;
    }
    if (unit < 0)
        snprintf(out, size, "%llu", (unsigned long long)bytes);
    else
        snprintf(out, size, "%llu%c", (unsigned long long)bytes, units[unit]);
}

static int parse_SIZE(const ss_interpose_setting *s, const ss_interpose_config *config,
                      const char *value, void *field, size_t size, char *err, size_t err_size)
{
    uint64_t bytes;
    if (ss_interpose_parse_size(value, &bytes) == 0 && bytes >= s->limit) {
        *(uint64_t *)field = bytes;
        return 0;
    }
    if (s->limit > 0) {
        char least[32];
        size_text(s->limit, least, sizeof least);
        snprintf(err, err_size, "%s='%s' is not a size of at least %s (e.g. 256M, 2G)", s->variable,
                 value, least);
    } else {
        snprintf(err, err_size, "%s='%s' is not a byte count", s->variable, value);
    }
    return -1;
}

static int parse_MICROS(const ss_interpose_setting *s, const ss_interpose_config *config,
                        const char *value, void *field, size_t size, char *err, size_t err_size)
{
    uint64_t us;
    if (ss_interpose_parse_uint(value, &us) < 0 || us > UINT64_MAX / 1000) {
        snprintf(err, err_size, "%s='%s' is not a number of microseconds", s->variable, value);
        return -1;
    }
    *(uint64_t *)field = us * 1000;
    return 0;
}

/* A whole number from 0 to the row's limit; 'what' names it in the message ("a number of
 * frames"). */
static int parse_bounded(const ss_interpose_setting *s, const char *what, const char *value,
                         void *field, char *err, size_t err_size)
{
    uint64_t n;
    if (ss_interpose_parse_uint(value, &n) < 0 || n > s->limit || n > UINT32_MAX) {
        snprintf(err, err_size, "%s='%s' is not %s from 0 to %llu", s->variable, value, what,
                 (unsigned long long)s->limit);
        return -1;
    }
    *(uint32_t *)field = (uint32_t)n;
    return 0;
}

static int parse_MILLIS(const ss_interpose_setting *s, const ss_interpose_config *config,
                        const char *value, void *field, size_t size, char *err, size_t err_size)
{
    return parse_bounded(s, "a number of milliseconds", value, field, err, err_size);
}

static int parse_FRAMES(const ss_interpose_setting *s, const ss_interpose_config *config,
                        const char *value, void *field, size_t size, char *err, size_t err_size)
{
    return parse_bounded(s, "a number of frames", value, field, err, err_size);
}

static int parse_EXIT_STATUS(const ss_interpose_setting *s, const ss_interpose_config *config,
                             const char *value, void *field, size_t size, char *err,
                             size_t err_size)
{
    return parse_bounded(s, "an exit status", value, field, err, err_size);
}

static int parse_SECONDS(const ss_interpose_setting *s, const ss_interpose_config *config,
                         const char *value, void *field, size_t size, char *err, size_t err_size)
{
    return parse_bounded(s, "a number of seconds", value, field, err, err_size);
}

/* ON/EVERY (ss_interpose_parse_sample), kept as written. */
static int parse_SAMPLE(const ss_interpose_setting *s, const ss_interpose_config *config,
                        const char *value, void *field, size_t size, char *err, size_t err_size)
{
    uint64_t on, every;
    if (ss_interpose_parse_sample(value, &on, &every) < 0 || strlen(value) >= size) {
        snprintf(err, err_size,
                 "%s='%s' is not ON/EVERY, two durations with ms, s or m, ON at least 1ms "
                 "and shorter than EVERY (such as 5s/120s)",
                 s->variable, value);
        return -1;
    }
    memcpy(field, value, strlen(value) + 1);
    return 0;
}

/* One of 'words' (NULL-terminated), compared as 'fold' says (1: in any case); the word is
 * kept as the list spells it. A refusal names the near word when 'suggest' is 1 (as the
 * command line does for the same setting). */
static int parse_word(const ss_interpose_setting *s, const char *const *words, int fold,
                      int suggest, const char *value, void *field, size_t size, char *err,
                      size_t err_size)
{
    for (size_t i = 0; words[i] != NULL; i++) {
        if ((fold ? strcasecmp(value, words[i]) : strcmp(value, words[i])) == 0 &&
            strlen(words[i]) < size) {
            memcpy(field, words[i], strlen(words[i]) + 1);
            return 0;
        }
    }
    int n = snprintf(err, err_size, "%s='%s' is not one of ", s->variable, value);
    size_t count = 0;
    for (; words[count] != NULL && n >= 0 && (size_t)n < err_size; count++)
        n += snprintf(err + n, err_size - (size_t)n, "%s%s", count > 0 ? ", " : "", words[count]);
    const char *near = suggest ? ss_suggest(value, words, count) : NULL;
    if (near != NULL && n >= 0 && (size_t)n < err_size)
        snprintf(err + n, err_size - (size_t)n, " (did you mean '%s'?)", near);
    return -1;
}

/* A --fail-on level, in any case (as `syncscope run --fail-on` takes it); kept in lower case. */
static int parse_LEVEL(const ss_interpose_setting *s, const ss_interpose_config *config,
                       const char *value, void *field, size_t size, char *err, size_t err_size)
{
    static const char *const levels[] = {"note", "warning", "error", "none", NULL};
    return parse_word(s, levels, 1, 1, value, field, size, err, err_size);
}

/* What is observed (docs/run.md, "Modes"): full or light, in any case; kept in lower case. */
static int parse_MODE(const ss_interpose_setting *s, const ss_interpose_config *config,
                      const char *value, void *field, size_t size, char *err, size_t err_size)
{
    static const char *const modes[] = {"full", "light", NULL};
    return parse_word(s, modes, 1, 1, value, field, size, err, err_size);
}

/* A measurement aid's probe (docs/studies/performance.md, "Where the light mode's cost is"),
 * in any case; kept in lower case. */
static int parse_PROBE(const ss_interpose_setting *s, const ss_interpose_config *config,
                       const char *value, void *field, size_t size, char *err, size_t err_size)
{
    static const char *const probes[] = {SS_LIGHT_PROBES, NULL};
    return parse_word(s, probes, 1, 1, value, field, size, err, err_size);
}

/* When text is coloured: auto, always or never, in any case (as `syncscope run --color`
 * takes it); kept in lower case. */
static int parse_COLOR(const ss_interpose_setting *s, const ss_interpose_config *config,
                       const char *value, void *field, size_t size, char *err, size_t err_size)
{
    static const char *const whens[] = {"auto", "always", "never", NULL};
    return parse_word(s, whens, 1, 1, value, field, size, err, err_size);
}

/* The formats of report/formats.def that the interposer writes, in any case. */
static int parse_FORMAT(const ss_interpose_setting *s, const ss_interpose_config *config,
                        const char *value, void *field, size_t size, char *err, size_t err_size)
{
    static const char *const formats[] = {
#define SS_FORMAT(enum_name, name, extension, writer, lint, run, analyze, report, doc)             \
    (run) ? (name) : NULL,
#include "formats.def"
    };
    const char *names[sizeof formats / sizeof formats[0] + 1];
    size_t n = 0;
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        if (formats[i] != NULL)
            names[n++] = formats[i];
    }
    names[n] = NULL;
    return parse_word(s, names, 1, 0, value, field, size, err, err_size);
}

/* The symbol cache's folder: 0, no or off: none (""); 1, yes or on: $XDG_CACHE_HOME/syncscope/
 * symbols, else ~/.cache/syncscope/symbols (none without an absolute one); anything else: that
 * folder, relative to the folder the program started in. */
static int parse_CACHE_FOLDER(const ss_interpose_setting *s, const ss_interpose_config *config,
                              const char *value, void *field, size_t size, char *err,
                              size_t err_size)
{
    char *out = field;
    int n = 0;
    out[0] = '\0';
    int on = switch_word(value);
    if (on == 0)
        return 0;
    if (on == 1) {
        const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
        if (xdg != NULL && xdg[0] == '/')
            n = snprintf(out, size, "%s/syncscope/symbols", xdg);
        else if (home != NULL && home[0] == '/')
            n = snprintf(out, size, "%s/.cache/syncscope/symbols", home);
    } else if (value[0] == '/' || config->cwd[0] == '\0') {
        n = snprintf(out, size, "%s", value);
    } else {
        n = snprintf(out, size, "%s/%s", config->cwd, value);
    }
    if (n < 0 || (size_t)n >= size) {
        out[0] = '\0';
        snprintf(err, err_size, "%s is too long", s->variable);
        return -1;
    }
    return 0;
}

/* Where each of the interposer's rows keeps its value, and its parser. */
static const struct {
    setting_parser parse;
    size_t offset, size;
} fields[] = {
#define SS_SETTING(name, field, kind, limit, default_value, option, doc)                           \
    {parse_##kind, offsetof(ss_interpose_config, field), sizeof((ss_interpose_config *)0)->field},
#include "settings.def"
};

int ss_interpose_setting_set(ss_interpose_config *config, const ss_interpose_setting *setting,
                             const char *value, char *err, size_t err_size)
{
    if (setting == NULL || setting->read_by != NULL) {
        snprintf(err, err_size, "%s is not read by the interposer",
                 setting != NULL ? setting->variable : "(null)");
        return -1;
    }
    size_t i = (size_t)(setting - settings); /* the interposer's rows come first */
    if (value == NULL || *value == '\0')
        value = setting->default_value;
    char *field = (char *)config + fields[i].offset;
    if (*value == '\0') {
        memset(field, 0, fields[i].size);
        return 0;
    }
    return fields[i].parse(setting, config, value, field, fields[i].size, err, err_size);
}

int ss_interpose_config_load(ss_interpose_config *config, char *err, size_t err_size)
{
    memset(config, 0, sizeof *config);
    if (getcwd(config->cwd, sizeof config->cwd) == NULL)
        config->cwd[0] = '\0';
    for (size_t i = 0; i < SS_SETTING_COUNT; i++) {
        if (ss_interpose_setting_set(config, &settings[i], getenv(settings[i].variable), err,
                                     err_size) < 0)
            return -1;
    }
    /* A range to scope by is a range to observe. */
    if (config->nvtx_range[0] != '\0')
        config->nvtx = 1;
    config->sync_records = config->trace[0] != '\0' || config->chrome_trace[0] != '\0';
    return 0;
}
