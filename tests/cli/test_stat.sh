#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# sonde stat end to end: every option, the error paths, and counts, CSV
# and JSON checked against perf stat (the oracle) on deterministic work.
. "$(dirname "$0")/lib.sh"
LOAD=$HELPERS/statload
need_helper "stat" "$LOAD"
EV=task-clock,page-faults,context-switches

# ---- the command and what it leaves alone ----
$SONDE stat -- $LOAD exit 0 >"$TMP/out" 2>"$TMP/err"
contains "stat: header names the command" \
	"^ Performance counter stats for '$LOAD exit 0':$" "$TMP/err"
contains "stat: default task-clock with CPUs utilized" \
	'^ +[0-9.,]+ msec task-clock +# +[0-9.]+ CPUs utilized' "$TMP/err"
for e in context-switches cpu-migrations page-faults; do
	contains "stat: default $e with a rate" "^ +[0-9,]+      $e +# +[0-9.]+ [KMG]?/sec" "$TMP/err"
done
if [ -e /sys/bus/event_source/devices/cpu ]; then
	skip "stat: this machine has a PMU; <not supported> not checked"
else
	contains "stat: no PMU: cycles <not supported>, never an abort" \
		'^   <not supported>      cycles ' "$TMP/err"
	if grep -q stalled "$TMP/err"; then fail "stat: unsupported stalled-cycles shown (perf hides them)"
	else pass "stat: unsupported default stalled-cycles left out as perf does"; fi
fi
contains "stat: elapsed" '^ +[0-9]+\.[0-9]{9} seconds time elapsed$' "$TMP/err"
contains "stat: user time" '^ +[0-9]+\.[0-9]{9} seconds user$' "$TMP/err"
contains "stat: sys time" '^ +[0-9]+\.[0-9]{9} seconds sys$' "$TMP/err"
if [ ! -s "$TMP/out" ]; then pass "stat: counts go to stderr, stdout untouched"
else fail "stat: stdout got: $(head -c 200 "$TMP/out")"; fi

out=$(echo "through stdin" | $SONDE stat -e task-clock -- $LOAD echo 2>/dev/null)
if [ "$out" = "through stdin" ]; then pass "stat: child's stdin and stdout untouched"
else fail "stat: child's stdio: got '$out'"; fi

$SONDE stat -e task-clock -- $LOAD exit 7 2>/dev/null
rc=$?; if [ $rc = 7 ]; then pass "stat: exit status is the child's"; else fail "stat: exit status $rc, want 7"; fi
$SONDE stat -e task-clock -- sh -c 'kill -9 $$' 2>/dev/null
rc=$?; if [ $rc = 137 ]; then pass "stat: killed child gives 128+signal"; else fail "stat: exit $rc, want 137"; fi

# ---- errors: a clear line, a non-zero exit, no crash ----
expect_fail "stat: command that does not exist" "cannot run '/no/such/cmd': command not found" \
	$SONDE stat -- /no/such/cmd
