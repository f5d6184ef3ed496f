/* lint_config.c: .syncscope.yml parsing (strict, with positions), layering, lookup and dumping. */
#include "files.h"
#include "log.h"
#include "policy_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <yaml.h>

void ss_config_init(ss_config *config)
{
    memset(config, 0, sizeof *config);
}

void ss_config_free(ss_config *config)
{
    for (size_t i = 0; i < config->exclude_count; i++) {
        free(config->excludes[i].pattern);
        free(config->excludes[i].base);
    }
    free(config->excludes);
    for (size_t i = 0; i < config->source_count; i++)
        free(config->sources[i]);
    free(config->sources);
    for (size_t i = 0; i < config->hot_function_count; i++)
        free(config->hot_functions[i]);
    free(config->hot_functions);
    ss_config_init(config);
}

void ss_config_add_hot_function(ss_config *config, const char *pattern)
{
    for (size_t i = 0; i < config->hot_function_count; i++) {
        if (strcmp(config->hot_functions[i], pattern) == 0)
            return;
    }
    config->hot_functions = ss_xreallocarray(config->hot_functions, config->hot_function_count + 1,
                                             sizeof *config->hot_functions);
    config->hot_functions[config->hot_function_count++] = ss_xstrdup(pattern);
}

/* Appends an exclude (both strings copied). */
static void push_exclude(ss_config *config, const char *pattern, const char *base)
{
    config->excludes =
        ss_xreallocarray(config->excludes, config->exclude_count + 1, sizeof *config->excludes);
    config->excludes[config->exclude_count].pattern = ss_xstrdup(pattern);
    config->excludes[config->exclude_count].base = ss_xstrdup(base);
    config->exclude_count++;
}

static void push_source(ss_config *config, const char *source)
{
    config->sources =
        ss_xreallocarray(config->sources, config->source_count + 1, sizeof *config->sources);
    config->sources[config->source_count++] = ss_xstrdup(source);
}

void ss_config_merge(ss_config *config, const ss_config *lower)
{
    for (int r = 0; r < SS_RULE_COUNT; r++) {
        if (!config->enabled_set[r] && lower->enabled_set[r]) {
            config->enabled[r] = lower->enabled[r];
            config->enabled_set[r] = 1;
        }
        if (!config->severity_set[r] && lower->severity_set[r]) {
            config->severity[r] = lower->severity[r];
            config->severity_set[r] = 1;
            config->severity_default[r] = lower->severity_default[r];
        }
    }
    if (!config->readback_bytes_set && lower->readback_bytes_set) {
        config->readback_bytes = lower->readback_bytes;
        config->readback_bytes_set = 1;
    }
    if (!config->fail_on_set && lower->fail_on_set) {
        config->fail_on = lower->fail_on;
        config->fail_on_set = 1;
    }
    if (!config->min_severity_set && lower->min_severity_set) {
        config->min_severity = lower->min_severity;
        config->min_severity_set = 1;
    }
    for (size_t i = 0; i < lower->hot_function_count; i++)
        ss_config_add_hot_function(config, lower->hot_functions[i]);
    if (!config->inherit_set && lower->inherit_set) {
        config->inherit = lower->inherit;
        config->inherit_set = 1;
    }
    for (size_t i = 0; i < lower->exclude_count; i++)
        push_exclude(config, lower->excludes[i].pattern, lower->excludes[i].base);
    for (size_t i = 0; i < lower->source_count; i++)
        push_source(config, lower->sources[i]);
}

void ss_config_copy(ss_config *dst, const ss_config *src)
{
    ss_config_init(dst);
    ss_config_merge(dst, src);
}

void ss_config_fill_defaults(ss_config *config)
{
    for (int r = 0; r < SS_RULE_COUNT; r++) {
        if (!config->enabled_set[r]) {
            config->enabled[r] = 1;
            config->enabled_set[r] = 1;
        }
        if (!config->severity_set[r]) {
            config->severity[r] = ss_rules_get((ss_rule_id)r)->severity;
            config->severity_set[r] = 1;
            config->severity_default[r] = 1;
        }
    }
    if (!config->readback_bytes_set) {
        config->readback_bytes = SS_CONFIG_DEFAULT_READBACK_BYTES;
        config->readback_bytes_set = 1;
    }
    if (!config->fail_on_set) {
        config->fail_on = SS_CONFIG_DEFAULT_FAIL_ON;
        config->fail_on_set = 1;
    }
    if (!config->min_severity_set) {
        config->min_severity = SS_SEV_NOTE;
        config->min_severity_set = 1;
    }
    if (!config->inherit_set) {
        config->inherit = 0;
        config->inherit_set = 1;
    }
}

