#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Call-graph siblings of equal weight, in perf 6.1's order, in every graph
# mode: perf keeps siblings by object (the DSOs it made from the file's
# build-id table come last-listed first), then by address, highest first,
# and its sort by weight keeps that order among equals. A recording of
# page faults, one sample each (-c 1): a program's start faults a few
# times in each of the kernel, ld.so and libc, so weights tie across
# objects. perf is the oracle, byte for byte; lines naming a PLT entry
# go from both (perf's "@plt" is sonde's "__tunable_get_val@plt").
. "$(dirname "$0")/lib.sh"

W=$HELPERS/report_workload
need_helper "report ties" "$W"
need_perf "report ties"
F=$TMP/ties.data
if ! perf_rec "$F" -e page-faults -c 1 -g "$W" single 30; then
	skip "report ties: perf record cannot record page faults here: $(head -c 200 "$TMP/rec.err")"
	exit 0
fi

export REPORT_CUT='@plt'
for g in graph flat fractal folded graph,0.5,caller flat,0,caller fractal,0,caller \
	folded,0,caller; do
	for k in comm dso; do
		report_same "-g $g --sort $k --no-children" "$F" -g "$g" --sort "$k" --no-children
		report_same "-g $g --sort $k --children" "$F" -g "$g" --sort "$k" --children
	done
done
