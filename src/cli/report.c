// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde report: options, and the load through profile_load.c (the one
 * path export and diff take too). The histogram and call graphs are the
 * library's profile (sonde/profile.h); printing is in report_print.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include "builtin.h"
#include "options.h"
#include "report_cli.h"
#include "profile_warn.h"
#include "report_branch.h"

/* What an unknown --sort name is told. */
static const char known_keys[] = "perf 6.1's sort keys: comm, pid, tid, dso, sym, cpu, srcline, parent, socket, srcfile, symbol_size, dso_size, local_weight, weight, transaction, cgroup, cgroup_id, time, code_page_size, local_ins_lat, ins_lat, p_stage_cyc, addr; the columns overhead, overhead_sys, overhead_us, overhead_guest_sys, overhead_guest_us, overhead_children, sample, period; with --mem-mode symbol_daddr, symbol_iaddr, dso_daddr, locked, tlb, mem, snoop, dcacheline, phys_daddr, data_page_size, blocked; and the fields of the file's tracepoint events (prev_pid, EVENT.FIELD, EVENT.*, trace_fields, each with /raw)";

/* perf's default keys of --mem-mode. */
static const char mem_sort[] = "local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb,locked,blocked,local_ins_lat,local_p_stage_cyc";

static int add_key(struct report *rp, enum sonde_profile_key k)
{
	for (int i = 0; i < rp->nr_keys; i++)
		if (rp->keys[i] == k)
			return 0; /* perf takes a key once */
	if (rp->nr_keys < RK_MAX)
		rp->keys[rp->nr_keys++] = k;
	return 0;
}

/* An output field among the sort keys: a column, once, where it stands. */
static void add_field(struct report *rp, int kind)
{
	for (int i = 0; i < rp->nr_fields; i++)
		if ((int)rp->fields[i].kind == kind)
			return;
	rp->fields[rp->nr_fields].kind = kind;
	rp->fields[rp->nr_fields++].at = rp->nr_keys;
}

/*
 * -n and --show-total-period: the same columns, right after the overhead
 * ones, Samples before Period, as perf puts them (once, even if --sort
 * names them too).
 */
static void lead_fields(struct report *rp, bool nr_samples, bool total_period)
{
	int kinds[2], n = 0;

	if (nr_samples)
		kinds[n++] = RF_SAMPLE;
	if (total_period)
		kinds[n++] = RF_PERIOD;
	for (int i = n - 1; i >= 0; i--) {
		int f, j;

		for (f = 0; f < rp->nr_fields && (int)rp->fields[f].kind != kinds[i]; f++)
			;
		if (f == rp->nr_fields)
			rp->nr_fields++;
		for (j = f; j > 0; j--)
			rp->fields[j] = rp->fields[j - 1];
		rp->fields[0].kind = kinds[i];
		rp->fields[0].at = 0;
	}
}

/* -p's pattern, checked here: the profile would only say EINVAL. */
static int check_parent(const char *re)
{
	char msg[128];
	regex_t r;
	int err = regcomp(&r, re, REG_EXTENDED | REG_NOSUB);

	if (!err) {
		regfree(&r);
		return 0;
	}
	regerror(err, &r, msg, sizeof(msg));
	fprintf(stderr, "sonde report: -p: invalid regex '%s': %s\n", re, msg);
	return -EINVAL;
}

/*
 * perf 6.1's output fields that --sort may name, in the order of its
 * table: like a key, a name may be cut short (the first that starts with
 * it, in any case, unless a key comes first). The first, "overhead",
 * places the self weight; its column is always there.
 */
static const struct {
	const char *name;
	int kind;
} out_fields[] = {
	{ "overhead", RF_PERIOD },	       { "overhead_sys", RF_SYS },
	{ "overhead_us", RF_USR },	       { "overhead_guest_sys", RF_GUEST_SYS },
	{ "overhead_guest_us", RF_GUEST_USR }, { "overhead_children", RF_CHILDREN },
	{ "sample", RF_SAMPLE },	       { "period", RF_PERIOD },
};

/* The out_fields[] index of @tok, -1 for none. */
static int out_field(const char *tok)
{
	size_t n = strlen(tok);

	for (size_t i = 0; n && i < sizeof(out_fields) / sizeof(out_fields[0]); i++)
		if (!strncasecmp(tok, out_fields[i].name, n))
			return (int)i;
	return -1;
}

