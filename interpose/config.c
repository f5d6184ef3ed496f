/* config.c: the interposer's settings from SYNCSCOPE_* variables, output names, ranks. */
#include "interpose.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

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

/* Copies the variable 'name' into 'dst' when set. Returns -1 (with 'err') when too long. */
static int copy_var(const char *name, char *dst, size_t size, char *err, size_t err_size)
{
    const char *v = getenv(name);
    if (v == NULL)
        return 0;
    if (strlen(v) >= size) {
        snprintf(err, err_size, "%s is too long", name);
        return -1;
    }
    memcpy(dst, v, strlen(v) + 1);
    return 0;
}

/* Reads a microsecond threshold 'name' into 'ns'. Returns 0 or -1 (with 'err'). */
static int read_us(const char *name, uint64_t *ns, char *err, size_t err_size)
{
    const char *v = getenv(name);
    if (v == NULL || *v == '\0')
        return 0;
    uint64_t us;
    if (ss_interpose_parse_uint(v, &us) < 0 || us > UINT64_MAX / 1000) {
        snprintf(err, err_size, "%s='%s' is not a number of microseconds", name, v);
        return -1;
    }
    *ns = us * 1000;
    return 0;
}

/* Reads a 0/1 switch 'name' into 'flag'. Returns 0 or -1 (with 'err'). */
static int read_switch(const char *name, int *flag, char *err, size_t err_size)
{
    const char *v = getenv(name);
    if (v == NULL || *v == '\0')
        return 0;
    if (strcmp(v, "0") == 0 || strcasecmp(v, "no") == 0 || strcasecmp(v, "off") == 0) {
        *flag = 0;
    } else if (strcmp(v, "1") == 0 || strcasecmp(v, "yes") == 0 || strcasecmp(v, "on") == 0) {
        *flag = 1;
    } else {
        snprintf(err, err_size, "%s='%s' is not 0 or 1", name, v);
        return -1;
    }
    return 0;
}

/* Reads the gate and scope settings (docs/run.md, "Gates" and "Scopes"). The budget of
 * SYNCSCOPE_FAIL_OVER is checked where it is used (the finisher, `syncscope run`): only its
 * length here. Returns 0 or -1 (with 'err'). */
static int read_gate_and_scope(ss_interpose_config *config, char *err, size_t err_size)
{
    static const char *const levels[] = {"note", "warning", "error", "none"};
    if (copy_var(SS_ENV_FAIL_OVER, config->fail_over, sizeof config->fail_over, err, err_size) <
            0 ||
        copy_var(SS_ENV_GATE_FILE, config->gate_file, sizeof config->gate_file, err, err_size) <
            0 ||
        copy_var(SS_ENV_BASELINE, config->baseline, sizeof config->baseline, err, err_size) < 0 ||
        copy_var(SS_ENV_WRITE_BASELINE, config->write_baseline, sizeof config->write_baseline, err,
                 err_size) < 0 ||
        copy_var(SS_ENV_NVTX_RANGE, config->nvtx_range, sizeof config->nvtx_range, err, err_size) <
            0 ||
        read_switch(SS_ENV_PROFILE_FROM_START, &config->profile_from_start, err, err_size) < 0 ||
        read_switch(SS_ENV_NVTX, &config->nvtx, err, err_size) < 0)
        return -1;
    const char *level = getenv(SS_ENV_FAIL_ON);
    if (level != NULL && *level != '\0') {
        size_t i = 0;
        while (i < sizeof levels / sizeof levels[0] && strcmp(level, levels[i]) != 0)
            i++;
        if (i == sizeof levels / sizeof levels[0]) {
            snprintf(err, err_size, "%s='%s' is not one of note, warning, error, none",
                     SS_ENV_FAIL_ON, level);
            return -1;
        }
        memcpy(config->fail_on, levels[i], strlen(levels[i]) + 1);
    }
    const char *code = getenv(SS_ENV_ERROR_EXITCODE);
    if (code != NULL && *code != '\0') {
        uint64_t value;
        if (ss_interpose_parse_uint(code, &value) < 0 || value > 255) {
            snprintf(err, err_size, "%s='%s' is not an exit status from 0 to 255",
                     SS_ENV_ERROR_EXITCODE, code);
            return -1;
        }
        config->error_exitcode = (uint32_t)value;
    }
    /* A range to scope by is a range to observe. */
    if (config->nvtx_range[0] != '\0')
        config->nvtx = 1;
    return 0;
}

