#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Branch stacks on the reading side: script -F brstack/brstacksym and
# report --branch-stack (perf's -b) on perf.data files whose samples
# carry branch stacks. This VM has no LBR, so brgen writes the files
# (what perf record -b writes: BRANCH_STACK samples, the BRANCH_STACK
# feature) over the helper objects; perf 6.1 reads the same file and is
# the oracle, byte for byte. Without perf the exact brstack text (made of
# the addresses given) is still checked.
. "$(dirname "$0")/lib.sh"

B=$HELPERS/brgen EXE=$HELPERS/symtest_nopie LIB=$HELPERS/libplthot.so
for f in "$B" "$EXE" "$LIB"; do
	[ -e "$f" ] || { skip "branch stacks: $f not built (make helpers)"; exit 0; }
done
command -v nm >/dev/null || { skip "branch stacks: nm (binutils) is not installed"; exit 0; }
sym() { nm "$2" | awk -v s="$1" '$3 == s { print $1; exit }'; }
dsym() { nm -D --defined-only "$2" | awk -v s="$1" '$3 == s { print $1; exit }'; }
hex() { printf '%x' $(($1)); }
MAIN=0x$(sym main "$EXE") MID=0x$(sym symtest_global_mid "$EXE")
LEAF=0x$(sym symtest_static_leaf "$EXE") STRONG=0x$(sym symtest_strong "$EXE")
LIBBASE=0x7f0000000000 HOT=$((0x7f0000000000 + 0x$(dsym plt_hot "$LIB")))
GONE=0x7f0000100000 # an object that is not there: a map, no symbols
if [ "$MAIN" = 0x ] || [ "$MID" = 0x ] || [ "$LEAF" = 0x ] || [ "$HOT" = "$LIBBASE" ]; then
	fail "branch stacks: helper symbols not found by nm"; exit 0
fi
# Sample IP:FROM-TO/flags,... (see tests/helpers/brgen.c).
S1="$(hex $MID+4):$(hex $MAIN+0x10)-$(hex $MID)/P/c5/t4,$(hex $MID+0x8)-$(hex $LEAF)/t4/c17,$(hex $LEAF+0x20)-$(hex $MID+0xc)/M/t6,$(hex $MID+0x10)-$(hex $MAIN+0x15)/P/t6"
S2="$(hex $LEAF+4):$(hex $MAIN+0x20)-$(hex $MAIN+0x30)/t1,$(hex $MAIN+0x40)-$(hex $MAIN+0x18)/t1/c3,$(hex $HOT+8)-$(hex $HOT+0x30)/X/A/t2,$(hex $MAIN+0x44)-$(hex $HOT)/t5/c60000"
S3="$(hex $MID+4):$(hex $MAIN+0x10)-$(hex $MID)/P/c5/t4,$(hex $HOT+0x10)-$(hex $GONE+0x40)/M/t3,$(hex $GONE+0x48)-1234/t15/n2,0-$(hex $LEAF)/t12"
S4="$(hex $HOT+4):$(hex $MID+0x10)-$(hex $MAIN+0x15)/P/t6,$(hex $MAIN+0x44)-$(hex $HOT)/t5/c60000,$(hex $HOT+0x60)-$(hex $MAIN+0x48)/t6"
MAPS=("$EXE:401000:1000:1000" "$LIB:7f0000001000:1000:1000" "/nonexistent/libgone.so:7f0000100000:1000:0")
F=$TMP/br.data FX=$TMP/brx.data
"$B" "$F" "${MAPS[@]}" -- "$S1" "$S2" "$S3" "$S4" 2>"$TMP/err" &&
	"$B" -x "$FX" "${MAPS[@]}" -- "$S1" "$S2" "$S3" "$S4" 2>>"$TMP/err" ||
	{ fail "brgen: $(head -c 300 "$TMP/err")"; exit 0; }

