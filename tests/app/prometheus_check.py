#!/usr/bin/env python3
"""Parses a Prometheus text exposition (format 0.0.4) from stdin strictly enough to catch what a
scraper would reject: every sample has a HELP and a TYPE line before it, names are legal, counters
end in _total, a histogram's samples are its _bucket (with le), _sum and _count, values are numbers,
labels are name="value" with only \\, \" and \n escaped. Prints the samples as NAME VALUE lines;
exits 1 on any problem."""
import re
import sys

NAME = re.compile(r"^[a-zA-Z_:][a-zA-Z0-9_:]*$")
# name{label="value",...} value: a value is anything but a raw quote, backslash or newline, or an escape.
SAMPLE = re.compile(r'^([^{ ]+)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*"(?:,|(?=\})))*\})? (\S+)$')
problems, helps, types, samples = [], set(), {}, {}
for number, line in enumerate(sys.stdin.read().splitlines(), 1):
    if not line:
        continue
    if line.startswith("# HELP "):
        helps.add(line.split(" ", 3)[2])
    elif line.startswith("# TYPE "):
        parts = line.split(" ")
        if len(parts) != 4 or parts[3] not in ("counter", "gauge", "untyped", "summary", "histogram"):
            problems.append(f"line {number}: bad TYPE line: {line}")
        else:
            types[parts[2]] = parts[3]
    elif line.startswith("#"):
        continue
    else:
        match = SAMPLE.match(line)
        if not match:
            problems.append(f"line {number}: not a sample: {line!r}")
            continue
        name, labels, value = match.group(1), match.group(2) or "", match.group(3)
        if not NAME.match(name):
            problems.append(f"line {number}: illegal metric name {name!r}")
        # A histogram's samples are its family's name with _bucket (an le label), _sum or _count.
        family = name
        for suffix in ("_bucket", "_sum", "_count"):
            stem = name[: -len(suffix)]
            if name.endswith(suffix) and types.get(stem) == "histogram":
                family = stem
                if suffix == "_bucket" and 'le="' not in labels:
                    problems.append(f"line {number}: bucket {name} has no le label")
        if family not in helps or family not in types:
            problems.append(f"line {number}: {name} has no HELP or TYPE before it")
        if types.get(name) == "counter" and not name.endswith("_total"):
            problems.append(f"line {number}: counter {name} does not end in _total")
        try:
            samples[name + labels] = float(value)
        except ValueError:
            problems.append(f"line {number}: value {value!r} of {name} is not a number")
for p in problems:
    print(p, file=sys.stderr)
for name, value in samples.items():
    print(name, value)
sys.exit(1 if problems or not samples else 0)
