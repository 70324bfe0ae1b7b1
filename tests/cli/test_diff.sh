#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# sonde diff on two recordings of diff_workload, whose shifted() takes
# 20% of the time in the first and 70% in the second: the table shows
# shifted grown by about 50 points at its top, and has perf diff's rows
# and numbers when perf is installed: one table per event (a second
# recording of two events), with every -c method, with -p, -F, -b, -o
# and a third file (45%), and events paired by type and config when the
# new file names them otherwise (task-clock:u), in the table and the
# differential page.
source "$(dirname "$0")/lib.sh"
W="$HELPERS/diff_workload"

need_helper "diff" "$W"
cd "$TMP" || exit 1
if ! "$SONDE" record -g -o old.data -- "$W" 20 600 >/dev/null 2>rec.err ||
	! "$SONDE" record -g -o new.data -- "$W" 70 600 >/dev/null 2>>rec.err ||
	! "$SONDE" record -g -o mid.data -- "$W" 45 600 >/dev/null 2>>rec.err; then
	skip "diff: sonde record cannot sample here: $(head -c 300 rec.err)"
	exit 0
fi

expect_ok "diff: runs" "$SONDE" diff old.data new.data
cp "$TMP/out" s.diff
# "    19.28%    +48.66%  diff_workload  [.] shifted", in the first two rows
row=$(grep -v '^#' s.diff | head -2 | grep 'shifted$')
if [[ $row =~ ^\ +([0-9.]+)%\ +\+([0-9.]+)%\ +diff_workload\ +\[\.\]\ shifted$ ]] &&
	awk -v b="${BASH_REMATCH[1]}" -v d="${BASH_REMATCH[2]}" \
		'BEGIN { exit !(b > 10 && b < 30 && d > 35 && d < 65) }'; then
	pass "diff: shifted at the top, grown from ~20% by ~50 points ($row)"
else
	fail "diff: shifted is not in the first two rows as grown: $(grep -v '^#' s.diff | head -2 | tr '\n' '|')"
fi
contains "diff: steady shrank" '^ +[0-9.]+% +-[0-9.]+% +diff_workload +\[\.\] steady$' s.diff
contains "diff: perf diff's header" '^# Baseline  Delta Abs  Shared Object' s.diff

expect_ok "diff: -c ratio" "$SONDE" diff -c ratio old.data new.data
# (about 3.5 times on an idle machine; less when the second run got less
# CPU time, its samples being cpu-clock's)
contains "diff: -c ratio: shifted's period grew" \
	'^ +[0-9.]+% +[1-9]\.[0-9]{6} +diff_workload +\[\.\] shifted$' "$TMP/out"
expect_ok "diff: -c wdiff:1,2" "$SONDE" diff -c wdiff:1,2 old.data new.data
contains "diff: -c wdiff header" '^# Baseline   Weighted diff  Shared Object' "$TMP/out"
expect_fail "diff: bad -c" "expected delta-abs" "$SONDE" diff -c wdiff:0,1 old.data new.data
expect_ok "diff: -d one dso has no dso column" "$SONDE" diff -d diff_workload old.data new.data
contains "diff: -d: the Symbol column only" '^# Baseline  Delta Abs  Symbol' "$TMP/out"

# Two events in each file: a table for each, the second after a blank line.
if "$SONDE" record -g -e task-clock,page-faults -o old2.data -- "$W" 20 300 >/dev/null 2>rec2.err &&
	"$SONDE" record -g -e task-clock,page-faults -o new2.data -- "$W" 70 300 >/dev/null 2>>rec2.err; then
	expect_ok "diff: two events" "$SONDE" diff old2.data new2.data
	cp "$TMP/out" s2.diff
	if [ "$(grep -c '^# Event' s2.diff)" = 2 ] && grep -qx "# Event 'page-faults'" s2.diff &&
		grep -B1 "^# Event 'page-faults'" s2.diff | head -1 | grep -qx ''; then
		pass "diff: a table per event (task-clock, page-faults)"
	else
		fail "diff: not one table per event: $(grep '^# Event' s2.diff | tr '\n' '|')"
	fi
	# The new file's events named otherwise (":u"): paired by type and config.
	if "$SONDE" record -g -e page-faults:u,task-clock:u -o new3.data -- "$W" 70 300 >/dev/null 2>>rec2.err; then
		expect_ok "diff: events of other names" "$SONDE" diff old2.data new3.data
		if [ "$(sed -n '1p' "$TMP/out")" = "# Event 'task-clock'" ] &&
			grep -qE '^ +[0-9.]+% +\+[0-9.]+% +diff_workload +\[\.\] shifted$' "$TMP/out"; then
			pass "diff: task-clock paired with task-clock:u, shifted grown"
		else
			fail "diff: task-clock not paired with task-clock:u: $(grep shifted "$TMP/out" | head -1)"
		fi
		# The differential page pairs them the same way: OLD's first event
		# (task-clock) against NEW's second (task-clock:u), not NEW's first.
		expect_ok "diff: html of events of other names" \
			"$SONDE" diff --format html old2.data new3.data
		contains "diff: html: task-clock drawn against task-clock:u" \
			'<title>[^<]*task-clock:u' "$TMP/out"
	else
		skip "diff: cannot record page-faults:u,task-clock:u: $(tail -c 300 rec2.err)"
	fi
