#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# sonde record vs perf record under load: system-wide (-a) at 10, 25 and
# 50 kHz with frame-pointer and DWARF call chains, on a fixed amount of
# work done by 2 busy threads (callchain_workload -n ITER 2, about 2 s),
# sonde and perf interleaved in one run. Per cell, medians of REPEAT runs:
#   lost   samples the kernel could not write into the ring (LOST_SAMPLES
#          of the sampling events, read by perf report --stats from each
#          tool's file; the side-band dummy event of perf is not counted)
#   lost%  lost / (lost + kept) samples: the rates differ between runs
#          when the workload runs longer under one tool
#   slow   the workload's own elapsed time under the recorder / alone
#   ms/MB  the recorder's CPU time (all its threads, read from /proc as
#          the workload ends) per MB of file written: how much it costs
#          to move the data, steadier than lost counts on a shared machine
# Goal: sonde loses no more than perf in any cell, none where perf loses
# none. Usage: bench/record_load.sh   (QUICK=1: 2 runs, 10 and 50 kHz;
# REPEAT, FREQS, MODES, SECONDS_OF_WORK override; MMAP=-m value for both)
#
# What decides the cells (2026-11-28, 2-CPU VM, Linux 6.18, perf 6.1):
# both tools map 128 data pages per CPU (perf 6.1 as root, -g dwarf too:
# 129-page mmaps in strace), read each ring whole per pass and write it
# with plain write(2)s: no aio, no reader threads, no priority change;
# perf wakes at half a ring (watermark 0), sonde at a quarter. At 50 kHz
# with DWARF neither reader ever sleeps (0-6 voluntary switches in 1.5 s):
# both are starved of CPU, 50 kHz sampling's timer interrupts make every
# write cost about 4x (1.1-1.3 ms/MB for a bare writer against 0.27
# unsampled), and the lost share follows the CPU the scheduler happens to
# give each reader, at the same ms/MB. Below that the reader sleeps
# between wakeups and the losses come from the time a woken reader waits
# behind the busy threads: a 100 us sched_setattr slice helped at 10 kHz
# DWARF but hurt 25 kHz DWARF and 50 kHz fp, and was dropped; writes
# held back to page boundaries saved 2% of write(2) time (not kept).
# Nearly all of either reader's CPU is ext4's buffered write path (97%
# in a cpu-clock profile of each): sonde reserves the file's blocks
# ahead (perfdata_write_space.c), 15% less CPU per MB than before at
# 25 kHz DWARF. Also tried (2026-11-28, not kept): the reader at nice
# -5 (fewer losses at 25 kHz DWARF, but it takes CPU from the workload:
# perf leaves that to -r/--realtime, and so does sonde); slices of 0.3-1
# ms (no better than perf's); -o /dev/null still lost samples at 25 kHz
# DWARF, so a reader thread that only copies would not get to none.
# The last medians are in README.
set -u
: "${SONDE:=$PWD/build/sonde}" "${HELPERS:=$PWD/build/helpers}"
W=$HELPERS/callchain_workload
if [ -n "${QUICK:-}" ]; then
	: "${REPEAT:=2}" "${FREQS:=10000 50000}"
fi
REPEAT=${REPEAT:-5}
FREQS=${FREQS:-10000 25000 50000}
MODES=${MODES:-fp dwarf}
WORK_MS=${SECONDS_OF_WORK:-2}000
MMAP=${MMAP:-}
if ! command -v perf >/dev/null; then
	echo "SKIP: perf is not installed"; exit 0
