#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# perf's dynamic sort keys: tracepoint fields as --sort keys (a field
# name, EVENT.field, EVENT.*, trace_fields, /raw). perf is the oracle,
# byte for byte but for its closing tip: files perf recorded, with and
# without call chains (children mode), a file sonde recorded, and the
# refusals (a name that is no field; a pipe, which perf 6.1 refuses too
# as it declares its events only after the sort is set up).
. "$(dirname "$0")/lib.sh"

need_perf "report tracepoint fields"
have_tracefs || { skip "report tracepoint fields: no tracefs (mount -t tracefs nodev /sys/kernel/tracing as root)"; exit 0; }
# A workload that is switched out a few times and makes system calls.
WL=(sh -c 'for i in 1 2 3 4 5 6; do sleep 0.01; done')
F=$TMP/fields.data
if ! perf_rec "$F" -e sched:sched_switch -e sched:sched_wakeup -e task-clock -- "${WL[@]}"; then
	skip "report tracepoint fields: perf cannot record sched tracepoints here: $(head -c 200 "$TMP/rec.err")"
	exit 0
fi

# Rows of field tables have no '%' of their own to tell them by.
REPORT_ROWS='%'

report_same "--sort prev_comm (a field, searched in every event)" "$F" --sort prev_comm
grep -q ' prev_comm$' "$TMP/sonde.out" &&
	pass "fields: the column's title is the field's name, right-aligned" ||
	fail "fields: no prev_comm title: $(head -c 300 "$TMP/sonde.out")"
report_same "--sort sched:sched_switch.prev_pid (event.field)" "$F" --sort sched:sched_switch.prev_pid
report_same "--sort sched_switch.next_comm (part of an event's name)" "$F" --sort sched_switch.next_comm
report_same "--sort %2.pid (the second event's field)" "$F" --sort %2.pid
report_same "--sort sched:sched_switch.* (an event's fields)" "$F" --sort 'sched:sched_switch.*'
report_same "--sort trace_fields" "$F" --sort trace_fields
report_same "--sort prev_state/raw (the value, not the print fmt's)" "$F" --sort prev_state/raw
report_same "--sort trace_fields/raw" "$F" --sort trace_fields/raw
report_same "--sort prev_comm,comm" "$F" --sort prev_comm,comm
report_same "--sort comm,next_comm,cpu" "$F" --sort comm,next_comm,cpu
# perf pads a symbol that a field column follows, even in tables where the
# field shows no column. Not compared: rows of addresses without a symbol
# (task-clock samples in the stripped sh and sleep, now and then), which
# perf's entries tree can split or merge as its walk meets them
# (sort__sym_cmp is no total order; test_report_ties.sh checks their
# order on a file made for it), and PLT rows, which perf 6.1 names by
# .rela.plt position (realloc@plt for one of libc's IRELATIVE stubs)
# where sonde follows the GOT slot as later perf does.
REPORT_CUT='\[\.\] (0x)?[0-9a-f]{16} |@plt( |$)'
report_same "--sort sym,prev_comm" "$F" --sort sym,prev_comm
REPORT_CUT=
report_same "--sort prev_comm -n" "$F" --sort prev_comm -n
# --json (sonde's own): each field column by name, in its event's entries.
if "$SONDE" report -i "$F" --json --sort prev_comm,comm >"$TMP/json" 2>"$TMP/err" &&
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sw = [e for e in d["events"] if e["event"] == "sched:sched_switch"][0]
other = [e for e in d["events"] if e["event"] != "sched:sched_switch"]
assert sw["entries"] and all(x["prev_comm"] for x in sw["entries"]), sw
assert all("prev_comm" not in x for e in other for x in e["entries"]), other
' "$TMP/json"; then
	pass "fields: --json names each field's value in its event's entries"
else
	fail "fields: --json: $(head -c 300 "$TMP/err" "$TMP/json")"
fi

