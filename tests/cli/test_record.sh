#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# sonde record end to end: Linux perf (the oracle) must read every file we
# write — fp, dwarf, several events, groups, -a, -p, tracepoints, pipe —
# with no warnings, the same sample count, and the workload's real top
# symbols. Plus: file mode, perf.data.old, SIGINT, a full disk, bad input.
. "$(dirname "$0")/lib.sh"

W=$HELPERS/callchain_workload
cd "$TMP" || exit 1

expect_fail "record: no target" "nothing to record" "$SONDE" record
expect_fail "record: unknown event is pointed at" '\\___ unknown event' "$SONDE" record -e nosuchevent -- true
expect_fail "record: bad call-graph mode" "fp or dwarf" "$SONDE" record --call-graph lbr -- true
expect_fail "record: -m not a power of two" "power-of-two" "$SONDE" record -m 3 -- true
expect_fail "record: CPU list out of range" "CPU [0-9]+ is not online" "$SONDE" record -C 0-4095 -e cpu-clock -- true
expect_fail "record: --proc-map-timeout takes milliseconds" "proc-map-timeout. expects a number" "$SONDE" record --proc-map-timeout soon -- true
expect_fail "record: CPU list with a column" "column 1: expected a CPU number" "$SONDE" record -C x -e cpu-clock -- true
expect_fail "record: -F 0 refused" "frequency in Hz" "$SONDE" record -F 0 -- true
expect_fail "record: missing command" "cannot run" "$SONDE" record -o x.data -e task-clock -- /nonexistent/cmd
[ -e x.data ] && fail "record: failed exec left x.data behind" || pass "record: failed exec leaves no file"

need_helper "record" "$W"
if ! "$SONDE" record -q -o probe.data -e task-clock -- true 2>probe.err; then
	skip "record: cannot open software events here: $(head -c 300 probe.err)"
	exit 0
fi
if ! have_perf; then
	skip "record: Linux perf is not installed; perf compatibility not checked"
	exit 0
fi

# rec NAME ARGS...: records into NAME.data; checks what perf makes of it.
# Sets $samples (sonde's count) and leaves perf's report in NAME.rep.
rec() {
	local name=$1; shift
	if ! "$SONDE" record -o "$name.data" "$@" >"$name.out" 2>"$name.err"; then
		fail "record $name: exit $?: $(head -c 400 "$name.err")"
		return 1
	fi
	samples=$(sed -n 's/.*Captured and wrote .* (\([0-9]*\) samples).*/\1/p' "$name.err")
	perf report -f -i "$name.data" --stdio --no-children $REPORT_OPTS \
		>"$name.rep" 2>"$name.reperr"
	perf script -f -i "$name.data" -F time >"$name.times" 2>"$name.scrwarn"
	perf script -f -i "$name.data" >"$name.script" 2>>"$name.scrwarn"
	# perf prints its Tip on stdout; anything on stderr is a warning.
	if [ -s "$name.reperr" ] || [ -s "$name.scrwarn" ]; then
		fail "record $name: perf warns: $(head -c 400 "$name.reperr" "$name.scrwarn")"
	else
		pass "record $name: perf report and perf script read it silently"
	fi
	local n
	n=$(wc -l <"$name.times")
	if [ -n "$samples" ] && [ "$n" = "$samples" ] && [ "$n" -gt 0 ]; then
		pass "record $name: perf sees the same $n samples"
	else
		fail "record $name: sonde said '$samples' samples, perf script shows $n"
	fi
}

# top_symbol NAME SYM: SYM is the hottest symbol of perf report.
top_symbol() {
	local top
	top=$(grep -v '^#' "$1.rep" | grep -m1 '%' | awk '{print $NF}')
	if [ "$top" = "$2" ]; then pass "record $1: top symbol is $2"
	else fail "record $1: top symbol '$top', expected $2"; fi
}

# chain NAME: perf script shows leaf_burn called from run_b, run_a, main.
chain() {
	if grep -A4 'leaf_burn' "$1.script" | grep -q run_b &&
	   grep -A6 'leaf_burn' "$1.script" | grep -q run_a &&
	   grep -A8 'leaf_burn' "$1.script" | grep -q main; then
		pass "record $1: call chains reach leaf_burn <- run_b <- run_a <- main"
	else
		fail "record $1: call chain incomplete: $(grep -m1 -A6 leaf_burn "$1.script")"
	fi
}

