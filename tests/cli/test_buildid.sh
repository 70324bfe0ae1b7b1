#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Build ids end to end (issue 11, item 8): sonde record lists the objects
# its samples hit in HEADER_BUILD_ID and fills perf's build-id cache;
# after a rebuild, report/script name nothing from the new file (raw
# addresses, as perf 6.1 shows, and one warning), take the recorded copy
# from the cache when it is there, and unwind with its CFI only; a file
# recorded under another kernel gets no names from this machine's
# kallsyms unless the recorded kernel's symbols are at hand.
source "$(dirname "$0")/lib.sh"

if ! command -v cc >/dev/null 2>&1; then
	skip "build ids: no C compiler to build the test program"
	exit 0
fi
# Every build-id cache lives in $TMP (lib.sh's HOME): never the user's
# ~/.debug.
EMPTY="$TMP/nohome"
mkdir -p "$HOME" "$EMPTY" "$TMP/src"
P="$TMP/src/prog"
cat >"$TMP/src/prog.c" <<'EOF'
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#ifdef NEWFN
__attribute__((noinline)) long newfn(long x)
{
	volatile long s = 0;
	for (long i = 0; i < x; i++) s += i * 3;
	for (long i = 0; i < x; i++) s ^= i;
	for (long i = 0; i < x; i++) s += i >> 1;
	return s;
}
#endif
__attribute__((noinline)) long hot(long n)
{
	volatile long s = 0;
	for (long i = 0; i < n; i++) s += i * i;
	return s;
}
/* Kernel time: the samples of the kernel part of the test. */
__attribute__((noinline)) long kern(int n)
{
	static char buf[65536];
	long t = 0;
	int fd = open("/dev/zero", O_RDONLY);
	for (int i = 0; i < n; i++) t += read(fd, buf, sizeof(buf));
	close(fd);
	return t;
}
/* vdso time: clock_gettime runs there. */
__attribute__((noinline)) long vdso(int n)
{
	struct timespec ts;
	long s = 0;
	for (int i = 0; i < n; i++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		s += ts.tv_nsec;
	}
	return s;
}
int main(int argc, char **argv)
{
	/* "prog SECONDS": hot() until then, for a recording that attaches
	 * to it (-p) whatever the host's speed. */
	if (argc > 1) {
		time_t end = time(NULL) + atoi(argv[1]);
		long s = 0;
		while (time(NULL) < end)
			s += hot(1000000);
		printf("%ld\n", s);
		return 0;
	}
	printf("%ld %ld %ld\n", hot(150000000), kern(20000), vdso(2000000));
	return 0;
}
EOF
# build VARIANT: the original (-g, unwind tables), or "new": newfn placed
# before hot, and no unwind tables, so that CFI read from it cannot unwind.
build() {
	rm -f "$P" # a new inode: the cache's hard link keeps the old one
	if [ "$1" = new ]; then
		cc -O1 -DNEWFN -fno-asynchronous-unwind-tables -fno-unwind-tables \
			-o "$P" "$TMP/src/prog.c"
	else
		cc -O1 -g -o "$P" "$TMP/src/prog.c"
	fi
}
if ! build old; then
	skip "build ids: cannot build the test program"
	exit 0
fi
bid_of() { "$SONDE" report -i "$1" --buildid-list | awk -v f="$2" '$2 == f { print $1 }'; }
# prog_rows FILE: the "dso sym" rows of the program in a --sort dso,sym report.
prog_rows() { awk '/^ +[0-9.]+%/ && $2 == "prog"' "$1"; }

### record: HEADER_BUILD_ID and the cache.
if ! "$SONDE" record -q -e cpu-clock -o "$TMP/r.data" -- "$P" >/dev/null 2>"$TMP/rec.err"; then
	fail "record: $(head -c 300 "$TMP/rec.err")"
	exit 0
fi
id=$(bid_of "$TMP/r.data" "$P")
if [ -z "$id" ]; then
	fail "record: $P not in the BUILD_ID section: $("$SONDE" report -i "$TMP/r.data" --buildid-list)"
