#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# sonde report --header-only [-I] prints what perf 6.1's does, line for line:
#  - against stored perf output for the committed corpus files (runs
#    without perf; tests/golden/report_header/README lists the one
#    deliberate difference: perf 6.1 drops a feature of a byte-swapped pipe
#    file that sonde reads);
#  - live, against `perf report -f --header-only` on files recorded here:
#    plain with call graphs, an event group, -k CLOCK_MONOTONIC (clockid and
#    reference time), a tracepoint (TRACING_DATA), pipe mode (-o -, also
#    read from stdin), perf stat record (STAT) and -z (COMPRESSED).
#    Identical text, no exceptions.
source "$(dirname "$0")/lib.sh"
G=$(cd "$(dirname "$0")/../golden/report_header" && pwd)
C=$(cd "$(dirname "$0")/../fuzz/corpus/fuzz_perfdata" && pwd)
W="$HELPERS/report_workload"

# perf prints the file's mtime as ctime(3) does.
ctime_of() { LC_ALL=C date -r "$1" '+%a %b %e %H:%M:%S %Y'; }

# NAME.txt is perf's header of the corpus file NAME.data,
# NAME_show_info.txt the same with -I (--show-info).
for g in "$G"/*.txt; do
	b=$(basename "$g" .txt)
	base=${b%_show_info}
	f=$C/$base.data
	opt=()
	[ "$base" != "$b" ] && opt=(-I)
	if ! "$SONDE" report --header-only "${opt[@]}" -i "$f" >"$TMP/h.out" 2>"$TMP/h.err"; then
		fail "golden $b: exit $?: $(head -c 300 "$TMP/h.err")"
		continue
	fi
	want="# captured on    : $(ctime_of "$f")"
	if ! grep -qxF "$want" "$TMP/h.out"; then
		fail "golden $b: captured-on line is not the file's mtime ($want): $(grep -m1 captured "$TMP/h.out")"
		continue
	fi
	sed 's/^# captured on    : .*/# captured on    : MTIME/' "$TMP/h.out" >"$TMP/h.masked"
	if diff -u "$g" "$TMP/h.masked" >"$TMP/h.diff"; then
		pass "golden $b: header matches perf 6.1"
	else
		fail "golden $b: header differs from perf 6.1: $(head -c 800 "$TMP/h.diff")"
	fi
done

# --header prints the same header before the report.
"$SONDE" report --header-only -i "$C/perf_file.data" >"$TMP/only.out" 2>/dev/null
"$SONDE" report --header --stdio -i "$C/perf_file.data" >"$TMP/with.out" 2>/dev/null
if [ -s "$TMP/only.out" ] &&
   cmp -s "$TMP/only.out" <(head -n "$(wc -l <"$TMP/only.out")" "$TMP/with.out") &&
   grep -q '^# Samples: ' "$TMP/with.out"; then
	pass "--header: the header, then the report"
else
	fail "--header: output does not start with the --header-only text"
fi
if grep -q 'build id\|^# format\|^# features:' "$TMP/only.out"; then
	fail "--header-only prints lines perf does not (build ids, format, features)"
else
	pass "--header-only: no sonde-only lines"
fi

# --buildid-list: perf buildid-list's layout (stored perf output).
if "$SONDE" report --buildid-list -i "$C/perf_file.data" >"$TMP/b.out" 2>&1 &&
   [ -s "$TMP/b.out" ] && diff -u "$G/perf_file.buildids" "$TMP/b.out" >"$TMP/b.diff"; then
	pass "--buildid-list matches perf buildid-list"
else
	fail "--buildid-list differs from perf buildid-list: $(head -c 600 "$TMP/b.diff" "$TMP/b.out")"
fi

need_perf "header vs perf"
need_helper "header vs perf" "$W"

# same NAME FILE [< STDIN]: perf and sonde print the same header, with and
# without -I.
same() {
	local name=$1 file=$2
	for opt in "" -I; do
		if [ "$file" = - ]; then
			perf report -f --header-only $opt -i - <"$3" >"$TMP/p.out" 2>/dev/null
			"$SONDE" report --header-only $opt -i - <"$3" >"$TMP/s.out" 2>"$TMP/s.err"
		else
			perf report -f --header-only $opt -i "$file" >"$TMP/p.out" 2>/dev/null
			"$SONDE" report --header-only $opt -i "$file" >"$TMP/s.out" 2>"$TMP/s.err"
		fi
		if ! grep -q '^# header version' "$TMP/p.out"; then
			skip "header $name $opt: perf 6.1 could not read the file"
		elif diff -u "$TMP/p.out" "$TMP/s.out" >"$TMP/d.diff"; then
			pass "header $name $opt: identical to perf"
		else
			fail "header $name $opt: differs from perf: $(head -c 1000 "$TMP/d.diff") $(head -c 200 "$TMP/s.err")"
		fi
	done
}

