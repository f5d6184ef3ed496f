/* policy.h: what lint reports: .syncscope.yml configuration, suppression comments, baseline. */
#ifndef SS_POLICY_H
#define SS_POLICY_H

#include <stddef.h>
#include <stdio.h>

#include "report.h"
#include "rules.h"

/* The name of the configuration file searched for upward from each source file. */
#define SS_CONFIG_FILE_NAME ".syncscope.yml"

/* Defaults of the settings that are not per rule. */
#define SS_CONFIG_DEFAULT_READBACK_BYTES 16u
#define SS_CONFIG_MAX_READBACK_BYTES 1048576u
/* The deepest nesting of mappings and sequences a configuration may have (it needs 3). */
#define SS_CONFIG_MAX_DEPTH 64
#define SS_CONFIG_DEFAULT_FAIL_ON SS_FAIL_WARNING

/* The --fail-on / fail-on levels: the ss_severity values, plus "none" (never fail). */
typedef enum ss_fail_on {
    SS_FAIL_NOTE = SS_SEV_NOTE,
    SS_FAIL_WARNING = SS_SEV_WARNING,
    SS_FAIL_ERROR = SS_SEV_ERROR,
    SS_FAIL_NONE = 3
} ss_fail_on;

/* One path exclusion: a glob 'pattern' matched against paths relative to 'base' (an absolute,
 * normalized folder: the configuration file's folder, or the working directory for the
 * command line). A pattern that starts with '/' is matched against the absolute path. */
typedef struct ss_exclude {
    char *pattern;
    char *base;
} ss_exclude;

/* A configuration, or a layer of one (a file, the command line). Every setting has a "set"
 * flag: merging fills only what is not set yet, so the first layer merged wins. An effective
 * configuration (ss_config_for_path) has every flag set. */
typedef struct ss_config {
    unsigned char enabled[SS_RULE_COUNT];
    unsigned char enabled_set[SS_RULE_COUNT];
    ss_severity severity[SS_RULE_COUNT];
    unsigned char severity_set[SS_RULE_COUNT];
    unsigned char severity_default[SS_RULE_COUNT]; /* 1: severity[] is the catalog's default,
                                                    * filled in by ss_config_fill_defaults,
                                                    * not configured */
    unsigned readback_bytes; /* SYNC301: the largest device-to-host copy that is a readback */
    int readback_bytes_set;
    ss_fail_on fail_on;
    int fail_on_set;
    ss_severity min_severity; /* findings below it are left out of the report */
    int min_severity_set;
    char **hot_functions; /* function-name globs the analysis counts as per iteration (owned;
                           * every layer's apply) */
    size_t hot_function_count;
    int inherit; /* also merge the configuration of the folders above (files only) */
    int inherit_set;
    ss_exclude *excludes; /* owned; every layer's excludes apply */
    size_t exclude_count;
    char **sources; /* configuration files merged in, nearest first (owned) */
    size_t source_count;
} ss_config;

/* A cache of the folders already searched for configuration files. Thread-safe. */
typedef struct ss_config_cache ss_config_cache;

/* An empty layer: nothing set, no excludes. */
void ss_config_init(ss_config *config);
/* Frees what 'config' owns and leaves it empty (as ss_config_init). */
void ss_config_free(ss_config *config);
/* Deep copy of 'src' into 'dst' (not initialized beforehand). */
void ss_config_copy(ss_config *dst, const ss_config *src);
/* Merges 'lower' under 'config': every setting not set in 'config' takes the value of
 * 'lower'; excludes and sources are appended. */
void ss_config_merge(ss_config *config, const ss_config *lower);
/* Sets every setting that is still unset to its default (the rule catalog's severity, all
 * rules enabled, readback 16 bytes, fail-on warning, no inheritance). */
void ss_config_fill_defaults(ss_config *config);

/* Parses the YAML text 'text' ('len' bytes) of the configuration file 'path' (used only in
 * messages and as the base folder of its excludes) into 'out' (initialized here). Strict:
 * malformed YAML, unknown keys, duplicate keys and bad values are errors. Returns 0, or -1
 * with "PATH:LINE:COLUMN: message" in 'err' ('err_size' bytes) and 'out' left empty. */
int ss_config_load_string(const char *path, const char *text, size_t len, ss_config *out, char *err,
                          size_t err_size);
/* Reads and parses the configuration file 'path', as ss_config_load_string. An unreadable
 * file is an error "PATH: reason". */
int ss_config_load_file(const char *path, ss_config *out, char *err, size_t err_size);

/* Command-line layer helpers. 'rule_key' is an ID ("SYNC201", any case) or a name
 * ("pageable-async-copy"). Each returns 0, or -1 with a message in 'err'. */
int ss_config_set_enabled(ss_config *config, const char *rule_key, int enabled, char *err,
                          size_t err_size);
int ss_config_set_severity(ss_config *config, const char *rule_key, const char *severity, char *err,
                           size_t err_size);
/* 'text' is "note", "warning", "error" or "none". */
int ss_config_set_fail_on(ss_config *config, const char *text, char *err, size_t err_size);
/* 'text' is a decimal number from 1 to SS_CONFIG_MAX_READBACK_BYTES. */
int ss_config_set_readback_bytes(ss_config *config, const char *text, char *err, size_t err_size);
/* 'text' is "note", "warning" or "error" (any case). */
int ss_config_set_min_severity(ss_config *config, const char *text, char *err, size_t err_size);
/* Adds a hot-functions glob (a function's name, qualified or not). */
void ss_config_add_hot_function(ss_config *config, const char *pattern);
/* Adds an exclusion glob relative to 'base' (NULL: the working directory). Returns 0, or -1
 * when the working directory cannot be read. */
