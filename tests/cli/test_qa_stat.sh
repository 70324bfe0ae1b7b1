#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# sonde stat when its reader goes away (stat -I ... | head): it stops and
# takes the workload with it instead of dying of SIGPIPE and leaving the
# workload running; -o to a device that fails writes is an error, and so
# is running out of file descriptors.
source "$(dirname "$0")/lib.sh"
W="$HELPERS/report_workload"

if [ -w /dev/full ]; then
	expect_fail "stat -o /dev/full: write error reported" "cannot write '/dev/full'" \
		"$SONDE" stat -e cpu-clock -o /dev/full true
	# -I flushes every interval: a failed flush must not be forgotten.
	expect_fail "stat -I -o /dev/full: write error reported" "cannot write '/dev/full'" \
		"$SONDE" stat -I 100 --interval-count 1 -e cpu-clock -o /dev/full -- sleep 0.2
fi

# Out of file descriptors is the limit's fault, not the events': say which
# limit and fail (perf fails too), never "<not supported>" and exit 0.
(ulimit -n 8; exec "$SONDE" stat -e task-clock,context-switches,cpu-migrations,page-faults,minor-faults,major-faults,alignment-faults,emulation-faults,cpu-clock -- true) \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc = 0 ]; then
	fail "stat under ulimit -n 8: exit 0: $(grep -c 'not supported' "$TMP/err") events '<not supported>'"
elif ! grep -q "RLIMIT_NOFILE) is 8" "$TMP/err" || grep -q "not supported" "$TMP/err"; then
	fail "stat under ulimit -n 8: $(head -c 400 "$TMP/err")"
else
	pass "stat under ulimit -n 8 names RLIMIT_NOFILE and fails"
fi

need_helper "stat | head" "$W"
"$SONDE" stat -I 100 -e cpu-clock -- "$W" single 4998 2>&1 | head -1 >/dev/null
left=$(pgrep -f "report_workload single 4998")
if [ -n "$left" ]; then
	fail "stat -I | head: workload left running"
	kill -9 $left
else
	pass "stat -I | head: workload stopped with stat"
fi
exit 0