int ss_config_rule_enabled(const ss_config *config, ss_rule_id rule)
{
    return config->enabled_set[rule] ? config->enabled[rule] : 1;
}

ss_severity ss_config_rule_severity(const ss_config *config, ss_rule_id rule)
{
    return config->severity_set[rule] ? config->severity[rule] : ss_rules_get(rule)->severity;
}

const char *ss_fail_on_name(ss_fail_on level)
{
    return level == SS_FAIL_NONE ? "none" : ss_severity_name((ss_severity)level);
}

int ss_fail_on_parse(const char *text, ss_fail_on *out)
{
    ss_severity severity;
    if (text == NULL)
        return -1;
    if (strcasecmp(text, "none") == 0) {
        *out = SS_FAIL_NONE;
        return 0;
    }
    if (ss_severity_parse(text, &severity) != 0)
        return -1;
    *out = (ss_fail_on)severity;
    return 0;
}

/* Parses a YAML boolean: true/false, yes/no, on/off (any case). Returns 0 or -1. */
static int parse_bool(const char *text, int *out)
{
    static const char *const truths[] = {"true", "yes", "on"};
    static const char *const lies[] = {"false", "no", "off"};
    for (size_t i = 0; i < 3; i++) {
        if (strcasecmp(text, truths[i]) == 0) {
            *out = 1;
            return 0;
        }
        if (strcasecmp(text, lies[i]) == 0) {
            *out = 0;
            return 0;
        }
    }
    return -1;
}

/* Parses a decimal readback limit. Returns 0 or -1. */
static int parse_readback(const char *text, unsigned *out)
{
    if (text[0] < '0' || text[0] > '9')
        return -1;
    uint64_t value = 0;
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        value = value * 10 + (uint64_t)(*p - '0');
        if (value > SS_CONFIG_MAX_READBACK_BYTES)
            return -1;
    }
    if (value == 0)
        return -1;
    *out = (unsigned)value;
    return 0;
}

const char *ss_policy_rule_hint(const char *key, char *out, size_t size)
{
    size_t n;
    const char *const *keys = ss_rules_keys(&n);
    const char *near = key ? ss_suggest(key, keys, n) : NULL;
    if (near)
        snprintf(out, size, " (did you mean '%s'?)", near);
    else
        snprintf(out, size, " (syncscope rules lists them)");
    return out;
}

const char *ss_policy_word_hint(const char *text, const char *const *words, size_t count, char *out,
                                size_t size)
{
    const char *near = text ? ss_suggest(text, words, count) : NULL;
    if (near)
        snprintf(out, size, "; did you mean '%s'?", near);
    else if (size > 0)
        out[0] = '\0';
    return out;
}

/* The words of each kind of value, for the hints. */
static const char *const severity_words[] = {"note", "warning", "error"};
static const char *const fail_on_words[] = {"note", "warning", "error", "none"};
static const char *const bool_words[] = {"true", "false", "yes", "no", "on", "off"};
static const char *const rule_value_words[] = {"note", "warning", "error", "true", "false",
                                               "yes",  "no",      "on",    "off"};
#define WORDS(list) (list), (sizeof(list) / sizeof(list)[0])

int ss_config_set_enabled(ss_config *config, const char *rule_key, int enabled, char *err,
                          size_t err_size)
{
    const ss_rule *rule = ss_rules_find(rule_key);
    char hint[SS_POLICY_HINT_SIZE];
    if (rule == NULL) {
        ss_set_error(err, err_size, "unknown rule '%s'%s", rule_key ? rule_key : "",
                     ss_policy_rule_hint(rule_key, hint, sizeof hint));
        return -1;
    }
    config->enabled[rule->rule] = enabled != 0;
    config->enabled_set[rule->rule] = 1;
    return 0;
}

int ss_config_set_severity(ss_config *config, const char *rule_key, const char *severity, char *err,
                           size_t err_size)
{
    const ss_rule *rule = ss_rules_find(rule_key);
    ss_severity value;
    char hint[SS_POLICY_HINT_SIZE];
    if (rule == NULL) {
        ss_set_error(err, err_size, "unknown rule '%s'%s", rule_key ? rule_key : "",
                     ss_policy_rule_hint(rule_key, hint, sizeof hint));
        return -1;
    }
    if (severity == NULL || ss_severity_parse(severity, &value) != 0) {
        ss_set_error(err, err_size, "severity must be note, warning or error (got '%s'%s)",
                     severity ? severity : "",
                     ss_policy_word_hint(severity, WORDS(severity_words), hint, sizeof hint));
        return -1;
    }
    config->severity[rule->rule] = value;
    config->severity_set[rule->rule] = 1;
    return 0;
}