else
	pass "record: the program hit by samples is in the BUILD_ID section"
fi
if have_perf; then
	perf buildid-list -i "$TMP/r.data" 2>/dev/null | grep -q "^$id $P\$" &&
		pass "record: perf buildid-list reads the program's build id" ||
		fail "record: perf buildid-list: $(perf buildid-list -i "$TMP/r.data" 2>&1 | head -5)"
fi
copy="$HOME/.debug/.build-id/${id:0:2}/${id:2}/elf"
if [ -n "$id" ] && cmp -s "$copy" "$P" &&
   [ "$(readlink "$HOME/.debug/.build-id/${id:0:2}/${id:2}")" = "../..$P/$id" ]; then
	pass "record: the program is in the build-id cache as perf lays it out"
else
	fail "record: no cache copy at $copy: $(cd "$HOME" && find .debug | head -20)"
fi
# perf reads the cache sonde filled (the library's writer) as its own.
if have_perf; then
	HOME="$HOME" perf buildid-cache -l >"$TMP/bc.list" 2>&1
	grep -qx "$id $P" "$TMP/bc.list" &&
		pass "record: perf buildid-cache -l lists the program sonde cached" ||
		fail "record: perf buildid-cache -l: $(head -5 "$TMP/bc.list")"
fi
if HOME="$EMPTY" "$SONDE" record -q -N -e cpu-clock -o "$TMP/n.data" -- "$P" >/dev/null 2>&1 &&
   [ ! -e "$EMPTY/.debug" ] && [ -n "$(bid_of "$TMP/n.data" "$P")" ]; then
	pass "record -N: build ids written, the cache left alone"
else
	fail "record -N: $(cd "$EMPTY" && find . | head -5)"
fi
if HOME="$EMPTY" "$SONDE" record -q -B -e cpu-clock -o "$TMP/b.data" -- "$P" >/dev/null 2>&1 &&
   [ ! -e "$EMPTY/.debug" ] && [ -s "$TMP/b.data" ] &&
   [ -z "$("$SONDE" report -i "$TMP/b.data" --buildid-list)" ]; then
	pass "record -B: no BUILD_ID section, no cache"
else
	fail "record -B: $("$SONDE" report -i "$TMP/b.data" --buildid-list | head -3)"
fi
"$SONDE" record -q --call-graph dwarf -e cpu-clock -o "$TMP/d.data" -- "$P" >/dev/null 2>&1 ||
	fail "record --call-graph dwarf failed"

# A process that was running before the recording (-p): its maps are
# synthesized, not seen in the ring, and still count.
"$P" 30 >/dev/null &
wpid=$!
sleep 0.2
# The command is the duration: it starts once the events are on, so a
# slow start on a busy host does not eat the window as a timeout would.
"$SONDE" record -q -N -e cpu-clock -o "$TMP/p.data" -p "$wpid" -- sleep 1 \
	>/dev/null 2>"$TMP/p.err"
kill "$wpid" 2>/dev/null
wait "$wpid" 2>/dev/null
if [ "$(bid_of "$TMP/p.data" "$P")" = "$id" ]; then
	pass "record -p: the program is in the BUILD_ID section"
elif ! grep -q "$P" <("$SONDE" script -i "$TMP/p.data" 2>/dev/null); then
	skip "record -p: no sample of the program (busy host?)"
else
	fail "record -p: $("$SONDE" report -i "$TMP/p.data" --buildid-list) $(head -c 300 "$TMP/p.err")"
fi

### The program is rebuilt with a new function before the hot one.
build new
HOME="$EMPTY" "$SONDE" report -i "$TMP/r.data" --no-children --sort dso,sym \
	--stdio >"$TMP/s.rep" 2>"$TMP/s.err"
if prog_rows "$TMP/s.rep" | grep -q newfn; then
	fail "rebuilt, no copy: samples named after the new function: $(prog_rows "$TMP/s.rep" | head -3)"
