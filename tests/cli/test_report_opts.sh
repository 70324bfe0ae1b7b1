#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# The display options of `sonde report` and `sonde script -F` against perf
# 6.1 on one perf-recorded, multi-threaded fp file. report: call graph
# order (caller/callee), type (graph/fractal/flat/folded), threshold,
# --sort pid/cpu, --percent-limit and the --pid/--dsos/--symbols/--comms
# filters. The text must be identical; both
# runs use --percent-limit 1 so one-sample rows from the dynamic loader,
# whose order among equal percentages is not worth imitating, stay out.
source "$(dirname "$0")/lib.sh"
W="$HELPERS/report_workload"

need_perf "report options"
need_helper "report options" "$W"
F=$TMP/thr.data
# -F, not a fixed period: with -c the two threads' sums tie exactly in
# about one recording of four, and perf's order among exact ties rests on
# rules sonde does not copy (see report_canon.py). User mode only: on a
# loaded host, timer-interrupt frames of the kernel add children-mode
# rows whose order among equal shares is the same kind of tie (CI met
# one), and kernel symbols are this kernel's anyway.
perf_rec "$F" -g -e cpu-clock:u -F 4999 -- "$W" threads 200
rc=$?
if [ $rc -ne 0 ]; then
	if [ $rc -ge 128 ]; then
		skip "report options: perf record crashed (exit $rc): $(head -1 "$TMP/rec.err")"
	else
		fail "report options: perf record failed: $(head -3 "$TMP/rec.err")"
	fi
	exit 0
fi

# perf ends with a random tip between '#' lines: drop it and trailing '#'s.
# Its fractal "[...]" line carries " (inlined)" or not at random (the flag
# of a malloc()ed placeholder symbol is never set): drop the suffix.
# Rows that print the same shares are put in one order (report_canon.py).
trim() {
	grep -v '^# (Tip' | sed 's/\[\.\.\.\] (inlined)$/[...]/' | awk '{ l[NR] = $0 } END {
		n = NR; while (n > 0 && (l[n] == "#" || l[n] == "")) n--
		for (i = 1; i <= n; i++) print l[i] }' | python3 "$(dirname "$0")/report_canon.py"
}

# same NAME OPTS...: perf report and sonde report print the same text.
same() {
	local name=$1; shift
	perf report -f --stdio --percent-limit 1 "$@" -i "$F" 2>/dev/null | trim >"$TMP/p.out"
	if [ "${PIPESTATUS[0]}" -ge 128 ]; then
		skip "$name: perf report crashed, nothing to compare"; return
	fi
	"$SONDE" report --stdio --percent-limit 1 "$@" -i "$F" 2>"$TMP/err" | trim >"$TMP/s.out"
	if ! grep -q '%' "$TMP/p.out"; then
		fail "$name: perf printed no rows"
	elif cmp -s "$TMP/p.out" "$TMP/s.out"; then
		pass "$name: identical to perf ($(wc -l <"$TMP/p.out") lines)"
	else
		fail "$name: differs from perf: $(diff "$TMP/p.out" "$TMP/s.out" | head -8)"
	fi
}

same "default (children, caller graph)"
same "-g caller" -g caller
same "-g callee (children)" -g callee
same "-g graph,10,callee" -g graph,10,callee
same "-g fractal,2,callee" -g fractal,2,callee
same "--no-children (callee graph)" --no-children
same "--no-children -g caller,0.5" --no-children -g caller,0.5
same "--no-children -g fractal" --no-children -g fractal
same "--no-children -g flat" --no-children -g flat
same "--no-children -g folded" --no-children -g folded
same "-g folded,0.5,callee" -g folded,0.5,callee
same "-g flat (children, caller)" -g flat
# perf's value field: counts are what flame graph tools add up.
same "--no-children -g folded,0,caller,count" --no-children -g folded,0,caller,count
same "-g folded,0,callee,period" -g folded,0,callee,period
same "-g graph,0.5,callee,count" -g graph,0.5,callee,count
same "--no-children -g fractal,0.5,caller,count" --no-children -g fractal,0.5,caller,count
same "--no-children -g flat,0,caller,period" --no-children -g flat,0,caller,period
same "--sort pid,sym (one row per thread)" --no-children --sort pid,sym -g none
same "--sort sym,pid with graphs" --sort sym,pid
same "--sort cpu,comm" --no-children --sort cpu,comm -g none
same "--percent-limit 20" --percent-limit 20 -g none
same "--dsos" --no-children --dsos report_workload -g none
same "--symbols" --no-children --symbols leaf_spin,inner_a
same "--comms, relative" --no-children -g none --comms report_workload --percentage relative

