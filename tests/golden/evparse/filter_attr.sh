#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Reads perf -vv output (or `sonde list --attr`) on stdin and prints the
# first N perf_event_attr blocks (N = $1, default all), keeping only the
# fields an event spec decides: perf stat's own counting fields (size,
# sample_type, read_format, disabled, inherit, enable_on_exec) and the
# period/freq (perf stat drops period terms) are removed.
n=${1:-1000000}
awk -v n="$n" '
/^perf_event_attr:/ { if (++seen > n) exit; inblk = 1; print "--"; next }
/^-----/ { inblk = 0; next }
inblk && /^  / {
	if ($0 ~ /^  (size|sample_type|read_format|disabled|inherit|enable_on_exec|freq) / ||
	    $0 ~ /^  \{ sample_period, sample_freq \}/)
		next
	print
	next
}
{ inblk = 0 }
'
