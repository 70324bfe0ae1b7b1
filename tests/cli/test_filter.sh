#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# --filter after a tracepoint -e (PERF_EVENT_IOC_SET_FILTER) in stat and
# record: only the matching events count, a second --filter narrows the
# first, and misplaced or unparsable filters are refused as perf does.
. "$(dirname "$0")/lib.sh"
BIN=$HELPERS/probe_calls
need_helper "filter" "$BIN"
TP=syscalls:sys_enter_close
if ! have_tracefs || [ ! -d /sys/kernel/tracing/events/syscalls/sys_enter_close ]; then
	skip "filter: no $TP tracepoint here"
	exit 0
fi
count_of() { awk -F, -v e="$1" '$3 == e { print $1 }' "$2"; }

# The helper closes fd 987654 exactly 25 times (EBADF each).
if $SONDE stat -x, -e $TP --filter 'fd == 987654' -- "$BIN" 1 25 >"$TMP/out" 2>"$TMP/err" &&
   [ "$(count_of $TP "$TMP/err")" = 25 ]; then
	pass "filter: stat counts only the matching closes (25)"
else
	fail "filter: stat: $(head -c 600 "$TMP/err")"
fi
$SONDE stat -x, -e $TP -- "$BIN" 1 25 >"$TMP/out" 2>"$TMP/err"
n=$(count_of $TP "$TMP/err")
[ -n "$n" ] && [ "$n" -gt 25 ] && pass "filter: without it every close counts ($n)" ||
	fail "filter: unfiltered count '$n' not above 25"
if $SONDE stat -x, -e $TP --filter 'fd == 987654' --filter 'common_pid == 1' \
	-- "$BIN" 1 25 >"$TMP/out" 2>"$TMP/err" &&
   [ "$(count_of $TP "$TMP/err")" = 0 ]; then
	pass "filter: a second --filter narrows the first (&&)"
else
	fail "filter: two filters: $(head -c 600 "$TMP/err")"
fi
expect_fail "filter: stat refuses --filter before any -e" \
	"--filter option should follow a -e tracepoint" \
	$SONDE stat --filter 'fd == 1' -e $TP -- "$BIN" 1 1
expect_fail "filter: stat refuses --filter after a non-tracepoint" \
	"--filter option should follow a -e tracepoint" \
	$SONDE stat -e task-clock --filter 'fd == 1' -- "$BIN" 1 1
expect_fail "filter: stat says the kernel refused a bad filter" \
	'failed to set filter "nofield == 1" on event syscalls:sys_enter_close' \
	$SONDE stat -e $TP --filter 'nofield == 1' -- "$BIN" 1 1

if $SONDE record -o "$TMP/f.data" -e $TP --filter 'fd == 987654' -- "$BIN" 1 17 \
	>"$TMP/out" 2>"$TMP/err"; then
	n=$($SONDE script -i "$TMP/f.data" 2>/dev/null | grep -c "$TP")
	[ "$n" = 17 ] && pass "filter: record keeps only the matching samples (17)" ||
		fail "filter: record kept $n samples, want 17"
else
	fail "filter: record: $(head -c 600 "$TMP/err")"
fi
expect_fail "filter: record refuses --filter after a non-tracepoint" \
	"--filter option should follow a -e tracepoint" \
	$SONDE record -o "$TMP/g.data" -e task-clock --filter 'fd == 1' -- "$BIN" 1 1
expect_fail "filter: record says the kernel refused a bad filter" \
	'failed to set filter "nofield == 1"' \
	$SONDE record -o "$TMP/g.data" -e $TP --filter 'nofield == 1' -- "$BIN" 1 1
