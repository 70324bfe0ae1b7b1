#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# The DWARF unwinder's CFI fast path changes nothing: on --call-graph dwarf
# recordings, `sonde report` and `sonde script` print the same bytes with
# it as with libdwfl alone (SONDE_UNWIND=slow), and it takes most samples.
source "$(dirname "$0")/lib.sh"
W="$HELPERS/report_workload"

if ! have_perf; then
	skip "fast unwind: perf is not installed, nothing records DWARF stacks"
	exit 0
fi
need_helper "fast unwind" "$W"

# same NAME FILE: both unwinders, byte for byte, and the fast path's share.
same() {
	local name=$1 f=$2 cmd fast slow
	# (Children mode is left out: its order of rows with equal shares
	# changes from run to run, with either unwinder.)
	for cmd in "report --no-children" "report --no-children -g caller" "script"; do
		# shellcheck disable=SC2086
		SONDE_LOG_LEVEL=debug "$SONDE" $cmd -i "$f" >"$TMP/fast.out" 2>"$TMP/fast.err"
		# shellcheck disable=SC2086
		SONDE_UNWIND=slow "$SONDE" $cmd -i "$f" >"$TMP/slow.out" 2>/dev/null
		if [ -s "$TMP/slow.out" ] && cmp -s "$TMP/fast.out" "$TMP/slow.out"; then
			pass "$name: $cmd identical with libdwfl alone ($(wc -l <"$TMP/fast.out") lines)"
		else
			fail "$name: $cmd differs: $(diff "$TMP/slow.out" "$TMP/fast.out" | head -4)"
		fi
	done
	read -r fast slow < <(awk '/unwind: pid .* samples by CFI rules/ {
		f += $5; s += $(NF - 2) } END { print f + 0, s + 0 }' "$TMP/fast.err")
	if [ "$fast" -gt 0 ] && [ $((fast * 10)) -ge $(((fast + slow) * 8)) ]; then
		pass "$name: $fast samples by CFI rules, $slow through libdwfl"
	else
		fail "$name: fast path took $fast samples, libdwfl $slow"
	fi
}

if perf_rec "$TMP/w.data" --call-graph dwarf,8192 -e cpu-clock -c 500000 -- "$W" threads 150; then
	same "workload threads" "$TMP/w.data"
else
	skip "fast unwind: perf record failed: $(head -1 "$TMP/rec.err")"
fi
# libc's own CFI: sort and gzip spend their time there.
if perf_rec "$TMP/c.data" --call-graph dwarf,8192 -e cpu-clock -c 500000 -- \
	sh -c 'seq 1 200000 | sort -R | gzip -6 >/dev/null'; then
	same "sort|gzip" "$TMP/c.data"
else
	skip "fast unwind: perf record failed: $(head -1 "$TMP/rec.err")"
fi