rec plain -e task-clock -- "$W" 300 && {
	top_symbol plain leaf_burn
	perf report -f -i plain.data --header -I >plain.hdr 2>&1
	contains "record plain: header features perf prints" "# hostname : .*" plain.hdr
	contains "record plain: CPU topology" "CPU 0: Core ID" plain.hdr
	contains "record plain: kernel build id" "kernel.kallsyms" <(perf buildid-list -f -i plain.data 2>&1)
	if "$SONDE" report -h >/dev/null 2>&1; then
		contains "record plain: sonde report reads it too" "leaf_burn" \
			<("$SONDE" report -i plain.data --stdio 2>&1)
	fi
}
rec fp -g -e task-clock -- "$W" 300 && { top_symbol fp leaf_burn; chain fp; }
rec dwarf --call-graph dwarf -e task-clock -- "$W" 300 && { top_symbol dwarf leaf_burn; chain dwarf; }
expect_ok "record: -F max" "$SONDE" record -q -F max -o fmax.data -e task-clock -- true
# The default event is cycles, or cpu-clock with a warning where cycles
# does not count (most VMs).
if have_cycles; then
	contains "record: default event is cycles where it counts" "# event : name = (cpu-)?cycles" \
		<("$SONDE" record -o fb.data -- true 2>&1; perf report -f -i fb.data --header-only 2>&1)
else
	contains "record: default event falls back from cycles to cpu-clock" \
		"cpu-clock" <("$SONDE" record -o fb.data -- true 2>&1; perf report -f -i fb.data --header-only 2>&1)
fi

rec multi -e task-clock,page-faults -- "$W" 300 && {
	top_symbol multi leaf_burn
	contains "record multi: both events in perf script" "page-faults" <(perf script -f -i multi.data -F event 2>&1 | sort -u)
}
rec group -e '{task-clock,page-faults}' -- "$W" 300 && {
	perf report -f -i group.data --header-only >group.hdr 2>&1
	if grep -q 'missing features:.*GROUP_DESC' group.hdr; then
		fail "record group: no GROUP_DESC in the file"
	else
		contains "record group: GROUP_DESC read by perf" "group: .*task-clock,page-faults" group.hdr
	fi
}
# The kernel refuses a pinned (:D) group member: :W opens the group's
# events one by one, as perf record does, and the file has no such group.
expect_fail "record: a group with a pinned member fails without :W" "page-faults:D" \
	"$SONDE" record -q -o strong.data -e '{task-clock,page-faults:D}' -- true
rec weak -e '{task-clock,page-faults:D}:W' -- "$W" 300 && {
	contains "record weak group: both events sampled" "page-faults:D" <(perf script -f -i weak.data -F event 2>&1 | sort -u)
	perf report -f -i weak.data --header-only >weak.hdr 2>&1
	if grep -q '^# group:' weak.hdr; then fail "record weak group: split group still in GROUP_DESC: $(grep '^# group' weak.hdr)"
	else pass "record weak group: the split group is not in the file"; fi
	# Alone, the former member starts at the exec as its leader would.
	contains "record weak group: former member waits for the exec" \
		'^page-faults:D: .*disabled: 1.*enable_on_exec: 1' <(perf evlist -v -f -i weak.data 2>&1)
}
interrupt_after 1 30 "$SONDE" record -C 0 -o cpu0.data -e cpu-clock >/dev/null 2>cpu0.err
cpus=$(perf script -f -i cpu0.data -F cpu 2>/dev/null | sort -u | tr -d ' []\n')
[ "$cpus" = 000 ] && pass "record: -C 0 alone records CPU 0 system-wide until SIGINT" ||
	fail "record: -C 0 gave CPUs '$cpus': $(head -c 300 cpu0.err)"
rec syswide -a -e cpu-clock -- "$W" 300 && \
	contains "record syswide: workload symbols resolved" "leaf_burn" syswide.rep

# The programs run until killed; the recording's duration is a command,
# which starts once the events are on: a slow start on a busy host cannot
# outlast the program and leave nothing to sample.
"$W" 30000 &
wpid=$!
sleep 0.3
rec pid -e task-clock -p "$wpid" -- sleep 1 && top_symbol pid leaf_burn
kill "$wpid" 2>/dev/null; wait "$wpid" 2>/dev/null

"$W" 30000 2 &
wpid=$!
sleep 0.3
rec tid -e task-clock -t "$wpid" -- sleep 1 && top_symbol tid leaf_burn
kill "$wpid" 2>/dev/null; wait "$wpid" 2>/dev/null

if have_tracefs; then
	rec tp -a -e sched:sched_switch -- "$W" 200 2 &&
		contains "record tp: tracepoint fields decoded" "prev_comm=" tp.script
else
	skip "record tp: tracefs not available"
fi

# Flight recorder: only the newest data, still symbolized; SIGUSR2
# snapshots never repeat a sample.
rec overwrite --overwrite -m 8 -e task-clock -- "$W" 500 && top_symbol overwrite leaf_burn
"$SONDE" record -o ow2.data --overwrite -m 8 -e task-clock -- "$W" 1500 2>ow2.err &
rpid=$!
sleep 0.5; kill -USR2 "$rpid"; sleep 0.3; kill -USR2 "$rpid"
wait_for 60 "$rpid"
n=$(perf script -f -i ow2.data -F time 2>/dev/null | wc -l)
d=$(perf script -f -i ow2.data -F time 2>/dev/null | sort | uniq -d | wc -l)
if [ "$n" -gt 0 ] && [ "$d" = 0 ]; then
	pass "record overwrite: SIGUSR2 snapshots ($n samples, no repeats)"