elif prog_rows "$TMP/s.rep" | awk '$4 !~ /^0x/' | grep -q .; then
	fail "rebuilt, no copy: names from the new file: $(prog_rows "$TMP/s.rep" | head -3)"
elif ! prog_rows "$TMP/s.rep" | grep -q ' 0x'; then
	fail "rebuilt, no copy: no raw-address rows: $(head -c 400 "$TMP/s.rep")"
else
	pass "rebuilt, no copy: the program's samples are shown by address"
fi
[ "$(grep -c "$P changed since the recording" "$TMP/s.err")" = 1 ] &&
	pass "rebuilt, no copy: one warning naming the file" ||
	fail "rebuilt, no copy: warnings: $(head -c 600 "$TMP/s.err")"
if have_perf; then
	HOME="$EMPTY" perf report -i "$TMP/r.data" --no-children --sort dso,sym \
		--stdio >"$TMP/p.rep" 2>/dev/null
	if diff <(prog_rows "$TMP/p.rep") <(prog_rows "$TMP/s.rep") >"$TMP/diff"; then
		pass "rebuilt, no copy: the program's rows are perf's ($(prog_rows "$TMP/p.rep" | wc -l))"
	else
		fail "rebuilt, no copy: rows differ from perf's: $(head -8 "$TMP/diff")"
	fi
fi
HOME="$EMPTY" "$SONDE" script -i "$TMP/r.data" >"$TMP/s.scr" 2>/dev/null
if grep -q "($P)" "$TMP/s.scr" && ! grep "($P)" "$TMP/s.scr" | grep -qv ' \[unknown\] '; then
	pass "rebuilt, no copy: script shows [unknown] in the program"
else
	fail "rebuilt, no copy: script: $(grep -m3 "($P)" "$TMP/s.scr")"
fi
# The copy sonde record put in the cache brings the names back.
"$SONDE" report -i "$TMP/r.data" --no-children --sort dso,sym --stdio \
	>"$TMP/c.rep" 2>"$TMP/c.err"
if prog_rows "$TMP/c.rep" | grep -q ' hot$' && ! grep -q newfn "$TMP/c.rep" &&
   ! grep -q "changed since" "$TMP/c.err"; then
	pass "rebuilt, cached copy: named from the recorded build"
else
	fail "rebuilt, cached copy: $(prog_rows "$TMP/c.rep" | head -3) $(head -c 300 "$TMP/c.err")"
fi
if have_perf; then
	perf report -i "$TMP/r.data" --no-children --sort dso,sym --stdio \
		>"$TMP/pc.rep" 2>/dev/null
	if prog_rows "$TMP/pc.rep" | grep -q ' hot$' && ! grep -q newfn "$TMP/pc.rep"; then
		pass "rebuilt, cached copy: perf report names it from sonde's copy too"
	else
		fail "rebuilt, cached copy: perf report: $(prog_rows "$TMP/pc.rep" | head -3)"
	fi
fi
# DWARF unwinding reads the recorded copy's CFI (the new file has none
# for hot and main): hot's callers are found.
"$SONDE" script -i "$TMP/d.data" >"$TMP/d.scr" 2>"$TMP/d.err"
if grep -A1 ' hot+0x[0-9a-f]* (' "$TMP/d.scr" | grep -q ' main+0x'; then
	pass "rebuilt, cached copy: DWARF unwinding uses the recorded CFI"
else
	fail "rebuilt, cached copy: no main under hot: $(grep -m1 -A2 ' hot+' "$TMP/d.scr")"
fi
# Gone altogether: the recorded copy still gives the CFI.
mv "$P" "$P.new"
"$SONDE" script -i "$TMP/d.data" >"$TMP/d.scr" 2>"$TMP/d.err"
mv "$P.new" "$P"
if grep -A1 ' hot+0x[0-9a-f]* (' "$TMP/d.scr" | grep -q ' main+0x'; then
	pass "removed, cached copy: DWARF unwinding uses the recorded CFI"
