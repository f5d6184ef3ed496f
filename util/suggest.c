/* suggest.c: "did you mean": the edit distance and the nearest word among candidates, the one
 * helper behind every suggestion for a mistyped command, option, rule, level or key. */
#include "util.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* The longest word compared; longer words are never near anything. */
#define SUGGEST_MAX_LEN 64

/* Whether characters 'x' and 'y' are the same letter, in any case. */
static int same(char x, char y)
{
    return tolower((unsigned char)x) == tolower((unsigned char)y);
}

size_t ss_edit_distance(const char *a, const char *b, size_t limit)
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

/* How many leading characters 'a' and 'b' share, in any case. */
static size_t common_prefix(const char *a, const char *b)
{
    size_t n = 0;
    while (a[n] && b[n] && same(a[n], b[n]))
        n++;
    return n;
}

const char *ss_suggest(const char *word, const char *const *candidates, size_t count)
{
    /* A distance as long as the word itself would make anything near a short word. */
    size_t len = strlen(word);
    const char *best = NULL;
    size_t best_distance = SS_SUGGEST_DISTANCE + 1, best_prefix = 0;
    for (size_t i = 0; i < count; i++) {
        if (candidates[i] == NULL)
            continue;
        size_t d = ss_edit_distance(word, candidates[i], SS_SUGGEST_DISTANCE);
        if (d > SS_SUGGEST_DISTANCE || d >= len)
            continue;
        /* Typing slips more often near the end: between equally near candidates, the one
         * that keeps more of the word's start ("SYNC310": SYNC301, not SYNC101). */
        size_t prefix = common_prefix(word, candidates[i]);
        if (d < best_distance || (d == best_distance && prefix > best_prefix)) {
            best = candidates[i];
            best_distance = d;
            best_prefix = prefix;
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
