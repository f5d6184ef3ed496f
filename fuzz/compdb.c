/* compdb.c: fuzzes the compile-database reader (ss_compdb_parse, both the "command" and the
 * "arguments" form) and the translation of each entry into clang arguments (the allow-list,
 * --remove-arg, the --verbose account of what was dropped); nothing is handed to libclang and
 * no response file is read. Invariants: no argument that writes a file or loads code survives
 * the translation, and no argument that --remove-arg names does. */
#include "common.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Prefixes of the compiler options that write files or load code (as clang and gcc spell them;
 * "-M" is upper case: -MD, -MF, -MJ...). None may reach libclang, whatever the allow-list
 * lets through. */
static const char *const forbidden[] = {
    "-o",
    "--output",
    "-M",
    "-Wp,",
    "-Wl,",
    "-Wa,",
    "-Xlinker",
    "-Xassembler",
    "-Xpreprocessor",
    "--serialize-diagnostics",
    "-fplugin",
    "-fpass-plugin",
    "-B",
    "--prefix",
    "-save-temps",
    "--save-temps",
    "-ftime-trace",
    "-fprofile",
    "-fcrash-diagnostics",
    "-fmodules-cache-path",
    "-fsave-optimization-record",
    "-foptimization-record-file",
    "-load",
    "-plugin",
    "-add-plugin",
    "-dependency-file",
    "-header-include-file",
    "-dependency-dot",
    "-module-dependency-dir",
    "--config",
    "@",
};

/* What the --remove-arg patterns below leave out. */
static const char *const removals[] = {"-DSS_FUZZ_REMOVED", "-Wno-*", "-isystem"};

static void check_translation(const ss_args *out)
{
    for (size_t i = 0; i < out->count; i++) {
        const char *arg = out->v[i];
        for (size_t f = 0; f < sizeof forbidden / sizeof forbidden[0]; f++) {
            if (strncmp(arg, forbidden[f], strlen(forbidden[f])) == 0) {
                fprintf(stderr, "kept argument %zu: '%s'\n", i, arg);
                ss_fuzz_fail("an argument that writes a file or loads code was kept");
            }
        }
        if (strcmp(arg, "-DSS_FUZZ_REMOVED") == 0 || strncmp(arg, "-Wno-", 5) == 0 ||
            strncmp(arg, "-isystem", 8) == 0) {
            fprintf(stderr, "kept argument %zu: '%s'\n", i, arg);
            ss_fuzz_fail("an argument named by --remove-arg was kept");
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The tool's file reader ends the text with a NUL; so does this copy. */
    char *text = ss_fuzz_text(data, size);
    char err[1024];
    ss_compdb db;
    if (ss_compdb_parse(text, size, "compile_commands.json", &db, err, sizeof err) == 0) {
        for (size_t i = 0; i < db.count; i++) {
            const ss_compile_command *cmd = &db.commands[i];
            ss_args out = {0}, dropped = {0};
            ss_flags_info info;
            ss_flags_filter filter = {removals, sizeof removals / sizeof removals[0], &dropped};
            ss_flags_translate_filtered(&cmd->argv, cmd->file, cmd->directory, &filter, &out,
                                        &info);
            check_translation(&out);
            char *shown = ss_flags_shown((const char *const *)out.v, out.count);
            free(shown);
            ss_args_free(&out);
            ss_args_free(&dropped);
            ss_lang lang;
            (void)ss_flags_lang_of(cmd->file, &lang);
        }
        ss_compdb_free(&db);
    }
    free(text);
    return 0;
}
