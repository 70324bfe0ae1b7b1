#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# The sonde command is a user of libsonde like any other: src/cli includes
# public headers (<sonde/...> or "sonde/...") and its own, never one of
# src/lib's private headers. ALLOWED lists the exceptions still waiting
# for their public API (issue 9: report/script on the public profile);
# it only shrinks. Prints one PASS/FAIL line, exits non-zero on a violation.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

ALLOWED=(
	"src/cli/cmd-report-header.c perfdata_read.h"
)

# --allowed: how many exceptions are left (make check's shared-library pass).
[ "${1:-}" = --allowed ] && { echo "${#ALLOWED[@]}"; exit 0; }

bad=0
used=()
for f in src/cli/*.c src/cli/*.h; do
	while read -r inc; do
		case $inc in
		sonde/*) continue ;;
		esac
		[ -e "src/cli/$inc" ] && continue
		if printf '%s\n' "${ALLOWED[@]}" | grep -qxF "$f $inc"; then
			used+=("$f $inc")
			continue
		fi
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
# A stale exception would let the include come back unnoticed.
for a in "${ALLOWED[@]}"; do
	printf '%s\n' "${used[@]}" | grep -qxF "$a" ||
		{ echo "  allowed but no longer included (remove it from ALLOWED): $a"; bad=1; }
done

if [ $bad = 0 ]; then
	echo "PASS: src/cli includes only public headers and its own (${#ALLOWED[@]} allowed exceptions)"
else
	echo "FAIL: src/cli includes only public headers and its own"
	exit 1
fi