int ss_config_set_fail_on(ss_config *config, const char *text, char *err, size_t err_size)
{
    char hint[SS_POLICY_HINT_SIZE];
    if (ss_fail_on_parse(text, &config->fail_on) != 0) {
        ss_set_error(err, err_size, "fail-on must be note, warning, error or none (got '%s'%s)",
                     text ? text : "",
                     ss_policy_word_hint(text, WORDS(fail_on_words), hint, sizeof hint));
        return -1;
    }
    config->fail_on_set = 1;
    return 0;
}

int ss_config_set_min_severity(ss_config *config, const char *text, char *err, size_t err_size)
{
    char hint[SS_POLICY_HINT_SIZE];
    if (text == NULL || ss_severity_parse(text, &config->min_severity) != 0) {
        ss_set_error(err, err_size, "min-severity must be note, warning or error (got '%s'%s)",
                     text ? text : "",
                     ss_policy_word_hint(text, WORDS(severity_words), hint, sizeof hint));
        return -1;
    }
    config->min_severity_set = 1;
    return 0;
}

int ss_config_set_readback_bytes(ss_config *config, const char *text, char *err, size_t err_size)
{
    if (text == NULL || parse_readback(text, &config->readback_bytes) != 0) {
        ss_set_error(err, err_size, "readback-bytes must be an integer from 1 to %u (got '%s')",
                     SS_CONFIG_MAX_READBACK_BYTES, text ? text : "");
        return -1;
    }
    config->readback_bytes_set = 1;
    return 0;
}

int ss_config_add_exclude(ss_config *config, const char *pattern, const char *base)
{
    char *abs_base = ss_policy_path_absolute(base ? base : ".", NULL);
    if (abs_base == NULL)
        return -1;
    push_exclude(config, pattern, abs_base);
    free(abs_base);
    return 0;
}

/* The YAML loader: walks the document tree, checking every key and value. */
typedef struct loader {
    const char *path;
    yaml_document_t *doc;
    ss_config *out;
    char *base;
    char *err;
    size_t err_size;
} loader;

