/* policy_int.h: helpers shared by the files of analyzer/policy/ (not a public header). */
#ifndef SS_POLICY_INT_H
#define SS_POLICY_INT_H

#include "policy.h"

/* What follows an unknown rule 'key' in a message: " (did you mean 'X'?)" with the rule ID or
 * name nearest to it, else " (syncscope rules lists them)". Written into 'out' ('size' bytes);
 * returns 'out'. */
const char *ss_policy_rule_hint(const char *key, char *out, size_t size);

/* What follows "(got 'TEXT'" when 'text' is not one of the 'count' 'words': "; did you mean
 * 'X'?" with the nearest word, else "". Written into 'out' ('size' bytes); returns 'out'. */
const char *ss_policy_word_hint(const char *text, const char *const *words, size_t count, char *out,
                                size_t size);

/* The size of a buffer that holds either hint. */
#define SS_POLICY_HINT_SIZE 128

#endif
