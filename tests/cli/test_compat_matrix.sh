#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# The compatibility matrix on real recordings: file and pipe mode x {no
# call chain, fp, dwarf, several events, tracepoint, compressed} x {perf
# report, perf script, sonde report, sonde script}. The four readers must
# agree on the samples per event and the top symbol of each event.
#
# sonde record writes every cell but the compressed one, which perf record
# -z writes (sonde does not compress). The ids here are whatever the
# kernel's global counter hands out; the bit patterns that matter are forced
# through the syscall seam in tests/unit/test_compat_matrix.c, which also
# covers branch stacks (no PMU for them on most VMs).
source "$(dirname "$0")/lib.sh"
W="$HELPERS/report_workload"
T=60 # seconds any one command may take

need_perf "compat matrix"
need_helper "compat matrix" "$W"

# "event count top" per event, sorted, from report --stdio.
sum_report() {
	awk '/^# Samples: /{ ev = $NF; gsub("\x27", "", ev); n[ev] = $3; want = ev; next }
	     want != "" && /%/ && !/^#/ { top[want] = $NF; want = "" }
	     END { for (e in n) print e, n[e], top[e] }' | sort
}

# The same from script -F event,ip,sym: a sample line starts with the event
# name and a colon; its symbol is on that line or the first frame below.
sum_script() {
	awk '$1 ~ /:$/ && $1 !~ /^[0-9a-f]+$/ { ev = $1; sub(/:$/, "", ev); n[ev]++; pend = 1
		if (NF >= 3) { s[ev " " $3]++; pend = 0 }; next }
	     pend && NF >= 2 && $1 ~ /^[0-9a-f]+$/ { s[ev " " $2]++; pend = 0 }
	     END { for (k in s) { split(k, a, " ")
			if (s[k] > best[a[1]] || (s[k] == best[a[1]] && a[2] < top[a[1]])) {
				best[a[1]] = s[k]; top[a[1]] = a[2] } }
		   for (e in n) print e, n[e], top[e] }' | sort
}

# readers NAME FILE PIPE: the four summaries must be identical.
readers() {
	local name=$1 f=$2 pipe=$3 in="-i $2"
	[ "$pipe" = 1 ] && in="-i -"
	feed() { if [ "$pipe" = 1 ]; then cat "$f"; fi; }
	feed | bounded $T perf report -f --stdio --no-children --sort sym -g none $in 2>/dev/null |
		sum_report >"$TMP/s.pr"
	feed | bounded $T perf script -f -F event,ip,sym $in 2>/dev/null | sum_script >"$TMP/s.ps"
	feed | bounded $T "$SONDE" report --stdio --no-children --sort sym -g none $in 2>/dev/null |
		sum_report >"$TMP/s.sr"
	feed | bounded $T "$SONDE" script -F event,ip,sym $in 2>/dev/null | sum_script >"$TMP/s.ss"
	if [ ! -s "$TMP/s.pr" ] || awk '$2 == 0 || $3 == ""' "$TMP/s.pr" | grep -q .; then
		fail "$name: perf report found no samples: $(head -c 300 "$TMP/s.pr")"
		return
	fi
	local bad=
	for r in ps sr ss; do
		cmp -s "$TMP/s.pr" "$TMP/s.$r" || bad="$bad $r"
	done
	if [ -z "$bad" ]; then
		pass "$name: 4 readers agree ($(tr '\n' ' ' <"$TMP/s.pr"))"
	else
		fail "$name: readers differ (pr=perf report, ps=perf script, sr/ss=sonde):$bad"
		for r in pr ps sr ss; do echo "  $r: $(tr '\n' ' ' <"$TMP/s.$r")"; done
	fi
}

# cell NAME WRITER RECORD-ARGS...: records in both modes, then reads.
cell() {
	local name=$1 writer=$2; shift 2
	for pipe in 0 1; do
		local f="$TMP/$name.$pipe.data" mode=file out
		[ "$pipe" = 1 ] && mode=pipe
		out=$f; [ "$pipe" = 1 ] && out=-
		if [ "$writer" = perf ]; then
			bounded $T perf record -q -o "$out" "$@" >"$TMP/rec.out" 2>"$TMP/rec.err"
		else
			bounded $T "$SONDE" record -q -o "$out" "$@" >"$TMP/rec.out" 2>"$TMP/rec.err"
		fi
		rc=$?
		[ "$pipe" = 1 ] && mv "$TMP/rec.out" "$f"
		if [ $rc -ne 0 ] || [ ! -s "$f" ]; then
			if [ "$writer" = perf ] && [ $rc -ge 128 ]; then
				# perf 6.1 record sometimes aborts in its build-id
				# cache step when perf processes share ~/.debug.
				skip "$mode $name: perf record crashed (exit $rc)"
			else
				fail "$mode $name: $writer record exit $rc: $(head -c 300 "$TMP/rec.err")"
			fi
			continue
		fi
		readers "$mode $name" "$f" "$pipe"
	done
}

C="-c 1000000" # cpu-clock: a sample per ms of CPU, a few hundred per cell
cell plain sonde -e cpu-clock $C -- "$W" single 200
cell fp sonde -g -e cpu-clock $C -- "$W" single 200
cell dwarf sonde --call-graph dwarf,4096 -e cpu-clock $C -- "$W" single 200
cell two-events sonde -e cpu-clock,task-clock $C -- "$W" single 200
if have_tracefs; then
	# Every sample of the syscall tracepoint is in the workload's code.
	cell tracepoint sonde -e raw_syscalls:sys_enter -c 1 -- \
		sh -c 'for i in 1 2 3 4 5 6 7 8; do : >/dev/null; done; exec true'
else
	skip "tracepoint cells: no tracefs here"
fi
if perf record -q -z -e cpu-clock -c 10000000 -o "$TMP/z.probe" -- true 2>/dev/null; then
	cell compressed perf -z -e cpu-clock $C -- "$W" single 200
else
	skip "compressed cells: this perf record has no -z (built without zstd)"
fi
