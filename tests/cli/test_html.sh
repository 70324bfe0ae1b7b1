#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# The HTML profile and the SVG flame graph in headless Chromium
# (tests/browser/pictures.js, playwright-core): frames drawn, click zoom,
# breadcrumb, search share against report's children share, the table's
# top row against report --no-children, a phone screen, the differential
# page, no console errors. Leaves a screenshot in $BUILD_DIR/artifacts.
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=${BUILD_DIR:-$ROOT/build}
PAGE=$B/tests/export_page
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

if ! command -v node >/dev/null 2>&1; then
	skip "html/svg in chromium: node is not installed (apt-get install nodejs npm)"; exit 0
fi
if [ ! -x "$CHROMIUM" ]; then
	skip "html/svg in chromium: $CHROMIUM is missing (apt-get install chromium)"; exit 0
fi
if [ ! -d "$ROOT/tests/browser/node_modules/playwright-core" ]; then
	skip "html/svg in chromium: playwright-core is not installed (cd tests/browser && npm ci)"; exit 0
fi
if [ ! -x "$PAGE" ] || [ ! -x "$HELPERS/demo" ]; then
	skip "html/svg in chromium: $PAGE or $HELPERS/demo not built (make tests helpers)"; exit 0
fi

F=$TMP/perf.data
if ! "$SONDE" record -q -g -o "$F" -- "$HELPERS/demo" 20 >/dev/null 2>"$TMP/rec.err"; then
	fail "html: sonde record -g of the demo failed: $(head -3 "$TMP/rec.err")"; exit 0
fi
# A second recording with one function's share changed for the diff page.
"$SONDE" record -q -g -o "$TMP/base.data" -- "$HELPERS/demo" 5 >/dev/null 2>&1
expect_ok "html: export_page writes the page" "$PAGE" html "$F" "$TMP/p.html"
expect_ok "svg: export_page writes the flame graph" "$PAGE" svg "$F" "$TMP/p.svg"
expect_ok "html diff: export_page writes the differential page" \
	"$PAGE" html "$F" "$TMP/d.html" "$TMP/base.data"

# report's answers: the top self row, and the children share of its caller.
"$SONDE" report -i "$F" --stdio --no-children -g none --percent-limit 0 2>/dev/null |
	grep -v '^#' | grep '%' >"$TMP/self.txt"
read -r top_pct _ _ _ top_sym _ < "$TMP/self.txt"
"$SONDE" report -i "$F" --stdio --children -g none 2>/dev/null | grep -v '^#' | grep '%' >"$TMP/children.txt"
# The search target: the heaviest named function other than the top one and main.
read -r search_pct _ _ _ _ search_sym _ < <(awk '$6 != "'"$top_sym"'" && $6 !~ /^(main|_start|__libc_start|\[)/' "$TMP/children.txt" | head -1)
# frames every demo profile shows, outermost first
cat >"$TMP/want.json" <<JSON
{ "html": "$TMP/p.html", "svg": "$TMP/p.svg", "diff": "$TMP/d.html",
  "shot": "$B/artifacts/html-profile.png",
  "frames": ["all", "main", "$top_sym"],
  "top": { "name": "$top_sym", "self": ${top_pct%\%} },
  "search": { "q": "^$search_sym\$", "share": ${search_pct%\%} } }
JSON
mkdir -p "$B/artifacts"
cp "$TMP/p.html" "$B/artifacts/html-profile.html"
cp "$TMP/p.svg" "$B/artifacts/flame.svg"
(cd "$ROOT/tests/browser" && timeout 240 node pictures.js "$TMP/want.json") 2>&1 |
	grep -E '^(PASS|FAIL|SKIP)|Error' || fail "html: the browser run printed nothing"
