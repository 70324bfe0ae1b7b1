#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# PLT stubs get perf's "name@plt" symbols: a workload whose library calls
# labs() through its .plt (LD_BIND_NOT=1 sends every call through the
# stub's lazy path, so samples land there) is recorded by perf; sonde
# report must give the same @plt rows as perf report and sonde script the
# same @plt frames as perf script. (perf 6.1 does not know .plt.sec, IBT
# stubs: that layout is checked by tests/unit/test_sym_plt.c only.)
source "$(dirname "$0")/lib.sh"
W="$HELPERS/plt_workload"

need_perf "plt"
need_helper "plt" "$W"
if command -v objdump >/dev/null &&
   ! objdump -d "$HELPERS/libplthot.so" | grep -q 'call.*<labs@plt>'; then
	fail "plt: libplthot.so does not call labs through its .plt"
fi

F="$TMP/plt.data"
if ! LD_BIND_NOT=1 perf_rec "$F" -e cpu-clock -F 4000 -g "$W" 2000000; then
	skip "plt: perf record failed: $(head -c 300 "$TMP/rec.err")"
	exit 0
fi

# plt_rows FILE: "dso sym<TAB>pct" of the @plt rows.
plt_rows() {
	awk '/^ +[0-9]+\.[0-9]+%  / && /@plt/ {
		pct = $1; sub(/%/, "", pct)
		line = $0; sub(/^ +[0-9.]+%  +/, "", line); gsub(/  +/, " ", line)
		print line "\t" pct }' "$1" | sort
}

perf report -i "$F" --stdio --no-children --sort dso,sym >"$TMP/p.rep" 2>/dev/null
"$SONDE" report -i "$F" --no-children --sort dso,sym >"$TMP/s.rep" 2>"$TMP/err"
plt_rows "$TMP/p.rep" >"$TMP/p.rows"
plt_rows "$TMP/s.rep" >"$TMP/s.rows"
if ! grep -q 'labs@plt' "$TMP/p.rows"; then
	skip "plt report: no sample landed in a PLT stub this run (perf shows none)"
else
	bad=$(join -t $'\t' -a1 -a2 -e MISSING -o 0,1.2,2.2 "$TMP/p.rows" "$TMP/s.rows" |
		awk -F'\t' '$2 == "MISSING" || $3 == "MISSING" ||
			($2 - $3 > 0.1 || $3 - $2 > 0.1) { print }' | head -3)
	if [ -z "$bad" ]; then
		pass "plt report: $(wc -l <"$TMP/p.rows") @plt rows agree with perf ($(head -1 "$TMP/p.rows" | tr '\t' ' ')%)"
	else
		fail "plt report: @plt rows differ (key, perf %, sonde %): $bad"
	fi
fi

# Every frame perf names @plt (ip and symbol), sonde names the same.
perf script -i "$F" -F ip,sym 2>/dev/null | awk '/@plt/ { print $1, $2 }' |
	sort | uniq -c >"$TMP/p.scr"
"$SONDE" script -i "$F" -F ip,sym 2>"$TMP/err" | awk '/@plt/ { print $1, $2 }' |
	sort | uniq -c >"$TMP/s.scr"
if [ ! -s "$TMP/p.scr" ]; then
	skip "plt script: perf shows no @plt frame this run"
elif cmp -s "$TMP/p.scr" "$TMP/s.scr"; then
	pass "plt script: $(awk '{ n += $1 } END { print n }' "$TMP/p.scr") @plt frames as perf names them"
else
	fail "plt script: @plt frames differ: $(diff "$TMP/p.scr" "$TMP/s.scr" | head -6 | tr '\n' ' ')"
fi
