#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Reads `perf record -vv` output (or `sonde record -v`) on stdin and prints
# the first perf_event_attr block, keeping only the fields the per-event
# terms and sampling modifiers decide (call-graph, stack-size, max-stack,
# inherit, overwrite, aux-*, branch_type, S, P) and record's -b/-j/-k
# options decide; record's own side-band,
# wakeup and period fields are left out.
awk '
/^perf_event_attr:/ { if (++seen > 1) exit; inblk = 1; print "--"; next }
/^-----/ { inblk = 0; next }
inblk && /^  / {
	if ($0 ~ /^  (sample_type|read_format|inherit|write_backward|precise_ip|sample_max_stack|sample_regs_user|sample_stack_user|exclude_callchain_user|exclude_callchain_kernel|mmap_data|branch_sample_type|aux_output|aux_sample_size|use_clockid|clockid) /)
		print
	next
}
{ inblk = 0 }
'
