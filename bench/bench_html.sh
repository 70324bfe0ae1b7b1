#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# The HTML profile at scale (issue 10's targets, not pass/fail tests): a
# generated 1M-sample file with 100k distinct 12-frame stacks, exported
# as HTML; the file against its gzipped folded text (target <= 3x), and
# in headless Chromium, as measured by the page with performance.now(),
# the first draw of the flame graph from navigation start (target < 1 s)
# and the median zoom (target < 50 ms); the timeline's decode and a
# range drag's refilter, for the record. Medians of RUNS page loads.
#
#   RUNS=5   page loads
#   NR=1000000 STACKS=100000   the generated profile
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build}
RUNS=${RUNS:-5}
NR=${NR:-1000000}
STACKS=${STACKS:-100000}
WORK=${BENCH_DIR:-$BUILD_DIR/bench}
SONDE=${SONDE:-$BUILD_DIR/sonde}
GEN=$BUILD_DIR/helpers/gen_perfdata
mkdir -p "$WORK"

for x in "$SONDE" "$GEN"; do
	[ -x "$x" ] || { echo "SKIP: $x not built (make all helpers)"; exit 0; }
done
command -v node >/dev/null || { echo "SKIP: node is not installed"; exit 0; }
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "SKIP: chromium is not installed"; exit 0; }
[ -d "$ROOT/tests/browser/node_modules/playwright-core" ] ||
	{ echo "SKIP: playwright-core missing (cd tests/browser && npm ci)"; exit 0; }

F=$WORK/html-$NR-$STACKS.data
[ -s "$F" ] || "$GEN" "$F" "$NR" 12 "$STACKS" each >/dev/null || { echo "FAIL: gen_perfdata"; exit 1; }
"$SONDE" export --format html -i "$F" -o "$WORK/html.html" || { echo "FAIL: export html"; exit 1; }
"$SONDE" export --format folded -i "$F" -o "$WORK/html.folded" || { echo "FAIL: export folded"; exit 1; }
html=$(stat -c %s "$WORK/html.html")
fgz=$(gzip -c "$WORK/html.folded" | wc -c)
echo "profile: $NR samples, $(wc -l <"$WORK/html.folded") distinct stacks"
awk -v h="$html" -v g="$fgz" 'BEGIN { printf "size: html %.2f MB, gzipped folded %.2f MB, ratio %.2fx (target <= 3x)\n", h / 1e6, g / 1e6, h / g }'

for i in $(seq "$RUNS"); do
	node "$ROOT/bench/bench_html.js" "$WORK/html.html" 21 || { echo "FAIL: page load"; exit 1; }
done >"$WORK/html.runs"
median() { # FIELD
	sed -n 's/.*"'"$1"'":\([0-9.]*\).*/\1/p' "$WORK/html.runs" | sort -n |
		awk '{ v[NR] = $1 } END { printf "%.0f", v[int((NR + 1) / 2)] }'
}
echo "first draw: median $(median drawn) ms of $RUNS loads (target < 1000 ms)"
echo "zoom: median of per-load medians $(median zoomMedian) ms (target < 50 ms)"
if grep -q timelineReady "$WORK/html.runs"; then
	echo "timeline: samples decoded at median $(median timelineReady) ms; a range drag refilters every view in $(median rangeFilter) ms"
fi
