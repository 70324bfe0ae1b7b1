#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Symbol lookup: sonde's symbolizer vs `addr2line -f -C` resolving the same
# random text addresses of the same binary (whole process, load included),
# repeated; prints medians and the ratio. Also the in-memory lookup rate.
set -u
BUILD_DIR=${BUILD_DIR:-$PWD/build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
N=${SYM_BENCH_ADDRS:-20000}
REPS=${SYM_BENCH_REPS:-5}
command -v addr2line >/dev/null || { echo "SKIP: addr2line (binutils) not installed"; exit 0; }
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
drv=$TMP/sym_lookup
cc -O2 -std=c11 -D_GNU_SOURCE -I"$ROOT/include" "$ROOT/bench/sym_lookup.c" \
	"$BUILD_DIR/libsonde.a" -ldw -lelf -lz -lzstd -lm -lpthread -o "$drv" || exit 1

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

# Subjects: this build's test binary (PIE, .symtab), libc (symbols from its
# separate debug file when libc6-dbg is installed, else .dynsym) and, when
# present, the large libLLVM (.dynsym only, ~34k functions).
for bin in "$BUILD_DIR/tests/test_symbols" \
	"$(readlink -f /usr/lib/x86_64-linux-gnu/libc.so.6)" \
	/usr/lib/llvm-14/lib/libLLVM-14.so.1; do
	[ -r "$bin" ] || continue
	"$drv" gen "$bin" "$N" 7 >"$TMP/addrs" || continue
	sonde_t=() a2l_t=()
	for _ in $(seq "$REPS"); do
		t=$(date +%s%N); "$drv" resolve "$bin" <"$TMP/addrs" >"$TMP/s.out"; sonde_t+=($(ms $t))
		t=$(date +%s%N); addr2line -f -C -e "$bin" <"$TMP/addrs" >"$TMP/a.out"; a2l_t+=($(ms $t))
	done
	# Same answers? addr2line prints name + file:line per address; with
	# DWARF it names the innermost inlined function, so some differ by
	# design. GCC clone suffixes (.part.0, .cold, ...) are ignored.
	agree=$(paste -d'|' "$TMP/s.out" <(awk 'NR%2==1' "$TMP/a.out") |
		awk -F'|' '{a=$1; b=$2; sub(/[.](part|cold|constprop|isra|llvm|lto_priv)[.0-9]*$/, "", a)
			sub(/[.](part|cold|constprop|isra|llvm|lto_priv)[.0-9]*$/, "", b)} a==b' | wc -l)
	s=$(printf '%s\n' "${sonde_t[@]}" | median)
	a=$(printf '%s\n' "${a2l_t[@]}" | median)
	echo "$(basename "$bin"): $N addresses: sonde ${s} ms, addr2line -f -C ${a} ms, ratio $(awk -v a="$a" -v s="$s" 'BEGIN{printf "%.1fx", (s>0 ? a/s : a)}') (names agree on $agree/$N)"
	echo "  in-memory: $("$drv" hot "$bin" 2000000)"
done