# The process id of the recording: the thread that is also a process.
pid=$(perf script -f -F pid,tid -i "$F" 2>/dev/null | awk -F/ '$1 + 0 == $2 + 0 { print $1 + 0; exit }')
if [ -n "$pid" ]; then
	same "--pid" --no-children --pid "$pid" -g none
else
	fail "--pid: no sample of the main thread in the recording"
fi

# perf 6.1 filters --tid on merged entries (any thread of an entry keeps it
# all), so sonde's --tid is checked against its own per-thread rows.
"$SONDE" report --stdio --no-children --sort pid -g none -i "$F" >"$TMP/thr.out" 2>&1
read -r tid want < <(awk '/^ +[0-9.]+% +[0-9]+:/ { sub(/:.*/, "", $2); print $2, $1; exit }' "$TMP/thr.out")
if [ -n "$tid" ]; then
	"$SONDE" report --stdio --no-children --sort pid -g none --tid "$tid" -i "$F" >"$TMP/tid.out" 2>&1
	got=$(awk '/^ +[0-9.]+% +[0-9]+:/ { print $1 }' "$TMP/tid.out")
	[ "$got" = "$want" ] && pass "--tid $tid keeps that thread's $want only" ||
		fail "--tid $tid: got '$got', want $want: $(head -c 300 "$TMP/tid.out")"
else
	fail "--sort pid printed no thread rows: $(head -c 300 "$TMP/thr.out")"
fi

# script -F: the same text as perf script for each field list.
for fl in comm,tid,time comm,pid,tid,time,event,ip,sym,dso ip,sym,symoff,dso \
	pid,tid comm,pid,tid sym,dso comm,sym -dso +period; do
	perf script -f -F "$fl" -i "$F" 2>/dev/null >"$TMP/p.scr"
	"$SONDE" script -F "$fl" -i "$F" >"$TMP/s.scr" 2>"$TMP/err"
	if [ ! -s "$TMP/p.scr" ]; then
		fail "script -F $fl: perf printed nothing"
	elif cmp -s "$TMP/p.scr" "$TMP/s.scr"; then
		pass "script -F $fl: identical to perf ($(wc -l <"$TMP/p.scr") lines)"
	else
		fail "script -F $fl: differs: $(diff "$TMP/p.scr" "$TMP/s.scr" | head -6)"
	fi
done
# srcline: every frame of the workload gets its file:line, as in perf.
perf script -f -F ip,sym,srcline -i "$F" 2>/dev/null | grep -c 'report_workload\.c:[0-9]' >"$TMP/p.n"
"$SONDE" script -F ip,sym,srcline -i "$F" 2>&1 | grep -c 'report_workload\.c:[0-9]' >"$TMP/s.n"
if [ "$(cat "$TMP/p.n")" -gt 0 ] && cmp -s "$TMP/p.n" "$TMP/s.n"; then
	pass "script -F srcline: $(cat "$TMP/s.n") workload source lines, as perf"
else
	fail "script -F srcline: perf $(cat "$TMP/p.n") workload source lines, sonde $(cat "$TMP/s.n")"
fi
perf script -f -F ip,sym,srcline -i "$F" 2>/dev/null | grep 'report_workload\.c:[0-9]' >"$TMP/p.sl"
"$SONDE" script -F ip,sym,srcline -i "$F" 2>&1 | grep 'report_workload\.c:[0-9]' >"$TMP/s.sl"
cmp -s "$TMP/p.sl" "$TMP/s.sl" && pass "script -F srcline: the same lines in the same order" ||
	fail "script -F srcline: $(diff "$TMP/p.sl" "$TMP/s.sl" | head -4)"
# A field the samples lack is refused with the reason, like perf.
expect_fail "script -F cpu without CPU samples" "-F cpu: the samples of event 'cpu-clock:u' do not carry it \\(recorded without CPU" \
	"$SONDE" script -F comm,cpu -i "$F"

# The same file gives the same text every run: entries with equal shares
# must not come out in hash (address-dependent) order. Several processes
# give many such ties.
if perf record -q -o "$TMP/multi.data" -g -e cpu-clock -c 100000 -- \
	sh -c 'seq 300000 | sort | gzip >/dev/null' >/dev/null 2>&1; then
	"$SONDE" report -i "$TMP/multi.data" >"$TMP/run0" 2>&1
	stable=yes
	for i in 1 2 3 4 5; do
		"$SONDE" report -i "$TMP/multi.data" >"$TMP/run$i" 2>&1
		cmp -s "$TMP/run0" "$TMP/run$i" || stable="no (run $i: $(diff "$TMP/run0" "$TMP/run$i" | head -3))"
	done
	[ "$stable" = yes ] && pass "report text is the same in 6 runs ($(grep -c '%' "$TMP/run0") rows)" ||
		fail "report text changes between runs: $stable"
else
	skip "determinism: perf record of a pipeline failed"
fi
