#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# The load progress bar of sonde report, on a real pseudo-terminal
# (util-linux script(1)): shown on a tty for a big file and erased before
# anything else is printed; never when stderr is not a tty, with -q, or for
# a small file.
source "$(dirname "$0")/lib.sh"
GEN="$HELPERS/gen_perfdata"

if ! command -v script >/dev/null 2>&1; then
	skip "progress: script(1) from util-linux is not installed"
	exit 0
fi
need_helper "progress" "$GEN"
# 480k samples of 12 frames: ~73 MB, over the 64 MB from which the bar shows.
if ! "$GEN" "$TMP/big.data" 480000 12 500 >/dev/null 2>&1 ||
   ! "$GEN" "$TMP/small.data" 2000 12 50 >/dev/null 2>&1; then
	skip "progress: cannot generate the test files (libc symbols?)"
	exit 0
fi

# on_tty OUT CMD: runs CMD (a shell string) with a pty as its terminal;
# what it writes to the terminal lands in OUT.
on_tty() {
	local out=$1; shift
	script -qec "$*" /dev/null >"$out" 2>&1 </dev/null
}

# 1. A big file on a tty: several bar updates, then erased (carriage
#    return + erase-line) with nothing left after it.
on_tty "$TMP/t1" "'$SONDE' report -i '$TMP/big.data' >/dev/null"
n=$(grep -ao 'Loading \[[# ]*\] *[0-9]*%' "$TMP/t1" | wc -l)
tailhex=$(tail -c 4 "$TMP/t1" | od -An -tx1 | tr -d ' \n')
if [ "$n" -ge 2 ] && [ "$tailhex" = "0d1b5b4b" ]; then
	pass "progress: $n bar updates on a tty, erased at the end"
else
	fail "progress: $n updates, ends with $tailhex (want >= 2 and 0d1b5b4b): $(head -c 200 "$TMP/t1" | od -c | head -3)"
fi

# 2. Report on the same terminal: every bar is gone before the report.
on_tty "$TMP/t2" "'$SONDE' report -i '$TMP/big.data' --no-children --sort dso"
before=$(awk '/# Samples/ { exit } { print }' "$TMP/t2" | grep -ac 'Loading')
after=$(awk 'f; /# Samples/ { f = 1 }' "$TMP/t2" | grep -ac 'Loading')
# The header line itself must start clean (erase-line, not bar text).
hdr=$(grep -a '# Samples' "$TMP/t2" | head -1)
if [ "$before" -ge 1 ] && [ "$after" = 0 ] && ! grep -q 'Loading' <<<"$hdr"; then
	pass "progress: bar erased before the report is printed"
else
	fail "progress: bars before/after the report: $before/$after, header '$hdr'"
fi

# 3. Not shown with -q, for a small file, or when stderr is not a tty.
on_tty "$TMP/t3" "'$SONDE' report -q -i '$TMP/big.data' >/dev/null"
on_tty "$TMP/t4" "'$SONDE' report -i '$TMP/small.data' >/dev/null"
on_tty "$TMP/t5" "'$SONDE' report -i '$TMP/big.data' >/dev/null 2>'$TMP/t5.err'"
"$SONDE" report -i "$TMP/big.data" >/dev/null 2>"$TMP/t6"
bad=
for f in t3 t4 t5 t5.err t6; do
	grep -aq 'Loading' "$TMP/$f" && bad="$bad $f"
done
if [ -z "$bad" ]; then
	pass "progress: no bar with -q, for a small file, or off a tty"
else
	fail "progress: bar shown where it must not be:$bad"
fi
