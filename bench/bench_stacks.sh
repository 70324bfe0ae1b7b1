#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Does report scale with distinct stacks? sonde against perf, side by side
# in one run, on generated files with many distinct 12-frame fp stacks and
# on a real recording of a stripped library without frame pointers
# (Debian's xz compressing a large buffer, perf record -g). Per file:
# report (children), report --no-children and script; medians of RUNS runs,
# ratios, peak RSS. Then how sonde's time grows from the second file to the
# last (full: 100k to 1M distinct stacks).
#
#   SIZE=quick (default)  200k samples; 20k and 100k distinct stacks; xz at
#                         4 kHz (~40k samples). Some minutes on 2 cores.
#   SIZE=full             1M samples; 20k, 100k and 1M distinct stacks; xz
#                         at 20 kHz (~200k samples or more). Much longer:
#                         perf needs minutes and gigabytes per run, so it
#                         runs once (PERF_RUNS=1) and is stopped after
#                         PERF_TIMEOUT=1200 s (the ratio is then a bound).
#   RUNS=3                runs per tool and mode (sonde; perf too in quick)
#   PERF_RUNS, PERF_TIMEOUT  see above (quick: RUNS, none)
#   PERF_MEM_KB           ulimit -v for every run (default: 3/4 of the
#                         memory available), so perf cannot take the host down
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build}
SONDE=${SONDE:-$BUILD_DIR/sonde}
RUNS=${RUNS:-3}
SIZE=${SIZE:-quick}
WORK=${BENCH_DIR:-$BUILD_DIR/bench}
mkdir -p "$WORK"
. "$ROOT/bench/pair.bash"

if ! command -v perf >/dev/null; then
	echo "SKIP: perf is not installed, nothing to compare with"; exit 0
fi
if [ ! -x /usr/bin/time ]; then
	echo "SKIP: /usr/bin/time is missing (apt-get install time)"; exit 0
fi
case $SIZE in
quick) NR=200000 STACKS="20000 100000" XZ_FREQ=4000 ;;
full)
	NR=1000000 STACKS="20000 100000 1000000" XZ_FREQ=20000
	: "${PERF_RUNS:=1}" "${PERF_TIMEOUT:=1200}"
	export PERF_RUNS PERF_TIMEOUT
	;;
*) echo "SIZE must be quick or full"; exit 2 ;;
esac
: "${PERF_MEM_KB:=$(awk '/MemAvailable/ { print int($2 * 3 / 4) }' /proc/meminfo)}"
export PERF_MEM_KB

gcc -O2 -std=c11 -D_GNU_SOURCE "$ROOT/bench/gen_perfdata.c" -o "$WORK/gen_perfdata" -lelf || exit 1

# three_modes FILE: children, --no-children and script, sonde then perf.
three_modes() {
	local f=$1
	pair "report, default (children) mode" 10 \
		"$SONDE report -i $f" "perf report -f --stdio -i $f"
	CHILDREN_CPU=$S_CPU
	pair "report --no-children" 5 \
		"$SONDE report --no-children -i $f" "perf report -f --stdio --no-children -i $f"
	NO_CHILDREN_CPU=$S_CPU
	pair "script" 5 "$SONDE script -i $f" "perf script -f -i $f"
	SCRIPT_CPU=$S_CPU
}

echo "== distinct-stack benchmark ($SIZE): $RUNS runs each (perf ${PERF_RUNS:-$RUNS}${PERF_TIMEOUT:+, at most ${PERF_TIMEOUT}s}), $(nproc) CPUs, ulimit -v $PERF_MEM_KB kB"
declare -A cpu # "mode:stacks" -> sonde's median cpu seconds
for ns in $STACKS; do
	f=$WORK/stacks-$NR-$ns.data
	[ -s "$f" ] || "$WORK/gen_perfdata" "$f" "$NR" 12 "$ns" each || exit 1
	echo
	echo "file: $f ($(du -mL "$f" | cut -f1) MB, $NR samples, $ns distinct 12-frame fp stacks)"
	three_modes "$f"
	cpu[children:$ns]=$CHILDREN_CPU
	cpu[no-children:$ns]=$NO_CHILDREN_CPU
	cpu[script:$ns]=$SCRIPT_CPU
done

# Time growth from the second file to the last (full: 100k to 1M stacks).
read -r _ from last _ <<<"$STACKS"
[ -z "$last" ] && { last=$from; from=${STACKS%% *}; }
echo
echo "sonde from $from to $last distinct stacks, $((last / from))x as many (cpu time; full size target <= 12x):"
for mode in children no-children script; do
	awk -v m="$mode" -v a="${cpu[$mode:$from]}" -v b="${cpu[$mode:$last]}" 'BEGIN {
		printf "  %-11s %6.2f s -> %6.2f s: %.1fx\n", m, a, b, (a > 0 ? b / a : 0)
	}'
done

# A real stripped library without frame pointers: nearly every stack is
# distinct, and most frames have no symbol (perf keys them by address).
XZ_DATA=$WORK/xz-$XZ_FREQ.data
if command -v xz >/dev/null; then
	if [ ! -s "$XZ_DATA" ]; then
		in=$WORK/xz-input.bin
		if [ ! -s "$in" ]; then
			# Text and random bytes: xz works hard on both, for seconds.
			for ((i = 0; i < 40; i++)); do
				cat /usr/share/common-licenses/* 2>/dev/null
				head -c 200000 /dev/urandom | base64
			done >"$in"
		fi
		# -B: perf 6.1 can abort while collecting build ids at the end.
		perf record -q -g -B -F "$XZ_FREQ" -o "$XZ_DATA" -- xz -6 -T1 -c "$in" \
			>/dev/null 2>"$WORK/xz-record.err" || { cat "$WORK/xz-record.err"; rm -f "$XZ_DATA"; }
	fi
fi
if [ -s "$XZ_DATA" ]; then
	echo
	echo "file: $XZ_DATA (xz -6 recorded with perf record -g -F $XZ_FREQ, $(perf report -f --stdio -i "$XZ_DATA" --stats 2>/dev/null | awk '/SAMPLE events/ { print $3; exit }') samples)"
	three_modes "$XZ_DATA"
else
	echo "SKIP: xz recording (xz missing or perf record failed)"
fi
