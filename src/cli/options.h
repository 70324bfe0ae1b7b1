/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Declarative, type-checked option tables for sonde's subcommands. Usage
 * text, --list-opts and completion come from the tables, so they cannot
 * drift from what the parser accepts.
 */
#ifndef SONDE_CLI_OPTIONS_H
#define SONDE_CLI_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

enum opt_type {
	OPT_T_END,
	OPT_T_GROUP,
	OPT_T_BOOL,    /* bool; --no-X clears */
	OPT_T_INCR,    /* int, +1 per use (-v -v) */
	OPT_T_INT,
	OPT_T_UINT,
	OPT_T_U64,
	OPT_T_DOUBLE,
	OPT_T_STRING,  /* const char *, last one wins */
	OPT_T_CALLBACK /* cb(opt, arg, unset) does the work */
};

struct option;
typedef int (*opt_cb_t)(const struct option *opt, const char *arg, bool unset);

enum opt_flags {
	OPT_NOARG = 1 << 0,    /* callback that takes no argument */
	OPT_OPTARG = 1 << 1,   /* argument only via --name=value */
	OPT_NONEG = 1 << 2,    /* no --no-name form */
	OPT_HIDDEN = 1 << 3,
	/* The value may be left out when the option is the command line's
	 * last word or another option follows (the callback gets NULL), as
	 * perf's -g. */
	OPT_LASTARG_DEFAULT = 1 << 4,
};

struct option {
	enum opt_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh; /* argument name in usage, e.g. "<n>" */
	const char *help;
	opt_cb_t cb;
	int flags;
	void *data; /* free for callbacks */
};

/* _Generic turns a value pointer of the wrong type into a compile error. */
#define OPT_CHECK(v, T) _Generic((v), T: (v))

#define OPT_END() { .type = OPT_T_END }
#define OPT_GROUP(h) { .type = OPT_T_GROUP, .help = (h) }
#define OPT_BOOLEAN(s, l, v, h) \
	{ .type = OPT_T_BOOL, .short_name = (s), .long_name = (l), \
	  .value = OPT_CHECK(v, bool *), .help = (h) }
#define OPT_INCR(s, l, v, h) \
	{ .type = OPT_T_INCR, .short_name = (s), .long_name = (l), \
	  .value = OPT_CHECK(v, int *), .help = (h), .flags = OPT_NONEG }
#define OPT_INTEGER(s, l, v, a, h) \
	{ .type = OPT_T_INT, .short_name = (s), .long_name = (l), \
	  .value = OPT_CHECK(v, int *), .argh = (a), .help = (h) }
#define OPT_UINTEGER(s, l, v, a, h) \
	{ .type = OPT_T_UINT, .short_name = (s), .long_name = (l), \
	  .value = OPT_CHECK(v, unsigned int *), .argh = (a), .help = (h) }
#define OPT_U64(s, l, v, a, h) \
	{ .type = OPT_T_U64, .short_name = (s), .long_name = (l), \
	  .value = OPT_CHECK(v, uint64_t *), .argh = (a), .help = (h) }
#define OPT_DOUBLE(s, l, v, a, h) \
	{ .type = OPT_T_DOUBLE, .short_name = (s), .long_name = (l), \
	  .value = OPT_CHECK(v, double *), .argh = (a), .help = (h) }
#define OPT_STRING(s, l, v, a, h) \
	{ .type = OPT_T_STRING, .short_name = (s), .long_name = (l), \
	  .value = OPT_CHECK(v, const char **), .argh = (a), .help = (h) }
#define OPT_CALLBACK(s, l, v, a, h, f) \
	{ .type = OPT_T_CALLBACK, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .help = (h), .cb = (f) }
/* An optional argument: --name=value, or -Xvalue glued to the switch. */
#define OPT_CALLBACK_OPTARG(s, l, v, a, h, f) \
	{ .type = OPT_T_CALLBACK, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .help = (h), .cb = (f), .flags = OPT_OPTARG }
/* A value left out at the end or before an option (the callback gets NULL). */
#define OPT_CALLBACK_LASTARG_DEFAULT(s, l, v, a, h, f) \
	{ .type = OPT_T_CALLBACK, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .help = (h), .cb = (f), .flags = OPT_LASTARG_DEFAULT }
#define OPT_CALLBACK_NOOPT(s, l, v, h, f) \
	{ .type = OPT_T_CALLBACK, .short_name = (s), .long_name = (l), \
	  .value = (v), .help = (h), .cb = (f), .flags = OPT_NOARG }

enum parse_opt_flags {
	/* Stop at the first non-option (the workload command). */
	PARSE_OPT_STOP_AT_NON_OPTION = 1 << 0,
};

/*
 * Parses argv[1..argc-1] against @opts. Returns the number of non-option
 * arguments, moved to argv[0..n-1] (argv[n] = NULL). On a bad option prints
 * the error and usage and exits 129, as perf and git do; -h/--help prints
 * usage and exits 0.
 */
int parse_options(int argc, const char **argv, const struct option *opts,
		  const char *const usage[], int flags);

/* Prints the usage text generated from @opts to stderr (or stdout). */
void usage_with_options_fp(const char *const usage[],
			   const struct option *opts, bool to_stdout);
__attribute__((noreturn))
void usage_with_options(const char *const usage[], const struct option *opts);

/* Prints "--long" names one per line (for completion scripts). */
void list_options(const struct option *opts);

#endif /* SONDE_CLI_OPTIONS_H */
