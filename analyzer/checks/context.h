/* context.h: a finding's severity from where its call runs (context.c; docs/lint.md, "Warning
 * or note"): a warning where it runs on every iteration of a loop that enqueues device work
 * (in its function, or through the unit's call graph) or in a function the configuration
 * marks hot; a note where the host needs the value at once or the call runs once. Private to
 * the analyzer. */
#ifndef SS_ANALYZER_CHECKS_CONTEXT_H
#define SS_ANALYZER_CHECKS_CONTEXT_H

#include <clang-c/Index.h>

#include "checks.h"

/* Sets the severity of the finding 'f' just reported for the call 'at' by its context, and
 * adds to its message which case applies. Rules whose severity does not depend on where the
 * call runs (SYNC103, SYNC501) are left as they are, and so is a legacy-stream finding that is
 * a note because nothing else in the unit runs beside the legacy stream ('ctx->legacy_note'). */
void ss_context_apply(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, ss_finding *f);

/* Whether the function 'name' (qualified) is one the configuration marks hot: it matches
 * one of the unit's hot-functions patterns (fnmatch globs, matched against the qualified name
 * and against the name alone). Returns 1 or 0. */
int ss_context_is_hot_function(const ss_check_ctx *ctx, const char *name);

/* Makes a note of every warning of 'r' whose call runs neither on every iteration of a loop
 * shown to lint nor once (the words ss_finding.unshown holds), after the project pass has
 * given its reasons: those keep their own words. 'unshown' stays set on the findings it made
 * notes (the merge of the units' findings prefers another reason at the same severity) and is
 * cleared on every other. */
void ss_context_apply_unshown(ss_result *r);

#endif
