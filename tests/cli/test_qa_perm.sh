#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Permission problems as an unprivileged user under perf_event_paranoid 2:
# what can be counted user-only is (like perf), and what cannot says which
# setting (kernel.perf_event_paranoid and its value) or capability
# (CAP_PERFMON) is missing, suggesting :u where that would work.
source "$(dirname "$0")/lib.sh"
P=/proc/sys/kernel/perf_event_paranoid

if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	skip "permissions: needs root and setpriv to run as nobody"
	exit 0
fi
orig=$(cat $P)
if ! echo 2 >$P 2>/dev/null; then
	skip "permissions: cannot set $P"
	exit 0
fi
trap 'echo "$orig" >$P; cli_cleanup' EXIT
chmod 711 "$TMP"
mkdir -m 777 "$TMP/u"
copy_sonde "$TMP/u"
chmod 755 "$TMP/u/sonde"
U="setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all -- $TMP/u/sonde"
cd "$TMP/u" || exit 1

expect_ok "stat as user: falls back to user space" $U stat -e cpu-clock true
contains "stat as user: says it counts user space only" ':u|user space' "$TMP/err"
# perf labels what fell back (task-clock:u), and one cause is one message.
expect_ok "stat as user: default events" $U stat -x, -- true
if ! grep -q '^[^,]*,msec,task-clock:u,' "$TMP/err"; then
	fail "stat as user: task-clock not labelled :u as perf does: $(grep task-clock "$TMP/err")"
elif [ "$(grep -c 'perf_event_paranoid' "$TMP/err")" != 1 ]; then
	fail "stat as user: the fallback said $(grep -c 'perf_event_paranoid' "$TMP/err") times, not once"
else
	pass "stat as user: labels :u, says the fallback once"
fi

perm_msg() { # NAME CMD...: fails naming the setting, its value, CAP_PERFMON
	local name=$1; shift
	expect_fail "$name: names kernel.perf_event_paranoid and its value" \
		'kernel\.perf_event_paranoid is 2' "$@"
	contains "$name: names CAP_PERFMON" 'CAP_PERFMON' "$TMP/err"
}
perm_msg "stat -a as user" $U stat -a -e cpu-clock true
perm_msg "stat :k as user" $U stat -e cpu-clock:k true
contains "stat :k as user: suggests :u" ':u' "$TMP/err"
perm_msg "record :k as user" $U record -o k.data -e cpu-clock:k true
contains "record :k as user: suggests :u" ':u' "$TMP/err"
[ -e k.data ] && fail "record :k as user: left k.data" || pass "record :k as user: no file"
perm_msg "record -a as user" $U record -o a.data -a -e cpu-clock true

# Level 3: Debian's patch forbids everything; upstream kernels treat it like
# 2. Whatever this kernel does, the advice must match it.
echo 3 >$P
if $U stat -e cpu-clock:u true >/dev/null 2>&1; then
	expect_fail "stat :k at paranoid 3 (acts like 2): names the value" \
		'kernel\.perf_event_paranoid is 3' $U stat -e cpu-clock:k true
	contains "stat :k at paranoid 3 (acts like 2): suggests :u" ':u' "$TMP/err"
	if grep -q 'altogether' "$TMP/err"; then
		fail "stat :k at paranoid 3: claims all use is forbidden, but :u works"
	else
		pass "stat :k at paranoid 3: no false 'forbidden altogether'"
	fi
else
	expect_fail "stat at paranoid 3 (Debian): names the value" \
		'kernel\.perf_event_paranoid is 3' $U stat -e cpu-clock:u true
fi
echo 2 >$P

# tracefs is mounted root-only (0700): the user is told that, not that it
# is missing.
if have_tracefs && ! setpriv --reuid=65534 --regid=65534 --clear-groups \
	test -r /sys/kernel/tracing/events; then
	expect_fail "tracepoint as user: tracefs not readable" \
		'not readable|permission' $U stat -e sched:sched_switch true
	if grep -q 'not mounted' "$TMP/err"; then
		fail "tracepoint as user: claims tracefs is not mounted"
	else
		pass "tracepoint as user: does not claim tracefs is unmounted"
	fi
fi

# Another user's process: no sysctl fixes that at 2; do not suggest one.
expect_fail "stat -p 1 as user: explains" 'ptrace|owns' $U stat -e cpu-clock -p 1
contains "stat -p 1 as user: names CAP_PERFMON" 'CAP_PERFMON' "$TMP/err"
if grep -q 'perf_event_paranoid=2' "$TMP/err"; then
	fail "stat -p 1 as user: suggests setting paranoid to 2, which it is"
else
	pass "stat -p 1 as user: no useless sysctl"
fi

# A ring over the locked-memory allowance: the setting, its value, the
# capability that lifts it, and an -m that fits.
mlock=$(cat /proc/sys/kernel/perf_event_mlock_kb)
expect_fail "record -m over the mlock limit: names the setting and value" \
	"kernel\.perf_event_mlock_kb is $mlock" \
	$U record -o m.data -e cpu-clock -m 65536 true
contains "record -m over the mlock limit: names CAP_IPC_LOCK" 'CAP_IPC_LOCK' "$TMP/err"
contains "record -m over the mlock limit: suggests an -m that fits" '-m [0-9]+' "$TMP/err"
exit 0
