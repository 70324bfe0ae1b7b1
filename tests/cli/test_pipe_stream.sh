#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Pipe-mode perf.data read as it arrives (stdin, pipes, FIFOs): script
# prints while the writer is still writing, memory stays bounded on a long
# stream, report stops on Ctrl-C with what arrived, errors keep their byte
# offsets with everything before them printed. The stream comes from the
# pdstream helper (tests/helpers/pdstream.c).
. "$(dirname "$0")/lib.sh"

G=$HELPERS/pdstream
C=$(dirname "$0")/../fuzz/corpus/fuzz_perfdata
need_helper "pipe streaming" "$G"

# Every committed file through a real pipe: the same output as the file.
for f in "$C"/*.data; do
	for cmd in script report; do
		"$SONDE" $cmd -i "$f" >"$TMP/a" 2>&1
		cat "$f" | "$SONDE" $cmd -i - >"$TMP/b" 2>&1
		if [ -s "$TMP/a" ] && cmp -s "$TMP/a" "$TMP/b"; then
			pass "pipe = file: $cmd $(basename "$f")"
		else
			fail "pipe differs from file: $cmd $(basename "$f"): $(diff "$TMP/a" "$TMP/b" | head -3)"
		fi
	done
done

# A FIFO fed slowly: the writer sends the COMMs and 3 rounds of 1000
# samples, then waits for $TMP/go. perf's rule releases rounds 0 and 1 at
# round 2's marker (round 2 may still get older records), so exactly 2000
# samples must be printed while the writer waits. Waiting up to 20 s for
# that is not a timing check: without streaming nothing appears at all.
mkfifo "$TMP/fifo"
"$G" 1 3 "$TMP/go" >"$TMP/fifo" &
wpid=$!
: >"$TMP/live" # exists before the background job opens it
"$SONDE" script -i "$TMP/fifo" >>"$TMP/live" 2>"$TMP/live.err" &
spid=$!
n=0
for _ in $(seq 200); do
	n=$(wc -l <"$TMP/live")
	[ "$n" -ge 2000 ] && break
	sleep 0.1
done
sleep 0.3 # anything beyond the released rounds would show up now
n=$(wc -l <"$TMP/live")
if [ "$n" = 2000 ]; then
	pass "FIFO: the first two rounds printed while the writer waits"
else
	fail "FIFO: $n lines printed while the writer waits, expected 2000"
fi
kill -0 "$wpid" 2>/dev/null && pass "FIFO: writer still waiting" ||
	fail "FIFO: writer ended early"
touch "$TMP/go"
wait_for 30 "$wpid"
if wait_for 30 "$spid"; then pass "FIFO: script ends at EOF"
else fail "FIFO: script failed: $(head -3 "$TMP/live.err")"; fi
"$G" 1 >"$TMP/s1.data"
"$SONDE" script -i "$TMP/s1.data" >"$TMP/file.txt" 2>/dev/null
if cmp -s "$TMP/file.txt" "$TMP/live"; then
	pass "FIFO: whole output equals the file's"
else
	fail "FIFO: output differs from the file's: $(diff "$TMP/file.txt" "$TMP/live" | head -3)"
fi

# Memory: a 300 MB stream, peak RSS far below it (timings not checked).
# ASan keeps freed memory in quarantine (256 MB): no bound to check there.
san=
ldd "$SONDE" 2>/dev/null | grep -q libasan && san=1
MB=300
if [ -n "$san" ]; then
	MB=20
	skip "stream memory bound: sanitizer build (ASan's quarantine holds freed memory)"
elif [ -x /usr/bin/time ]; then
	for cmd in "report --stdio" "script"; do
		"$G" 300 | /usr/bin/time -f '%M' -o "$TMP/rss" \
			"$SONDE" $cmd -i - >"$TMP/big.out" 2>"$TMP/big.err"
		rss=$(tail -1 "$TMP/rss")
		if [ "${rss:-999999}" -lt 100000 ]; then
			pass "300 MB stream: sonde $cmd peak RSS ${rss} KB < 100 MB"
		else
			fail "300 MB stream: sonde $cmd peak RSS ${rss} KB: $(head -c 300 "$TMP/big.err")"
		fi
	done
else
	skip "300 MB stream memory bound: /usr/bin/time not installed"
fi
"$G" $MB | "$SONDE" report --stdio -i - >"$TMP/big.out" 2>"$TMP/big.err"
# Rounds of 1000 samples (period 1000) are 40008 bytes after a preamble;
# the writer stops at the first round that reaches MB MiB.
pre=$(( $("$G" 1 | wc -c) % 40008 ))
rounds=$(( ((MB << 20) - pre + 40007) / 40008 ))
want=$((rounds * 1000 * 1000))
got=$(sed -n 's/^# Event count (approx.): //p' "$TMP/big.out")
if [ "$got" = "$want" ]; then
	pass "$MB MB stream: every sample reported ($rounds rounds)"
else
	fail "$MB MB stream: event count $got, expected $want: $(head -c 300 "$TMP/big.err")"
fi

# report on a stream: Ctrl-C ends the reading and reports what arrived,
# while the writer is still there (perf 6.1 prints an empty report).
rm -f "$TMP/go"
"$G" 1 3 "$TMP/go" >"$TMP/fifo" &
wpid=$!
# A plain background job starts with SIGINT ignored, which sonde respects
# (checked below); an interactive user's would not be. env gives it the
# default back: 'set -m' does not where the suite runs without a terminal.
env --default-signal=INT "$SONDE" report --stdio -i "$TMP/fifo" >"$TMP/rep" 2>"$TMP/rep.err" &
rpid=$!
# Wait until the SIGINT handler is installed (SigCgt bit 2).
for _ in $(seq 100); do
	cgt=$(awk '/^SigCgt/ {print $2}' /proc/$rpid/status 2>/dev/null)
	[ -n "$cgt" ] && [ $((0x$cgt & 2)) != 0 ] && break
	sleep 0.05
done
if [ $((0x${cgt:-0} & 2)) = 0 ]; then
	fail "report: no SIGINT handler on a stream"
	kill "$rpid"
fi
kill -INT "$rpid"
if wait_for 30 "$rpid"; then pass "report: SIGINT on a stream exits 0"
else fail "report: SIGINT: exit $?: $(head -3 "$TMP/rep.err")"; fi
contains "report: SIGINT reports the samples read" "^# Samples: [1-9]" "$TMP/rep"
contains "report: SIGINT says so" "interrupted: reporting the [0-9]+ bytes read so far" "$TMP/rep.err"
touch "$TMP/go"
wait_for 30 "$wpid" 2>/dev/null

# Started with SIGINT ignored (a script's background job): it stays ignored.
rm -f "$TMP/go"
"$G" 1 3 "$TMP/go" >"$TMP/fifo" &
wpid=$!
"$SONDE" report --stdio -i "$TMP/fifo" >"$TMP/rep" 2>"$TMP/rep.err" &
rpid=$!
for _ in $(seq 100); do
	cgt=$(awk '/^SigCgt/ {print $2}' /proc/$rpid/status 2>/dev/null)
	[ -n "$cgt" ] && [ $((0x$cgt & 0x4000)) != 0 ] && break # SIGTERM caught
	sleep 0.05
done
ign=$(awk '/^SigIgn/ {print $2}' /proc/$rpid/status 2>/dev/null)
cgt=$(awk '/^SigCgt/ {print $2}' /proc/$rpid/status 2>/dev/null)
if [ $((0x${ign:-0} & 2)) != 0 ] && [ $((0x${cgt:-0} & 2)) = 0 ] && [ $((0x${cgt:-0} & 0x4000)) != 0 ]; then
	pass "report: an ignored SIGINT stays ignored, SIGTERM is handled"
else
	fail "report: SigIgn ${ign:-?} SigCgt ${cgt:-?}: expected SIGINT ignored, SIGTERM caught"
fi
kill -TERM "$rpid" 2>/dev/null
wait_for 30 "$rpid" 2>/dev/null
touch "$TMP/go"
wait_for 30 "$wpid" 2>/dev/null

# Damage through a pipe: the same byte offset as the file, and everything
# before it printed.
size=$(stat -c %s "$TMP/s1.data")
cp "$TMP/s1.data" "$TMP/bad.data"
# Rounds are 40008 bytes after a shorter preamble (header, attr, hostname,
# COMMs, a round marker): round 10's first SAMPLE gets size 0.
pos=$((size % 40008 + 10 * 40008 + 6))
printf '\0\0' | dd of="$TMP/bad.data" bs=1 seek=$pos conv=notrunc 2>/dev/null
"$SONDE" script -i "$TMP/bad.data" >"$TMP/bf" 2>"$TMP/bf.err"
cat "$TMP/bad.data" | "$SONDE" script -i - >"$TMP/bp" 2>"$TMP/bp.err"
rc=${PIPESTATUS[1]}
if [ "$rc" = 1 ] && grep -q "byte offset [0-9]" "$TMP/bp.err" &&
	cmp -s "$TMP/bf" "$TMP/bp" && [ "$(wc -l <"$TMP/bp")" -ge 9000 ] &&
	[ "$(grep -o 'byte offset [0-9]*' "$TMP/bf.err")" = "$(grep -o 'byte offset [0-9]*' "$TMP/bp.err")" ]; then
	pass "pipe: corrupt record reported with its offset after the records before it"
else
	fail "pipe: corrupt record: exit $rc, $(wc -l <"$TMP/bp") lines: $(head -2 "$TMP/bp.err") / file: $(head -2 "$TMP/bf.err")"
fi
head -c $((size / 2 + 3)) "$TMP/s1.data" | "$SONDE" script -i - >"$TMP/tp" 2>"$TMP/tp.err"
rc=${PIPESTATUS[1]}
if [ "$rc" = 1 ] && grep -q "byte offset [0-9].*truncated" "$TMP/tp.err" &&
	[ "$(wc -l <"$TMP/tp")" -ge 12000 ]; then
	pass "pipe: truncated stream reported after the records before it"
else
	fail "pipe: truncated: exit $rc, $(wc -l <"$TMP/tp") lines: $(head -2 "$TMP/tp.err")"
fi
