#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# `sonde list` vs `perf list` (every category, tracepoints included), and
# the cost of parsing one event list: `sonde list --attr SPEC` vs
# `perf stat -vv -e SPEC true` is not comparable (perf also opens and runs),
# so the parse-only number is sonde's alone. Repeated; medians and ratio.
set -u
SONDE=${SONDE:-$PWD/build/sonde}
REPS=${LIST_BENCH_REPS:-5}
command -v perf >/dev/null || { echo "SKIP: perf not installed"; exit 0; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
s_t=() n_t=() p_t=()
for _ in $(seq "$REPS"); do
	t=$(date +%s%N); "$SONDE" list >/tmp/sonde-list.$$ 2>&1; s_t+=($(ms $t))
	t=$(date +%s%N); "$SONDE" list --no-probe >/dev/null 2>&1; n_t+=($(ms $t))
	t=$(date +%s%N); perf list >/tmp/perf-list.$$ 2>&1; p_t+=($(ms $t))
done
s=$(printf '%s\n' "${s_t[@]}" | median)
n=$(printf '%s\n' "${n_t[@]}" | median)
p=$(printf '%s\n' "${p_t[@]}" | median)
echo "list: sonde ${s} ms (every event opened once; ${n} ms without), perf list ${p} ms," \
	"ratio $(awk -v a="$p" -v s="$s" 'BEGIN{printf "%.1fx", (s>0 ? a/s : a)}')" \
	"($(grep -c '\[' /tmp/sonde-list.$$) vs $(grep -c '\[' /tmp/perf-list.$$) lines)"
rm -f /tmp/sonde-list.$$ /tmp/perf-list.$$