else
	fail "removed, cached copy: no main under hot: $(grep -m1 -A2 ' hot+' "$TMP/d.scr")"
fi
HOME="$EMPTY" "$SONDE" script -i "$TMP/d.data" >"$TMP/d.scr" 2>/dev/null
if grep "($P)" "$TMP/d.scr" | grep -qv ' \[unknown\] '; then
	fail "rebuilt, no copy: unwound frames named: $(grep "($P)" "$TMP/d.scr" | grep -v unknown | head -2)"
else
	pass "rebuilt, no copy: no unwound frame named from the new file"
fi

### The vdso of another kernel build: its id in the file differs from ours.
# swap_id ID: another id of the same length; patch OLD NEW < IN > OUT.
swap_id() { echo "$1" | tr 0123456789abcdef fedcba9876543210; }
patch_id() { perl -0777 -pe "s/$(echo "$1" | sed 's/../\\x&/g')/$(echo "$2" | sed 's/../\\x&/g')/"; }
vid=$(bid_of "$TMP/r.data" "[vdso]")
vrows() { awk '/^ +[0-9.]+%/ && $2 == "[vdso]"' "$1"; }
if [ -z "$vid" ]; then
	fail "vdso: not in the BUILD_ID section although the program spins in clock_gettime"
else
	ovid=$(swap_id "$vid")
	patch_id "$vid" "$ovid" <"$TMP/r.data" >"$TMP/v.data"
	HOME="$EMPTY" "$SONDE" report -i "$TMP/v.data" --no-children --sort dso,sym --stdio \
		>"$TMP/v.rep" 2>"$TMP/v.err"
	if ! vrows "$TMP/v.rep" | grep -q .; then
		fail "vdso, other build: no vdso rows: $(head -c 300 "$TMP/v.rep")"
	elif vrows "$TMP/v.rep" | awk '$4 !~ /^0x/' | grep -q . ||
	     [ "$(grep -c "\[vdso\] of the recording is another build" "$TMP/v.err")" != 1 ]; then
		fail "vdso, other build: $(vrows "$TMP/v.rep" | head -2) $(head -c 300 "$TMP/v.err")"
	else
		pass "vdso, other build: shown by address, one warning"
	fi
	if have_perf; then
		HOME="$EMPTY" perf report -i "$TMP/v.data" --no-children --sort dso,sym \
			--stdio >"$TMP/pv.rep" 2>/dev/null
		diff <(vrows "$TMP/pv.rep") <(vrows "$TMP/v.rep") >"$TMP/diff" &&
			pass "vdso, other build: rows are perf's" ||
			fail "vdso, other build: rows differ from perf's: $(head -6 "$TMP/diff")"
	fi
	# The recorded vdso as the cache keeps it (its note patched alike, and
	# its names marked so that names from anywhere else show).
	mkdir -p "$TMP/vc/.debug/.build-id/${ovid:0:2}/${ovid:2}"
	patch_id "$vid" "$ovid" <"$HOME/.debug/[vdso]/$vid/vdso" |
		perl -0777 -pe 's/clock_gettime\0/clock_gettimX\0/g' \
		>"$TMP/vc/.debug/.build-id/${ovid:0:2}/${ovid:2}/vdso"
	HOME="$TMP/vc" "$SONDE" report -i "$TMP/v.data" --no-children --sort dso,sym --stdio \
		>"$TMP/v.rep" 2>"$TMP/v.err"
	if vrows "$TMP/v.rep" | grep -q ' __vdso_clock_gettimX$\| clock_gettimX$' &&
	   ! grep -q vdso "$TMP/v.err"; then
		pass "vdso, other build: named from the cached copy"
	else
		fail "vdso, other build, cached copy: $(vrows "$TMP/v.rep" | head -2) $(head -c 300 "$TMP/v.err")"
	fi
fi

