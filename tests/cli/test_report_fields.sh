#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# perf 6.1's output fields "sample" and "period" among --sort's keys (and
# -n, --show-total-period): a 12-wide Samples or Period column where the
# field stands, the entry's own samples and period (its self, with
# --children too). perf is the oracle, byte for byte but for its closing
# tip, on a recording of page faults (user-space rows: no kernel symbols
# to differ by kernel). No symbol key: perf names one of libc's PLT
# entries "@plt", sonde "__tunable_get_val@plt", a difference of its own.
# overhead_children, output fields alone (one row); last, --children on
# a file without callchains, which perf ignores.
. "$(dirname "$0")/lib.sh"

W=$HELPERS/report_workload
need_helper "report fields" "$W"
need_perf "report fields"
F=$TMP/fields.data
if ! perf_rec "$F" -e page-faults -c 1 -g "$W"; then
	skip "report fields: perf record cannot record page faults here: $(head -c 200 "$TMP/rec.err")"
	exit 0
fi

for k in comm,sample sample,comm dso,period period,dso comm,period,sample,dso \
	comm,dso,sample,period comm,sample,sample; do
	report_same "--sort $k --no-children" "$F" --sort "$k" --no-children -g none
	report_same "--sort $k (children)" "$F" --sort "$k" --children -g none
done

# -n and --show-total-period: the same columns first, Samples before
# Period, once even when --sort names them too.
for a in "-n --sort comm,dso" "--show-total-period --sort dso" \
	"-n --show-total-period --sort comm,dso" \
	"--show-total-period -n --sort comm,sample,dso" "-n --sort period,comm"; do
	# shellcheck disable=SC2086
	report_same "$a --no-children" "$F" $a --no-children -g none
	# shellcheck disable=SC2086
	report_same "$a (children)" "$F" $a --children -g none
done

# "overhead" and "overhead_children" in --sort: perf sorts by weight first
# only when the list's text holds neither (a substring test), else by the
# list in order, each weight where it is named.
for k in comm,overhead dso,overhead,comm overhead,dso; do
	report_same "--sort $k --no-children" "$F" --sort "$k" --no-children -g none
	report_same "--sort $k (children)" "$F" --sort "$k" --children -g none
done
# overhead_children: with --no-children perf shows an N/A Children column
# where it stands. Two weights in a row compare in the list's order.
for k in comm,dso,overhead_children overhead_children,comm dso,overhead_children,comm,overhead \
	overhead_children,overhead,dso overhead,overhead_children,dso; do
	report_same "--sort $k --no-children" "$F" --sort "$k" --no-children -g none
	report_same "--sort $k (children)" "$F" --sort "$k" --children -g none
done

# Output fields only: perf's one row of every sample. Names cut short
# as perf takes them ("overhead_c" has no "overhead_children" in it: the
# children weight stays first).
for k in overhead sample,period overhead_children period,overhead over samp,peri \
	dso,overhead_c; do
	report_same "--sort $k --no-children" "$F" --sort "$k" --no-children -g none
	report_same "--sort $k (children)" "$F" --sort "$k" --children -g none
done
report_same "-n --sort overhead --no-children" "$F" -n --sort overhead --no-children -g none

# Without callchains perf drops --children silently: one Overhead column.
F=$TMP/flat.data
if perf_rec "$F" -e page-faults -c 1 "$W"; then
	report_same "--children without callchains" "$F" --children --sort comm,dso
	report_same "--children -n without callchains" "$F" --children -n --sort dso
	report_same "--children --sort overhead_children without callchains" "$F" --children \
		--sort overhead_children,comm
else
	skip "report fields: perf record without -g failed: $(head -c 200 "$TMP/rec.err")"
fi
