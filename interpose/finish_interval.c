/* finish_interval.c: interval lines (docs/run.md, "Interval lines"): the findings of the
 * capture so far as one JSON object per line, appended to the interval file while the program
 * runs and once at its end. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "finish_int.h"
#include "interpose.h"
#include "log.h"
#include "rules.h"

/* Adds 'value' to 'o' as a JSON integer, exact (cJSON's numbers are doubles: a nanosecond
 * time since 1970 would lose its last digits). */
static void add_integer(cJSON *o, const char *key, uint64_t value)
{
    char text[24];
    snprintf(text, sizeof text, "%llu", (unsigned long long)value);
    cJSON_AddRawToObject(o, key, text);
}

/* Finding 'f' as an object of an interval line's "findings"; NULL when out of memory. */
static cJSON *interval_finding(const ss_finding *f)
{
    cJSON *item = cJSON_CreateObject();
    if (item == NULL)
        return NULL;
    cJSON_AddStringToObject(item, "rule", ss_rules_get(f->rule)->id);
    if (f->file != NULL)
        cJSON_AddStringToObject(item, "file", f->file);
    else
        cJSON_AddNullToObject(item, "file");
    add_integer(item, "line", f->line);
    if (f->function != NULL)
        cJSON_AddStringToObject(item, "function", f->function);
    if (f->evidence.api != NULL)
        cJSON_AddStringToObject(item, "api", f->evidence.api);
    add_integer(item, "count", f->evidence.count);
    add_integer(item, "blocked_ns", f->evidence.total_ns);
    cJSON_AddBoolToObject(item, "latent", f->latent);
    return item;
}

/* The interval line of 'result': one JSON object, no newline inside; malloc'ed, NULL when out
 * of memory. */
static char *interval_line(const ss_capture_view *v, const char *host, const ss_result *result,
                           int final)
{
    cJSON *o = cJSON_CreateObject();
    if (o == NULL)
        return NULL;
    int rank = ss_interpose_rank();
    cJSON_AddStringToObject(o, "syncscope", "interval");
    add_integer(o, "pid", (uint64_t)v->pid);
    if (rank >= 0)
        add_integer(o, "rank", (uint64_t)rank);
    else
        cJSON_AddNullToObject(o, "rank");
    cJSON_AddStringToObject(o, "host", host);
    cJSON_AddStringToObject(o, "mode", v->mode != NULL ? v->mode : "full");
    cJSON_AddBoolToObject(o, "final", final);
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    add_integer(o, "time_ns", (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec);
    add_integer(o, "elapsed_ns", v->end_ns > v->start_ns ? v->end_ns - v->start_ns : 0);
    add_integer(o, "blocked_ns", result->blocked_ns);
    add_integer(o, "dropped", result->dropped);
    cJSON *list = cJSON_AddArrayToObject(o, "findings");
    for (size_t i = 0; list != NULL && i < result->count; i++) {
        cJSON *item = interval_finding(&result->findings[i]);
        if (item == NULL)
            break;
        cJSON_AddItemToArray(list, item);
    }
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return text;
}

/* Appends 'result' as one line to the interval file, with one write(2) on an O_APPEND file,
 * so that readers (and other processes appending to a shared file) never see half a line.
 * Returns 0, or -1 with a message printed once per process. */
int fin_append_interval(const ss_capture_view *v, const char *host, const ss_result *result,
                        int final)
{
    static int said;
    char path[PATH_MAX];
    if (fin_output_path(v, v->config->interval_file, host, path, sizeof path) < 0)
        return -1;
    char *text = interval_line(v, host, result, final);
    int fd = text != NULL ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : -1;
    int rc = -1;
    if (fd >= 0) {
        size_t len = strlen(text);
        text[len] = '\n'; /* the line's end replaces the NUL, written with it */
        rc = write(fd, text, len + 1) == (ssize_t)(len + 1) ? 0 : -1;
        text[len] = '\0';
        close(fd);
    }
    if (rc < 0 && !said) {
        said = 1;
        ss_log_error("cannot append to the interval file %s: %s", path,
                     text == NULL ? "out of memory" : strerror(errno));
    }
    cJSON_free(text);
    return rc;
}
