#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# sonde record on a hang-up, and when the disk fills up: the output is either gone or a file
# that reads back without complaint (never a header with an empty data
# section), and the summary does not claim data were written that were not.
source "$(dirname "$0")/lib.sh"
W="$HELPERS/report_workload"

# SIGHUP (terminal closed) finishes the file like SIGINT and reaps the
# workload. Sent once the workload runs, so the handlers are in place.
if [ -x "$W" ]; then
	"$SONDE" record -q -e cpu-clock -o "$TMP/hup.data" "$W" single 5000 \
		>/dev/null 2>"$TMP/hup.err" &
	rp=$!
	for i in $(seq 100); do
		wp=$(pgrep -P $rp -x report_workload) && break
		sleep 0.05
	done
	kill -HUP $rp
	wait_for 30 $rp
	rc=$?
	if [ -n "$wp" ] && kill -0 "$wp" 2>/dev/null; then
		fail "SIGHUP: workload $wp left running"
		kill -9 "$wp"
	elif [ $rc != 0 ]; then
		fail "SIGHUP: exit $rc: $(head -c 300 "$TMP/hup.err")"
	elif ! "$SONDE" report -i "$TMP/hup.data" --sort comm >/dev/null 2>"$TMP/rep"; then
		fail "SIGHUP: file unreadable: $(head -c 300 "$TMP/rep")"
	else
		pass "SIGHUP finishes a valid file"
	fi
fi

# The pipe reader goes away (record -o - | head): record stops with an
# error instead of dying of SIGPIPE and leaving the workload running.
if [ -x "$W" ]; then
	"$SONDE" record -q -e cpu-clock -o - "$W" single 4999 2>"$TMP/pipe.err" |
		head -c 100 >/dev/null
	rc=${PIPESTATUS[0]}
	left=$(pgrep -f "report_workload single 4999")
	if [ -n "$left" ]; then
		fail "record -o - | head: workload left running (exit $rc)"
		kill -9 $left
	elif [ "$rc" -ge 128 ] || [ "$rc" = 0 ]; then
		fail "record -o - | head: exit $rc: $(head -c 300 "$TMP/pipe.err")"
	else
		pass "record -o - | head: stops cleanly with an error"
	fi
fi

# ... but the workload keeps the default SIGPIPE/SIGXFSZ (ignored signals
# survive exec: `yes | head` in the workload would otherwise misbehave).
"$SONDE" record -q -e cpu-clock -o "$TMP/sig.data" -- bash -c 'trap -p PIPE XFSZ' \
	>"$TMP/sig.out" 2>"$TMP/sig.err"
if [ -s "$TMP/sig.out" ]; then
	fail "record: workload inherits ignored signals: $(cat "$TMP/sig.out")"
else
	pass "record: workload has default SIGPIPE and SIGXFSZ"
fi

# -o naming a device: record writes through it but never chmods or
# deletes it (a failed record used to unlink the path, and every record
# chmod'ed it to 0600: /dev/null!). Device nodes made here, not the real ones.
if mknod -m 666 "$TMP/null" c 1 3 2>/dev/null && mknod -m 666 "$TMP/full" c 1 7; then
	"$SONDE" record -q -e cpu-clock -o "$TMP/null" true >/dev/null 2>&1
	"$SONDE" record -q -e cpu-clock -o "$TMP/null" /no/such/cmd >/dev/null 2>&1
	"$SONDE" record -q -e cpu-clock -o "$TMP/full" true >/dev/null 2>&1
	for d in null full; do
		if [ ! -c "$TMP/$d" ]; then
			fail "record -o a device ($d): the device node was removed"
		elif [ "$(stat -c %a "$TMP/$d")" != 666 ]; then
			fail "record -o a device ($d): mode changed to $(stat -c %a "$TMP/$d")"
		else
			pass "record -o a device ($d): left as it was"
		fi
	done
fi

# -t of a thread that does not exist: refused at once (it used to record
# nothing until interrupted), and no file left.
bounded 10 "$SONDE" record -q -e cpu-clock -o "$TMP/t.data" -t 999999999 \
	>/dev/null 2>"$TMP/err"
rc=$?
if [ $rc = 124 ]; then
	fail "record -t gone tid: hangs"
elif [ $rc = 0 ] || ! grep -q 'no such thread' "$TMP/err"; then
	fail "record -t gone tid: exit $rc: $(head -c 300 "$TMP/err")"
elif [ -e "$TMP/t.data" ]; then
	fail "record -t gone tid: left a file"
else
	pass "record -t gone tid: refused"
fi

# A PMU that only counts (msr): the refusal says sampling is the problem
# and points at stat, rather than blaming the config.
if [ -d /sys/bus/event_source/devices/msr ]; then
	expect_fail "record on a counting-only PMU: says sampling" \
		'sampl' "$SONDE" record -o "$TMP/msr.data" -e msr/tsc/ true
	contains "record on a counting-only PMU: points at stat" 'sonde stat' "$TMP/err"
fi

if [ "$(id -u)" != 0 ]; then
	skip "record full disk: needs root to mount a small tmpfs"
	exit 0
fi
need_helper "record full disk" "$W"
M="$TMP/mnt"
mkdir -p "$M"
if ! mount -t tmpfs -o size=40k tmpfs "$M" 2>/dev/null; then
	skip "record full disk: cannot mount a tmpfs"
	exit 0
fi
trap 'umount "$M" 2>/dev/null; cli_cleanup' EXIT

# check NAME: the record failed, the summary is honest, the file is valid
# or absent.
check() {
	local name=$1 rc=$2
	if [ "$rc" = 0 ]; then
		fail "$name: exit 0 although the disk was full"
	elif grep -q 'Captured and wrote' "$TMP/err"; then
		fail "$name: summary claims success: $(grep Captured "$TMP/err")"
	else
		pass "$name: fails with an honest summary"
	fi
	if [ ! -e "$M/o.data" ]; then
		pass "$name: no file left"
	elif ! "$SONDE" report -i "$M/o.data" --sort comm >/dev/null 2>"$TMP/rep"; then
		fail "$name: kept file unreadable: $(head -c 300 "$TMP/rep")"
	elif have_perf && ! perf report -f -i "$M/o.data" --stdio >/dev/null 2>"$TMP/perf" ||
		grep -qiE 'warning|error' "$TMP/perf" 2>/dev/null; then
		fail "$name: perf complains about the kept file: $(head -c 300 "$TMP/perf")"
	else
		pass "$name: kept file reads back"
	fi
}

# ~40 KB of room: the header fits, the first round of samples does not.
"$SONDE" record -F 20000 -e cpu-clock -g -o "$M/o.data" "$W" single 300 >/dev/null 2>"$TMP/err"
check "40k tmpfs" $?
rm -f "$M/o.data"

# More room: some rounds fit, the rest are cut.
umount "$M"
mount -t tmpfs -o size=160k tmpfs "$M"
# System-wide, so that a loaded host that gives the workload little CPU
# still writes far more than 160k (the exit status must say so).
"$SONDE" record -a -F 20000 -e cpu-clock -g -o "$M/o.data" "$W" single 300 >/dev/null 2>"$TMP/err"
check "160k tmpfs" $?
exit 0
