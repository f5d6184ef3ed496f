/* analyzer.h: the libclang pass behind `syncscope lint`: the analyzer's only public header. */
#ifndef SS_ANALYZER_H
#define SS_ANALYZER_H

#include <stddef.h>

#include "report.h"

/* Environment: set to 1 to parse with the bundled CUDA declarations even when a toolkit is
 * installed (the same as --cuda-path=none). */
#define SS_ENV_NO_CUDA "SYNCSCOPE_NO_CUDA"
/* Environment: the CUDA toolkit root, used when --cuda-path is not given. */
#define SS_ENV_CUDA_PATH "CUDA_PATH"

/* --cuda-path value that selects the bundled declarations. */
#define SS_CUDA_PATH_NONE "none"

typedef struct ss_lint_options {
    const char *const *inputs; /* files and folders; may be empty when build_dir is set */
    size_t input_count;
    const char *build_dir;         /* folder holding compile_commands.json, or NULL */
    const char *const *extra_args; /* appended to every translation unit's arguments */
    size_t extra_arg_count;
    const char *cuda_path; /* toolkit root, SS_CUDA_PATH_NONE, or NULL to discover */
    int keep_going;        /* analyze every file even after a fatal parse error */
} ss_lint_options;

/* Runs the static checks over the translation units named by 'options' and appends their
 * findings (sorted, each reported once) and tool diagnostics (parse errors, files that were
 * skipped) to 'out', which the caller has initialized with ss_result_init(SS_RESULT_LINT).
 * Returns -1 when the input itself is unusable (a missing file, a folder without sources, a
 * broken compile_commands.json, a binary file, no toolkit where one was named): a message
 * has been printed and nothing was analyzed. Otherwise returns the number of translation
 * units that had parse errors (0 when every file parsed cleanly); each such file is still
 * analyzed as far as clang recovered, and without keep_going the analysis stops after the
 * first of them. */
int ss_analyzer_run(const ss_lint_options *options, ss_result *out);

#endif
