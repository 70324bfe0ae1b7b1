#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Lists the unit tests that run against libsonde.so as well as libsonde.a:
# every quoted include is "sonde/...", a helper of tests/unit or a header
# of src/cli (by name), each of which in turn includes only such headers.
# src/cli sees the library's public API alone (tests/check_cli_includes.sh),
# so its objects link to libsonde.so too. The Makefile builds these a
# second time against libsonde.so (without src/lib on the include path),
# so a symbol missing from the version map fails them.
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

for t in tests/unit/test_*.c; do
	public_only "$t" && echo "$t"
done
exit 0