# The brstack text follows from the addresses and flags alone.
want=" 0x$(hex $MAIN+0x10)/0x$(hex $MID)/P/-/-/5/CALL  0x$(hex $MID+0x8)/0x$(hex $LEAF)/-/-/-/17/CALL  0x$(hex $LEAF+0x20)/0x$(hex $MID+0xc)/M/-/-/0/RET  0x$(hex $MID+0x10)/0x$(hex $MAIN+0x15)/P/-/-/0/RET "
for f in "$F" "$FX"; do
	got=$("$SONDE" script -i "$f" -F brstack 2>"$TMP/err" | head -1)
	[ "$got" = "$want" ] && pass "script -F brstack: entries and flags ($(basename "$f"))" ||
		fail "script -F brstack ($(basename "$f")): got '$got', want '$want' $(head -c 200 "$TMP/err")"
done
got=$("$SONDE" script -i "$F" -F brstack 2>/dev/null | sed -n 3p)
case "$got" in
*"/0x1234/-/-/-/0/FAULT_INST  0x0/0x$(hex $LEAF)/-/-/-/0/IRQ ") pass "script -F brstack: extended and IRQ types" ;;
*) fail "script -F brstack: third sample '$got'" ;;
esac
# brstackoff: the library's text at its offset into the file until a
# sample lands in it (the fourth), the executable's (the first sample's)
# at its address.
got=$("$SONDE" script -i "$F" -F brstackoff 2>/dev/null | sed -n 2p)
case "$got" in
*" 0x$(hex $HOT+8-0x7f0000000000)/0x$(hex $HOT+0x30-0x7f0000000000)/-/X/A/0/UNCOND  0x$(hex $MAIN+0x44)/0x$(hex $HOT-0x7f0000000000)/"*)
	pass "script -F brstackoff: offsets in a library, addresses in the executable" ;;
*) fail "script -F brstackoff: second sample '$got'" ;;
esac
got=$("$SONDE" script -i "$F" -F brstacksym 2>/dev/null | head -1)
[ "$got" = "main+0x10/symtest_global_mid+0x0/P/-/-/5/CALL symtest_global_mid+0x8/symtest_static_leaf+0x0/-/-/-/17/CALL symtest_static_leaf+0x20/symtest_global_mid+0xc/M/-/-/0/RET symtest_global_mid+0x10/main+0x15/P/-/-/0/RET " ] &&
	pass "script -F brstacksym: symbols and offsets" || fail "script -F brstacksym: '$got'"
# --json: the entries as objects, addresses as strings.
"$SONDE" script -i "$F" --json >"$TMP/j" 2>"$TMP/err"
if python3 - "$TMP/j" "$(hex $MAIN+0x10)" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
b = rows[0]["brstack"]
assert len(rows) == 4 and len(b) == 4, (len(rows), len(b))
assert b[0]["from"] == {"addr": "0x" + sys.argv[2], "sym": "main", "symoff": 16,
                        "dso": b[0]["from"]["dso"]}, b[0]["from"]
assert b[0]["to"]["sym"] == "symtest_global_mid" and b[0]["to"]["symoff"] == 0
assert (b[0]["predicted"], b[0]["mispred"], b[0]["cycles"], b[0]["type"]) == (True, False, 5, "CALL")
assert (b[2]["mispred"], b[2]["type"]) == (True, "RET")
t = rows[2]["brstack"]
assert t[2]["to"] == {"addr": "0x1234", "sym": None, "dso": None} and t[2]["type"] == "FAULT_INST"
assert rows[1]["brstack"][2]["in_tx"] and rows[1]["brstack"][2]["abort"]
PY
then pass "script --json: branch stacks"; else fail "script --json: branch stacks: $(head -c 300 "$TMP/err")"; fi
expect_fail "script -F brstack without branch stacks" "do not carry it.*record -b" \
	"$SONDE" script -F brstack -i "$(dirname "$0")/../fuzz/corpus/fuzz_perfdata/perf_fp.data"
