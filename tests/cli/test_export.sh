#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# sonde export, each format checked by its reader: folded line totals
# against report's samples per command, pprof through `go tool pprof -top`
# against report --no-children's flat shares (and -raw: the program is
# mapping 1, with build ids), speedscope against its file-format schema
# and in the speedscope app (headless Chromium), firefox against the
# processed format's fields and report's samples per thread. And the file
# handling: default names, stdout, and a failed export that leaves the old
# file alone.
source "$(dirname "$0")/lib.sh"
W="$HELPERS/callchain_workload"
CHK="$(cd "$(dirname "$0")" && pwd)/export"

need_helper "export" "$W"
cd "$TMP" || exit 1
if ! "$SONDE" record -g -o cc.data -- "$W" 400 2 >/dev/null 2>rec.err; then
	skip "export: sonde record cannot sample here: $(head -c 300 rec.err)"
	exit 0
fi

# report_counts KEY: "key samples period self%" per report --no-children entry.
report_counts() {
	"$SONDE" report -i cc.data --no-children --sort "$1" --json 2>/dev/null |
		python3 "$CHK/report_counts.py" "$1"
}

# ---- folded ----
expect_ok "folded: default output name" "$SONDE" export --format folded -i cc.data
if [ -s perf.folded ]; then
	awk '{ n = $NF; sub(/;.*/, ""); c[$0] += n } END { for (k in c) print k, c[k] }' perf.folded |
		sort >folded.comm
	report_counts comm | awk '{ print $1, $2 }' | sort >report.comm
	if [ -s report.comm ] && cmp -s folded.comm report.comm; then
		pass "folded: line totals per command equal report's samples ($(tr '\n' ' ' <report.comm))"
	else
		fail "folded: per command $(tr '\n' ' ' <folded.comm) vs report $(tr '\n' ' ' <report.comm)"
	fi
	if grep -q '^callchain_workl;.*main;.*run_a;run_b;leaf_burn [0-9]*$' perf.folded; then
		pass "folded: whole stacks, root first, leaf last"
	else
		fail "folded: no main;...;run_a;run_b;leaf_burn line: $(head -3 perf.folded)"
	fi
else
	fail "folded: perf.folded not written"
fi
"$SONDE" export --format folded -i cc.data -o - >stdout.folded 2>/dev/null
if cmp -s stdout.folded perf.folded; then pass "folded: -o - writes the same to stdout"
else fail "folded: -o - differs from the file"; fi
"$SONDE" export --format folded -i cc.data --comm nosuchcomm -o - >none.folded 2>/dev/null
if [ ! -s none.folded ]; then pass "folded: --comm filters samples out"
else fail "folded: --comm nosuchcomm still printed $(wc -l <none.folded) lines"; fi
"$SONDE" export --format folded -i cc.data --symbols leaf_spin -o - >spin.folded 2>/dev/null
if [ -s spin.folded ] && ! grep -qv 'leaf_spin [0-9]*$' spin.folded; then
	pass "folded: --symbols keeps the stacks sampled in that function"
else
	fail "folded: --symbols leaf_spin: $(head -3 spin.folded)"
fi

# ---- failure keeps the old file ----
echo old >keep.folded
expect_fail "export: unknown event is an error" "no event 'nosuchevent'" \
	"$SONDE" export --format folded -i cc.data --event nosuchevent -o keep.folded
expect_fail "export: unreadable input is an error" "nosuch.data" \
	"$SONDE" export --format folded -i nosuch.data -o keep.folded
if [ "$(cat keep.folded)" = old ] && ! ls keep.folded.* >/dev/null 2>&1; then
	pass "export: a failed export leaves the old file and no temporary file"
else
	fail "export: keep.folded now '$(head -c 80 keep.folded)', leftovers: $(ls keep.folded.* 2>/dev/null)"
fi
expect_fail "export: unknown format" "expected folded" "$SONDE" export --format nosuch -i cc.data
touch plain.file
if [ "$(stat -c %a perf.folded)" = "$(stat -c %a plain.file)" ]; then
	pass "export: the file gets the mode a new file gets ($(stat -c %a perf.folded))"
