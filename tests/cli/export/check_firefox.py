#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only
"""Checks a Firefox Profiler file in the processed format samply writes:
meta with version 24 / preprocessedProfileVersion 49 and the fields the
profiler's upgraders read, every thread's tables with their columns of
the declared length, indexes in range, stack prefixes before their
stacks, sample times that never go back. Prints "tid samples" per thread
on success; exits 1 with the first problem otherwise."""
import json
import sys


def fail(msg):
    print("firefox: " + msg, file=sys.stderr)
    sys.exit(1)


TABLES = {
    "frameTable": ("address", "inlineDepth", "category", "subcategory", "func", "nativeSymbol",
                   "innerWindowID", "implementation", "line", "column"),
    "funcTable": ("name", "isJS", "relevantForJS", "resource", "fileName", "lineNumber",
                  "columnNumber"),
    "resourceTable": ("lib", "name", "host", "type"),
    "stackTable": ("prefix", "frame", "category", "subcategory"),
    "samples": ("stack", "time"),
}


def idx(v, n, what):
    if v is not None and not (isinstance(v, int) and 0 <= v < n):
        fail("%s: index %r out of range (%d)" % (what, v, n))


def main():
    d = json.load(open(sys.argv[1]))
    m = d.get("meta") or fail("no meta")
    if m.get("version") != 24 or m.get("preprocessedProfileVersion") != 49:
        fail("versions %r/%r" % (m.get("version"), m.get("preprocessedProfileVersion")))
    for k in ("interval", "startTime", "product", "categories", "processType", "symbolicated",
              "sampleUnits", "markerSchema"):
        if k not in m:
            fail("meta lacks " + k)
    cats = m["categories"]
    for k in ("libs", "threads", "pages", "counters"):
        if k not in d:
            fail("no " + k)
    for t in d["threads"]:
        for k in ("name", "pid", "tid", "processName", "registerTime", "markers", "stringArray",
                  "isMainThread", "processType", "nativeSymbols"):
            if k not in t:
                fail("thread lacks " + k)
        for tab, cols in TABLES.items():
            tb = t.get(tab) or fail("thread lacks " + tab)
            n = tb.get("length")
            for c in cols:
                if len(tb.get(c, [])) != n:
                    fail("%s.%s has %d rows, length %r" % (tab, c, len(tb.get(c, [])), n))
        ft, fu, rt, st = t["frameTable"], t["funcTable"], t["resourceTable"], t["stackTable"]
        strs = len(t["stringArray"])
        for i in range(ft["length"]):
            idx(ft["func"][i], fu["length"], "frame func")
            idx(ft["category"][i], len(cats), "frame category")
        for i in range(fu["length"]):
            idx(fu["name"][i], strs, "func name")
            if fu["name"][i] is None:
                fail("func without a name")
            idx(fu["resource"][i], rt["length"], "func resource")
        for i in range(rt["length"]):
            idx(rt["name"][i], strs, "resource name")
        for i in range(st["length"]):
            p = st["prefix"][i]
            if p is not None and not (isinstance(p, int) and 0 <= p < i):
                fail("stack %d: prefix %r not before it" % (i, p))
            idx(st["frame"][i], ft["length"], "stack frame")
        s = t["samples"]
        for v in s["stack"]:
            idx(v, st["length"], "sample stack")
            if v is None:
                fail("sample without a stack")
        if any(b < a for a, b in zip(s["time"], s["time"][1:])):
            fail("thread %s: sample times go back" % t["tid"])
        print(t["tid"], s["length"])


main()
