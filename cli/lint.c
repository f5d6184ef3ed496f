/* lint.c: `syncscope lint` (not built yet in this checkout). */
#include "cli.h"
#include "report.h"

int ss_cli_lint(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    ss_log_error("'lint' is not available in this build");
    return SS_EXIT_ERROR;
}
