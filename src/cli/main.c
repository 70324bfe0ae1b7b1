// SPDX-License-Identifier: LGPL-2.1-only
/* sonde(1): dispatch to the subcommands through one table. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "builtin.h"
#include "sonde/sonde.h"

enum cmd_flags {
	CMD_QUIET_STDOUT_CHECK = 1 << 0, /* command manages stdout itself */
};

struct cmd_struct {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *help;
	int flags;
};

static const struct cmd_struct commands[] = {
	{ "list", cmd_list, "List the events this machine offers", 0 },
	{ "stat", cmd_stat, "Count events of a command, task, CPUs or cgroup", 0 },
	{ "record", cmd_record, "Sample a command or the system into perf.data", CMD_QUIET_STDOUT_CHECK },
	{ "report", cmd_report, "Summarize a perf.data file (perf report compatible)", 0 },
	{ "script", cmd_script, "Print the samples of a perf.data file (perf script compatible)", 0 },
	{ "diff", cmd_diff, "Compare the profiles of two perf.data files (perf diff compatible)", 0 },
	{ "export", cmd_export, "Write a perf.data file's profile as folded, svg, html, pprof, speedscope or firefox", 0 },
	{ "help", cmd_help, "Show help for sonde or one of its commands", 0 },
	{ "version", cmd_version, "Print sonde's version", 0 },
};

void list_commands(void)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		printf("   %-10s %s\n", commands[i].name, commands[i].help);
}

static const struct cmd_struct *find_cmd(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* Edit distance, for "did you mean" on a mistyped command. */
static int distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int row[64];

	if (lb >= 63 || la >= 63)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int prev = row[0];

		row[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int cur = row[j];
			int sub = prev + (a[i - 1] != b[j - 1]);
			int best = row[j] + 1 < row[j - 1] + 1 ? row[j] + 1 : row[j - 1] + 1;

			row[j] = sub < best ? sub : best;
			prev = cur;
		}
	}
	return row[lb];
}

static void suggest(const char *name)
{
	const char *best = NULL;
	int best_d = 3;

	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		int d = distance(name, commands[i].name);

		if (d < best_d) {
			best_d = d;
			best = commands[i].name;
		}
	}
	fprintf(stderr, "sonde: '%s' is not a sonde command. See 'sonde --help'.\n", name);
	if (best)
		fprintf(stderr, "\nThe most similar command is\n\t%s\n", best);
}

/* perf and git do not report write errors on pipes and sockets (EPIPE). */
static int check_stdout(void)
{
	struct stat st;

	if (fstat(fileno(stdout), &st) == 0 &&
	    (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
		return 0;
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "sonde: write failure on standard output: %s\n",
			strerror(errno));
		return 1;
	}
	return 0;
}

int cmd_help(int argc, const char **argv)
{
	if (argc > 1) {
		const struct cmd_struct *c = find_cmd(argv[1]);
		const char *args[] = { argv[1], "--help", NULL };

		if (!c) {
			suggest(argv[1]);
			return 1;
		}
		return c->fn(2, args);
	}
	printf("\n usage: sonde [--version] [--help] COMMAND [ARGS]\n\n"
	       " The sonde commands are:\n");
	list_commands();
	printf("\n See 'sonde help COMMAND' for more information on a command.\n\n");
	return 0;
}

int cmd_version(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	printf("sonde version %s\n", sonde_version_string());
	return 0;
}

int main(int argc, const char **argv)
{
	const struct cmd_struct *c;
	int status;

	argv++;
	argc--;
	if (argc < 1 || !strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))
		return cmd_help(0, NULL);
	if (!strcmp(argv[0], "--version") || !strcmp(argv[0], "-v"))
		return cmd_version(0, NULL);
	if (!strcmp(argv[0], "--list-cmds")) {
		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			printf("%s\n", commands[i].name);
		return 0;
	}
	c = find_cmd(argv[0]);
	if (!c) {
		suggest(argv[0]);
		return 1;
	}
	status = c->fn(argc, argv);
	if (!(c->flags & CMD_QUIET_STDOUT_CHECK) && check_stdout() && !status)
		status = 1;
	return status & 0xff;
}