else
	skip "diff: cannot record task-clock,page-faults: $(head -c 300 rec2.err)"
fi

# -p, -F, -b and more than two files, in perf's layout.
expect_ok "diff: -p" "$SONDE" diff -p old.data new.data
contains "diff: -p: base period and period columns" \
	'^# Baseline     Base period  Delta Abs          Period  Shared Object' "$TMP/out"
contains "diff: -p: shifted's periods" '^ +[0-9.]+% +[0-9]+ +\+[0-9.]+% +[0-9]+ +diff_workload +\[\.\] shifted$' "$TMP/out"
expect_ok "diff: -F" "$SONDE" diff -F old.data new.data
contains "diff: -F: shifted's formula" \
	'^ +[0-9.]+% +\+[0-9.]+% +\([0-9]+ \* 100 / [0-9]+\) - \([0-9]+ \* 100 / [0-9]+\) +diff_workload +\[\.\] shifted$' "$TMP/out"
expect_ok "diff: -b" "$SONDE" diff -b old.data new.data
if grep -v '^#' "$TMP/out" | grep -q . && ! grep -v '^#' "$TMP/out" | grep -qE '^ {10} |^ +[0-9.]+% {11}'; then
	pass "diff: -b: every row has a baseline and a delta"
else
	fail "diff: -b: a row without a baseline or a delta: $(grep -v '^#' "$TMP/out" | grep -E '^ {10} |^ +[0-9.]+% {11}' | head -2 | tr '\n' '|')"
fi
expect_ok "diff: three files" "$SONDE" diff old.data new.data mid.data
contains "diff: three files: perf's list of files" '^#  \[2\] mid.data $' "$TMP/out"
contains "diff: three files: a column each" '^# Baseline/0  Delta Abs/1  Delta Abs/2  Shared Object' "$TMP/out"
contains "diff: three files: shifted grew in both" \
	'^ +[0-9.]+% +\+[0-9.]+% +\+[0-9.]+% +diff_workload +\[\.\] shifted$' "$TMP/out"
expect_fail "diff: -o beyond the files" "expected 0 to 2" "$SONDE" diff -o 3 old.data new.data mid.data
expect_fail "diff: html of three files" "compares two files" \
	"$SONDE" diff --format html old.data new.data mid.data

expect_ok "diff: --sort sym" "$SONDE" diff --sort sym old.data new.data
contains "diff: --sort sym has one key column" '^# Baseline  Delta Abs  Symbol' "$TMP/out"
expect_fail "diff: unknown sort key" "unknown key 'nosuch'" \
	"$SONDE" diff --sort nosuch old.data new.data
# wdiff's products wrap in 64 bits as perf's do (no signed overflow,
# which the SAN build stops on).
expect_ok "diff: wdiff with the largest weights" \
	"$SONDE" diff -c wdiff:9223372036854775807,-9223372036854775808 -F old.data new.data
# report's other keys have no diff column: refused, not a crash (time,
# parent) or a false "out of memory" (dso_from, mem).
for k in time parent dso_from mem; do
	expect_fail "diff: --sort $k refused" "sort: '$k' is not a key sonde diff shows" \
		"$SONDE" diff --sort "comm,$k" old.data new.data
done
expect_fail "diff: missing file" "nosuch.data" "$SONDE" diff old.data nosuch.data

if ! have_perf; then
	skip "diff: perf is not installed: no comparison with perf diff"
	exit 0
