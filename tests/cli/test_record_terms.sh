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
		"$G/filter-record-attr.sh"
done <"$G/record-specs.txt" >"$TMP/sonde.attr"
if diff -u "$G/perf61-record.attr" "$TMP/sonde.attr" >"$TMP/diff"; then
	pass "record terms: attrs match perf record 6.1 ($(grep -c '^###' "$G/perf61-record.attr") specs)"
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

# -b / -j: branch stacks asked of every event (printed by -vv before the
# open, which fails on machines without branch stacks, as perf's does).
while IFS= read -r args; do
	case $args in \#*|'') continue ;; esac
	echo "### $args"
	# shellcheck disable=SC2086 # the options are words
	"$SONDE" record -vv $args -e task-clock -o "$TMP/b.data" true 2>&1 |
		"$G/filter-record-attr.sh"
done <"$G/record-branch.txt" >"$TMP/branch.attr"
if diff -u "$G/perf61-record-branch.attr" "$TMP/branch.attr" >"$TMP/diff"; then
	pass "record -b/-j: attrs match perf record 6.1 ($(grep -c '^###' "$G/perf61-record-branch.attr") option sets)"
else
	fail "record -b/-j: attrs differ from perf record 6.1: $(head -40 "$TMP/diff")"
fi
expect_fail "record -j: an unknown branch filter is refused" \
	"unknown branch filter in 'sideways'" \
	"$SONDE" record -j sideways -e task-clock -o "$TMP/b.data" true