static int parse_sort(struct report *rp, const char *user_sort)
{
	char *copy, *tok, *save = NULL;
	int placed = 0; /* weights placed among the keys so far */
	/*
	 * perf's setup_overhead(): the self weight sorts first unless the
	 * text holds "overhead" (a substring test), and the children weight
	 * before it unless it holds "overhead_children"; else where named.
	 */
	bool self_named = user_sort && strstr(user_sort, "overhead");
	bool children_named = user_sort && strstr(user_sort, "overhead_children");

	if (rp->parent && check_parent(rp->parent))
		return -EINVAL;
	copy = strdup(rp->sort);
	if (!copy)
		return -ENOMEM;
	rp->nr_keys = 0;
	rp->nr_fspecs = 0;
	rp->nr_fields = 0;
	rp->self_at = rp->children_at = rp->samples_at = 0;
	memset(rp->mode_at, 0, sizeof(rp->mode_at));
	for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		int k, f;

#if !defined(__powerpc__) && !defined(__powerpc64__)
		/* perf drops the keys of powerpc's pipeline stage cycles elsewhere */
		if (!strcmp(tok, "p_stage_cyc") || !strcmp(tok, "local_p_stage_cyc"))
			continue;
#endif
		k = sonde_profile_key__parse(tok);
		if (k < 0 && (f = out_field(tok)) >= 0) {
			int kind = out_fields[f].kind;
			int *at = kind == RF_SAMPLE ? &rp->samples_at :
				  kind == RF_CHILDREN ? &rp->children_at :
				  /* the period compares as the self weight does */
				  kind == RF_PERIOD ? &rp->self_at : &rp->mode_at[kind - RF_SYS];

			/* the place it sorts at, once; "overhead" is no column */
			if (!*at && (kind != RF_PERIOD || self_named) &&
			    (kind != RF_CHILDREN || children_named))
				*at = rp->nr_keys + ++placed;
			if (f)
				add_field(rp, kind);
			continue;
		}
		if (k >= SONDE_PROFILE_KEY_MEM_FIRST && k <= SONDE_PROFILE_KEY_MEM_LAST &&
		    !rp->mem_mode) {
			fprintf(stderr, "sonde report: --sort: '%s' is a memory key: it needs --mem-mode\n",
				tok);
			free(copy);
			return -EINVAL;
		}
		if (k < 0 && !strchr(tok, ',') && rp->nr_keys < RK_MAX) {
			/* perf's last try: a tracepoint field, checked with the file */
			rp->fspecs[rp->nr_fspecs++] = tok;
			rp->keys[rp->nr_keys++] = SONDE_PROFILE_KEY_FIELD;
			continue;
		}
		if (k < 0) {
			fprintf(stderr, "sonde report: --sort: unknown key '%s' (known: %s)\n",
				tok, known_keys);
			free(copy);
			return -EINVAL;
		}
		add_key(rp, (enum sonde_profile_key)k);
	}
	/* the field names point into it */
	free(rp->sort_copy);
	rp->sort_copy = copy;
	/* Like perf: a sort naming "symbol" gets its (empty) IPC column,
	 * and -p a parent column after it. */
	if (rp->nr_keys && user_sort && strstr(user_sort, "symbol"))
		add_key(rp, SONDE_PROFILE_KEY_IPC_NULL);
	if (rp->nr_keys && rp->parent)
		add_key(rp, SONDE_PROFILE_KEY_PARENT);
	/*
	 * perf appends the output columns the list does not name to its
	 * sort: the self weight (the Overhead or Self column) comes last.
	 */
	if (self_named && !rp->self_at)
		rp->self_at = rp->nr_keys + ++placed;
	rp->nr_placed = placed;
	/* Output fields alone: perf shows one row of every sample. */
	rp->no_keys = !rp->nr_keys;
	return 0;
}

/* perf's --time-quantum: a number of ns, s, ms or us. */
static int time_quantum_cb(const struct option *opt, const char *arg, bool unset)
{
	struct report *rp = opt->value;
	static const struct {
		const char *unit;
		uint64_t ns;
	} units[] = { { "", 1 }, { "s", 1000000000 }, { "ms", 1000000 }, { "us", 1000 }, { "ns", 1 } };
	unsigned long long v;
	char *end;

	if (unset) {
		rp->time_quantum = 0;
		return 0;
	}
	errno = 0;
	v = strtoull(arg, &end, 0);
	while (end != arg && *end == ' ')
		end++;
	for (size_t i = 0; end != arg && !errno && v && i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit)) {
			rp->time_quantum = v * units[i].ns;
			return 0;
		}
	fprintf(stderr, "sonde report: --time-quantum: '%s' is not a time above 0 (N, Ns, Nms, Nus, Nns)\n",
		arg);
	return -EINVAL;
}

