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

need_perf "script trace"
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
# The tracepoint text (after the event name) must be identical on every
# line. Whole lines too, except that a few lines (< 1%) may differ in the
# command column alone: seen on a loaded machine for a forked child's
# first syscall exits (perf ':tid', sonde the parent's name), a question
# of which of the FORK record and the child's sample is delivered first.
# Lines where perf had no name yet (':TID') may differ in any number: on a
# busy machine the system-wide recording holds many such children.
cmp_text() {
	local name=$1 f=$2 n bad named other
	perf script -i "$f" >"$TMP/p.txt" 2>/dev/null
	"$SONDE" script -i "$f" >"$TMP/s.txt" 2>"$TMP/err"
	n=$(wc -l <"$TMP/p.txt")
	if [ "$n" = 0 ]; then
		skip "$name: perf printed nothing"
		return
	fi
	sed 's/^.*[0-9]: *[a-z_0-9]*:[a-z_0-9]*: //' "$TMP/p.txt" >"$TMP/p.tr"
	sed 's/^.*[0-9]: *[a-z_0-9]*:[a-z_0-9]*: //' "$TMP/s.txt" >"$TMP/s.tr"
	if cmp -s "$TMP/p.tr" "$TMP/s.tr"; then
		pass "$name: tracepoint text of $n lines as perf prints it ($(grep -c 'prev_state=' "$TMP/p.txt") sched_switch)"
	else
		fail "$name: tracepoint text differs: $(diff "$TMP/p.tr" "$TMP/s.tr" | grep -m2 '^[<>]' | cut -c1-250 | tr '\n' '|')"
	fi
	bad=$(diff "$TMP/p.txt" "$TMP/s.txt" | grep -c '^<')
	# Of those, the lines where perf knew the thread's name (not ':TID').
	named=$(diff "$TMP/p.txt" "$TMP/s.txt" | grep '^<' | grep -cvE '^< +:[0-9]+ ')
	# Differences once the command column (up to the pid) is cut off.
	other=$(diff <(sed -E 's/^ *.* +([0-9]+ +\[)/\1/' "$TMP/p.txt") \
		     <(sed -E 's/^ *.* +([0-9]+ +\[)/\1/' "$TMP/s.txt") | grep -c '^<')
	if [ "$bad" = 0 ]; then
		pass "$name: all $n lines identical to perf script"
	elif [ "$other" = 0 ] && [ $((named * 100)) -lt "$n" ]; then
		pass "$name: lines identical but for the command of $bad of $n (fork race, see above)"
	else
		fail "$name: $bad of $n lines differ, e.g. $(diff "$TMP/p.txt" "$TMP/s.txt" | grep -m2 '^[<>]' | cut -c1-250 | tr '\n' '|')"
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

# The formats come from the file: move sched_switch to an id this kernel
# does not use (in the recorded format and in the attr), so only the
# recorded TRACING_DATA can decode it.
if [ -s "$TMP/sonde.data" ] && command -v python3 >/dev/null &&
   id=$(awk '/^ID:/ { print $2 }' /sys/kernel/tracing/events/sched/sched_switch/format) &&
   [ -n "$id" ]; then
	new=$(( 10 ** ${#id} - 1 ))
	[ "$new" = "$id" ] && new=$(( new - 1 ))
	python3 - "$TMP/sonde.data" "$TMP/reid.data" "$id" "$new" <<'PY'
import re, struct, sys
src, dst, old, new = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
b = bytearray(open(src, 'rb').read())
b = b.replace(b'ID: %d\n' % old, b'ID: %d\n' % new)
# attr: u32 type (2 = tracepoint), u32 size, u64 config (the id)
pat = re.compile(re.escape(struct.pack('<I', 2)) + b'.{4}' +
                 re.escape(struct.pack('<Q', old)), re.S)
for x in list(pat.finditer(bytes(b))):
    b[x.start() + 8:x.start() + 16] = struct.pack('<Q', new)
open(dst, 'wb').write(b)
PY
	"$SONDE" script -i "$TMP/reid.data" >"$TMP/reid.txt" 2>"$TMP/err"
	if grep -q 'sched_switch: prev_comm=.* prev_state=[A-Z+|]* ==> ' "$TMP/reid.txt"; then
		pass "script trace: formats read from the file's TRACING_DATA (id $id moved to $new)"
	else
		fail "script trace: sched_switch under id $new not decoded: $(grep -m1 sched_switch "$TMP/reid.txt" | cut -c1-200)"
	fi
else
	skip "script trace: recorded-format check needs python3 and the sonde file"
fi
