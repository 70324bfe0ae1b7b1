// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Overflow signals: the fcntl(2) sequence the man page gives for
 * "Signal overflow" (O_ASYNC, F_SETSIG, F_SETOWN_EX), and the siginfo the
 * kernel fills for them and for attr.sigtrap.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "sonde/overflow.h"
#include "core_priv.h"

int sonde_overflow_signal__setup(int fd,
				 const struct sonde_overflow_signal_opts *opts)
{
	struct f_owner_ex owner = { .type = F_OWNER_TID };
	int signo, fl;

	if (!OPTS_VALID(opts, sonde_overflow_signal_opts))
		return lib_err(EINVAL);
	if (fd < 0)
		return lib_err(EBADF);
	signo = OPTS_GET(opts, signo, 0);
	if (!signo)
		signo = SIGIO;
	if (signo < 1 || signo >= NSIG || signo == SIGKILL || signo == SIGSTOP)
		return lib_err(EINVAL);
	owner.pid = OPTS_GET(opts, tid, 0);
	if (!owner.pid)
		owner.pid = gettid();

	/* Owner and signal first, so no SIGIO can arrive before them. */
	if (fcntl(fd, F_SETOWN_EX, &owner) || fcntl(fd, F_SETSIG, signo))
		return lib_err(errno);
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_ASYNC))
		return lib_err(errno);
	return 0;
}

int sonde_overflow_signal__clear(int fd)
{
	struct f_owner_ex owner = { .type = F_OWNER_PID, .pid = 0 };
	int fl;

	if (fd < 0)
		return lib_err(EBADF);
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_ASYNC) ||
	    fcntl(fd, F_SETOWN_EX, &owner) || fcntl(fd, F_SETSIG, 0))
		return lib_err(errno);
	return 0;
}

/*
 * The kernel's _sigfault._perf {unsigned long data; u32 type; u32 flags}
 * sits in the union right after si_addr; glibc names none of it, so read
 * it by that layout (asm-generic/siginfo.h).
 */
static void perf_fields(const siginfo_t *si, struct sonde_overflow_info *out)
{
	const char *base = (const char *)&si->si_addr + sizeof(void *);
	unsigned long data;

	memcpy(&data, base, sizeof(data));
	memcpy(&out->perf_type, base + sizeof(data), sizeof(uint32_t));
	memcpy(&out->perf_flags, base + sizeof(data) + sizeof(uint32_t),
	       sizeof(uint32_t));
	out->sig_data = data;
	out->addr = (uint64_t)(uintptr_t)si->si_addr;
}

int sonde_overflow_info__decode(const siginfo_t *si,
				struct sonde_overflow_info *out)
{
	if (!si || !out)
		return -EINVAL; /* no errno write: stays signal-safe and quiet */
	memset(out, 0, sizeof(*out));
	out->signo = si->si_signo;
	out->code = si->si_code;
	out->fd = -1;
	if (si->si_signo == SIGTRAP && si->si_code == SONDE_TRAP_PERF) {
		out->sigtrap = true;
		perf_fields(si, out);
		return 1;
	}
	/*
	 * SIGIO-style delivery: the fd travels in si_fd. POLL_IN/POLL_HUP
	 * share their values with fault and child codes: not those signals.
	 */
	if ((si->si_code == POLL_IN || si->si_code == POLL_HUP) &&
	    si->si_signo != SIGTRAP && si->si_signo != SIGSEGV &&
	    si->si_signo != SIGBUS && si->si_signo != SIGILL &&
	    si->si_signo != SIGFPE && si->si_signo != SIGCHLD) {
		out->fd = si->si_fd;
		return 1;
	}
	return 0;
}