expect_fail "script -F brstackinsn without branch stacks" "do not carry it.*record -b" \
	"$SONDE" script -F brstackinsn -i "$(dirname "$0")/../fuzz/corpus/fuzz_perfdata/perf_fp.data"
expect_fail "report --branch-history without branch stacks or callchains" "no branch stacks or callchains" \
	"$SONDE" report --branch-history -i "$(dirname "$0")/../fuzz/corpus/fuzz_perfdata/perf_file.data"
# Callchains and no branch stacks: the chains alone (no memcpy from a
# NULL branch stack, which the SAN build stops on).
expect_ok "report --branch-history with callchains only" \
	"$SONDE" report --branch-history --stdio -i "$(dirname "$0")/../fuzz/corpus/fuzz_perfdata/perf_fp.data"
contains "report --branch-history with callchains only: a call graph" '^ +---0x' "$TMP/out"
# A pipe-format file read from disk: perf pads no FEATURE record, so the
# samples start 4 bytes off alignment (the SAN build stops on a load
# that is not a memcpy).
expect_ok "report --branch-history on an unaligned pipe file" \
	"$SONDE" report --branch-history --stdio -i "$(dirname "$0")/../fuzz/corpus/fuzz_perfdata/perf_pipe.data"
contains "report --branch-history on an unaligned pipe file: a call graph" '^ +---0x' "$TMP/out"
expect_fail "report -b without branch stacks" "has no branch stacks" \
	"$SONDE" report -b -i "$(dirname "$0")/../fuzz/corpus/fuzz_perfdata/perf_fp.data"
expect_fail "report -b --sort sym" "not a branch key" "$SONDE" report -b -s sym -i "$F"
# A --sort of the usual keys is the usual table, as before branch mode.
"$SONDE" report -i "$F" -s sym >"$TMP/plain" 2>"$TMP/err"
grep -q '^# Overhead  Symbol' "$TMP/plain" && ! grep -q 'Branch Statistics' "$TMP/plain" &&
	pass "report -s sym on a branch file: the usual table" ||
	fail "report -s sym on a branch file: $(head -c 300 "$TMP/plain" "$TMP/err")"
"$SONDE" report -i "$F" >"$TMP/b" 2>"$TMP/err"
grep -q '^# Overhead  Command  Source Shared Object  Source Symbol' "$TMP/b" &&
	grep -q '^# Samples: 15  of event' "$TMP/b" && grep -q '^# Branch Statistics:' "$TMP/b" &&
	pass "report: branch mode by default on a branch file" ||
	fail "report on a branch file: $(head -c 600 "$TMP/b" "$TMP/err")"
"$SONDE" report -i "$F" --no-branch-stack -s sym >"$TMP/nb" 2>&1
grep -q 'Branch Statistics' "$TMP/nb" && fail "report --no-branch-stack still in branch mode" ||
	pass "report --no-branch-stack"