static int fail_at(loader *ld, const yaml_node_t *node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Writes "PATH:LINE:COLUMN: message" for 'node' into the loader's error. Returns -1. */
static int fail_at(loader *ld, const yaml_node_t *node, const char *fmt, ...)
{
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    ss_set_error(ld->err, ld->err_size, "%s:%zu:%zu: %s", ld->path, node->start_mark.line + 1,
                 node->start_mark.column + 1, message);
    return -1;
}

static const char *scalar(const yaml_node_t *node)
{
    return node->type == YAML_SCALAR_NODE ? (const char *)node->data.scalar.value : NULL;
}

static int load_severity(loader *ld, const yaml_node_t *node, ss_rule_id rule)
{
    const char *text = scalar(node);
    ss_severity value;
    char hint[SS_POLICY_HINT_SIZE];
    if (text == NULL || ss_severity_parse(text, &value) != 0)
        return fail_at(ld, node, "'severity' must be note, warning or error (got '%s'%s)",
                       text ? text : "a collection",
                       ss_policy_word_hint(text, WORDS(severity_words), hint, sizeof hint));
    ld->out->severity[rule] = value;
    ld->out->severity_set[rule] = 1;
    return 0;
}

static int load_enabled(loader *ld, const yaml_node_t *node, ss_rule_id rule)
{
    const char *text = scalar(node);
    int value;
    char hint[SS_POLICY_HINT_SIZE];
    if (text == NULL || parse_bool(text, &value) != 0)
        return fail_at(ld, node, "'enabled' must be true or false (got '%s'%s)",
                       text ? text : "a collection",
                       ss_policy_word_hint(text, WORDS(bool_words), hint, sizeof hint));
    ld->out->enabled[rule] = (unsigned char)value;
    ld->out->enabled_set[rule] = 1;
    return 0;
}

/* One entry of 'rules': "RULE: off", "RULE: error" or "RULE: {enabled: .., severity: ..}". */
static int load_rule(loader *ld, const yaml_node_t *value, ss_rule_id rule, const char *key)
{
    const char *text = scalar(value);
    int enabled;
    ss_severity severity;
    char hint[SS_POLICY_HINT_SIZE];
    if (text) {
        if (parse_bool(text, &enabled) == 0) {
            ld->out->enabled[rule] = (unsigned char)enabled;
            ld->out->enabled_set[rule] = 1;
            return 0;
        }
        if (ss_severity_parse(text, &severity) == 0) {
            ld->out->enabled[rule] = 1;
            ld->out->enabled_set[rule] = 1;
            ld->out->severity[rule] = severity;
            ld->out->severity_set[rule] = 1;
            return 0;
        }
        return fail_at(ld, value,
                       "rule '%s' must be true, false, a severity (note, warning, error) or a "
                       "mapping with 'enabled' and 'severity' (got '%s'%s)",
                       key, text,
                       ss_policy_word_hint(text, WORDS(rule_value_words), hint, sizeof hint));
    }
    if (value->type != YAML_MAPPING_NODE)
        return fail_at(ld, value, "rule '%s' must be true, false, a severity or a mapping", key);
    int seen_enabled = 0, seen_severity = 0;
    for (yaml_node_pair_t *pair = value->data.mapping.pairs.start;
         pair < value->data.mapping.pairs.top; pair++) {
        yaml_node_t *k = yaml_document_get_node(ld->doc, pair->key);
        yaml_node_t *v = yaml_document_get_node(ld->doc, pair->value);
        const char *name = scalar(k);
        if (name && strcmp(name, "enabled") == 0) {
            if (seen_enabled++)
                return fail_at(ld, k, "duplicate key 'enabled' in rule '%s'", key);
            if (load_enabled(ld, v, rule) != 0)
                return -1;
        } else if (name && strcmp(name, "severity") == 0) {
            if (seen_severity++)
                return fail_at(ld, k, "duplicate key 'severity' in rule '%s'", key);
            if (load_severity(ld, v, rule) != 0)
                return -1;
        } else {
            static const char *const rule_keys[] = {"enabled", "severity"};
            const char *near = name ? ss_suggest(name, WORDS(rule_keys)) : NULL;
            if (near)
                return fail_at(ld, k, "unknown key '%s' in rule '%s' (did you mean '%s'?)", name,
                               key, near);
            return fail_at(ld, k, "unknown key '%s' in rule '%s' (expected enabled, severity)",
                           name ? name : "(collection)", key);
        }
    }
    return 0;
}

static int load_rules(loader *ld, const yaml_node_t *node)
{
    const yaml_node_t *seen[SS_RULE_COUNT] = {0};
    if (node->type == YAML_SCALAR_NODE && node->data.scalar.length == 0)
        return 0; /* "rules:" with nothing under it */
    if (node->type != YAML_MAPPING_NODE)
        return fail_at(ld, node, "'rules' must be a mapping of rule IDs or names to settings");
    for (yaml_node_pair_t *pair = node->data.mapping.pairs.start;
         pair < node->data.mapping.pairs.top; pair++) {
        yaml_node_t *k = yaml_document_get_node(ld->doc, pair->key);
        yaml_node_t *v = yaml_document_get_node(ld->doc, pair->value);
        const char *key = scalar(k);
        const ss_rule *rule = key ? ss_rules_find(key) : NULL;
        char hint[SS_POLICY_HINT_SIZE];
        if (rule == NULL)
            return fail_at(ld, k, "unknown rule '%s' in 'rules'%s", key ? key : "(collection)",
                           ss_policy_rule_hint(key, hint, sizeof hint));
        if (seen[rule->rule])
            return fail_at(ld, k, "rule '%s' is configured twice (first at line %zu)", key,
                           seen[rule->rule]->start_mark.line + 1);
        seen[rule->rule] = k;
        if (load_rule(ld, v, rule->rule, key) != 0)
            return -1;
    }
    return 0;
}

static void push_exclude_entry(loader *ld, const char *pattern)
{
    push_exclude(ld->out, pattern, ld->base);
}

static void push_hot_function(loader *ld, const char *pattern)
{
    ss_config_add_hot_function(ld->out, pattern);
}

/* A list of non-empty strings under 'key' (an empty value is an empty list), each handed to
 * 'push'; 'what' names the entries in messages. Returns 0 or -1. */
static int load_list(loader *ld, const yaml_node_t *node, const char *key, const char *what,
                     void (*push)(loader *, const char *))
{
    if (node->type == YAML_SCALAR_NODE && node->data.scalar.length == 0)
        return 0;
    if (node->type != YAML_SEQUENCE_NODE)
        return fail_at(ld, node, "'%s' must be a list of %s", key, what);
    for (yaml_node_item_t *item = node->data.sequence.items.start;
         item < node->data.sequence.items.top; item++) {
        yaml_node_t *v = yaml_document_get_node(ld->doc, *item);
        const char *pattern = scalar(v);
        if (pattern == NULL || pattern[0] == '\0')
            return fail_at(ld, v, "'%s' entries must be non-empty %s", key, what);
        push(ld, pattern);
    }
    return 0;
}

static const char *const top_keys[] = {"inherit", "fail-on",      "readback-bytes", "exclude",
                                       "rules",   "min-severity", "hot-functions"};

#define TOP_KEY_COUNT (sizeof top_keys / sizeof top_keys[0])

/* The top-level key 'k': its index in top_keys into *which, once ('seen': where each key was
 * met first). Returns 0, or -1 (message set) for an unknown or repeated key. */
static int top_key(loader *ld, const yaml_node_t *k, const yaml_node_t **seen, size_t *which)
{
    const char *key = scalar(k);
    *which = TOP_KEY_COUNT;
    for (size_t i = 0; key && i < TOP_KEY_COUNT; i++) {
        if (strcmp(key, top_keys[i]) == 0)
            *which = i;
    }
    const char *near = *which == TOP_KEY_COUNT && key ? ss_suggest(key, WORDS(top_keys)) : NULL;
    if (near)
        return fail_at(ld, k, "unknown key '%s' (did you mean '%s'?)", key, near);
    if (*which == TOP_KEY_COUNT)
        return fail_at(ld, k,
                       "unknown key '%s' (expected inherit, fail-on, readback-bytes, "
                       "exclude, rules, min-severity, hot-functions)",
                       key ? key : "(collection)");
    if (seen[*which])
        return fail_at(ld, k, "duplicate key '%s' (first at line %zu)", key,
                       seen[*which]->start_mark.line + 1);
    seen[*which] = k;
    return 0;
}

/* The value 'v' of the top-level key top_keys['which'] into the configuration. Returns 0, or
 * -1 (message set) when it is not what the key takes. */
static int load_top_value(loader *ld, size_t which, const yaml_node_t *v)
{
    const char *text = scalar(v);
    char hint[SS_POLICY_HINT_SIZE];
    int rc = 0;
    switch (which) {
    case 0:
        if (text == NULL || parse_bool(text, &ld->out->inherit) != 0)
            rc = fail_at(ld, v, "'inherit' must be true or false (got '%s'%s)",
                         text ? text : "a collection",
                         ss_policy_word_hint(text, WORDS(bool_words), hint, sizeof hint));
        ld->out->inherit_set = 1;
        break;
    case 1:
        if (text == NULL || ss_fail_on_parse(text, &ld->out->fail_on) != 0)
            rc = fail_at(ld, v, "'fail-on' must be note, warning, error or none (got '%s'%s)",
                         text ? text : "a collection",
                         ss_policy_word_hint(text, WORDS(fail_on_words), hint, sizeof hint));
        ld->out->fail_on_set = 1;
        break;
    case 2:
        if (text == NULL || parse_readback(text, &ld->out->readback_bytes) != 0)
            rc = fail_at(ld, v, "'readback-bytes' must be an integer from 1 to %u (got '%s')",
                         SS_CONFIG_MAX_READBACK_BYTES, text ? text : "a collection");
        ld->out->readback_bytes_set = 1;
        break;
    case 3:
        rc = load_list(ld, v, "exclude", "glob patterns", push_exclude_entry);
        break;
    case 5:
        if (text == NULL || ss_severity_parse(text, &ld->out->min_severity) != 0)
            rc = fail_at(ld, v, "'min-severity' must be note, warning or error (got '%s'%s)",
                         text ? text : "a collection",
                         ss_policy_word_hint(text, WORDS(severity_words), hint, sizeof hint));
        ld->out->min_severity_set = 1;
        break;
    case 6:
        rc = load_list(ld, v, "hot-functions", "function names or globs", push_hot_function);
        break;
    default:
        rc = load_rules(ld, v);
        break;
    }
    return rc;
}

static int load_top(loader *ld, const yaml_node_t *root)
{
    const yaml_node_t *seen[TOP_KEY_COUNT] = {0};
    if (root->type == YAML_SCALAR_NODE && root->data.scalar.length == 0)
        return 0;
    if (root->type != YAML_MAPPING_NODE)
        return fail_at(ld, root, "the configuration must be a mapping of settings");
    for (yaml_node_pair_t *pair = root->data.mapping.pairs.start;
         pair < root->data.mapping.pairs.top; pair++) {
        yaml_node_t *k = yaml_document_get_node(ld->doc, pair->key);
        yaml_node_t *v = yaml_document_get_node(ld->doc, pair->value);
        size_t which;
        if (top_key(ld, k, seen, &which) != 0 || load_top_value(ld, which, v) != 0)
            return -1;
    }
    return 0;
}

/* "PATH:LINE:COLUMN: YAML syntax error: PROBLEM[ (CONTEXT at LINE:COLUMN)]" from the parser's
 * state: the position is libyaml's problem mark, the context's is where the construct began. */
static void syntax_error(const char *path, const yaml_parser_t *parser, char *err, size_t err_size)
{
    const char *problem = parser->problem ? parser->problem : "unreadable input";
    if (parser->context)
        ss_set_error(err, err_size, "%s:%zu:%zu: YAML syntax error: %s (%s at %zu:%zu)", path,
                     parser->problem_mark.line + 1, parser->problem_mark.column + 1, problem,
                     parser->context, parser->context_mark.line + 1,
                     parser->context_mark.column + 1);
    else
        ss_set_error(err, err_size, "%s:%zu:%zu: YAML syntax error: %s", path,
                     parser->problem_mark.line + 1, parser->problem_mark.column + 1, problem);
}

/* Refuses a configuration nested deeper than SS_CONFIG_MAX_DEPTH before it is loaded, at the
 * collection that goes too deep: libyaml builds the whole tree first, and its scanner takes
 * time in the square of the nesting (100,000 levels took 43 s). Read as events, the input is
 * only read up to that collection. Returns 0 (also on a syntax error, which the load then
 * reports), or -1 with "PATH:LINE:COLUMN: ..." in 'err'. */
static int check_depth(const char *path, const char *text, size_t len, char *err, size_t err_size)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return 0;
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    int depth = 0, rc = 0, done = 0;
    while (!done && rc == 0) {
        yaml_event_t event;
        if (!yaml_parser_parse(&parser, &event))
            break;
        switch (event.type) {
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            if (++depth > SS_CONFIG_MAX_DEPTH) {
                ss_set_error(err, err_size,
                             "%s:%zu:%zu: nested more than %d levels deep (a "
                             "configuration needs 3)",
                             path, event.start_mark.line + 1, event.start_mark.column + 1,
                             SS_CONFIG_MAX_DEPTH);
                rc = -1;
            }
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            depth--;
            break;
        case YAML_STREAM_END_EVENT:
            done = 1;
            break;
        default:
            break;
        }
        yaml_event_delete(&event);
    }
    yaml_parser_delete(&parser);
    return rc;
}

