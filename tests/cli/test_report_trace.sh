#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# perf's trace sort key: a tracepoint sample's text from its event's print
# fmt (the recording's TRACING_DATA), N/A for other events. perf is the
# oracle, byte for byte but for its closing tip: files perf recorded, a
# pipe, and a file sonde recorded.
. "$(dirname "$0")/lib.sh"

have_perf || { skip "report trace: perf is not installed"; exit 0; }
have_tracefs || { skip "report trace: no tracefs (mount -t tracefs nodev /sys/kernel/tracing as root)"; exit 0; }
# A workload that is switched out a few times: sched_switch samples.
WL=(sh -c 'for i in 1 2 3 4 5 6; do sleep 0.01; done')
F=$TMP/trace.data
if ! perf_rec "$F" -e sched:sched_switch -e sched:sched_wakeup -e task-clock -- "${WL[@]}"; then
	skip "report trace: perf cannot record sched tracepoints here: $(head -c 200 "$TMP/rec.err")"
	exit 0
fi

# A row is a trace text, or N/A for the task-clock samples.
REPORT_ROWS='==>|N/A'

# Not after another key: perf sizes the column from the texts its
# comparisons happened to make (as for srcfile), a width of its own.
for s in trace trace,comm; do
	report_same "--sort $s" "$F" --sort "$s"
	report_same "--sort $s --no-children" "$F" --sort "$s" --no-children
done
grep -q 'prev_comm=.* ==> next_comm=' "$TMP/sonde.out" &&
	pass "trace: sched_switch rows show its print fmt's text" ||
	fail "trace: no sched_switch text: $(head -c 300 "$TMP/sonde.out")"

# The same through a pipe: TRACING_DATA arrives as a record.
if perf record -q -o - -e sched:sched_switch -- "${WL[@]}" >"$TMP/pipe.data" 2>/dev/null; then
	perf report -f -i - --stdio --sort trace <"$TMP/pipe.data" 2>/dev/null | perf_untip >"$TMP/perf.out"
	"$SONDE" report -i - --stdio --sort trace <"$TMP/pipe.data" >"$TMP/sonde.out" 2>"$TMP/err"
	cmp -s "$TMP/perf.out" "$TMP/sonde.out" && pass "trace: a pipe, as perf prints it" ||
		fail "trace: a pipe differs from perf: $(diff "$TMP/perf.out" "$TMP/sonde.out" | head -6 | tr '\n' '|')"
else
	skip "trace: perf cannot record to a pipe here"
fi

# A file sonde recorded: perf and sonde agree on it too.
if "$SONDE" record -q -o "$TMP/sonde.data" -e sched:sched_switch -- "${WL[@]}" >/dev/null 2>"$TMP/err"; then
	report_same "sonde's recording, --sort trace" "$TMP/sonde.data" --sort trace
else
	fail "trace: sonde record -e sched:sched_switch failed: $(head -c 300 "$TMP/err")"
fi