# brstackinsn walks real code: branches where the helper's instructions
# are (objdump names them), as a run of main -> symtest_strong ->
# symtest_global_mid -> symtest_static_leaf's loop would record them.
DIS=$TMP/dis.txt
objdump -d --no-show-raw-insn "$EXE" >"$DIS" 2>/dev/null
# insn FUNC REGEX: "address target" of FUNC's first instruction matching REGEX
insn() { awk -v f="<$1>:" -v re="$2" '$2 == f { on = 1; next } on && /^$/ { exit }
	on && $2 ~ re { sub(":", "", $1); print "0x" $1, "0x" $3; exit }' "$DIS"; }
read -r JA JA_TO < <(insn main '^ja$|^jb$|^jne$|^jae$|^jbe$|^jg$')
read -r CALL_S _ < <(insn main '^call$' | tail -1)
CALL_S=$(awk -v f="<main>:" '$2 == f { on = 1; next } on && /^$/ { exit }
	on && $2 == "call" && $4 == "<symtest_strong>" { sub(":", "", $1); print "0x" $1; exit }' "$DIS")
read -r JMP_M _ < <(insn symtest_strong '^jmp$|^call$')
read -r CALL_L _ < <(insn symtest_global_mid '^call$')
read -r LOOP LOOP_TO < <(insn symtest_static_leaf '^jne$|^jb$|^jnz$|^ja$|^jbe$')
FW=$TMP/walk.data
if [ -z "$JA" ] || [ -z "$CALL_S" ] || [ -z "$JMP_M" ] || [ -z "$CALL_L" ] || [ -z "$LOOP" ] || [ -z "$LOOP_TO" ]; then
	skip "script -F brstackinsn on real code: the helper's code has another shape here"
else
	# Sample 1: ja back to the loop in main, the call, the tail jump, the
	# call of the leaf, two turns of its loop; the sample in the loop.
	W1="$(hex $LOOP_TO+4):$(hex $LOOP)-$(hex $LOOP_TO)/M/c5/t1,$(hex $LOOP)-$(hex $LOOP_TO)/P/c6/t1"
	W1+=",$(hex $CALL_L)-$(hex $LEAF)/c2/t4,$(hex $JMP_M)-$(hex $MID)/c1/t2,$(hex $CALL_S)-$(hex $STRONG)/P/c3/t4,$(hex $JA)-$(hex $JA_TO)/c12/t1"
	# Sample 2: the sample is the last branch's source: no last block.
	W2="$(hex $LOOP):$(hex $LOOP)-$(hex $LOOP_TO)/P/c4/t1,$(hex $CALL_L)-$(hex $LEAF)/c2/t4"
	# Sample 3: a block from user code to a kernel source (an interrupt
	# whose entry the filter dropped) ends at the next branch instead.
	W3="$(hex $JA_TO):$(hex $CALL_S)-$(hex $STRONG)/c9/t4,ffffffff81000100-$(hex $JA_TO)/t12,$(hex $JA)-$(hex $JA_TO)/c12/t1"
	# Sample 4: the last target's run meets a branch before the sample.
	W4="$(hex $CALL_S+16):$(hex $JA)-$(hex $JA_TO)/c7/t1"
	if "$B" "$FW" "$EXE:401000:1000:1000" -- "$W1" "$W2" "$W3" "$W4" 2>"$TMP/err"; then
		"$SONDE" script -i "$FW" -F brstackinsn >"$TMP/w.txt" 2>"$TMP/err"
		leaf_ret=$(awk '/<symtest_static_leaf>:/ { on = 1; next } on && /^$/ { exit } on && / ret/ { sub(":", "", $1); print $1; exit }' "$DIS")
		grep -q "^	symtest_static_leaf:$" "$TMP/w.txt" &&
			grep -q "^	0*${LOOP#0x}	insn: .*# PRED 6 cycles \[[0-9]*\] [0-9.]* IPC$" "$TMP/w.txt" &&
			grep -q "^	\.\.\. not reaching sample \.\.\.$" "$TMP/w.txt" &&
			! grep -q "mismatch of LBR data" "$TMP/w.txt" &&
			pass "script -F brstackinsn: the blocks of real code, named, with cycles and IPC" ||
			fail "script -F brstackinsn on real code: $(head -c 600 "$TMP/w.txt" "$TMP/err")"
		"$SONDE" script -i "$FW" -F brstackinsn --max-blocks 1 >"$TMP/w1.txt" 2>&1
		[ "$(grep -c 'insn:' "$TMP/w1.txt")" -lt "$(grep -c 'insn:' "$TMP/w.txt")" ] &&
			pass "script --max-blocks: fewer blocks" || fail "script --max-blocks 1 printed as many instructions"
		# The largest count is every block (its + 1 once overflowed an int).
		"$SONDE" script -i "$FW" -F brstackinsn --max-blocks 2147483647 >"$TMP/wmax.txt" 2>&1 &&
			cmp -s "$TMP/w.txt" "$TMP/wmax.txt" &&
			pass "script --max-blocks 2147483647: every block" ||
			fail "script --max-blocks 2147483647: $(head -c 300 "$TMP/wmax.txt")"
	else
		fail "brgen (walk): $(head -c 300 "$TMP/err")"
		FW=
	fi
fi

# --branch-history: the branches start each entry's call graph (the
# oldest first), target then source, with what they said.
"$SONDE" report -i "$F" --branch-history >"$TMP/bh.txt" 2>"$TMP/err"
grep -q '^# Overhead  Source:Line .* Shared Object  IPC   \[IPC Coverage\]$' "$TMP/bh.txt" &&
	grep -q "main [a-z_]*\.[ch]:[0-9]* (cycles:5)$" "$TMP/bh.txt" &&
	grep -q "0x1234 (FAULT_INST CROSS_2M predicted:0.0%)$" "$TMP/bh.txt" &&
	pass "report --branch-history: branch frames with their counts" ||
	fail "report --branch-history: $(head -c 800 "$TMP/bh.txt" "$TMP/err")"
# The same samples with callchains (the walk's return addresses).
FC=$TMP/brchain.data
next_insn() { awk -v a="$(printf '%x' $(($1)))" 'on { sub(":", "", $1); print "0x" $1; exit }
	{ x = $1; sub(":", "", x) } x == a { on = 1 }' "$DIS"; }
if [ -n "$FW" ]; then
	RET_L=$(next_insn $CALL_L) RET_S=$(next_insn $CALL_S)
	CC="$(hex $LOOP_TO+4)/$(hex $RET_L)/$(hex $RET_S)"
	"$B" -g "$FC" "$EXE:401000:1000:1000" -- "$CC:${W1#*:}" "$CC:${W2#*:}" \
		"$(hex $LOOP_TO)/$(hex $RET_L)/$(hex $RET_S):$(hex $CALL_L)-$(hex $LEAF)/t4" \
		"$(hex $RET_L)/$(hex $RET_S):" 2>"$TMP/err" || { fail "brgen -g: $(head -c 300 "$TMP/err")"; FC=; }
else
	FC=
fi

if ! have_perf; then
	skip "branch stacks: perf is not installed (apt-get install linux-perf): no comparison with perf"
	exit 0
fi
report_vs_perf() { # FILE ARGS...
	local f=$1
	shift
	for args in "$@"; do
		perf report -i "$f" --stdio $args 2>"$TMP/perr" | perf_untip >"$TMP/p.txt"
		"$SONDE" report -i "$f" $args >"$TMP/s.txt" 2>"$TMP/err"
		if ! grep -q '^# Samples' "$TMP/p.txt"; then
			skip "report $args: perf printed no report to compare ($(tail -c 200 "$TMP/perr" | tr "\n" " "))"
		elif cmp -s "$TMP/p.txt" "$TMP/s.txt"; then
			pass "report $args: the same bytes as perf ($(basename "$f"))"
		else
			fail "report $args ($(basename "$f")) differs from perf: $(diff "$TMP/p.txt" "$TMP/s.txt" | head -8)"
		fi
	done
}
# script -F brstackinsn walks code as perf does: block by block, with
# perf's x86 decoder's lengths, names and annotations.
script_vs_perf() { # FILE FIELDS [OPTIONS...]
	local f=$1 fields=$2
	shift 2
	script_same "script -F $fields $* ($(basename "$f"))" "$f" -F "$fields" "$@"
}
for f in "$F" "$FX" $FW; do
	script_vs_perf "$f" brstackinsn
	script_vs_perf "$f" brstackinsnlen
	script_vs_perf "$f" ip,sym,brstack,brstackinsn
done
[ -n "$FW" ] && script_vs_perf "$FW" brstackinsn --max-blocks 2
# Code of random instructions (prefixes, REX, VEX/EVEX, the 0x0f maps, a
# fixed seed) in a copy of the helper, walked in blocks between random
# branches: every instruction's length as perf's decoder has it.
RC=$TMP/rcode RCD=$TMP/rcode.data
cp "$EXE" "$RC"
if python3 - "$RC" "$B" "$RCD" <<'PY'
import random, subprocess, sys
exe, brgen, out = sys.argv[1:4]
random.seed(7)
legacy = [0x26, 0x2e, 0x36, 0x3e, 0x64, 0x65, 0x66, 0x67, 0xf0, 0xf2, 0xf3]
code = bytearray()
while len(code) < 0x1000:
    b = [random.choice(legacy) for _ in range(random.choice([0, 0, 0, 1, 1, 2, 5]))]
    if random.random() < 0.3:
        b.append(0x40 | random.randrange(16))
    r = random.random()
    if r < 0.2:
        v = random.choice([0xc4, 0xc5, 0x62])
        b += [v] + [random.randrange(256) for _ in range({0xc4: 2, 0xc5: 1, 0x62: 3}[v])]
    elif r < 0.5:
        b += [0x0f] + ([random.choice([0x38, 0x3a])] if random.random() < 0.3 else [])
    code += bytes((b + [random.randrange(256) for _ in range(16)])[:16])
with open(exe, "r+b") as f:  # the code pages only: the headers and symbols stay
    f.seek(0x1000)
    f.write(code[:0x1000])
lo, hi = 0x401050, 0x401270  # main to symtest_strong, where both name the same functions
samples = []
for _ in range(40):
    ents, prev = [], None
    for k in range(16):
        a, b = sorted(random.sample(range(lo, hi), 2))
        fl = ("/c%d" % random.randrange(1, 40)) if random.random() < 0.5 else ""
        ents.append("%x-%x%s%s" % (b, prev if prev else random.randrange(lo, hi), fl,
                                   "/P" if random.random() < 0.3 else ""))
        prev = a
    samples.append("%x:%s" % (random.randrange(lo, hi), ",".join(ents)))
subprocess.run([brgen, out, exe + ":401000:1000:1000", "--"] + samples, check=True)
PY
then
	script_vs_perf "$RCD" brstackinsn
	script_vs_perf "$RCD" brstackinsnlen
else
	fail "random code for brstackinsn: python3 or brgen failed"
fi
for f in "$F" "$FX"; do
	for fields in brstack brstacksym brstack,dso brstacksym,dso comm,tid,time,ip,sym,brstacksym \
		ip,sym,dso,brstack,brstacksym event,period,brstack brstackoff ip,dso,brstackoff \
		ip,srcline,brstack; do
		script_vs_perf "$f" "$fields"
	done
done
# brstackoff: offsets into objects, absolute in those perf has loaded,
# which it does for a sample's own ip only: a second executable reached
# by branches alone shows offsets until a sample lands in it. Its
# functions are mapped 0x100000 above their link addresses.
EXE2=$HELPERS/unwind_nofp_nopie FO=$TMP/off.data
U=$(( 0x$(sym uw_middle "$EXE2") + 0x100000 )) V=$(( 0x$(sym uw_outer "$EXE2") + 0x100000 ))
if [ -x "$EXE2" ] && [ "$U" != $((0x100000)) ]; then
	"$B" "$FO" "$EXE:401000:1000:1000" "$EXE2:501000:1000:1000" -- \
		"$(hex $MID+4):$(hex $MID+8)-$(hex $LEAF)/t4,$(hex $U+8)-$(hex $MID),$(hex $MID+0x10)-$(hex $V+4)" \
		"$(hex $U+0x10):$(hex $MAIN+0x10)-$(hex $V)" "$(hex $MID+4):$(hex $U+8)-$(hex $V+0x20)" 2>"$TMP/err" ||
		fail "brgen (two executables): $(head -c 300 "$TMP/err")"
	for fields in brstackoff brstackoff,dso ip,sym,brstackoff; do
		perf script -i "$FO" -F "$fields" >"$TMP/p.txt" 2>/dev/null
		"$SONDE" script -i "$FO" -F "$fields" >"$TMP/s.txt" 2>"$TMP/err"
		if [ -s "$TMP/p.txt" ] && cmp -s "$TMP/p.txt" "$TMP/s.txt"; then
			pass "script -F $fields: offsets and perf's loaded objects, as perf"
		else
			fail "script -F $fields (two executables) differs from perf: $(diff "$TMP/p.txt" "$TMP/s.txt" | head -6)"
		fi
	done
else
	skip "script -F brstackoff with two executables: $EXE2 not built"
fi
# perf 6.1 crashes on a --sort naming symbol_from or symbol_to with -b:
# the default keys and the others are compared. mispredict, in_tx and
# abort are not an order in perf (its tree's shape decides which rows
# merge), srcline_from/to are looked up only where a comparison needs
# them ("(null)" elsewhere): the profile keeps both ways.
report_vs_perf "$F" "" "-b" "-s dso_to" "-s dso_from,dso_to" "-s comm,dso_from,dso_to,cycles" "-s cycles" \
	"--comm brwork" "--tid 4243" "--tid 4243 --percentage relative" "--pid 4242 --percentage relative" \
	"--comm nosuch" "-s mispredict" "-s in_tx,abort,cycles" "-s addr_from" "-s addr_to,addr_from" \
	"-s comm,mispredict" "-s mispredict,dso_to"
report_vs_perf "$FX" "-s mispredict,in_tx" "-s addr_to,addr_from,dso_to"
# Source lines without the missing object: perf 6.1 asks an addr2line
# child about it, which has exited, and dies of SIGPIPE now and then.
FS=$TMP/brsrc.data
if "$B" "$FS" "${MAPS[@]:0:2}" -- "$S1" "$S2" "$S4" 2>"$TMP/err"; then
	report_vs_perf "$FS" "-s srcline_from" "-s srcline_to" "-s srcline_from,srcline_to" \
		"-s dso_from,srcline_to" "--comm brwork -s comm,mispredict,srcline_to"
else
	fail "brgen (source lines): $(head -c 300 "$TMP/err")"
fi
# Many branches between the same few places, flags at random (a fixed
# seed): rows that perf's trees split and merge.
RANDOM=12
ADDRS=($((MAIN)) $((MID)) $((LEAF)) $HOT $((GONE)) 0 4660)
rnd_addr() { local b=${ADDRS[RANDOM % 7]} o=(0 4 8 16 32); [ "$b" = 0 ] && echo 0 || hex "$b+${o[RANDOM % 5]}"; }
SAMPLES=()
for i in $(seq 40); do
	ents=""
	for j in $(seq $((RANDOM % 8 + 1))); do
		e="$(rnd_addr)-$(rnd_addr)"
		case $((RANDOM % 10)) in 0|1|2) e+=/P ;; 3|4) e+=/M ;; esac
		[ $((RANDOM % 10)) = 0 ] && e+=/X
		[ $((RANDOM % 10)) = 0 ] && e+=/A
		[ $((RANDOM % 3)) = 0 ] && e+=/c$((RANDOM % 20 + 1))
		ents+="${ents:+,}$e/t$((RANDOM % 16))"
	done
	SAMPLES+=("$(hex $MID+4):$ents")
done
FR=$TMP/brrnd.data
if "$B" "$FR" "${MAPS[@]}" -- "${SAMPLES[@]}" 2>"$TMP/err"; then
	report_vs_perf "$FR" "" "-s mispredict" "-s in_tx,abort" "-s mispredict,comm,cycles" \
		"-s addr_from,addr_to" "-s dso_to,mispredict,in_tx" "--tid 4242 -s comm,mispredict"
else
	fail "brgen (random flags): $(head -c 300 "$TMP/err")"
fi
# --branch-history as perf prints it: the table by srcline,symbol,dso
# with perf's IPC column, the graphs of branch frames matched by address
# with their types, predictions, cycles and folded loop turns, in each
# call graph order and form, with and without callchains.
for args in "" "-g callee" "--no-children" "-g folded" "-g flat" "-g graph,0,caller,count" \
	"-g fractal" "--max-stack 3" "-s sym" "--percent-limit 20"; do
	report_vs_perf "$FS" "--branch-history $args"
done
[ -n "$FC" ] && report_vs_perf "$FC" "--branch-history" "--branch-history --no-children" \
	"--branch-history -g callee"
# perf's table around it: "??:0" for the line of an address outside any
# object, an object column 16 wide where a symbol is missing, the IPC
# column of a --sort naming "symbol".
FU=$TMP/brunres.data
if "$B" "$FU" "${MAPS[@]:0:2}" -- "1234:$(hex $MAIN+0x10)-$(hex $MID)/t4" "$S1" "$S2" "$S4" 2>"$TMP/err"; then
	report_vs_perf "$FU" "--no-branch-stack -s srcline,symbol,dso" "--no-branch-stack -s sym,dso" \
		"--no-branch-stack -s dso,comm" "--branch-history"
else
	fail "brgen (unresolved samples): $(head -c 300 "$TMP/err")"
fi
# Two copies of the executable under two names: perf's sort__sym_cmp
# compares the object when the sort has no dso key, so the same symbol
# of each copy is a row of its own (with or without children and the IPC
# column), not one row of both.
FT=$TMP/brtwo.data
cp "$EXE" "$TMP/othercopy"
A="$(hex $MID+4)/$(hex $MAIN+8):" AC="$(hex $MID+0x10000004)/$(hex $MAIN+0x10000008):"
if "$B" -g "$FT" "$EXE:401000:1000:1000" "$TMP/othercopy:10401000:1000:1000" -- "$A" "$AC" "$A" 2>"$TMP/err"; then
	report_vs_perf "$FT" "--no-branch-stack -s sym" "--no-branch-stack -s sym --no-children" \
		"--no-branch-stack -s symbol" "--no-branch-stack -s symbol --no-children" \
		"--no-branch-stack -s Ipc_null,sym" "--no-branch-stack -s Ipc_null,sym --no-children"
else
	fail "brgen (two copies): $(head -c 300 "$TMP/err")"
fi
# Loops: runs of branches repeated, in samples repeated, so that perf's
# loop folding and its iteration counts show.
FL=$TMP/brloop.data
if python3 - "$B" "$FL" "$EXE" "$MAIN" "$MID" "$LEAF" <<'PY'
import random, subprocess, sys
brgen, out, exe = sys.argv[1:4]
funcs = [int(a, 16) for a in sys.argv[4:7]]
random.seed(3)
samples = []
for _ in range(30):
    pick = lambda: random.choice(funcs) + random.randrange(0, 0x1c)
    body = [(pick(), pick()) for _ in range(random.randint(1, 3))]
    ents = body * random.randint(1, 6) + [(pick(), random.choice(funcs)) for _ in range(random.randint(0, 4))]
    text = ["%x-%x/t%d%s%s" % (f, t, random.choice([1, 4, 6]),
                               "/c%d" % random.randint(1, 30) if random.random() < 0.5 else "",
                               "/P" if random.random() < 0.4 else "") for f, t in ents[:64]]
    samples += ["%x:%s" % (random.choice(funcs) + 4, ",".join(text))] * random.randint(1, 3)
subprocess.run([brgen, out, exe + ":401000:1000:1000", "--"] + samples, check=True)
PY
then
	report_vs_perf "$FL" "--branch-history" "--branch-history -g callee" "--branch-history -g folded"
	grep -q "iter:" "$TMP/s.txt" || "$SONDE" report -i "$FL" --branch-history | grep -q "iter:" &&
		pass "report --branch-history: folded loop turns counted" ||
		fail "report --branch-history: no iter: count on the loop file"
else
	fail "loop file for --branch-history: python3 or brgen failed"
fi
