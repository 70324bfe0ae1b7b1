#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# sonde diff on two recordings of diff_workload, whose shifted() takes
# 20% of the time in the first and 70% in the second: the table shows
# shifted grown by about 50 points at its top, and has perf diff's rows
# and numbers when perf is installed.
source "$(dirname "$0")/lib.sh"
W="$HELPERS/diff_workload"

if [ ! -x "$W" ]; then
	skip "diff: $W not built (make helpers)"
	exit 0
fi
cd "$TMP" || exit 1
if ! "$SONDE" record -g -o old.data -- "$W" 20 600 >/dev/null 2>rec.err ||
	! "$SONDE" record -g -o new.data -- "$W" 70 600 >/dev/null 2>>rec.err; then
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

expect_ok "diff: --sort sym" "$SONDE" diff --sort sym old.data new.data
contains "diff: --sort sym has one key column" '^# Baseline  Delta Abs  Symbol' "$TMP/out"
expect_fail "diff: unknown sort key" "unknown key 'nosuch'" \
	"$SONDE" diff --sort nosuch old.data new.data
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
