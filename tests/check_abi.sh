#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# The shared library exports exactly the symbols the version map lists, and
# each one starts with sonde_ and is named in libsonde(3); nothing that is
# not exported wears sonde_ (internal symbols, public headers' statics).
set -u
BUILD=${1:-build}
so=$(ls "$BUILD"/libsonde.so.*.*.* | head -1)
exported=$(nm -D --defined-only "$so" | awk '$2 ~ /[TDBRV]/ {print $3}' | sed 's/@.*//' | grep -v '^LIBSONDE_' | sort -u)
mapped=$(sed -n 's/^[[:space:]]*\(sonde_[A-Za-z0-9_]*\);.*/\1/p' src/lib/libsonde.map | sort -u)
bad=0
if [ "$exported" != "$mapped" ]; then
	echo "FAIL: exported symbols differ from src/lib/libsonde.map:"
	diff <(echo "$mapped") <(echo "$exported") | sed 's/^/  /'
	bad=1
fi
if grep -qv '^sonde_' <<<"$exported"; then
	echo "FAIL: exported symbols without the sonde_ prefix:"; grep -v '^sonde_' <<<"$exported"
	bad=1
fi
# sonde_ is the exported prefix: an internal function of the static
# library, or a static one (lowercase nm type), must not wear it (it would
# read as API and clash with users'). clang names a function's local
# static "function.var": that is the function's name, not a new one.
internal=$(nm --defined-only "$BUILD/libsonde.a" 2>/dev/null | awk '$2 ~ /[TDBRtdbr]/ && $3 !~ /\./ {print $3}' |
	grep '^sonde_' | sort -u | comm -23 - <(echo "$exported"))
if [ -n "$internal" ]; then
	echo "FAIL: internal symbols with the exported prefix sonde_:"; sed 's/^/  /' <<<"$internal"
	bad=1
fi
# Nor may a public header's static function or variable: compiled into
# each user, it is never a symbol of the library, and the prefix would
# promise one (the check reads the headers, as an unused static inline
# leaves no symbol anywhere).
hdr_static=$(perl -0777 -ne 's{/\*.*?\*/}{}gs; s{//[^\n]*}{}g;
	print "$ARGV: $1\n" while /\bstatic\b[^;{}()]*?\b(sonde_\w+)\s*[(\[=]/g' include/sonde/*.h)
if [ -n "$hdr_static" ]; then
	echo "FAIL: static definitions with the exported prefix sonde_ in public headers:"
	sed 's/^/  /' <<<"$hdr_static"
	bad=1
fi
# Every export is API a user can only learn from libsonde(3): each must be
# named in bold there (a synopsis prototype or a .B/.BI/.BR/.RB line).
man=docs/man/libsonde.3
named=$(grep -E '^\.(B|BI|BR|RB)[[:space:]]' "$man" | grep -o 'sonde_[A-Za-z0-9_]*' | sort -u)
undoc=$(comm -23 <(echo "$exported") <(echo "$named"))
if [ -n "$undoc" ]; then
	echo "FAIL: exported symbols not named in $man:"; sed 's/^/  /' <<<"$undoc"
	bad=1
fi
[ $bad = 0 ] && echo "PASS: $(wc -l <<<"$exported") exported symbols, all versioned"
exit $bad
