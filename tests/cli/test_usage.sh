#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# The top-level command: usage errors, help on help, and man pages that
# agree with the binary on the version.
. "$(dirname "$0")/lib.sh"
MAN=$(cd "$(dirname "$0")/../../docs/man" && pwd)

"$SONDE" >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc != 1 ]; then
	fail "sonde without a command exits $rc, not 1"
elif ! grep -q "usage: sonde" "$TMP/err" || grep -q . "$TMP/out"; then
	fail "sonde without a command: usage not on stderr only"
else
	pass "sonde without a command: usage on stderr, exit 1"
fi
expect_ok "sonde --help exits 0" "$SONDE" --help
expect_ok "sonde help help" "$SONDE" help help
contains "sonde help help prints the usage" "usage: sonde" "$TMP/out"
expect_fail "sonde help nosuch" "not a sonde command" "$SONDE" help nosuch

# Every page's footer names the binary's version, all with the same date.
ver=$("$SONDE" version | awk '{print $3}')
bad=$(grep -L "^\.TH [A-Z-]* [0-9] [0-9-]* \"sonde $ver\"" "$MAN"/*.[0-9])
dates=$(grep -h '^\.TH' "$MAN"/*.[0-9] | awk '{print $4}' | sort -u | wc -l)
if [ -n "$bad" ]; then
	fail "man pages without \"sonde $ver\" in .TH: $bad"
elif [ "$dates" != 1 ]; then
	fail "man page dates disagree: $(grep -h '^\.TH' "$MAN"/*.[0-9] | awk '{print $1, $2, $4}')"
else
	pass "man page footers agree on sonde $ver and the date"
fi
