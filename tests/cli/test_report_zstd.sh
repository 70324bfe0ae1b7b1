#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# perf record -z (COMPRESSED records, zstd): sonde report/script agree with
# perf on the same files (see perf_compare.sh), --header and --stats show
# what perf shows, and pipe mode works. perf 6.1 cannot read its own -z
# pipe output ("Couldn't decompress data"), so for pipe mode the oracle is
# the same stream decompressed by the zstd command into a plain pipe file.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/perf_compare.sh"
W="$HELPERS/report_workload"

need_perf "perf -z agreement"
need_helper "perf -z agreement" "$W"

# These recordings take ~7000 samples, so a few land in PLT stubs, which
# perf names "x@plt" and sonde's symbolizer does not yet (it says _init or
# an address: a separate gap, not the decompression's): those rows are left
# out of the comparison.
ROWS_IGNORE='[[][.][]] ([^ ]*@plt|_init|0x0000)'

# stat_count OUT NAME: the count of "NAME events:" in a --stats output.
stat_count() { awk -v n="$2" '$1 == n && $2 == "events:" { print $3; exit }' "$1"; }

# A 16 KiB ring buffer and 50k samples/s: many pushes, so many COMPRESSED
# records and records that straddle two of them.
if perf_rec "$TMP/z.data" -z -m 4 -g -e cpu-clock -c 20000 -- "$W" single 150; then
	check "perf record -z" "$TMP/z.data"
	perf report -f --stats -i "$TMP/z.data" >"$TMP/perf.st" 2>/dev/null
	"$SONDE" report --stats -i "$TMP/z.data" >"$TMP/sonde.st" 2>&1
	for ty in COMPRESSED SAMPLE MMAP2 COMM; do
		p=$(stat_count "$TMP/perf.st" "$ty"); s=$(stat_count "$TMP/sonde.st" "$ty")
		[ -n "$p" ] && [ "$p" = "$s" ] && pass "-z --stats: $ty events $s, as perf" ||
			fail "-z --stats: $ty events perf '$p', sonde '$s'"
	done
	n=$(stat_count "$TMP/sonde.st" COMPRESSED)
	[ "${n:-0}" -ge 10 ] && pass "-z: $n COMPRESSED records exercised" ||
		fail "-z: only '${n}' COMPRESSED records; the test wants many"
	perf report -f --header-only -i "$TMP/z.data" 2>/dev/null | grep '^# compressed' >"$TMP/perf.hd"
	"$SONDE" report --header-only -i "$TMP/z.data" 2>&1 | grep '^# compressed' >"$TMP/sonde.hd"
	if [ -s "$TMP/perf.hd" ] && cmp -s "$TMP/perf.hd" "$TMP/sonde.hd"; then
		pass "-z --header: $(cat "$TMP/sonde.hd")"
	else
		fail "-z --header: perf '$(cat "$TMP/perf.hd")', sonde '$(cat "$TMP/sonde.hd")'"
	fi
else
	rc=$?
	[ $rc -ge 128 ] && skip "perf record -z crashed (exit $rc)" ||
		fail "perf record -z failed: $(head -3 "$TMP/rec.err")"
fi

# Big records (4 KiB stack dumps) straddle COMPRESSED records more often.
if perf_rec "$TMP/zd.data" -z -m 8 --call-graph dwarf,4096 -e cpu-clock -c 500000 -- "$W" single 150; then
	check "perf record -z, dwarf" "$TMP/zd.data"
fi

