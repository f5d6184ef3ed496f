/* launch_spacing.h: kernel launches written with spaced brackets ('k << <g, b >> >(a)', as
 * Visual Studio formats them), found and read as '<<<' and '>>>' (launch_spacing.c). Private
 * to the analyzer. */
#ifndef SS_ANALYZER_LAUNCH_SPACING_H
#define SS_ANALYZER_LAUNCH_SPACING_H

#include <stddef.h>

/* Whether the '<' at 'offset' of 'text' ('size' bytes) is the third bracket of a spaced launch
 * opening: '<<', one or more blanks (spaces, tabs), '<', and not 'operator<< <' (a template
 * specialization of operator<<). clang reports "expected expression" there. Returns 1 or 0. */
int ss_launch_spacing_at(const char *text, size_t size, size_t offset);

/* A copy of 'text' ('size' bytes) where each spaced launch of its code (not in a comment nor in
 * a string or character literal) is written '<<<' ... '>>>': '<<  <' becomes '<<<  ' and the
 * '>> >' that closes the same launch configuration '>>> ', so every other byte keeps its offset,
 * line and column. An opening whose configuration is not closed in the same expression stays.
 * '*count' receives the number of launches rewritten. Returns the copy (malloc'ed, 'size'
 * bytes and a NUL), or NULL when there was none to rewrite. */
char *ss_launch_spacing_rewrite(const char *text, size_t size, size_t *count);

#endif
