/* SPDX-License-Identifier: LGPL-2.1-only */
/* A small fixed sysfs/tracefs tree so fuzz runs are fast and repeatable. */
#ifndef SONDE_FUZZ_TREE_H
#define SONDE_FUZZ_TREE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char fuzz_root[64];

static void fuzz_put(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fuzz_root, rel);
	for (char *s = path + strlen(fuzz_root) + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(path, 0755);
			*s = '/';
		}
	f = fopen(path, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
}

static void fuzz_tree_init(void)
{
	char env[128];

	snprintf(fuzz_root, sizeof(fuzz_root), "/tmp/sonde-fuzz-%d", (int)getpid());
	mkdir(fuzz_root, 0755);
	fuzz_put("sys/bus/event_source/devices/cpu/type", "4\n");
	fuzz_put("sys/bus/event_source/devices/cpu/cpumask", "0-1\n");
	fuzz_put("sys/bus/event_source/devices/cpu/format/event", "config:0-7\n");
	fuzz_put("sys/bus/event_source/devices/cpu/format/umask", "config:8-15\n");
	fuzz_put("sys/bus/event_source/devices/cpu/format/edge", "config:18\n");
	fuzz_put("sys/bus/event_source/devices/cpu/format/ldlat", "config1:0-15\n");
	fuzz_put("sys/bus/event_source/devices/cpu/format/split", "config2:0-3,60-63\n");
	fuzz_put("sys/bus/event_source/devices/cpu/events/mem-loads",
		 "event=0xcd,umask=0x1,ldlat=3\n");
	fuzz_put("sys/bus/event_source/devices/cpu/events/mem-loads.scale", "0.5\n");
	fuzz_put("sys/bus/event_source/devices/cpu/events/weird", "event=,,\n");
	fuzz_put("sys/bus/event_source/devices/msr/type", "9\n");
	fuzz_put("sys/bus/event_source/devices/msr/format/event", "config:0-63\n");
	fuzz_put("sys/bus/event_source/devices/msr/events/tsc", "event=0x00\n");
	fuzz_put("tracing/events/sched/sched_switch/id", "372\n");
	fuzz_put("tracing/events/sched/sched_wakeup/id", "374\n");
	fuzz_put("tracing/events/irq/irq_handler_entry/id", "100\n");
	snprintf(env, sizeof(env), "%s/sys", fuzz_root);
	setenv("SONDE_SYSFS_ROOT", env, 1);
	snprintf(env, sizeof(env), "%s/tracing", fuzz_root);
	setenv("SONDE_TRACEFS_ROOT", env, 1);
}

#endif /* SONDE_FUZZ_TREE_H */
