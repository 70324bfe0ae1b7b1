#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only
"""Reads `sonde report --json` on stdin and prints "KEY samples period self%"
per entry of the first event, KEY being the entry's FIELD (comm, tid,
sym)."""
import json
import sys

field = sys.argv[1]
ev = json.load(sys.stdin)["events"][0]
for e in ev["entries"]:
    print(e.get(field), e["samples"], e["period"], "%.4f" % e["self"])
