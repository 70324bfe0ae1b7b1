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

# -n: rows that tie on the weight and every key (samples without a
# symbol compare equal by it) go by their Samples column, which perf
# appends to its sort whether or not --sort names "overhead". Four ips
# outside any map, each 6 in period from 3, 2, 6 and 1 samples.
G=$HELPERS/stackgen
need_helper "report ties" "$G"
N=$TMP/nties.data
"$G" "$N" '3*2:1000' '2*3:2000' '6*1:3000' '1*6:4000' || fail "stackgen failed"
unset REPORT_CUT
for a in "-n" "-n --sort sym" "-n --sort dso,sym" "-n --sort sym,overhead" \
	"-n --show-total-period --sort sym" "--show-total-period --sort sym" \
	"-n --sort overhead_sys,sym"; do
	# shellcheck disable=SC2086
	report_same "$a --no-children" "$N" $a --no-children -g none
	# shellcheck disable=SC2086
	report_same "$a --children" "$N" $a --children
done

# Rows the output sort calls equal print in the order of perf's entries
# tree, whose comparison is no total order: two rows without a symbol
# compare by address alone, any other pair by object first. Equal
# weights, unresolved addresses in two objects perf has no symbols for
# (aaa.bin and zzz.bin, then report_workload's functions in between by
# name), and one ip outside any map, in an order where that tree's walk
# is neither by address nor by object. (Not covered: perf also merges two
# such rows with one address in two objects when its walk meets them,
# and splits one when it misses it; sonde keeps one row per object and
# address.)
head -c 65536 /dev/zero >"$TMP/aaa.bin"
head -c 65536 /dev/zero >"$TMP/zzz.bin"
U=$TMP/unresolved.data
"$G" "$U" "$TMP/aaa.bin@10000000" "$TMP/zzz.bin@20000000" "$W@30000000" \
	'1*1:20000500' '1*1:30001410' '1*1:10000900' '1*1:20000100' '1*1:30001100' \
	'1*1:10000200' '1*1:30001370' '1*1:20000a00' '1*1:10000060' '1*1:300013f4' \
	'1*1:20000300' '1*1:10000700' '1*1:5000' '1*1:20000050' || fail "stackgen failed"
for a in "--sort sym --no-children" "--sort sym --children" "--sort sym,comm --no-children" \
	"--sort comm,sym --children" "--sort sym,dso --no-children" "--sort pid,sym --no-children" \
	"--sort sym,pid --children"; do
	# shellcheck disable=SC2086
	report_same "unresolved rows, $a" "$U" $a -g none
done
