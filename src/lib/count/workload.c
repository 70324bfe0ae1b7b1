// SPDX-License-Identifier: LGPL-2.1-only
/*
 * The child command of an event list: forked early so its events can be
 * opened on its pid, held on a pipe until the caller starts it, then
 * exec'd. Counting starts at exec (enable_on_exec), so the fork and wait
 * are not counted. The child's stdio is not touched.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "count_priv.h"
#include "core_priv.h"

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

pid_t sonde_evlist__prepare_workload(struct sonde_evlist *l,
				     char *const argv[])
{
	return sonde_evlist__prepare_workload_opts(l, argv, NULL);
}

/* In the child, before exec: what the caller asked to hand over clean. */
static void child_setup(const struct sonde_workload_opts *opts)
{
	if (OPTS_GET(opts, default_signals, false)) {
		/* exec keeps ignored signals ignored; handlers it resets. */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGXFSZ, SIG_DFL);
	}
	if (OPTS_GET(opts, stdout_to_stderr, false))
		dup2(STDERR_FILENO, STDOUT_FILENO);
}

pid_t sonde_evlist__prepare_workload_opts(struct sonde_evlist *l,
					  char *const argv[],
					  const struct sonde_workload_opts *opts)
{
	int go[2], err[2];
	pid_t pid;

	if (!l || !argv || !argv[0] || !OPTS_VALID(opts, sonde_workload_opts))
		return lib_err(EINVAL);
	if (l->open || l->child > 0)
		return lib_err(EBUSY);
	if (pipe2(go, O_CLOEXEC))
		return lib_err(errno);
	if (pipe2(err, O_CLOEXEC)) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		return lib_err(e);
	}
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(go[0]); close(go[1]); close(err[0]); close(err[1]);
		return lib_err(e);
	}
	if (pid == 0) {
		char c;
		int e;

		close(go[1]);
		close(err[0]);
		child_setup(opts);
		/* EOF without a byte: the parent gave up on us. */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	l->go_fd = go[1];
	l->err_fd = err[0];
	l->child = pid;
	l->child_started = false;
	l->child_reaped = false;
	/*
	 * With the default target (the caller) the child becomes the target;
	 * an explicit target (CPUs, a pid, a cgroup: `stat -a -- cmd`) stays,
	 * and the caller enables the list around the command itself.
	 */
	if (l->threads->nr == 1 && l->threads->pid[0] == 0 && l->cgroup_fd < 0) {
		struct sonde_thread_map *t = sonde_thread_map__new_tid(pid);
		struct sonde_cpu_map *c = sonde_cpu_map__new_any();

		if (!t || !c) {
			sonde_thread_map__free(t);
			sonde_cpu_map__free(c);
			workload_cleanup(l);
			return lib_err(ENOMEM);
		}
		sonde_evlist__set_maps(l, c, t);
	}
	return pid;
}

int sonde_evlist__start_workload(struct sonde_evlist *l)
{
	ssize_t n;
	int e = 0;

	if (!l || l->child <= 0 || l->child_started)
		return lib_err(EINVAL);
	l->child_started = true;
	if (write(l->go_fd, "g", 1) != 1) {
		e = errno;
		close_fd(&l->go_fd);
		return lib_err(e);
	}
	close_fd(&l->go_fd);
	/* exec closes the CLOEXEC pipe: EOF means it worked. */
	do {
		n = read(l->err_fd, &e, sizeof(e));
	} while (n < 0 && errno == EINTR);
	close_fd(&l->err_fd);
	if (n == sizeof(e) && e) {
		pr_debug("exec failed: %d\n", e);
		return lib_err(e);
	}
	return 0;
}

int sonde_evlist__wait_workload(struct sonde_evlist *l, int *status)
{
	int st = 0;
	pid_t r;

	if (!l || l->child <= 0 || l->child_reaped)
		return lib_err(ECHILD);
	do {
		r = waitpid(l->child, &st, 0);
	} while (r < 0 && errno == EINTR);
	if (r < 0)
		return lib_err(errno);
	l->child_reaped = true;
	if (status)
		*status = st;
	return 0;
}

void workload_cleanup(struct sonde_evlist *l)
{
	if (l->child > 0 && !l->child_reaped) {
		/* Never started: closing the go pipe makes it exit. */
		if (!l->child_started) {
			close_fd(&l->go_fd);
			waitpid(l->child, NULL, 0);
		}
		/* Started: it is the caller's to wait for; do not kill it. */
	}
	close_fd(&l->go_fd);
	close_fd(&l->err_fd);
	l->child = 0;
}
