#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# --max-stack as perf 6.1 applies it: it keeps that many callchain
# entries (the sample's own ip is the first), the innermost ones in
# callee order and the outermost ones in caller order (children mode's
# default, -G), where the sample's own function then drops out of the
# graphs but keeps its self row. perf is the oracle, byte for byte: a
# made file with a six-deep chain (stackgen), and a recording of page
# faults whose chains run through the kernel into the program.
. "$(dirname "$0")/lib.sh"

need_perf "report --max-stack"
G=$HELPERS/stackgen
W=$HELPERS/report_workload
need_helper "report --max-stack" "$G"
need_helper "report --max-stack" "$W"

# report_workload's leaf_spin <- inner_a <- outer_a <- work <- thread_main
# <- main, mapped at 0x30000000; a shorter chain and a sample alone too.
M=$TMP/deep.data
"$G" "$M" "$W@30000000" '3*1:30001370,300013b4,300013c4,30001404,300014e4,300010f8' \
	'2*1:300013b4,300013c4,30001404' '1*1:30001404' || fail "stackgen failed"
for n in 1 2 3 6; do
	for a in "" "--no-children" "-G" "-g callee" "-g none" "--no-children -G" \
		"--no-children -g folded,0"; do
		# shellcheck disable=SC2086
		report_same "made file, --max-stack $n $a" "$M" --max-stack "$n" $a
	done
done

# script prints the entries report keeps in callee order.
script_same "made file, script --max-stack 2" "$M" -F ip,sym --max-stack 2

F=$TMP/faults.data
if ! perf_rec "$F" -e page-faults -c 1 -g "$W" single 30; then
	skip "report --max-stack: perf record cannot record page faults here: $(head -c 200 "$TMP/rec.err")"
	exit 0
fi
# By object: perf names one of ld.so's PLT entries "@plt" where sonde
# says "__tunable_get_val@plt", which would move rows sorted by symbol;
# lines naming a PLT entry go from both.
REPORT_CUT='@plt'
for n in 2 4; do
	for a in "" "--no-children" "-G" "-g callee" "-g none"; do
		# shellcheck disable=SC2086
		report_same "kernel and user chains, --max-stack $n $a" "$F" --sort dso \
			--max-stack "$n" $a
	done
done
REPORT_CUT=
script_same "kernel and user chains, script --max-stack 3" "$F" -F ip,dso --max-stack 3
