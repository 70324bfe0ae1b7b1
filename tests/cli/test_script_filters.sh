#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# sonde script takes the filters that report takes, as perf script does:
# -c/--comms, -S/--symbols, -C/--cpu and --time; the same samples as perf
# 6.1 (the oracle) keeps.
. "$(dirname "$0")/lib.sh"
C="$(dirname "$0")/../fuzz/corpus/fuzz_perfdata"

# The committed perf file: 18 samples of 'true', 3 in handle_amd, 2 after
# 3087.999800, no CPU numbers.
n() { "$SONDE" script -i "$C/perf_fp.data" -F tid "$@" 2>"$TMP/err" | wc -l; }
[ "$(n -S handle_amd)" = 3 ] && pass "script -S NAME" || fail "script -S handle_amd: $(n -S handle_amd) samples, not 3: $(head -c 200 "$TMP/err")"
[ "$(n --symbols handle_amd,nosuch)" = 3 ] && pass "script --symbols LIST" || fail "script --symbols: $(head -c 200 "$TMP/err")"
[ "$(n -c true)" = 18 ] && [ "$(n -c nosuch)" = 0 ] && pass "script -c COMM" || fail "script -c: $(head -c 200 "$TMP/err")"
[ "$(n --time 3087.999800,)" = 2 ] && pass "script --time START," || fail "script --time: $(n --time 3087.999800,) samples, not 2: $(head -c 200 "$TMP/err")"
[ "$(n --time 0%-50%)" = 9 ] && pass "script --time 0%-50%" || fail "script --time 0%-50%: $(n --time 0%-50%) samples, not 9: $(head -c 200 "$TMP/err")"
expect_fail "script -C on samples without CPU numbers" "carry no CPU number" \
	"$SONDE" script -C 0 -i "$C/perf_fp.data"
expect_fail "report -C on samples without CPU numbers" "carry no CPU number" \
	"$SONDE" report -C 0 -i "$C/perf_fp.data"
expect_fail "script --time nonsense" "--time: cannot parse" "$SONDE" script --time nonsense -i "$C/perf_fp.data"

need_perf "script filters"
W="$HELPERS/report_workload"
need_helper "script filters" "$W"
F=$TMP/a.data
if ! perf_rec "$F" -a -g -e cpu-clock -c 100000 -- "$W" threads 200; then
	skip "script filters: perf record -a fails here: $(head -c 300 "$TMP/rec.err")"
	exit 0
fi
for args in "-S leaf_spin" "-S leaf_spin,inner_a" "-c report_workload" "-C 0" \
	"--time 10%-20%" "--time 30%-40%,70%-90% -C 1" "-c report_workload -S leaf_spin --time 50%-100%"; do
	perf script -i "$F" -F comm,tid,cpu,time $args 2>/dev/null >"$TMP/perf.txt"
	"$SONDE" script -i "$F" -F comm,tid,cpu,time $args 2>"$TMP/err" >"$TMP/sonde.txt"
	p=$(wc -l <"$TMP/perf.txt") s=$(wc -l <"$TMP/sonde.txt")
	if [ "$p" = 0 ]; then
		skip "script $args: perf kept no sample to compare"
	elif [ "$p" = "$s" ] && diff <(awk '{print $2, $3, $4}' "$TMP/perf.txt") \
		<(awk '{print $2, $3, $4}' "$TMP/sonde.txt") >/dev/null; then
		pass "script $args: the $p samples perf keeps"
	else
		fail "script $args: sonde $s samples, perf $p: $(head -c 300 "$TMP/err")"
	fi
done