fi
[ -x "$W" ] || { echo "SKIP: $W not built (make helpers)"; exit 0; }
[ -x "$SONDE" ] || { echo "SKIP: $SONDE not built (make)"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {if (!NR) print "-"; else print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
elapsed() { sed -n 's/^elapsed_ms \([0-9.]*\)/\1/p' "$1" | tail -1; }
# lost FILE: LOST_SAMPLES summed over the sampling events (not dummy).
lost() {
	perf report -f --stats -i "$1" 2>/dev/null | awk '
		/ stats:$/ { dummy = ($1 ~ /^dummy/) }
		/LOST_SAMPLES events:/ && !dummy && !/%\)/ { n += $3 }
		END { print n + 0 }'
}

# The recorder's CPU ms per MB of FILE, from the schedstat sums in CPUF.
cpu_per_mb() {
	awk -v b="$(stat -c %s "$2")" '{ns += $1} END { if (b > 0) printf "%.3f\n", ns / 1e6 / (b / 1e6) }' "$1"
}

samples() {
	perf report -f --stats -i "$1" 2>/dev/null |
		awk '/SAMPLE events:/ && !/LOST/ {print $3; exit}'
}

# RUNW OUT CMD...: runs CMD, then saves the CPU time of its parent's threads.
cat >"$T/runw" <<'EOS'
#!/bin/sh
out=$1; shift
"$@"; st=$?
cat /proc/$PPID/task/*/schedstat >"$out" 2>/dev/null
exit $st
EOS
chmod +x "$T/runw"
RUNW=$T/runw

# Each recorder run starts from the same clean disk: the files of the
# run before (up to GBs at 50 kHz DWARF, and their .old) removed and the
# dirty pages written back. Otherwise their writeback and the freeing of
# their blocks run during the next recording and steal its CPU: which
# tool paid depended on the order of the runs, not on the tool.
clean_disk() {
	rm -f "$T"/s.data "$T"/s.data.old "$T"/p.data "$T"/p.data.old
	sync
}
# The workload's parent is the recorder: its threads' CPU time is read
# just before the workload ends. Each file is measured right after its
# run, before the next run's clean_disk removes it.
run_sonde() {
	clean_disk
	"$SONDE" record -q -a -F "$f" "${cg[@]}" ${MMAP:+-m "$MMAP"} \
		-o "$T/s.data" -- $RUNW "$T/s.cpu" "$W" -n "$ITER" 2 2>"$T/s.err" >/dev/null
	elapsed "$T/s.err" >>"$T/c.s"
	lost "$T/s.data" >>"$T/c.sl"
	cpu_per_mb "$T/s.cpu" "$T/s.data" >>"$T/c.sc"
	samples "$T/s.data" >>"$T/c.sn"
}
run_perf() {
	clean_disk
	perf record -q -a -F "$f" "${cg[@]}" ${MMAP:+-m "$MMAP"} \
		-o "$T/p.data" -- $RUNW "$T/p.cpu" "$W" -n "$ITER" 2 2>"$T/p.err" >/dev/null
	pst=$?
	elapsed "$T/p.err" >>"$T/c.p"
	# perf 6.1 aborts now and then under DWARF load: such a run has no
	# perf numbers (counted, not hidden).
	if [ "$pst" = 0 ]; then
		lost "$T/p.data" >>"$T/c.pl"
		samples "$T/p.data" >>"$T/c.pn"
		cpu_per_mb "$T/p.cpu" "$T/p.data" >>"$T/c.pc"
	else
		echo x >>"$T/c.pfail"
		grep -v '^elapsed_ms' "$T/p.err" | tail -2 | sed 's/^/  perf: /' >&2
	fi
}

# Fixed work of about WORK_MS on this machine, measured alone.
"$W" -n 400 2 2>"$T/cal"
cal=$(elapsed "$T/cal")
ITER=$(awk -v c="$cal" -v w="$WORK_MS" 'BEGIN { n = int(400 * w / (c > 0 ? c : 1)); print n < 400 ? 400 : n }')

# The machine may be shared: say how busy it was, before and after.
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
echo "record under load: -a, 2 busy threads ($ITER iterations, ~${WORK_MS} ms alone), median of $REPEAT runs${MMAP:+, -m $MMAP}; load average $(loadavg) on $(nproc) CPUs"
printf "%-6s %-6s | %10s %10s | %7s %7s | %8s %8s | %7s %7s | %s\n" freq chain "lost sonde" "lost perf" \
	"lost% s" "lost% p" "slow s" "slow p" "ms/MB s" "ms/MB p" "samples sonde/perf (perf runs failed)"
for f in $FREQS; do
	for m in $MODES; do
		case $m in
		fp) cg=(-g) ;;
		dwarf) cg=(--call-graph dwarf) ;;
		*) echo "unknown mode $m"; exit 2 ;;
		esac
		rm -f "$T"/c.*
		touch "$T/c.pl" "$T/c.pn" "$T/c.pfail" "$T/c.pp" "$T/c.pc"
		for i in $(seq "$REPEAT"); do
			# Interleaved, so drift in machine load hits all alike.
			"$W" -n "$ITER" 2 2>"$T/b.err"
			elapsed "$T/b.err" >>"$T/c.base"
			# Alternate which recorder goes first: whatever one run
			# leaves behind falls on each tool as often.
			if ((i % 2)); then
				run_sonde; run_perf
			else
				run_perf; run_sonde
			fi
			tail -1 "$T/c.sl" | paste - <(tail -1 "$T/c.sn") |
				awk '{t = $1 + $2; print t ? 100 * $1 / t : 0}' >>"$T/c.sp"
			[ "$pst" = 0 ] && tail -1 "$T/c.pl" | paste - <(tail -1 "$T/c.pn") |
				awk '{t = $1 + $2; print t ? 100 * $1 / t : 0}' >>"$T/c.pp"
			echo "  run $i $f $m: lost sonde $(tail -1 "$T/c.sl") perf $([ "$pst" = 0 ] && tail -1 "$T/c.pl" || echo "failed ($pst)")" >&2
		done
		b=$(median <"$T/c.base")
		printf "%-6s %-6s | %10s %10s | %7.1f %7.1f | %8.3f %8.3f | %7s %7s | %s/%s (%s)\n" "$f" "$m" \
			"$(median <"$T/c.sl")" "$(median <"$T/c.pl")" \
			"$(median <"$T/c.sp")" "$(median <"$T/c.pp")" \
			"$(echo "$(median <"$T/c.s") $b" | awk '{print $1/$2}')" \
			"$(echo "$(median <"$T/c.p") $b" | awk '{print $1/$2}')" \
			"$(median <"$T/c.sc")" "$(median <"$T/c.pc")" \
			"$(median <"$T/c.sn")" "$(median <"$T/c.pn")" "$(wc -l <"$T/c.pfail")"
	done
done
echo "load average at the end: $(loadavg)"
