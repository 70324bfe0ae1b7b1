# SPDX-License-Identifier: LGPL-2.1-only
# Comparison with Linux perf (the oracle), sourced by the test_report_*.sh
# scripts after lib.sh:
#  - cmp_rows: report --no-children --sort comm,dso,sym: the same user-space
#    rows, percentages within 0.1 points (kernel rows depend on the running
#    kernel's symbols);
#  - cmp_script: script: the same number of samples and the same symbol for
#    >= 99% of frames;
#  - check NAME FILE: both of them on one file (perf_rec of lib.sh records).

# rows FILE: "event|key<TAB>pct" for user rows ([.]) of a --stdio report;
# keys matching the regex $ROWS_IGNORE (if set) are left out.
rows() {
	awk -v ign="${ROWS_IGNORE:-}" '
	/^# Samples: / { ev = $0; sub(/.*of event /, "", ev); next }
	/^ +[0-9]+\.[0-9]+%  / && / \[\.\] / {
		pct = $1; sub(/%/, "", pct)
		line = $0; sub(/^ +[0-9.]+%  +/, "", line); gsub(/  +/, " ", line)
		if (ign != "" && line ~ ign)
			next
		# PLT stubs: the same share, not the same name (perf 6.1 pairs
		# libc stubs with relocations in file order; sonde-report(1)).
		sub(/\[\.\] [^ ]*@plt$/, "[.] (plt stub)", line)
		print ev "|" line "\t" pct
	}' "$1" | sort
}

# cmp_rows NAME PERF_OUT SONDE_OUT
cmp_rows() {
	local name=$1 bad
	rows "$2" >"$TMP/rows.perf"
	rows "$3" >"$TMP/rows.sonde"
	if [ ! -s "$TMP/rows.perf" ]; then
		# perf 6.1 itself sometimes aborts on a file (seen in pipe and -a
		# recordings on this machine): no oracle, no verdict.
		if [ -s "$TMP/rows.sonde" ] && [ "${PERF_RC:-0}" -ge 128 ]; then
			skip "$name: perf crashed (exit $PERF_RC), nothing to compare"
		else
			fail "$name: perf printed no user rows"
		fi
		return
	fi
	bad=$(join -t $'\t' -a1 -a2 -e MISSING -o 0,1.2,2.2 "$TMP/rows.perf" "$TMP/rows.sonde" |
		awk -F'\t' '$2 == "MISSING" || $3 == "MISSING" ||
			($2 - $3 > 0.1 || $3 - $2 > 0.1) { print }' | head -5)
	if [ -z "$bad" ]; then
		pass "$name: $(wc -l <"$TMP/rows.perf") user rows agree with perf"
	else
		fail "$name: rows differ (key, perf %, sonde %): $bad"
	fi
}

# cmp_script NAME PERF_OUT SONDE_OUT
cmp_script() {
	local name=$1 np ns
	np=$(grep -c -v -e $'^\t' -e '^$' "$2")
	ns=$(grep -c -v -e $'^\t' -e '^$' "$3")
	if [ "$np" != "$ns" ] || [ "$np" = 0 ]; then
		fail "$name: sample count perf $np, sonde $ns"; return
	fi
	# One line per sample: its own symbol (if printed) then every frame's,
	# so a frame one tool adds or drops shifts only that sample.
	local prog='/^\t/ { line = line " " $2; next }
		/^$/ { next }
		{ if (NR > 1) print line; line = "S"; n = split($0, f, " ")
		  for (i = 1; i <= n; i++) if (f[i] ~ /^\(/) { line = line " " f[i-1]; break } }
		END { print line }'
	awk "$prog" "$2" >"$TMP/sym.perf"
	awk "$prog" "$3" >"$TMP/sym.sonde"
	local total same
	read -r total same < <(paste -d '\n' "$TMP/sym.perf" "$TMP/sym.sonde" | awk '
		NR % 2 { n = split($0, p, " "); next }
		{ m = split($0, s, " "); total += (n > m ? n : m) - 1
		  for (i = 2; i <= n && i <= m; i++) same += (p[i] == s[i]) }
		END { print total + 0, same + 0 }')
	if [ "$total" -gt 0 ] && [ $((same * 100)) -ge $((total * 99)) ]; then
		pass "$name: $ns samples, $same/$total frames with the same symbol"
	else
		fail "$name: only $same/$total frames agree ($ns samples)"
		paste -d '\n' "$TMP/sym.perf" "$TMP/sym.sonde" | awk 'NR % 2 { p = $0; next }
			$0 != p { print "perf: " p; print "sonde: " $0; if (++k == 3) exit }'
	fi
}

# check NAME FILE [--no-script] [COMM]: with COMM, only that command's samples.
check() {
	local name=$1 f=$2 comm=${4:-}
	local pf=() sf=()
	if [ -n "$comm" ]; then pf=(--comms "$comm"); sf=(--comm "$comm"); fi
	perf report -f --stdio --no-children --sort comm,dso,sym "${pf[@]}" -i "$f" \
		>"$TMP/perf.rep.raw" 2>/dev/null
	PERF_RC=$?
	if [ "$PERF_RC" -ge 128 ]; then
		skip "$name report: perf report crashed (exit $PERF_RC), nothing to compare"
		return
	fi
	grep -v '^# (Tip' "$TMP/perf.rep.raw" >"$TMP/perf.rep"
	if ! "$SONDE" report --no-children --sort comm,dso,sym --stdio "${sf[@]}" -i "$f" >"$TMP/sonde.rep" 2>"$TMP/sonde.err"; then
		fail "$name: sonde report failed: $(head -3 "$TMP/sonde.err")"; return
	fi
	cmp_rows "$name report" "$TMP/perf.rep" "$TMP/sonde.rep"
	if [ -s "$TMP/sonde.err" ]; then
		echo "note: $name: sonde report said: $(head -3 "$TMP/sonde.err")"
	fi
	if [ "${3:-}" != --no-script ]; then
		perf script -f "${pf[@]}" -i "$f" 2>/dev/null >"$TMP/perf.scr"
		PERF_RC=$?
		if [ "$PERF_RC" -ge 128 ]; then
			skip "$name script: perf script crashed (exit $PERF_RC), nothing to compare"
			return
		fi
		"$SONDE" script "${sf[@]}" -i "$f" >"$TMP/sonde.scr" 2>"$TMP/sonde.err" ||
			{ fail "$name: sonde script failed: $(head -3 "$TMP/sonde.err")"; return; }
		cmp_script "$name script" "$TMP/perf.scr" "$TMP/sonde.scr"
	fi
}
