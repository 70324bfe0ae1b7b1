# SPDX-License-Identifier: LGPL-2.1-only
# Shared helpers for the end-to-end tests of the sonde command. Every check
# prints one PASS/FAIL/SKIP line; run-suite.sh counts them.
: "${SONDE:?SONDE must point at the sonde binary}"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# report/script keep a kallsyms cache in $XDG_CACHE_HOME/sonde: not in the
# home of whoever runs the tests.
export XDG_CACHE_HOME="$TMP/cache"
# perf record and sonde record fill a build-id cache: this test's own, not
# the user's ~/.debug.
export PERF_BUILDID_DIR="$TMP/debug"

pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; }
skip() { echo "SKIP: $*"; }

# expect_ok NAME CMD...: the command exits 0.
expect_ok() {
	local name=$1; shift
	if "$@" >"$TMP/out" 2>"$TMP/err"; then pass "$name"
	else fail "$name (exit $?): $(head -c 600 "$TMP/err")"; fi
}

# expect_fail NAME PATTERN CMD...: exits non-zero and stderr matches PATTERN.
expect_fail() {
	local name=$1 pat=$2; shift 2
	if "$@" >"$TMP/out" 2>"$TMP/err"; then
		fail "$name: succeeded but should fail"
	elif grep -qE -- "$pat" "$TMP/err"; then pass "$name"
	else fail "$name: stderr lacks /$pat/: $(head -c 600 "$TMP/err")"; fi
}

# contains NAME PATTERN FILE
contains() {
	if grep -qE -- "$2" "$3"; then pass "$1"
	else fail "$1: /$2/ not in $3: $(head -c 600 "$3")"; fi
}

have_perf() { command -v perf >/dev/null 2>&1; }

# Tracepoints need tracefs; mount it when we are root and it is missing.
have_tracefs() {
	[ -d /sys/kernel/tracing/events ] && return 0
	[ "$(id -u)" = 0 ] && mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	[ -d /sys/kernel/tracing/events ]
}
