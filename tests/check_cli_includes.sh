#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# The sonde command is a user of libsonde like any other: src/cli includes
# public headers (<sonde/...> or "sonde/...") and its own, never one of
# src/lib's private headers, without exception: what the command needs
# from the library is public API first. Prints one PASS/FAIL line, exits
# non-zero on a violation.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

bad=0
for f in src/cli/*.c src/cli/*.h; do
	while read -r inc; do
		# By name only: a path ("../lib/...") would reach any header.
		case $inc in
		*..*) ;;
		sonde/*) continue ;;
		*/*) ;;
		*) [ -e "src/cli/$inc" ] && continue ;;
		esac
		echo "  $f includes $inc (not public, not the command's own)"
		bad=1
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
	# <...> is for the system and <sonde/...>; a private header there too is caught.
	while read -r inc; do
		for d in src/lib/*/; do
			[ -e "$d$inc" ] && { echo "  $f includes <$inc> from $d"; bad=1; }
		done
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*<\([^>]*\)>.*/\1/p' "$f")
done
if [ $bad = 0 ]; then
	echo "PASS: src/cli includes only public headers and its own"
else
	echo "FAIL: src/cli includes only public headers and its own"
	exit 1
fi