else
	fail "record overwrite: $n samples, $d repeated"
fi

# Threads are followed; --no-inherit stops that.
rec inh -e task-clock -- "$W" 300 2 && {
	n=$(perf script -f -i inh.data -F tid 2>/dev/null | sort -u | wc -l)
	[ "$n" = 2 ] && pass "record inh: both threads sampled" || fail "record inh: $n threads sampled, expected 2"
}
rec noinh --no-inherit -e task-clock -- "$W" 300 2 && {
	n=$(perf script -f -i noinh.data -F tid 2>/dev/null | sort -u | wc -l)
	[ "$n" = 1 ] && pass "record noinh: --no-inherit samples only the main thread" || fail "record noinh: $n threads sampled, expected 1"
}

# Context switches reach perf.
rec switch --switch-events -e task-clock -- "$W" 200 2 &&
	contains "record switch: SWITCH records" "PERF_RECORD_SWITCH" \
		<(perf script -f -i switch.data --show-switch-events 2>&1)

# Unprivileged under perf_event_paranoid 2: falls back to user space like
# perf, says so, and the file is still complete.
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 &&
   [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ]; then
	mkdir -p nob && copy_sonde nob && cp "$W" nob/ && chmod 777 nob && chmod 711 "$TMP"
	su nobody -s /bin/sh -c "cd $TMP/nob && ./sonde record -o u.data -e cpu-clock -- ./callchain_workload 200" \
		>nob.out 2>nob.err
	if grep -q "falling back to user space" nob.err &&
	   perf report -f -i nob/u.data --stdio 2>/dev/null | grep -q leaf_burn; then
		pass "record: unprivileged user falls back to :u and records"
	else
		fail "record: unprivileged: $(head -c 300 nob.err)"
	fi
else
	skip "record: unprivileged fallback not checked (needs root, user nobody, paranoid >= 2)"
fi

# -r: the recorder runs at SCHED_FIFO, the workload (forked before) does
# not; a priority out of range is refused before anything runs.
if [ "$(id -u)" = 0 ] && command -v chrt >/dev/null; then
	"$SONDE" record -q -r 3 -o rt.data -e task-clock -- \
		sh -c 'chrt -p $PPID; chrt -p $$' >rt.out 2>rt.err
	if grep -q "^pid [0-9]*'s current scheduling policy: SCHED_FIFO" rt.out &&
	   grep -q "current scheduling priority: 3" rt.out &&
	   [ "$(grep -c SCHED_OTHER rt.out)" = 1 ] && [ -s rt.data ]; then
		pass "record -r: recorder at SCHED_FIFO 3, workload not"
	else
		fail "record -r: $(tr '\n' '|' <rt.out) $(head -c 200 rt.err)"
	fi
else
	skip "record -r: needs root and chrt to set and see SCHED_FIFO"
fi
"$SONDE" record -r 100 -o rt100.data -- true 2>rt100.err
st=$?
if [ "$st" = 129 ] && grep -q "SCHED_FIFO priority from 1 to" rt100.err && ! [ -e rt100.data ]; then
	pass "record -r 100: refused with the range"
else
	fail "record -r 100: exit $st, $(head -c 200 rt100.err)"
fi

# Pipe: straight into perf, and saved then read as a file.
"$SONDE" record -o - -e task-clock -- "$W" 300 2>pipe.err >pipe.data
samples=$(sed -n 's/.*(\([0-9]*\) samples).*/\1/p' pipe.err)
n=$(perf script -f -i - -F time <pipe.data 2>pipe.warn | wc -l)
if [ "$n" = "$samples" ] && [ "$n" -gt 0 ] && ! [ -s pipe.warn ]; then
	pass "record pipe: perf script reads the stream ($n samples)"
else
	fail "record pipe: sonde '$samples' vs perf $n samples: $(head -c 300 pipe.warn)"
fi
if perf report -f -i - --stdio <pipe.data 2>pipe.warn | grep -q leaf_burn && ! [ -s pipe.warn ]; then
	pass "record pipe: perf report symbolizes the stream"
else
	fail "record pipe: perf report: $(head -c 300 pipe.warn)"
fi
n=$("$SONDE" record -o - -e task-clock -- "$W" 200 2>/dev/null | perf script -f -i - 2>&1 | grep -c leaf_)
[ "$n" -gt 0 ] && pass "record pipe: live pipe into perf script" || fail "record pipe: nothing through a live pipe"

