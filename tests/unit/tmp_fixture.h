/* tmp_fixture.h: one temporary folder per test case, made and removed by the parent process
 * (an unchecked fixture) so that it is cleaned up even when a test fails. */
#ifndef SS_TMP_FIXTURE_H
#define SS_TMP_FIXTURE_H

#include <check.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>

static char fixture_root[256];

/* Makes /tmp/ss-'tag'-XXXXXX. */
static inline void fixture_root_make(const char *tag)
{
    snprintf(fixture_root, sizeof fixture_root, "/tmp/ss-%s-XXXXXX", tag);
    ck_assert_ptr_nonnull(mkdtemp(fixture_root));
}

static inline int fixture_remove_entry(const char *path, const struct stat *st, int flag,
                                       struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static inline void remove_root(void)
{
    nftw(fixture_root, fixture_remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
