/* analyze.c: `syncscope analyze` (not built yet in this checkout). */
#include "cli.h"
#include "report.h"

int ss_cli_analyze(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    ss_log_error("'analyze' is not available in this build");
    return SS_EXIT_ERROR;
}
