#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only
"""Checks a speedscope file against speedscope's published file-format
schema (https://www.speedscope.app/file-format-schema.json, made from
src/lib/file-format-spec.ts): the required properties, their types and
enums, and that every frame index and weight lines up. Standard library
only. Prints "tid samples weight" per profile on success; exits 1 with
the first problem otherwise."""
import json
import sys

SCHEMA = "https://www.speedscope.app/file-format-schema.json"
UNITS = {"none", "nanoseconds", "microseconds", "milliseconds", "seconds", "bytes"}


def fail(msg):
    print("speedscope: " + msg, file=sys.stderr)
    sys.exit(1)


def num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def main():
    d = json.load(open(sys.argv[1]))
    if not isinstance(d, dict):
        fail("top level is not an object")
    for k in ("$schema", "shared", "profiles"):
        if k not in d:
            fail("missing required property " + k)
    if d["$schema"] != SCHEMA:
        fail("$schema is %r" % d["$schema"])
    for k in ("name", "exporter"):
        if k in d and not isinstance(d[k], str):
            fail(k + " is not a string")
    if "activeProfileIndex" in d and not num(d["activeProfileIndex"]):
        fail("activeProfileIndex is not a number")
    frames = d["shared"].get("frames")
    if not isinstance(frames, list):
        fail("shared.frames is not an array")
    for i, f in enumerate(frames):
        if not isinstance(f, dict) or not isinstance(f.get("name"), str):
            fail("frame %d has no string name" % i)
        for k in ("file",):
            if k in f and not isinstance(f[k], str):
                fail("frame %d: %s is not a string" % (i, k))
        for k in ("line", "col"):
            if k in f and not num(f[k]):
                fail("frame %d: %s is not a number" % (i, k))
    if not isinstance(d["profiles"], list) or not d["profiles"]:
        fail("profiles is not a non-empty array")
    for p in d["profiles"]:
        for k in ("type", "name", "unit", "startValue", "endValue", "samples", "weights"):
            if k not in p:
                fail("profile lacks " + k)
        if p["type"] != "sampled":
            fail("profile type %r" % p["type"])
        if p["unit"] not in UNITS:
            fail("unit %r" % p["unit"])
        if not isinstance(p["name"], str) or not num(p["startValue"]) or not num(p["endValue"]):
            fail("name/startValue/endValue types")
        if len(p["samples"]) != len(p["weights"]):
            fail("%s: %d samples, %d weights" % (p["name"], len(p["samples"]), len(p["weights"])))
        for s in p["samples"]:
            if not isinstance(s, list) or not all(isinstance(i, int) and 0 <= i < len(frames) for i in s):
                fail("%s: a sample's frame index is out of range" % p["name"])
        if not all(num(w) and w >= 0 for w in p["weights"]):
            fail("%s: a weight is not a non-negative number" % p["name"])
        if sum(p["weights"]) != p["endValue"] - p["startValue"]:
            fail("%s: weights sum to %d, the range is %d" % (p["name"], sum(p["weights"]), p["endValue"] - p["startValue"]))
        tid = p["name"].rsplit("/", 1)[-1].rstrip(")")
        print(tid, len(p["samples"]), sum(p["weights"]))


main()
