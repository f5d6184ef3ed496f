/* counts.c: what a lint run did with its source files (ss_file_counts), and its words. */
#include "log.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>

/* Each reason: its JSON name, what the files are for the summary line, and the sentence
 * about one file. Listed in the order the summary line names them. */
static const struct {
    ss_skip_reason reason;
    const char *name;
    const char *words;
    const char *sentence;
} reasons[] = {
    {SS_SKIP_INCLUDED, "included", "#included by other sources",
     "not analyzed on its own: another source #includes it"},
    {SS_SKIP_UNLISTED, "unlisted", "not in the compile database",
     "not analyzed: the compile database does not list it"},
    {SS_SKIP_EXCLUDED, "excluded", "excluded", "not analyzed: an exclude pattern matches it"},
    {SS_SKIP_EMPTY, "empty", "empty", "not analyzed: empty file"},
    {SS_SKIP_STOPPED, "stopped", "after the first file with errors (--fail-fast)",
     "not analyzed: the run stopped at an earlier file's parse errors (--fail-fast)"},
};

void ss_file_counts_add_error(ss_file_counts *counts, const char *file)
{
    counts->with_errors = ss_xreallocarray(counts->with_errors, counts->with_errors_count + 1,
                                           sizeof *counts->with_errors);
    if (counts->first_errors) {
        counts->first_errors = ss_xreallocarray(counts->first_errors, counts->with_errors_count + 1,
                                                sizeof *counts->first_errors);
        counts->first_errors[counts->with_errors_count] = NULL;
    }
    counts->with_errors[counts->with_errors_count++] = ss_xstrdup(file);
}

void ss_file_counts_set_first_error(ss_file_counts *counts, const char *first_error)
{
    if (counts->with_errors_count == 0 || first_error == NULL)
        return;
    if (counts->first_errors == NULL)
        counts->first_errors = ss_xcalloc(counts->with_errors_count, sizeof *counts->first_errors);
    size_t last = counts->with_errors_count - 1;
    free(counts->first_errors[last]);
    counts->first_errors[last] = ss_xstrdup(first_error);
}

void ss_file_counts_add_skipped(ss_file_counts *counts, const char *file, ss_skip_reason reason)
{
    counts->not_analyzed = ss_xreallocarray(counts->not_analyzed, counts->not_analyzed_count + 1,
                                            sizeof *counts->not_analyzed);
    ss_skipped_file *skipped = &counts->not_analyzed[counts->not_analyzed_count++];
    skipped->file = ss_xstrdup(file);
    skipped->reason = reason;
}

const char *ss_skip_reason_name(ss_skip_reason reason)
{
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++) {
        if (reasons[i].reason == reason)
            return reasons[i].name;
    }
    return NULL;
}

const char *ss_skip_reason_sentence(ss_skip_reason reason)
{
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++) {
        if (reasons[i].reason == reason)
            return reasons[i].sentence;
    }
    return "not analyzed";
}

int ss_skip_reason_parse(const char *name, ss_skip_reason *out)
{
    for (size_t i = 0; name && i < sizeof reasons / sizeof reasons[0]; i++) {
        if (strcmp(reasons[i].name, name) == 0) {
            *out = reasons[i].reason;
            return 0;
        }
    }
    return -1;
}

int ss_file_counts_notable(const ss_file_counts *counts)
{
    return counts->counted && counts->total > 1 && counts->with_errors_count > 0;
}

char *ss_file_counts_text(const ss_file_counts *counts)
{
    char *text = ss_xasprintf("%zu files, %zu analyzed, %zu with errors", counts->total,
                              counts->analyzed, counts->with_errors_count);
    int first = 1;
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++) {
        size_t n = 0;
        for (size_t k = 0; k < counts->not_analyzed_count; k++)
            n += counts->not_analyzed[k].reason == reasons[i].reason;
        if (n == 0)
            continue;
        char *longer = ss_xasprintf("%s%s%zu %s", text, first ? "; not analyzed: " : ", ", n,
                                    reasons[i].words);
        free(text);
        text = longer;
        first = 0;
    }
    return text;
}
