#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Includes go one way: a file of libsonde may include headers of its own
# layer and of the layers below it, never of a layer above (docs/architecture.md).
# Layers are the folders of src/lib, lowest first (Makefile's LAYERS); every
# public header belongs to the layer whose code implements it. Calls go
# the same way: given a build (tests/check_layers.sh [BUILD], default
# build), no object of a layer may use a symbol defined in a layer above.
# A private header's name must not be a public one's (which one an include
# means would hang on the include path). C file names follow one
# convention: lowercase words joined by underscores, and so do scripts,
# docs, golden files and fuzz corpus files. Prints one PASS/FAIL
# line per rule and exits non-zero on a violation.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
BUILD=${1:-build}

LAYERS=$(sed -n 's/^LAYERS := //p' Makefile)
declare -A rank
i=0
for l in $LAYERS; do rank[$l]=$i; i=$((i + 1)); done
rank[umbrella]=$i

# The layer of each public header.
declare -A public=(
	[abi.h]=core [common.h]=core [sys.h]=core [sysctl.h]=core [cpumap.h]=core [threadmap.h]=core
	[evparse.h]=event [pmu.h]=event [tracefs.h]=event
	[ring.h]=ring
	[stat.h]=stat
	[evopen.h]=count [evsel.h]=count [evlist.h]=count [counts.h]=count [region.h]=count
	[evctl.h]=count [overflow.h]=count
	[record.h]=record [evlist_records.h]=record
	[symbols.h]=sym [insn.h]=sym [unwind.h]=unwind
	[perfdata.h]=perfdata [perfdata_feat.h]=perfdata [perfdata_reader.h]=perfdata
	[synth.h]=perfdata
	[profile.h]=profile
	[export.h]=export
	[sonde.h]=umbrella
)