# Files: mode 0600, perf.data.old kept, default name.
"$SONDE" record -q -e task-clock -- true 2>/dev/null
"$SONDE" record -q -e task-clock -- true 2>/dev/null
[ "$(stat -c %a perf.data)" = 600 ] && pass "record: perf.data is mode 0600" || fail "record: perf.data mode $(stat -c %a perf.data)"
[ -e perf.data.old ] && pass "record: previous file kept as perf.data.old" || fail "record: no perf.data.old"

# SIGINT finishes a valid file.
"$SONDE" record -o int.data -e task-clock -- "$W" 5000 2>int.err &
rpid=$!
sleep 0.7
kill -INT "$rpid"
wait_for 30 "$rpid"
if perf report -f -i int.data --stdio 2>int.warn | grep -q leaf_burn && ! [ -s int.warn ]; then
	pass "record: SIGINT leaves a complete file"
else
	fail "record: after SIGINT: $(head -c 300 int.warn)"
fi

# A write error (RLIMIT_FSIZE) stops with a message; the file stays valid.
( ulimit -f 1500; "$SONDE" record -o full.data --call-graph dwarf -e task-clock -- "$W" 2000 ) >full.out 2>full.err
rc=$?
if [ $rc -ne 0 ] && grep -q "File too large" full.err; then
	pass "record: write error stops with a clear message"
else
	fail "record: write error: exit $rc: $(head -c 300 full.err)"
fi
if [ ! -e full.data ]; then
	pass "record: failed file removed"
elif perf report -f -i full.data --stdio >/dev/null 2>full.warn && ! [ -s full.warn ]; then
	pass "record: failed file is valid up to the last round"
else
	fail "record: failed file unreadable: $(head -c 300 full.warn)"
fi

# A full disk (3 MB tmpfs): same promise.
if [ "$(id -u)" = 0 ] && mkdir -p tiny && mount -t tmpfs -o size=3m tmpfs tiny 2>/dev/null; then
	"$SONDE" record -o tiny/t.data --call-graph dwarf -e task-clock -- "$W" 2000 >tiny.out 2>tiny.err
	rc=$?
	if [ $rc -ne 0 ] && grep -q "No space left" tiny.err; then
		pass "record: full disk stops with a clear message"
	else
		fail "record: full disk: exit $rc: $(head -c 300 tiny.err)"
	fi
	if [ ! -e tiny/t.data ] ||
	   { perf report -f -i tiny/t.data --stdio >/dev/null 2>tiny.warn && ! [ -s tiny.warn ]; }; then
		pass "record: file on a full disk is valid or gone"
	else
		fail "record: file on a full disk unreadable: $(head -c 300 tiny.warn)"
	fi
	# A process just reaped may still pin it for a moment.
	for i in 1 2 3 4 5; do umount tiny 2>/dev/null && break; sleep 0.2; done
	if mountpoint -q tiny; then umount -l tiny; fi
else
	skip "record: full-disk test needs root to mount a tmpfs"
fi

# Kernels that mark MMAP2 records of a build_id=0 event with the build-id bit
# when another event on the machine asked for build ids (6.18 does): the file
# must still carry plain dev/inode MMAP2 records, or perf misreads (and
# crashes on) it.
if [ "$(id -u)" = 0 ]; then
	# The build-id session lasts as long as sonde's recording, not a fixed
	# 3 s: while it runs, every other perf on the machine may crash on
	# the stray bit (perf 6.1's util/build-id.c:1010).
	perf record --buildid-mmap -a -e dummy -o bg.data >/dev/null 2>&1 &
	bg=$!
	# perf writes the file's header once its events are open.
	for i in $(seq 100); do [ -s bg.data ] || wait_exited $bg && break; sleep 0.1; done
	SONDE_NO_BUILDID=1 "$SONDE" record -q -o nb.data -e task-clock -- "$W" 200 >/dev/null 2>nb.err
	kill -INT $bg
	for i in $(seq 100); do wait_exited $bg && break; sleep 0.1; done
	kill -KILL $bg 2>/dev/null
	wait $bg
	bits=$(python3 - nb.data <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
off, size = struct.unpack_from('<QQ', d, 40)
p, bad = off, 0
while p < off + size:
    t, m, s = struct.unpack_from('<IHH', d, p)
    if s < 8:
        break
    if t == 10 and m & (1 << 14):
        bad += 1
    p += s
print(bad)
PY
)
	if [ "$bits" = 0 ] && perf report -f -i nb.data --stdio >/dev/null 2>nb.warn && ! [ -s nb.warn ]; then
		pass "record: MMAP2 build-id bit repaired for a build_id=0 event"
	else
		fail "record: MMAP2 with a stray build-id bit ($bits), perf: $(head -c 300 nb.warn)"
	fi
else
	skip "record: the MMAP2 build-id repair test needs root (perf record -a)"
fi
