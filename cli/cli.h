/* cli.h: the syncscope subcommands; each lives in cli/<subcommand>.c. */
#ifndef SS_CLI_H
#define SS_CLI_H

/* Exit codes of every subcommand. */
enum { SS_EXIT_CLEAN = 0, SS_EXIT_FINDINGS = 1, SS_EXIT_ERROR = 2 };

/* Each takes the arguments after the subcommand name (argv[0] is the subcommand) and
 * returns an exit code. */
int ss_cli_lint(int argc, char **argv);
int ss_cli_run(int argc, char **argv);
int ss_cli_analyze(int argc, char **argv);
int ss_cli_report(int argc, char **argv);
int ss_cli_rules(int argc, char **argv);
int ss_cli_explain(int argc, char **argv);

/* The folder of the running syncscope executable (for finding libsyncscope.so and the
 * bundled data next to it). Returns a static string. */
const char *ss_cli_self_dir(void);

#endif