int ss_config_add_exclude(ss_config *config, const char *pattern, const char *base);

/* A new, empty cache; ss_config_cache_free releases it and every configuration it holds. */
ss_config_cache *ss_config_cache_new(void);
void ss_config_cache_free(ss_config_cache *cache);

/* The effective configuration of the source file 'source_path' (need not exist; for an
 * existing folder, that of the files directly in it): the command-line layer
 * 'cli_overrides' (may be NULL), then the nearest .syncscope.yml found upward from the
 * file's folder, then, while the configuration just merged says 'inherit: true', the next
 * one further up, then the defaults. Each folder is searched and
 * each file parsed once per 'cache'. 'effective' is initialized here and owned by the caller
 * (ss_config_free). Returns 0, or -1 with the configuration file's error in 'err'. */
int ss_config_for_path(ss_config_cache *cache, const char *source_path,
                       const ss_config *cli_overrides, ss_config *effective, char *err,
                       size_t err_size);

/* Writes 'config' to 'out' as a .syncscope.yml (every key; excludes as absolute patterns),
 * preceded by comments naming the files it came from; the text loads back into the same
 * configuration. Returns 0, or -1 when writing failed. */
int ss_config_dump(FILE *out, const ss_config *config);

/* Whether 'path' (relative to the working directory, or absolute) is excluded by one of the
 * configuration's globs. Returns 1 or 0. */
int ss_config_excluded(const ss_config *config, const char *path);

/* Whether 'rule' is enabled in 'config' (default: enabled), and its severity (default: the
 * catalog's). */
int ss_config_rule_enabled(const ss_config *config, ss_rule_id rule);
ss_severity ss_config_rule_severity(const ss_config *config, ss_rule_id rule);

/* Names for the fail-on levels, and their parser (case-insensitive). Returns 0 or -1. */
const char *ss_fail_on_name(ss_fail_on level);
int ss_fail_on_parse(const char *text, ss_fail_on *out);

/* Applies 'config' to 'result': removes findings of disabled rules and findings in excluded
 * files, sets the severity of the others to the configured one, and removes those below the
 * configuration's min-severity. Where no layer configured
 * a rule's severity, a lint finding keeps the severity its check gave it (the rule's default,
 * or lower where the check says so). Returns the number of findings removed. */
size_t ss_policy_apply(const ss_config *config, ss_result *result);

/* Whether 'result' holds a finding at or above the fail-on level of 'config' (the CLI then
 * exits 1). Returns 1 or 0. */
int ss_policy_failed(const ss_config *config, const ss_result *result);

/* Glob matching as used for excludes: 'pattern' against the relative path 'path', segment by
 * segment ('/'-separated); a segment '**' matches zero or more whole segments, other segments
 * match as fnmatch(FNM_PATHNAME) matches them in the C locale. The pattern also matches when it
 * matches a leading run of the path's folders (so "build" excludes "build/x.cu"). The time is
 * at most proportional to the pattern's length times the path's, whatever the number of '*'
 * and '**'. Returns 1 or 0. */
int ss_policy_glob_match(const char *pattern, const char *path);

/* The absolute, lexically normalized form of 'path' ("." and ".." and repeated '/' removed;
 * symbolic links are not resolved), relative to 'cwd' (NULL: the working directory).
 * Returns a malloc'ed string, or NULL when the working directory cannot be read. */
char *ss_policy_path_absolute(const char *path, const char *cwd);

/* Lines of one source file that suppression comments cover. */
typedef struct ss_suppress_range {
    ss_rule_id rule;      /* SS_RULE_COUNT: every rule (NOLINT(syncscope-*)) */
    unsigned first, last; /* 1-based, inclusive */
} ss_suppress_range;

typedef struct ss_suppressions {
    unsigned char file_wide[SS_RULE_COUNT]; /* syncscope-ignore-file */
    ss_suppress_range *ranges;
    size_t count, cap;
} ss_suppressions;

/* Scans the text of the source file 'path' ('text', 'len' bytes; need not be NUL-terminated)
 * for suppression comments (docs/suppressions.md lists the forms). Only comments count: text
 * inside string, character and raw string literals is skipped. 'out' is initialized here and
 * freed with ss_suppress_free. Problems in the comments (an unknown rule, a missing list, an
 * unmatched NOLINTBEGIN) are added to 'diags' (may be NULL) as warnings with the file, line
 * and column. Returns the number of such problems. */
int ss_suppress_scan(const char *path, const char *text, size_t len, ss_suppressions *out,
                     ss_result *diags);
/* Reads 'path' and scans it as ss_suppress_scan. Returns the number of problems, or -1 when
 * the file cannot be read (a message in 'err'; 'out' is then empty). */
int ss_suppress_scan_file(const char *path, ss_suppressions *out, ss_result *diags, char *err,
                          size_t err_size);
void ss_suppress_free(ss_suppressions *suppressions);
/* Whether a finding of 'rule' at 'line' is suppressed. Returns 1 or 0. */
int ss_suppress_matches(const ss_suppressions *suppressions, ss_rule_id rule, unsigned line);
/* Removes from 'result' the findings whose file is 'path' (compared as written) and that
 * 'suppressions' cover. Returns the number removed. */
size_t ss_suppress_apply(const ss_suppressions *suppressions, const char *path, ss_result *result);

/* The baseline file (ss_baseline_*) is report.h's: lint and run share it. */

#endif
