# SPDX-License-Identifier: LGPL-2.1-only
# Sourced by run_suite.sh (and its own test): run one test as the leader of
# a new process group and end the whole group when it is done or overdue,
# so that nothing a test started (a stuck sonde below a script) outlives it.

# kill_session SID: SIGKILL to every process of session SID. A test's
# `timeout CMD` moves itself and CMD into a process group of their own
# (coreutils calls setpgid unless --foreground), out of reach of a kill of
# the test's group, but not out of its session.
kill_session() {
	local sid=$1 f line pid
	local -a st
	for f in /proc/[0-9]*/stat; do
		read -r line 2>/dev/null <"$f" || continue
		pid=${line%% *}
		# After "pid (comm) ": state ppid pgrp session ...
		read -r -a st <<<"${line##*) }"
		[ "${st[3]}" = "$sid" ] && [ "$pid" != "$BASHPID" ] && kill -KILL "$pid" 2>/dev/null
	done
}

# run_group SECS CMD...: runs CMD (stdin from /dev/null) in its own process
# group and session. After SECS seconds the group gets SIGTERM, 5 s later
# SIGKILL, and the exit status is 124. Whatever is left in the session when
# CMD exits is killed. Prints "run_group: ... timed out" on stderr on a
# timeout.
run_group() {
	local secs=$1 pid killer rc mark
	shift
	mark=$(mktemp)
	rm -f "$mark"
	# In a non-interactive shell the & child is no group leader, so
	# setsid(1) calls setsid() in place: $! leads the new group.
	setsid "$@" </dev/null &
	pid=$!
	setsid bash -c "sleep $secs; : >'$mark'; kill -TERM -- -$pid 2>/dev/null
		sleep 5; kill -KILL -- -$pid 2>/dev/null" </dev/null >/dev/null 2>&1 &
	killer=$!
	wait "$pid"
	rc=$?
	# Before the killer's setsid there is no group -$killer yet.
	kill -KILL -- -"$killer" 2>/dev/null || kill -KILL "$killer" 2>/dev/null
	wait "$killer" 2>/dev/null
	kill -KILL -- -"$pid" 2>/dev/null
	kill_session "$pid"
	if [ -e "$mark" ]; then
		rm -f "$mark"
		echo "run_group: $* timed out after ${secs}s: process group $pid killed" >&2
		return 124
	fi
	return $rc
}