[ "$(cat "$TMP/err" | wc -l)" -le 2 ] && pass "stat: missing command is one short message" || fail "stat: long error: $(cat "$TMP/err")"
$SONDE stat -- /no/such/cmd 2>/dev/null; rc=$?
[ $rc = 127 ] && pass "stat: missing command exits 127" || fail "stat: missing command exit $rc"
sh -c 'exit 0' & gone=$!; wait $gone
expect_fail "stat: pid that is gone" "no process with id $gone" $SONDE stat -p $gone
expect_fail "stat: tid that is gone" "no thread with id $gone" $SONDE stat -t $gone
expect_fail "stat: pid that is not a number" "not a positive number" $SONDE stat -p abc
expect_fail "stat: a pid list with a bad entry names it" "process id 'x' is not" $SONDE stat -p 1,x
expect_fail "stat: a pid list with a gone pid names it" "no process with id $gone" $SONDE stat -p $$,$gone
expect_fail "stat: cgroup that does not exist" "cgroup .*No such file" $SONDE stat -G no-such-cgroup-$$ -- true
expect_fail "stat: path that is not a cgroup" "'/tmp' is not a cgroup" $SONDE stat -G /tmp -- true
ncpu=$(getconf _NPROCESSORS_CONF)
expect_fail "stat: CPU list out of range" "CPU $ncpu is not online|not online" $SONDE stat -C 0-$ncpu -e cpu-clock -- true
expect_fail "stat: CPU list that is not one" "column 1" $SONDE stat -C abc -- true
expect_fail "stat: bad event spec shows where" "\\^|expected" $SONDE stat -e 'task-clock,,' -- true
expect_fail "stat: nothing to count" "nothing to count" $SONDE stat
expect_fail "stat: -x with -j" "exclusive" $SONDE stat -x, -j -- true
expect_fail "stat: -p with -t" "exclusive" $SONDE stat -p 1 -t 1
expect_fail "stat: per-core without CPUs" "need CPUs" $SONDE stat --per-core -- true
expect_fail "stat: per-thread with -a" "per-thread counts tasks" $SONDE stat --per-thread -a -- true
expect_fail "stat: two aggregations" "pick one" $SONDE stat -a -A --per-socket -- true
expect_fail "stat: -r 0" "at least 1" $SONDE stat -r 0 -- true
expect_fail "stat: -I too small" "at least 10 ms" $SONDE stat -I 1 -- true
expect_fail "stat: --interval-count without -I" "needs -I" $SONDE stat --interval-count 2 -- true
expect_fail "stat: -I with -r" "cannot be used with -r" $SONDE stat -I 100 -r 2 -- true
expect_fail "stat: unknown option" "unknown option" $SONDE stat --bogus -- true
if have_cycles; then
	expect_ok "stat: -e cycles with a core PMU" $SONDE stat -e cycles,task-clock -- true
	contains "stat: cycles counted where the PMU works" '^ +[0-9,]+      cycles' "$TMP/err"
else
	expect_ok "stat: unsupported -e event does not abort" $SONDE stat -e cycles,task-clock -- true
	contains "stat: unsupported -e event explained" "cycles: .*(not supported|PMU)" "$TMP/err"
fi

# ---- events, groups, repeats ----
expect_ok "stat: -e group" $SONDE stat -e '{task-clock,page-faults}' -- $LOAD pages 10
contains "stat: group members counted" '^ +[0-9,]+      page-faults ' "$TMP/err"
expect_ok "stat: -r 3" $SONDE stat -r 3 -e $EV -- $LOAD pages 10
contains "stat: -r header" "'$LOAD pages 10' \\(3 runs\\):" "$TMP/err"
contains "stat: -r noise on a line" 'CPUs utilized +\( \+- +[0-9.]+% \)$' "$TMP/err"
contains "stat: -r elapsed with noise" '^ +[0-9.]+ \+- [0-9.]+ seconds time elapsed  \( \+- +[0-9.]+% \)$' "$TMP/err"
expect_ok "stat: --no-scale" $SONDE stat --no-scale -e task-clock -- true
expect_ok "stat: -i/--no-inherit" $SONDE stat -i -e task-clock -- sh -c 'true'
expect_ok "stat: --no-big-num" $SONDE stat --no-big-num -e page-faults -- $LOAD pages 2000
if grep -qE '^ +[0-9]+,[0-9]{3}      page-faults' "$TMP/err"; then fail "stat: --no-big-num grouped digits"
else pass "stat: --no-big-num prints bare digits"; fi

# -D: the pages are touched at once, then it sleeps; a delay skips them.
$SONDE stat -x, -D 150 -e page-faults -- $LOAD pages 3000 400 2>"$TMP/d"
pf=$(cut -d, -f1 "$TMP/d")
if [ "${pf:-99999}" -lt 1500 ] 2>/dev/null; then pass "stat: -D delays counting ($pf faults after the delay)"
else fail "stat: -D counted $pf faults of 3000 touched before the delay"; fi

# ---- -o, -x, -j ----
expect_ok "stat: -o FILE" $SONDE stat -o "$TMP/o.txt" -e task-clock -- true
contains "stat: -o file has the counts" 'task-clock' "$TMP/o.txt"
if grep -q task-clock "$TMP/err"; then fail "stat: -o still wrote counts to stderr"
else pass "stat: -o leaves stderr alone"; fi
expect_fail "stat: -o unwritable" "cannot write" $SONDE stat -o /no/such/dir/x -e task-clock -- true
expect_ok "stat: -x ';'" $SONDE stat -x ';' -e $EV -- true
contains "stat: -x separator and field order" '^[0-9.]+;msec;task-clock;[0-9]+;100\.00;[0-9.]+;CPUs utilized$' "$TMP/err"

