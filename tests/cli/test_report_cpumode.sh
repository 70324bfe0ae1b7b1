#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# perf 6.1's output fields overhead_sys, overhead_us, overhead_guest_sys
# and overhead_guest_us among --sort's keys: the self weight of the
# samples taken in kernel, user, guest kernel and guest user mode (the
# sample header's cpumode), a "sys", "usr", "guest sys" or "guest usr"
# column where the field stands (a name may be cut short), and a sort
# key there; the list then holds "overhead", so the self weight sorts
# where named or last. perf is the oracle, byte for byte but for its
# closing tip, on cpu-clock recordings of dd (perf's and sonde's), whose
# samples fall both in the kernel (read, write) and in user space. No
# symbol key: the kernel's rows would differ by this kernel's symbols,
# not by the columns.
. "$(dirname "$0")/lib.sh"

need_perf "report cpumode"
command -v dd >/dev/null || { skip "report cpumode: no dd to record"; exit 0; }
WORK=(dd if=/dev/zero of=/dev/null bs=4k count=150000)

# A table with sys and usr shares above 0: both modes were sampled.
both_modes() { # FILE
	awk '/^ +[0-9.]+%/ { sys += $(NF - 1) != "0.00%"; usr += $NF != "0.00%" }
		END { exit !(sys && usr) }' "$1"
}

compare() { # FILE WHO
	local f=$1 who=$2 k m
	perf report -f -i "$f" --stdio -g none --no-children --sort dso,overhead_sys,overhead_us \
		2>/dev/null >"$TMP/modes.out"
	if ! both_modes "$TMP/modes.out"; then
		fail "$who: the recording has no kernel and user samples both: $(grep '%' "$TMP/modes.out" | head -5 | tr '\n' '|')"
		return
	fi
	for k in dso,overhead_sys,overhead_us overhead_sys,comm,dso comm,overhead_us,dso \
		overhead_us,overhead_sys,dso dso,overhead_guest_sys,overhead_guest_us,overhead_sys \
		sample,overhead_sys,dso comm,dso,period,overhead_sys overhead_sys,overhead_us \
		pid,overhead_sys,overhead,dso overhead_children,overhead_sys,dso comm,overhead_s; do
		for m in --no-children --children; do
			report_same "$who --sort $k $m" "$f" -g none $m --sort "$k"
		done
	done
}

P=$TMP/perf.data
if perf_rec "$P" -e cpu-clock -c 100000 -g -- "${WORK[@]}"; then
	compare "$P" "perf record"
else
	skip "report cpumode: perf record -e cpu-clock failed: $(head -c 200 "$TMP/rec.err")"
fi
S=$TMP/sonde.data
if "$SONDE" record -q -o "$S" -e cpu-clock -c 100000 -g -- "${WORK[@]}" >/dev/null \
	2>"$TMP/rec.err"; then
	compare "$S" "sonde record"
else
	fail "report cpumode: sonde record -e cpu-clock failed: $(head -c 200 "$TMP/rec.err")"
fi
