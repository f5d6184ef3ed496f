/* report.c: `syncscope report` (not built yet in this checkout). */
#include "cli.h"
#include "report.h"

int ss_cli_report(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    ss_log_error("'report' is not available in this build");
    return SS_EXIT_ERROR;
}
