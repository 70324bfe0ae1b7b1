#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# sonde record asks for the shortest time slice for its reader (Linux
# 6.12+, EEVDF), so that it runs soon after a ring's wakeup instead of
# behind a busy thread's whole slice; the workload keeps the default
# slice, and the reader its nice value.
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 1

rel=$(uname -r)
major=${rel%%.*}
minor=${rel#*.}
minor=${minor%%[!0-9]*}
if [ "$major" -lt 6 ] || { [ "$major" = 6 ] && [ "$minor" -lt 12 ]; }; then
	skip "record slice: Linux $rel has no per-task slice for fair tasks (6.12+)"
	exit 0
fi
if ! grep -q '^se.slice' /proc/self/sched 2>/dev/null; then
	skip "record slice: /proc/PID/sched shows no se.slice here"
	exit 0
fi
if ! "$SONDE" record -q -e cpu-clock -o probe.data -- true 2>probe.err; then
	skip "record slice: cannot record here: $(head -c 300 probe.err)"
	exit 0
fi

slice() { awk '/^se.slice/ {print $3}' "$1"; }
# The workload's parent is the reader; both are read before the workload
# exits, while the reader is waiting on the rings.
nice -n 3 "$SONDE" record -q -e cpu-clock -o s.data -- sh -c \
	'cat /proc/$PPID/sched >reader.sched; cat /proc/$$/sched >work.sched;
	 cut -d" " -f19 /proc/$PPID/stat >reader.nice' 2>err
reader=$(slice reader.sched)
work=$(slice work.sched)
if [ -z "$reader" ] || [ -z "$work" ]; then
	fail "record slice: no se.slice read: $(head -c 300 err)"
elif [ "$reader" != 100000 ]; then
	fail "record slice: the reader's slice is $reader ns, not 100000"
elif [ "$work" = 100000 ]; then
	fail "record slice: the workload inherited the reader's slice"
elif [ "$(cat reader.nice)" != 3 ]; then
	fail "record slice: the reader's nice is $(cat reader.nice), not 3 as started"
else
	pass "record slice: reader 100000 ns, workload $work ns, nice kept"
fi
