#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# perf 6.1's other sort keys (socket, srcfile, sizes, weights, cgroup,
# time, page sizes, addr, parent) and --mem-mode's memory keys, on a real
# recording of page faults that carries what this VM can record without a
# PMU (-d: addresses and data source; -W, --transaction: zero weights and
# flags; --phys-data, page sizes, --all-cgroups, --namespaces). perf is the
# oracle, byte for byte but for its closing tip. Not compared here: perf's
# data symbols (it names STT_OBJECT symbols, sonde functions only), the
# objects of data maps (sonde keeps executable maps), and srcfile after
# another key (perf finds a row's source file only when a comparison
# reaches it, so its width counts only those rows).
. "$(dirname "$0")/lib.sh"

W=$HELPERS/report_workload
need_helper "report keys" "$W"
command -v perf >/dev/null || { skip "report keys: perf is not installed"; exit 0; }
F=$TMP/keys.data
if ! perf_rec "$F" -e page-faults -c 1 -d -W --transaction --phys-data \
	--data-page-size --code-page-size --all-cgroups --namespaces -g "$W"; then
	skip "report keys: perf record cannot record these sample fields here: $(head -c 200 "$TMP/rec.err")"
	exit 0
fi

for k in socket symbol_size local_weight weight transaction cgroup cgroup_id time \
	code_page_size local_ins_lat ins_lat addr parent pid,time cpu,socket comm,cgroup,time \
	comm,p_stage_cyc tim; do
	report_same "--sort $k --no-children" "$F" --sort "$k" --no-children -g none
done
# srcfile: perf asks binutils, whose DWARF 5 line tables name the CU's
# own file where a row names the first file after it (ld.so's
# dl-get-cpu-features.c for dl-cacheinfo.h, dl-error-minimal.c for
# dl-error-skeleton.c: readelf and libdw agree with sonde). Rows of
# ld.so's sources move with the samples that land there: compared
# without them (the percentages and every other row stay as they are),
# and without the header's dots (the column's width follows the longest
# name).
REPORT_CUT='^#|  (dl-[a-z-]+|rtld|get-dynamic-info|tls_get_addr)\.[chS]$'
for k in srcfile srcf; do
	report_same "--sort $k --no-children (but ld.so's rows)" "$F" --sort "$k" --no-children -g none
done
REPORT_CUT=
# --dsos and --symbols keep a sample by its own object and symbol, also
# when they are not sort keys.
report_same "--sort sym --dsos report_workload --no-children" "$F" \
	--sort sym --dsos report_workload --no-children -g none
# Keys filtered to one value are named above the table, in sort-key
# order; their columns stay when hiding them would leave none.
report_same "--sort dso --dsos report_workload (the only column stays)" "$F" \
	--sort dso --dsos report_workload --no-children -g none
report_same "--sort dso,comm with both filtered to one value" "$F" \
	--sort dso,comm --dsos report_workload --comms report_workload --no-children -g none
# Children mode: perf counts a sample whose value is not 0 at every frame.
for k in socket cgroup cgroup_id time weight code_page_size comm,time; do
	report_same "--sort $k (children)" "$F" --sort "$k" -g none
done
report_same "--time-quantum 1ms" "$F" --sort time --time-quantum 1ms --no-children -g none
report_same "-p '^_dl_'" "$F" --sort comm -p '^_dl_' --no-children -g none
report_same "--mem-mode mem,snoop,tlb,locked,blocked" "$F" --mem-mode --sort mem,snoop,tlb,locked,blocked -g none
report_same "--mem-mode phys_daddr,data_page_size" "$F" --mem-mode --sort phys_daddr,data_page_size -g none
report_same "--mem-mode local_weight,mem,local_ins_lat" "$F" --mem-mode --sort local_weight,mem,local_ins_lat -g none

expect_fail "a memory key without --mem-mode" "needs --mem-mode" \
	"$SONDE" report -i "$F" --stdio --sort tlb