else
	fail "export: perf.folded mode $(stat -c %a perf.folded), a new file $(stat -c %a plain.file)"
fi
expect_fail "export: a missing directory is an error" "nodir/x" \
	"$SONDE" export --format folded -i cc.data -o nodir/x
# Not a file: written in place, never replaced by one (-o /dev/null once
# turned the machine's /dev/null into a regular file).
mkfifo out.fifo
timeout 60 cat out.fifo >fifo.folded &
reader=$!
"$SONDE" export --format folded -i cc.data -o out.fifo 2>fifo.err
wait "$reader"
if [ -p out.fifo ] && cmp -s fifo.folded perf.folded; then
	pass "export: -o FIFO writes through the FIFO, which stays one"
else
	fail "export: -o FIFO: $( [ -p out.fifo ] || echo 'no longer a FIFO; ')$(head -c 200 fifo.err)"
fi
ln -s perf.folded link.folded
echo old >perf.folded
"$SONDE" export --format folded -i cc.data -o link.folded 2>/dev/null
if [ -L link.folded ] && cmp -s perf.folded stdout.folded; then
	pass "export: -o SYMLINK replaces the file it names, the link stays"
else
	fail "export: -o SYMLINK: $( [ -L link.folded ] || echo 'no longer a symlink; ')$(head -c 80 perf.folded)"
fi

# ---- pprof ----
expect_ok "pprof: default output name" "$SONDE" export --format pprof -i cc.data
if ! command -v go >/dev/null 2>&1; then
	skip "pprof: go is not installed (apt-get install golang-go): go tool pprof cannot read the file"
elif [ ! -s perf.pb.gz ]; then
	fail "pprof: perf.pb.gz not written"
else
	HOME="$TMP" GOCACHE="$TMP/gocache" go tool pprof -top -nodecount=10 perf.pb.gz \
		>pprof.top 2>pprof.err
	# flat% of each function pprof lists (its rows: flat flat% sum% cum cum% name)
	awk '$2 ~ /%$/ && $5 ~ /%$/ && $1 != "flat" { sub(/%/, "", $2); print $6, $2 }' pprof.top |
		sort >pprof.flat
	report_counts sym | awk '$4 >= 1 { print $1, $4 }' | sort >report.flat
	if [ ! -s report.flat ]; then
		fail "pprof: report listed no function with 1% or more"
	elif python3 - report.flat pprof.flat <<'PY'