# ---- intervals ----
expect_ok "stat: -I with --interval-count" $SONDE stat -I 100 --interval-count 2 -e task-clock -- $LOAD spin 450
contains "stat: -I column header" '^#           time             counts unit events$' "$TMP/err"
n=$(grep -cE '^ +[0-9]+\.[0-9]{9} +[0-9.]+ msec task-clock' "$TMP/err")
[ "$n" = 2 ] && pass "stat: --interval-count 2 prints 2 intervals" || fail "stat: $n interval lines: $(cat "$TMP/err")"
bounded 10 $SONDE stat -a -I 100 --interval-count 2 -e cpu-clock 2>"$TMP/err"; rc=$?
n=$(grep -c 'cpu-clock' "$TMP/err")
[ $rc = 0 ] && [ "$n" = 2 ] && pass "stat: -a --interval-count ends the count by itself" ||
	fail "stat: -a --interval-count: rc $rc, $n lines"
expect_ok "stat: -I -j" $SONDE stat -I 100 --interval-count 1 -j -e task-clock -- $LOAD spin 250
if python3 -c 'import json,sys
for l in open(sys.argv[1]):
    o = json.loads(l); assert isinstance(o["interval"], float), o' "$TMP/err" 2>/dev/null
then pass "stat: -I -j lines carry a numeric interval"; else fail "stat: -I -j: $(cat "$TMP/err")"; fi

# ---- targets ----
expect_ok "stat: -a -- sleep" $SONDE stat -a -- sleep 0.1
contains "stat: -a header" "^ Performance counter stats for 'system wide':$" "$TMP/err"
contains "stat: -a counts cpu-clock" '^ +[0-9.,]+ msec cpu-clock ' "$TMP/err"
if grep -q 'seconds user' "$TMP/err"; then fail "stat: -a printed user time"; else pass "stat: -a has no user/sys lines (as perf)"; fi
expect_ok "stat: -C 0" $SONDE stat -C 0 -e cpu-clock -- sleep 0.05
contains "stat: -C header" "'CPU\\(s\\) 0'" "$TMP/err"
expect_ok "stat: -A" $SONDE stat -a -A -e cpu-clock -- sleep 0.05
contains "stat: -A rows per CPU" '^CPU0 +[0-9.,]+ msec cpu-clock' "$TMP/err"
expect_ok "stat: --per-cpu" $SONDE stat -a --per-cpu -x, -e cpu-clock -- sleep 0.05
contains "stat: --per-cpu CSV" '^CPU0,[0-9.]+,msec,cpu-clock,' "$TMP/err"
expect_ok "stat: --per-core" $SONDE stat -a --per-core -e cpu-clock -- sleep 0.05
contains "stat: --per-core labels" '^S[0-9]+-D[0-9]+-C[0-9]+ +[0-9]+ +[0-9.,]+ msec cpu-clock' "$TMP/err"
expect_ok "stat: --per-die" $SONDE stat -a --per-die -e cpu-clock -- sleep 0.05
contains "stat: --per-die labels" '^S[0-9]+-D[0-9]+ +[0-9]+ +[0-9.,]+ msec' "$TMP/err"
expect_ok "stat: --per-socket" $SONDE stat -a --per-socket -e cpu-clock -- sleep 0.05
contains "stat: --per-socket labels" '^S[0-9]+ +[0-9]+ +[0-9.,]+ msec' "$TMP/err"
expect_ok "stat: --per-node" $SONDE stat -a --per-node -e cpu-clock -- sleep 0.05
if [ -d /sys/devices/system/node/node0 ]; then
	nodes=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
	contains "stat: --per-node labels" '^N[0-9]+ +[0-9]+ +[0-9.,]+ msec cpu-clock' "$TMP/err"
	[ "$(grep -c '^N[0-9]' "$TMP/err")" = "$nodes" ] && pass "stat: --per-node one row per node ($nodes)" ||
		fail "stat: --per-node rows: $(grep '^N' "$TMP/err")"
else
	skip "stat: --per-node: no /sys/devices/system/node on this kernel"
