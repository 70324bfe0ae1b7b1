#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# report's -q, -g without a value, -G, and its refusal of a call graph or
# a parent column on a file without callchains, each as perf 6.1 does it:
# - -q prints the rows alone: perf's output without its '#' lines;
# - -g at the end of the command line or before another option is perf's
#   default, "graph,0.5,caller,function,percent"; -G is caller order and
#   wins over a -g callee;
# - -g (not none), --sort parent or -p on a file recorded without -g:
#   perf's "Error:" lines on stderr after the lines it printed so far
#   (perf then exits 0; sonde exits 1). A pipe is not checked (its attrs
#   come later) and -g none, -G and --children are no request for one.
# Besides perf's output, sonde's own forms are held to each other.
. "$(dirname "$0")/lib.sh"

W=$HELPERS/report_workload
need_helper "report switches" "$W"
need_perf "report switches"
G=$TMP/g.data
F=$TMP/flat.data
if ! perf_rec "$G" -e page-faults -c 1 -g "$W" || ! perf_rec "$F" -e page-faults -c 1 "$W"; then
	skip "report switches: perf record cannot record page faults here: $(head -c 200 "$TMP/rec.err")"
	exit 0
fi

# sonde_same NAME "ARGS A" "ARGS B": the same bytes from both.
sonde_same() {
	local name=$1 a=$2 b=$3
	# shellcheck disable=SC2086
	"$SONDE" report -i "$G" --stdio $a >"$TMP/a.out" 2>"$TMP/a.err" &&
	# shellcheck disable=SC2086
	"$SONDE" report -i "$G" --stdio $b >"$TMP/b.out" 2>"$TMP/b.err" ||
		{ fail "$name: sonde failed: $(cat "$TMP/a.err" "$TMP/b.err" | head -c 300)"; return; }
	if ! grep -q '%' "$TMP/a.out"; then
		fail "$name: no rows"
	elif cmp -s "$TMP/a.out" "$TMP/b.out"; then
		pass "$name"
	else
		fail "$name: differ: $(diff "$TMP/a.out" "$TMP/b.out" | head -6 | tr '\n' '|')"
	fi
}

# -q: perf's tables without a '#' line, and sonde's graphs likewise.
report_same "-q --no-children -g none --sort comm,dso" "$G" -q --no-children -g none --sort comm,dso
report_same "-q --sort dso -g none (children)" "$G" -q --sort dso -g none
report_same "-q -n --sort comm,dso on a flat file" "$F" -q -n --sort comm,dso
for a in "--sort comm,dso" "--no-children --sort dso" "--sort comm,dso -g folded"; do
	# shellcheck disable=SC2086
	"$SONDE" report -i "$G" --stdio $a | grep -v '^#' >"$TMP/want"
	# shellcheck disable=SC2086
	"$SONDE" report -i "$G" --stdio -q $a >"$TMP/got"
	if grep -Eq '%--|---|;' "$TMP/got" && ! grep -q '^#' "$TMP/got" && cmp -s "$TMP/want" "$TMP/got"; then
		pass "-q $a: the graph report without its '#' lines"
	else
		fail "-q $a: $(diff "$TMP/want" "$TMP/got" | head -6 | tr '\n' '|')"
	fi
done

# -g without a value, and -G.
D="-g graph,0.5,caller,function,percent"
sonde_same "-g last is perf's default" "--no-children --sort comm,dso -g" "--no-children --sort comm,dso $D"
sonde_same "-g before an option is perf's default" "-g --no-children --sort comm,dso" "--no-children --sort comm,dso $D"
sonde_same "-G is caller order" "-G --no-children --sort dso" "-g caller --no-children --sort dso"
sonde_same "-G wins over a later -g callee" "-G -g callee --no-children --sort dso" "-g caller --no-children --sort dso"
# What perf makes of them. libc's PLT stub is "@plt" to perf (see
# test_report_plt.sh): those lines go from both.
REPORT_CUT='@plt'
report_same "-g -g none (the last wins)" "$G" --no-children --sort comm,dso -g -g none
report_same "-G -g none" "$G" -G --no-children -g none --sort comm,dso
report_same "-g before an option" "$G" -g --no-children --sort comm,dso
report_same "-G --no-children" "$G" -G --no-children --sort comm,dso
report_same "-G then -g last (children)" "$G" --sort comm,dso -G -g
report_same "-q --sort comm,dso (children, graph)" "$G" -q --sort comm,dso
report_same "-q -g folded" "$G" -q --sort comm,dso -g folded
unset REPORT_CUT

# A call graph or parent column of a file without callchains.
for a in "-g caller" "-g" "--sort parent" "-p foo" "-g caller -q" "-g caller --header" "-G -g fractal"; do
	# shellcheck disable=SC2086
	perf report -f -i "$F" --stdio $a >"$TMP/p.out" 2>"$TMP/p.err"
	# shellcheck disable=SC2086
	"$SONDE" report -i "$F" --stdio $a >"$TMP/s.out" 2>"$TMP/s.err"
	rc=$?
	if [ $rc -ne 1 ]; then
		fail "$a without callchains: exit $rc, expected 1"
	elif ! grep -q '^Error:' "$TMP/p.err"; then
		fail "$a without callchains: perf printed no error: $(head -c 200 "$TMP/p.err")"
	elif cmp -s "$TMP/p.out" "$TMP/s.out" && cmp -s "$TMP/p.err" "$TMP/s.err"; then
		pass "$a without callchains: perf's error, after perf's lines"
	else
		fail "$a without callchains: $(diff "$TMP/p.out" "$TMP/s.out" | head -4 | tr '\n' '|') $(diff "$TMP/p.err" "$TMP/s.err" | head -4 | tr '\n' '|')"
	fi
done
for a in "-g none" "-G" "--children"; do
	# shellcheck disable=SC2086
	if "$SONDE" report -i "$F" --stdio $a >"$TMP/s.out" 2>"$TMP/s.err" && grep -q '%' "$TMP/s.out"; then
		pass "$a without callchains: a report"
	else
		fail "$a without callchains: $(head -c 300 "$TMP/s.err")"
	fi
done
if perf record -q -o - -e page-faults -c 1 "$W" 2>/dev/null >"$TMP/flat.pipe" &&
	"$SONDE" report -i - --stdio -g caller <"$TMP/flat.pipe" >"$TMP/s.out" 2>"$TMP/s.err" &&
	grep -q '%' "$TMP/s.out"; then
	pass "-g caller on a pipe without callchains: a report, as perf"
else
	fail "-g caller on a pipe without callchains: $(head -c 300 "$TMP/s.err")"
fi
