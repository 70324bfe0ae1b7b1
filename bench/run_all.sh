#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Runs every benchmark in bench/ (each prints its own medians and ratios).
set -u
BUILD=${1:-build}
cd "$(dirname "$0")/.."
export SONDE="$PWD/$BUILD/sonde" HELPERS="$PWD/$BUILD/helpers" BUILD_DIR="$PWD/$BUILD"
for b in bench/*.sh; do
	[ "$b" = bench/run_all.sh ] && continue
	echo "== $b"
	bash "$b" || echo "bench $b failed (exit $?)"
done
