#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# sonde report / script on committed perf.data files (no perf needed): the
# fuzz seed corpus holds files recorded by perf 6.1 (file, pipe, two
# events) and generated opposite-endian ones. Also damaged input: the
# error names the byte offset and what came before is still reported.
source "$(dirname "$0")/lib.sh"
C="$(dirname "$0")/../fuzz/corpus/fuzz_perfdata"

expect_ok "report on a perf file" "$SONDE" report --no-children -i "$C/perf_file.data"
contains "header: sample count" "^# Samples: 6  of event 'cpu-clock'" "$TMP/out"
contains "header: event count" '^# Event count \(approx\.\): 600000' "$TMP/out"
contains "header: lost samples" '^# Total Lost Samples: 0' "$TMP/out"
contains "rows: user and kernel marks" '\[\.\] |\[k\] ' "$TMP/out"
sum=$(awk '/^ +[0-9.]+%  /{ s += $1 } END { printf "%.0f", s }' "$TMP/out")
[ "$sum" = 100 ] && pass "no-children rows sum to 100%" || fail "rows sum to $sum%"

expect_ok "children is the default with callchains" "$SONDE" report -i "$C/perf_fp.data"
contains "children columns" '^# Children +Self +Command' "$TMP/out"
contains "call graph printed" '^ +\|$|^ +---' "$TMP/out"

expect_ok "two events" "$SONDE" report -i "$C/perf_2events.data" -g none
n=$(grep -c '^# Samples: ' "$TMP/out")
[ "$n" = 2 ] && pass "two events: one section each" || fail "two events: $n sections"

expect_ok "pipe file" "$SONDE" script -i "$C/perf_pipe.data"
cp "$TMP/out" "$TMP/pipe.txt"
if "$SONDE" script -i - <"$C/perf_pipe.data" >"$TMP/stdin.txt" 2>"$TMP/err" &&
	cmp -s "$TMP/pipe.txt" "$TMP/stdin.txt" && [ -s "$TMP/stdin.txt" ]; then
	pass "pipe on stdin = pipe file"
else
	fail "pipe on stdin differs: $(head -3 "$TMP/err")"
fi

expect_ok "opposite-endian file" "$SONDE" script -i "$C/gen_swapped.data"
contains "swapped: comm, tid, period and event decoded" '^w +42 .* 1000 cpu-clock: $' "$TMP/out"
contains "swapped: callchain frames" $'^\t +1100 \\[unknown\\] \\(/x\\)' "$TMP/out"
expect_ok "opposite-endian pipe" "$SONDE" script -i "$C/gen_pipe_swapped.data"
contains "swapped pipe decoded" '^w +42 ' "$TMP/out"

expect_ok "script -F" "$SONDE" script -F comm,tid,sym -i "$C/perf_file.data"
if awk 'NF < 2 || /cpu-clock/ { bad = 1 } END { exit bad }' "$TMP/out"; then
	pass "script -F drops the event field"
else
	fail "script -F output: $(head -3 "$TMP/out")"
fi
expect_fail "script -F unknown field" "unknown field 'bogus'" "$SONDE" script -F comm,bogus -i "$C/perf_file.data"

expect_ok "script --json" "$SONDE" script --json -i "$C/perf_fp.data"
if command -v python3 >/dev/null; then
	if python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$TMP/out" 2>"$TMP/err"; then
		pass "script --json: every line is JSON"
	else
		fail "script --json: $(head -3 "$TMP/err")"
	fi
	# Addresses as hex strings: as numbers, jq and JavaScript round a
	# kernel address (0xffffffff821d4cd1 read back as ...4d00).
	"$SONDE" script -F ip -i "$C/perf_fp.data" 2>/dev/null |
		awk 'NF == 1 { print "0x" $1 }' >"$TMP/ips.txt"
	if python3 -c '
import json, re, sys
ips = []
for l in open(sys.argv[1]):
    for f in json.loads(l)["callchain"]:
        assert isinstance(f["ip"], str) and re.fullmatch("0x[0-9a-f]+", f["ip"]), f["ip"]
        if int(f["ip"], 16) >= 1 << 63:
            ips.append(f["ip"])
want = [i for i in open(sys.argv[2]).read().split() if int(i, 16) >= 1 << 63]
assert ips and ips == want, (ips[:3], want[:3])
' "$TMP/out" "$TMP/ips.txt" 2>"$TMP/err"; then
		pass "script --json: addresses are exact hex strings"
	else
		fail "script --json addresses: $(tail -c 300 "$TMP/err")"
	fi
	# Times of a realtime clock are past 2^53 ns: strings of the exact
	# digits (a number would come back rounded), as -F time --ns has them.
	if "$SONDE" record -q -k realtime -e cpu-clock -c 1000000 -o "$TMP/rt.data" -- \
		sh -c 'i=0; while [ $i -lt 50000 ]; do i=$((i + 1)); done' 2>"$TMP/err"; then
		"$SONDE" script --json -i "$TMP/rt.data" >"$TMP/rt.json" 2>&1
		"$SONDE" script -F time --ns -i "$TMP/rt.data" 2>/dev/null | tr -d ':. ' >"$TMP/rt.ns"
		if python3 -c '