# Pipe mode. The oracle: the same stream with every COMPRESSED record's
# payload run through `zstd -d` and put back as plain records.
unpack() { # unpack IN OUT
	python3 - "$1" "$2" "$TMP/payload.zst" "$TMP/payload.raw" <<'EOF'
import struct, subprocess, sys
src, dst, zf, rawf = sys.argv[1:5]
d = open(src, 'rb').read()
assert d[:8] == b'PERFILE2' and struct.unpack_from('<Q', d, 8)[0] == 16
recs, payload, first, off = [], bytearray(), None, 16
while off + 8 <= len(d):
    ty, misc, size = struct.unpack_from('<IHH', d, off)
    if size < 8:
        break
    if ty in (81, 83):
        if ty == 81:
            payload += d[off + 8:off + size]
        else:
            n, = struct.unpack_from('<Q', d, off + 8)
            payload += d[off + 16:off + 16 + n]
        if first is None:
            first = len(recs)
            recs.append(None)
    elif not (ty == 80 and struct.unpack_from('<Q', d, off + 8)[0] == 27):
        recs.append(d[off:off + size])
    off += size
open(zf, 'wb').write(payload)
# perf never ends the frame: zstd says "premature end" but writes it all.
with open(rawf, 'wb') as o:
    subprocess.run(['zstd', '-q', '-d', '-c', zf], stdout=o, stderr=subprocess.DEVNULL)
raw = open(rawf, 'rb').read()
with open(dst, 'wb') as o:
    o.write(d[:16])
    for r in recs:
        o.write(raw if r is None else r)
EOF
}

if perf record -q -z -o - -g -e cpu-clock -c 20000 -m 4 -- "$W" single 150 >"$TMP/zp.data" 2>"$TMP/rec.err"; then
	if ! command -v python3 >/dev/null || ! command -v zstd >/dev/null; then
		skip "pipe -z: the oracle needs python3 and the zstd command (apt-get install zstd)"
	elif ! unpack "$TMP/zp.data" "$TMP/zp-plain.data" || [ ! -s "$TMP/payload.raw" ]; then
		fail "pipe -z: could not unpack the stream for the oracle"
	else
		check "pipe -z (oracle: unpacked)" "$TMP/zp-plain.data"
		for cmd in "script" "report --no-children --sort comm,dso,sym --stdio"; do
			# shellcheck disable=SC2086
			"$SONDE" $cmd -i "$TMP/zp.data" >"$TMP/z.out" 2>"$TMP/z.err"
			# shellcheck disable=SC2086
			"$SONDE" $cmd -i "$TMP/zp-plain.data" >"$TMP/plain.out" 2>/dev/null
			# A busy host may lose records: that warning is not an error.
			grep -v 'LOST record' "$TMP/z.err" >"$TMP/z.err2"
			if [ -s "$TMP/z.out" ] && [ ! -s "$TMP/z.err2" ] && cmp -s "$TMP/z.out" "$TMP/plain.out"; then
				pass "pipe -z: sonde ${cmd%% *} identical to the unpacked stream ($(wc -l <"$TMP/z.out") lines)"
			else
				fail "pipe -z: sonde ${cmd%% *} differs: $(head -2 "$TMP/z.err2") $(diff "$TMP/z.out" "$TMP/plain.out" | head -4)"
			fi
		done
		"$SONDE" script -i - <"$TMP/zp.data" >"$TMP/stdin.out" 2>&1
		"$SONDE" script -i "$TMP/zp.data" >"$TMP/z.out" 2>&1
		cmp -s "$TMP/stdin.out" "$TMP/z.out" && pass "pipe -z on stdin" ||
			fail "pipe -z on stdin differs from the file"
	fi
	# A cut inside a COMPRESSED record: the records before it, then the offset.
	size=$(stat -c %s "$TMP/zp.data")
	head -c $((size * 2 / 3)) "$TMP/zp.data" >"$TMP/zp-cut.data"
	"$SONDE" report --stats -i "$TMP/zp.data" >"$TMP/full.st" 2>&1
	"$SONDE" report --stats -i "$TMP/zp-cut.data" >"$TMP/cut.st" 2>"$TMP/cut.err"
	n=$(stat_count "$TMP/cut.st" SAMPLE); all=$(stat_count "$TMP/full.st" SAMPLE)
	if grep -q 'byte offset [0-9]*: .*truncated' "$TMP/cut.err" &&
		[ "${n:-0}" -gt 0 ] && [ "$n" -lt "${all:-0}" ]; then
		pass "pipe -z cut: $n of $all samples, then: $(head -1 "$TMP/cut.err")"
	else
		fail "pipe -z cut: samples '$n' of '$all': $(head -2 "$TMP/cut.err")"
	fi
else
	fail "perf record -z -o - failed: $(head -3 "$TMP/rec.err")"
fi
