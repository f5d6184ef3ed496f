/* response.c: fuzzes the expansion of response files (ss_compdb_expand): the input is the
 * response file 'input' in a private folder, named by the command "cc @input -DEND" and, in
 * nvcc's spelling, "nvcc --options-file input,input"; its words may name it again (relative
 * names are taken from its folder), nest, fan out, or name files elsewhere. Invariants: the
 * expansion ends within the fuzzer's time limit whatever the words (the bounds on depth, bytes,
 * files opened and arguments hold), it fails exactly when it says why, and it never yields
 * more arguments than SS_COMPDB_RESPONSE_MAX_ARGS. */
#include "common.h"
#include "compdb.h"

#include <stdlib.h>
#include <string.h>

static void expand_command(const char *command, const char *folder)
{
    ss_args argv = {0}, out = {0};
    if (ss_compdb_split(command, &argv) != 0)
        ss_fuzz_fail("the harness's command does not split");
    char err[512] = "";
    int rc = ss_compdb_expand(&argv, folder, &out, err, sizeof err);
    if ((rc == 0) != (err[0] == '\0'))
        ss_fuzz_fail("the expansion failed without saying why, or said why and succeeded");
    if (out.count > SS_COMPDB_RESPONSE_MAX_ARGS)
        ss_fuzz_fail("more arguments than SS_COMPDB_RESPONSE_MAX_ARGS");
    if (out.count == 0 || strcmp(out.v[0], argv.v[0]) != 0)
        ss_fuzz_fail("the compiler is not the first argument");
    ss_args_free(&argv);
    ss_args_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = ss_fuzz_input_file(data, size);
    char *folder = strdup(path);
    if (folder == NULL)
        ss_fuzz_fail("out of memory");
    *strrchr(folder, '/') = '\0';
    expand_command("cc @input -DEND", folder);
    expand_command("nvcc --options-file input,input -c k.cu", folder);
    free(folder);
    return 0;
}