/* The folder of the configuration file 'path', absolute and normalized. */
static char *config_folder(const char *path)
{
    char *abs_path = ss_policy_path_absolute(path, NULL);
    if (abs_path == NULL)
        return NULL;
    char *slash = strrchr(abs_path, '/');
    if (slash == abs_path)
        slash[1] = '\0';
    else if (slash)
        *slash = '\0';
    return abs_path;
}

int ss_config_load_string(const char *path, const char *text, size_t len, ss_config *out, char *err,
                          size_t err_size)
{
    yaml_parser_t parser;
    yaml_document_t doc;
    ss_config_init(out);
    if (check_depth(path, text, len, err, err_size) != 0)
        return -1;
    char *base = config_folder(path);
    if (base == NULL) {
        ss_set_error(err, err_size, "%s: cannot resolve the working directory: %s", path,
                     strerror(errno));
        return -1;
    }
    if (!yaml_parser_initialize(&parser)) {
        free(base);
        ss_set_error(err, err_size, "%s: cannot initialize the YAML parser", path);
        return -1;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    int rc = -1;
    if (!yaml_parser_load(&parser, &doc)) {
        syntax_error(path, &parser, err, err_size);
        goto done;
    }
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    loader ld = {path, &doc, out, base, err, err_size};
    rc = root ? load_top(&ld, root) : 0;
    yaml_document_delete(&doc);
    if (rc == 0 && root) {
        /* A second document would be silently ignored: refuse it. */
        yaml_document_t extra;
        if (!yaml_parser_load(&parser, &extra)) {
            syntax_error(path, &parser, err, err_size);
            rc = -1;
        } else {
            yaml_node_t *extra_root = yaml_document_get_root_node(&extra);
            if (extra_root) {
                ld.doc = &extra;
                rc = fail_at(&ld, extra_root, "only one YAML document is allowed");
            }
            yaml_document_delete(&extra);
        }
    }
    if (rc == 0) {
        char *abs_path = ss_policy_path_absolute(path, NULL);
        push_source(out, abs_path ? abs_path : path);
        free(abs_path);
    }
done:
    yaml_parser_delete(&parser);
    free(base);
    if (rc != 0)
        ss_config_free(out);
    return rc;
}

int ss_config_load_file(const char *path, ss_config *out, char *err, size_t err_size)
{
    ss_config_init(out);
    size_t len = 0;
    char *text = ss_read_file_err(path, &len, err, err_size);
    if (text == NULL)
        return -1;
    int rc = ss_config_load_string(path, text, len, out, err, err_size);
    free(text);
    return rc;
}

/* One folder the cache has searched: whether it holds a configuration file, and the file
 * parsed (or its error). */
typedef struct cache_entry {
    char *dir;
    int has_file;
    ss_config config;
    char *error;
    struct cache_entry *next;
} cache_entry;

#define SS_CACHE_BUCKETS 1024

struct ss_config_cache {
    pthread_mutex_t lock;
    cache_entry *buckets[SS_CACHE_BUCKETS];
};

ss_config_cache *ss_config_cache_new(void)
{
    ss_config_cache *cache = ss_xcalloc(1, sizeof *cache);
    pthread_mutex_init(&cache->lock, NULL);
    return cache;
}

void ss_config_cache_free(ss_config_cache *cache)
{
    if (cache == NULL)
        return;
    for (size_t b = 0; b < SS_CACHE_BUCKETS; b++) {
        cache_entry *e = cache->buckets[b];
        while (e) {
            cache_entry *next = e->next;
            free(e->dir);
            ss_config_free(&e->config);
            free(e->error);
            free(e);
            e = next;
        }
    }
    pthread_mutex_destroy(&cache->lock);
    free(cache);
}

static size_t hash_dir(const char *dir)
{
    return (size_t)(ss_fnv1a(SS_FNV1A_SEED, dir, strlen(dir)) % SS_CACHE_BUCKETS);
}

/* The cache entry of 'dir', searching the folder the first time it is asked for. */
static cache_entry *cache_lookup(ss_config_cache *cache, const char *dir)
{
    size_t b = hash_dir(dir);
    for (cache_entry *e = cache->buckets[b]; e; e = e->next) {
        if (strcmp(e->dir, dir) == 0)
            return e;
    }
    cache_entry *e = ss_xcalloc(1, sizeof *e);
    e->dir = ss_xstrdup(dir);
    char *file = ss_xasprintf("%s%s%s", dir, strcmp(dir, "/") == 0 ? "" : "/", SS_CONFIG_FILE_NAME);
    struct stat st;
    if (stat(file, &st) == 0 && !S_ISDIR(st.st_mode)) {
        char err[1024];
        e->has_file = 1;
        if (ss_config_load_file(file, &e->config, err, sizeof err) != 0)
            e->error = ss_xstrdup(err);
    }
    free(file);
    e->next = cache->buckets[b];
    cache->buckets[b] = e;
    return e;
}

/* Cuts the last segment off the absolute path 'dir' in place. Returns 0, or -1 at "/". */
static int parent_folder(char *dir)
{
    if (strcmp(dir, "/") == 0)
        return -1;
    char *slash = strrchr(dir, '/');
    if (slash == dir)
        slash[1] = '\0';
    else
        *slash = '\0';
    return 0;
}

int ss_config_for_path(ss_config_cache *cache, const char *source_path,
                       const ss_config *cli_overrides, ss_config *effective, char *err,
                       size_t err_size)
{
    ss_config_init(effective);
    char *dir = ss_policy_path_absolute(source_path, NULL);
    if (dir == NULL) {
        ss_set_error(err, err_size, "%s: cannot resolve the working directory: %s", source_path,
                     strerror(errno));
        return -1;
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        parent_folder(dir);
    if (cli_overrides)
        ss_config_merge(effective, cli_overrides);
    int rc = 0;
    pthread_mutex_lock(&cache->lock);
    for (;;) {
        cache_entry *e = cache_lookup(cache, dir);
        if (e->error) {
            ss_set_error(err, err_size, "%s", e->error);
            rc = -1;
            break;
        }
        if (e->has_file) {
            ss_config_merge(effective, &e->config);
            if (!e->config.inherit)
                break;
        }
        if (parent_folder(dir) != 0)
            break;
    }
    pthread_mutex_unlock(&cache->lock);
    free(dir);
    if (rc != 0) {
        ss_config_free(effective);
        return -1;
    }
    /* The effective configuration stands alone: nothing above it is merged any more. */
    effective->inherit = 0;
    effective->inherit_set = 1;
    ss_config_fill_defaults(effective);
    return 0;
}

/* Writes 'text' as a YAML double-quoted scalar that loads back as itself: quotes, backslashes,
 * C0 and C1 controls, DEL, U+2028, U+2029 and U+FEFF escaped. */
static void write_quoted(FILE *out, const char *text)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(out, "\\x%02x", *p);
        else if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
            fprintf(out, "\\x%02x", *++p); /* a C1 control: YAML refuses it raw */
        else if (p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9)) {
            fputs(p[2] == 0xa8 ? "\\L" : "\\P", out); /* read raw as a line break */
            p += 2;
        } else if (p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf) {
            fputs("\\uFEFF", out); /* a byte order mark */
            p += 2;
        } else
            fputc(*p, out);
    }
    fputc('"', out);
}

