#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# The HTML profile and the SVG flame graph in headless Chromium
# (tests/browser/pictures.js, playwright-core), written by sonde export
# and sonde diff --format html: frames drawn, click zoom,
# breadcrumb, search share against report's children share, the table's
# top row against report --no-children, a timeline drag against report
# --time, thread and command picks (on a three-thread recording) against
# report --tid and --comm, a phone screen, the differential page, no
# console errors. Leaves screenshots in $BUILD_DIR/artifacts.
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=${BUILD_DIR:-$ROOT/build}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

need_helper "html/svg" "$HELPERS/demo"

F=$TMP/perf.data
if ! "$SONDE" record -q -g -o "$F" -- "$HELPERS/demo" 20 >/dev/null 2>"$TMP/rec.err"; then
	fail "html: sonde record -g of the demo failed: $(head -3 "$TMP/rec.err")"; exit 0
fi
# Three threads for the thread filter.
"$SONDE" record -q -g -o "$TMP/thr.data" -- "$HELPERS/report_workload" threads 400 >/dev/null 2>&1
# The diff page's pair: prime_pass does 3x the work in the new recording.
"$SONDE" record -q -g -o "$TMP/base.data" -- "$HELPERS/demo" 10 >/dev/null 2>&1
"$SONDE" record -q -g -o "$TMP/new.data" -- "$HELPERS/demo" 10 3 >/dev/null 2>&1
expect_ok "html: sonde export --format html writes the page" \
	"$SONDE" export --format html -i "$F" -o "$TMP/p.html" --title "sonde profile"
expect_ok "svg: sonde export --format svg writes the flame graph" \
	"$SONDE" export --format svg -i "$F" -o "$TMP/p.svg"
expect_ok "html: sonde export --format html of three threads" \
	"$SONDE" export --format html -i "$TMP/thr.data" -o "$TMP/t.html"
if "$SONDE" diff --format html "$TMP/base.data" "$TMP/new.data" >"$TMP/d.html" 2>"$TMP/err"; then
	pass "html diff: sonde diff --format html writes the differential page"
else
	fail "html diff: sonde diff --format html failed: $(head -3 "$TMP/err")"
fi

# Without a browser: the SVG is well-formed XML with a title per frame,
# and the page asks for nothing outside itself.
if python3 - "$TMP/p.svg" >"$TMP/svg.out" 2>&1 <<'PY'
import sys, xml.etree.ElementTree as ET
ns = '{http://www.w3.org/2000/svg}'
root = ET.parse(sys.argv[1]).getroot()
titles = [t.text for t in root.iter(ns + 'title')]
rects = list(root.iter(ns + 'rect'))
assert titles and len(rects) == len(titles) + 1, (len(titles), len(rects))
assert any(t.startswith('main (') for t in titles), titles[:5]
print(len(titles))
PY
then pass "svg: well-formed, $(cat "$TMP/svg.out") frames with titles, main among them"
else fail "svg: $(tail -3 "$TMP/svg.out")"; fi
if grep -qiE '<(script|link|img)[^>]+(src|href)=|@import|url\(|https?://' "$TMP/p.html"; then
	fail "html: the page references something outside itself: $(grep -oiE '<(script|link|img)[^>]+(src|href)=[^>]*|@import[^;]*|url\([^)]*|https?://[^ \"]*' "$TMP/p.html" | head -3)"
else
	pass "html: one self-contained file ($(wc -c <"$TMP/p.html") bytes, no external script, style, font or image)"
fi

# Without a browser: the timeline's columns decode to report's samples,
# per thread as report --tid counts them, times inside the recording.
"$SONDE" report -i "$TMP/thr.data" --json --no-children -g none --sort tid >"$TMP/tids.json" 2>/dev/null
if python3 - "$TMP/t.html" "$TMP/tids.json" >"$TMP/tl.out" 2>&1 <<'PY'
import base64, json, re, sys, zlib
page = open(sys.argv[1]).read()
tl = json.loads(re.search(r'<script id="sonde-timeline" type="application/json">(.*?)</script>', page, re.S).group(1))
data = json.loads(re.search(r'<script id="sonde-data" type="application/json">(.*?)</script>', page, re.S).group(1))
u, j, n = zlib.decompress(base64.b64decode(tl['zlib'])), 0, tl['samples']
def varint():
    global j
    v = s = 0
    while True:
        b = u[j]; j += 1; v |= (b & 127) << s; s += 7
        if b < 128: return v