static bool has_key(const struct report *rp, enum sonde_profile_key k)
{
	for (int i = 0; i < rp->nr_keys; i++)
		if (rp->keys[i] == k)
			return true;
	return false;
}

int report_parse_graph(struct report *rp, const char *arg)
{
	char *copy, *tok, *save = NULL;

	rp->graph_set = true;
	rp->graph_on = true;
	if (!arg || !*arg)
		return 0;
	copy = strdup(arg);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		double v;

		if (!strcmp(tok, "graph") || !strcmp(tok, "fractal")) {
			rp->graph_fractal = tok[0] == 'f';
			rp->graph_mode = REPORT_GRAPH_TREE;
		} else if (!strcmp(tok, "flat") || !strcmp(tok, "folded")) {
			rp->graph_fractal = false;
			rp->graph_mode = tok[2] == 'a' ? REPORT_GRAPH_FLAT : REPORT_GRAPH_FOLDED;
		}
		else if (!strcmp(tok, "none"))
			rp->graph_on = false;
		else if (!strcmp(tok, "caller") || !strcmp(tok, "callee")) {
			rp->graph_caller = tok[5] == 'r';
			rp->graph_order_set = true;
		}
		else if (!strcmp(tok, "function"))
			; /* perf's default sort key for callchain entries */
		else if (!strcmp(tok, "percent"))
			rp->graph_value = GRAPH_VALUE_PERCENT;
		else if (!strcmp(tok, "period"))
			rp->graph_value = GRAPH_VALUE_PERIOD;
		else if (!strcmp(tok, "count"))
			rp->graph_value = GRAPH_VALUE_COUNT;
		else if ((v = strtod(tok, &end)), end != tok && !*end)
			rp->graph_threshold = v;
		else {
			fprintf(stderr, "sonde report: -g: unknown element '%s' (expected graph|fractal|flat|folded|none, a threshold, caller|callee, percent|period|count)\n",
				tok);
			free(copy);
			return -EINVAL;
		}
	}
	free(copy);
	return 0;
}

/*
 * Like perf, --percent-limit also becomes the call graph threshold; a -g
 * threshold given after it wins, since options apply in order.
 */
static int percent_limit_cb(const struct option *opt, const char *arg, bool unset)
{
	struct report *rp = opt->value;
	char *end;
	double v;

	if (unset) {
		rp->percent_limit = 0;
		return 0;
	}
	v = strtod(arg, &end);
	if (end == arg || *end || v < 0 || v > 100) {
		fprintf(stderr, "sonde report: --percent-limit: '%s' is not a percentage (0-100)\n", arg);
		return -EINVAL;
	}
	rp->percent_limit = v;
	rp->graph_threshold = v;
	return 0;
}

static int graph_cb(const struct option *opt, const char *arg, bool unset)
{
	struct report *rp = opt->value;

	if (unset) {
		rp->graph_set = true;
		rp->graph_on = false;
		return 0;
	}
	/* A -g that ends the command line: perf's default, caller order too. */
	return report_parse_graph(rp, arg ? arg : "graph,0.5,caller,function,percent");
}

static volatile sig_atomic_t stop_reading;

static void on_stop(int sig)
{
	(void)sig;
	stop_reading = 1;
}

/*
 * A pipe is reported at its end, like perf; Ctrl-C (or SIGTERM) ends the
 * reading early and reports what arrived (perf 6.1 prints an empty report
 * then). The handler is one-shot: a second signal kills as usual. No
 * SA_RESTART, so that a read blocked on the pipe is interrupted.
 */
static void stop_on_signals(struct report *rp)
{
	struct sigaction sa = { 0 };

	if (!sonde_perfdata_reader__is_streaming(rp->r))
		return;
	sa.sa_handler = on_stop;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	/* A signal the parent ignores (a background job's SIGINT) stays so. */
	for (int sig = SIGINT; sig; sig = sig == SIGINT ? SIGTERM : 0) {
		struct sigaction old;

		if (!sigaction(sig, NULL, &old) && old.sa_handler != SIG_IGN)
			sigaction(sig, &sa, NULL);
	}
	sonde_perfdata_reader__set_stop_flag(rp->r, &stop_reading);
}

/* The profile the options ask for, filters set. */
/*
 * The --sort name that is no field of the file's tracepoint events (a
 * pipe declares none before its data: perf refuses them there too).
 */
