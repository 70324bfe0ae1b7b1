#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# sonde list: categories, probing marks, --json, --attr live against the
# installed perf, and the bad-spec list. The parser against the perf 6.1
# golden file (every spec of specs.txt) is tests/unit/test_evparse_golden,
# in one process instead of one sonde per spec.
. "$(dirname "$0")/lib.sh"
G=$(cd "$(dirname "$0")/../golden/evparse" && pwd)

# Live: the same specs plus machine-specific ones against the installed perf.
if have_perf; then
	have_tracefs || true
	bad=0 total=0
	for list in "$G/specs.txt" "$G/live_specs.txt"; do
		while IFS=$'\t' read -r n spec; do
			# The sweep is pinned by the golden file; live time is precious.
			case $n in '# modifier sweep'*) break ;; \#*|'') continue ;; esac
			case $spec in *:*:*|sched*|raw_sys*) [ -d /sys/kernel/tracing/events ] || continue ;; esac
			case $spec in msr*|tsc|TSC) [ -d /sys/bus/event_source/devices/msr ] || continue ;; esac
			total=$((total + 1))
			a=$(perf stat -vv -e "$spec" true 2>&1 | "$G/filter_attr.sh" "$n")
			b=$("$SONDE" list --attr "$spec" 2>&1 | "$G/filter_attr.sh")
			if [ "$a" != "$b" ]; then
				bad=$((bad + 1))
				echo "  differs: $spec"; diff <(echo "$a") <(echo "$b") | head -6
			fi
		done <"$list"
	done
	if [ $bad = 0 ]; then pass "list --attr equals live perf for $total specs"
	else fail "list --attr differs from live perf for $bad of $total specs"; fi
else
	skip "live perf comparison: perf is not installed"
fi

# Every spec perf rejects, sonde rejects with a caret display.
nbad=0 rejected=0 perf_ok=()
while IFS= read -r spec; do
	case $spec in \#*|'') continue ;; esac
	nbad=$((nbad + 1))
	if ! "$SONDE" list --attr "$spec" >"$TMP/out" 2>"$TMP/err" &&
	   grep -q "^event syntax error: '" "$TMP/err" && grep -q '\\___ ' "$TMP/err"; then
		rejected=$((rejected + 1))
	else
		echo "  sonde accepted or gave no caret: $spec"
	fi
	if have_perf && perf stat -e "$spec" true >/dev/null 2>&1; then
		perf_ok+=("$spec")
	fi
done <"$G/bad_specs.txt"
if [ $rejected = $nbad ]; then pass "sonde rejects all $nbad bad specs"
else fail "sonde rejects only $rejected of $nbad bad specs"; fi
if have_perf; then
	if [ ${#perf_ok[@]} = 0 ]; then pass "perf also rejects all bad specs"
	else fail "perf accepts some 'bad' specs: ${perf_ok[*]}"; fi
fi
expect_fail "empty spec rejected" "expected an event name" "$SONDE" list --attr ""

# Caret sits under the failing column.
"$SONDE" list --attr 'cycles:uu' 2>"$TMP/err" >/dev/null
col=$(sed -n '2p' "$TMP/err" | awk '{ print index($0, "\\") - 1 }')
if [ "$col" = 28 ]; then pass "caret under the modifier (col 7 + 21)"
else fail "caret at $col, want 28: $(cat "$TMP/err")"; fi

# The listing by category.
expect_ok "list runs" "$SONDE" list
cp "$TMP/out" "$TMP/list"
contains "list: hardware" 'cpu-cycles OR cycles +\[Hardware event\]' "$TMP/list"
contains "list: software" 'task-clock +\[Software event\]' "$TMP/list"
contains "list: cache" 'L1-dcache-load-misses +\[Hardware cache event\]' "$TMP/list"
contains "list: raw syntax" 'rNNN +\[Raw hardware event descriptor\]' "$TMP/list"
contains "list: breakpoint syntax" 'mem:<addr>\[/len\]\[:access\] +\[Hardware breakpoint\]' "$TMP/list"
if [ -d /sys/bus/event_source/devices/msr/events ]; then
	contains "list: sysfs PMU events" 'msr/tsc/ +\[Kernel PMU event\]' "$TMP/list"
fi
if have_tracefs; then
	contains "list: tracepoints" 'sched:sched_switch +\[Tracepoint event\]' "$TMP/list"
else
	skip "tracepoint listing: no tracefs"
fi
# Software events open anywhere; hardware ones only with a core PMU.
if grep -q 'task-clock .*not supported' "$TMP/list"; then
	fail "task-clock marked unsupported: $(grep task-clock "$TMP/list")"
else
	pass "task-clock opens"
fi
if [ ! -d /sys/bus/event_source/devices/cpu ]; then
	contains "cycles marked unsupported without a core PMU" \
		'cpu-cycles OR cycles .*<not supported: no such event' "$TMP/list"
fi

expect_ok "list sw" "$SONDE" list sw
if grep -q 'Hardware event' "$TMP/out"; then fail "list sw shows hardware events"
else contains "list sw filters" 'page-faults OR faults' "$TMP/out"; fi
expect_fail "list with no match" "no event matches" "$SONDE" list no-such-event-xyz

# --json: one valid object per line.
expect_ok "list --json" "$SONDE" list --json sw
if command -v python3 >/dev/null; then
	if python3 -c '
import json, sys
n = 0
for line in open(sys.argv[1]):
    o = json.loads(line); n += 1
    assert o["category"] == "sw" and "event" in o and "supported" in o
assert n >= 12
' "$TMP/out"; then pass "list --json objects parse"
	else fail "list --json: $(head -3 "$TMP/out")"; fi
else
	contains "list --json shape" '^\{"event": "task-clock", "category": "sw"' "$TMP/out"
fi

# tracefs missing: sonde mounts it (in a private mount namespace, so the
# host's mounts are untouched).
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null; then
	skip "tracefs auto-mount: needs root and unshare(1)"
elif ! have_tracefs; then
	skip "tracefs auto-mount: this kernel has no tracefs"
else
	unshare -m --propagation private bash -c '
		umount /sys/kernel/debug/tracing 2>/dev/null
		umount /sys/kernel/debug 2>/dev/null
		umount /sys/kernel/tracing 2>/dev/null || exit 3
		grep -q tracefs /proc/mounts && exit 3
		"$0" list --attr sched:sched_switch && grep -q "^nodev /sys/kernel/tracing tracefs" /proc/mounts
	' "$SONDE" >"$TMP/out" 2>"$TMP/err"
	case $? in
	0) contains "tracefs mounted on demand" 'config +0x[0-9a-f]+' "$TMP/out" ;;
	3) skip "tracefs auto-mount: could not unmount tracefs in a private namespace" ;;
	*) fail "tracefs auto-mount: $(head -c 400 "$TMP/err")" ;;
	esac
fi
