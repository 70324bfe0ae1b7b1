// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sonde export: a perf.data file's profile in another tool's format
 * (sonde/export.h). The output file appears complete or not at all: it is
 * written beside its final name (a symlink's target) and renamed into
 * place on success. An output that is not a file (/dev/null, a FIFO, a
 * terminal) is written in place: a rename would replace it by a file.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "builtin.h"
#include "options.h"
#include "profile_load.h"
#include "sonde/sonde.h"

static int write_fd(void *ctx, const void *buf, size_t len)
{
	int fd = *(int *)ctx;
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The profile's event named @name ("cycles" also finds "cycles:u"); -1 if none. */
static int find_event(struct sonde_profile *p, const char *name)
{
	size_t len = strlen(name);

	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < sonde_profile__nr_events(p); i++) {
			const char *e = sonde_profile__event_name(p, i);

			if (!e)
				continue;
			if (!strcmp(e, name) || (pass && !strncmp(e, name, len) && e[len] == ':'))
				return i;
		}
	return -1;
}

/*
 * When the recording ran: its sample times give the duration, and the
 * file was last written when it ended (a perf.data file carries no wall
 * clock of its own in the features sonde reads).
 */
static void recording_time(const struct prof_load *pl, const char *input,
			   struct sonde_export_opts *o)
{
	struct stat sb;

	if (pl->last_ns > pl->first_ns)
		o->duration_ns = pl->last_ns - pl->first_ns;
	if (strcmp(input, "-") && !stat(input, &sb)) {
		uint64_t end = (uint64_t)sb.st_mtim.tv_sec * 1000000000u +
			       (uint64_t)sb.st_mtim.tv_nsec;

		o->time_ns = end > o->duration_ns ? end - o->duration_ns : end;
	}
}

/* Writes the export to @path itself: a device, FIFO or socket. */
static int export_in_place(struct sonde_profile *p, enum sonde_export_format fmt,
			   const char *path, const struct sonde_export_opts *o)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err;

	if (fd < 0)
		return -errno;
	err = sonde_profile__export(p, fmt, write_fd, &fd, o);
	if (close(fd) && !err)
		err = -errno;
	return err;
}

static int export_to(struct sonde_profile *p, enum sonde_export_format fmt, const char *output,
		     const struct sonde_export_opts *o)
{
	char tmp[PATH_MAX], target[PATH_MAX];
	struct stat sb;
	int fd, err;

	if (!strcmp(output, "-")) {
		fd = 1;
		return sonde_profile__export(p, fmt, write_fd, &fd, o);
	}
	if (!stat(output, &sb) && !S_ISREG(sb.st_mode))
		return export_in_place(p, fmt, output, o);
	/* A symlink stays one: the file it names is replaced. */
	if (!lstat(output, &sb) && S_ISLNK(sb.st_mode) && realpath(output, target))
		output = target;
	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", output) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	err = sonde_profile__export(p, fmt, write_fd, &fd, o);
	if (!err) { /* mkstemp's 0600 is not what a new file gets: 0666 less the umask */
		mode_t mask = umask(0);

		umask(mask);
		if (fchmod(fd, 0666 & ~mask))
			err = -errno;
	}
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, output))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

int cmd_export(int argc, const char **argv)
{
	struct prof_load pl = { 0 };
	const char *format = NULL, *input = "perf.data", *output = NULL, *event = NULL;
	const char *title = NULL;
	bool force = false;
	const struct option opts[] = {
		OPT_STRING(0, "format", &format, "format",
			   "folded, svg, html, pprof, speedscope or firefox"),
		OPT_STRING('i', "input", &input, "file", "input file name (default perf.data; - for a pipe)"),
		OPT_STRING('o', "output", &output, "file", "output file (default from the format, e.g. perf.folded; - for stdout)"),
		OPT_STRING(0, "event", &event, "name", "the event to export when the file has several (default the first)"),
		OPT_STRING(0, "title", &title, "text", "title of the flame graph or profile (default the event)"),
		OPT_BOOLEAN('f', "force", &force, "read a file owned by another user (not root)"),
		PROF_LOAD_OPTIONS(&pl),
		OPT_END(),
	};
	const char *const usage[] = { "sonde export --format <format> [<options>]", NULL };
	SONDE_OPTS(sonde_export_opts, eo, .title = NULL);
	char buf[128];
	int fmt, n, ret;

	n = parse_options(argc, argv, opts, usage, 0);
	if (n > 0) {
		fprintf(stderr, "sonde export: unexpected argument '%s'\n", argv[0]);
		return 129;
	}
	if (!format) {
		fprintf(stderr, "sonde export: --format is required (folded, svg, html, pprof, speedscope or firefox)\n");
		return 129;
	}
	fmt = sonde_export_format__parse(format);
	if (fmt < 0) {
		fprintf(stderr, "sonde export: --format '%s': expected folded, svg, html, pprof, speedscope or firefox\n",
			format);
		return 129;
	}
	if (!output)
		output = sonde_export_format__file_name(fmt);
	/* The views over time need each sample's time. */
	pl.timeline = fmt == SONDE_EXPORT_FIREFOX || fmt == SONDE_EXPORT_HTML;
	pl.check_owner = !force;
	ret = prof_load(&pl, "sonde export", input);
	if (ret)
		goto out;
	if (event) {
		eo.event = find_event(pl.p, event);
		if (eo.event < 0) {
			fprintf(stderr, "sonde export: %s has no event '%s'\n", input, event);
			ret = 1;
			goto out;
		}
	} else if (sonde_profile__nr_events(pl.p) == 0) {
		fprintf(stderr, "sonde export: %s has no events\n", input);
		ret = 1;
		goto out;
	}
	eo.title = title;
	recording_time(&pl, input, &eo);
	ret = export_to(pl.p, fmt, output, &eo);
	if (ret == -EOPNOTSUPP) {
		fprintf(stderr, "sonde export: this build of sonde cannot write %s yet\n", format);
		ret = 1;
	} else if (ret) {
		fprintf(stderr, "sonde export: %s: %s\n", output, sonde_strerror(-ret, buf, sizeof(buf)));
		ret = 1;
	}
out:
	prof_load_free(&pl);
	return ret;
}
