#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Symbol sources of `sonde report` / `sonde script` beyond the object's own
# .symtab, each checked against perf 6.1 on a file perf records here:
# Rust demangling, JIT maps (/tmp/perf-PID.map, owner checked), build-id
# checks (binary replaced after recording; perf's build-id cache) and
# .gnu_debuglink debug files.
source "$(dirname "$0")/lib.sh"

need_perf "symbol sources"
# perf record fills a build-id cache in $HOME/.debug, which lib.sh keeps in
# $TMP; changing HOME hides it below.

# rows FILE PATTERN: "dso sym<TAB>pct" of the report rows matching PATTERN.
rows() {
	awk -v pat="$2" '/^ +[0-9]+\.[0-9]+%  / && $0 ~ pat {
		pct = $1; sub(/%/, "", pct)
		line = $0; sub(/^ +[0-9.]+%  +/, "", line); gsub(/  +/, " ", line)
		print line "\t" pct }' "$1" | sort
}

# same_rows NAME PERF_REPORT SONDE_REPORT PATTERN: the matching rows agree
# (same keys, percentages within 0.1 points); 0 when they do.
same_rows() {
	rows "$2" "$4" >"$TMP/p.rows"
	rows "$3" "$4" >"$TMP/s.rows"
	if [ ! -s "$TMP/p.rows" ]; then
		fail "$1: perf shows no row matching '$4'"
		return 1
	fi
	bad=$(join -t $'\t' -a1 -a2 -e MISSING -o 0,1.2,2.2 "$TMP/p.rows" "$TMP/s.rows" |
		awk -F'\t' '$2 == "MISSING" || $3 == "MISSING" ||
			($2 - $3 > 0.1 || $3 - $2 > 0.1) { print }' | head -3)
	if [ -n "$bad" ]; then
		fail "$1: rows differ from perf's (key, perf %, sonde %): $bad"
		return 1
	fi
	pass "$1: $(wc -l <"$TMP/p.rows") rows agree with perf ($(head -1 "$TMP/p.rows" | tr '\t' ' ')%)"
}

# same_frames NAME DATA PATTERN: perf script and sonde script name the
# same frames (ip sym) matching PATTERN, as many times.
same_frames() {
	perf script -i "$2" -F ip,sym 2>/dev/null | awk -v pat="$3" '$0 ~ pat { print $1, $2 }' |
		sort | uniq -c >"$TMP/p.scr"
	"$SONDE" script -i "$2" -F ip,sym 2>/dev/null | awk -v pat="$3" '$0 ~ pat { print $1, $2 }' |
		sort | uniq -c >"$TMP/s.scr"
	if [ ! -s "$TMP/p.scr" ]; then
		fail "$1: perf script shows no frame matching '$3'"
	elif cmp -s "$TMP/p.scr" "$TMP/s.scr"; then
		pass "$1: $(awk '{ n += $1 } END { print n }' "$TMP/p.scr") frames agree with perf script"
	else
		fail "$1: frames differ from perf script: $(diff "$TMP/p.scr" "$TMP/s.scr" | head -4 | tr '\n' ' ')"
	fi
}

report_pair() { # DATA: $TMP/p.rep and $TMP/s.rep (stderr in $TMP/s.err)
	perf report -i "$1" --stdio --no-children --sort dso,sym >"$TMP/p.rep" 2>/dev/null
	"$SONDE" report -i "$1" --no-children --sort dso,sym >"$TMP/s.rep" 2>"$TMP/s.err"
}

### Rust: legacy names without their hash, v0 names, like perf 6.1.
if ! command -v rustc >/dev/null 2>&1; then
	skip "rust: rustc is not installed (the names alone: tests/unit/test_profile_syms.c)"
else
	cat >"$TMP/r.rs" <<'RS'
use std::hint::black_box;
mod inner {
    pub struct Spin<T>(pub T);
    impl<T: Copy + Into<u64>> Spin<T> {
        #[inline(never)]
        pub fn spin_generic(&self, n: u64) -> u64 {
            let mut a: u64 = self.0.into();
            for i in 0..n { a = std::hint::black_box(a.wrapping_mul(31).wrapping_add(i)); }
            a
        }
    }
    #[inline(never)]
    pub fn spin_plain(n: u64) -> u64 {
        let mut a = 1u64;
        for i in 0..n { a = std::hint::black_box(a ^ i.rotate_left(3)); }
        a
    }
}
fn main() {
    let s = inner::Spin(3u32);
    let mut t = 0u64;
    for _ in 0..15 { t ^= s.spin_generic(black_box(2_000_000)); t ^= inner::spin_plain(black_box(2_000_000)); }
    println!("{}", t);
}
RS
	for v in legacy v0; do
		mv=""
		[ $v = v0 ] && mv="-C symbol-mangling-version=v0" # legacy: the default
		if ! rustc -O -C force-frame-pointers=yes $mv \
			-o "$TMP/rs_$v" "$TMP/r.rs" 2>"$TMP/rustc.err"; then
			skip "rust $v: rustc failed: $(head -c 200 "$TMP/rustc.err")"
			continue
		fi
		if ! perf_rec "$TMP/rs_$v.data" -e cpu-clock -c 200000 "$TMP/rs_$v"; then
			skip "rust $v: perf record failed: $(head -c 200 "$TMP/rec.err")"
			continue
		fi
		report_pair "$TMP/rs_$v.data"
		same_rows "rust $v report" "$TMP/p.rep" "$TMP/s.rep" "::spin_"
		if grep -q '::h[0-9a-f]\{16\}\|_ZN\|_RN' "$TMP/s.rep"; then
			fail "rust $v: a mangled name or a hash is left: $(grep -m1 '::h[0-9a-f]\{16\}\|_ZN\|_RN' "$TMP/s.rep")"
		fi
		same_frames "rust $v script" "$TMP/rs_$v.data" "::spin_"
	done
fi

### JIT: code in anonymous executable memory, named by /tmp/perf-PID.map.
W="$HELPERS/jit_workload"
if [ ! -x "$W" ]; then
	skip "jit: $W not built (make helpers)"
elif ! perf record -q -g -e cpu-clock -c 200000 -o "$TMP/jit.data" \
	"$W" 300 >"$TMP/jit.out" 2>"$TMP/rec.err"; then
	skip "jit: perf record failed (exit $?; 77: not x86-64): $(head -c 200 "$TMP/rec.err")"
else
	JITMAP=$(head -1 "$TMP/jit.out")
	trap 'rm -f "$JITMAP"; cli_cleanup' EXIT
	report_pair "$TMP/jit.data"
	same_rows "jit report" "$TMP/p.rep" "$TMP/s.rep" "jit_spin_"
	contains "jit report: [JIT] tid rows" '\[JIT\] tid [0-9]+ +\[\.\] jit_spin_hot' "$TMP/s.rep"
	same_frames "jit script" "$TMP/jit.data" "jit_spin_"
	# Someone else's map file in /tmp is not trusted.
	if [ "$(id -u)" != 0 ]; then
		skip "jit owner: needs root to chown the map file to nobody"
	elif chown nobody "$JITMAP"; then
		"$SONDE" report -i "$TMP/jit.data" --no-children --sort dso,sym \
			>"$TMP/s.rep" 2>"$TMP/s.err"
		if ! grep -q "$JITMAP.*owned by uid.*refusing" "$TMP/s.err"; then
			fail "jit owner: no warning for a map file owned by nobody: $(head -c 300 "$TMP/s.err")"
		elif grep -q jit_spin_ "$TMP/s.rep"; then
			fail "jit owner: names read from a map file owned by nobody"
		elif [ "$(grep -c "$JITMAP" "$TMP/s.err")" != 1 ]; then
			fail "jit owner: the warning is not given once: $(cat "$TMP/s.err")"
		else
			pass "jit owner: a map file owned by nobody is refused with a warning"
		fi
	fi
fi

### Build ids: the binary is replaced after the recording.
W="$HELPERS/report_workload"
mkdir -p "$TMP/bid" "$TMP/nocache"
cp "$W" "$TMP/bid/wl"
if ! perf record -q -g -e cpu-clock -c 200000 -o "$TMP/bid.data" \
	"$TMP/bid/wl" single 150 >/dev/null 2>"$TMP/rec.err"; then
	skip "build id: perf record failed: $(head -c 200 "$TMP/rec.err")"
else
	# A new file (perf's cache hard-links the old one): a rebuild.
	rm "$TMP/bid/wl"
	cp "$HELPERS/statload" "$TMP/bid/wl"
	# perf record put the recorded copy in $HOME/.debug: names come back.
	report_pair "$TMP/bid.data"
	same_rows "build id, cached copy" "$TMP/p.rep" "$TMP/s.rep" " wl +\[\.\] "
	contains "build id, cached copy: leaf_spin" ' wl +\[\.\] leaf_spin' "$TMP/s.rep"
	same_frames "build id, cached copy: script" "$TMP/bid.data" "leaf_spin|inner_a|outer_b"
	# Without that cache: a warning, and no name taken from the new file.
	HOME="$TMP/nocache" "$SONDE" report -i "$TMP/bid.data" --no-children \
		--sort dso,sym >"$TMP/s.rep" 2>"$TMP/s.err"
	named=$(awk '/^ +[0-9.]+%/ && $2 == "wl" && $4 !~ /^0x/' "$TMP/s.rep")
	if [ "$(grep -c "$TMP/bid/wl changed since the recording" "$TMP/s.err")" != 1 ]; then
		fail "build id, no copy: not one warning naming the file: $(head -c 400 "$TMP/s.err")"
	elif [ -n "$named" ]; then
		fail "build id, no copy: names from the replaced file: $(echo "$named" | head -2)"
	elif ! grep -qE ' wl +\[\.\] 0x' "$TMP/s.rep"; then
		fail "build id, no copy: no [unknown] rows for wl: $(head -c 400 "$TMP/s.rep")"
	else
		pass "build id, no copy: warned once, wl rows unnamed"
	fi
	HOME="$TMP/nocache" "$SONDE" script -i "$TMP/bid.data" >"$TMP/s.scr" 2>/dev/null
	if grep -q "(/.*bid/wl)" "$TMP/s.scr" &&
	   ! grep "(/.*bid/wl)" "$TMP/s.scr" | grep -qv ' \[unknown\] '; then
		pass "build id, no copy: script frames in wl are [unknown]"
	else
		fail "build id, no copy: script names frames of the replaced file: $(grep -m2 "bid/wl" "$TMP/s.scr")"
	fi
fi

### .gnu_debuglink: a stripped object whose symbols are in a debug file.
if ! command -v objcopy >/dev/null || ! command -v strip >/dev/null; then
	skip "debuglink: objcopy/strip (binutils) not installed"
else
	for where in same .debug; do
		D="$TMP/dl_$where"
		mkdir -p "$D/.debug"
		cp "$W" "$D/wl"
		dbg="$D/wl.dbg"
		[ $where = .debug ] && dbg="$D/.debug/wl.dbg"
		if ! objcopy --only-keep-debug "$D/wl" "$dbg" ||
		   ! strip --strip-all "$D/wl" ||
		   ! (cd "$(dirname "$dbg")" && objcopy --add-gnu-debuglink=wl.dbg "$D/wl"); then
			fail "debuglink ($where): objcopy/strip failed"
			continue
		fi
		if readelf -S "$D/wl" | grep -q '\.symtab'; then
			fail "debuglink ($where): $D/wl still has .symtab"
			continue
		fi
		if ! perf record -q -g -e cpu-clock -c 200000 -o "$D/dl.data" \
			"$D/wl" single 150 >/dev/null 2>"$TMP/rec.err"; then
			skip "debuglink ($where): perf record failed: $(head -c 200 "$TMP/rec.err")"
			continue
		fi
		# Not from perf's build-id cache: only the debug link can help.
		rm -rf "$HOME/.debug"
		report_pair "$D/dl.data"
		same_rows "debuglink ($where)" "$TMP/p.rep" "$TMP/s.rep" " wl +\[\.\] "
		contains "debuglink ($where): static leaf_spin named" ' wl +\[\.\] leaf_spin' "$TMP/s.rep"
		same_frames "debuglink ($where): script" "$D/dl.data" "leaf_spin|inner_a|outer_b"
	done
fi
