#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Wall time of `sonde stat -e task-clock,page-faults,context-switches --
# true` against `perf stat` with the same events: alternating pairs, medians
# and the ratio (target: sonde <= 0.5x perf). STAT_BENCH_PAIRS sets the count.
set -u
SONDE=${SONDE:-$PWD/build/sonde}
PAIRS=${STAT_BENCH_PAIRS:-30}
EV=task-clock,page-faults,context-switches
command -v perf >/dev/null || { echo "SKIP: perf is not installed (the peer)"; exit 0; }
[ -x "$SONDE" ] || { echo "SKIP: $SONDE not built"; exit 0; }
TRUE=$(command -v true)

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# Microseconds of one run, output discarded (EPOCHREALTIME: no fork
# inside the timed window).
us() {
	local t=${EPOCHREALTIME/./} e
	"$@" >/dev/null 2>&1
	e=${EPOCHREALTIME/./}
	echo $(( e - t ))
}

# Warm the page cache for both binaries first.
"$SONDE" stat -e $EV -- "$TRUE" 2>/dev/null; perf stat -e $EV -- "$TRUE" 2>/dev/null
s=() p=()
for _ in $(seq "$PAIRS"); do
	s+=($(us "$SONDE" stat -e $EV -- "$TRUE"))
	p+=($(us perf stat -e $EV -- "$TRUE"))
done
sm=$(printf '%s\n' "${s[@]}" | median)
pm=$(printf '%s\n' "${p[@]}" | median)
ratio=$(awk -v a="$sm" -v b="$pm" 'BEGIN { printf "%.2f", a / b }')
echo "stat wall ($PAIRS pairs, -e $EV -- true): sonde median ${sm} us, perf median ${pm} us"
echo "ratio sonde/perf: ${ratio}x (target <= 0.5x)"
