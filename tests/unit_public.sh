#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Lists the unit tests that use libsonde's public API only: every quoted
# include is "sonde/..." or a helper of tests/unit that itself includes
# only public headers. The Makefile builds these a second time against
# libsonde.so (without src/lib on the include path), so a symbol missing
# from the version map fails them.
set -u
cd "$(dirname "$0")/.."

public_only() { # FILE
	local inc
	while read -r inc; do
		case $inc in
		sonde/*) ;;
		*) [ -e "tests/unit/$inc" ] && public_only "tests/unit/$inc" || return 1 ;;
		esac
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$1")
}

for t in tests/unit/test_*.c; do
	public_only "$t" && echo "$t"
done
exit 0