fi
expect_fail "stat: --per-node needs CPUs" "add -a or -C" $SONDE stat --per-node -- true

$LOAD spin 3000 & spin=$!
expect_ok "stat: -p PID -- sleep" $SONDE stat -p $spin -e task-clock -- sleep 0.2
contains "stat: -p header" "process id '$spin'" "$TMP/err"
ms=$(sed -nE 's/^ +([0-9.]+) msec task-clock.*/\1/p' "$TMP/err")
if awk -v m="${ms:-0}" 'BEGIN { exit !(m > 5) }'; then pass "stat: -p counts the spinning process (${ms} ms)"
else fail "stat: -p counted ${ms:-nothing} ms of a spinning process"; fi
expect_ok "stat: -t TID" $SONDE stat -t $spin -e task-clock -- sleep 0.1
contains "stat: -t header" "thread id '$spin'" "$TMP/err"
expect_ok "stat: --per-thread" $SONDE stat --per-thread -p $spin -e task-clock -- sleep 0.1
contains "stat: --per-thread label" "^ +statload-$spin +[0-9.,]+ msec task-clock" "$TMP/err"
# -p without a command: runs until the target exits.
start=$(date +%s%N)
( sleep 0.3; kill $spin ) &
$SONDE stat -p $spin -e task-clock 2>"$TMP/err"; rc=$?
wait $spin 2>/dev/null
el=$(( ($(date +%s%N) - start) / 1000000 ))
if [ $rc = 0 ] && [ $el -lt 2500 ] && grep -q task-clock "$TMP/err"; then
	pass "stat: -p ends when the process does (${el} ms)"
else fail "stat: -p after exit: rc $rc, ${el} ms"; fi

# -G: a fresh cgroup v2 group with a spinner in it.
CG=""
for root in /sys/fs/cgroup/unified /sys/fs/cgroup; do
	if [ "$(stat -fc %T $root 2>/dev/null)" = cgroup2fs ] && mkdir "$root/sonde-test-$$" 2>/dev/null; then
		CG=$root/sonde-test-$$; break
	fi
done
if [ -z "$CG" ]; then
	skip "stat: -G: cannot make a cgroup v2 group here"
else
	# The spinner outlives any slow start of a sanitized sonde; it is
	# killed below. A count of nothing is retried once with a longer
	# window, since a loaded host can keep the spinner off-CPU briefly.
	$LOAD spin 30000 & spin=$!
	echo $spin >"$CG/cgroup.procs" 2>/dev/null
	grep -qx "$spin" "$CG/cgroup.procs" || echo "stat: -G: spinner $spin is not in $CG"
	expect_ok "stat: -G cgroup" $SONDE stat -G "$CG" -e cpu-clock -- sleep 0.2
	ms=$(sed -nE 's/^ +([0-9.]+) msec cpu-clock.*/\1/p' "$TMP/err")
	if [ -z "$ms" ]; then
		$SONDE stat -G "$CG" -e cpu-clock -- sleep 1 2>"$TMP/err" >/dev/null
		ms=$(sed -nE 's/^ +([0-9.]+) msec cpu-clock.*/\1/p' "$TMP/err")
	fi
	if awk -v m="${ms:-0}" 'BEGIN { exit !(m > 5) }'; then pass "stat: -G counts the cgroup's spinner (${ms} ms)"
	else fail "stat: -G counted ${ms:-nothing} ms: $(cat "$TMP/err")"; fi
	contains "stat: -G names the cgroup on the line" "cpu-clock +$CG" "$TMP/err"
	kill $spin 2>/dev/null; wait $spin 2>/dev/null
	rmdir "$CG" 2>/dev/null
fi

