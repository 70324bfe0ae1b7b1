#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Builds and runs bench/region_read.c: the region API's group read against
# the bare read(2) on the group leader (prints medians and the ratio).
set -u
BUILD_DIR=${BUILD_DIR:-$PWD/build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
cc -O2 -std=c11 -D_GNU_SOURCE -I"$ROOT/include" "$ROOT/bench/region_read.c" \
	"$BUILD_DIR/libsonde.a" -ldw -lelf -lz -lzstd -lm -lpthread -o "$TMP/region_read" || exit 1
"$TMP/region_read" "${REGION_BENCH_REPS:-15}"
