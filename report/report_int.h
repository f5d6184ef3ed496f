/* report_int.h: helpers shared by the writers inside report/ (not a public header). */
#ifndef SS_REPORT_INT_H
#define SS_REPORT_INT_H

#include <cjson/cJSON.h>

#include "report.h"
#include "util.h"

/* "static" or "runtime" for SS_ORIGIN_*; "unknown" otherwise. */
const char *ss_report_origin_name(int origin);

/* "lint" or "run". */
const char *ss_report_kind_name(ss_result_kind kind);

/* Returns 'item', or aborts through ss_out_of_memory when cJSON could not allocate it (NULL). */
cJSON *ss_report_json_checked(cJSON *item);

/* The JSON form of a finding's evidence and frames (shared by the JSON and SARIF writers).
 * Returns a new cJSON item owned by the caller. */
cJSON *ss_report_json_evidence(const ss_evidence *evidence);
cJSON *ss_report_json_frame(const ss_frame *frame);
/* An object of the finding's extra figures, in their order. */
cJSON *ss_report_json_extra(const ss_finding *finding);

/* The summary's "files" of a lint result (docs/output-formats.md), shared by the JSON and SARIF
 * writers: JSON null when the result did not count its files. Returns a new cJSON item owned
 * by the caller. */
cJSON *ss_report_json_files(const ss_file_counts *counts);

/* Adds 'value' (or JSON null when NULL) under 'name'. Every string of the JSON and SARIF
 * writers enters cJSON here: bytes of 'name' and 'value' that are not UTF-8 become U+FFFD,
 * one per byte (docs/output-formats.md, "Control characters"). */
void ss_report_json_add_string(cJSON *object, const char *name, const char *value);
/* Adds an unsigned integer under 'name', printed exactly. */
void ss_report_json_add_u64(cJSON *object, const char *name, uint64_t value);
/* Adds a signed integer under 'name', printed exactly. */
void ss_report_json_add_i64(cJSON *object, const char *name, long long value);

/* Prints 'root' formatted, followed by a newline, to 'out'. Returns 0, or -1 when
 * printing or writing failed. */
int ss_report_json_print(FILE *out, const cJSON *root);

/* The absolute, lexically normalized folder that relative report paths are taken from:
 * result->root when set (made absolute against the current directory), else the current
 * directory. Returns a malloc'ed string without a trailing slash ("/" for the root). */
char *ss_report_root_dir(const ss_result *result);

/* 'file' relative to 'root_dir' when it lies inside it; otherwise the absolute normalized
 * path, and *inside is set to 0. A backslash is a character of the name, not a separator.
 * Returns a malloc'ed string. */
char *ss_report_relative_path(const char *root_dir, const char *file, int *inside);

/* A rule's help in Markdown for SARIF (summary, explanation, fix), from the catalog.
 * Returns a malloc'ed string. */
char *ss_report_rule_help_markdown(const ss_rule *rule);

#endif