# The layer of a private header: the folder it sits in.
declare -A private
while read -r h; do
	rel=${h#src/lib/}
	private[$(basename "$h")]=${rel%%/*}
	private[$rel]=${rel%%/*} # "stat/stat.h" style includes
done < <(find src/lib -mindepth 2 -name '*.h')

bad=0
unknown=0
check_file() { # FILE LAYER
	local f=$1 own=$2 inc to
	while read -r inc; do
		# Headers are named, never reached by a path: "../x/y.h" would
		# pass the name lookups below while including any layer.
		case $inc in
		*..* | /*)
			echo "  $f includes $inc: include headers by name, not by path"
			bad=1
			continue ;;
		esac
		case $inc in
		sonde/*) to=${public[${inc#sonde/}]:-} ;;
		*) to=${private[$inc]:-} ;;
		esac
		if [ -z "$to" ]; then
			[[ $inc == sonde/* ]] && { echo "  $f: $inc has no layer in tests/check_layers.sh"; unknown=1; }
			continue
		fi
		if [ "${rank[$to]}" -gt "${rank[$own]}" ]; then
			echo "  $f ($own) includes $inc ($to)"
			bad=1
		fi
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]\([^">]*\)[">].*/\1/p' "$f")
}

for l in $LAYERS; do
	[ -d "src/lib/$l" ] || { echo "  Makefile names layer $l but src/lib/$l is missing"; bad=1; continue; }
	while read -r f; do check_file "$f" "$l"; done < <(find "src/lib/$l" -name '*.[ch]')
done
for h in include/sonde/*.h; do
	b=$(basename "$h")
	[ -n "${public[$b]:-}" ] || { echo "  $h has no layer in tests/check_layers.sh"; unknown=1; continue; }
	check_file "$h" "${public[$b]}"
done
stray=$(find src/lib -maxdepth 1 -name '*.[ch]')
[ -z "$stray" ] || { echo "  outside every layer: $stray"; bad=1; }

clash=0
while read -r h; do
	[ -e "include/sonde/$(basename "$h")" ] || continue
	echo "  $h has the name of public header sonde/$(basename "$h")"
	clash=1
done < <(find src/lib -mindepth 2 -name '*.h')
# One private header per layer, named after it.
while read -r h; do
	layer=${h#src/lib/}; layer=${layer%%/*}
	[ "$(basename "$h")" = "${layer}_priv.h" ] && continue
	echo "  $h: a layer's one private header is ${layer}_priv.h"
	clash=1
done < <(find src/lib -mindepth 2 -maxdepth 2 -name '*.h')

# One file naming convention for C: lowercase words and underscores.
names=0
while read -r f; do
	echo "  $f: a C file name is lowercase words joined by underscores"
	names=1
done < <(find src include tests/unit tests/helpers tests/fuzz examples bench \
	-name '*.[ch]' 2>/dev/null | grep -v '/[a-z0-9_]*\.[ch]$')
# Scripts, pages, docs and the tests' stored output (golden .txt, .attr,
# .buildids) too; man pages keep man's sonde-<command>.1.
while read -r f; do
	echo "  $f: a file name is lowercase words joined by underscores"
	names=1
done < <(find src include tests bench scripts docs examples -type f \
	\( -name '*.sh' -o -name '*.bash' -o -name '*.py' -o -name '*.js' -o \
	-name '*.md' -o -name '*.html' -o -name '*.css' -o -name '*.png' -o \
	-name '*.txt' -o -name '*.attr' -o -name '*.buildids' \) \
	-not -path '*/node_modules/*' 2>/dev/null | grep -v '/[a-z0-9_]*\.[a-z]*$')
# The fuzz targets' seeds of every kind (libFuzzer names the inputs it
# adds by their SHA-1, which passes).
while read -r f; do
	echo "  $f: a corpus file name is lowercase words joined by underscores"
	names=1
done < <(find tests/fuzz/corpus -type f 2>/dev/null | grep -v '/[a-z0-9_]*\(\.[a-z]*\)\?$')
# And the folders that hold them (a golden file's folder is half its name).
while read -r d; do
	echo "  $d: a folder name is lowercase words joined by underscores"
	names=1
done < <(find src include tests bench scripts docs examples -mindepth 1 -type d \
	-not -path '*/node_modules*' 2>/dev/null | grep -v '/[a-z0-9_]*$')

# Calls: the layer of every global symbol the build defines, then every
# object's undefined symbols against it (the HTML assets are export's).
calls=0 checked_calls=0
if [ -d "$BUILD/obj/src/lib" ]; then
	checked_calls=1
	# The objects of today's sources (a renamed file leaves an old one).
	objs=()
	for f in src/lib/*/*.c; do
		[ -e "$BUILD/obj/${f%.c}.o" ] && objs+=("$BUILD/obj/${f%.c}.o")
	done
	[ -e "$BUILD/obj/gen/html_assets.o" ] && objs+=("$BUILD/obj/gen/html_assets.o")
	up=$( { nm -A -g --defined-only "${objs[@]}" | awk '{ print "D", $1, $3 }'
		nm -A -u "${objs[@]}" | awk '{ print "U", $1, $3 }'; } |
	awk -v build="$BUILD/obj/" -v order="$LAYERS" '
		BEGIN { n = split(order, l, " "); for (i = 1; i <= n; i++) rank[l[i]] = i }
		function layer(f) {
			sub(/:.*/, "", f)
			if (index(f, build "gen/") == 1) return "export"
			sub("^" build "src/lib/", "", f); sub(/\/.*/, "", f)
			return f
		}
		$1 == "D" { def[$3] = layer($2); next }
		{ file[NR] = $2; sym[NR] = $3 }
		END {
			for (i in sym) {
				from = layer(file[i]); to = def[sym[i]]
				if (to != "" && rank[to] > rank[from]) {
					f = file[i]; sub(/:.*/, "", f)
					print "  " f " (" from ") uses " sym[i] " (" to ")"
				}
			}
		}')
	[ -z "$up" ] || { echo "$up"; calls=1; }
fi

rc=0
if [ $bad = 0 ] && [ $unknown = 0 ]; then
	echo "PASS: libsonde includes go down the layers ($LAYERS)"
else
	echo "FAIL: libsonde includes go down the layers ($LAYERS)"
	rc=1
fi
if [ $clash = 0 ]; then
	echo "PASS: each layer has one private header, <layer>_priv.h, no public header's name"
else
	echo "FAIL: each layer has one private header, <layer>_priv.h, no public header's name"
	rc=1
fi
if [ $names = 0 ]; then
	echo "PASS: file names are lowercase words joined by underscores"
else
	echo "FAIL: file names are lowercase words joined by underscores"
	rc=1
fi
if [ $checked_calls = 0 ]; then
	echo "SKIP: libsonde calls go down the layers: no objects in $BUILD (build first)"
elif [ $calls = 0 ]; then
	echo "PASS: libsonde calls go down the layers"
else
	echo "FAIL: libsonde calls go down the layers"
	rc=1
fi
exit $rc
