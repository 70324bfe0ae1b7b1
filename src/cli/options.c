// SPDX-License-Identifier: LGPL-2.1-only
/* The option-table parser behind every subcommand. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "options.h"

static __attribute__((noreturn, format(printf, 3, 4)))
void opt_die(const char *const usage[], const struct option *opts,
	     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "  Error: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage_with_options_fp(usage, opts, false);
	exit(129);
}

static int opt_value(const struct option *o, const char *arg, bool unset,
		     const char *name)
{
	char *end = NULL;

	errno = 0;
	switch (o->type) {
	case OPT_T_BOOL:
		*(bool *)o->value = !unset;
		return 0;
	case OPT_T_INCR:
		(*(int *)o->value)++;
		return 0;
	case OPT_T_STRING:
		*(const char **)o->value = unset ? NULL : arg;
		return 0;
	case OPT_T_INT: {
		long v = strtol(arg, &end, 0);

		if (errno || end == arg || *end || v < -2147483647L - 1 || v > 2147483647L)
			break;
		*(int *)o->value = (int)v;
		return 0;
	}
	case OPT_T_UINT: {
		unsigned long v = strtoul(arg, &end, 0);

		if (errno || end == arg || *end || arg[0] == '-' || v > 4294967295UL)
			break;
		*(unsigned int *)o->value = (unsigned int)v;
		return 0;
	}
	case OPT_T_U64: {
		unsigned long long v = strtoull(arg, &end, 0);

		if (errno || end == arg || *end || arg[0] == '-')
			break;
		*(uint64_t *)o->value = v;
		return 0;
	}
	case OPT_T_DOUBLE: {
		double v = strtod(arg, &end);

		if (errno || end == arg || *end)
			break;
		*(double *)o->value = v;
		return 0;
	}
	case OPT_T_CALLBACK:
		return o->cb(o, arg, unset);
	default:
		return -1;
	}
	fprintf(stderr, "  Error: option `%s' expects a number, not '%s'\n", name, arg);
	return -1;
}

static bool takes_arg(const struct option *o)
{
	switch (o->type) {
	case OPT_T_BOOL:
	case OPT_T_INCR:
		return false;
	case OPT_T_CALLBACK:
		return !(o->flags & (OPT_NOARG | OPT_OPTARG));
	default:
		return !(o->flags & OPT_OPTARG);
	}
}

/*
 * Whether an option whose value may be left out goes without one: at the
 * end of the command line, or before another option (perf's rule).
 */
static bool lastarg_default(const struct option *o, int nr_left, const char **next)
{
	return (o->flags & OPT_LASTARG_DEFAULT) && (nr_left < 1 || next[0][0] == '-');
}

static const struct option *find_long(const struct option *opts,
				      const char *name, size_t len, bool *neg)
{
	*neg = false;
	for (const struct option *o = opts; o->type != OPT_T_END; o++) {
		if (!o->long_name)
			continue;
		if (strlen(o->long_name) == len && !strncmp(o->long_name, name, len))
			return o;
	}
	if (len > 3 && !strncmp(name, "no-", 3)) {
		for (const struct option *o = opts; o->type != OPT_T_END; o++) {
			if (!o->long_name || (o->flags & OPT_NONEG))
				continue;
			if (strlen(o->long_name) == len - 3 &&
			    !strncmp(o->long_name, name + 3, len - 3)) {
				*neg = true;
				return o;
			}
		}
	}
	return NULL;
}

static const struct option *find_short(const struct option *opts, int c)
{
	for (const struct option *o = opts; o->type != OPT_T_END; o++)
		if (o->short_name == c)
			return o;
	return NULL;
}

/* Suggests the nearest long option for a typo (longest common prefix). */
static const char *nearest_long(const struct option *opts, const char *name)
{
	const char *best = NULL;
	size_t best_len = 2;

	for (const struct option *o = opts; o->type != OPT_T_END; o++) {
		size_t n = 0;

		if (!o->long_name)
			continue;
		while (o->long_name[n] && o->long_name[n] == name[n])
			n++;
		if (n > best_len) {
			best_len = n;
			best = o->long_name;
		}
	}
	return best;
}

