/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * A simulated kernel with AUX area PMUs, for sonde record through the
 * syscall seam on machines without one: a fake sysfs shows intel_pt (type
 * FAKE_PT_TYPE, its real format bits and caps), cs_etm (formats, an ETMv4
 * on CPU 0 and an ETE on CPU 1), intel_bts,
 * arm_spe_0 and hisi_ptt0_2;
 * perf_event_open hands out /dev/null fds and remembers each attr; mmap
 * gives anonymous memory for rings and AUX areas (an AUX area only for an
 * event of those PMUs, EOPNOTSUPP for the others, as rb_alloc_aux());
 * ioctls succeed. The test plays the PMU: fake_aux_write() fills an AUX
 * area and moves aux_head, fake_aux_put() appends a record to a ring, and
 * the hooks fire when an AUX area is mapped and on ENABLE/DISABLE.
 */
#ifndef SONDE_TEST_FAKE_AUX_H
#define SONDE_TEST_FAKE_AUX_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sonde/sonde.h"

#define FAKE_PT_TYPE 77
#define FAKE_ETM_TYPE 78
#define FAKE_BTS_TYPE 79
#define FAKE_SPE_TYPE 80
#define FAKE_PTT_TYPE 81
#define FAKE_AUX_MAXFD 1024

struct fake_aux_fd {
	bool open;
	struct sonde_perf_event_attr attr;
	pid_t pid;
	int cpu;
	unsigned char *base;  /* control page + data area */
	size_t base_len;
	unsigned char *aux;
	size_t aux_len;
	int aux_prot;
};

static struct {
	struct fake_aux_fd fd[FAKE_AUX_MAXFD];
	char sysfs[256];
	/* The PMU's moves: when an AUX area is mapped, on (DIS|EN)ABLE. */
	void (*on_aux_map)(int fd);
	void (*on_ioctl)(int fd, unsigned long req);
} fa;

static inline bool fake_aux_pmu(uint32_t type)
{
	return type >= FAKE_PT_TYPE && type <= FAKE_PTT_TYPE;
}

static inline void fake_aux_put_file(const char *rel, const char *text)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", fa.sysfs, rel);
	for (char *s = path + strlen(fa.sysfs) + 1; *s; s++)
		if (*s == '/') {
			*s = 0;
			mkdir(path, 0755);
			*s = '/';
		}
	{
		FILE *f = fopen(path, "w");

		if (!f)
			abort();
		fputs(text, f);
		fclose(f);
	}
}

/*
 * The fake sysfs's online CPUs (the library reads them there too): @list,
 * or NULL for this machine's own.
 */
static inline void fake_aux_online(const char *list)
{
	char real[256] = "0\n";
	FILE *f;

	if (!list) {
		f = fopen("/sys/devices/system/cpu/online", "re");
		if (!f || !fgets(real, sizeof(real), f))
			abort();
		fclose(f);
		list = real;
	}
	fake_aux_put_file("devices/system/cpu/online", list);
}

/*
 * The fake sysfs, made the PMU and online-CPU source of the library
 * ($SONDE_SYSFS_ROOT); its online CPUs are this machine's.
 */
static inline void fake_aux_sysfs(void)
{
	static const char *const pt[][2] = {
		{ "type", "77\n" }, { "format/pt", "config:0\n" },
		{ "format/cyc", "config:1\n" }, { "format/mtc", "config:9\n" },
		{ "format/tsc", "config:10\n" }, { "format/noretcomp", "config:11\n" },
		{ "format/branch", "config:13\n" },
		{ "format/mtc_period", "config:14-17\n" },
		{ "format/psb_period", "config:24-27\n" },
		{ "caps/mtc", "1\n" }, { "caps/psb_cyc", "1\n" },
		{ "max_nonturbo_ratio", "24\n" },
	};
	/*
	 * cs_etm as on an Arm board: CPU 0 an ETMv4 (Cortex-A72's ID
	 * registers), CPU 1 an ETE (TRCDEVARCH architecture 5, part 0xA13,
	 * TRCIDR8 with bit 31 set); other CPUs have no ETM files.
	 */
	static const char *const etm[][2] = {
		{ "type", "78\n" }, { "format/branch_broadcast", "config:8\n" },
		{ "format/cycacc", "config:12\n" }, { "format/contextid", "config:14\n" },
		{ "format/timestamp", "config:28\n" }, { "format/retstack", "config:29\n" },
		{ "cpu0/trcidr/trcidr0", "0x28000ea1\n" },
		{ "cpu0/trcidr/trcidr1", "0x4100f424\n" },
		{ "cpu0/trcidr/trcidr2", "0x20001088\n" },
		{ "cpu0/trcidr/trcidr8", "0x0\n" },
		{ "cpu0/mgmt/trcauthstatus", "0xcc\n" },
		{ "cpu1/trcidr/trcidr0", "0x28002ea1\n" },
		{ "cpu1/trcidr/trcidr1", "0x4100fff0\n" },
		{ "cpu1/trcidr/trcidr2", "0x20001088\n" },
		{ "cpu1/trcidr/trcidr8", "0x80000001\n" },
		{ "cpu1/mgmt/trcauthstatus", "0xcc\n" },
		{ "cpu1/mgmt/trcdevarch", "0x47725a13\n" },
	};
	char rel[128];

	snprintf(fa.sysfs, sizeof(fa.sysfs), "/tmp/sonde-fakeaux-XXXXXX");
	if (!mkdtemp(fa.sysfs))
		abort();
	for (size_t i = 0; i < sizeof(pt) / sizeof(pt[0]); i++) {
		snprintf(rel, sizeof(rel), "bus/event_source/devices/intel_pt/%s",
			 pt[i][0]);
		fake_aux_put_file(rel, pt[i][1]);
	}
	for (size_t i = 0; i < sizeof(etm) / sizeof(etm[0]); i++) {
		snprintf(rel, sizeof(rel), "bus/event_source/devices/cs_etm/%s",
			 etm[i][0]);
		fake_aux_put_file(rel, etm[i][1]);
	}
	fake_aux_put_file("bus/event_source/devices/intel_bts/type", "79\n");
	fake_aux_put_file("bus/event_source/devices/arm_spe_0/type", "80\n");
	fake_aux_put_file("bus/event_source/devices/hisi_ptt0_2/type", "81\n");
	fake_aux_online(NULL);
	setenv("SONDE_SYSFS_ROOT", fa.sysfs, 1);
}

