#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# The DWARF answer cache of report/script: on a --call-graph dwarf
# recording (inline frames) the output is byte-identical with the cache
# disabled, cold and warm; a warm run opens no debug info (the library
# logs each opening at debug level); --no-cache, --no-kallsyms-cache and
# SONDE_NO_CACHE write nothing; corrupt files are rejected and rebuilt.
source "$(dirname "$0")/lib.sh"

if ! have_perf; then
	skip "dwarf cache: perf is not installed (needed to record a dwarf call graph)"; exit 0
fi
export XDG_CACHE_HOME="$TMP/xdg"
unset SONDE_NO_CACHE SONDE_NO_KALLSYMS_CACHE SONDE_LOG_LEVEL
D="$TMP/d.data"
if ! perf_rec "$D" --call-graph dwarf -- "$HELPERS/report_workload" single 200 || [ ! -s "$D" ]; then
	skip "dwarf cache: perf cannot record here: $(head -c 300 "$TMP/rec.err")"; exit 0
fi
# run NAME ARGS...: the three outputs in $TMP/NAME.{r,n,s}, debug log in .log
run() {
	local name=$1; shift
	"$SONDE" report -i "$D" "$@" >"$TMP/$name.r" 2>/dev/null
	"$SONDE" report --no-children -i "$D" "$@" >"$TMP/$name.n" 2>/dev/null
	SONDE_LOG_LEVEL=debug "$SONDE" script -i "$D" "$@" >"$TMP/$name.s" 2>"$TMP/$name.log"
}
opens() { grep -c 'opening its debug info' "$TMP/$1.log"; }
files() { ls "$XDG_CACHE_HOME"/sonde/dwarf-* 2>/dev/null | wc -l; }
same() {
	local a=$1 b=$2 k
	for k in r n s; do
		cmp -s "$TMP/$a.$k" "$TMP/$b.$k" || { echo "$k: $(diff "$TMP/$a.$k" "$TMP/$b.$k" | head -4)"; return 1; }
	done
}

run off --no-cache
[ "$(files)" = 0 ] && pass "--no-cache writes no DWARF cache" || fail "--no-cache wrote $(files) files"
run off2 --no-kallsyms-cache
SONDE_NO_CACHE=1 run off3
[ "$(files)" = 0 ] && pass "--no-kallsyms-cache and SONDE_NO_CACHE write nothing" ||
	fail "disabled cache wrote $(files) files"
if ! grep -q '(inlined)' "$TMP/off.r"; then
	skip "dwarf cache: no inline frames in this recording (no debug info?)"; exit 0
fi
[ "$(opens off)" -gt 0 ] && pass "without the cache the debug info is opened" ||
	fail "no 'opening its debug info' line at debug level: $(head -c 300 "$TMP/off.log")"

run cold
[ "$(files)" -gt 0 ] && pass "cold run writes $(files) DWARF cache files" || fail "cold run wrote nothing"
bad=$(find "$XDG_CACHE_HOME/sonde" -name 'dwarf-*' ! -perm 600 | head -1)
[ -z "$bad" ] && pass "DWARF cache files are 0600" || fail "$bad: $(stat -c %a "$bad")"
run warm
[ "$(opens warm)" = 0 ] && pass "warm run opens no debug info" ||
	fail "warm run opened: $(grep 'opening its debug info' "$TMP/warm.log" | head -3)"
for m in off2 off3 cold warm; do
	r=$(same off $m) && pass "$m: report, --no-children, script identical" || fail "$m differs: $r"
done

# Corrupt files: rejected, same output, rebuilt for the next run.
for f in "$XDG_CACHE_HOME"/sonde/dwarf-*; do
	head -c 777 /dev/urandom >"$f"
	chmod 600 "$f"
done
run corrupt
r=$(same off corrupt) && pass "corrupt DWARF cache files rejected" || fail "corrupt: $r"
run rebuilt
r=$(same off rebuilt) && [ "$(opens rebuilt)" = 0 ] && pass "corrupt DWARF cache files rebuilt" ||
	fail "after corruption: $r, $(opens rebuilt) openings"
