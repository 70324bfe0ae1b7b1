#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# A thread that execs changes its comm: perf sizes the comm column by
# each entry's first thread's LAST comm (thread__comm_len) and cuts the
# sample's comm to that width, and its pid key is the thread alone, shown
# with that last comm. sonde report prints the same, to the byte, on a
# workload that runs a script with a long name, which forks a program with
# a middle-sized name and then execs /bin/true.
source "$(dirname "$0")/lib.sh"

need_perf "comm width"
TRUE=$(type -P true)
[ -x "$TRUE" ] || { skip "comm width: no true binary"; exit 0; }
cp "$TRUE" "$TMP/midlen_name"
S="$TMP/long_script_name_here"
printf '#!/bin/sh\n%s/midlen_name\nexec %s\n' "$TMP" "$TRUE" >"$S"
chmod +x "$S" "$TMP/midlen_name"

if ! perf_rec "$TMP/cw.data" -e page-faults -c 1 -g "$S"; then
	skip "comm width: perf record failed: $(head -c 200 "$TMP/rec.err" | tr '\n' ' ')"
	exit 0
fi
# the premise: perf cut a comm (the script's) to a shorter thread's width
if ! perf report -f -i "$TMP/cw.data" --stdio --sort comm -g none 2>/dev/null |
	grep -qE '%  long_script$'; then
	skip "comm width: perf did not show the script's comm cut to 11 columns"
	exit 0
fi

for nc in --no-children --children; do
	report_same "comm width comm $nc" "$TMP/cw.data" --sort comm $nc -g none
	report_same "comm width pid $nc" "$TMP/cw.data" --sort pid $nc -g none
	report_same "comm width comm,dso $nc" "$TMP/cw.data" --sort comm,dso $nc -g none
	report_same "comm width comm,pid $nc" "$TMP/cw.data" --sort comm,pid $nc -g none
	# perf 6.1 names libc's __tunable_get_val@plt "@plt" (another matter)
	REPORT_CUT='@plt' report_same "comm width default keys $nc" "$TMP/cw.data" $nc -g none
done
REPORT_CUT='@plt' report_same "comm width pid with graph" "$TMP/cw.data" --sort pid --no-children