int ss_config_dump(FILE *out, const ss_config *config)
{
    fputs("# syncscope configuration\n", out);
    if (config->source_count == 0)
        fputs("# from: defaults and the command line only\n", out);
    for (size_t i = 0; i < config->source_count; i++)
        fprintf(out, "# from: %s\n", config->sources[i]);
    if (config->inherit_set)
        fprintf(out, "inherit: %s\n", config->inherit ? "true" : "false");
    if (config->fail_on_set)
        fprintf(out, "fail-on: %s\n", ss_fail_on_name(config->fail_on));
    if (config->readback_bytes_set)
        fprintf(out, "readback-bytes: %u\n", config->readback_bytes);
    if (config->min_severity_set)
        fprintf(out, "min-severity: %s\n", ss_severity_name(config->min_severity));
    if (config->hot_function_count == 0) {
        fputs("hot-functions: []\n", out);
    } else {
        fputs("hot-functions:\n", out);
        for (size_t i = 0; i < config->hot_function_count; i++) {
            fputs("  - ", out);
            write_quoted(out, config->hot_functions[i]);
            fputc('\n', out);
        }
    }
    if (config->exclude_count == 0) {
        fputs("exclude: []\n", out);
    } else {
        fputs("exclude:\n", out);
        for (size_t i = 0; i < config->exclude_count; i++) {
            const ss_exclude *x = &config->excludes[i];
            char *absolute =
                x->pattern[0] == '/'
                    ? ss_xstrdup(x->pattern)
                    : ss_xasprintf("%s/%s", strcmp(x->base, "/") == 0 ? "" : x->base, x->pattern);
            fputs("  - ", out);
            write_quoted(out, absolute);
            fputc('\n', out);
            free(absolute);
        }
    }
    fputs("rules:\n", out);
    for (int r = 0; r < SS_RULE_COUNT; r++) {
        const ss_rule *rule = ss_rules_get((ss_rule_id)r);
        if (!config->enabled_set[r] && !config->severity_set[r])
            continue;
        fprintf(out, "  %s: # %s\n", rule->id, rule->name);
        if (config->enabled_set[r])
            fprintf(out, "    enabled: %s\n", config->enabled[r] ? "true" : "false");
        if (config->severity_set[r])
            fprintf(out, "    severity: %s\n", ss_severity_name(config->severity[r]));
    }
    fflush(out);
    return ferror(out) ? -1 : 0;
}

int ss_config_excluded(const ss_config *config, const char *path)
{
    if (config->exclude_count == 0)
        return 0;
    char *abs_path = ss_policy_path_absolute(path, NULL);
    if (abs_path == NULL)
        return 0;
    int excluded = 0;
    for (size_t i = 0; i < config->exclude_count && !excluded; i++) {
        const ss_exclude *x = &config->excludes[i];
        if (x->pattern[0] == '/') {
            excluded = ss_policy_glob_match(x->pattern, abs_path);
            continue;
        }
        size_t blen = strlen(x->base);
        const char *rel = NULL;
        if (strcmp(x->base, "/") == 0)
            rel = abs_path + 1;
        else if (strncmp(abs_path, x->base, blen) == 0 && abs_path[blen] == '/')
            rel = abs_path + blen + 1;
        if (rel)
            excluded = ss_policy_glob_match(x->pattern, rel);
    }
    free(abs_path);
    return excluded;
}
