#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# `make check`: build and test normally, then under ASan+UBSan, then smoke-run
# every fuzz target for a bounded time. Ends with one "N passed, N failed"
# line for CI.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
JOBS=$(nproc 2>/dev/null || echo 2)
export RESULTS
RESULTS=$(mktemp)
trap 'rm -f "$RESULTS"' EXIT
build_failed=0

# Each step says when it starts, so a slow one shows in CI's log.
step() { echo "== $* (at $SECONDS s)"; }

step "build (gcc)"
if make -s -j"$JOBS" all tests examples helpers; then
	# The plain pass runs the CLI tests on sonde linked to libsonde.so (only
	# exported symbols), the sanitizer pass on the static one.
	shared_cli=
	if make -s -j"$JOBS" shared-cli 2>build/shared-cli.log; then
		shared_cli=$ROOT/build/shared/sonde
		echo "PASS: sonde links against libsonde.so"; echo "1 0 0" >>"$RESULTS"
	else
		echo "FAIL: sonde does not link against libsonde.so"; tail -20 build/shared-cli.log
		echo "0 1 0" >>"$RESULTS"
	fi
	step "tests (build${shared_cli:+, sonde on libsonde.so})"
	SONDE_CLI=$shared_cli tests/run_suite.sh build plain
	step "ABI export check"
	if tests/check_abi.sh build; then echo "1 0 0" >>"$RESULTS"; else echo "0 1 0" >>"$RESULTS"; fi
	step "layer check"
	if tests/check_layers.sh build; then echo "1 0 0" >>"$RESULTS"; else echo "0 1 0" >>"$RESULTS"; fi
	step "CLI include check"
	if tests/check_cli_includes.sh; then echo "1 0 0" >>"$RESULTS"; else echo "0 1 0" >>"$RESULTS"; fi
else
	echo "FAIL: build"; build_failed=1
fi

step "build (clang, -Werror)"
if command -v clang >/dev/null; then
	if make -s -j"$JOBS" CC=clang BUILD=build-clang all tests examples; then
		echo "PASS: clang build"; echo "1 0 0" >>"$RESULTS"
	else
		echo "FAIL: clang build"; echo "0 1 0" >>"$RESULTS"
	fi
else
	echo "SKIP: clang build (clang not installed)"; echo "0 0 1" >>"$RESULTS"
fi

step "build (ASan+UBSan)"
if make -s -j"$JOBS" SAN=1 BUILD=build-san all tests examples helpers; then
	step "tests (ASan+UBSan)"
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
		tests/run_suite.sh build-san sanitized
else
	echo "FAIL: sanitizer build"; build_failed=1
fi

step "fuzz smoke"
tests/fuzz/run.sh build-fuzz

step "done"
read -r pass fail skip < <(awk '{p+=$1; f+=$2; s+=$3} END {print p+0, f+0, s+0}' "$RESULTS")
fail=$((fail + build_failed))
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
