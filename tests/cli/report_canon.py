#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only
"""Puts the entries of a `perf report --stdio` text that print the same
numbers in one order (their text's), leaving every other line in place.
perf and sonde may order rows of equal shares differently; which one comes
first is not part of what the tests compare. Reads stdin, writes stdout."""
import re
import sys

ENTRY = re.compile(r'^ +(-?[0-9.]+%)(?: +(-?[0-9.]+%))? ')

def main():
    lines = sys.stdin.read().split('\n')
    out, run, key = [], [], None

    def flush():
        for block in sorted(run):
            out.extend(block)
        run.clear()

    i = 0
    while i < len(lines):
        m = ENTRY.match(lines[i])
        if not m:
            flush()
            key = None
            out.append(lines[i])
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not ENTRY.match(lines[j]) and not lines[j].startswith('#'):
            j += 1
        k = m.groups()
        if k != key:
            flush()
            key = k
        run.append(lines[i:j])
        i = j
    flush()
    sys.stdout.write('\n'.join(out))

main()
