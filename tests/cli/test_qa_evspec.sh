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
# The kernel takes 1, 2, 4 or 8 bytes; anything else was an EINVAL at open.
bad "mem: length 3" 'mem:0x1000/3' "breakpoint length"
bad "mem: length 99999999999" 'mem:0x1000/99999999999' "breakpoint length"
expect_ok "list --attr: mem: length 8" "$SONDE" list --attr 'mem:0x1000/8'
contains "list --attr: mem: length 8 is bp_len 8" 'bp_len.*8' "$TMP/out"
exit 0
