// SPDX-License-Identifier: LGPL-2.1-only
/* sonde record: the targets — CPU lists, threads of -p/-t, the workload. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "record_cli.h"
#include "sonde/cpumap.h"

/* "0-3,5" -> sorted list; returns count or -1. */
int rec_cpu_list(const char *list, int **out, char *err, size_t errlen)
{
	struct sonde_cpu_map *map = sonde_cpu_map__parse(list, err, errlen);
	int n;

	if (!map)
		return -errno;
	n = sonde_cpu_map__nr(map);
	*out = calloc((size_t)(n > 0 ? n : 1), sizeof(int));
	for (int i = 0; *out && i < n; i++)
		(*out)[i] = sonde_cpu_map__cpu(map, i);
	sonde_cpu_map__free(map);
	return *out ? n : -ENOMEM;
}

int rec_add_tid(struct rec_state *s, pid_t tid)
{
	pid_t *n = realloc(s->tids, (s->nr_tids + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	s->tids = n;
	n[s->nr_tids++] = tid;
	return 0;
}

/* The threads of each PID in a comma list, from /proc/PID/task. */
int rec_add_pid_threads(struct rec_state *s, const char *list)
{
	char *copy = strdup(list), *save = NULL, *tok;
	int err = 0;

	for (tok = strtok_r(copy, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		char path[64], *end;
		long pid = strtol(tok, &end, 10);
		struct dirent **names;
		int n;

		if (*end || pid <= 0) {
			fprintf(stderr, "sonde record: -p wants process ids, got '%s'\n", tok);
			err = -EINVAL;
			break;
		}
		snprintf(path, sizeof(path), "/proc/%ld/task", pid);
		n = scandir(path, &names, NULL, alphasort);
		if (n < 0) {
			fprintf(stderr, "sonde record: no such process %ld\n", pid);
			err = -ESRCH;
			break;
		}
		for (int i = 0; i < n; i++) {
			if (names[i]->d_name[0] != '.' && !err)
				err = rec_add_tid(s, (pid_t)atol(names[i]->d_name));
			free(names[i]);
		}
		free(names);
	}
	free(copy);
	return err;
}

/* /proc/TID resolves for any thread, listed in /proc or not. */
static bool tid_exists(long tid)
{
	char path[32];

	snprintf(path, sizeof(path), "/proc/%ld", tid);
	return !access(path, F_OK);
}

int rec_add_tid_list(struct rec_state *s, const char *list)
{
	char *copy = strdup(list), *save = NULL, *tok;
	int err = 0;

	for (tok = strtok_r(copy, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		char *end;
		long tid = strtol(tok, &end, 10);

		if (*end || tid <= 0) {
			fprintf(stderr, "sonde record: -t wants thread ids, got '%s'\n", tok);
			err = -EINVAL;
		} else if (!tid_exists(tid)) {
			fprintf(stderr, "sonde record: no such thread %ld\n", tid);
			err = -ESRCH;
		} else {
			err = rec_add_tid(s, (pid_t)tid);
		}
	}
	free(copy);
	return err;
}
