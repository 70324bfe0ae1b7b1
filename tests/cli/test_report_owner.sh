#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# report, script, export and diff refuse a perf.data file owned by another
# user (not root) unless -f/--force, as perf does, root included.
. "$(dirname "$0")/lib.sh"
C="$(dirname "$0")/../fuzz/corpus/fuzz_perfdata"

if [ "$(id -u)" != 0 ] || ! id nobody >/dev/null 2>&1; then
	skip "ownership check: needs root (to chown a file to nobody)"
	exit 0
fi
cp "$C/perf_file.data" "$TMP/other.data"
chown nobody "$TMP/other.data"
for cmd in report script; do
	expect_fail "$cmd: a file of another user is refused" \
		'other\.data: not owned by current user or root \(use -f to override\)' \
		"$SONDE" $cmd -i "$TMP/other.data"
	expect_ok "$cmd -f reads it" "$SONDE" $cmd -f -i "$TMP/other.data"
	expect_ok "$cmd --force reads it" "$SONDE" $cmd --force -i "$TMP/other.data"
	expect_ok "$cmd: stdin is not checked" sh -c '"$1" '$cmd' -i - <"$2"' sh "$SONDE" "$TMP/other.data"
done
# export and diff read through the same loader: the same rule.
E="export --format folded -o -"
expect_fail "export: a file of another user is refused" 'not owned by current user' \
	"$SONDE" $E -i "$TMP/other.data"
expect_ok "export -f reads it" "$SONDE" $E -f -i "$TMP/other.data"
expect_ok "export: stdin is not checked" sh -c '"$1" '"$E"' -i - <"$2"' sh "$SONDE" "$TMP/other.data"
cp "$C/perf_file.data" "$TMP/mine.data"
expect_fail "diff: a file of another user is refused (old)" 'other\.data: not owned by current user' \
	"$SONDE" diff "$TMP/other.data" "$TMP/mine.data"
expect_fail "diff: a file of another user is refused (new)" 'other\.data: not owned by current user' \
	"$SONDE" diff "$TMP/mine.data" "$TMP/other.data"
expect_ok "diff --force reads them" "$SONDE" diff --force "$TMP/mine.data" "$TMP/other.data"
if have_perf; then
	perf diff "$TMP/mine.data" "$TMP/other.data" >/dev/null 2>"$TMP/perf.err"
	grep -q "not owned by current user or root" "$TMP/perf.err" &&
		pass "perf diff refuses it too (the oracle)" ||
		skip "this perf diff reads files of other users: $(head -c 200 "$TMP/perf.err")"
	perf report -i "$TMP/other.data" --stdio >/dev/null 2>"$TMP/perf.err"
	grep -q "not owned by current user or root" "$TMP/perf.err" &&
		pass "perf refuses it too (the oracle)" ||
		skip "this perf reads files of other users: $(head -c 200 "$TMP/perf.err")"
fi
