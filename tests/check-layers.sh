#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Includes go one way: a file of libsonde may include headers of its own
# layer and of the layers below it, never of a layer above (docs/architecture.md).
# Layers are the folders of src/lib, lowest first (Makefile's LAYERS); every
# public header belongs to the layer whose code implements it. Prints one
# PASS/FAIL line per rule and exits non-zero on a violation.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

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
		case $inc in
		sonde/*) to=${public[${inc#sonde/}]:-} ;;
		*) to=${private[$inc]:-} ;;
		esac
		if [ -z "$to" ]; then
			[[ $inc == sonde/* ]] && { echo "  $f: $inc has no layer in tests/check-layers.sh"; unknown=1; }
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
	[ -n "${public[$b]:-}" ] || { echo "  $h has no layer in tests/check-layers.sh"; unknown=1; continue; }
	check_file "$h" "${public[$b]}"
done
stray=$(find src/lib -maxdepth 1 -name '*.[ch]')
[ -z "$stray" ] || { echo "  outside every layer: $stray"; bad=1; }

if [ $bad = 0 ] && [ $unknown = 0 ]; then
	echo "PASS: libsonde includes go down the layers ($LAYERS)"
else
	echo "FAIL: libsonde includes go down the layers ($LAYERS)"
	exit 1
fi
