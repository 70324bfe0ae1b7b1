#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Bad perf.data input to report and script: every refusal names the byte
# offset of the problem, a truncated file is reported once and up to the cut,
# and no cut or flipped byte crashes or hangs the reader.
source "$(dirname "$0")/lib.sh"
W="$HELPERS/report_workload"

# ok_refusal NAME FILE: both commands fail, no signal, "byte offset" given.
ok_refusal() {
	local name=$1 f=$2 c rc
	for c in report script; do
		bounded 10 "$SONDE" $c -i "$f" >"$TMP/out" 2>"$TMP/err"
		rc=$?
		if [ $rc -eq 0 ] || [ $rc -ge 124 ]; then
			fail "$c $name: exit $rc: $(head -c 300 "$TMP/err")"
		elif ! grep -q 'byte offset [0-9]' "$TMP/err"; then
			fail "$c $name: no byte offset: $(head -c 300 "$TMP/err")"
		else
			pass "$c $name"
		fi
	done
}

: >"$TMP/empty"
ok_refusal "empty file" "$TMP/empty"
printf 'PERFILE2' >"$TMP/short"
ok_refusal "8-byte file" "$TMP/short"
head -c 4096 /dev/zero >"$TMP/zeros"
ok_refusal "zeros (bad magic)" "$TMP/zeros"
printf 'PERFILE2\x68\0\0\0\0\0\0\0' >"$TMP/hdr"
ok_refusal "file header cut at 16" "$TMP/hdr"

# Endless garbage on stdin: refused from the first bytes, not read until
# memory runs out. The source trickles (tiny if the reader never stops);
# the reader must not wait for its end.
trickle() { # PREFIX: PREFIX, then 8-byte chunks of zeros forever
	printf "$1"
	while printf '\0\0\0\0\0\0\0\0' 2>/dev/null; do sleep 0.01; done
}
for src in "zeros" "pipe header then zeros"; do
	if [ "$src" = zeros ]; then pre='\0\0\0\0\0\0\0\0'
	else pre='PERFILE2\x10\0\0\0\0\0\0\0'; fi
	trickle "$pre" | bounded 5 "$SONDE" report -i - >/dev/null 2>"$TMP/err"
	rc=${PIPESTATUS[1]}
	if [ "$rc" = 124 ]; then
		fail "stdin: $src: still reading after 5 s"
	elif grep -q 'byte offset [0-9]' "$TMP/err"; then
		pass "stdin: $src refused early"
	else
		fail "stdin: $src: exit $rc: $(head -c 300 "$TMP/err")"
	fi
done

# A pipe stream with a TRACING_DATA record (its blob follows the record
# unannounced by the header size): a real pipe must read all of it, as the
# file.
if have_perf && have_tracefs &&
	perf record -q -o - -e sched:sched_switch -a sleep 0.1 >"$TMP/tpp.data" 2>/dev/null; then
	"$SONDE" script -i "$TMP/tpp.data" >"$TMP/tf.scr" 2>&1
	cat "$TMP/tpp.data" | "$SONDE" script -i - >"$TMP/ts.scr" 2>&1
	if [ -s "$TMP/tf.scr" ] && cmp -s "$TMP/tf.scr" "$TMP/ts.scr"; then
		pass "stdin: tracepoint pipe stream read whole"
	else
		fail "stdin: tracepoint pipe stream differs from the file: $(diff "$TMP/tf.scr" "$TMP/ts.scr" | head -3)"
	fi
fi

need_helper "perf.data truncation" "$W"
D="$TMP/d.data"
if ! "$SONDE" record -q -e cpu-clock -g -o "$D" "$W" single 40 >/dev/null 2>"$TMP/rec.err"; then
	skip "perf.data truncation: sonde record failed: $(head -c 200 "$TMP/rec.err")"
	exit 0
fi
size=$(stat -c %s "$D")
doff=$(od -An -t u8 -j 40 -N 8 "$D" | tr -d ' ')
dsz=$(od -An -t u8 -j 48 -N 8 "$D" | tr -d ' ')

# --time that is not a range: refused like perf, not an empty report.
expect_fail "report --time end before start" "end is before the start" \
	"$SONDE" report -i "$D" --time 5,3
expect_fail "report --time not numbers" "cannot parse" \
	"$SONDE" report -i "$D" --time abc,def
expect_ok "report --time open end" "$SONDE" report -i "$D" --time 0,

# A cut inside the data section: one message (not a warning plus the same
# error again), the samples before the cut are still reported.
head -c $((doff + dsz / 2)) "$D" >"$TMP/half"
"$SONDE" report -i "$TMP/half" --sort comm >"$TMP/out" 2>"$TMP/err"
n=$(grep -c 'byte offset' "$TMP/err")
if [ "$n" = 1 ]; then pass "truncated data reported once"
else fail "truncated data: $n messages: $(cat "$TMP/err")"; fi
contains "truncated data: samples before the cut" 'report_workload' "$TMP/out"

# Sweep of cuts: header, attrs, data start/middle/end, features, last byte.
# Never a signal or a hang; a failure always names the byte offset.
bad=0
for off in 0 7 8 15 16 40 71 72 103 104 $((doff - 1)) $doff $((doff + 3)) \
	$((doff + 8)) $((doff + 100)) $((doff + dsz / 3)) $((doff + dsz - 1)) \
	$((doff + dsz)) $((doff + dsz + 5)) $((size - 100)) $((size - 1)); do
	[ $off -lt 0 ] || [ $off -ge $size ] && continue
	head -c $off "$D" >"$TMP/cut"
	for c in "report --sort comm" "script -F comm,tid,ip"; do
		bounded 10 "$SONDE" $c -i "$TMP/cut" >/dev/null 2>"$TMP/err"
		rc=$?
		if [ $rc -ge 124 ]; then
			fail "cut at $off: $c: exit $rc: $(head -c 300 "$TMP/err")"
			bad=1
		elif [ $rc -ne 0 ] && ! grep -q 'byte offset [0-9]' "$TMP/err"; then
			fail "cut at $off: $c: no byte offset: $(head -c 300 "$TMP/err")"
			bad=1
		fi
	done
done
[ $bad = 0 ] && pass "truncation sweep: no crash, every refusal has an offset"

# Flipped bytes (fixed seed): no signal, no hang.
RANDOM=7
bad=0
for i in $(seq 12); do
	cp "$D" "$TMP/flip"
	for k in 1 2 3; do
		pos=$(((RANDOM * 32768 + RANDOM) % size))
		printf "\\x$(printf %02x $((RANDOM % 256)))" |
			dd of="$TMP/flip" bs=1 seek=$pos conv=notrunc status=none
	done
	for c in "report --sort comm,sym" "script"; do
		bounded 10 "$SONDE" $c -i "$TMP/flip" >/dev/null 2>"$TMP/err"
		rc=$?
		if [ $rc -ge 124 ]; then
			cp "$TMP/flip" "/tmp/sonde-qa-flip.$i"
			fail "flip $i: $c: exit $rc (kept /tmp/sonde-qa-flip.$i): $(head -c 300 "$TMP/err")"
			bad=1
		fi
	done
done
[ $bad = 0 ] && pass "bit flips: no crash or hang"
exit 0
