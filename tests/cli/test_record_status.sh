#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# sonde record's exit status and what a failed record leaves behind: the
# workload's status passes through (said unless -q), a command that cannot
# run keeps perf.data and perf.data.old, -p with a command records the
# process for as long as the command runs, a bad -e exits 1 like stat.
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 1

if ! "$SONDE" record -q -e cpu-clock -o probe.data -- true 2>probe.err; then
	skip "record status: cannot record here: $(head -c 300 probe.err)"
	exit 0
fi

# A command that cannot run: exit 127 as a shell (126 when not executable),
# and the previous recordings are untouched.
echo previous >perf.data
echo older >perf.data.old
"$SONDE" record -q -e cpu-clock -- /nonexistent/cmd 2>err
rc=$?
if [ $rc != 127 ]; then
	fail "record: missing command exits $rc, not 127: $(head -c 300 err)"
elif [ "$(cat perf.data)" != previous ] || [ "$(cat perf.data.old)" != older ]; then
	fail "record: a failed record rotated perf.data: $(cat perf.data) / $(cat perf.data.old)"
elif ls perf.data.?????? >/dev/null 2>&1; then
	fail "record: a failed record left a temporary file: $(ls perf.data.*)"
else
	pass "record: missing command exits 127 and keeps perf.data and .old"
fi
printf '#!/bin/sh\n' >noexec.sh
"$SONDE" record -q -e cpu-clock -o n.data -- ./noexec.sh 2>err
rc=$?
[ $rc = 126 ] && pass "record: a command that cannot run exits 126" ||
	fail "record: non-executable command exits $rc: $(head -c 300 err)"

# A successful record still rotates, as perf does.
"$SONDE" record -q -e cpu-clock -- true 2>err
if [ "$(cat perf.data.old)" = previous ] && "$SONDE" report -i perf.data --stdio >/dev/null 2>&1; then
	pass "record: success rotates perf.data to perf.data.old"
else
	fail "record: rotation after success: .old='$(head -c 20 perf.data.old)' $(head -c 300 err)"
fi

"$SONDE" record -e cpu-clock -o s.data -- sh -c 'exit 3' 2>err
rc=$?
if [ $rc != 3 ]; then
	fail "record: workload exit 3 gives $rc"
elif ! grep -q "exited with status 3" err; then
	fail "record: workload exit 3 not said: $(head -c 300 err)"
else
	pass "record: passes the workload's exit status on and says it"
fi
"$SONDE" record -q -e cpu-clock -o s.data -- sh -c 'exit 3' 2>err
[ $? = 3 ] && ! grep -q . err && pass "record -q: exit status without a word" ||
	fail "record -q: status/message: $(head -c 300 err)"
"$SONDE" record -e cpu-clock -o s.data -- sh -c 'kill -SEGV $$' 2>err
rc=$?
if [ $rc != 139 ]; then
	fail "record: workload killed by SIGSEGV gives $rc, not 139"
elif ! grep -q "killed by signal 11" err; then
	fail "record: signal not said: $(head -c 300 err)"
elif ! "$SONDE" report -i s.data --stdio >/dev/null 2>&1; then
	fail "record: the file of a killed workload does not read"
else
	pass "record: 128 + signal when the workload is killed, file kept"
fi

# -q silences warnings, the cycles fallback included (perf's -q).
"$SONDE" record -q -o q.data -- true 2>err
[ $? = 0 ] && ! grep -q . err && pass "record -q: no fallback warning" ||
	fail "record -q printed: $(head -c 300 err)"

# A bad -e: exit 1 with the marker, no usage dump (as sonde stat).
"$SONDE" record -e 'bad!' -- true >out 2>err
rc=$?
if [ $rc != 1 ]; then
	fail "record: bad -e exits $rc, not 1"
elif grep -q "Usage\|usage:" err || ! grep -q "event syntax error" err; then
	fail "record: bad -e message: $(head -c 300 err)"
else
	pass "record: bad -e exits 1 with the parser's message only"
fi

# -p with a command: the command sets the duration and is not recorded.
sh -c 'while :; do :; done' &
busy=$!
bounded 20 "$SONDE" record -q -e cpu-clock -o p.data -p $busy -- sleep 0.5 2>err
rc=$?
kill $busy 2>/dev/null
wait $busy 2>/dev/null
if [ $rc != 0 ]; then
	fail "record -p PID -- cmd: exit $rc: $(head -c 300 err)"
elif ! "$SONDE" script -i p.data -F comm,pid 2>/dev/null | awk -v p=$busy '
	$2 == p { mine++ } $2 != p { other++ }
	END { exit !(mine > 0 && other == 0) }'; then
	fail "record -p PID -- cmd: samples not only of $busy: $("$SONDE" script -i p.data -F comm,pid 2>&1 | sort | uniq -c | head -5)"
else
	pass "record -p PID -- cmd records the process while the command runs"
fi

# A full disk: nothing of the new recording can be written, so the
# previous file stays as it is, no temporary file is left behind, and
# nothing claims "Kept" for a file that is not ours. (With room for one
# round the partial recording is kept and the previous file becomes .old:
# how much fits depends on how early the rings are drained, so the disk
# is filled up first.)
if [ "$(id -u)" = 0 ] && mkdir -p tiny && mount -t tmpfs -o size=64k tmpfs tiny 2>/dev/null; then
	echo previous >tiny/t.data
	dd if=/dev/zero of=tiny/fill bs=4k 2>/dev/null
	"$SONDE" record -o tiny/t.data --call-graph dwarf -e task-clock -- \
		sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done' >/dev/null 2>tiny.err
	rc=$?
	left=$(ls tiny | grep -v '^fill$' | tr '\n' ' ')
	if [ $rc = 0 ]; then
		fail "record on a full disk: exit 0"
	elif [ "$(cat tiny/t.data)" != previous ]; then
		fail "record on a full disk: the previous tiny/t.data is gone"
	elif [ "$left" != "t.data " ]; then
		fail "record on a full disk: files left: $left"
	elif grep -q "Kept" tiny.err || ! grep -qE "No space left|still the previous recording" tiny.err; then
		fail "record on a full disk: summary: $(grep 'sonde record' tiny.err | tail -2)"
	else
		pass "record on a full disk keeps the previous file and says why"
	fi
	for i in 1 2 3 4 5; do umount tiny 2>/dev/null && break; sleep 0.2; done
	if mountpoint -q tiny; then umount -l tiny; fi
else
	skip "record on a full disk: needs root to mount a tmpfs"
fi