# ---- JSON lint in every aggregation mode: known keys, typed values ----
lint() { # name args...
	local name=$1; shift
	if $SONDE stat -j "$@" 2>&1 >/dev/null | python3 -c '
import json, sys
common = {"counter-value", "unit", "event", "event-runtime", "pcnt-running",
          "metric-value", "metric-unit"}
extra = {"interval": float, "cpu": int, "core": str, "die": str, "socket": str, "node": str,
         "thread": str, "aggregate-number": int, "cgroup": str, "variance": float}
n = 0
for line in sys.stdin:
    o = json.loads(line); n += 1
    assert common <= set(o) <= common | set(extra), sorted(o)
    for k, t in extra.items():
        assert k not in o or isinstance(o[k], t), (k, o)
    cv = o["counter-value"]
    assert isinstance(cv, (int, float)) or cv in ("<not counted>", "<not supported>"), o
    assert isinstance(o["event-runtime"], int) and isinstance(o["pcnt-running"], float), o
    assert o["metric-value"] is None or isinstance(o["metric-value"], (int, float)), o
assert n > 0
' 2>"$TMP/lint"; then pass "stat -j lint: $name"; else fail "stat -j lint: $name: $(tail -2 "$TMP/lint")"; fi
}
lint "global, -r" -r 2 -e task-clock,page-faults,cycles -- true
lint "-A" -a -A -e cpu-clock -- sleep 0.05
lint "--per-core" -a --per-core -e cpu-clock -- sleep 0.05
lint "--per-die" -a --per-die -e cpu-clock -- sleep 0.05
lint "--per-socket" -a --per-socket -e cpu-clock -- sleep 0.05
lint "--per-node" -a --per-node -e cpu-clock -- sleep 0.05
lint "--per-thread" --per-thread -e task-clock -- $LOAD exit 0
lint "-I" -I 50 --interval-count 2 -e task-clock -- $LOAD spin 200

# ---- signals: counting stops, the counts still print ----
# Background jobs of a script ignore SIGINT: start sonde with it restored.
python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' $SONDE stat -e task-clock -- sleep 5 2>"$TMP/sig" & st=$!
# Signal once the command runs (python may still be starting).
for i in $(seq 50); do pgrep -P $st -x sleep >/dev/null && break; sleep 0.1; done
kill -INT $st; wait_for 30 $st; rc=$?
if grep -q 'task-clock' "$TMP/sig" && [ $rc = 130 ]; then pass "stat: SIGINT prints the counts, exit 130 (child's)"
else fail "stat: SIGINT: rc $rc, $(head -c 300 "$TMP/sig")"; fi
$SONDE stat -a -e cpu-clock 2>"$TMP/sig" & st=$!
sleep 0.3; kill -TERM $st; wait_for 30 $st; rc=$?
if grep -q 'cpu-clock' "$TMP/sig" && [ $rc = 0 ]; then pass "stat: SIGTERM ends -a counting with the counts"
else fail "stat: SIGTERM: rc $rc, $(head -c 300 "$TMP/sig")"; fi

# ---- against perf stat ----
if ! have_perf; then
	skip "stat: perf is not installed: no comparison with perf stat"
	exit 0
fi
# Counts: medians of 3 runs each, within run-to-run noise.
median_count() { # tool event args...
	local tool=$1 ev=$2; shift 2
	for i in 1 2 3; do
		$tool stat -x, -e $ev -- "$@" 2>&1 >/dev/null | awk -F, -v e=$ev '$3 == e { print $1 }'
	done | sort -n | sed -n 2p
}
close() { # name a b tolerance%
	if awk -v a="$2" -v b="$3" -v t="$4" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * t / 100 + 2) }'
	then pass "$1 (sonde $2, perf $3)"; else fail "$1 (sonde $2, perf $3)"; fi
}
close "stat vs perf: page-faults of 3000 touched pages" \
	"$(median_count $SONDE page-faults $LOAD pages 3000)" "$(median_count perf page-faults $LOAD pages 3000)" 5
close "stat vs perf: context-switches of 100 sleeps" \
	"$(median_count $SONDE context-switches $LOAD sleeps 100)" "$(median_count perf context-switches $LOAD sleeps 100)" 10

# CSV: the same rows and the same number of fields as perf's.
$SONDE stat -x, -e $EV,cycles -- $LOAD pages 100 2>"$TMP/s.csv" >/dev/null
perf stat -x, -e $EV,cycles -- $LOAD pages 100 2>"$TMP/p.csv" >/dev/null
if python3 - "$TMP/s.csv" "$TMP/p.csv" <<'EOF'
import csv, re, sys
rate = lambda u: re.sub(r"^[KMG](/sec)$", r"\1", u)  # count-dependent prefix
s = [r for r in csv.reader(open(sys.argv[1])) if r]
p = [r for r in csv.reader(open(sys.argv[2])) if r]
assert [r[2] for r in s] == [r[2] for r in p], ([r[2] for r in s], [r[2] for r in p])
assert [len(r) for r in s] == [len(r) for r in p], (s, p)
for a, b in zip(s, p):
    assert a[1] == b[1] and rate(a[6]) == rate(b[6]), (a, b)  # units
    if a[0].startswith("<"):
        assert a[0] == b[0], (a, b)
    else:
        float(a[0]); int(a[3]); float(a[4])
