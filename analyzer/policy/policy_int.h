/* policy_int.h: helpers shared by the files of analyzer/policy/ (not a public header). */
#ifndef SS_POLICY_INT_H
#define SS_POLICY_INT_H

#include "policy.h"

/* printf into the caller's error buffer 'err' ('err_size' bytes); does nothing when 'err' is
 * NULL or 'err_size' is 0. */
void ss_policy_set_error(char *err, size_t err_size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
