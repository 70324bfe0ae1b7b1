#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Builds every libFuzzer target (tests/fuzz/fuzz_*.c) with clang and ASan+UBSan
# and runs each for a bounded time from its seed corpus. A crash fails the
# suite; a missing clang skips with the reason.
set -u
OUT=${1:-build-fuzz}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
SECS=${FUZZ_SECONDS:-10}
pass=0 fail=0 skip=0
targets=(tests/fuzz/fuzz_*.c)
if [ ! -e "${targets[0]}" ]; then
	echo "fuzz: no targets"; echo "0 0 0" >>"${RESULTS:-/dev/null}"; exit 0
fi
if ! command -v clang >/dev/null; then
	echo "SKIP: fuzz targets need clang (apt-get install clang libclang-rt-14-dev)"
	echo "0 0 ${#targets[@]}" >>"${RESULTS:-/dev/null}"; exit 0
fi
FLAGS="-std=c11 -D_GNU_SOURCE -g -O1 -Iinclude -Isrc/lib $(for d in src/lib/*/; do printf -- '-I%s ' "${d%/}"; done)-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -DSONDE_FUZZ"
mkdir -p "$OUT"
LIB_SRCS=$(ls src/lib/*.c src/lib/*/*.c 2>/dev/null)
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
	if "$bin" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
		"$work" >"$OUT/$name.run.log" 2>&1; then
		echo "PASS: fuzz $name ($(grep -o 'Done [0-9]* runs' "$OUT/$name.run.log"))"
		pass=$((pass + 1))
	else
		echo "FAIL: fuzz $name"; grep -A30 'ERROR' "$OUT/$name.run.log" | head -40
		fail=$((fail + 1))
	fi
done
echo "fuzz: $pass passed, $fail failed, $skip skipped"
[ -n "${RESULTS:-}" ] && echo "$pass $fail $skip" >>"$RESULTS"
[ $fail = 0 ]
