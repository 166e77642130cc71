#!/usr/bin/env python3
"""Writes the tables printed by `pbrain-ferrum tune` into the source tree.

    scripts/apply_tune.py TUNE_OUTPUT [REPO]

TUNE_OUTPUT is what `tune` printed (stdout). The first three tables (LINE_VALUE,
THREAT_VALUE, THREAT_COUNT_VALUE) replace the numbers of the same constants in
REPO/src/eval/weights.rs one for one, so that the file keeps its layout and its
comments (the column names above each row); the two generated files after the
marker lines, src/eval/combo_weights.rs and src/eval/mask_weights.rs, are written
whole. REPO defaults to the repository this script is in. Fails, writing nothing,
when a table's number count differs from the file's (a tune of another build).
"""
import os
import re
import sys

TABLES = ["LINE_VALUE", "THREAT_VALUE", "THREAT_COUNT_VALUE"]
GENERATED = ["src/eval/combo_weights.rs", "src/eval/mask_weights.rs"]
INT = re.compile(r"-?\d+")


def const_body(text, name):
    """The span of `pub const NAME ... = [` up to its closing `];` line."""
    m = re.search(r"pub const %s\b[^=]*= \[\n(.*?)\n\];\n" % name, text, re.S)
    if not m:
        raise SystemExit("apply_tune: no table %s" % name)
    return m.start(1), m.end(1)


def code_ints(body):
    """The integers of a table body, outside `//` comments."""
    return [int(v) for line in body.split("\n") for v in INT.findall(line.split("//")[0])]


def replace_ints(body, values):
    """The body with its integers (outside comments) replaced in order by `values`."""
    it = iter(values)
    lines = []
    for line in body.split("\n"):
        code, sep, comment = line.partition("//")
        code = INT.sub(lambda _: str(next(it)), code)
        lines.append(code + sep + comment)
    return "\n".join(lines)


def main():
    if len(sys.argv) not in (2, 3):
        raise SystemExit(__doc__.strip())
    repo = sys.argv[2] if len(sys.argv) == 3 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = open(sys.argv[1]).read()
    parts = re.split(r"^// ---- (src/eval/\w+\.rs) ----\n", out, flags=re.M)
    head, generated = parts[0], dict(zip(parts[1::2], parts[2::2]))
    if sorted(generated) != sorted(GENERATED):
        raise SystemExit("apply_tune: %s lacks the marker lines of %s" % (sys.argv[1], GENERATED))
    path = os.path.join(repo, "src/eval/weights.rs")
    weights = open(path).read()
    for name in TABLES:
        s, e = const_body(head, name)
        values = code_ints(head[s:e])
        s, e = const_body(weights, name)
        have = len(code_ints(weights[s:e]))
        if have != len(values):
            raise SystemExit("apply_tune: %s has %d numbers in %s, %d in the tune output"
                             % (name, have, path, len(values)))
        weights = weights[:s] + replace_ints(weights[s:e], values) + weights[e:]
    open(path, "w").write(weights)
    for rel in GENERATED:
        open(os.path.join(repo, rel), "w").write(generated[rel].rstrip() + "\n")
    print("wrote %s and %s" % (path, ", ".join(GENERATED)))


if __name__ == "__main__":
    main()
