#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# KSYMBOL records from a real kernel: a BPF program loaded and run during
# a `perf record` (perf asks for KSYMBOL records, as sonde's profile
# expects) is named by sonde script and sonde report, as perf script and
# perf report name it. The fixture cases (unregister, reuse, trampolines,
# out-of-line code) are test_report_ksymbol.c's.
source "$(dirname "$0")/lib.sh"
W="$HELPERS/bpf_spin"

need_perf "ksymbol"
need_helper "ksymbol" "$W"
if ! "$W" 1 2>"$TMP/err"; then
	skip "ksymbol: this machine cannot load a BPF program: $(cat "$TMP/err")"
	exit 0
fi
if [ "$(cat /proc/sys/net/core/bpf_jit_enable 2>/dev/null)" = 0 ]; then
	skip "ksymbol: the BPF JIT is off (net.core.bpf_jit_enable=0): no KSYMBOL records"
	exit 0
fi

# sonde record asks for KSYMBOL records too: its own file names the
# program (before, every sample in it stayed a bare address), and perf
# reads the same names from that file.
"$SONDE" record -q -e cpu-clock -c 100000 -o "$TMP/sbpf.data" -- "$W" 200000 \
	>/dev/null 2>"$TMP/serr"
"$SONDE" script -i "$TMP/sbpf.data" 2>/dev/null | grep '_sonde_spin' >"$TMP/ss.s"
"$SONDE" script -i "$TMP/sbpf.data" 2>/dev/null >"$TMP/ss.all"
sn=$(grep -Ec ' bpf_prog_[0-9a-f]{16}_sonde_spin\+0x[0-9a-f]+ \(bpf_prog_[0-9a-f]{16}_sonde_spin\)$' "$TMP/ss.s")
sout=$(grep -Ec ':  ffffffff(a|b|c|d|e)[0-9a-f]{7} ' "$TMP/ss.all")
if [ "$sn" -gt 0 ] && [ "$sn" = "$(wc -l <"$TMP/ss.s")" ]; then
	pass "ksymbol: sonde's own recording names $sn samples in the BPF program"
elif [ "$sn" = 0 ] && [ "$sout" = 0 ]; then
	skip "ksymbol: no sample of sonde's recording landed in JITed code"
else
	fail "ksymbol: sonde's recording: $sn samples named, $sout in the BPF area: $(head -c 300 "$TMP/serr")"
fi
perf script -f -i "$TMP/sbpf.data" 2>/dev/null | grep '_sonde_spin' >"$TMP/sp.s"
rc=${PIPESTATUS[0]}
if [ "$rc" -ge 128 ]; then
	skip "ksymbol: perf script crashed on sonde's file (exit $rc): no comparison"
elif [ "$sn" -gt 0 ] && cmp -s "$TMP/sp.s" "$TMP/ss.s"; then
	pass "ksymbol: perf script names the same $sn samples in sonde's file"
elif [ "$sn" -gt 0 ]; then
	fail "ksymbol: perf script on sonde's file differs: $(diff "$TMP/sp.s" "$TMP/ss.s" | head -4)"
fi

# -B: perf 6.1's build-id pass at the end sometimes aborts; not needed here.
if ! perf record -q -B -e cpu-clock -c 100000 -o "$TMP/bpf.data" -- "$W" 200000 \
	>/dev/null 2>"$TMP/err"; then
	skip "ksymbol: perf record failed: $(head -c 300 "$TMP/err")"
	exit 0
fi
"$SONDE" report -f --stats -i "$TMP/bpf.data" >"$TMP/stats" 2>&1
if ! grep -Eq 'KSYMBOL events: +[1-9]' "$TMP/stats"; then
	skip "ksymbol: the kernel wrote no KSYMBOL record for the program"
	exit 0
fi

# script: the samples in the program named by it, with their offsets.
# Where the kernel ran it interpreted (no JIT image), none land there.
"$SONDE" script -f -i "$TMP/bpf.data" >"$TMP/sonde.all" 2>/dev/null
grep '_sonde_spin' "$TMP/sonde.all" >"$TMP/sonde.s"
n=$(grep -Ec ' bpf_prog_[0-9a-f]{16}_sonde_spin\+0x[0-9a-f]+ \(bpf_prog_[0-9a-f]{16}_sonde_spin\)$' "$TMP/sonde.s")
# x86-64's module and BPF area
outside=$(grep -Ec ':  ffffffff(a|b|c|d|e)[0-9a-f]{7} ' "$TMP/sonde.all")
if [ "$n" = 0 ] && [ "$outside" = 0 ]; then
	skip "ksymbol: no sample landed in JITed code (the program ran interpreted?)"
	exit 0
elif [ "$n" -gt 0 ] && [ "$n" = "$(wc -l <"$TMP/sonde.s")" ]; then
	pass "ksymbol: script names $n samples in the BPF program"
else
	fail "ksymbol: script names $n samples in the program, $outside in its area: $(grep -E ':  ffffffff(a|b|c|d|e)' "$TMP/sonde.all" | head -3)"
fi

# The same as perf's, where perf 6.1 reads the file (it aborts on some:
# an assertion in util/build-id.c): no oracle, no verdict.
perf script -f -i "$TMP/bpf.data" >"$TMP/perf.all" 2>/dev/null
rc=$?
if [ $rc -ge 128 ]; then
	skip "ksymbol: perf script crashed on the file (exit $rc): no comparison"
	exit 0
fi
grep '_sonde_spin' "$TMP/perf.all" >"$TMP/perf.s"
if cmp -s "$TMP/perf.s" "$TMP/sonde.s"; then
	pass "ksymbol: script's $(wc -l <"$TMP/perf.s") lines in the program are perf's"
else
	fail "ksymbol: script differs from perf: $(diff "$TMP/perf.s" "$TMP/sonde.s" | head -4)"
fi

# report: the program's row, its object and share, as perf's.
perf report -f --stdio --sort dso,sym -i "$TMP/bpf.data" 2>/dev/null | grep '_sonde_spin' >"$TMP/perf.r"
rc=${PIPESTATUS[0]}
"$SONDE" report -f --stdio --sort dso,sym -i "$TMP/bpf.data" 2>/dev/null | grep '_sonde_spin' >"$TMP/sonde.r"
if [ "$rc" -ge 128 ]; then
	skip "ksymbol: perf report crashed on the file (exit $rc): no comparison"
elif [ -s "$TMP/perf.r" ] && cmp -s "$TMP/perf.r" "$TMP/sonde.r"; then
	pass "ksymbol: report row of the BPF program as perf: $(sed 's/  */ /g' "$TMP/perf.r")"
else
	fail "ksymbol: report differs from perf: perf '$(cat "$TMP/perf.r")' sonde '$(cat "$TMP/sonde.r")'"
fi
