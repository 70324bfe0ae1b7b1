/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * A fake sysfs + tracefs tree under a temp dir, so PMU formats, aliases and
 * tracepoints are tested deterministically (machine-independent).
 */
#ifndef SONDE_TEST_FAKE_TREE_H
#define SONDE_TEST_FAKE_TREE_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char fake_root[256];
static char fake_sysfs[300];
static char fake_tracefs[300];

/* Writes @text to fake_root/@rel, creating the directories on the way. */
static void fake_put(const char *rel, const char *text)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", fake_root, rel);
	for (char *s = path + strlen(fake_root) + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(path, 0755);
			*s = '/';
		}
	if (text) {
		FILE *f = fopen(path, "w");

		if (!f)
			abort();
		fputs(text, f);
		fclose(f);
	} else {
		mkdir(path, 0755);
	}
}

static const char fake_switch_format[] =
	"name: sched_switch\n"
	"ID: 372\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] name;\toffset:28;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"prev_comm=%s prev_pid=%d\", REC->prev_comm, REC->prev_pid\n";

static void fake_tree_build(void)
{
	snprintf(fake_root, sizeof(fake_root), "/tmp/sonde-fake-XXXXXX");
	if (!mkdtemp(fake_root))
		abort();
	snprintf(fake_sysfs, sizeof(fake_sysfs), "%s/sys", fake_root);
	snprintf(fake_tracefs, sizeof(fake_tracefs), "%s/tracing", fake_root);
	/* A core PMU with Intel-like formats in all four config words. */
	fake_put("sys/bus/event_source/devices/cpu/type", "4\n");
	fake_put("sys/bus/event_source/devices/cpu/cpumask", "0-1\n");
	fake_put("sys/bus/event_source/devices/cpu/format/event", "config:0-7\n");
	fake_put("sys/bus/event_source/devices/cpu/format/umask", "config:8-15\n");
	fake_put("sys/bus/event_source/devices/cpu/format/edge", "config:18\n");
	fake_put("sys/bus/event_source/devices/cpu/format/cmask", "config:24-31\n");
	fake_put("sys/bus/event_source/devices/cpu/format/split", "config:32-33,40-41\n");
	fake_put("sys/bus/event_source/devices/cpu/format/ldlat", "config1:0-15\n");
	fake_put("sys/bus/event_source/devices/cpu/format/frontend", "config2:0-23\n");
	fake_put("sys/bus/event_source/devices/cpu/format/extra", "config3:0-3\n");
	fake_put("sys/bus/event_source/devices/cpu/format/broken", "config:9-1\n");
	fake_put("sys/bus/event_source/devices/cpu/events/mem-loads",
		 "event=0xcd,umask=0x1,ldlat=3\n");
	fake_put("sys/bus/event_source/devices/cpu/events/mem-loads.scale", "0.5\n");
	fake_put("sys/bus/event_source/devices/cpu/events/mem-loads.unit", "MiB\n");
	fake_put("sys/bus/event_source/devices/cpu/events/Cycles-T", "event=0x3c,edge\n");
	fake_put("sys/bus/event_source/devices/cpu/events/bad-alias", "event=,\n");
	fake_put("sys/bus/event_source/devices/uncore_imc_0/type", "20\n");
	fake_put("sys/bus/event_source/devices/uncore_imc_0/cpumask", "0\n");
	fake_put("sys/bus/event_source/devices/uncore_imc_0/format/event", "config:0-7\n");
	fake_put("sys/bus/event_source/devices/uncore_imc_0/events/mem-loads",
		 "event=0x04\n");
	fake_put("sys/bus/event_source/devices/software/type", "1\n");
	fake_put("sys/bus/event_source/devices/notype/format/event", "config:0-7\n");
	fake_put("sys/bus/event_source/devices/badtype/type", "abc\n");
	fake_put("sys/bus/event_source/devices/hugetype/type", "99999999999\n");
	/* tracefs */
	fake_put("tracing/events/sched/sched_switch/id", "372\n");
	fake_put("tracing/events/sched/sched_switch/format", fake_switch_format);
	fake_put("tracing/events/sched/sched_wakeup/id", "374\n");
	fake_put("tracing/events/sched/sched_swap_numa/id", "358\n");
	fake_put("tracing/events/sched/enable", "0\n");
	fake_put("tracing/events/irq/irq_handler_entry/id", "100\n");
	fake_put("tracing/events/irq/bad_id/id", "12x\n");
	fake_put("tracing/events/enable", "0\n");
}

static void fake_tree_remove(void)
{
	char cmd[400];

	if (strncmp(fake_root, "/tmp/sonde-fake-", 16))
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fake_root);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", fake_root);
}

#endif /* SONDE_TEST_FAKE_TREE_H */
