#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# sonde report --stats prints what perf report --stats prints, to the
# byte, on files perf records here: frame-pointer and DWARF callchains, a
# pipe (header records in the stream), two events, lost samples (a 2-page
# buffer and big DWARF samples overflow it), compressed (-z), and a file
# sonde recorded.
source "$(dirname "$0")/lib.sh"
W="$HELPERS/report_workload"

need_perf "stats"
need_helper "stats" "$W"

# same NAME FILE [stdin]: perf's and sonde's --stats output are identical.
same() {
	local name=$1 f=$2 rc
	perf report -i "$f" --stats >"$TMP/p.st" 2>/dev/null
	rc=$?
	if [ "$3" = stdin ]; then
		"$SONDE" report -i - --stats <"$f" >"$TMP/s.st" 2>"$TMP/err"
	else
		"$SONDE" report -i "$f" --stats >"$TMP/s.st" 2>"$TMP/err"
	fi
	if ! grep -q 'Aggregated stats' "$TMP/p.st"; then
		skip "stats $name: perf printed no stats (exit $rc), nothing to compare"
	elif cmp -s "$TMP/p.st" "$TMP/s.st"; then
		pass "stats $name: same as perf ($(grep -c 'events:' "$TMP/p.st") lines of counts)"
	else
		fail "stats $name: differs from perf: $(diff "$TMP/p.st" "$TMP/s.st" | head -8 | tr '\n' '|')"
	fi
}

# rec_same NAME FILE PERF-RECORD-ARGS...: records, then compares.
rec_same() {
	local name=$1 out=$2; shift 2
	if perf_rec "$out" "$@" "$W"; then
		same "$name" "$out"
	else
		# perf 6.1 itself aborts now and then here (build-id.c assertion).
		skip "stats $name: perf record failed: $(head -c 200 "$TMP/rec.err" | tr '\n' ' ')"
	fi
}

rec_same "fp" "$TMP/fp.data" -e cpu-clock -F 999 -g
rec_same "dwarf" "$TMP/dw.data" -e cpu-clock -F 999 --call-graph dwarf
rec_same "two events" "$TMP/two.data" -e cpu-clock,task-clock -c 200000 -g
# perf record -z: records inside COMPRESSED records count by their type.
rec_same "zstd" "$TMP/z.data" -z -m 4 -e cpu-clock -c 20000 -g
perf record -q -e cpu-clock -F 999 -g -o - "$W" 2>/dev/null >"$TMP/pipe.data"
same "pipe file" "$TMP/pipe.data"
same "pipe on stdin" "$TMP/pipe.data" stdin
if perf_rec "$TMP/lost.data" -e cpu-clock -c 20000 --call-graph dwarf,4096 -m 2 "$W"; then
	if perf report -i "$TMP/lost.data" --stats 2>/dev/null | grep -q 'LOST'; then
		same "lost samples" "$TMP/lost.data"
		# The header counts LOST_SAMPLES only, as perf's does; LOST
		# records (chunks) are a warning on stderr.
		p=$(perf report -f --stdio -g none -i "$TMP/lost.data" 2>/dev/null | grep '^# Total Lost Samples')
		s=$("$SONDE" report --stdio -g none -i "$TMP/lost.data" 2>"$TMP/lost.err" | grep '^# Total Lost Samples')
		[ -n "$p" ] && [ "$p" = "$s" ] && pass "lost samples header: $s" ||
			fail "lost samples header: perf '$p', sonde '$s'"
		if perf report -f --stats -i "$TMP/lost.data" 2>/dev/null | grep -q ' LOST events'; then
			grep -q 'LOST record' "$TMP/lost.err" && pass "LOST records: warning on stderr" ||
				fail "LOST records: no warning: $(head -c 300 "$TMP/lost.err")"
		fi
	else
		skip "stats lost samples: nothing was lost this run"
	fi
else
	skip "stats lost samples: perf record failed: $(head -c 200 "$TMP/rec.err" | tr '\n' ' ')"
fi
if "$SONDE" record -e cpu-clock -g -o "$TMP/sonde.data" -- "$W" >/dev/null 2>&1; then
	same "sonde-recorded" "$TMP/sonde.data"
else
	skip "stats sonde-recorded: sonde record failed"
fi