fi
perf diff old.data new.data >p.diff 2>perf.err
if ! grep -q '^# Baseline' p.diff; then
	skip "diff: perf diff printed no table: $(head -c 200 perf.err)"
else
	# Every row of 1% or more in either file reads as perf's (small rows
	# may pair differently: kernel symbols perf resolves in one file
	# only); columns compared with their padding squeezed, as a longer
	# name among the small rows widens a column.
	awk '!/^#/ && ($1 + 0 >= 1 || ($2 ~ /%$/ && ($2 < 0 ? -$2 : $2) + 0 >= 1))' p.diff |
		tr -s ' ' >p.big
	missing=$(tr -s ' ' <s.diff | grep -vxFf - p.big)
	if [ -s p.big ] && [ -z "$missing" ] &&
		cmp -s <(head -5 p.diff | tr -s ' .') <(head -5 s.diff | tr -s ' .'); then
		pass "diff: perf diff's header and its $(wc -l <p.big) rows of 1% or more"
	else
		fail "diff: perf diff rows sonde lacks: $(echo "$missing" | head -4 | tr '\n' '|') header: $(diff <(head -5 p.diff) <(head -5 s.diff) | tr '\n' '|')"
	fi
fi
# perf diff's own tables: -p, -F, -b, -o and three files, and events
# named otherwise; whole tables, columns compared with their padding
# squeezed and the sample in the PLT named alike (perf 6.1 calls it
# _init, sonde by its stub), where perf and sonde list the same rows
# (kernel symbols perf resolves in one file only would pair differently).
same_rows() { cmp -s <(grep -v '^#' "$1" | awk '{print $NF}' | sort) <(grep -v '^#' "$2" | awk '{print $NF}' | sort); }
squeeze() { tr -s ' ' | sed -E 's/ $//; s/\[\.\] (_init|[A-Za-z0-9_.]+@plt)$/[.] PLT/'; }
for args in "-p old.data new.data" "-F old.data new.data" "-b -p -F old.data new.data" \
	"old.data new.data mid.data" "-p -F -c ratio old.data new.data mid.data" \
	"-o 2 -c wdiff:1,2 old.data new.data mid.data" "-o 0 -b old.data new.data mid.data" \
	"old2.data new3.data" "-c wdiff:2,1 -p old2.data new3.data" \
	"-c wdiff:9223372036854775807,-9223372036854775808 -F old.data new.data"; do
	for f in $args; do [[ $f != *.data || -s $f ]] || continue 2; done
	# shellcheck disable=SC2086 # the options' words
	"$SONDE" diff $args 2>/dev/null | squeeze >s.opt
	# shellcheck disable=SC2086
	perf diff $args 2>/dev/null | squeeze >p.opt
	if [ ! -s p.opt ]; then
		skip "diff $args: perf diff printed nothing"
	elif ! same_rows p.opt s.opt; then
		skip "diff $args: perf resolved other symbols than sonde in these files"
	elif cmp -s p.opt s.opt; then
		pass "diff $args: perf diff's table, row for row"
	else
		fail "diff $args: differs from perf diff: $(diff p.opt s.opt | head -6 | tr '\n' '|')"
	fi
done
# Every -c method (and the two-event files): the whole table as perf's,
# columns compared with their padding squeezed. Rows of one sample may
# pair differently (kernel symbols perf resolves in one file only), so
# only files where perf and sonde list the same rows count.
for c in delta-abs delta ratio wdiff:1,2; do
	for f in old new old2 new2; do [ -s $f.data ] || continue 2; done
	"$SONDE" diff -c $c old2.data new2.data 2>/dev/null | tr -s ' ' | sed 's/ $//' >s.$c
	perf diff -c $c old2.data new2.data 2>/dev/null | tr -s ' ' | sed 's/ $//' >p.$c
	if [ ! -s p.$c ]; then
		skip "diff -c $c: perf diff printed nothing"
	elif cmp -s <(grep -v '^#' p.$c | awk '{print $NF}' | sort) <(grep -v '^#' s.$c | awk '{print $NF}' | sort); then
		if cmp -s p.$c s.$c; then
			pass "diff -c $c: perf diff's tables for both events, row for row"
		else
			fail "diff -c $c: differs from perf diff: $(diff p.$c s.$c | head -6 | tr '\n' '|')"
		fi
	else
		skip "diff -c $c: perf resolved other symbols than sonde in these files"
	fi
done
