#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# Under a seccomp filter that denies perf_event_open (a container's
# profile): one message per cause, not one per event, and no fallback
# whose premise does not hold (record must not blame perf_event_paranoid).
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 1

# noperf CMD...: CMD under a filter that fails perf_event_open with EPERM.
noperf() {
	python3 -c '
import ctypes, os, platform, sys
nr = {"x86_64": 298, "aarch64": 241}.get(platform.machine())
if nr is None:
    sys.exit(77)
class F(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte),
                ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint)]
class P(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(F))]
# load the syscall number; perf_event_open -> ERRNO(EPERM), else allow
prog = (F * 4)(F(0x20, 0, 0, 0), F(0x15, 0, 1, nr),
               F(0x06, 0, 0, 0x00050000 | 1), F(0x06, 0, 0, 0x7fff0000))
libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(38, 1, 0, 0, 0) or libc.prctl(22, 2, ctypes.byref(P(4, prog)), 0, 0):
    sys.exit(77)
os.execvp(sys.argv[1], sys.argv[1:])
' "$@"
}

if ! command -v python3 >/dev/null; then
	skip "seccomp: python3 is needed to install the filter"
	exit 0
fi
noperf true
if [ $? = 77 ]; then
	skip "seccomp: cannot install a seccomp filter here (or unknown syscall number)"
	exit 0
fi

noperf "$SONDE" stat -- true >out 2>err
rc=$?
if [ $rc = 0 ]; then
	fail "stat under seccomp: exit 0"
elif [ "$(grep -c seccomp err)" != 1 ]; then
	fail "stat under seccomp: $(grep -c seccomp err) messages, not one: $(head -c 300 err)"
else
	pass "stat under seccomp: fails with one message naming seccomp"
fi

noperf "$SONDE" record -o x.data -- true >out 2>err
rc=$?
if [ $rc = 0 ]; then
	fail "record under seccomp: exit 0"
elif grep -q paranoid err; then
	fail "record under seccomp: blames perf_event_paranoid: $(head -c 300 err)"
elif [ "$(grep -c seccomp err)" != 1 ]; then
	fail "record under seccomp: $(grep -c seccomp err) messages naming seccomp, not one: $(head -c 300 err)"
elif [ -e x.data ]; then
	fail "record under seccomp: left x.data"
else
	pass "record under seccomp: one message naming seccomp, no paranoid fallback"
fi
