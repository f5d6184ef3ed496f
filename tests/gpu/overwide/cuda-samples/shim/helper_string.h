/* helper_string.h: cuda-samples' command-line helpers as simpleHyperQ and simpleMultiCopy call
 * them (-name or -name=VALUE), written for syncscope's tests. */
#ifndef SS_SHIM_HELPER_STRING_H
#define SS_SHIM_HELPER_STRING_H

#include <stdlib.h>
#include <string.h>

/* The value after "-name=" (or "--name="), "" for a bare "-name", or NULL when absent. */
static inline const char *shim_arg(int argc, const char **argv, const char *name)
{
    size_t n = strlen(name);
    if (n > 0 && name[n - 1] == '=')
        n--;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        while (*a == '-')
            a++;
        if (strncmp(a, name, n) == 0 && (a[n] == '\0' || a[n] == '='))
            return a[n] == '=' ? a + n + 1 : a + n;
    }
    return NULL;
}

static inline bool checkCmdLineFlag(int argc, const char **argv, const char *name)
{
    return shim_arg(argc, argv, name) != NULL;
}

static inline int getCmdLineArgumentInt(int argc, const char **argv, const char *name)
{
    const char *value = shim_arg(argc, argv, name);
    return value != NULL ? atoi(value) : 0;
}

#endif
