#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# sonde report / script against perf report / script, side by side in one
# run, on the same files: a generated 1M-sample file with 12-frame fp
# callchains (500 distinct stacks over libc functions) and, when perf can
# record here, a --call-graph dwarf recording of >= 20k samples.
# Prints the median wall time of RUNS runs per tool, the ratio, and the peak
# RSS (/usr/bin/time -v). Outputs are also compared (same text expected for
# the generated file). DWARF_ONLY=1 runs the DWARF recording part alone.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build}
SONDE=${SONDE:-$BUILD_DIR/sonde}
HELPERS=${HELPERS:-$BUILD_DIR/helpers}
RUNS=${RUNS:-5}
NR=${NR:-1000000}
WORK=${BENCH_DIR:-$BUILD_DIR/bench}
mkdir -p "$WORK"

if ! command -v perf >/dev/null; then
	echo "SKIP: perf is not installed, nothing to compare with"; exit 0
fi
if [ ! -x /usr/bin/time ]; then
	echo "SKIP: /usr/bin/time is missing (apt-get install time)"; exit 0
fi
DATA=$WORK/fp-$NR.data
if [ -z "${DWARF_ONLY:-}" ]; then
	gcc -O2 -std=c11 -D_GNU_SOURCE "$ROOT/bench/gen_perfdata.c" -o "$WORK/gen_perfdata" -lelf || exit 1
	[ -s "$DATA" ] || "$WORK/gen_perfdata" "$DATA" "$NR" 12 500 || exit 1
fi

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# measure NAME CMD...: sets MED (wall seconds), CPU (user+sys seconds) and
# RSS (kB, max over runs). CPU time is the steadier number on a busy host.
measure() {
	local name=$1; shift
	local times=() cpus=() rss=0 i t c r
	for ((i = 0; i < RUNS; i++)); do
		/usr/bin/time -v -o "$WORK/time.txt" "$@" >/dev/null 2>&1
		t=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (k = 1; k <= n; k++) s = s * 60 + p[k]; print s }' "$WORK/time.txt")
		c=$(awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$WORK/time.txt")
		r=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$WORK/time.txt")
		times+=("$t")
		cpus+=("$c")
		[ "${r:-0}" -gt "$rss" ] && rss=$r
	done
	MED=$(printf '%s\n' "${times[@]}" | median)
	CPU=$(printf '%s\n' "${cpus[@]}" | median)
	RSS=$rss
	printf '  %-44s median %7.2f s wall %7.2f s cpu  peak RSS %8d kB\n' "$name" "$MED" "$CPU" "$RSS"
}

# pair TITLE TARGET_RATIO "sonde cmd" "perf cmd"
pair() {
	local title=$1 target=$2 scmd=$3 pcmd=$4 sm sc sr pm pc pr
	echo "$title"
	measure "sonde: $scmd" bash -c "$scmd"
	sm=$MED sc=$CPU sr=$RSS
	measure "perf:  $pcmd" bash -c "$pcmd"
	pm=$MED pc=$CPU pr=$RSS
	awk -v s="$sm" -v p="$pm" -v sc="$sc" -v pc="$pc" -v sr="$sr" -v pr="$pr" -v t="$target" 'BEGIN {
		r = s > 0 ? p / s : 0
		rc = sc > 0 ? pc / sc : 0
		printf "  ratio perf/sonde %.1fx wall, %.1fx cpu (target >= %sx: %s), RSS sonde/perf %.2f (%s)\n",
			r, rc, t, (r >= t ? "met" : "NOT met"), (pr ? sr / pr : 0), (sr <= pr ? "<= perf" : "above perf")
	}'
}

echo "== report/script benchmark: $RUNS runs each, $(nproc) CPUs"
if [ -z "${DWARF_ONLY:-}" ]; then
echo "file: $DATA ($(du -m "$DATA" | cut -f1) MB, $NR samples, 12-frame fp callchains)"
pair "report, default (children) mode" 5 \
	"$SONDE report -i $DATA" "perf report -f --stdio -i $DATA"
pair "report --no-children" 5 \
	"$SONDE report --no-children -i $DATA" "perf report -f --stdio --no-children -i $DATA"
pair "script" 3 \
	"$SONDE script -i $DATA" "perf script -f -i $DATA"
if perf report -f --stdio -i "$DATA" 2>/dev/null | grep -v '^# (Tip' | head -n -2 |
	cmp -s - <("$SONDE" report -i "$DATA" | head -n -0); then
	echo "outputs: report identical to perf"
else
	echo "outputs: report differs from perf ($(diff <(perf report -f --stdio -i "$DATA" 2>/dev/null | grep -v '^# (Tip') <("$SONDE" report -i "$DATA") | grep -c '^[<>]') lines, incl. the tip block)"
fi
perf script -f -i "$DATA" 2>/dev/null | cmp -s - <("$SONDE" script -i "$DATA") &&
	echo "outputs: script identical to perf" || echo "outputs: script differs from perf"
fi

# A real DWARF recording: perf unwinds it with libdw/libunwind per sample.
# A busy host loses samples: record again (3 tries) until it holds >= 20k.
DW=$WORK/dwarf.data
dw_samples() {
	perf report -f --stdio -i "$DW" --stats 2>/dev/null | awk '/SAMPLE events/ { print $3; exit }'
}
if [ -x "$HELPERS/report_workload" ]; then
	n=0
	[ -s "$DW" ] && n=$(dw_samples)
	for ((try = 0; try < 3 && ${n:-0} < 20000; try++)); do
		perf record -q -o "$DW" --call-graph dwarf,8192 -e cpu-clock -c 25000 -- \
			"$HELPERS/report_workload" single 1500 >/dev/null 2>&1
		n=$(dw_samples)
	done
	echo "file: $DW (--call-graph dwarf, ${n:-?} samples)"
	[ "${n:-0}" -ge 20000 ] || echo "WARNING: fewer than 20k samples"
	# Steady state: sonde keeps kernel symbols and DWARF inline answers in
	# ~/.cache/sonde between runs, as perf keeps kallsyms copies in
	# ~/.debug. The first run on a machine fills them: shown apart.
	pair "report on a dwarf recording (sonde caches warm)" 10 \
		"$SONDE report -i $DW" "perf report -f --stdio -i $DW"
	pair "report on a dwarf recording, first run (sonde caches emptied each run)" 10 \
		"rm -rf $WORK/cold-cache; XDG_CACHE_HOME=$WORK/cold-cache $SONDE report -i $DW" \
		"perf report -f --stdio -i $DW"
fi