/* Reads SYNCSCOPE_SYMBOL_CACHE into config->symbol_cache: unset, empty, 1, yes or on: the
 * default folder ($XDG_CACHE_HOME/syncscope/symbols, else ~/.cache/syncscope/symbols; none
 * without an absolute one); 0, no or off: none; anything else: that folder, relative to the
 * folder the program started in. Returns 0 or -1 (with 'err'). */
static int read_symbol_cache(ss_interpose_config *config, char *err, size_t err_size)
{
    const char *v = getenv(SS_ENV_SYMBOL_CACHE);
    char *out = config->symbol_cache;
    size_t size = sizeof config->symbol_cache;
    int n = 0;
    out[0] = '\0';
    if (v != NULL && (strcmp(v, "0") == 0 || strcasecmp(v, "no") == 0 || strcasecmp(v, "off") == 0))
        return 0;
    if (v == NULL || v[0] == '\0' || strcmp(v, "1") == 0 || strcasecmp(v, "yes") == 0 ||
        strcasecmp(v, "on") == 0) {
        const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
        if (xdg != NULL && xdg[0] == '/')
            n = snprintf(out, size, "%s/syncscope/symbols", xdg);
        else if (home != NULL && home[0] == '/')
            n = snprintf(out, size, "%s/.cache/syncscope/symbols", home);
    } else if (v[0] == '/' || config->cwd[0] == '\0') {
        n = snprintf(out, size, "%s", v);
    } else {
        n = snprintf(out, size, "%s/%s", config->cwd, v);
    }
    if (n < 0 || (size_t)n >= size) {
        out[0] = '\0';
        snprintf(err, err_size, "%s is too long", SS_ENV_SYMBOL_CACHE);
        return -1;
    }
    return 0;
}

