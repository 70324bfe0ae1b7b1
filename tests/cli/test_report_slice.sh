#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# report --time and -C choose the samples the report is about: the sample
# count, the event count and every share are of what they keep, and the
# header names the time slice, as perf 6.1 prints them (the oracle).
. "$(dirname "$0")/lib.sh"
C="$(dirname "$0")/../fuzz/corpus/fuzz_perfdata"

# Without perf: the committed perf file, whose last 2 of 18 samples fall
# after 3087.999800 (perf 6.1 prints exactly this header).
expect_ok "--time open end" "$SONDE" report --no-children -g none --time 3087.999800, -i "$C/perf_fp.data"
contains "--time: the slice's sample count, and which slice" \
	"^# Samples: 2  of event 'cpu-clock' \(time slices: 3087\.999800,\)$" "$TMP/out"
contains "--time: the slice's event count" '^# Event count \(approx\.\): 100000$' "$TMP/out"
sum=$(awk '/^ +[0-9.]+%  /{ s += $1 } END { printf "%.0f", s }' "$TMP/out")
[ "$sum" = 100 ] && pass "--time: shares of the slice sum to 100%" || fail "--time: shares sum to $sum%"

need_perf "report slices"
W="$HELPERS/report_workload"
need_helper "report slices" "$W"
F=$TMP/a.data
if ! perf_rec "$F" -a -e cpu-clock -c 100000 -- "$W" threads 200; then
	skip "report slices: perf record -a fails here: $(head -c 300 "$TMP/rec.err")"
	exit 0
fi
# The header lines and the rows, without perf's padding and random tip.
norm() { grep -E '^# (Samples|Event count)|^ +[0-9.]+%' | sed 's/ *$//'; }
for args in "--time 10%-20%" "--time 0%-30%,60%-100%" "-C 0" "--time 40%-90% -C 1"; do
	perf report -i "$F" --stdio --sort comm $args 2>/dev/null | norm >"$TMP/perf.txt"
	"$SONDE" report -i "$F" --stdio --sort comm $args 2>"$TMP/err" | norm >"$TMP/sonde.txt"
	if [ ! -s "$TMP/perf.txt" ]; then
		skip "report $args: perf printed nothing to compare"
	elif diff "$TMP/perf.txt" "$TMP/sonde.txt" >"$TMP/diff"; then
		pass "report $args: counts and shares of the slice, as perf"
	else
		fail "report $args differs from perf: $(head -c 600 "$TMP/diff")"
	fi
done