static inline void fake_aux_sysfs_remove(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", fa.sysfs);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", fa.sysfs);
	unsetenv("SONDE_SYSFS_ROOT");
}

static inline int fake_aux_open(struct sonde_perf_event_attr *attr, pid_t pid,
				int cpu, int group_fd, unsigned long flags)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	(void)group_fd; (void)flags;
	if (fd < 0 || fd >= FAKE_AUX_MAXFD) {
		if (fd >= 0)
			close(fd);
		errno = EMFILE;
		return -1;
	}
	memset(&fa.fd[fd], 0, sizeof(fa.fd[fd]));
	fa.fd[fd].open = true;
	fa.fd[fd].attr = *attr;
	fa.fd[fd].pid = pid;
	fa.fd[fd].cpu = cpu;
	return fd;
}

static inline int fake_aux_ioctl(int fd, unsigned long req, unsigned long arg)
{
	if (req == SONDE_PERF_EVENT_IOC_ID)
		*(uint64_t *)arg = (uint64_t)fd;
	if (fa.on_ioctl && fd >= 0 && fd < FAKE_AUX_MAXFD)
		fa.on_ioctl(fd, req);
	return 0;
}

/* Counts (read_format ID | LOST): all zero. */
static inline ssize_t fake_aux_read(int fd, void *buf, size_t n)
{
	(void)fd;
	memset(buf, 0, n);
	return (ssize_t)n;
}

static inline void *fake_aux_mmap(void *addr, size_t len, int prot, int flags,
				  int fd, off_t off)
{
	struct fake_aux_fd *f = fd >= 0 && fd < FAKE_AUX_MAXFD ? &fa.fd[fd] : NULL;
	void *p;

	(void)addr; (void)flags;
	if (!f || !f->open) {
		errno = EBADF;
		return MAP_FAILED;
	}
	/* rb_alloc_aux(): only a PMU with an AUX area takes one. */
	if (off && !fake_aux_pmu(f->attr.type)) {
		errno = EOPNOTSUPP;
		return MAP_FAILED;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		return p;
	if (off) {
		f->aux = p;
		f->aux_len = len;
		f->aux_prot = prot;
		if (fa.on_aux_map)
			fa.on_aux_map(fd);
	} else {
		f->base = p;
		f->base_len = len;
	}
	return p;
}

static inline struct sonde_perf_event_mmap_page *fake_aux_pc(int fd)
{
	return (struct sonde_perf_event_mmap_page *)fa.fd[fd].base;
}

/*
 * The PMU writes @len bytes (@seed, @seed + 1, ...) at stream position @pos
 * of @fd's AUX area, and sets aux_head to @head (the position after them,
 * or in overwrite mode whatever the driver says).
 */
static inline void fake_aux_write(int fd, uint64_t pos, size_t len,
				  unsigned seed, uint64_t head)
{
	struct fake_aux_fd *f = &fa.fd[fd];

	for (size_t i = 0; i < len; i++)
		f->aux[(pos + i) & (f->aux_len - 1)] = (unsigned char)(seed + i);
	__atomic_store_n(&fake_aux_pc(fd)->aux_head, head, __ATOMIC_RELEASE);
}

/* Appends @rec, laid out by @fd's attr, to the ring @fd maps. */
static inline void fake_aux_put(int fd, struct sonde_record *rec)
{
	struct fake_aux_fd *f = &fa.fd[fd];
	struct sonde_perf_event_mmap_page *pc = fake_aux_pc(fd);
	size_t psz = (size_t)sysconf(_SC_PAGESIZE), size = f->base_len - psz;
	_Alignas(8) unsigned char buf[512];
	struct sonde_record_fmt fmt;
	int n;

	if (sonde_record_fmt__from_attr(&fmt, &f->attr))
		abort();
	rec->sample_id.pid = rec->sample_id.tid = (uint32_t)f->pid;
	rec->sample_id.cpu = (uint32_t)f->cpu;
	rec->sample_id.id = rec->sample_id.identifier = (uint64_t)fd;
	n = sonde_record__encode(&fmt, rec, buf, sizeof(buf));
	if (n <= 0)
		abort();
	for (int i = 0; i < n; i++)
		f->base[psz + ((pc->data_head + (uint64_t)i) & (size - 1))] = buf[i];
	pc->data_head += (uint64_t)n;
}

static inline void fake_aux_install(void)
{
	struct sonde_sys_ops ops = {
		.perf_event_open = fake_aux_open, .ioctl = fake_aux_ioctl,
		.read = fake_aux_read, .mmap = fake_aux_mmap,
	};

	for (int i = 0; i < FAKE_AUX_MAXFD; i++)
		fa.fd[i].open = false;
	fa.on_aux_map = NULL;
	fa.on_ioctl = NULL;
	sonde_sys_set_ops(&ops);
}

#endif /* SONDE_TEST_FAKE_AUX_H */