EOF
then pass "stat vs perf: CSV parses, same rows, fields and units"
else fail "stat vs perf: CSV differs: $(cat "$TMP/s.csv") // $(cat "$TMP/p.csv")"; fi

# JSON: one object per line, perf's keys, numbers as numbers.
$SONDE stat -j -e $EV,cycles -- $LOAD pages 100 2>"$TMP/s.json" >/dev/null
perf stat -j -e $EV,cycles -- $LOAD pages 100 2>"$TMP/p.json" >/dev/null
if python3 - "$TMP/s.json" "$TMP/p.json" <<'EOF'
import json, re, sys
rate = lambda u: re.sub(r"^[KMG](/sec)$", r"\1", u)  # count-dependent prefix
s = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
p = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
assert [o["event"] for o in s] == [o["event"] for o in p]
for a, b in zip(s, p):
    assert set(a) == set(b), (sorted(a), sorted(b))
    if b["counter-value"].startswith("<"):
        assert a["counter-value"] == b["counter-value"]
    else:
        assert isinstance(a["counter-value"], (int, float)), a
        assert isinstance(a["metric-value"], (int, float)), a
    assert isinstance(a["event-runtime"], int) and isinstance(a["pcnt-running"], float)
    assert a["unit"] == b["unit"], (a, b)
    assert rate(a["metric-unit"]) == rate(b["metric-unit"]) or \
        (b["counter-value"].startswith("<") and a["metric-unit"] == ""), (a, b)
EOF
then pass "stat vs perf: JSON parses, same keys per line, typed numbers"
else fail "stat vs perf: JSON differs: $(head -3 "$TMP/s.json") // $(head -3 "$TMP/p.json")"; fi

# Plain layout: the same columns as perf's, line by line (numbers masked).
mask() { grep -v '^sonde stat:' "$1" | sed -E 's/[0-9][0-9.,]*/N/g; s/ [KMG]?\/sec/ \/sec/; s/ +$//' | grep -E 'task-clock|page-faults|context-switches|cycles|elapsed|user|sys|Performance'; }
$SONDE stat -e $EV,cycles -- $LOAD pages 100 2>"$TMP/s.txt" >/dev/null
perf stat -e $EV,cycles -- $LOAD pages 100 2>"$TMP/p.txt" >/dev/null
if diff <(mask "$TMP/s.txt" | sed -E 's/^ +//; s/ +/ /g') <(mask "$TMP/p.txt" | sed -E 's/^ +//; s/ +/ /g') >"$TMP/d.txt"; then
	pass "stat vs perf: plain output has perf's lines and words"
else fail "stat vs perf: plain output differs: $(cat "$TMP/d.txt")"; fi
awk '/^ .*task-clock/ { print index($0, "#") }' "$TMP/s.txt" >"$TMP/c1"
awk '/^ .*task-clock/ { print index($0, "#") }' "$TMP/p.txt" >"$TMP/c2"
if cmp -s "$TMP/c1" "$TMP/c2"; then pass "stat vs perf: metric column at perf's position"
else fail "stat vs perf: '#' at $(cat "$TMP/c1") vs perf $(cat "$TMP/c2")"; fi

# -d/-dd/-ddd: perf's cache events appended, in perf's order and rows.
names() { grep -E '^ +(<not|[0-9])' "$1" | grep -v ' seconds ' | sed -E 's/^ +(<not supported>|<not counted>|[0-9][0-9.,]*( msec)?) +//; s/ .*//'; }
for d in -d -dd -ddd; do
	$SONDE stat $d -- $LOAD exit 0 2>"$TMP/s.txt" >/dev/null
	perf stat $d -- $LOAD exit 0 2>"$TMP/p.txt" >/dev/null
	if diff <(names "$TMP/s.txt") <(names "$TMP/p.txt") >"$TMP/d.txt"; then
		pass "stat $d vs perf: the same events in the same order"
	else fail "stat $d vs perf: rows differ: $(cat "$TMP/d.txt")"; fi
