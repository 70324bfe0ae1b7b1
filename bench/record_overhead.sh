#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# sonde record vs perf record on the same fixed-work workload, side by side
# in one run: workload slowdown (its own elapsed time under each recorder
# / without one), lost samples, and bytes per sample of the output file.
# Medians of REPEAT runs (default 5). Usage: bench/record_overhead.sh
set -u
: "${SONDE:=$PWD/build/sonde}" "${HELPERS:=$PWD/build/helpers}"
W=$HELPERS/callchain_workload
ITER=${ITER:-3000}
REPEAT=${REPEAT:-5}
FREQ=${FREQ:-10000}
if ! command -v perf >/dev/null; then
	echo "SKIP: perf is not installed"; exit 0
fi
[ -x "$W" ] || { echo "SKIP: $W not built (make helpers)"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
elapsed() { sed -n 's/^elapsed_ms \([0-9.]*\)/\1/p' "$1" | tail -1; }
# lost NAME: the samples the kernel dropped, as perf reports them from the
# LOST_SAMPLES records both recorders write from read_format LOST.
lost() {
	perf report -f -i "$1" --stdio 2>/dev/null |
		sed -n 's/^# Total Lost Samples: \([0-9]*\).*/\1/p' | head -1
}
nsamples() { perf script -f -i "$1" -F time 2>/dev/null | wc -l; }

for i in $(seq "$REPEAT"); do
	# Interleave the three so drift in machine load hits all alike.
	"$W" -n "$ITER" 2>"$T/base.err"
	elapsed "$T/base.err" >>"$T/base"
	"$SONDE" record -q -o "$T/s.data" -F "$FREQ" -g -e cpu-clock -- \
		"$W" -n "$ITER" 2>"$T/s.err"
	elapsed "$T/s.err" >>"$T/sonde"
	perf record -q -o "$T/p.data" -F "$FREQ" -g -e cpu-clock -- \
		"$W" -n "$ITER" 2>"$T/p.err" >/dev/null
	elapsed "$T/p.err" >>"$T/perf"
	ss=$(nsamples "$T/s.data"); ps=$(nsamples "$T/p.data")
	echo "$(stat -c %s "$T/s.data") $ss" | awk '{print $1 / ($2 ? $2 : 1)}' >>"$T/s.bps"
	echo "$(stat -c %s "$T/p.data") $ps" | awk '{print $1 / ($2 ? $2 : 1)}' >>"$T/p.bps"
	lost "$T/s.data" >>"$T/s.lost"
	lost "$T/p.data" >>"$T/p.lost"
	echo "$ss" >>"$T/s.n"; echo "$ps" >>"$T/p.n"
done

# Lost samples under pressure: DWARF stacks into a 4-page ring, same for both.
for i in $(seq "$REPEAT"); do
	"$SONDE" record -q -o "$T/s2.data" -F "$FREQ" -m 4 --call-graph dwarf \
		-e cpu-clock -- "$W" -n "$ITER" 2>/dev/null
	perf record -q -o "$T/p2.data" -F "$FREQ" -m 4 --call-graph dwarf \
		-e cpu-clock -- "$W" -n "$ITER" >/dev/null 2>&1
	lost "$T/s2.data" >>"$T/s2.lost"; lost "$T/p2.data" >>"$T/p2.lost"
	nsamples "$T/s2.data" >>"$T/s2.n"; nsamples "$T/p2.data" >>"$T/p2.n"
done

b=$(median <"$T/base"); s=$(median <"$T/sonde"); p=$(median <"$T/perf")
sb=$(median <"$T/s.bps"); pb=$(median <"$T/p.bps")
echo "record overhead, -F $FREQ -g -e cpu-clock, $ITER iterations, median of $REPEAT:"
printf "  workload alone      %10.1f ms\n" "$b"
printf "  under sonde record  %10.1f ms  slowdown %.3fx\n" "$s" "$(echo "$s $b" | awk '{print $1/$2}')"
printf "  under perf record   %10.1f ms  slowdown %.3fx\n" "$p" "$(echo "$p $b" | awk '{print $1/$2}')"
printf "  sonde/perf workload time ratio: %.3f (<= 1 means sonde disturbs less)\n" \
	"$(echo "$s $p" | awk '{print $1/$2}')"
printf "  samples (median)    sonde %s  perf %s\n" "$(median <"$T/s.n")" "$(median <"$T/p.n")"
printf "  lost (median)       sonde %s  perf %s\n" "$(median <"$T/s.lost")" "$(median <"$T/p.lost")"
printf "  under pressure (-m 4 --call-graph dwarf): lost samples (median) sonde %s  perf %s; samples kept sonde %s  perf %s\n" \
	"$(median <"$T/s2.lost")" "$(median <"$T/p2.lost")" "$(median <"$T/s2.n")" "$(median <"$T/p2.n")"
printf "  bytes per sample    sonde %.1f  perf %.1f  ratio %.3f (target <= 1.1)\n" \
	"$sb" "$pb" "$(echo "$sb $pb" | awk '{print $1/$2}')"
