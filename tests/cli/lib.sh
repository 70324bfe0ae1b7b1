# SPDX-License-Identifier: LGPL-2.1-only
# Shared helpers for the end-to-end tests of the sonde command. Every check
# prints one PASS/FAIL/SKIP line; run_suite.sh counts them.
: "${SONDE:?SONDE must point at the sonde binary}"
TMP=$(mktemp -d)

# Every wait of a test is bounded. A watchdog ends the whole script (and
# what it started) after CLI_TEST_TIMEOUT seconds; commands that run until
# a signal or an event go through bounded/interrupt_after with their own,
# shorter limit. tests/run_suite.sh runs each script as the leader of its
# own process group, which the watchdog ends whole.
CLI_TEST_TIMEOUT=${CLI_TEST_TIMEOUT:-300}
cli_watchdog() {
	local target=$$ start
	# Leader of its group (run_suite.sh): end the group, else the script.
	[ "$(ps -o pgid= -p $$ | tr -d ' ')" = "$$" ] && target=-$$
	# The start time tells this script from a later process with its pid
	# (the watchdog outlives a script that was SIGKILLed).
	start=$(cut -d' ' -f22 /proc/$$/stat)
	setsid bash -c "sleep $CLI_TEST_TIMEOUT
		[ \"\$(cut -d' ' -f22 /proc/$$/stat 2>/dev/null)\" = $start ] || exit 0
		echo 'FAIL: $0 still running after ${CLI_TEST_TIMEOUT}s: killed' >&2
		kill -KILL -- $target" </dev/null >&2 &
	CLI_WATCHDOG=$!
}
cli_watchdog
# A process that spins (as an ASan sonde caught in LeakSanitizer's
# stop-the-world at exit did, forever) dies of SIGXCPU after
# CLI_CPU_LIMIT seconds of CPU instead of running until the watchdog;
# no command of a test needs that much.
ulimit -S -t "${CLI_CPU_LIMIT:-60}" 2>/dev/null
# A script that sets its own EXIT trap must call cli_cleanup in it: the
# watchdog holds the script's stderr, so a left one keeps the suite's
# $(...) waiting for its whole sleep.
cli_cleanup() {
	kill -- -$CLI_WATCHDOG 2>/dev/null || kill $CLI_WATCHDOG 2>/dev/null
	rm -rf "$TMP"
}
trap cli_cleanup EXIT
# report/script keep a kallsyms cache in $XDG_CACHE_HOME/sonde: not in the
# home of whoever runs the tests.
export XDG_CACHE_HOME="$TMP/cache"
# perf record and sonde record fill a build-id cache, and perf 6.1 keeps
# it in $HOME/.debug whatever PERF_BUILDID_DIR says (perf only sets that
# for its children): HOME is the test's own, so no test writes to the
# user's ~/.debug or reads another test's copies, and no two tests' perf
# processes share a cache (perf 6.1 aborts in util/build-id.c when they
# do). The toolchains found through HOME are pinned first.
[ -z "${RUSTUP_HOME:-}" ] && [ -d "$HOME/.rustup" ] && export RUSTUP_HOME="$HOME/.rustup"
[ -z "${CARGO_HOME:-}" ] && [ -d "$HOME/.cargo" ] && export CARGO_HOME="$HOME/.cargo"
[ -z "${PYENV_ROOT:-}" ] && [ -d "$HOME/.pyenv" ] && export PYENV_ROOT="$HOME/.pyenv"
export HOME="$TMP/home"
mkdir -p "$HOME"
unset PERF_BUILDID_DIR
# perf 6.1 record joins its BPF side-band thread at exit, and that thread
# polls with a 1 s timeout: up to a second of nothing per perf record. No
# test records BPF programs, so every `perf record` of the tests (also
# under timeout or sh -c) runs with --no-bpf-event, through this wrapper.
if REAL_PERF=$(command -v perf 2>/dev/null); then
	mkdir -p "$TMP/bin"
	cat >"$TMP/bin/perf" <<EOF
#!/bin/sh
[ "\$1" = record ] && shift && exec "$REAL_PERF" record --no-bpf-event "\$@"
exec "$REAL_PERF" "\$@"
EOF
	chmod +x "$TMP/bin/perf"
	export PATH="$TMP/bin:$PATH"
fi

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

# copy_sonde DIR: $SONDE copied into DIR (for runs as another user), with
# the libsonde.so it loads when it is the shared-library build: its rpath
# finds the library beside it.
copy_sonde() {
	local lib
	cp "$SONDE" "$1/sonde" || return 1
	lib=$(ldd "$SONDE" 2>/dev/null | awk '/libsonde\.so/ { print $3 }')
	[ -z "$lib" ] || cp -L "$lib" "$1/$(basename "$lib")"
}

have_perf() { command -v perf >/dev/null 2>&1; }

# need_perf WHAT: ends the test with a SKIP line when perf is not
# installed (WHAT names the checks that need it).
need_perf() {
	have_perf && return 0
	skip "$1: perf is not installed (apt-get install linux-perf)"
	exit 0
}

# need_helper WHAT PATH: ends the test with a SKIP line when the helper
# program PATH (tests/helpers, `make helpers`) is not built.
need_helper() {
	[ -x "$2" ] && return 0
	skip "$1: $2 not built (make helpers)"
	exit 0
}

# perf_rec FILE ARGS...: `perf record -q -o FILE ARGS`, quiet; its exit
# status, and its stderr in $TMP/rec.err for the line that says why not.
perf_rec() {
	local f=$1; shift
	perf record -q -o "$f" "$@" >/dev/null 2>"$TMP/rec.err"
}

# perf report's "# (Tip: ...)" block, which sonde does not print, cut
# from stdin: a random line between two "#" lines.
perf_untip() {
	python3 -c 'import re, sys; sys.stdout.write(re.sub(r"#\n# \(Tip:[^\n]*\n#\n", "", sys.stdin.read()))'
}

# report_same NAME FILE ARGS...: `sonde report -i FILE --stdio ARGS`
# prints what perf's does, byte for byte but for perf's closing tip, and
# perf printed rows: lines with a '%', or with a match of $REPORT_ROWS (an
# extended regular expression) when that is set. With $REPORT_CUT set,
# the lines that match that extended regular expression go from both
# outputs first (rows the two may tell apart for a reason of their own).
# perf runs with -f: whose file it is has no part in what is compared.
report_same() {
	local name=$1
	report_outputs "$@" || return
	if cmp -s "$TMP/perf.out" "$TMP/sonde.out"; then
		pass "$name: as perf prints it"
	else
		fail "$name: differs from perf: $(diff "$TMP/perf.out" "$TMP/sonde.out" | head -6 | tr '\n' '|')"
	fi
}

# report_outputs NAME FILE ARGS...: report_same's two reports, in
# $TMP/perf.out and $TMP/sonde.out ($REPORT_CUT's lines gone from both),
# for a test that compares them its own way; fails NAME and returns 1
# when sonde fails or perf printed no rows.
report_outputs() {
	local name=$1 file=$2 f; shift 2
	perf report -f -i "$file" --stdio "$@" 2>/dev/null | perf_untip >"$TMP/perf.out"
	if ! "$SONDE" report -i "$file" --stdio "$@" >"$TMP/sonde.out" 2>"$TMP/err"; then
		fail "$name: sonde failed: $(head -c 300 "$TMP/err")"; return 1
	fi
	if ! grep -qE -- "${REPORT_ROWS:-%}" "$TMP/perf.out"; then
		fail "$name: perf printed no rows${REPORT_ROWS:+ (/$REPORT_ROWS/)}"; return 1
	fi
	if [ -n "${REPORT_CUT:-}" ]; then
		for f in perf sonde; do
			grep -v -E -- "$REPORT_CUT" "$TMP/$f.out" >"$TMP/$f.cut"
			mv "$TMP/$f.cut" "$TMP/$f.out"
		done
	fi
}

# script_same NAME FILE ARGS...: `sonde script -i FILE ARGS` prints what
# perf's does, byte for byte, and perf printed something.
script_same() {
	local name=$1 file=$2; shift 2
	perf script -f -i "$file" "$@" >"$TMP/perf.out" 2>/dev/null
	if ! "$SONDE" script -i "$file" "$@" >"$TMP/sonde.out" 2>"$TMP/err"; then
		fail "$name: sonde failed: $(head -c 300 "$TMP/err")"
	elif [ ! -s "$TMP/perf.out" ]; then
		fail "$name: perf printed nothing"
	elif cmp -s "$TMP/perf.out" "$TMP/sonde.out"; then
		pass "$name: as perf prints it"
	else
		fail "$name: differs from perf: $(diff "$TMP/perf.out" "$TMP/sonde.out" | head -6 | tr '\n' '|')"
	fi
}

# have_cycles: the cycles event counts on this machine (a core PMU that
# works: not in most VMs). perf is the judge when it is installed, not the
# sonde under test; else whether a core PMU is listed.
have_cycles() {
	if have_perf; then
		perf stat -x, -e cycles -- true 2>&1 | grep -q '^[0-9]'
	else
		[ -d /sys/bus/event_source/devices/cpu ] || [ -d /sys/bus/event_source/devices/cpu_core ]
	fi
}

# Tracepoints need tracefs; mount it when we are root and it is missing.
have_tracefs() {
	[ -d /sys/kernel/tracing/events ] && return 0
	[ "$(id -u)" = 0 ] && mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	[ -d /sys/kernel/tracing/events ]
}

# bounded SECS CMD...: runs CMD; after SECS seconds SIGTERM, 5 s later
# SIGKILL (exit 124 or 137). --foreground: exactly one signal and no
# SIGCONT, which cancels the SIGSTOP that LeakSanitizer's exit-time
# stop-the-world waits for (an ASan sonde then spins forever).
bounded() {
	local secs=$1; shift
	timeout --foreground -k 5 "$secs" "$@"
}

# interrupt_after SECS|file:PATH LIMIT CMD...: runs CMD, sends it one
# SIGINT after SECS seconds (or once PATH exists, waiting at most LIMIT
# seconds for it) and waits at most LIMIT seconds more for it to exit
# (then SIGKILL, exit 124). Unlike `timeout -s INT`, which also sends SIGCONT
# to the child and its group right after the SIGINT, nothing else reaches
# the command while it finishes.
interrupt_after() {
	local secs=$1 limit=$2 pid rc i; shift 2
	"$@" &
	pid=$!
	if [[ $secs == file:* ]]; then
		for ((i = 0; i < limit * 10; i++)); do
			[ -e "${secs#file:}" ] && break
			wait_exited "$pid" && break
			sleep 0.1
		done
	else
		sleep "$secs"
	fi
	kill -INT "$pid" 2>/dev/null
	for ((i = 0; i < limit * 10; i++)); do
		wait_exited "$pid" && break
		sleep 0.1
	done
	if ! wait_exited "$pid"; then
		echo "interrupt_after: $1 did not exit ${limit}s after SIGINT: killed" >&2
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		return 124
	fi
	wait "$pid"
}

# wait_for SECS PID: waits at most SECS seconds for background job PID
# (then SIGKILL, exit 124, and a line on stderr); else its exit status.
# For a job told to stop by a signal, or one that should end by itself.
wait_for() {
	local secs=$1 pid=$2 i
	for ((i = 0; i < secs * 10; i++)); do
		wait_exited "$pid" && break
		sleep 0.1
	done
	if ! wait_exited "$pid"; then
		echo "wait_for: $pid still running after ${secs}s: killed" >&2
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		return 124
	fi
	wait "$pid"
}

# wait_exited PID: true when PID has exited (a zombie counts).
wait_exited() {
	case $(ps -o stat= -p "$1" 2>/dev/null) in
	"" | Z*) return 0 ;;
	*) return 1 ;;
	esac
}
