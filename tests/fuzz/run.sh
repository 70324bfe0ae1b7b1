#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Builds every libFuzzer target (tests/fuzz/fuzz_*.c) with clang and ASan+UBSan
# and runs each for a bounded time (FUZZ_SECONDS, default 10: the smoke run
# of make check; make fuzz runs longer) from its checked-in corpus in
# tests/fuzz/corpus/<target>/, whose regress-* seeds are the crash inputs
# found so far. A crash fails the suite and its input is kept in OUT as
# <target>-crash-<sha1>; a missing clang skips with the reason. With
# FUZZ_MERGE=1, inputs that add coverage are merged into the checked-in
# corpus. FUZZ_TARGETS names a subset.
set -u
OUT=${1:-build-fuzz}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
SECS=${FUZZ_SECONDS:-10}
pass=0 fail=0 skip=0
targets=(tests/fuzz/fuzz_*.c)
# FUZZ_TARGETS="fuzz_ring fuzz_record" runs only those.
if [ -n "${FUZZ_TARGETS:-}" ]; then
	targets=()
	for n in $FUZZ_TARGETS; do targets+=("tests/fuzz/$n.c"); done
fi
if [ ! -e "${targets[0]}" ]; then
	echo "fuzz: no targets"; echo "0 0 0" >>"${RESULTS:-/dev/null}"; exit 0
fi
if ! command -v clang >/dev/null; then
	echo "SKIP: fuzz targets need clang (apt-get install clang libclang-rt-14-dev)"
	echo "0 0 ${#targets[@]}" >>"${RESULTS:-/dev/null}"; exit 0
fi
VERSION=$(awk '/^VERSION_(MAJOR|MINOR|PATCH) :=/ { v = v (v == "" ? "" : ".") $3 } END { print v }' Makefile)
FLAGS="-std=c11 -D_GNU_SOURCE -DSONDE_VERSION=\"$VERSION\" -g -O1 -Iinclude -Isrc/lib $(for d in src/lib/*/; do printf -- '-I%s ' "${d%/}"; done)-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -DSONDE_FUZZ"
mkdir -p "$OUT"
LIB_SRCS=$(ls src/lib/*.c src/lib/*/*.c 2>/dev/null)
# The HTML page's assets are C made at build time (Makefile HTML_ASSETS).
if ! make -s BUILD="$OUT" "$OUT/gen/html_assets.c" >"$OUT/assets.log" 2>&1; then
	echo "FAIL: fuzz builds: cannot generate the HTML assets"; cat "$OUT/assets.log"
	echo "0 ${#targets[@]} 0" >>"${RESULTS:-/dev/null}"; exit 1
fi
LIB_SRCS="$LIB_SRCS $OUT/gen/html_assets.c"
for t in "${targets[@]}"; do
	name=$(basename "$t" .c)
	bin="$OUT/$name"
	if ! clang $FLAGS "$t" $LIB_SRCS -o "$bin" -ldw -lelf -lz -lzstd -lm -lpthread 2>"$OUT/$name.log"; then
		echo "FAIL: fuzz build $name"; tail -20 "$OUT/$name.log"; fail=$((fail + 1)); continue
	fi
	corpus="tests/fuzz/corpus/$name"
	work="$OUT/corpus-$name"
	rm -rf "$work"; mkdir -p "$work"
	[ -d "$corpus" ] && cp -r "$corpus"/. "$work"/
	if [ ! -d "$corpus" ] || [ -z "$(ls -A "$corpus")" ]; then
		echo "FAIL: fuzz $name: no checked-in corpus in $corpus"
		fail=$((fail + 1)); continue
	fi
	if "$bin" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
		-artifact_prefix="$OUT/$name-" "$work" >"$OUT/$name.run.log" 2>&1; then
		echo "PASS: fuzz $name ($(grep -o 'Done [0-9]* runs' "$OUT/$name.run.log"))"
		pass=$((pass + 1))
		if [ "${FUZZ_MERGE:-0}" = 1 ] &&
		   "$bin" -merge=1 -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
			"$corpus" "$work" >"$OUT/$name.merge.log" 2>&1; then
			echo "fuzz $name: corpus now $(ls "$corpus" | wc -l) inputs"
		fi
	else
		echo "FAIL: fuzz $name"; grep -A30 'ERROR' "$OUT/$name.run.log" | head -40
		grep -o "Test unit written to .*" "$OUT/$name.run.log" |
			sed "s|\$| (keep it as $corpus/regress-<what> once fixed)|"
		fail=$((fail + 1))
	fi
done
echo "fuzz: $pass passed, $fail failed, $skip skipped"
[ -n "${RESULTS:-}" ] && echo "$pass $fail $skip" >>"$RESULTS"
[ $fail = 0 ]