import sys
rep = dict(l.split() for l in open(sys.argv[1]))
pp = dict(l.split() for l in open(sys.argv[2]))
bad = [f for f in rep if f not in pp or abs(float(rep[f]) - float(pp[f])) > 0.1]
sys.exit(1 if bad else 0)
PY
	then
		pass "pprof: go tool pprof -top lists report's top functions with the same flat shares ($(tr '\n' ' ' <report.flat))"
	else
		fail "pprof: report $(tr '\n' ' ' <report.flat) vs pprof $(tr '\n' ' ' <pprof.flat) $(head -c 300 pprof.err)"
	fi
	contains "pprof: the event is the sample type, with its duration" "Type: cpu-clock" pprof.top
	contains "pprof: the recording's duration" "Duration: [0-9.]+m?s" pprof.top
	# pprof takes mapping 1 for the main binary: the profiled program's,
	# with its build id, not the first library a stack met.
	HOME="$TMP" GOCACHE="$TMP/gocache" go tool pprof -raw perf.pb.gz >pprof.raw 2>>pprof.err
	first=$(sed -n '/^Mappings/{n;p;q}' pprof.raw)
	if [[ $first =~ ^1:\ .*/callchain_workload\ [0-9a-f]{40}\ \[FN\] ]]; then
		pass "pprof: mapping 1 is the program with its build id ($first)"
	else
		fail "pprof: mapping 1 is not callchain_workload with a build id: '$first' $(head -c 300 pprof.err)"
	fi
	# Every file mapping has a build id (the recording's, else its MMAP2
	# record's); [vdso] has one when the recording lists it, which sonde
	# record does when a sample's own address was there (one met only in
	# callchains goes without, as in perf).
	"$SONDE" report --buildid-list -i cc.data >bids.txt 2>/dev/null
	if awk 'NR == FNR { listed[$2] = 1; next }
		/^Mappings/ { m = 1; next }
		m && NF && $3 !~ /^\[kernel/ && (length($4) != 40 || $4 ~ /[^0-9a-f]/) &&
			($3 ~ /^\// || listed[$3]) { bad = 1 }
		END { exit !bad }' bids.txt pprof.raw; then
		fail "pprof: a user mapping without a build id: $(awk '/^Mappings/ { m = 1; next } m' pprof.raw | tr '\n' '|')"
	else
		pass "pprof: every user mapping has its build id"
	fi
fi

# ---- speedscope ----
expect_ok "speedscope: default output name" "$SONDE" export --format speedscope -i cc.data
if python3 "$CHK/check_speedscope.py" perf.speedscope.json >ss.tid 2>ss.err; then
	pass "speedscope: valid against the file-format schema ($(wc -l <ss.tid) thread profiles)"
	awk '{ print $1, $3 }' ss.tid | sort >ss.w
	report_counts tid | awk '{ print $1, $3 }' | sort >report.tidp
	if cmp -s ss.w report.tidp; then
		pass "speedscope: weights per thread equal report's period per thread"
	else
		fail "speedscope: weights $(tr '\n' ' ' <ss.w) vs report $(tr '\n' ' ' <report.tidp)"
	fi
else
	fail "speedscope: $(cat ss.err)"
fi
# The speedscope app itself (its npm package, a test-only dependency of
# tests/browser) loads the file in headless Chromium: what it shows must
# be the file's frames and weights, and report's top function first.
BROWSER_DIR="$(cd "$CHK/../../browser" && pwd)"
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if ! command -v node >/dev/null 2>&1; then
	skip "speedscope app: node is not installed (apt-get install nodejs npm)"
elif [ ! -x "$CHROMIUM" ]; then
	skip "speedscope app: $CHROMIUM is missing (apt-get install chromium)"
elif [ ! -f "$BROWSER_DIR/node_modules/speedscope/dist/release/index.html" ] ||
	[ ! -d "$BROWSER_DIR/node_modules/playwright-core" ]; then
	skip "speedscope app: speedscope or playwright-core is not installed (cd tests/browser && npm ci)"
else
	tid=$(python3 -c 'import json, re, sys
d = json.load(open(sys.argv[1]))
print(re.findall(r"[0-9]+", d["profiles"][d.get("activeProfileIndex", 0)]["name"])[-1])' perf.speedscope.json)
	top=$("$SONDE" report -i cc.data --stdio --no-children --tid "$tid" -s sym 2>/dev/null |
		grep -v '^#' | grep '%' | head -1 | awk '{ print $NF }')
	(cd "$BROWSER_DIR" && CHROMIUM="$CHROMIUM" bounded 240 node speedscope.js "$TMP/perf.speedscope.json" "$top") 2>&1 |
		grep -E '^(PASS|FAIL|SKIP)|Error' || fail "speedscope app: the browser run printed nothing"
fi

# ---- firefox ----
expect_ok "firefox: default output name" "$SONDE" export --format firefox -i cc.data
if python3 "$CHK/check_firefox.py" perf.firefox.json >ff.tid 2>ff.err; then
	pass "firefox: required fields, versions and tables check out ($(wc -l <ff.tid) threads)"
	sort ff.tid >ff.n
	report_counts tid | awk '{ print $1, $2 }' | sort >report.tid
	if cmp -s ff.n report.tid; then
		pass "firefox: samples per thread equal report's ($(tr '\n' ' ' <report.tid))"
	else
		fail "firefox: samples $(tr '\n' ' ' <ff.n) vs report $(tr '\n' ' ' <report.tid)"
	fi
else
	fail "firefox: $(cat ff.err)"
fi
