#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# sonde export in every format against sonde report and perf's own folded
# output, side by side in one run, on the generated 1M-sample file with
# 12-frame fp callchains (bench/gen_perfdata, as bench_report.sh makes it).
# The commands take turns, RUNS rounds of all of them, so a change in the
# machine's load falls on each alike. Prints the median wall and CPU
# (user + sys, to the microsecond) time of each, the ratios and the
# targets, judged on CPU time (which a busy shared machine disturbs far
# less than wall time): each export <= 1.5x `sonde report`, and >= 10x
# faster than `perf report --stdio --no-children -g folded`.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build}
SONDE=${SONDE:-$BUILD_DIR/sonde}
RUNS=${RUNS:-5}
NR=${NR:-1000000}
WORK=${BENCH_DIR:-$BUILD_DIR/bench}
FORMATS=${FORMATS:-folded pprof speedscope firefox svg html}
mkdir -p "$WORK"

command -v python3 >/dev/null || { echo "SKIP: python3 is missing (it times the runs)"; exit 0; }
DATA=$WORK/fp-$NR.data
gcc -O2 -std=c11 -D_GNU_SOURCE "$ROOT/bench/gen_perfdata.c" -o "$WORK/gen_perfdata" -lelf || exit 1
[ -s "$DATA" ] || "$WORK/gen_perfdata" "$DATA" "$NR" 12 500 || exit 1

# run_once CMD...: "wall cpu" in seconds, the CPU time the command's
# processes used (getrusage of the children), not python's own.
run_once() {
	python3 - "$@" <<'PY'
import resource, subprocess, sys, time
r0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
t1, r1 = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.6f %.6f" % (t1 - t0, r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime))
PY
}
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

names=("sonde report") cmds=("$SONDE report -i $DATA")
if command -v perf >/dev/null; then
	names+=("perf report --stdio --no-children -g folded")
	cmds+=("perf report -f --stdio --no-children -g folded -i $DATA")
fi
for f in $FORMATS; do
	if ! "$SONDE" export --format "$f" -i "$DATA" -o "$WORK/export.$f" 2>"$WORK/export.err"; then
		echo "  export $f: $(head -c 200 "$WORK/export.err") (skipped)"
		continue
	fi
	names+=("sonde export --format $f ($(du -k "$WORK/export.$f" | cut -f1) kB)")
	cmds+=("$SONDE export --format $f -i $DATA -o $WORK/export.$f")
done

echo "== export benchmark: $RUNS rounds, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "file: $DATA ($(du -mL "$DATA" | cut -f1) MB, $NR samples, 12-frame fp callchains)"
declare -a walls cpus
for ((r = 0; r < RUNS; r++)); do
	for k in "${!cmds[@]}"; do
		# shellcheck disable=SC2086 # the command's words
		read -r w c < <(run_once ${cmds[k]})
		walls[k]+="$w "
		cpus[k]+="$c "
	done
done
rep= perf_cpu=
for k in "${!cmds[@]}"; do
	med=$(tr ' ' '\n' <<<"${walls[k]}" | grep . | median)
	cpu=$(tr ' ' '\n' <<<"${cpus[k]}" | grep . | median)
	printf '  %-58s median %7.3f s wall %7.3f s cpu\n' "${names[k]}" "$med" "$cpu"
	case ${names[k]} in
	"sonde report") rep=$cpu ;;
	"perf report"*) perf_cpu=$cpu ;;
	*)
		awk -v s="$cpu" -v r="$rep" -v p="$perf_cpu" 'BEGIN {
			printf "    cpu vs sonde report: %.2fx (target <= 1.5x: %s)", s / r, (s / r <= 1.5 ? "met" : "NOT met")
			if (p != "")
				printf "; perf folded / export: %.1fx (target >= 10x: %s)", p / s, (p / s >= 10 ? "met" : "NOT met")
			printf "\n"
		}' ;;
	esac
done
[ -n "$perf_cpu" ] || echo "  (perf is not installed: no comparison with perf's folded output)"
awk -v r="$rep" -v p="$perf_cpu" 'BEGIN { if (p != "") printf "  sonde report itself: perf folded / report %.1fx\n", p / r }'
for f in $FORMATS; do rm -f "$WORK/export.$f"; done
