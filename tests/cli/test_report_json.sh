#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# report --json holds every column the table shows, row for row in the
# table's order: the output fields --sort names (sys, usr, guest sys,
# guest usr: the titles in lower case, "_" for a blank), -n's Samples
# and --show-total-period's Period ("samples", "period"), and the keys
# past the first seven by their titles ("Parent symbol": "parent_symbol"),
# with the table's text. A recording of page faults, one sample each.
. "$(dirname "$0")/lib.sh"

W=$HELPERS/report_workload
need_helper "report json" "$W"
F=$TMP/json.data
if ! "$SONDE" record -q -e page-faults -c 1 -g -o "$F" -- "$W" single 30 >/dev/null 2>"$TMP/rec.err"; then
	skip "report json: cannot record page faults here: $(head -c 200 "$TMP/rec.err")"
	exit 0
fi

# same_rows NAME JSON-NAMES -- REPORT-ARGS: each table row's cells (split
# on blanks) are the JSON entry's values of those names, in order.
same_rows() {
	local name=$1 names=$2; shift 3
	"$SONDE" report -i "$F" --stdio -g none "$@" 2>"$TMP/err" | grep -v '^#' | grep . >"$TMP/table"
	"$SONDE" report -i "$F" --json "$@" >"$TMP/json" 2>>"$TMP/err"
	if python3 - "$TMP/table" "$TMP/json" "$names" >"$TMP/why" 2>&1 <<'PY'
import json, os, sys
rows = [l.split() for l in open(sys.argv[1])]
ents = json.load(open(sys.argv[2]))["events"][0]["entries"]
names = sys.argv[3].split(",")
def cell(e, n):
    v = e[n]
    if v is None:
        return "N/A"
    if isinstance(v, float):
        return "%.2f%%" % v
    if n == "dso":
        return os.path.basename(v)
    return str(v)
assert len(rows) == len(ents), (len(rows), len(ents))
for r, e in zip(rows, ents):
    want = [cell(e, n) for n in names]
    assert r == want, (r, want)
PY
	then pass "$name"; else fail "$name: $(tail -c 300 "$TMP/why") $(head -c 200 "$TMP/err")"; fi
}

same_rows "--json: sys, usr, guest sys, guest usr" \
	self,comm,sys,usr,guest_sys,guest_usr,dso -- --no-children \
	--sort comm,overhead_sys,overhead_us,overhead_guest_sys,overhead_guest_us,dso
same_rows "--json: -n and --show-total-period" self,samples,period,comm,dso -- \
	--no-children -n --show-total-period --sort comm,dso
same_rows "--json: --children, sys and usr among the keys" children,self,comm,sys,dso,usr -- \
	--children --sort comm,overhead_sys,dso,overhead_us
same_rows "--json: overhead_children's N/A" self,comm,children -- \
	--no-children --sort comm,overhead_children
same_rows "--json: keys past the first seven" self,comm,socket,parent_symbol,dso_size -- \
	--no-children --sort comm,socket,parent,dso_size