done
if [ ! -e /sys/bus/event_source/devices/cpu ]; then
	$SONDE stat -d -- $LOAD exit 0 2>"$TMP/s.txt" >/dev/null
	perf stat -d -- $LOAD exit 0 2>"$TMP/p.txt" >/dev/null
	if diff <(grep -F '<not supported>' "$TMP/s.txt") <(grep -F '<not supported>' "$TMP/p.txt") >"$TMP/d.txt"; then
		pass "stat -d vs perf: the <not supported> lines byte for byte"
	else fail "stat -d vs perf: <not supported> lines differ: $(cat "$TMP/d.txt")"; fi
fi
$SONDE stat -d -e task-clock -- $LOAD exit 0 2>"$TMP/s.txt" >/dev/null
if [ "$(names "$TMP/s.txt" | tr '\n' ' ')" = "task-clock L1-dcache-loads L1-dcache-load-misses LLC-loads LLC-load-misses " ]; then
	pass "stat -d -e: the cache events follow the -e events"
else fail "stat -d -e: rows $(names "$TMP/s.txt" | tr '\n' ' ')"; fi
if grep -q '^sonde stat:' "$TMP/s.txt"; then fail "stat -d: warns for events it added: $(grep '^sonde stat:' "$TMP/s.txt" | head -2)"
else pass "stat -d: no warning for the events -d added (perf says nothing)"; fi

# --per-node: perf's row labels and CSV fields, numbers masked.
if [ -d /sys/devices/system/node/node0 ]; then
	nmask() { grep -E '^ *[0-9.]* *N' "$1" | sed -E 's/[0-9]+\.[0-9]+|[0-9]{3,}/X/g; s/ +/ /g; s/ [KMG]?\/sec//'; }
	$SONDE stat -a --per-node -e cpu-clock -- sleep 0.05 2>"$TMP/s.txt"
	perf stat -a --per-node -e cpu-clock -- sleep 0.05 2>"$TMP/p.txt"
	if diff <(nmask "$TMP/s.txt") <(nmask "$TMP/p.txt") >"$TMP/d.txt"; then pass "stat --per-node vs perf: the same rows"
	else fail "stat --per-node vs perf: $(cat "$TMP/d.txt")"; fi
	$SONDE stat -a --per-node -x, -e cpu-clock -- sleep 0.05 2>"$TMP/s.csv"
	perf stat -a --per-node -x, -e cpu-clock -- sleep 0.05 2>"$TMP/p.csv"
	if diff <(cut -d, -f1,2,4,5 "$TMP/s.csv") <(cut -d, -f1,2,4,5 "$TMP/p.csv") >"$TMP/d.txt"; then pass "stat --per-node vs perf: CSV node, cpus, unit, event"
	else fail "stat --per-node vs perf: CSV $(cat "$TMP/d.txt")"; fi
fi

# -p/-t take comma lists as perf does; counting lasts while any lives.
$LOAD spin 400 & p1=$!
$LOAD spin 1200 & p2=$!
sleep 0.1
$SONDE stat --per-thread -p $p1,$p2 -e task-clock 2>"$TMP/pl.txt"; rc=$?
wait $p1 $p2
contains "stat -p A,B: header names both" "process id '$p1,$p2'" "$TMP/pl.txt"
for p in $p1 $p2; do
	contains "stat -p A,B: a row for $p" "^ +statload-$p +[0-9.,]+ msec task-clock" "$TMP/pl.txt"
done
el=$(sed -nE 's/^ +([0-9.]+) seconds time elapsed/\1/p' "$TMP/pl.txt")
if [ $rc = 0 ] && awk -v e="${el:-0}" 'BEGIN { exit !(e > 0.5) }'; then
	pass "stat -p A,B: counts until the last one ends (${el}s)"
else fail "stat -p A,B: rc $rc, elapsed '${el}' (the second spins 1.2 s)"; fi
$LOAD spin 300 & t1=$!
$SONDE stat -t $t1,$t1 -e task-clock 2>"$TMP/tl.txt"; rc=$?
wait $t1
contains "stat -t A,B: header names the threads" "thread id '$t1,$t1'" "$TMP/tl.txt"
