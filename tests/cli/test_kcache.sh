#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# The kallsyms cache of report/script: the first run writes a private file
# in $XDG_CACHE_HOME/sonde, later runs read their kernel symbols from it
# (shown by doctoring a name in the file), --no-kallsyms-cache and
# SONDE_NO_KALLSYMS_CACHE bypass it, a corrupt file is rebuilt, and output
# is the same with and without it.
source "$(dirname "$0")/lib.sh"

if ! awk '$1 !~ /^0+$/ { found = 1; exit } END { exit !found }' /proc/kallsyms; then
	skip "kallsyms cache: /proc/kallsyms shows no addresses to this user"; exit 0
fi
if [ ! -r /proc/sys/kernel/random/boot_id ]; then
	skip "kallsyms cache: no boot id to key the cache on"; exit 0
fi
export XDG_CACHE_HOME="$TMP/xdg"
unset SONDE_NO_KALLSYMS_CACHE
if ! "$SONDE" record -q -o "$TMP/k.data" -e cpu-clock -c 20000 -- \
	dd if=/dev/zero of=/dev/null bs=64k count=20000 >/dev/null 2>"$TMP/err"; then
	skip "kallsyms cache: cannot record here: $(head -c 300 "$TMP/err")"; exit 0
fi
report() { "$SONDE" report --no-children -i "$TMP/k.data" "$@" 2>"$TMP/err"; }

SONDE_NO_KALLSYMS_CACHE=1 report >"$TMP/env-off.txt"
[ ! -e "$XDG_CACHE_HOME/sonde" ] && pass "SONDE_NO_KALLSYMS_CACHE: nothing written" ||
	fail "SONDE_NO_KALLSYMS_CACHE: $(ls -R "$XDG_CACHE_HOME")"
report --no-kallsyms-cache >"$TMP/opt-off.txt"
[ ! -e "$XDG_CACHE_HOME/sonde" ] && pass "--no-kallsyms-cache: nothing written" ||
	fail "--no-kallsyms-cache: $(ls -R "$XDG_CACHE_HOME")"

report >"$TMP/first.txt"
f=$(ls "$XDG_CACHE_HOME"/sonde/ksymtab-* 2>/dev/null | head -1)
if [ -n "$f" ] && [ "$(stat -c %a "$f")" = 600 ] &&
	[ "$(stat -c %a "$XDG_CACHE_HOME/sonde")" = 700 ]; then
	pass "first run writes a 0600 cache file in a 0700 directory"
else
	fail "cache file: '$f' $(ls -la "$XDG_CACHE_HOME/sonde" 2>&1)"
fi
sym=$(awk '$4 == "[k]" { print $5; exit }' "$TMP/first.txt")
if [ -z "$sym" ]; then
	skip "kallsyms cache: the recording has no kernel symbol"; exit 0
fi
report >"$TMP/second.txt"
cmp -s "$TMP/first.txt" "$TMP/second.txt" && cmp -s "$TMP/first.txt" "$TMP/opt-off.txt" &&
	cmp -s "$TMP/first.txt" "$TMP/env-off.txt" &&
	pass "report identical with and without the cache" ||
	fail "report differs: $(diff "$TMP/opt-off.txt" "$TMP/second.txt" | head -5)"
"$SONDE" script -i "$TMP/k.data" >"$TMP/s1.txt" 2>/dev/null
"$SONDE" script --no-kallsyms-cache -i "$TMP/k.data" >"$TMP/s2.txt" 2>/dev/null
cmp -s "$TMP/s1.txt" "$TMP/s2.txt" && grep -q kernel.kallsyms "$TMP/s1.txt" &&
	pass "script identical with and without the cache" || fail "script differs"

# Doctor the name in the cache (same length keeps the file valid): the
# next run must show it, so it did read the cache and not /proc.
up=$(echo "$sym" | tr 'a-z' 'A-Z')
SYM="$sym" UP="$up" perl -0777 -pi -e 's/\0\Q$ENV{SYM}\E\0/\0$ENV{UP}\0/g' "$f"
chmod 600 "$f"
report >"$TMP/doctored.txt"
grep -q "\[k\] $up\$" "$TMP/doctored.txt" && pass "second run reads the cache" ||
	fail "doctored name $up not shown: $(grep '\[k\]' "$TMP/doctored.txt" | head -3)"
"$SONDE" script -i "$TMP/k.data" 2>/dev/null | grep -q " $up+" &&
	pass "script reads the cache" || fail "script does not show $up"
report --no-kallsyms-cache >"$TMP/bypass.txt"
cmp -s "$TMP/bypass.txt" "$TMP/first.txt" && pass "--no-kallsyms-cache bypasses the file" ||
	fail "--no-kallsyms-cache output differs"

# Open to others: ignored and replaced.
chmod 644 "$f"
report >"$TMP/open.txt"
cmp -s "$TMP/open.txt" "$TMP/first.txt" && [ "$(stat -c %a "$f")" = 600 ] &&
	pass "group/other-readable cache file ignored and replaced" ||
	fail "0644 cache file: $(stat -c %a "$f"), $(diff "$TMP/open.txt" "$TMP/first.txt" | head -3)"

# Corrupt: rejected without a crash, rebuilt.
head -c 4000 /dev/urandom >"$f"
chmod 600 "$f"
report >"$TMP/corrupt.txt"
rc=$?
[ $rc = 0 ] && cmp -s "$TMP/corrupt.txt" "$TMP/first.txt" &&
	pass "corrupt cache file rejected" || fail "corrupt cache: exit $rc, $(head -c 300 "$TMP/err")"
[ "$(stat -c %s "$f")" -gt 10000 ] && pass "corrupt cache file rebuilt" ||
	fail "corrupt cache file not rebuilt ($(stat -c %s "$f") bytes)"
