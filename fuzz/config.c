/* config.c: fuzzes the .syncscope.yml reader (ss_config_load_string, libyaml) and what lint
 * does with a configuration: merging, defaults, exclude globs, the dump. Invariant: the dump of
 * a configuration the reader accepts loads back and dumps again byte for byte the same. */
#include "common.h"
#include "policy.h"

#include <stdlib.h>
#include <string.h>

/* Where the input pretends to live: the base folder of its excludes. */
#define CONFIG_PATH "/fuzz/project/.syncscope.yml"

/* 'config' dumped as YAML, malloc'ed ('len' bytes). */
static char *dump_text(const ss_config *config, size_t *len)
{
    char *text = NULL;
    FILE *out = open_memstream(&text, len);
    if (out == NULL)
        ss_fuzz_fail("open_memstream failed");
    if (ss_config_dump(out, config) < 0)
        ss_fuzz_fail("ss_config_dump failed");
    fclose(out);
    return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const paths[] = {
        "/fuzz/project/src/kernels/k.cu",
        "/fuzz/project/build/gen/a/b/c/d/e/f/g/h.cu",
        "/fuzz/other/x.cu",
        "/fuzz/project/third_party/vendor/include/v.cuh",
    };
    char err[1024];
    ss_config layer;
    if (ss_config_load_string(CONFIG_PATH, (const char *)data, size, &layer, err, sizeof err) < 0)
        return 0;
    ss_config effective;
    ss_config_init(&effective);
    ss_config_merge(&effective, &layer);
    ss_config_fill_defaults(&effective);
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        (void)ss_config_excluded(&effective, paths[i]);
    ss_config_free(&effective);

    size_t first_len = 0;
    char *first = dump_text(&layer, &first_len);
    ss_config_free(&layer);
    if (ss_config_load_string(CONFIG_PATH, first, first_len, &layer, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        ss_fuzz_fail("a configuration written by ss_config_dump does not load back");
    }
    size_t second_len = 0;
    char *second = dump_text(&layer, &second_len);
    ss_config_free(&layer);
    if (first_len != second_len || memcmp(first, second, first_len) != 0)
        ss_fuzz_fail("a configuration loaded back dumps differently");
    free(first);
    free(second);
    return 0;
}
