#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# KSYMBOL records from a real kernel: a BPF program loaded and run during
# a `perf record` (perf asks for KSYMBOL records, as sonde's profile
# expects) is named by sonde report and sonde script as perf names it.
# The fixture cases (unregister, reuse, trampolines, out-of-line code)
# are test_report_ksymbol.c's.
source "$(dirname "$0")/lib.sh"
W="$HELPERS/bpf_spin"

if ! command -v perf >/dev/null 2>&1; then
	skip "ksymbol: perf is not installed (apt-get install linux-perf)"
	exit 0
fi
if [ ! -x "$W" ]; then
	skip "ksymbol: $W not built (make helpers)"
	exit 0
fi
if ! "$W" 1 2>"$TMP/err"; then
	skip "ksymbol: this machine cannot load a BPF program: $(cat "$TMP/err")"
	exit 0
fi
if [ "$(cat /proc/sys/net/core/bpf_jit_enable 2>/dev/null)" = 0 ]; then
	skip "ksymbol: the BPF JIT is off (net.core.bpf_jit_enable=0): no KSYMBOL records"
	exit 0
fi

if ! perf record -q -e cpu-clock -c 100000 -o "$TMP/bpf.data" -- "$W" 200000 \
	>/dev/null 2>"$TMP/err"; then
	skip "ksymbol: perf record failed: $(head -c 300 "$TMP/err")"
	exit 0
fi
perf script -f -i "$TMP/bpf.data" --show-bpf-events 2>/dev/null |
	grep -c 'PERF_RECORD_KSYMBOL .*_sonde_spin' >"$TMP/nk"
if [ "$(cat "$TMP/nk")" = 0 ]; then
	skip "ksymbol: the kernel wrote no KSYMBOL record for the program"
	exit 0
fi

# script: every sample in the program, named as perf names it.
perf script -f -i "$TMP/bpf.data" 2>/dev/null | grep '_sonde_spin' >"$TMP/perf.s"
"$SONDE" script -f -i "$TMP/bpf.data" 2>/dev/null | grep '_sonde_spin' >"$TMP/sonde.s"
n=$(wc -l <"$TMP/perf.s")
if [ "$n" = 0 ]; then
	skip "ksymbol: no sample landed in the program"
elif cmp -s "$TMP/perf.s" "$TMP/sonde.s"; then
	pass "ksymbol: script names the $n samples in the BPF program as perf"
else
	fail "ksymbol: script differs from perf: $(diff "$TMP/perf.s" "$TMP/sonde.s" | head -4)"
fi

# report: the program's row, its object and share, as perf's.
perf report -f --stdio --sort dso,sym -i "$TMP/bpf.data" 2>/dev/null | grep '_sonde_spin' >"$TMP/perf.r"
"$SONDE" report -f --stdio --sort dso,sym -i "$TMP/bpf.data" 2>/dev/null | grep '_sonde_spin' >"$TMP/sonde.r"
if [ -s "$TMP/perf.r" ] && cmp -s "$TMP/perf.r" "$TMP/sonde.r"; then
	pass "ksymbol: report row of the BPF program as perf: $(sed 's/  */ /g' "$TMP/perf.r")"
else
	fail "ksymbol: report differs from perf: perf '$(cat "$TMP/perf.r")' sonde '$(cat "$TMP/sonde.r")'"
fi
