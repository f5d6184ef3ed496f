/* suggest.c: "did you mean" for mistyped subcommands, options and rule IDs or names. */
#include "options.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The longest word compared; longer words are never near anything. */
#define SUGGEST_MAX_LEN 64
/* The largest distance still suggested. */
#define SUGGEST_DISTANCE 2

/* Whether characters 'x' and 'y' are the same letter, in any case. */
static int same(char x, char y)
{
    return tolower((unsigned char)x) == tolower((unsigned char)y);
}

size_t ss_cli_distance(const char *a, const char *b, size_t limit)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > SUGGEST_MAX_LEN || m > SUGGEST_MAX_LEN || (n > m ? n - m : m - n) > limit)
        return limit + 1;
    /* The rows i - 2, i - 1 and i of the optimal string alignment table. */
    size_t rows[3][SUGGEST_MAX_LEN + 1];
    size_t *two = rows[0], *one = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= m; j++)
        one[j] = j;
    for (size_t i = 1; i <= n; i++) {
        cur[0] = i;
        size_t row_min = i;
        for (size_t j = 1; j <= m; j++) {
            size_t d = one[j - 1] + !same(a[i - 1], b[j - 1]);
            if (one[j] + 1 < d)
                d = one[j] + 1;
            if (cur[j - 1] + 1 < d)
                d = cur[j - 1] + 1;
            if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]) &&
                two[j - 2] + 1 < d)
                d = two[j - 2] + 1;
            cur[j] = d;
            if (d < row_min)
                row_min = d;
        }
        /* Every alignment passes through row i or, by a transposition, costs at least the
         * minimum of row i: nothing below can come back under the limit. */
        if (row_min > limit)
            return limit + 1;
        size_t *oldest = two;
        two = one;
        one = cur;
        cur = oldest;
    }
    return one[m] > limit ? limit + 1 : one[m];
}

const char *ss_cli_suggest(const char *word, const char *const *candidates, size_t count)
{
    /* A distance as long as the word itself would make anything near a short word. */
    size_t len = strlen(word);
    const char *best = NULL;
    size_t best_distance = SUGGEST_DISTANCE + 1;
    for (size_t i = 0; i < count; i++) {
        if (candidates[i] == NULL)
            continue;
        size_t d = ss_cli_distance(word, candidates[i], SUGGEST_DISTANCE);
        if (d < best_distance && d < len) {
            best = candidates[i];
            best_distance = d;
        }
    }
    if (best != NULL || len < 3)
        return best;
    /* Else the one candidate that starts with the word, if only one does ("--min-blocked"). */
    for (size_t i = 0; i < count; i++) {
        if (candidates[i] == NULL || strncasecmp(candidates[i], word, len) != 0)
            continue;
        if (best != NULL)
            return NULL;
        best = candidates[i];
    }
    return best;
}

const char *ss_cli_suggest_rule(const char *key)
{
    size_t n;
    const ss_rule *rules = ss_rules_all(&n);
    const char **words = ss_calloc(2 * n, sizeof *words);
    for (size_t i = 0; i < n; i++) {
        words[2 * i] = rules[i].id;
        words[2 * i + 1] = rules[i].name;
    }
    const char *near = ss_cli_suggest(key, words, 2 * n);
    free(words);
    return near;
}

const ss_rule *ss_cli_find_rule(const char *context, const char *key)
{
    const ss_rule *rule = ss_rules_find(key);
    if (rule != NULL)
        return rule;
    const char *near = ss_cli_suggest_rule(key);
    const char *sep = context ? ": " : "";
    context = context ? context : "";
    if (near)
        ss_log_error("%s%sunknown rule '%s' (did you mean '%s'?)", context, sep, key, near);
    else
        ss_log_error("%s%sunknown rule '%s' (syncscope rules lists them)", context, sep, key);
    return NULL;
}