static const char *unknown_field(struct report *rp)
{
	for (int i = 0; i < rp->nr_fspecs; i++) {
		static const enum sonde_profile_key one[] = { SONDE_PROFILE_KEY_FIELD };
		SONDE_OPTS(sonde_profile_opts, po, .keys = one, .nr_keys = 1,
			   .fields = &rp->fspecs[i], .nr_fields = 1);
		struct sonde_profile *p = sonde_profile__new(&po);
		int err = p ? sonde_profile__set_reader(p, rp->r) : 0;

		sonde_profile__free(p);
		if (err == -ENOENT)
			return rp->fspecs[i];
	}
	return rp->nr_fspecs ? rp->fspecs[0] : "";
}

static int new_profile(struct report *rp)
{
	SONDE_OPTS(sonde_profile_opts, po,
		   .keys = rp->no_keys ? NULL : rp->keys, .nr_keys = (size_t)rp->nr_keys,
		   /* perf finds the parent in the callchain whatever -g says */
		   .callchains = rp->children || rp->graph_on || has_key(rp, SONDE_PROFILE_KEY_PARENT),
		   .call_trees = rp->graph_on,
		   .caller_order = rp->graph_caller,
		   /* 0 keeps the sample's own frame (0 is the default to the profile) */
		   .max_stack = !rp->max_stack ? 1
				: rp->max_stack < SONDE_PROFILE_MAX_FRAMES ? rp->max_stack
									   : SONDE_PROFILE_MAX_FRAMES,
		   .no_inline = !rp->inline_frames,
		   .cache = rp->cache,
		   .kallsyms = rp->kallsyms, .vmlinux = rp->vmlinux,
		   .mem_mode = rp->mem_mode, .parent = rp->parent,
		   .time_quantum = rp->time_quantum,
		   .self_at = rp->self_at, .children_at = rp->children_at,
		   .samples_at = rp->samples_at, .sys_at = rp->mode_at[0], .usr_at = rp->mode_at[1],
		   .guest_sys_at = rp->mode_at[2], .guest_usr_at = rp->mode_at[3],
		   .no_keys = rp->no_keys,
		   .fields = rp->nr_fspecs ? rp->fspecs : NULL, .nr_fields = (size_t)rp->nr_fspecs);
	int err;

	if (rp->branch)
		report_branch_opts(rp->branch, &po);
	po.branch_history = rp->branch_history;
	err = prof_load_new_profile(&rp->ld, &po);
	if (err)
		return err;
	rp->prof = rp->ld.p;
	/* the fields are matched against the events now, as perf does */
	if (rp->nr_fspecs && sonde_profile__set_reader(rp->prof, rp->r) == -ENOENT) {
		fprintf(stderr, "sonde report: --sort: unknown key '%s': %s has no such tracepoint field (known: %s)\n",
			unknown_field(rp), rp->input, known_keys);
		return -ENOENT;
	}
	return 0;
}

static void free_report(struct report *rp)
{
	free(rp->sort_copy);
	rp->sort_copy = NULL;
	prof_load_free(&rp->ld);
	rp->r = NULL;
	rp->prof = NULL;
	report_branch_free(rp->branch);
	rp->branch = NULL;
}

static int branch_stack_cb(const struct option *opt, const char *arg, bool unset)
{
	struct report *rp = opt->value;

	(void)arg;
	rp->branch_mode = unset ? 0 : 1;
	return 0;
}

/*
 * perf's branch mode: asked with -b, or the default for a file with branch
 * stacks (not for --json, which has no such rows, nor for a --sort of the
 * usual keys).
 */
static int pick_branch_mode(struct report *rp, const char *user_sort)
{
	bool have = report_branch_available(rp->r);

	if (rp->branch_mode == 1 && !have) {
		fprintf(stderr, "sonde report: --branch-stack: %s has no branch stacks (record with -b or -j)\n",
			rp->input);
		return -1;
	}
	/* A --sort of the usual keys asks for the usual table. */
	if (rp->branch_mode == -1)
		rp->branch_mode = have && !rp->json && (!user_sort || report_branch_sort_named(user_sort));
	if (!rp->branch_mode) {
		if (report_branch_sort_named(user_sort)) {
			fprintf(stderr, "sonde report: --sort %s: branch keys need --branch-stack and a file with branch stacks\n",
				user_sort);
			return -1;
		}
		return 0;
	}
	if (rp->json) {
		fprintf(stderr, "sonde report: --branch-stack has no --json output\n");
		return -1;
	}
	if (rp->ld.f.nr_dsos || rp->ld.f.nr_syms) {
		fprintf(stderr, "sonde report: --dsos and --symbols do not select branches; use them without --branch-stack\n");
		return -1;
	}
	rp->branch = report_branch_new(user_sort);
	return rp->branch ? 0 : -1;
}

