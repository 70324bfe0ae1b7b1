/* SPDX-License-Identifier: LGPL-2.1-only */
/* The subcommands of sonde(1): one cmd_<name>() per <name>.c file. */
#ifndef SONDE_CLI_BUILTIN_H
#define SONDE_CLI_BUILTIN_H

/* Each returns the process exit status (0..255). argv[0] is the command name. */
int cmd_version(int argc, const char **argv);
int cmd_help(int argc, const char **argv);
int cmd_list(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_script(int argc, const char **argv);
int cmd_export(int argc, const char **argv);
int cmd_diff(int argc, const char **argv);
int cmd_stat(int argc, const char **argv);
int cmd_record(int argc, const char **argv);

/* Lists the command names (for help and completion). */

#endif /* SONDE_CLI_BUILTIN_H */
