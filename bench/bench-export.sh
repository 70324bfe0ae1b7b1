#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# sonde export in every format against sonde report and perf's own folded
# output, side by side in one run, on the generated 1M-sample file with
# 12-frame fp callchains (bench/gen_perfdata, as bench-report.sh makes it).
# Prints the median wall and CPU time of RUNS runs, the ratios and the
# targets: each export <= 1.5x `sonde report`, and >= 10x faster than
# `perf report --stdio --no-children -g folded`.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build}
SONDE=${SONDE:-$BUILD_DIR/sonde}
RUNS=${RUNS:-5}
NR=${NR:-1000000}
WORK=${BENCH_DIR:-$BUILD_DIR/bench}
FORMATS=${FORMATS:-folded pprof speedscope firefox svg html}
mkdir -p "$WORK"

if [ ! -x /usr/bin/time ]; then
	echo "SKIP: /usr/bin/time is missing (apt-get install time)"; exit 0
fi
DATA=$WORK/fp-$NR.data
gcc -O2 -std=c11 -D_GNU_SOURCE "$ROOT/bench/gen_perfdata.c" -o "$WORK/gen_perfdata" -lelf || exit 1
[ -s "$DATA" ] || "$WORK/gen_perfdata" "$DATA" "$NR" 12 500 || exit 1

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# measure NAME CMD: sets MED (wall s) and CPU (user+sys s), medians of RUNS.
measure() {
	local name=$1 cmd=$2 times=() cpus=() i
	for ((i = 0; i < RUNS; i++)); do
		/usr/bin/time -v -o "$WORK/time.txt" bash -c "$cmd" >/dev/null 2>&1
		times+=("$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (k = 1; k <= n; k++) s = s * 60 + p[k]; print s }' "$WORK/time.txt")")
		cpus+=("$(awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$WORK/time.txt")")
	done
	MED=$(printf '%s\n' "${times[@]}" | median)
	CPU=$(printf '%s\n' "${cpus[@]}" | median)
	printf '  %-58s median %7.3f s wall %7.3f s cpu\n' "$name" "$MED" "$CPU"
}

echo "== export benchmark: $RUNS runs each, $(nproc) CPUs"
echo "file: $DATA ($(du -m "$DATA" | cut -f1) MB, $NR samples, 12-frame fp callchains)"
measure "sonde report" "$SONDE report -i $DATA"
rep=$MED repc=$CPU
perf_med=
if command -v perf >/dev/null; then
	measure "perf report --stdio --no-children -g folded" \
		"perf report -f --stdio --no-children -g folded -i $DATA"
	perf_med=$MED perf_cpu=$CPU
else
	echo "  (perf is not installed: no comparison with perf's folded output)"
fi
for f in $FORMATS; do
	if ! "$SONDE" export --format "$f" -i "$DATA" -o "$WORK/export.out" 2>"$WORK/export.err"; then
		echo "  export $f: $(head -c 200 "$WORK/export.err") (skipped)"
		continue
	fi
	measure "sonde export --format $f ($(du -k "$WORK/export.out" | cut -f1) kB)" \
		"$SONDE export --format $f -i $DATA -o $WORK/export.out"
	awk -v s="$MED" -v sc="$CPU" -v r="$rep" -v rc="$repc" -v p="$perf_med" -v pc="${perf_cpu:-0}" 'BEGIN {
		printf "    vs sonde report: %.2fx wall, %.2fx cpu (target <= 1.5x: %s)", s / r, sc / rc, (s / r <= 1.5 ? "met" : "NOT met")
		if (p != "")
			printf "; perf folded / export: %.1fx wall, %.1fx cpu (target >= 10x: %s)", p / s, pc / sc, (p / s >= 10 ? "met" : "NOT met")
		printf "\n"
	}'
done
rm -f "$WORK/export.out"
