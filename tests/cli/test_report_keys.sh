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
[ -x "$W" ] || { skip "report keys: $W not built (make helpers)"; exit 0; }
command -v perf >/dev/null || { skip "report keys: perf is not installed"; exit 0; }
F=$TMP/keys.data
if ! perf record -q -o "$F" -e page-faults -c 1 -d -W --transaction --phys-data \
	--data-page-size --code-page-size --all-cgroups --namespaces -g "$W" \
	>/dev/null 2>"$TMP/rec.err"; then
	skip "report keys: perf record cannot record these sample fields here: $(head -c 200 "$TMP/rec.err")"
	exit 0
fi

# perf's report without the tip it closes with.
perf_report() {
	perf report -i "$F" --stdio "$@" 2>/dev/null | perf_untip
}

same() { # NAME ARGS...
	local name=$1; shift
	perf_report "$@" >"$TMP/perf.out"
	if ! "$SONDE" report -i "$F" --stdio "$@" >"$TMP/sonde.out" 2>"$TMP/err"; then
		fail "$name: sonde failed: $(head -c 300 "$TMP/err")"; return
	fi
	if ! grep -q '%' "$TMP/perf.out"; then
		fail "$name: perf printed no rows"; return
	fi
	if [[ $name == *"but ld.so's rows"* ]]; then
		# the rows of ld.so's sources and the header's dots (the column's
		# width follows the longest name) go from both
		for f in perf sonde; do
			grep -v -E '^#|  (dl-[a-z-]+|rtld|get-dynamic-info|tls_get_addr)\.[chS]$' \
				"$TMP/$f.out" >"$TMP/$f.cut"
			mv "$TMP/$f.cut" "$TMP/$f.out"
		done
	fi
	if cmp -s "$TMP/perf.out" "$TMP/sonde.out"; then
		pass "$name: as perf prints it"
	else
		fail "$name: differs from perf: $(diff "$TMP/perf.out" "$TMP/sonde.out" | head -6 | tr '\n' '|')"
	fi
}

for k in socket symbol_size local_weight weight transaction cgroup cgroup_id time \
	code_page_size local_ins_lat ins_lat addr parent pid,time cpu,socket comm,cgroup,time \
	comm,p_stage_cyc tim; do
	same "--sort $k --no-children" --sort "$k" --no-children -g none
done
# srcfile: perf asks binutils, whose DWARF 5 line tables name the CU's
# own file where a row names the first file after it (ld.so's
# dl-get-cpu-features.c for dl-cacheinfo.h, dl-error-minimal.c for
# dl-error-skeleton.c: readelf and libdw agree with sonde). Rows of
# ld.so's sources move with the samples that land there: compared
# without them (the percentages and every other row stay as they are).
for k in srcfile srcf; do
	same "--sort $k --no-children (but ld.so's rows)" --sort "$k" --no-children -g none
done
# --dsos and --symbols keep a sample by its own object and symbol, also
# when they are not sort keys.
same "--sort sym --dsos report_workload --no-children" \
	--sort sym --dsos report_workload --no-children -g none
# Keys filtered to one value are named above the table, in sort-key
# order; their columns stay when hiding them would leave none.
same "--sort dso --dsos report_workload (the only column stays)" \
	--sort dso --dsos report_workload --no-children -g none
same "--sort dso,comm with both filtered to one value" \
	--sort dso,comm --dsos report_workload --comms report_workload --no-children -g none
# Children mode: perf counts a sample whose value is not 0 at every frame.
for k in socket cgroup cgroup_id time weight code_page_size comm,time; do
	same "--sort $k (children)" --sort "$k" -g none
done
same "--time-quantum 1ms" --sort time --time-quantum 1ms --no-children -g none
same "-p '^_dl_'" --sort comm -p '^_dl_' --no-children -g none
same "--mem-mode mem,snoop,tlb,locked,blocked" --mem-mode --sort mem,snoop,tlb,locked,blocked -g none
same "--mem-mode phys_daddr,data_page_size" --mem-mode --sort phys_daddr,data_page_size -g none
same "--mem-mode local_weight,mem,local_ins_lat" --mem-mode --sort local_weight,mem,local_ins_lat -g none

expect_fail "a memory key without --mem-mode" "needs --mem-mode" \
	"$SONDE" report -i "$F" --stdio --sort tlb
expect_fail "--sort naming ipc" "ipc" "$SONDE" report -i "$F" --stdio --sort ipc_null
expect_fail "--time-quantum 0" "time-quantum" "$SONDE" report -i "$F" --stdio --sort time --time-quantum 0
perf record -q -o "$TMP/plain.data" -e page-faults -c 1 "$W" >/dev/null 2>&1 &&
	expect_fail "--mem-mode without DATA_SRC" "record with -d" \
		"$SONDE" report -i "$TMP/plain.data" --stdio --mem-mode