# rec NAME ARGS...: perf record into $TMP/NAME.data. perf 6.1 often aborts
# here while collecting build ids at the end ("assertion failed at
# util/build-id.c"), so the files are recorded with -B (no BUILD_ID
# feature) except the first, which tries a few times with build ids.
rec() {
	local name=$1; shift
	perf record -q -B -o "$TMP/$name.data" "$@" -- "$W" threads 20 \
		>/dev/null 2>"$TMP/rec.err"
}

rec_plain() {
	for try in 1 2 3 4; do
		perf record -q --no-buildid-cache -o "$TMP/plain.data" -g -e cpu-clock \
			-c 200000 -- "$W" threads 20 >/dev/null 2>"$TMP/rec.err" && return 0
	done 2>/dev/null
	return 1
}
if rec_plain; then
	same plain "$TMP/plain.data"
	grep -q '^# sample duration : ' "$TMP/s.out" &&
		grep -q '^# missing features: .*TRACING_DATA ' "$TMP/s.out" &&
		grep -q '^# sibling threads : ' "$TMP/s.out" &&
		pass "header plain: duration, missing features and -I topology present" ||
		fail "header plain: expected lines missing from sonde's output"
	perf buildid-list -i "$TMP/plain.data" >"$TMP/pb.out" 2>/dev/null
	"$SONDE" report --buildid-list -i "$TMP/plain.data" >"$TMP/sb.out" 2>&1
	if [ -s "$TMP/pb.out" ] && cmp -s "$TMP/pb.out" "$TMP/sb.out"; then
		pass "--buildid-list plain: identical to perf buildid-list"
	else
		fail "--buildid-list plain: differs: $(diff "$TMP/pb.out" "$TMP/sb.out" | head -c 600)"
	fi
else
	skip "header plain: perf record aborted 4 times: $(head -c 300 "$TMP/rec.err")"
fi
if rec group -e '{cpu-clock,task-clock}' -c 200000; then
	same group "$TMP/group.data"
	contains "header group: group line" '^# group: \{cpu-clock,task-clock\}$' "$TMP/s.out"
else
	skip "header group: perf record failed: $(head -c 200 "$TMP/rec.err")"
fi
if rec ngroup -e 'mygrp{cpu-clock,task-clock}' -c 200000; then
	same "named group" "$TMP/ngroup.data"
	contains "header named group: group line" '^# group: mygrp\{cpu-clock,task-clock\}$' "$TMP/s.out"
else
	skip "header named group: perf record failed: $(head -c 200 "$TMP/rec.err")"
fi
if rec tai -k tai -e cpu-clock -c 200000; then
	same "clockid tai" "$TMP/tai.data"
else
	skip "header clockid tai: perf record failed: $(head -c 200 "$TMP/rec.err")"
fi
if rec clock -k CLOCK_MONOTONIC -e cpu-clock -c 200000; then
	same clockid "$TMP/clock.data"
	contains "header clockid: reference time" '^# reference time: .* \(monotonic\)$' "$TMP/s.out"
else
	skip "header clockid: perf record failed: $(head -c 200 "$TMP/rec.err")"
fi
if have_tracefs && rec tp -e sched:sched_switch -e cpu-clock -c 100000; then
	same tracepoint "$TMP/tp.data"
else
	skip "header tracepoint: no tracefs or perf record failed: $(head -c 200 "$TMP/rec.err")"
fi
if perf record -q -B -o - -e cpu-clock -c 200000 -- "$W" threads 20 >"$TMP/pipe.data" 2>"$TMP/rec.err"; then
	same pipe "$TMP/pipe.data"
	same "pipe (stdin)" - "$TMP/pipe.data"
else
	skip "header pipe: perf record -o - failed: $(head -c 200 "$TMP/rec.err")"
fi
if perf stat record -o "$TMP/st.data" -e cpu-clock -- "$W" threads 5 >/dev/null 2>&1; then
	same "stat record" "$TMP/st.data"
	contains "header stat record: stat line" '^# contains stat data$' "$TMP/s.out"
else
	skip "header stat record: perf stat record failed"
fi
# perf prints a quote inside an argument of the command line as \'.
if perf record -q -B -o "$TMP/quote.data" -e cpu-clock -- true "it's" \
	>/dev/null 2>&1; then
	same "quoted cmdline" "$TMP/quote.data"
	contains "header quoted cmdline: escaped quote" "^# cmdline : .* -- true it\\\\'s \$" "$TMP/s.out"
else
	skip "header quoted cmdline: perf record failed"
fi
if rec z -z -e cpu-clock -c 200000; then
	same compressed "$TMP/z.data"
	contains "header compressed: Zstd line" '^# compressed : Zstd, level = ' "$TMP/s.out"
else
	skip "header compressed: perf record -z failed (perf built without zstd?)"
fi
