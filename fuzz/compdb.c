/* compdb.c: fuzzes the compile-database reader (ss_compdb_parse, both the "command" and the
 * "arguments" form) and the flag translation of each entry; nothing is handed to libclang. */
#include "common.h"
#include "internal.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The tool's file reader ends the text with a NUL; so does this copy. */
    char *text = ss_fuzz_text(data, size);
    char err[1024];
    ss_compdb db;
    if (ss_compdb_parse(text, size, "compile_commands.json", &db, err, sizeof err) == 0) {
        for (size_t i = 0; i < db.count; i++) {
            const ss_compile_command *cmd = &db.commands[i];
            ss_args out = {0};
            ss_flags_info info;
            ss_flags_translate(&cmd->argv, cmd->file, cmd->directory, &out, &info);
            ss_lang lang;
            (void)ss_flags_lang_of(cmd->file, &lang);
            ss_args_free(&out);
            if (ss_compdb_find(&db, cmd->file) == NULL)
                ss_fuzz_fail("ss_compdb_find misses an entry's own file");
        }
        ss_compdb_free(&db);
    }
    free(text);
    return 0;
}
