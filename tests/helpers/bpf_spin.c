// SPDX-License-Identifier: LGPL-2.1-only
/*
 * Loads a BPF socket filter of a few thousand instructions (named
 * "sonde_spin": the kernel announces it in KSYMBOL records as
 * bpf_prog_<tag>_sonde_spin) and runs it in the kernel ARG1 times through
 * BPF_PROG_TEST_RUN, so that samples land in the JITed program.
 * Exit 0; 77 with the reason on stderr when this kernel cannot load or
 * run it (no bpf(2), no JIT, not allowed).
 */
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NR_INSNS 3000

static struct bpf_insn insns[NR_INSNS + 2];

int main(int argc, char **argv)
{
	unsigned int repeat = argc > 1 ? (unsigned int)strtoul(argv[1], NULL, 0) : 1;
	unsigned char pkt[64] = { 0 };
	union bpf_attr a;
	int fd, n = 0;

	insns[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0 };
	for (int i = 0; i < NR_INSNS; i++)
		insns[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_ADD | BPF_K, .imm = i };
	insns[n++] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.insns = (unsigned long)insns;
	a.insn_cnt = (unsigned int)n;
	a.license = (unsigned long)"GPL";
	strcpy(a.prog_name, "sonde_spin");
	fd = (int)syscall(SYS_bpf, BPF_PROG_LOAD, &a, sizeof(a));
	if (fd < 0) {
		fprintf(stderr, "bpf_spin: BPF_PROG_LOAD: %s\n", strerror(errno));
		return 77;
	}
	memset(&a, 0, sizeof(a));
	a.test.prog_fd = (unsigned int)fd;
	a.test.data_in = (unsigned long)pkt;
	a.test.data_size_in = sizeof(pkt);
	a.test.repeat = repeat;
	if (syscall(SYS_bpf, BPF_PROG_TEST_RUN, &a, sizeof(a))) {
		fprintf(stderr, "bpf_spin: BPF_PROG_TEST_RUN: %s\n", strerror(errno));
		return 77;
	}
	close(fd);
	return 0;
}
