#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Per-event terms and sampling modifiers (call-graph, stack-size, max-stack,
# inherit, overwrite, S, P) applied by sonde record as perf record 6.1
# applies them: the attrs match the golden file made with perf record -vv,
# and a per-event call-graph term really records call chains.
. "$(dirname "$0")/lib.sh"
G=$(cd "$(dirname "$0")/../golden/evparse" && pwd)

while IFS= read -r spec; do
	case $spec in \#*|'') continue ;; esac
	echo "### $spec"
	"$SONDE" record -v -e "$spec" -o "$TMP/t.data" true 2>&1 |
		"$G/filter_record_attr.sh"
done <"$G/record_specs.txt" >"$TMP/sonde.attr"
if diff -u "$G/perf61_record.attr" "$TMP/sonde.attr" >"$TMP/diff"; then
	pass "record terms: attrs match perf record 6.1 ($(grep -c '^###' "$G/perf61_record.attr") specs)"
else
	fail "record terms: attrs differ from perf record 6.1: $(head -40 "$TMP/diff")"
fi

LOAD=$HELPERS/callchain_workload
if [ -x "$LOAD" ]; then
	if "$SONDE" record -e 'task-clock/call-graph=fp/' -o "$TMP/cg.data" -- "$LOAD" \
		>"$TMP/out" 2>"$TMP/err" &&
	   "$SONDE" script -i "$TMP/cg.data" >"$TMP/script" 2>&1 &&
	   grep -qE '^\s+[0-9a-f]+ .*\(' "$TMP/script"; then
		pass "record terms: call-graph=fp records call chains without -g"
	else
		fail "record terms: no call chains with call-graph=fp: $(head -c 600 "$TMP/err")"
	fi
else
	skip "record terms: $LOAD not built"
fi
expect_fail "record terms: a bad call-graph value is refused" \
	"event 'task-clock/call-graph=bogus/'" \
	"$SONDE" record -e 'task-clock/call-graph=bogus/' -o "$TMP/b.data" true

# -b / -j / -k: branch stacks and sample clocks asked of every event
# (printed by -vv before the open, which fails on machines without branch
# stacks, as perf's does).
while IFS= read -r args; do
	case $args in \#*|'') continue ;; esac
	echo "### $args"
	# shellcheck disable=SC2086 # the options are words
	"$SONDE" record -vv $args -e task-clock -o "$TMP/b.data" true 2>&1 |
		"$G/filter_record_attr.sh"
done <"$G/record_options.txt" >"$TMP/branch.attr"
if diff -u "$G/perf61_record_options.attr" "$TMP/branch.attr" >"$TMP/diff"; then
	pass "record -b/-j/-k: attrs match perf record 6.1 ($(grep -c '^###' "$G/perf61_record_options.attr") option sets)"
else
	fail "record -b/-j/-k: attrs differ from perf record 6.1: $(head -40 "$TMP/diff")"
fi
expect_fail "record -j: an unknown branch filter is refused" \
	"unknown branch filter in 'sideways'" \
	"$SONDE" record -j sideways -e task-clock -o "$TMP/b.data" true
expect_fail "record -k: an unknown clock is refused" "unknown clock 'sundial'" \
	"$SONDE" record -k sundial -e task-clock -o "$TMP/b.data" true

# -k realtime: sample times are seconds since the epoch, and the file's
# CLOCKID / CLOCK_DATA features let perf name the clock and print times
# of day.
before=$(date +%s)
if "$SONDE" record -k realtime -e task-clock -o "$TMP/k.data" -- "$HELPERS/statload" spin 50 \
	>"$TMP/out" 2>"$TMP/err"; then
	after=$(date +%s)
	t=$("$SONDE" script -i "$TMP/k.data" -F time 2>/dev/null | head -1 | cut -d. -f1 | tr -d ' ')
	if [ -n "$t" ] && [ "$t" -ge $((before - 1)) ] && [ "$t" -le $((after + 1)) ]; then
		pass "record -k realtime: sample times are on the wall clock"
	else
		fail "record -k realtime: first sample at '$t', run between $before and $after"
	fi
	if have_perf; then
		perf report --header-only -i "$TMP/k.data" >"$TMP/hdr" 2>&1
		contains "record -k: perf reads the clockid feature" '^# clockid: realtime \(0\)' "$TMP/hdr"
		d=$(date +%Y-%m-%d)
		perf script -i "$TMP/k.data" -F tod 2>/dev/null | head -1 >"$TMP/tod"
		contains "record -k: perf prints times of day from CLOCK_DATA" "^$d " "$TMP/tod"
	else
		skip "record -k: perf not installed"
	fi
else
	fail "record -k realtime: $(head -c 600 "$TMP/err")"
fi
