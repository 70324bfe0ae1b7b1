#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# A recording of 200 short-lived processes (page-faults of a shell that
# runs /bin/true 200 times): each forks, execs, faults and exits, so the
# file holds a FORK, COMM, MMAP2s, samples and an EXIT for each. perf is
# the oracle, byte for byte but for its closing tip, for the comm and dso
# keys: every sample, those of a process about to exit included, names
# its own process's command and objects. Recorded by perf and by sonde.
# (Not the pid key: perf names a pid by its thread's last command, sonde
# by the sample's; that differs with or without EXITs.)
. "$(dirname "$0")/lib.sh"

need_perf "report exits"
[ -x /bin/true ] || { skip "report exits: no /bin/true"; exit 0; }
WORK=(sh -c 'for i in $(seq 200); do /bin/true; done')

compare() { # FILE WHO
	local f=$1 who=$2 k n
	n=$(perf report -f -i "$f" -D 2>/dev/null | grep -c 'PERF_RECORD_EXIT')
	if [ "$n" -lt 200 ]; then
		fail "$who: $n EXIT records, not one for each of the 200 processes"
		return
	fi
	for k in comm,dso comm dso,comm dso; do
		report_same "$who --sort $k" "$f" --sort "$k"
	done
}

P=$TMP/perf.data
if perf_rec "$P" -e page-faults -c 1 -- "${WORK[@]}"; then
	compare "$P" "perf record"
else
	skip "report exits: perf record -e page-faults failed: $(head -c 200 "$TMP/rec.err")"
fi
S=$TMP/sonde.data
if "$SONDE" record -q -o "$S" -e page-faults -c 1 -- "${WORK[@]}" >/dev/null \
	2>"$TMP/rec.err"; then
	compare "$S" "sonde record"
else
	fail "report exits: sonde record -e page-faults failed: $(head -c 200 "$TMP/rec.err")"
fi
