#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Malformed event specs in every command that takes one (stat -e, record -e,
# list --attr): refused before anything is opened, with the column (caret)
# and what was expected.
source "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 1

# bad NAME SPEC PATTERN: all three commands refuse SPEC, stderr has a caret
# line and matches PATTERN; record leaves no file.
bad() {
	local name=$1 spec=$2 pat=$3
	expect_fail "stat: $name" "$pat" "$SONDE" stat -e "$spec" true
	contains "stat: $name: caret" '\\___' "$TMP/err"
	expect_fail "record: $name" "$pat" "$SONDE" record -o r.data -e "$spec" true
	[ -e r.data ] && { fail "record: $name: left r.data"; rm -f r.data; }
	expect_fail "list --attr: $name" "$pat" "$SONDE" list --attr "$spec"
}

bad "unclosed group" '{cpu-clock,task-clock' "not closed by '}'"
bad "stray brace" 'cpu-clock}' "unexpected '}'"
bad "trailing comma" 'cpu-clock,' "expected an event after ','"
bad "empty term" 'cpu-clock,,task-clock' "expected an event name"
bad "bad modifier" 'cpu-clock:zq' "unknown modifier"
bad "huge number" 'cpu-clock/period=99999999999999999999999/' "at most 64 bits"
bad "unknown PMU" 'nopmu_qa/config=1/' "nopmu_qa"
bad "UTF-8 junk" "$(printf 'cpu-clock\xc3\xa9')" "unexpected byte 0xc3"
bad "tracepoint without a name" 'sched:' "tracepoint name after 'sched:'"
bad "mem: without address" 'mem:' "breakpoint address"
# A very long spec: the error shows a window around the column, bounded.
long=$(printf 'cpu-clock,%.0s' $(seq 5000))task-clock
expect_fail "stat: 5001 events" "too many events" "$SONDE" stat -e "$long" true
n=$(wc -c <"$TMP/err")
if [ "$n" -lt 2000 ]; then pass "stat: long spec error is bounded ($n bytes)"
else fail "stat: long spec error is $n bytes"; fi
contains "stat: long spec error has a caret" '\\___' "$TMP/err"

# Past the 255 bytes kept of a spec, the caret still sits under the bad
# word (it pointed past the end of the truncated text).
expect_fail "stat: error at byte 300" "unknown event 'zz'" \
	"$SONDE" stat -e "$(printf 'cpu-clock,%.0s' $(seq 30))zz" true
spec_line=$(grep "event syntax error" "$TMP/err")
caret_line=$(grep -F '\___' "$TMP/err")
want=${spec_line%%zz*}
got=${caret_line%%\\___*}
if [ -n "$spec_line" ] && [ ${#want} = ${#got} ]; then
	pass "stat: error at byte 300: caret under the bad word"
else
	fail "stat: error at byte 300: caret at ${#got}, word at ${#want}"
fi

# The kernel takes 1, 2, 4 or 8 bytes; anything else was an EINVAL at open.
bad "mem: length 3" 'mem:0x1000/3' "breakpoint length"
bad "mem: length 99999999999" 'mem:0x1000/99999999999' "breakpoint length"
expect_ok "list --attr: mem: length 8" "$SONDE" list --attr 'mem:0x1000/8'
contains "list --attr: mem: length 8 is bp_len 8" 'bp_len.*8' "$TMP/out"
exit 0
