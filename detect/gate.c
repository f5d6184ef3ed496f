/* gate.c: the gate of a run (docs/run.md, "Gates"): findings at or above a severity, or host
 * time blocked past a budget, fail it; `syncscope run` and `syncscope analyze` turn that into
 * an exit status. */
#include "detect_int.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define GATE_TAG "syncscope-gate 1 "

void ss_gate_init(ss_gate *gate)
{
    memset(gate, 0, sizeof *gate);
    gate->fail_on = SS_SEV_WARNING;
}

int ss_gate_parse_fail_on(const char *text, ss_gate *gate)
{
    ss_severity level;
    if (text == NULL)
        return -1;
    if (strcmp(text, "none") == 0) {
        gate->fail_on_none = 1;
        return 0;
    }
    if (ss_severity_parse(text, &level) < 0)
        return -1;
    gate->fail_on_none = 0;
    gate->fail_on = level;
    return 0;
}

/* Parses "DIGITS[.DIGITS]" at 'text' with at most 'max_decimals' decimals, as the whole number
 * times 10^'scale' (scale >= max_decimals). Returns the first character after it, or NULL when
 * there is no number, too many decimals, or the value overflows. */
static const char *parse_decimal(const char *text, unsigned max_decimals, unsigned scale,
                                 uint64_t *out)
{
    uint64_t whole = 0, fraction = 0;
    unsigned decimals = 0;
    const char *p = text;
    if (*p < '0' || *p > '9')
        return NULL;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (whole > (UINT64_MAX - 9) / 10)
            return NULL;
        whole = whole * 10 + (uint64_t)(*p - '0');
    }
    if (*p == '.') {
        p++;
        if (*p < '0' || *p > '9')
            return NULL;
        for (; *p >= '0' && *p <= '9'; p++) {
            if (++decimals > max_decimals)
                return NULL;
            fraction = fraction * 10 + (uint64_t)(*p - '0');
        }
    }
    uint64_t unit = 1;
    for (unsigned i = 0; i < scale; i++)
        unit *= 10;
    for (unsigned i = decimals; i < scale; i++)
        fraction *= 10;
    if (whole > (UINT64_MAX - fraction) / unit)
        return NULL;
    *out = whole * unit + fraction;
    return p;
}

int ss_gate_parse_budget(const char *text, ss_gate *gate)
{
    static const struct {
        const char *suffix;
        unsigned scale; /* nanoseconds per unit, as a power of ten */
    } units[] = {{"ns", 0}, {"us", 3}, {"ms", 6}, {"s", 9}};
    uint64_t value;
    if (text == NULL)
        return -1;
    const char *rest = parse_decimal(text, 2, 2, &value);
    if (rest != NULL && strcmp(rest, "%") == 0) {
        if (value > 10000)
            return -1;
        gate->budget_set = 1;
        gate->budget_percent = 1;
        gate->budget = value;
        return 0;
    }
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        rest = parse_decimal(text, units[i].scale, units[i].scale, &value);
        if (rest != NULL && strcmp(rest, units[i].suffix) == 0) {
            gate->budget_set = 1;
            gate->budget_percent = 0;
            gate->budget = value;
            return 0;
        }
    }
    return -1;
}

/* 'bp' hundredths of a percent as "2%" or "0.25%" into 'out'. */
static const char *percent_text(uint64_t bp, char *out, size_t size)
{
    if (bp % 100 == 0)
        snprintf(out, size, "%" PRIu64 "%%", bp / 100);
    else if (bp % 10 == 0)
        snprintf(out, size, "%" PRIu64 ".%" PRIu64 "%%", bp / 100, bp % 100 / 10);
    else
        snprintf(out, size, "%" PRIu64 ".%02" PRIu64 "%%", bp / 100, bp % 100);
    return out;
}

/* 'wall' times 'bp' hundredths of a percent, in nanoseconds, rounded down. */
static uint64_t share_of(uint64_t wall, uint64_t bp)
{
    return wall / 10000 * bp + wall % 10000 * bp / 10000;
}

int ss_gate_check(const ss_gate *gate, const ss_result *result, char *why, size_t why_size)
{
    size_t findings = gate->fail_on_none ? 0 : ss_result_count_at_least(result, gate->fail_on);
    char level[64];
    if (gate->fail_on_none)
        snprintf(level, sizeof level, "findings do not fail it (--fail-on none)");
    else
        snprintf(level, sizeof level, "%zu finding%s at or above %s", findings,
                 findings == 1 ? "" : "s", ss_severity_name(gate->fail_on));
    if (!gate->budget_set) {
        snprintf(why, why_size, "%s", level);
        return findings > 0;
    }
    char blocked[32], budget[32], wall[32], share[32] = "";
    uint64_t budget_ns = gate->budget;
    if (gate->budget_percent) {
        if (result->wall_ns == 0) {
            snprintf(why, why_size,
                     "the run's wall time is unknown, so a budget of %s of it cannot be judged",
                     percent_text(gate->budget, share, sizeof share));
            return -1;
        }
        budget_ns = share_of(result->wall_ns, gate->budget);
        char pct[16];
        snprintf(share, sizeof share, " (%s of %s)", percent_text(gate->budget, pct, sizeof pct),
                 ss_format_duration(result->wall_ns, wall, sizeof wall));
    }
    int over = result->blocked_ns > budget_ns;
    snprintf(why, why_size, "%s; %s blocked, %s the budget of %s%s", level,
             ss_format_duration(result->blocked_ns, blocked, sizeof blocked),
             over ? "over" : "within", ss_format_duration(budget_ns, budget, sizeof budget), share);
    return findings > 0 || over;
}

int ss_gate_record(const char *path, long pid, int failed, const char *why)
{
    char line[1024];
    int n = snprintf(line, sizeof line, GATE_TAG "%ld %d %s", pid, failed ? 1 : 0, why);
    if (n < 0)
        return -1;
    size_t len = (size_t)n < sizeof line - 1 ? (size_t)n : sizeof line - 2;
    /* One line, whatever 'why' holds. */
    for (size_t i = 0; i < len; i++) {
        if (line[i] == '\n' || line[i] == '\r')
            line[i] = ' ';
    }
    line[len++] = '\n';
    int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return -1;
    /* O_APPEND and one write: the lines of processes that end together do not interleave. */
    ssize_t written = write(fd, line, len);
    int saved = errno;
    close(fd);
    errno = saved;
    return written == (ssize_t)len ? 0 : -1;
}

int ss_gate_parse_record(const char *line, long *pid, const char **why)
{
    size_t tag = sizeof GATE_TAG - 1;
    if (strncmp(line, GATE_TAG, tag) != 0)
        return -1;
    const char *p = line + tag;
    long value = 0;
    if (*p < '0' || *p > '9')
        return -1;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (value > (LONG_MAX - 9) / 10)
            return -1;
        value = value * 10 + (*p - '0');
    }
    if (p[0] != ' ' || (p[1] != '0' && p[1] != '1') || (p[2] != ' ' && p[2] != '\0'))
        return -1;
    *pid = value;
    *why = p[2] == ' ' ? p + 3 : p + 2;
    return p[1] == '1';
}