int ss_interpose_config_load(ss_interpose_config *config, char *err, size_t err_size)
{
    static const char *const formats[] = {"json", "sarif", "text", "github", "html", "gitlab"};
    memset(config, 0, sizeof *config);
    memcpy(config->output, SS_DEFAULT_OUTPUT, sizeof SS_DEFAULT_OUTPUT);
    memcpy(config->format, SS_DEFAULT_FORMAT, sizeof SS_DEFAULT_FORMAT);
    config->max_memory = SS_DEFAULT_MAX_MEMORY;
    config->stack_min_ns = (uint64_t)SS_DEFAULT_STACK_MIN_US * 1000;
    config->kernel_activity = 1;
    config->python_depth = SS_DEFAULT_PYTHON_DEPTH;
    config->signal_flush_ms = SS_DEFAULT_SIGNAL_FLUSH_MS;
    config->latent = 1;
    config->profile_from_start = 1;
    config->nvtx = 1;
    if (getcwd(config->cwd, sizeof config->cwd) == NULL)
        config->cwd[0] = '\0';

    if (copy_var(SS_ENV_OUTPUT, config->output, sizeof config->output, err, err_size) < 0 ||
        copy_var(SS_ENV_SARIF, config->sarif, sizeof config->sarif, err, err_size) < 0 ||
        copy_var(SS_ENV_TRACE, config->trace, sizeof config->trace, err, err_size) < 0 ||
        copy_var(SS_ENV_CHROME_TRACE, config->chrome_trace, sizeof config->chrome_trace, err,
                 err_size) < 0 ||
        copy_var(SS_ENV_CUPTI_PATH, config->cupti_path, sizeof config->cupti_path, err, err_size) <
            0 ||
        copy_var(SS_ENV_ATTRIBUTE_TO, config->attribute_to, sizeof config->attribute_to, err,
                 err_size) < 0 ||
        read_gate_and_scope(config, err, err_size) < 0)
        return -1;
    if (config->output[0] == '\0')
        memcpy(config->output, SS_DEFAULT_OUTPUT, sizeof SS_DEFAULT_OUTPUT);

    const char *format = getenv(SS_ENV_FORMAT);
    if (format != NULL && *format != '\0') {
        size_t i = 0;
        while (i < sizeof formats / sizeof formats[0] && strcasecmp(format, formats[i]) != 0)
            i++;
        if (i == sizeof formats / sizeof formats[0]) {
            snprintf(err, err_size, "%s='%s' is not one of json, sarif, text, github, html, gitlab",
                     SS_ENV_FORMAT, format);
            return -1;
        }
        memcpy(config->format, formats[i], strlen(formats[i]) + 1);
    }

    const char *memory = getenv(SS_ENV_MAX_MEMORY);
    if (memory != NULL && *memory != '\0') {
        if (ss_interpose_parse_size(memory, &config->max_memory) < 0 ||
            config->max_memory < SS_MIN_MAX_MEMORY) {
            snprintf(err, err_size, "%s='%s' is not a size of at least 4M (e.g. 256M, 2G)",
                     SS_ENV_MAX_MEMORY, memory);
            return -1;
        }
    }

    const char *readback = getenv(SS_ENV_READBACK_BYTES);
    if (readback != NULL && *readback != '\0' &&
        ss_interpose_parse_size(readback, &config->readback_bytes) < 0) {
        snprintf(err, err_size, "%s='%s' is not a byte count", SS_ENV_READBACK_BYTES, readback);
        return -1;
    }
    if (read_us(SS_ENV_MIN_BLOCKED_US, &config->min_blocked_ns, err, err_size) < 0 ||
        read_us(SS_ENV_SLACK_US, &config->slack_ns, err, err_size) < 0 ||
        read_us(SS_ENV_STACK_MIN_US, &config->stack_min_ns, err, err_size) < 0 ||
        read_switch(SS_ENV_KERNEL_ACTIVITY, &config->kernel_activity, err, err_size) < 0 ||
        read_switch(SS_ENV_QUIET, &config->quiet, err, err_size) < 0 ||
        read_switch(SS_ENV_LATENT, &config->latent, err, err_size) < 0 ||
        read_switch(SS_ENV_TIMING, &config->timing, err, err_size) < 0 ||
        read_symbol_cache(config, err, err_size) < 0)
        return -1;
    const char *python_depth = getenv(SS_ENV_PYTHON_DEPTH);
    if (python_depth != NULL && *python_depth != '\0') {
        uint64_t depth;
        if (ss_interpose_parse_uint(python_depth, &depth) < 0 || depth > SS_MAX_PYTHON_DEPTH) {
            snprintf(err, err_size, "%s='%s' is not a number of frames from 0 to %d",
                     SS_ENV_PYTHON_DEPTH, python_depth, SS_MAX_PYTHON_DEPTH);
            return -1;
        }
        config->python_depth = (uint32_t)depth;
    }
    const char *flush_ms = getenv(SS_ENV_SIGNAL_FLUSH_MS);
    if (flush_ms != NULL && *flush_ms != '\0') {
        uint64_t ms;
        if (ss_interpose_parse_uint(flush_ms, &ms) < 0 || ms > SS_MAX_SIGNAL_FLUSH_MS) {
            snprintf(err, err_size, "%s='%s' is not a number of milliseconds from 0 to %d",
                     SS_ENV_SIGNAL_FLUSH_MS, flush_ms, SS_MAX_SIGNAL_FLUSH_MS);
            return -1;
        }
        config->signal_flush_ms = (uint32_t)ms;
    }
    config->sync_records = config->trace[0] != '\0' || config->chrome_trace[0] != '\0';
    return 0;
}
