# SPDX-License-Identifier: LGPL-2.1-only
# Side-by-side timing helpers for the bench scripts (sourced, not run;
# not a .sh, so that bench/run_all.sh does not run it as a benchmark).
# Needs RUNS and WORK set, /usr/bin/time installed.
#
#   measure NAME CMD...   sets MED (median wall s), CPU (median user+sys s),
#                         RSS (max peak RSS kB over the runs), FAILED (runs
#                         that exited non-zero)
#   pair TITLE TARGET "sonde cmd" "perf cmd"
#                         measures both, prints the ratios against TARGET;
#                         sets S_MED S_CPU P_MED P_CPU for the caller
# PERF_MEM_KB, when set, caps the virtual memory of each run (ulimit -v):
# perf report can need more memory than the host has. PERF_TIMEOUT (s),
# when set, stops a perf run that takes longer: the ratio is then a lower
# bound. PERF_RUNS (default RUNS) is how many times perf runs.

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# measure NAME CMD...; MEASURE_RUNS overrides RUNS, MEASURE_TIMEOUT (s)
# stops each run after that long (then TIMED_OUT counts it).
measure() {
	local name=$1; shift
	local times=() cpus=() rss=0 i t c r rc runs=${MEASURE_RUNS:-$RUNS}
	FAILED=0 TIMED_OUT=0
	for ((i = 0; i < runs; i++)); do
		(
			[ -n "${PERF_MEM_KB:-}" ] && ulimit -v "$PERF_MEM_KB"
			if [ -n "${MEASURE_TIMEOUT:-}" ]; then
				exec /usr/bin/time -v -o "$WORK/time.txt" \
					timeout "$MEASURE_TIMEOUT" "$@" >/dev/null 2>&1
			fi
			exec /usr/bin/time -v -o "$WORK/time.txt" "$@" >/dev/null 2>&1
		)
		rc=$?
		if [ "$rc" -ne 0 ]; then
			FAILED=$((FAILED + 1))
			[ "$rc" -eq 124 ] && [ -n "${MEASURE_TIMEOUT:-}" ] && TIMED_OUT=$((TIMED_OUT + 1))
		fi
		t=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (k = 1; k <= n; k++) s = s * 60 + p[k]; print s }' "$WORK/time.txt")
		c=$(awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$WORK/time.txt")
		r=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$WORK/time.txt")
		times+=("${t:-0}")
		cpus+=("${c:-0}")
		[ "${r:-0}" -gt "$rss" ] && rss=$r
	done
	MED=$(printf '%s\n' "${times[@]}" | median)
	CPU=$(printf '%s\n' "${cpus[@]}" | median)
	RSS=$rss
	printf '  %-44s median %7.2f s wall %7.2f s cpu  peak RSS %8d kB%s\n' "$name" "$MED" "$CPU" "$RSS" \
		"$([ "$TIMED_OUT" -gt 0 ] && echo "  ($TIMED_OUT of $runs runs stopped after ${MEASURE_TIMEOUT}s)" ||
		   { [ "$FAILED" -gt 0 ] && echo "  ($FAILED of $runs runs FAILED)"; })"
}

pair() {
	local title=$1 target=$2 scmd=$3 pcmd=$4 sr pr sf pf
	echo "$title"
	measure "sonde: $scmd" bash -c "$scmd"
	S_MED=$MED S_CPU=$CPU sr=$RSS sf=$FAILED
	MEASURE_RUNS=${PERF_RUNS:-$RUNS} MEASURE_TIMEOUT=${PERF_TIMEOUT:-} \
		measure "perf:  $pcmd" bash -c "$pcmd"
	P_MED=$MED P_CPU=$CPU pr=$RSS pf=$FAILED
	if [ "$sf" -eq 0 ] && [ "$TIMED_OUT" -gt 0 ] && [ "$TIMED_OUT" -eq "$pf" ]; then
		# perf ran out of time: it took at least the timeout (wall).
		awk -v s="$S_MED" -v p="$PERF_TIMEOUT" -v t="$target" 'BEGIN {
			r = s > 0 ? p / s : 0
			printf "  ratio perf/sonde > %.1fx wall (perf stopped after %d s; target >= %sx: %s)\n",
				r, p, t, (r >= t ? "met" : "unknown")
		}'
		return
	fi
	if [ "$pf" -gt 0 ] || [ "$sf" -gt 0 ]; then
		echo "  no ratio: a tool failed (perf under PERF_MEM_KB=${PERF_MEM_KB:-unlimited}?)"
		return
	fi
	awk -v s="$S_MED" -v p="$P_MED" -v sc="$S_CPU" -v pc="$P_CPU" -v sr="$sr" -v pr="$pr" -v t="$target" 'BEGIN {
		r = s > 0 ? p / s : 0
		rc = sc > 0 ? pc / sc : 0
		printf "  ratio perf/sonde %.1fx wall, %.1fx cpu (target >= %sx: %s), RSS sonde/perf %.2f (%s)\n",
			r, rc, t, (r >= t ? "met" : "NOT met"), (pr ? sr / pr : 0), (sr <= pr ? "<= perf" : "above perf")
	}'
}
