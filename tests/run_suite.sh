#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Runs one build's tests: cmocka unit tests, end-to-end CLI tests and the
# examples. Appends "passed failed skipped" to $RESULTS (if set) and prints
# the build's own summary line.
set -u
BUILD=${1:-build}
LABEL=${2:-$BUILD}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
source tests/run_group.sh
pass=0 fail=0 skip=0
failed_names=()

# Tracepoint tests need tracefs, which a fresh boot may not have mounted.
# The CLI tests mount it on demand (lib.sh), so the unit tests before them
# skipped in the first pass and ran in the second: mount it first.
if [ ! -d /sys/kernel/tracing/events ] && [ "$(id -u)" = 0 ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
fi

# cmocka tests: read their own summary lines. tests-shared/ holds the
# public-API tests linked to libsonde.so (the static ones are in tests/).
for t in "$BUILD"/tests/test_* "$BUILD"/tests-shared/test_*; do
	[ -x "$t" ] || continue
	name=$(basename "$(dirname "$t")")/$(basename "$t")
	start=$SECONDS
	out=$(CMOCKA_MESSAGE_OUTPUT=stdout run_group 300 "$t" 2>&1)
	rc=$?
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' <<<"$out" | tail -1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' <<<"$out" | tail -1)
	s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' <<<"$out" | tail -1)
	p=${p:-0} f=${f:-0} s=${s:-0}
	if [ $rc -ne 0 ] && [ "$f" = 0 ]; then
		f=1 # crashed or timed out before its summary
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	if [ "$f" != 0 ] || [ -n "${VERBOSE:-}" ]; then
		echo "$out"
	else
		# Skips must say why, even when everything else is quiet.
		grep -E '^(SKIP|\[  SKIPPED \]\s+test)' <<<"$out" || true
	fi
	[ "$f" != 0 ] && failed_names+=("$name")
	echo "$LABEL: $name: $p passed, $f failed, $s skipped ($((SECONDS - start)) s)"
done

# CLI tests: each script prints PASS/FAIL/SKIP lines through tests/cli/lib.sh.
# $SONDE_CLI picks another binary of the build (make check: the one on
# libsonde.so, $BUILD/shared/sonde).
export SONDE="${SONDE_CLI:-$ROOT/$BUILD/sonde}" HELPERS="$ROOT/$BUILD/helpers" BUILD_DIR="$ROOT/$BUILD"
for t in tests/cli/test_*.sh; do
	[ -f "$t" ] || continue
	start=$SECONDS
	out=$(run_group 600 bash "$t" 2>&1)
	rc=$?
	p=$(grep -c '^PASS' <<<"$out")
	f=$(grep -c '^FAIL' <<<"$out")
	s=$(grep -c '^SKIP' <<<"$out")
	if [ $rc -ne 0 ] && [ "$f" = 0 ]; then
		f=1
		echo "FAIL: $t exited $rc"
	fi
	grep -E '^(FAIL|SKIP)' <<<"$out" || true
	if [ "$f" != 0 ]; then
		echo "$out" | tail -40
		failed_names+=("$(basename "$t")")
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	echo "$LABEL: $(basename "$t"): $p passed, $f failed, $s skipped ($((SECONDS - start)) s)"
done

# Examples: each must run and exit 0 (77 = skipped, with its reason printed).
for e in "$BUILD"/examples/*; do
	[ -x "$e" ] || continue
	out=$(run_group 60 "$e" 2>&1)
	rc=$?
	case $rc in
	0) pass=$((pass + 1)) ;;
	77) skip=$((skip + 1)); echo "SKIP example $(basename "$e"): $out" ;;
	*) fail=$((fail + 1)); failed_names+=("example $(basename "$e")")
	   echo "FAIL example $(basename "$e") (exit $rc):"; echo "$out" | tail -20 ;;
	esac
done

[ ${#failed_names[@]} -gt 0 ] && echo "$LABEL failures: ${failed_names[*]}"
echo "$LABEL: $pass passed, $fail failed, $skip skipped in $SECONDS s"
[ -n "${RESULTS:-}" ] && echo "$pass $fail $skip" >>"$RESULTS"
[ "$fail" = 0 ]
