#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# sonde report / script against perf report / script, side by side in one
# run, on the same files: a generated 1M-sample file with 12-frame fp
# callchains (500 distinct stacks over libc functions) and, when perf can
# record here, a --call-graph dwarf recording of >= 20k samples.
# sonde and perf take turns, RUNS rounds of each pair; prints the median
# wall and CPU (user + sys, to the microsecond) time per tool, the ratios
# judged on CPU time against the target and against issue 9's floor (the
# speed no change may lose), and the peak RSS. Outputs are also compared
# (same text expected for the generated file). DWARF_ONLY=1 runs the DWARF
# recording part alone.
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
command -v python3 >/dev/null || { echo "SKIP: python3 is missing (it times the runs)"; exit 0; }
DATA=$WORK/fp-$NR.data
if [ -z "${DWARF_ONLY:-}" ]; then
	gcc -O2 -std=c11 -D_GNU_SOURCE "$ROOT/bench/gen_perfdata.c" -o "$WORK/gen_perfdata" -lelf || exit 1
	[ -s "$DATA" ] || "$WORK/gen_perfdata" "$DATA" "$NR" 12 500 || exit 1
fi

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# run_once CMD: "wall cpu rss" (seconds, seconds, kB) of one run of the
# shell command CMD: the CPU time (user + sys, to the microsecond) and the
# peak RSS of the processes it ran (getrusage of the children), not
# python's own.
run_once() {
	python3 - "$1" <<'PY'
import resource, subprocess, sys, time
r0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
subprocess.run(["bash", "-c", sys.argv[1]], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
t1, r1 = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.6f %.6f %d" % (t1 - t0, r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime, r1.ru_maxrss))
PY
}

# pair TITLE TARGET FLOOR "sonde cmd" "perf cmd": RUNS rounds, sonde and
# perf in turn, so a change in the machine's load falls on both alike;
# medians of wall and CPU time, the largest peak RSS. The ratio is judged
# on CPU time (a busy shared machine disturbs it far less than wall time)
# against the target and against the floor no change may go below (0:
# none).
pair() {
	local title=$1 target=$2 floor=$3 scmd=$4 pcmd=$5 r w c m
	local sw=() sc=() pw=() pc=() sr=0 pr=0
	echo "$title"
	for ((r = 0; r < RUNS; r++)); do
		read -r w c m < <(run_once "$scmd")
		sw+=("$w") sc+=("$c")
		[ "${m:-0}" -gt "$sr" ] && sr=$m
		read -r w c m < <(run_once "$pcmd")
		pw+=("$w") pc+=("$c")
		[ "${m:-0}" -gt "$pr" ] && pr=$m
	done
	local smw scpu pmw pcpu
	smw=$(printf '%s\n' "${sw[@]}" | median) scpu=$(printf '%s\n' "${sc[@]}" | median)
	pmw=$(printf '%s\n' "${pw[@]}" | median) pcpu=$(printf '%s\n' "${pc[@]}" | median)
	printf '  %-44s median %8.3f s wall %8.3f s cpu  peak RSS %8d kB\n' "sonde: $scmd" "$smw" "$scpu" "$sr"
	printf '  %-44s median %8.3f s wall %8.3f s cpu  peak RSS %8d kB\n' "perf:  $pcmd" "$pmw" "$pcpu" "$pr"
	awk -v s="$smw" -v p="$pmw" -v sc="$scpu" -v pc="$pcpu" -v sr="$sr" -v pr="$pr" -v t="$target" -v f="$floor" 'BEGIN {
		r = s > 0 ? p / s : 0
		rc = sc > 0 ? pc / sc : 0
		printf "  ratio perf/sonde %.1fx wall, %.1fx cpu (target >= %sx: %s", r, rc, t, (rc >= t ? "met" : "NOT met")
		if (f > 0)
			printf "; floor >= %sx: %s", f, (rc >= f ? "held" : "NOT held")
		printf "), RSS sonde/perf %.2f (%s)\n", (pr ? sr / pr : 0), (sr <= pr ? "<= perf" : "above perf")
	}'
}

echo "== report/script benchmark: $RUNS runs each, $(nproc) CPUs"
if [ -z "${DWARF_ONLY:-}" ]; then
echo "file: $DATA ($(du -mL "$DATA" | cut -f1) MB, $NR samples, 12-frame fp callchains)"
pair "report, default (children) mode" 5 100 \
	"$SONDE report -i $DATA" "perf report -f --stdio -i $DATA"
pair "report --no-children" 5 12 \
	"$SONDE report --no-children -i $DATA" "perf report -f --stdio --no-children -i $DATA"
pair "script" 3 12 \
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
	# Both tools map the file, and what a fault costs depends on how big
	# the page-cache folios holding it are: large when the kernel read
	# them in (read-ahead), as small as the recorder's writes when it was
	# just written, and a mix after memory pressure has split or evicted
	# some. A reused file would be timed in whatever state the last hours
	# left it (sonde 36 to 75 ms on the same file). So the file is put in
	# one defined state, the one after a reboot or eviction: written
	# back, dropped from the page cache, read once by cat. Both tools see
	# the same pages.
	sync "$DW"
	python3 -c 'import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "$DW"
	cat "$DW" >/dev/null
	echo "page cache: $DW dropped and read back once by cat (the state after a reboot)"
	# Steady state: sonde keeps kernel symbols and DWARF inline answers in
	# ~/.cache/sonde between runs, as perf keeps kallsyms copies in
	# ~/.debug. The first run on a machine fills them: shown apart.
	pair "report on a dwarf recording (sonde caches warm)" 10 9 \
		"$SONDE report -i $DW" "perf report -f --stdio -i $DW"
	pair "report on a dwarf recording, first run (sonde caches emptied each run)" 10 0 \
		"rm -rf $WORK/cold-cache; XDG_CACHE_HOME=$WORK/cold-cache $SONDE report -i $DW" \
		"perf report -f --stdio -i $DW"
fi
