#!/usr/bin/env python3
"""Ferrum's search speed in play, from its own logs.

`bench` searches a few sparse positions, where the network's share of a node's cost is
smaller than in games; this reads what a match really got. For every move request in
Ferrum's `--log` files (a `<< TURN`, `<< BEGIN` or `<< BOARD` line), it takes the
nodes of the `Move: ... nodes N` line logged with it and the time from the request's
arrival to the answer (`>> x,y`), both as logged, and prints per log file and over all
of them: moves searched (those with nodes), their mean time and nodes per millisecond.
A log that rotated (`LOG.old`) is read with it, the older part first. Give each engine
process its own log file (`--log`): with `--concurrency 1`, e.g.

    ferrum-arena --engine "pbrain-ferrum --threads 1 --eval net --log net.log" \\
                 --engine "pbrain-ferrum --threads 1 --log classical.log" --turn-ms 200 ...
    scripts/nodes_per_ms.py net.log classical.log

and with more games at once, through a wrapper that names the file by its process
(`--log DIR/$$.log`, as scripts/loss_evals.py shows): two processes writing one file
interleave their requests and answers.
"""
import os
import re
import sys
from datetime import datetime

REQUEST = re.compile(r"\] << (TURN|BEGIN|BOARD)")
MOVE = re.compile(r"Move: .*\bnodes (\d+)")
ANSWER = re.compile(r"\] >> \d+,\d+")


def stamp(line):
    """Seconds of the line's ISO timestamp (`2026-12-05T14:20:01.273123Z [INFO] ...`)."""
    text = line.split()[0].rstrip("Z")
    whole, _, fraction = text.partition(".")
    return datetime.fromisoformat(whole).timestamp() + float("0." + (fraction or "0"))


def moves(path):
    """(nodes, seconds) of every searched move in one log. The answer is logged before
    the `Move:` line (the protocol answers first), older logs had it after: either
    order counts once both are in."""
    out, asked, nodes, answered = [], None, None, None
    parts = [p for p in (path + ".old", path) if os.path.exists(p)]
    if not parts:
        sys.exit(f"{path}: no such log")
    for line in (line for p in parts for line in open(p, errors="replace")):
        if REQUEST.search(line):
            asked, nodes, answered = stamp(line), None, None
            continue
        if asked is None:
            continue
        if m := MOVE.search(line):
            nodes = int(m.group(1))
        elif ANSWER.search(line):
            answered = stamp(line)
        if nodes and answered is not None:
            out.append((nodes, answered - asked))
            asked = None
    return out


def report(name, rows):
    if not rows:
        print(f"{name}: no searched move")
        return
    nodes = sum(n for n, _ in rows)
    seconds = sum(s for _, s in rows)
    print(f"{name}: {len(rows)} moves, mean {1000 * seconds / len(rows):.0f} ms, "
          f"{nodes / seconds / 1000:.0f} nodes/ms")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    every = []
    for path in sys.argv[1:]:
        rows = moves(path)
        report(path, rows)
        every += rows
    if len(sys.argv) > 2:
        report("all", every)


if __name__ == "__main__":
    main()