/* Like perf, --mem-mode wants samples of memory accesses (a pipe says later). */
static bool mem_data(struct report *rp)
{
	if (sonde_perfdata_reader__is_pipe(rp->r))
		return true;
	for (int i = 0; i < sonde_perfdata_reader__nr_attrs(rp->r); i++)
		if (sonde_perfdata_reader__attr(rp->r, i)->sample_type & SONDE_PERF_SAMPLE_DATA_SRC)
			return true;
	return false;
}

/*
 * perf refuses a parent column, or a call graph asked for with -g, that
 * a file without callchains cannot fill, after the lines it printed so
 * far (a pipe is not checked: its attrs come later). perf exits 0 there;
 * sonde fails, as for the other things a file cannot give.
 */
static bool callchains_missing(struct report *rp)
{
	bool parent = has_key(rp, SONDE_PROFILE_KEY_PARENT);

	/* --branch-history draws its graphs from branch stacks (checked apart). */
	if (sonde_perfdata_reader__is_pipe(rp->r) || rp->branch_history ||
	    (!parent && !(rp->graph_set && rp->graph_on)))
		return false;
	for (int i = 0; i < sonde_perfdata_reader__nr_attrs(rp->r); i++)
		if (sonde_perfdata_reader__attr(rp->r, i)->sample_type & SONDE_PERF_SAMPLE_CALLCHAIN)
			return false;
	if (!rp->quiet && !rp->stats && !rp->json) {
		ob_init_fd(&rp->out, 1);
		if (rp->header)
			report_print_header(rp);
		else
			ob_puts(&rp->out, "# To display the perf.data header info, please use --header/--header-only options.\n#\n");
		ob_flush(&rp->out);
		ob_free(&rp->out);
	}
	if (parent)
		fprintf(stderr, "Error:\nSelected --sort parent, but no callchain data. Did you call 'perf record' without -g?\n");
	else
		fprintf(stderr, "Error:\nSelected -g or --branch-history.\nBut no callchain or branch data.\nDid you call 'perf record' without -g or -b?\n");
	return true;
}