import json, sys
want = open(sys.argv[2]).read().split()
got = [json.loads(l)["time"] for l in open(sys.argv[1])]
assert got and all(isinstance(t, str) and int(t) >= 1 << 53 for t in got), got[:3]
assert got == want, (got[:3], want[:3])
' "$TMP/rt.json" "$TMP/rt.ns" 2>"$TMP/err"; then
			pass "script --json: realtime times as exact decimal strings"
		else
			fail "script --json realtime times: $(tail -c 300 "$TMP/err")"
		fi
	else
		skip "script --json realtime times: cannot record here: $(head -c 200 "$TMP/err")"
	fi
	"$SONDE" report --json -i "$C/perf_fp.data" >"$TMP/rep.json"
	if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["events"][0]["samples"] > 0' "$TMP/rep.json" 2>"$TMP/err"; then
		pass "report --json parses, samples > 0"
	else
		fail "report --json: $(head -3 "$TMP/err")"
	fi
else
	skip "JSON checks: python3 missing"
fi

expect_ok "--sort pid,cpu,srcline" "$SONDE" report --no-children --sort pid,cpu,srcline -i "$C/perf_file.data"
contains "pid column" 'Pid:Command' "$TMP/out"
expect_fail "bad sort key" "unknown key 'bogus'" "$SONDE" report --sort comm,bogus -i "$C/perf_file.data"
expect_fail "bad -p regex" "-p: invalid regex '\\('" "$SONDE" report -p '(' -i "$C/perf_file.data"
expect_fail "bad --time" "--time: cannot parse" "$SONDE" report --time nonsense -i "$C/perf_file.data"
expect_fail "bad --cpu" "--cpu: cannot parse" "$SONDE" report --cpu 1-x -i "$C/perf_file.data"
expect_fail "negative --max-stack" "--max-stack: expected 0 or more" "$SONDE" report --max-stack -1 -i "$C/perf_file.data"
expect_fail "script negative --max-stack" "--max-stack: expected 0 or more" "$SONDE" script --max-stack -1 -i "$C/perf_file.data"
expect_ok "--comm filter" "$SONDE" report --no-children --comm nosuchcomm -i "$C/perf_file.data"
if grep -qE '^ +[0-9.]+%' "$TMP/out"; then fail "--comm filter kept rows"; else pass "--comm filter drops rows"; fi
expect_ok "--header-only" "$SONDE" report --header-only -i "$C/perf_file.data"
contains "header: hostname and cmdline" '^# cmdline : .*perf record' "$TMP/out"
expect_ok "--stats" "$SONDE" report --stats -i "$C/perf_file.data"
contains "stats: SAMPLE count" 'SAMPLE events: +6' "$TMP/out"

# Damage: cut the fp file in its data section.
size=$(stat -c %s "$C/perf_fp.data")
head -c $((size * 2 / 3)) "$C/perf_fp.data" >"$TMP/cut.data"
expect_fail "truncated file: error with byte offset" 'byte offset [0-9]+' "$SONDE" report -i "$TMP/cut.data"
if grep -q '^# Samples: ' "$TMP/out"; then pass "truncated file: records before the cut reported"
else fail "truncated file: nothing reported"; fi
printf 'PERFILE2\x68\0\0\0\0\0\0\0' >"$TMP/short.data"
expect_fail "header cut short" 'byte offset' "$SONDE" report -i "$TMP/short.data"
echo "hello" >"$TMP/text.data"
expect_fail "not perf.data" "not a valid perf.data file" "$SONDE" report -i "$TMP/text.data"
expect_fail "missing file" "nosuch.data: No such file" "$SONDE" script -i "$TMP/nosuch.data"

# --time: percent slices (from the SAMPLE_TIME feature) and absolute ranges.
expect_ok "--time 0%-50%" "$SONDE" report --no-children -g none --percentage relative --time 0%-50% -i "$C/perf_fp.data"
contains "--time 0%-50%: half the samples" "^# Samples: 9  of event" "$TMP/out"
expect_ok "--time absolute" "$SONDE" report --no-children -g none --percentage relative --time 3087.999036,3087.999130 -i "$C/perf_fp.data"
contains "--time start,end: 3 samples" "^# Samples: 3  of event" "$TMP/out"

# --tui: sonde has none; it says so rather than silently printing text.
"$SONDE" report --tui -i "$C/perf_file.data" >"$TMP/tui.out" 2>"$TMP/tui.err"
rc=$?
if [ $rc = 0 ] && grep -q "no text user interface" "$TMP/tui.err" &&
	grep -q "^# Samples" "$TMP/tui.out"; then
	pass "report --tui says there is no TUI and prints the text"
else
	fail "report --tui: exit $rc: $(head -c 300 "$TMP/tui.err")"
fi
"$SONDE" report -q --tui -i "$C/perf_file.data" >/dev/null 2>"$TMP/tui.err"
grep -q "text user interface" "$TMP/tui.err" && fail "report -q --tui still says it" ||
	pass "report -q --tui: no note"
