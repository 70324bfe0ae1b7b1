#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Builds every libFuzzer target (tests/fuzz/fuzz_*.c) with clang and ASan+UBSan
# and runs each for a bounded time (FUZZ_SECONDS, default 10: the smoke run
# of make check; make fuzz runs longer), as many at once as there are CPUs,
# from its checked-in corpus in
# tests/fuzz/corpus/<target>/, whose regress_* seeds are the crash inputs
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
# The library is compiled once for every target, nproc files at a time,
# and only the files newer than their object (or than a header: any header
# change recompiles all); each target links the archive. Compiling all of
# it into every target took twelve times as long.
mkdir -p "$OUT/obj"
newest_h=$(find include src/lib -name '*.h' -newer "$OUT/libsonde-fuzz.a" 2>/dev/null | head -1)
[ -e "$OUT/libsonde-fuzz.a" ] || newest_h=all
stale=()
objs=()
for s in $LIB_SRCS; do
	o="$OUT/obj/$(echo "${s%.c}" | tr / _).o"
	objs+=("$o")
	if [ -n "$newest_h" ] || [ ! -e "$o" ] || [ "$s" -nt "$o" ]; then
		stale+=("$s")
	fi
done
if [ ${#stale[@]} -gt 0 ]; then
	# shellcheck disable=SC2016 # $1/$2 are the inner shell's
	if ! printf '%s\n' "${stale[@]}" |
	     xargs -P "$(nproc 2>/dev/null || echo 2)" -I{} sh -c \
		'o="$2/obj/$(echo "${1%.c}" | tr / _).o"; clang $3 -c "$1" -o "$o" 2>"$o.log" || { cat "$o.log"; exit 1; }; rm -f "$o.log"' \
		sh {} "$OUT" "$FLAGS" >"$OUT/lib.log" 2>&1 ||
	   ! { rm -f "$OUT/libsonde-fuzz.a"; ar rcs "$OUT/libsonde-fuzz.a" "${objs[@]}"; }; then
		echo "FAIL: fuzz builds: the library does not compile"; head -40 "$OUT/lib.log"
		echo "0 ${#targets[@]} 0" >>"${RESULTS:-/dev/null}"; exit 1
	fi
fi
# fuzz_one NAME: runs one built target from a copy of its corpus; its
# report goes to $OUT/NAME.result, "PASS"/"FAIL" on the first line.
fuzz_one() {
	local name=$1 bin="$OUT/$1" corpus="tests/fuzz/corpus/$1" work="$OUT/corpus-$1"
	rm -rf "$work"; mkdir -p "$work"
	cp -r "$corpus"/. "$work"/
	if "$bin" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
		-artifact_prefix="$OUT/$name-" "$work" >"$OUT/$name.run.log" 2>&1; then
		echo "PASS: fuzz $name ($(grep -o 'Done [0-9]* runs' "$OUT/$name.run.log"))"
		if [ "${FUZZ_MERGE:-0}" = 1 ] &&
		   "$bin" -merge=1 -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
			"$corpus" "$work" >"$OUT/$name.merge.log" 2>&1; then
			echo "fuzz $name: corpus now $(ls "$corpus" | wc -l) inputs"
		fi
	else
		echo "FAIL: fuzz $name"; grep -A30 'ERROR' "$OUT/$name.run.log" | head -40
		grep -o "Test unit written to .*" "$OUT/$name.run.log" |
			sed "s|\$| (keep it as $corpus/regress_<what> once fixed)|"
	fi >"$OUT/$name.result"
}

# Link every target, then fuzz them nproc at a time: each gets a core for
# its FUZZ_SECONDS, and the smoke run takes 12/nproc times FUZZ_SECONDS.
ran=()
for t in "${targets[@]}"; do
	name=$(basename "$t" .c)
	if ! clang $FLAGS "$t" "$OUT/libsonde-fuzz.a" -o "$OUT/$name" -ldw -lelf -lz -lzstd -lm -lpthread 2>"$OUT/$name.log"; then
		echo "FAIL: fuzz build $name"; tail -20 "$OUT/$name.log"; fail=$((fail + 1)); continue
	fi
	if [ ! -d "tests/fuzz/corpus/$name" ] || [ -z "$(ls -A "tests/fuzz/corpus/$name")" ]; then
		echo "FAIL: fuzz $name: no checked-in corpus in tests/fuzz/corpus/$name"
		fail=$((fail + 1)); continue
	fi
	ran+=("$name")
done
jobs_max=$(nproc 2>/dev/null || echo 2)
for name in "${ran[@]}"; do
	while [ "$(jobs -pr | wc -l)" -ge "$jobs_max" ]; do wait -n; done
	fuzz_one "$name" &
done
wait
for name in "${ran[@]}"; do
	cat "$OUT/$name.result"
	if head -1 "$OUT/$name.result" | grep -q '^PASS'; then pass=$((pass + 1))
	else fail=$((fail + 1)); fi
done
echo "fuzz: $pass passed, $fail failed, $skip skipped"
[ -n "${RESULTS:-}" ] && echo "$pass $fail $skip" >>"$RESULTS"
[ $fail = 0 ]