# perf 6.1 refuses a --sort naming "ipc" (a case-sensitive strstr in
# builtin-report.c: exit 0, its -s usage, no table), so sonde refuses it
# too; perf's IPC columns come only with a sort naming "symbol" (above).
expect_fail "--sort naming ipc" "ipc" "$SONDE" report -i "$F" --stdio --sort ipc_null
expect_fail "--sort sym,ipc_lbr" "ipc" "$SONDE" report -i "$F" --stdio --sort sym,ipc_lbr
if [ -z "$(perf report -f -i "$F" --stdio --sort sym,ipc_null 2>/dev/null)" ]; then
	pass "perf 6.1 prints no table for --sort sym,ipc_null either"
else
	fail "perf printed a table for --sort sym,ipc_null: sonde's refusal no longer follows it"
fi
# Its key names are matched in any case, so IPC_NULL gets past that test:
# an ipc_null key before the symbol's orders rows of equal weight as
# perf's sort__sym_cmp does, by object name first when no dso key is
# there, in both modes (a dso key only without children: perf counts
# the data maps' frames there, see above). perf names one of ld.so's PLT
# entries "@plt".
#
# perf's sort__sym_cmp is not a total order: two frames without a symbol
# compare by address, any other pair by object first. Where a recording
# mixes both (unresolved ld.so frames in children mode, in about one run
# of twenty), perf's rbtree can miss the row a frame equals and print one
# key twice (10.00% and 8.33% of "0000000000000000"), deterministically
# for a file but depending on its samples' order. sonde prints each key
# once. When perf printed a key more often, the rows of each key are summed
# and the two tables compared as sets (each sum within perf's rounding);
# otherwise byte for byte.
ipc_same() {
	local name=$1; shift
	report_outputs "$name" "$F" "$@" || return
	if cmp -s "$TMP/perf.out" "$TMP/sonde.out"; then
		pass "$name: as perf prints it"; return
	fi
	local why
	if why=$(python3 - "$TMP/perf.out" "$TMP/sonde.out" <<'PY'
import re, sys
# key text -> [row count, summed percentage columns...]
def rows(path):
    keys = {}
    for line in open(path):
        m = re.match(r'^((?:\s+[0-9.]+%)+)(.*)$', line.rstrip('\n'))
        if not m:
            continue
        pcts = [float(x) for x in re.findall(r'([0-9.]+)%', m.group(1))]
        old = keys.get(m.group(2), [0] + [0.0] * len(pcts))
        keys[m.group(2)] = [old[0] + 1] + [x + y for x, y in zip(old[1:], pcts)]
    return keys
perf, sonde = rows(sys.argv[1]), rows(sys.argv[2])
if perf.keys() != sonde.keys():
    sys.exit("keys differ: %s" % sorted(set(perf) ^ set(sonde))[:3])
if not any(perf[k][0] > sonde[k][0] for k in perf):
    sys.exit("perf split no row")
for k, p in perf.items():
    s = sonde[k]
    if p[0] < s[0]:
        sys.exit("sonde printed %r more often" % k)
    if any(abs(x - y) > 0.005 * (p[0] + s[0]) + 1e-9 for x, y in zip(p[1:], s[1:])):
        sys.exit("%r: perf %s, sonde %s" % (k, p[1:], s[1:]))
PY
	); then
		pass "$name: as perf prints it, perf's split rows summed"
	else
		fail "$name: differs from perf ($why): $(diff "$TMP/perf.out" "$TMP/sonde.out" | head -6 | tr '\n' '|')"
	fi
}
REPORT_CUT='@plt( |$)'
for k in Ipc_null,sym IPC_NULL,sym,comm IPC_NULL IPC_NULL,dso sym,IPC_NULL; do
	ipc_same "--sort $k --no-children" --sort "$k" --no-children -g none
done
for k in Ipc_null,sym IPC_NULL,sym,comm IPC_NULL sym,IPC_NULL; do
	ipc_same "--sort $k (children)" --sort "$k" -g none
done
REPORT_CUT=
expect_fail "--time-quantum 0" "time-quantum" "$SONDE" report -i "$F" --stdio --sort time --time-quantum 0
perf record -q -o "$TMP/plain.data" -e page-faults -c 1 "$W" >/dev/null 2>&1 &&
	expect_fail "--mem-mode without DATA_SRC" "record with -d" \
		"$SONDE" report -i "$TMP/plain.data" --stdio --mem-mode