int cmd_report(int argc, const char **argv)
{
	struct report rp = {
		.input = "perf.data",
		.graph_threshold = 0.5,
		.inline_frames = true,
		.max_stack = SONDE_PERF_MAX_STACK_DEPTH,
		.cache = true,
		.branch_mode = -1,
	};
	bool no_children = false, nr_samples = false, total_period = false, inverted = false;
	const char *user_sort;
	const struct option opts[] = {
		OPT_STRING('i', "input", &rp.input, "file", "input file name (default perf.data, - for stdin)"),
		OPT_STRING('s', "sort", &rp.sort, "keys", "sort by keys: comm, pid, tid, dso, sym, cpu, srcline (default comm,dso,sym)"),
		OPT_BOOLEAN(0, "children", &rp.children_flag, "accumulate callchains of children into parent entries (default with callchains)"),
		OPT_BOOLEAN(0, "no-children", &no_children, "do not accumulate children: one Overhead column"),
		OPT_BOOLEAN('n', "show-nr-samples", &nr_samples, "show a Samples column"),
		OPT_BOOLEAN(0, "show-total-period", &total_period, "show a Period column"),
		OPT_CALLBACK_LASTARG_DEFAULT('g', "call-graph", &rp, "print_type,threshold,order,value",
			     "graph|fractal|flat|folded|none, threshold percent (0.5), caller|callee, percent|period|count", graph_cb),
		OPT_BOOLEAN('G', "inverted", &inverted, "caller order: the same as -g caller"),
		OPT_STRING(0, "percentage", &rp.percentage, "relative|absolute",
			   "percentages of filtered entries relative to what is shown, or to everything (default)"),
		OPT_CALLBACK(0, "percent-limit", &rp, "pct",
			     "hide entries (and call graph branches) below this percentage", percent_limit_cb),
		OPT_STRING('c', "comms", &rp.ld.comms, "list", "only these commands (comma separated)"),
		OPT_STRING(0, "comm", &rp.ld.comms, "list", "same as --comms"),
		OPT_STRING(0, "pid", &rp.ld.pids, "list", "only these process ids"),
		OPT_STRING(0, "tid", &rp.ld.tids, "list", "only these thread ids"),
		OPT_STRING('d', "dsos", &rp.ld.dsos, "list", "only these shared objects"),
		OPT_STRING(0, "dso", &rp.ld.dsos, "list", "same as --dsos"),
		OPT_STRING('S', "symbols", &rp.ld.syms, "list", "only these symbols"),
		OPT_STRING(0, "sym", &rp.ld.syms, "list", "same as --symbols"),
		OPT_STRING('C', "cpu", &rp.ld.cpus, "list", "only samples on these CPUs (0-3,5)"),
		OPT_STRING(0, "time", &rp.ld.time, "range", "time slice: start,end in seconds, or percent slices 10%-20%,..."),
		OPT_BOOLEAN(0, "header", &rp.header, "print the perf.data header before the report"),
		OPT_BOOLEAN(0, "header-only", &rp.header_only, "print only the perf.data header"),
		OPT_BOOLEAN(0, "buildid-list", &rp.buildid_list, "print the file's build ids as perf buildid-list does, and exit"),
		OPT_BOOLEAN('I', "show-info", &rp.show_info, "with --header: print the topology, cache and memory sections too"),
		OPT_BOOLEAN(0, "stats", &rp.stats, "print record counts per type only"),
		OPT_BOOLEAN(0, "json", &rp.json, "JSON output"),
		OPT_BOOLEAN(0, "stdio", &rp.stdio, "text output (the default)"),
		OPT_BOOLEAN(0, "tui", &rp.tui, "no TUI in sonde: says so, prints the --stdio text"),
		OPT_BOOLEAN('f', "force", &rp.force, "read a file owned by another user (not root)"),
		OPT_BOOLEAN('q', "quiet", &rp.quiet, "no progress bar or warnings"),
		OPT_BOOLEAN(0, "cache", &rp.cache, "keep kernel symbols and DWARF answers in ~/.cache/sonde between runs (default; --no-cache)"),
		OPT_BOOLEAN(0, "kallsyms-cache", &rp.cache, "same as --cache"),
		OPT_STRING(0, "kallsyms", &rp.kallsyms, "file",
			   "kernel symbols from this kallsyms file (the recorded kernel's)"),
		OPT_STRING('k', "vmlinux", &rp.vmlinux, "file",
			   "kernel symbols from this vmlinux (its build id must be the recorded one)"),
		OPT_INTEGER(0, "max-stack", &rp.max_stack, "n", "callchain depth to use (default 127)"),
		OPT_BOOLEAN(0, "inline", &rp.inline_frames, "show functions inlined at DWARF-unwound addresses (default; --no-inline)"),
		OPT_CALLBACK_NOOPT('b', "branch-stack", &rp,
				   "branches of the samples' branch stacks by source and target (default for files that have them)",
				   branch_stack_cb),
		OPT_BOOLEAN(0, "mem-mode", &rp.mem_mode,
			    "memory accesses: samples weigh their weight, the memory keys may be used (sort local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb,locked)"),
		OPT_STRING('p', "parent", &rp.parent, "regex",
			   "the parent key's pattern (default ^sys_|^do_page_fault); adds the parent key"),
		OPT_CALLBACK(0, "time-quantum", &rp, "time",
			     "the time key's step: N ns, or Ns, Nms, Nus (default 100ms)", time_quantum_cb),
		OPT_BOOLEAN(0, "branch-history", &rp.branch_history,
			    "the samples' branches as the start of their call graphs, with their flags (sort srcline,symbol,dso)"),
		OPT_END(),
	};
	const char *const usage[] = { "sonde report [<options>]", NULL };
	int n, err, ret = 0;
	const char *open_error = NULL;

	n = parse_options(argc, argv, opts, usage, 0);
	if (n > 0) {
		fprintf(stderr, "sonde report: unexpected argument '%s'\n", argv[0]);
		return 129;
	}
	rp.no_children = no_children;
	/* perf applies -G after -g: it wins over a -g callee. */
	if (inverted) {
		rp.graph_caller = true;
		rp.graph_order_set = true;
	}
	/* Not silently: the user asked for something sonde does not have. */
	if (rp.tui && !rp.quiet && !rp.json)
		fprintf(stderr, "sonde report: --tui: sonde has no text user interface; printing the --stdio output\n");
	if (rp.percentage && strcmp(rp.percentage, "relative") && strcmp(rp.percentage, "absolute")) {
		fprintf(stderr, "sonde report: --percentage: expected relative or absolute, got '%s'\n",
			rp.percentage);
		return 129;
	}
	rp.relative = rp.percentage && !strcmp(rp.percentage, "relative");
	if (rp.max_stack < 0) {
		fprintf(stderr, "sonde report: --max-stack: expected 0 or more frames, got %d\n",
			rp.max_stack);
		return 129;
	}
	if (rp.branch_history) {
		/* perf: branch history is no branch mode, and sorts by source line */
		rp.branch_mode = 0;
		if (!rp.sort)
			rp.sort = "srcline,symbol,dso";
	}
	if (rp.mem_mode && (rp.branch_mode == 1 || rp.branch_history)) {
		fprintf(stderr, "sonde report: --mem-mode: branch and mem mode do not go together\n");
		return 129;
	}
	if (rp.sort && strstr(rp.sort, "ipc")) {
		fprintf(stderr, "sonde report: --sort: perf's ipc keys are not sort keys of their own: a sort naming \"symbol\" gets the IPC column\n");
		return 129;
	}
	if (rp.mem_mode) {
		rp.branch_mode = 0;
		if (!rp.sort)
			rp.sort = mem_sort;
	}
	user_sort = rp.sort;
	/* Branch keys are checked once the file says which mode it is. */
	if (!rp.sort || rp.branch_mode == 1 || report_branch_sort_named(rp.sort))
		rp.sort = "comm,dso,sym";
	/* perf's header names the sort it took, the IPC column included */
	if (rp.mem_mode && user_sort != mem_sort && strstr(user_sort, "symbol"))
		snprintf(rp.mem_sort, sizeof(rp.mem_sort), "%s,ipc_null", user_sort);
	else
		snprintf(rp.mem_sort, sizeof(rp.mem_sort), "%s", rp.sort);
	if (parse_sort(&rp, user_sort == mem_sort ? NULL : user_sort) ||
	    prof_load_parse(&rp.ld, "sonde report")) {
		free_report(&rp);
		return 129;
	}
	lead_fields(&rp, nr_samples, total_period);
	/*
	 * -n's column sorts after everything else when --sort does not name
	 * it (perf_hpp__append_sort_keys() appends every output field the
	 * sort lacks), whether or not the list places the weights.
	 */
	if (nr_samples && !rp.samples_at)
		rp.samples_at = rp.nr_keys + rp.nr_placed + 1;
	/*
	 * Like perf: a key filtered to one value is named above the table
	 * and its column hidden, unless that would hide every column.
	 */
	rp.one_value[RK_COMM] = rp.ld.f.nr_comms == 1 && has_key(&rp, RK_COMM);
	rp.one_value[RK_DSO] = rp.ld.f.nr_dsos == 1 && has_key(&rp, RK_DSO);
	rp.one_value[RK_SYM] = rp.ld.f.nr_syms == 1 && has_key(&rp, RK_SYM);
	for (int i = 0; i < rp.nr_keys; i++) {
		if (!rp.one_value[rp.keys[i]]) {
			memcpy(rp.elide, rp.one_value, sizeof(rp.elide));
			break;
		}
	}
	rp.ld.check_owner = !rp.force;
	rp.ld.quiet = rp.quiet;
	if (prof_load_open(&rp.ld, "sonde report", rp.input)) {
		free_report(&rp);
		return 1;
	}
	rp.r = rp.ld.r;
	if (sonde_perfdata_reader__error(rp.r) && !rp.quiet) {
		open_error = sonde_perfdata_reader__error(rp.r);
		fprintf(stderr, "sonde report: warning: %s: %s\n", rp.input, open_error);
	}
	if (rp.header_only || rp.buildid_list) {
		struct sonde_perfdata_record rec;

		/*
		 * A pipe's features are records at its start, its build ids
		 * records at its end: read up to them.
		 */
		if (sonde_perfdata_reader__is_pipe(rp.r))
			while (sonde_perfdata_reader__next(rp.r, &rec) > 0 && rp.buildid_list)
				;
		ob_init_fd(&rp.out, 1);
		if (rp.buildid_list)
			report_print_buildids(&rp);
		else
			report_print_header(&rp);
		ob_flush(&rp.out);
		ob_free(&rp.out);
		free_report(&rp);
		return 0;
	}
	if (prof_load_resolve(&rp.ld, "sonde report", rp.input)) {
		free_report(&rp);
		return 1;
	}
	if (pick_branch_mode(&rp, user_sort) || report_branch_history_check(&rp)) {
		free_report(&rp);
		return 1;
	}
	if (rp.mem_mode && !mem_data(&rp)) {
		fprintf(stderr, "sonde report: --mem-mode: %s has no memory data (PERF_SAMPLE_DATA_SRC): record with -d\n",
			rp.input);
		free_report(&rp);
		return 1;
	}
	if (callchains_missing(&rp)) {
		free_report(&rp);
		return 1;
	}
	/* Children mode is the default when the file has callchains. */
	for (int i = 0; i < sonde_perfdata_reader__nr_attrs(rp.r); i++)
		if (sonde_perfdata_reader__attr(rp.r, i)->sample_type & SONDE_PERF_SAMPLE_CALLCHAIN)
			rp.have_callchains = true;
	if (sonde_perfdata_reader__is_pipe(rp.r))
		rp.have_callchains = true; /* attrs arrive later; decided again below */
	rp.children = rp.have_callchains && !rp.no_children;
	/* perf 6.1 silently drops --children when no event has callchains */
	if (rp.children_flag && rp.have_callchains)
		rp.children = true;
	if (rp.mem_mode) /* perf's memory samples are no callchain entries */
		rp.children = false;
	if (!rp.graph_set)
		rp.graph_on = true;
	/* Like perf: caller order in children mode unless -g names one. */
	if (rp.children && !rp.graph_order_set)
		rp.graph_caller = true;
	/* perf decides that before it knows the file has no callchains. */
	if (rp.branch_history && !rp.no_children && !rp.graph_order_set)
		rp.graph_caller = true;
	if (rp.json)
		rp.graph_on = false;
	err = new_profile(&rp);
	if (err == -ENOENT && rp.nr_fspecs) {
		free_report(&rp);
		return 129; /* as for the other unknown keys */
	}
	if (err) {
		char buf[128];

		fprintf(stderr, "sonde report: cannot make the profile: %s\n",
			sonde_strerror(-err, buf, sizeof(buf)));
		free_report(&rp);
		return 1;
	}
	rp.have_callchains = false;
	stop_on_signals(&rp);
	err = prof_load_read(&rp.ld, NULL, NULL);
	if (stop_reading && !rp.quiet)
		fprintf(stderr, "sonde report: %s: interrupted: reporting the %llu bytes read so far\n",
			rp.input, (unsigned long long)sonde_perfdata_reader__progress(rp.r));
	rp.have_callchains = sonde_profile__has_callchains(rp.prof);
	/*
	 * perf 6.1 decides on children mode before it reads a pipe's attrs:
	 * with no event known yet it finds no callchains and cancels the
	 * Children column, even under --children. The call order it chose
	 * for children mode (caller) stays.
	 */
	if (sonde_perfdata_reader__is_pipe(rp.r))
		rp.children = false;
	if (err < 0) {
		rp.load_error = sonde_perfdata_reader__error(rp.r);
		/* A truncation found at open time was already warned about. */
		if (rp.load_error && open_error && !strcmp(rp.load_error, open_error))
			fprintf(stderr, "sonde report: %s: reporting the records before the problem\n",
				rp.input);
		else
			fprintf(stderr, "sonde report: %s: %s; reporting the records before it\n",
				rp.input, rp.load_error ? rp.load_error : "read error");
		ret = 1;
	}
	sonde_profile__set_children(rp.prof, rp.children);
	{
		uint64_t chunks, lost;

		sonde_profile__lost(rp.prof, &chunks, &lost, NULL);
		/* perf says it too: the ring overflowed while recording. */
		if (chunks && !rp.quiet && !rp.stats)
			fprintf(stderr, "sonde report: warning: %s: %" PRIu64 " LOST record%s: %" PRIu64
				" records were dropped while recording (ring buffer full: record with a larger -m or a lower -F/-c rate)\n",
				rp.input, chunks, chunks == 1 ? "" : "s", lost);
		/* perf's --stats tool does not count them: no warning there. */
		if (!rp.quiet && !rp.stats)
			profile_warn_recording(rp.prof);
	}
	ob_init_fd(&rp.out, 1);
	if (rp.stats)
		report_print_stats(&rp);
	else if (rp.json)
		report_print_json(&rp);
	else {
		if (rp.header)
			report_print_header(&rp);
		if (rp.branch)
			report_branch_print(rp.branch, &rp);
		else
			report_print(&rp);
	}
	ob_flush(&rp.out);
	ob_free(&rp.out);
	free_report(&rp);
	return ret;
}
