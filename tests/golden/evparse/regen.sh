#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Regenerates perf61.attr from the installed perf (run once per perf
# version; the file records what perf 6.1 builds for every spec in
# specs.txt). Usage: tests/golden/evparse/regen.sh [PERF]
set -eu
DIR=$(cd "$(dirname "$0")" && pwd)
PERF=${1:-perf}
"$PERF" --version | grep -q 'perf version 6\.1' ||
	echo "warning: $("$PERF" --version) is not perf 6.1" >&2
dump_all() {
	while IFS=$'\t' read -r n spec; do
		case $n in \#*|'') continue ;; esac
		echo "### $spec"
		"$PERF" stat -vv -e "$spec" true 2>&1 | "$DIR/filter_attr.sh" "$n"
	done <"$DIR/specs.txt"
}
dump_all >"$DIR/perf61.attr"
echo "wrote $DIR/perf61.attr ($(grep -c '^###' "$DIR/perf61.attr") specs)"
# The record side: per-event terms and modifiers as perf record applies them.
dump_record() {
	while IFS= read -r spec; do
		case $spec in \#*|'') continue ;; esac
		echo "### $spec"
		"$PERF" record -vv -e "$spec" -o "$TMPD/x.data" true 2>&1 |
			"$DIR/filter_record_attr.sh"
	done <"$DIR/record_specs.txt"
}
TMPD=$(mktemp -d)
dump_record >"$DIR/perf61_record.attr"
rm -rf "$TMPD"
echo "wrote $DIR/perf61_record.attr ($(grep -c '^###' "$DIR/perf61_record.attr") specs)"
# Record options (-b, -j, -k) as perf record applies them to task-clock.
dump_options() {
	while IFS= read -r args; do
		case $args in \#*|'') continue ;; esac
		echo "### $args"
		# shellcheck disable=SC2086 # the options are words
		"$PERF" record -vv $args -e task-clock -o "$TMPD/x.data" true 2>&1 |
			"$DIR/filter_record_attr.sh"
	done <"$DIR/record_options.txt"
}
TMPD=$(mktemp -d)
dump_options >"$DIR/perf61_record_options.attr"
rm -rf "$TMPD"
echo "wrote $DIR/perf61_record_options.attr ($(grep -c '^###' "$DIR/perf61_record_options.attr") option sets)"