t, times = 0, []
for _ in range(n):
    z = varint(); t += -(z + 1) // 2 if z & 1 else z // 2; times.append(t)
lanes = [varint() for _ in range(n)]
# leaf numbers: planes of 8 bits, then 1, 2 or 4 packed low bits first
leaves, shift = [0] * n, 0
for w in tl['leafPlanes']:
    for i in range(n):
        b = u[j + i * w // 8] >> (i * w % 8) & ((1 << w) - 1)
        leaves[i] |= b << shift
    j += (n * w + 7) // 8; shift += w
assert j == len(u), (j, n, len(u))
# leaf numbers count the nodes where samples end (4-number nodes with samples)
nodes, k, ends = data['nodes'], 0, 0
while k < len(nodes):
    if nodes[k] < 0: k += 2
    else: ends += nodes[k + 3] > 0; k += 4
assert max(leaves) < ends + (data['rootSamples'] > 0), (max(leaves), ends)
assert min(times) == 0 and tl['t0us'] + max(times) == tl['t1us'], (min(times), max(times))
rep = {e['tid']: e['samples'] for e in json.load(open(sys.argv[2]))['events'][0]['entries']}
per = {}
for l in lanes:
    per[tl['lanes'][l][1]] = per.get(tl['lanes'][l][1], 0) + 1
assert per == rep, (per, rep)
assert all(tl['lanes'][k][2] == lanes.count(k) for k in range(len(tl['lanes'])))
print(n, len(tl['lanes']))
PY
then set -- $(cat "$TMP/tl.out"); pass "html: the timeline decodes to $1 samples in $2 lanes, per thread as report --sort tid counts them"
else fail "html: timeline columns: $(tail -3 "$TMP/tl.out")"; fi

if ! command -v node >/dev/null 2>&1; then
	skip "html/svg in chromium: node is not installed (apt-get install nodejs npm)"; exit 0
fi
if [ ! -x "$CHROMIUM" ]; then
	skip "html/svg in chromium: $CHROMIUM is missing (apt-get install chromium)"; exit 0
fi
if [ ! -d "$ROOT/tests/browser/node_modules/playwright-core" ]; then
	skip "html/svg in chromium: playwright-core is not installed (cd tests/browser && npm ci)"; exit 0
fi
# report's answers: the top self row, and the children share of its caller.
"$SONDE" report -i "$F" --stdio --no-children -g none --percent-limit 0 2>/dev/null |
	grep -v '^#' | grep '%' >"$TMP/self.txt"
read -r top_pct _ _ _ top_sym _ < "$TMP/self.txt"
"$SONDE" report -i "$F" --stdio --children -g none 2>/dev/null | grep -v '^#' | grep '%' >"$TMP/children.txt"
# The search target: the heaviest named function other than the top one and main.
read -r search_pct _ _ _ _ search_sym _ < <(awk '$6 != "'"$top_sym"'" && $6 !~ /^(main|_start|__libc_start|\[)/' "$TMP/children.txt" | head -1)
# report's children share of prime_pass in each: the change the diff shows
share_of() { "$SONDE" report -i "$1" --stdio --children -g none 2>/dev/null | awk '$6 == "prime_pass" { sub("%", "", $1); print $1; exit }'; }
diff_pts=$(awk -v a="$(share_of "$TMP/new.data")" -v b="$(share_of "$TMP/base.data")" 'BEGIN { print a - b }')
# frames every demo profile shows, outermost first
cat >"$TMP/want.json" <<JSON
{ "html": "$TMP/p.html", "svg": "$TMP/p.svg", "diff": "$TMP/d.html",
  "shot": "$B/artifacts/html_profile.png",
  "sonde": "$SONDE", "data": "$F",
  "threads": { "html": "$TMP/t.html", "data": "$TMP/thr.data", "shot": "$B/artifacts/html-threads-phone.png" },
  "frames": ["all", "main", "$top_sym"],
  "diffFn": { "name": "prime_pass", "points": $diff_pts },
  "top": { "name": "$top_sym", "self": ${top_pct%\%} },
  "search": { "q": "^$search_sym\$", "share": ${search_pct%\%} } }
JSON
mkdir -p "$B/artifacts"
cp "$TMP/p.html" "$B/artifacts/html-profile.html"
cp "$TMP/p.svg" "$B/artifacts/flame.svg"
(cd "$ROOT/tests/browser" && bounded 240 node pictures.js "$TMP/want.json") 2>&1 |
	grep -E '^(PASS|FAIL|SKIP)|Error' || fail "html: the browser run printed nothing"
