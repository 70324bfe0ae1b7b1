#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Probes through the uprobe/kprobe PMUs in bpftrace's spelling: sonde stat
# must count exactly the calls the helper makes; errors name what is wrong.
. "$(dirname "$0")/lib.sh"
BIN=$HELPERS/probe_calls
need_helper "probe" "$BIN"
if [ ! -e /sys/bus/event_source/devices/uprobe/type ]; then
	skip "probe: this kernel has no uprobe PMU"
	exit 0
fi

# count NAME EVENT-FIELD CSV-FILE: the count of the line naming EVENT.
count_of() { awk -F, -v e="$1" '$3 == e { print $1 }' "$2"; }

ev_t=uprobe:$BIN:probe_target
ev_r=uretprobe:$BIN:probe_target
ev_o=uprobe:$BIN:probe_other
if $SONDE stat -x, -e "$ev_t,$ev_r,$ev_o" -- "$BIN" 1234 >"$TMP/out" 2>"$TMP/err"; then
	[ "$(count_of "$ev_t" "$TMP/err")" = 1234 ] &&
		pass "probe: uprobe counts each of the 1234 calls" ||
		fail "probe: uprobe count: $(cat "$TMP/err")"
	[ "$(count_of "$ev_r" "$TMP/err")" = 1234 ] &&
		pass "probe: uretprobe counts each return" ||
		fail "probe: uretprobe count: $(cat "$TMP/err")"
	[ "$(count_of "$ev_o" "$TMP/err")" = 1 ] &&
		pass "probe: a second function in the same binary counts apart" ||
		fail "probe: probe_other count: $(cat "$TMP/err")"
else
	fail "probe: stat with uprobes failed: $(head -c 600 "$TMP/err")"
fi

# A relative path, as the workload runs from here.
cd "$(dirname "$BIN")" || exit 1
if $SONDE stat -x, -e "uprobe:./probe_calls:probe_target" -- ./probe_calls 7 \
	>"$TMP/out" 2>"$TMP/err" &&
   [ "$(count_of uprobe:./probe_calls:probe_target "$TMP/err")" = 7 ]; then
	pass "probe: relative binary path"
else
	fail "probe: relative path: $(head -c 600 "$TMP/err")"
fi
cd - >/dev/null || exit 1

expect_fail "probe: unknown symbol names the symbol and the file" \
	"cannot find 'no_such_fn' in $BIN" \
	$SONDE stat -e "uprobe:$BIN:no_such_fn" -- "$BIN" 1
expect_fail "probe: missing binary" "cannot find 'f' in /nonexistent" \
	$SONDE stat -e "uprobe:/nonexistent/bin:f" -- "$BIN" 1
expect_fail "probe: return probes take no offset" "return probe takes no offset" \
	$SONDE stat -e "uretprobe:$BIN:probe_target+4" -- "$BIN" 1
if [ -e /sys/bus/event_source/devices/kprobe/type ]; then
	skip "probe: this kernel has a kprobe PMU; missing-PMU message not checked"
else
	expect_fail "probe: kprobe without the PMU says so" "Cannot find PMU .kprobe'" \
		$SONDE stat -e "kprobe:do_sys_openat2" -- "$BIN" 1
fi

# ---- record: one sample per hit, read back by sonde script and perf ----
if $SONDE record -o "$TMP/p.data" -e "$ev_t" -- "$BIN" 321 >"$TMP/out" 2>"$TMP/err"; then
	n=$($SONDE script -i "$TMP/p.data" 2>/dev/null | grep -c 'probe_target+0x0')
	[ "$n" = 321 ] && pass "probe: record takes one sample per call (321)" ||
		fail "probe: record sample count $n, want 321"
	if have_perf; then
		n=$(perf script -i "$TMP/p.data" 2>/dev/null | grep -c probe_target)
		[ "$n" = 321 ] && pass "probe: perf script reads the uprobe samples" ||
			fail "probe: perf script found $n uprobe samples, want 321"
	else
		skip "probe: perf not installed"
	fi
else
	fail "probe: record with a uprobe failed: $(head -c 600 "$TMP/err")"
fi

# ---- sonde list 'uprobe:PATH:GLOB': the probe points, in -e spelling ----
$SONDE list "uprobe:$BIN:probe_*" >"$TMP/list" 2>"$TMP/err"
if [ "$(cat "$TMP/list")" = "uprobe:$BIN:probe_other
uprobe:$BIN:probe_target" ]; then
	pass "probe: list names the binary's matching functions, sorted"
else
	fail "probe: list gave: $(head -c 400 "$TMP/list") $(head -c 200 "$TMP/err")"
fi
spec=$(grep -m1 probe_target "$TMP/list")
if $SONDE stat -x, -e "$spec" -- "$BIN" 3 >"$TMP/out" 2>"$TMP/err" &&
   [ "$(count_of "$spec" "$TMP/err")" = 3 ]; then
	pass "probe: a listed spec counts as is"
else
	fail "probe: listed spec: $(head -c 400 "$TMP/err")"
fi
expect_fail "probe: list of a missing binary says so" "no such file" \
	$SONDE list "uprobe:/nonexistent/bin"
