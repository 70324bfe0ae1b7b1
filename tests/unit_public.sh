#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Picks the unit tests that run against libsonde.so as well as libsonde.a.
#
#   tests/unit_public.sh            list them (the Makefile builds each a
#                                   second time into BUILD/tests-shared/)
#   tests/unit_public.sh --check BUILD
#                                   fail if a test built in
#                                   BUILD/tests-shared/ reached a header of
#                                   src/lib (by its compiler's .d file), or
#                                   if a static-only test does not say why
#
# A test qualifies when every quoted include is "sonde/...", a helper of
# tests/unit or a header of src/cli (by name), each of which in turn
# includes only such headers: src/cli sees the library's public API alone
# (tests/check_cli_includes.sh), so its objects link to libsonde.so too.
# The shared build has no src/lib on its include path and resolves only
# exported symbols, so a symbol the version map misses fails it.
# A test that keeps a private include must say why in a comment line
# "Static-only: <reason>" (it tests internals no public API reaches).
set -u
cd "$(dirname "$0")/.."

public_only() { # FILE
	local inc
	while read -r inc; do
		case $inc in
		sonde/*) ;;
		*/*) return 1 ;; # a path could reach any header
		*) if [ -e "tests/unit/$inc" ]; then public_only "tests/unit/$inc" || return 1
		   elif [ -e "src/cli/$inc" ]; then public_only "src/cli/$inc" || return 1
		   else return 1; fi ;;
		esac
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$1")
}

if [ "${1:-}" != --check ]; then
	for t in tests/unit/test_*.c; do
		public_only "$t" && echo "$t"
	done
	exit 0
fi

BUILD=${2:?usage: $0 --check BUILD}
bad=0 shared=0 static=0
for t in tests/unit/test_*.c; do
	n=$(basename "$t" .c)
	if public_only "$t"; then
		shared=$((shared + 1))
		d=$BUILD/tests-shared/$n.d
		if [ ! -e "$d" ]; then
			echo "  $n: not built in $BUILD/tests-shared/"; bad=1
		elif grep -q 'src/lib/' "$d"; then
			echo "  $n: its libsonde.so build includes $(grep -o '[^ ]*src/lib/[^ :]*' "$d" | sort -u | tr '\n' ' ')"
			bad=1
		fi
	else
		static=$((static + 1))
		grep -q '^[[:space:]/*]*Static-only: [^[:space:]]' "$t" ||
			{ echo "  $n: static-only (a private include) without a \"Static-only: <why>\" line"; bad=1; }
	fi
done
if [ $bad = 0 ]; then
	echo "PASS: unit tests on both libraries: $shared, static-only (each says why): $static"
else
	echo "FAIL: unit tests on both libraries: $shared, static-only: $static"
	exit 1
fi