int parse_options(int argc, const char **argv, const struct option *opts,
		  const char *const usage[], int flags)
{
	int out = 0;
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] != '-' || !a[1]) {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			argv[out++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage_with_options_fp(usage, opts, true);
			exit(0);
		}
		if (!strcmp(a, "--list-opts")) {
			list_options(opts);
			exit(0);
		}
		if (a[1] == '-') {
			const char *name = a + 2;
			const char *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			bool neg;
			const struct option *o = find_long(opts, name, len, &neg);
			const char *arg = eq ? eq + 1 : NULL;

			if (!o) {
				const char *near = nearest_long(opts, name);

				fprintf(stderr, "  Error: unknown option `%s'", name);
				if (near)
					fprintf(stderr, "; did you mean `--%s'?", near);
				fputc('\n', stderr);
				usage_with_options_fp(usage, opts, false);
				exit(129);
			}
			if (neg && arg)
				opt_die(usage, opts, "option `%s' takes no value", name);
			if (!neg && takes_arg(o) && !arg) {
				if (lastarg_default(o, argc - i - 1, argv + i + 1))
					;
				else if (i + 1 < argc)
					arg = argv[++i];
				else
					opt_die(usage, opts, "option `%s' requires a value", o->long_name);
			}
			if (!takes_arg(o) && arg && !(o->flags & OPT_OPTARG))
				opt_die(usage, opts, "option `%s' takes no value", o->long_name);
			if (opt_value(o, arg, neg, o->long_name))
				opt_die(usage, opts, "bad value for option `%s'", o->long_name);
			continue;
		}
		/* A cluster of short options: -ag, -F99, -F 99. */
		for (const char *p = a + 1; *p; p++) {
			const struct option *o = find_short(opts, *p);
			const char *arg = NULL;
			char name[3] = { '-', *p, 0 };

			if (!o)
				opt_die(usage, opts, "unknown switch `%s'", name + 1);
			if (takes_arg(o)) {
				if (p[1])
					arg = p + 1;
				else if (lastarg_default(o, argc - i - 1, argv + i + 1))
					;
				else if (i + 1 < argc)
					arg = argv[++i];
				else
					opt_die(usage, opts, "switch `%s' requires a value", name + 1);
				if (opt_value(o, arg, false, name))
					opt_die(usage, opts, "bad value for switch `%s'", name + 1);
				break;
			}
			/* -Svalue: the rest of the cluster is the optional value. */
			if ((o->flags & OPT_OPTARG) && p[1]) {
				if (opt_value(o, p + 1, false, name))
					opt_die(usage, opts, "bad value for switch `%s'", name + 1);
				break;
			}
			if (opt_value(o, NULL, false, name))
				opt_die(usage, opts, "bad use of switch `%s'", name + 1);
		}
	}
	for (; i < argc; i++)
		argv[out++] = argv[i];
	argv[out] = NULL;
	return out;
}

void usage_with_options_fp(const char *const usage[], const struct option *opts,
			   bool to_stdout)
{
	FILE *fp = to_stdout ? stdout : stderr;

	for (int n = 0; usage && usage[n]; n++)
		fprintf(fp, "%s%s\n", n ? "   or: " : "\n Usage: ", usage[n]);
	fputc('\n', fp);
	for (const struct option *o = opts; o->type != OPT_T_END; o++) {
		char left[96];
		int len = 0;

		if (o->flags & OPT_HIDDEN)
			continue;
		if (o->type == OPT_T_GROUP) {
			fprintf(fp, "\n%s\n", o->help);
			continue;
		}
		len += snprintf(left + len, sizeof(left) - len, "    ");
		if (o->short_name)
			len += snprintf(left + len, sizeof(left) - len, "-%c%s",
					o->short_name, o->long_name ? ", " : "");
		else
			len += snprintf(left + len, sizeof(left) - len, "    ");
		if (o->long_name)
			len += snprintf(left + len, sizeof(left) - len, "--%s", o->long_name);
		if (takes_arg(o) || (o->flags & OPT_OPTARG))
			len += snprintf(left + len, sizeof(left) - len,
					(o->flags & OPT_OPTARG) ? "[=%s]" : " %s",
					o->argh ? o->argh : "<n>");
		if (len > 28)
			fprintf(fp, "%s\n%30s%s\n", left, "", o->help);
		else
			fprintf(fp, "%-30s%s\n", left, o->help);
	}
	fputc('\n', fp);
}

void usage_with_options(const char *const usage[], const struct option *opts)
{
	usage_with_options_fp(usage, opts, false);
	exit(129);
}

void list_options(const struct option *opts)
{
	for (const struct option *o = opts; o->type != OPT_T_END; o++)
		if (o->long_name && !(o->flags & OPT_HIDDEN))
			printf("--%s\n", o->long_name);
}
