#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# DWARF unwinding: perf records a frame-pointer-less workload with
# --call-graph dwarf (perf is the oracle and the peer here); then sonde
# (bench/unwind_script.c: libsonde's perf.data reader, unwinder and
# symbolizer) and `perf script -F ip,sym` each unwind and symbolize every
# sample of the same file, repeated; prints medians, the ratio, and how many
# samples got the same innermost frames from both.
set -u
BUILD_DIR=${BUILD_DIR:-$PWD/build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
REPS=${UNWIND_BENCH_REPS:-5}
helper=$BUILD_DIR/helpers/unwind_nofp
command -v perf >/dev/null || { echo "SKIP: perf not installed"; exit 0; }
[ -x "$helper" ] || { echo "SKIP: $helper not built (make helpers)"; exit 0; }
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
cc -O2 -std=c11 -D_GNU_SOURCE -I"$ROOT/include" "$ROOT/bench/unwind_script.c" \
	"$BUILD_DIR/libsonde.a" -ldw -lelf -lz -lzstd -lm -lpthread -o "$TMP/drv" || exit 1
if ! perf record -q --call-graph dwarf -e cpu-clock -F 2000 -o "$TMP/perf.data" \
	-- "$helper" 1500 >/dev/null 2>"$TMP/rec.err"; then
	echo "SKIP: perf record --call-graph dwarf failed: $(tail -1 "$TMP/rec.err")"; exit 0
fi

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
s_t=() p_t=() c_t=()
"$TMP/drv" "$TMP/perf.data" >/dev/null 2>&1	# warm the page cache
SONDE_KCACHE=$TMP/kcache "$TMP/drv" "$TMP/perf.data" >/dev/null 2>&1	# fill the kallsyms copy
for _ in $(seq "$REPS"); do
	t=$(date +%s%N); "$TMP/drv" "$TMP/perf.data" >"$TMP/s.out" 2>"$TMP/s.err"; s_t+=($(ms $t))
	t=$(date +%s%N); SONDE_KCACHE=$TMP/kcache "$TMP/drv" "$TMP/perf.data" >/dev/null 2>&1; c_t+=($(ms $t))
	t=$(date +%s%N); perf script -F ip,sym -i "$TMP/perf.data" >"$TMP/p.out" 2>/dev/null; p_t+=($(ms $t))
done
# First four real frames of each sample (perf's "(inlined)" lines dropped).
top4() { awk 'BEGIN{RS=""} {n=0; s=""; k=split($0, l, "\n");
	for (i=1; i<=k && n<4; i++) { if (l[i] ~ /\(inlined\)/) continue;
		split(l[i], f, " "); s=s " " f[2]; n++ } print s }' "$1"; }
total=$(top4 "$TMP/p.out" | wc -l)
same=$(paste -d'|' <(top4 "$TMP/s.out") <(top4 "$TMP/p.out") | awk -F'|' '$1==$2' | wc -l)
s=$(printf '%s\n' "${s_t[@]}" | median)
p=$(printf '%s\n' "${p_t[@]}" | median)
k=$(printf '%s\n' "${c_t[@]}" | median)
ratio() { awk -v a="$1" -v s="$2" 'BEGIN{printf "%.1fx", (s>0 ? a/s : a)}'; }
echo "dwarf unwind+symbolize, $(cat "$TMP/s.err"): sonde ${s} ms, perf script ${p} ms, ratio $(ratio "$p" "$s") (same top 4 frames in $same/$total samples)"
echo "  with the kallsyms cache (opts.kallsyms_cache_dir): sonde ${k} ms, ratio $(ratio "$p" "$k")"
