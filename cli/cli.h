/* cli.h: the syncscope subcommands; each lives in cli/<subcommand>.c. */
#ifndef SS_CLI_H
#define SS_CLI_H

#include "detect.h"
#include "options.h"

#include <stddef.h>
#include <stdio.h>

/* Exit codes of every subcommand. */
enum { SS_EXIT_CLEAN = 0, SS_EXIT_FINDINGS = 1, SS_EXIT_ERROR = 2 };
/* `syncscope run --error-exitcode N`: the program exited 0, but no process of it was observed
 * (it made no CUDA call that syncscope could watch: no usable GPU, CUPTI could not start), so
 * the gate was not judged (docs/run.md, "Gates"). */
enum { SS_EXIT_UNOBSERVED = 4 };
/* `syncscope run`: the program could not be run (found, not executable) or not found, as env
 * and timeout exit. */
enum { SS_EXIT_CANNOT_RUN = 126, SS_EXIT_NOT_FOUND = 127 };

/* Each takes the arguments after the subcommand name (argv[0] is the subcommand) and
 * returns an exit code. The subcommands are listed in cli/commands.def, their options in
 * cli/options.def. */
int ss_cli_lint(int argc, char **argv);
/* The libclang line of --version: what lint was built with and the libclang it runs with
 * ("libclang 16 (clang-c API 0.63), running Debian clang version 16.0.6"), or that lint is
 * not built in. */
void ss_cli_version_libclang(FILE *out);
int ss_cli_run(int argc, char **argv);
int ss_cli_analyze(int argc, char **argv);
int ss_cli_report(int argc, char **argv);
int ss_cli_rules(int argc, char **argv);
int ss_cli_explain(int argc, char **argv);

struct ss_result;

/* syncscope lint --fix (fix.c): writes the fix-its of the findings of 'result' into their
 * files. The new content of every file is made first, and nothing is written when a line no
 * longer reads as it was analyzed; then each file is replaced atomically. A fix-it that
 * overlaps an earlier one in its file is left out. Sets '*applied' and '*files' to the
 * numbers written. Returns 0, or -1 with a message printed. */
int ss_cli_apply_fixits(const struct ss_result *result, size_t *applied, size_t *files);

/* The detector options for a trace: the settings its run recorded in the metadata (thresholds,
 * attribution, latent notes, scopes), each replaced by its option in 'args' (analyze's command
 * line; NULL for none). */
typedef struct ss_cli_detect {
    ss_detect_options options;
    char **paths; /* the attribution paths options.user_paths points to (owned) */
    size_t path_count;
} ss_cli_detect;

/* Fills 'd' for 'log' and 'args' (may be NULL); --attribute-to paths under the local root of
 * 'root' (may be NULL) are mapped back to where the run recorded them. With 'verbose', says on
 * stderr where each setting came from, naming the trace 'trace'. The options' NVTX range may
 * point into 'log' or 'args'. Release with ss_cli_detect_free. */
void ss_cli_detect_init(ss_cli_detect *d, const ss_event_log *log, const ss_cli_args *args,
                        const ss_cli_root *root, const char *trace, int verbose);
void ss_cli_detect_free(ss_cli_detect *d);

/* The folder of the running syncscope executable (for finding libsyncscope.so and the
 * bundled data next to it). Returns a static string. */
const char *ss_cli_self_dir(void);

#endif
