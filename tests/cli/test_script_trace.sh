#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Tracepoint samples in sonde script read as perf script prints them: the
# event's print fmt evaluated (symbolic prev_state=S/R+, __print_flags,
# __print_symbolic, ?:, casts, %pS through kallsyms), on a file sonde
# recorded and on one perf recorded, compared line by line with perf
# script on the same file. (timer:timer_start is left out: perf 6.1's
# libtraceevent drops the parentheses of its flags mask and prints
# flags=D|P|I where the masked value is 0.)
source "$(dirname "$0")/lib.sh"

if ! have_perf; then
	skip "script trace: perf is not installed (apt-get install linux-perf)"
	exit 0
fi
if ! have_tracefs; then
	skip "script trace: tracefs is not mounted (and we may not mount it)"
	exit 0
fi
EV=sched:sched_switch,sched:sched_wakeup,sched:sched_waking
EV=$EV,sched:sched_process_fork,sched:sched_process_exec
EV=$EV,sched:sched_process_exit,sched:sched_stat_runtime
EV=$EV,irq:softirq_entry,signal:signal_generate,raw_syscalls:sys_exit
EV=$EV,kmem:kmalloc,timer:hrtimer_start,workqueue:workqueue_execute_start
avail=
for e in ${EV//,/ }; do
	[ -d "/sys/kernel/tracing/events/${e/://}" ] && avail=$avail,$e
done
avail=${avail#,}
if [ -z "$avail" ]; then
	skip "script trace: none of the test tracepoints exist here"
	exit 0
fi
WORK='ls / >/dev/null; sleep 0.05; kill -0 $$'

# cmp_text NAME FILE: perf script and sonde script print the same lines.
cmp_text() {
	local name=$1 f=$2 n
	perf script -i "$f" >"$TMP/p.txt" 2>/dev/null
	"$SONDE" script -i "$f" >"$TMP/s.txt" 2>"$TMP/err"
	n=$(wc -l <"$TMP/p.txt")
	if [ "$n" = 0 ]; then
		skip "$name: perf script printed nothing"
	elif cmp -s "$TMP/p.txt" "$TMP/s.txt"; then
		pass "$name: $n lines as perf script prints them ($(grep -c 'prev_state=' "$TMP/p.txt") sched_switch)"
	else
		fail "$name: $(diff "$TMP/p.txt" "$TMP/s.txt" | grep -c '^<') of $n lines differ, e.g. $(diff "$TMP/p.txt" "$TMP/s.txt" | grep -m2 '^[<>]' | cut -c1-250 | tr '\n' '|')"
	fi
}

if "$SONDE" record -e "$avail" -a -o "$TMP/sonde.data" -- sh -c "$WORK" \
	>/dev/null 2>"$TMP/rec.err"; then
	cmp_text "script trace (sonde-recorded)" "$TMP/sonde.data"
else
	fail "script trace: sonde record failed: $(head -c 300 "$TMP/rec.err")"
fi
if perf record -q -e "$avail" -a -o "$TMP/perf.data" -- sh -c "$WORK" \
	>/dev/null 2>"$TMP/rec.err"; then
	cmp_text "script trace (perf-recorded)" "$TMP/perf.data"
else
	skip "script trace: perf record failed: $(head -c 300 "$TMP/rec.err")"
fi