### Another kernel: the kernel build id in the file differs from ours.
K=$(awk 'NR == 1 { print $1 }' /proc/kallsyms 2>/dev/null)
kid=$(bid_of "$TMP/r.data" "[kernel.kallsyms]")
if [ -z "$K" ] || [ "$K" = 0000000000000000 ] || [ -z "$kid" ]; then
	skip "other kernel: kallsyms hidden or no kernel build id here"
	exit 0
fi
other=$(swap_id "$kid")
patch_id "$kid" "$other" <"$TMP/r.data" >"$TMP/k.data"
if [ "$(bid_of "$TMP/k.data" "[kernel.kallsyms]")" != "$other" ]; then
	fail "other kernel: could not make the file"
	exit 0
fi
krows() { awk '/^ +[0-9.]+%/ && $2 == "[kernel.kallsyms]"' "$1"; }
HOME="$EMPTY" "$SONDE" report -i "$TMP/k.data" --no-children --sort dso,sym --stdio \
	>"$TMP/k.rep" 2>"$TMP/k.err"
if ! krows "$TMP/k.rep" | grep -q .; then
	skip "other kernel: no kernel samples recorded"
elif krows "$TMP/k.rep" | awk '$4 !~ /^0x/' | grep -q .; then
	fail "other kernel: named from this kernel: $(krows "$TMP/k.rep" | awk '$4 !~ /^0x/' | head -3)"
else
	pass "other kernel: kernel samples shown by address"
fi
[ "$(grep -c "another kernel.*$other" "$TMP/k.err")" = 1 ] &&
	pass "other kernel: one warning saying why" ||
	fail "other kernel: warnings: $(head -c 600 "$TMP/k.err")"
if have_perf; then
	HOME="$EMPTY" perf report -i "$TMP/k.data" --no-children --sort dso,sym \
		--stdio >"$TMP/pk.rep" 2>/dev/null
	diff <(krows "$TMP/pk.rep") <(krows "$TMP/k.rep") >"$TMP/diff" &&
		pass "other kernel: kernel rows are perf's" ||
		fail "other kernel: rows differ from perf's: $(head -6 "$TMP/diff")"
fi
# "The recorded kernel's" table: this one's with every name marked, so
# that names taken from anywhere else show.
sed 's/^\([0-9a-f]* [tTwW] \)/\1rec_/' /proc/kallsyms >"$TMP/kallsyms"
HOME="$EMPTY" "$SONDE" report -i "$TMP/k.data" --no-children --sort dso,sym --stdio \
	--kallsyms "$TMP/kallsyms" >"$TMP/k2.rep" 2>"$TMP/k2.err"
if krows "$TMP/k2.rep" | grep -q ' rec_' && ! krows "$TMP/k2.rep" | awk '$4 !~ /^rec_/' | grep -q . &&
   ! grep -q kernel "$TMP/k2.err"; then
	pass "other kernel: --kallsyms names kernel samples"
else
	fail "other kernel: --kallsyms: $(krows "$TMP/k2.rep" | head -2) $(head -c 300 "$TMP/k2.err")"
fi
# The recorded kernel's kallsyms copy in the build-id cache, as perf keeps it.
mkdir -p "$TMP/kc/.debug/.build-id/${other:0:2}/${other:2}"
cp "$TMP/kallsyms" "$TMP/kc/.debug/.build-id/${other:0:2}/${other:2}/kallsyms"
HOME="$TMP/kc" "$SONDE" script -i "$TMP/k.data" >"$TMP/k.scr" 2>"$TMP/k3.err"
if grep -q ' rec_.*(\[kernel.kallsyms\])' "$TMP/k.scr" &&
   ! grep '(\[kernel.kallsyms\])' "$TMP/k.scr" | grep -v ' rec_' | grep -qv '\[unknown\]' &&
   ! grep -q kernel "$TMP/k3.err"; then
	pass "other kernel: the cached kallsyms copy names kernel samples"
