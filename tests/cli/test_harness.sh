#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# The test harness itself: how tests stop sonde and how the suite ends a
# test. A `timeout -s INT` sends SIGCONT to the command and its group right
# after the SIGINT; a SIGCONT that lands while an ASan build of sonde is in
# LeakSanitizer's exit-time stop-the-world discards the SIGSTOP the tracer
# waits for, and sonde spins forever (issue 11). And a test killed on
# timeout must not leave what it started running.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/../run_group.sh"

# A target that logs the signals it gets (python: a handler is installed
# even though a background job starts with SIGINT ignored).
cat >"$TMP/sigs.py" <<'PY'
import signal, sys, time
log = open(sys.argv[1], "a", buffering=1)
stop = []
def on(sig, frame):
    log.write(signal.Signals(sig).name + "\n")
    if sig == signal.SIGINT:
        stop.append(time.time())
signal.signal(signal.SIGINT, on)
signal.signal(signal.SIGCONT, on)
open(sys.argv[2], "w").close()  # handlers in place
# After SIGINT, still "finishing" for 0.5 s, as sonde does at exit.
while not stop or time.time() - stop[0] < 0.5:
    time.sleep(0.05)
PY

if ! command -v python3 >/dev/null; then
	skip "harness: python3 missing"
else
	interrupt_after "file:$TMP/ready" 10 python3 "$TMP/sigs.py" "$TMP/sigs.log" "$TMP/ready"
	rc=$?
	got=$(tr '\n' ' ' <"$TMP/sigs.log" 2>/dev/null)
	[ $rc = 0 ] && [ "$got" = "SIGINT " ] &&
		pass "interrupt_after: one SIGINT and nothing else (no SIGCONT)" ||
		fail "interrupt_after: exit $rc, signals '$got'"

	# A target that ignores SIGINT: bounded by the limit, then killed.
	start=$SECONDS
	interrupt_after 0.2 2 python3 -c 'import signal, time
signal.signal(signal.SIGINT, signal.SIG_IGN)
time.sleep(60)' 2>"$TMP/ia.err"
	rc=$?
	[ $rc = 124 ] && [ $((SECONDS - start)) -lt 30 ] &&
		grep -q "did not exit" "$TMP/ia.err" &&
		pass "interrupt_after: a command that stays is killed after the limit" ||
		fail "interrupt_after: exit $rc after $((SECONDS - start)) s: $(cat "$TMP/ia.err")"
fi

# run_group: a test that hangs is ended with everything it started, and
# one that exits leaves nothing behind.
cat >"$TMP/hang.sh" <<EOS
sleep 300 &
echo \$! >"$TMP/bg.pid"
sleep 300
EOS
run_group 1 bash "$TMP/hang.sh" 2>"$TMP/rg.err"
rc=$?
bg=$(cat "$TMP/bg.pid" 2>/dev/null)
if [ $rc = 124 ] && [ -n "$bg" ] && wait_exited "$bg" && grep -q "timed out" "$TMP/rg.err"; then
	pass "run_group: a hung test and its background child are killed"
else
	fail "run_group: exit $rc, background pid '$bg' $(ps -o stat= -p "$bg" 2>/dev/null)"
	[ -n "$bg" ] && kill -KILL "$bg" 2>/dev/null
fi

cat >"$TMP/leave.sh" <<EOS
sleep 300 &
echo \$! >"$TMP/bg2.pid"
exit 3
EOS
run_group 60 bash "$TMP/leave.sh"
rc=$?
bg=$(cat "$TMP/bg2.pid" 2>/dev/null)
if [ $rc = 3 ] && [ -n "$bg" ] && wait_exited "$bg"; then
	pass "run_group: the test's status is kept and its leftovers are killed"
else
	fail "run_group: exit $rc, leftover pid '$bg' $(ps -o stat= -p "$bg" 2>/dev/null)"
	[ -n "$bg" ] && kill -KILL "$bg" 2>/dev/null
fi

# `timeout CMD` puts itself and CMD in a process group of their own: the
# group kill misses them, the session kill does not.
cat >"$TMP/escape.sh" <<EOS
timeout 300 sh -c 'echo \$\$ >"$TMP/esc.pid"; exec sleep 300' &
for i in \$(seq 100); do [ -s "$TMP/esc.pid" ] && break; sleep 0.05; done
exit 0
EOS
run_group 60 bash "$TMP/escape.sh"
rc=$?
esc=$(cat "$TMP/esc.pid" 2>/dev/null)
if [ $rc = 0 ] && [ -n "$esc" ] && wait_exited "$esc"; then
	pass "run_group: what a test left under \`timeout\` (its own group) is killed"
else
	fail "run_group: exit $rc, the sleep under timeout: pid '$esc' $(ps -o stat=,pgid=,sid= -p "$esc" 2>/dev/null)"
	[ -n "$esc" ] && kill -KILL "$esc" 2>/dev/null
fi

# lib.sh's watchdog ends a script (and its group) that outlives
# CLI_TEST_TIMEOUT, well before the suite's own limit.
cat >"$TMP/slow.sh" <<EOF
source "$(cd "$(dirname "$0")" && pwd)/lib.sh"
sleep 300 &
echo \$! >"$TMP/bg3.pid"
sleep 300
echo "not killed"
EOF
start=$SECONDS
CLI_TEST_TIMEOUT=1 run_group 60 bash "$TMP/slow.sh" >"$TMP/wd.out" 2>&1
rc=$?
bg=$(cat "$TMP/bg3.pid" 2>/dev/null)
if [ $rc = 137 ] && grep -q "still running after 1s" "$TMP/wd.out" &&
   [ -n "$bg" ] && wait_exited "$bg" && [ $((SECONDS - start)) -lt 30 ]; then
	pass "watchdog: a script past CLI_TEST_TIMEOUT is killed with its children"
else
	fail "watchdog: exit $rc after $((SECONDS - start)) s: $(head -c 300 "$TMP/wd.out")"
	[ -n "$bg" ] && kill -KILL "$bg" 2>/dev/null
fi

# lib.sh limits each command's CPU time, so a spinning one (SIGXCPU) costs
# a minute at most, not the watchdog's five.
got=$(CLI_CPU_LIMIT=7 bash -c 'source "$1" >/dev/null; ulimit -S -t' sh \
	"$(cd "$(dirname "$0")" && pwd)/lib.sh")
[ "$got" = 7 ] && [ "$(ulimit -S -t)" = 60 ] &&
	pass "CPU limit: lib.sh bounds every command's CPU time (CLI_CPU_LIMIT, 60 s)" ||
	fail "CPU limit: '$got' with CLI_CPU_LIMIT=7, '$(ulimit -S -t)' by default"
