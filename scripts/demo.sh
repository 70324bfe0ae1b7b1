#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# `make demo`: profile the bundled demo workload end to end — count it with
# sonde stat, sample it with sonde record -g, and show where the time went
# with sonde report. Output files go to demo-out/.
set -euo pipefail
cd "$(dirname "$0")/.."
SONDE=build/sonde
DEMO=build/helpers/demo
OUT=demo-out
mkdir -p "$OUT"

echo "== sonde stat -- $DEMO"
"$SONDE" stat -- "$DEMO" 20

echo
echo "== sonde record -g -o $OUT/perf.data -- $DEMO"
"$SONDE" record -g -o "$OUT/perf.data" -- "$DEMO" 20

echo
echo "== sonde report -i $OUT/perf.data --no-children --percent-limit 2"
"$SONDE" report -i "$OUT/perf.data" --no-children --percent-limit 2 --stdio

echo
echo "== sonde report -i $OUT/perf.data (children, with call graphs), first 40 lines"
"$SONDE" report -i "$OUT/perf.data" --stdio | head -40

# The interactive HTML profile: one file, open it in any browser.
echo "== sonde export --format html -i $OUT/perf.data -o $OUT/perf.html"
"$SONDE" export --format html -i "$OUT/perf.data" -o "$OUT/perf.html"
echo "open $OUT/perf.html in a browser: flame graph, top functions, search"