# Call chains: children mode, and without. -g none: the call graphs of
# these files are not what is tested here.
G=$TMP/fields_g.data
if perf_rec "$G" -g -e sched:sched_switch -e raw_syscalls:sys_enter -- "${WL[@]}"; then
	report_same "-g file, --sort prev_comm,comm (children)" "$G" --sort prev_comm,comm -g none
	report_same "-g file, --sort prev_comm,comm --no-children" "$G" --sort prev_comm,comm --no-children
	report_same "-g file, --sort id,prev_state (children)" "$G" --sort id,prev_state -g none
	report_same "-g file, --sort comm,id (children)" "$G" --sort comm,id -g none
	report_same "-g file, --sort trace_fields --no-children (an array cut to its width)" \
		"$G" --sort trace_fields --no-children -g none
else
	skip "fields: perf cannot record raw_syscalls with -g here: $(head -c 200 "$TMP/rec.err")"
fi

# A file sonde recorded: perf and sonde agree on it too.
if "$SONDE" record -q -o "$TMP/sonde.data" -e sched:sched_switch -- "${WL[@]}" >/dev/null 2>"$TMP/err"; then
	report_same "sonde's recording, --sort prev_comm,next_comm" "$TMP/sonde.data" --sort prev_comm,next_comm
	report_same "sonde's recording, --sort trace_fields" "$TMP/sonde.data" --sort trace_fields
else
	fail "fields: sonde record -e sched:sched_switch failed: $(head -c 300 "$TMP/err")"
fi

# A name that is no field of the file's tracepoint events is refused, as
# perf refuses it ("Unknown --sort key", though perf exits 0), before
# anything is printed.
perf_refuses() {
	grep -qF "Unknown --sort key: \`$1'" "$TMP/perf.err"
}
for k in no_such_field sched:sched_switch.no_such_field no_such_event.prev_comm task-clock.x \
	prev_comm/bad; do
	perf report -f -i "$F" --stdio --sort "$k" >/dev/null 2>"$TMP/perf.err"
	if ! perf_refuses "$k"; then
		fail "fields: perf takes --sort $k: the refusal has no oracle"
		continue
	fi
	if "$SONDE" report -i "$F" --stdio --sort "$k" >"$TMP/out" 2>"$TMP/err"; then
		fail "fields: --sort $k accepted: $(head -c 200 "$TMP/out")"
	elif ! grep -q "unknown key '$k'" "$TMP/err" || [ -s "$TMP/out" ]; then
		fail "fields: --sort $k: $(head -c 300 "$TMP/err")"
	else
		pass "fields: --sort $k refused as an unknown key, as perf does"
	fi
done

# A pipe declares its events after the sort is set up: perf 6.1 refuses
# a field key there, and so does sonde.
if perf record -q -o - -e sched:sched_switch -- "${WL[@]}" >"$TMP/pipe.data" 2>/dev/null; then
	perf report -f -i - --stdio --sort prev_comm <"$TMP/pipe.data" >/dev/null 2>"$TMP/perf.err"
	if ! perf_refuses prev_comm; then
		fail "fields: perf takes a field key on a pipe: the refusal has no oracle"
	elif "$SONDE" report -i - --stdio --sort prev_comm <"$TMP/pipe.data" >"$TMP/out" 2>"$TMP/err"; then
		fail "fields: a pipe, --sort prev_comm accepted: $(head -c 200 "$TMP/out")"
	elif grep -q "unknown key 'prev_comm'" "$TMP/err"; then
		pass "fields: a pipe refuses a field key, as perf does"
	else
		fail "fields: a pipe, --sort prev_comm: $(head -c 300 "$TMP/err")"
	fi
	# the other keys still read the pipe
	report_same_pipe_ok=1
	perf report -f -i - --stdio --sort comm <"$TMP/pipe.data" 2>/dev/null | perf_untip >"$TMP/perf.out"
	"$SONDE" report -i - --stdio --sort comm <"$TMP/pipe.data" >"$TMP/sonde.out" 2>"$TMP/err" ||
		report_same_pipe_ok=0
	[ "$report_same_pipe_ok" = 1 ] && cmp -s "$TMP/perf.out" "$TMP/sonde.out" &&
		pass "fields: the pipe with --sort comm, as perf prints it" ||
		fail "fields: the pipe with --sort comm differs: $(diff "$TMP/perf.out" "$TMP/sonde.out" | head -6 | tr '\n' '|')"
else
	skip "fields: perf cannot record to a pipe here"
fi