else
	fail "other kernel: cached copy: $(grep -m2 kallsyms "$TMP/k.scr") $(head -c 300 "$TMP/k3.err")"
fi
# A vmlinux that is not the recorded kernel is refused.
HOME="$EMPTY" "$SONDE" report -i "$TMP/k.data" --no-children --sort dso,sym --stdio \
	--vmlinux "$P" >"$TMP/k4.rep" 2>"$TMP/k4.err"
if grep -q "$P is not the recorded kernel" "$TMP/k4.err" &&
   ! krows "$TMP/k4.rep" | awk '$4 !~ /^0x/' | grep -q .; then
	pass "other kernel: a vmlinux of another build is refused"
else
	fail "other kernel: --vmlinux: $(head -c 300 "$TMP/k4.err")"
fi
# A vmlinux of the recorded build: read_zero (which kern() keeps busy),
# linked 16 MiB below where the recorded kernel had it (KASLR).
text=$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms)
rz=$(grep -E ' [tT] ' /proc/kallsyms | grep -v '\[' | sort |
	awk '$3 == "read_zero" { a = $1; getline; print a, $1; exit }')
if ! command -v as >/dev/null || ! command -v ld >/dev/null; then
	skip "other kernel: --vmlinux: no assembler/linker (binutils) to make one"
elif [ -z "$rz" ] || ! krows "$TMP/k2.rep" | grep -q ' rec_read_zero$'; then
	skip "other kernel: --vmlinux: no samples in read_zero"
else
	set -- $rz
	size=$((16#$2 - 16#$1))
	printf '\t.section .ktext,"ax",@nobits\n\t.globl _text\n\t.type _text,@function\n_text:\n\t.skip 1\n\t.size _text,1\n\t.org 0x%x\n\t.globl read_zero\n\t.type read_zero,@function\nread_zero:\n\t.skip %d\n\t.size read_zero,%d\n' \
		$((16#$1 - 16#$text)) $size $size >"$TMP/vml.s"
	if as -o "$TMP/vml.o" "$TMP/vml.s" 2>/dev/null &&
	   ld -o "$TMP/vmlinux" -e 0 --build-id=0x$other \
		--section-start=.ktext=0x$(printf %x $((16#$text - 0x1000000))) "$TMP/vml.o"; then
		HOME="$EMPTY" "$SONDE" report -i "$TMP/k.data" --no-children --sort dso,sym \
			--stdio -k "$TMP/vmlinux" >"$TMP/k5.rep" 2>"$TMP/k5.err"
		if krows "$TMP/k5.rep" | grep -q ' read_zero$' && ! grep -q kernel "$TMP/k5.err"; then
			pass "other kernel: a vmlinux of the recorded build names kernel samples, relocated"
		else
			fail "other kernel: --vmlinux: $(krows "$TMP/k5.rep" | head -3) $(head -c 300 "$TMP/k5.err")"
		fi
	else
		fail "other kernel: could not link a vmlinux"
	fi
fi
# Without build ids the os release tells: a file from another release.
rel=$(uname -r)
HOME="$EMPTY" "$SONDE" record -q -B -e cpu-clock -o "$TMP/o.data" -- "$P" >/dev/null 2>&1
orel=$(echo "$rel" | tr 0-9 1-90)
perl -0777 -pe "s/\Q$rel\E\0/$orel\0/" "$TMP/o.data" >"$TMP/o2.data"
HOME="$EMPTY" "$SONDE" report -i "$TMP/o2.data" --no-children --sort dso,sym --stdio \
	>"$TMP/o.rep" 2>"$TMP/o.err"
if grep -q "recorded under Linux $orel" "$TMP/o.err" &&
   ! krows "$TMP/o.rep" | awk '$4 !~ /^0x/' | grep -q .; then
	pass "other release: kernel samples shown by address, with the reason"
else
	fail "other release: $(head -c 300 "$TMP/o.err") $(krows "$TMP/o.rep" | head -2)"
fi
