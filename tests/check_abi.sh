#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# The shared library exports exactly the symbols the version map lists, and
# each one starts with sonde_.
set -u
BUILD=${1:-build}
so=$(ls "$BUILD"/libsonde.so.*.*.* | head -1)
exported=$(nm -D --defined-only "$so" | awk '$2 ~ /[TDBRV]/ {print $3}' | sed 's/@.*//' | grep -v '^LIBSONDE_' | sort -u)
mapped=$(sed -n 's/^[[:space:]]*\(sonde_[A-Za-z0-9_]*\);.*/\1/p' src/lib/libsonde.map | sort -u)
bad=0
if [ "$exported" != "$mapped" ]; then
	echo "FAIL: exported symbols differ from src/lib/libsonde.map:"
	diff <(echo "$mapped") <(echo "$exported") | sed 's/^/  /'
	bad=1
fi
if grep -qv '^sonde_' <<<"$exported"; then
	echo "FAIL: exported symbols without the sonde_ prefix:"; grep -v '^sonde_' <<<"$exported"
	bad=1
fi
# sonde_ is the exported prefix: an internal function of the static
# library must not wear it (it would read as API and clash with users').
internal=$(nm --defined-only "$BUILD/libsonde.a" 2>/dev/null | awk '$2 ~ /[TDBR]/ {print $3}' |
	grep '^sonde_' | sort -u | comm -23 - <(echo "$exported"))
if [ -n "$internal" ]; then
	echo "FAIL: internal symbols with the exported prefix sonde_:"; sed 's/^/  /' <<<"$internal"
	bad=1
fi
[ $bad = 0 ] && echo "PASS: $(wc -l <<<"$exported") exported symbols, all versioned"
exit $bad
