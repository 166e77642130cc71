#!/usr/bin/env python3
"""Answer times of the engines in saved games (ferrum-arena --psq DIR).

    python3 scripts/answer_times.py PSQ_DIR [LIMIT_MS]

For each engine name: moves answered, median, 99th percentile and slowest time from
request to answer (the arena's clock), and with LIMIT_MS how many came later than it.
Opening stones (0 ms) are left out: the moves count from the first stone with a time,
so a first answer of 0 ms is left out with them. A file without the players' names
(a game cut short) is skipped with a note.
"""
import math
import os
import statistics
import sys


def read_psq(path):
    """(black name, white name, [ms of each move, in order])."""
    lines = [l.strip() for l in open(path) if l.strip()]
    stones = [l for l in lines[1:] if l.count(",") == 2 and l.replace(",", "").lstrip("-").isdigit()]
    rest = lines[1 + len(stones):]
    if len(rest) < 2:
        return None
    return rest[0], rest[1], [int(s.split(",")[2]) for s in stones]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    directory = sys.argv[1]
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else None
    times = {}
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".psq"):
            continue
        game = read_psq(os.path.join(directory, name))
        if game is None:
            print(f"{name}: no players' names after the stones, skipped", file=sys.stderr)
            continue
        black, white, moves = game
        # Opening stones carry 0 ms; the first move after them may be either colour's.
        first = next((i for i, ms in enumerate(moves) if ms > 0), len(moves))
        for i, ms in enumerate(moves[first:], start=first):
            times.setdefault(black if i % 2 == 0 else white, []).append(ms)
    for engine, ms in sorted(times.items()):
        ms.sort()
        # The 99th percentile by nearest rank: the smallest time at least 99 % of the
        # answers do not exceed.
        p99 = ms[math.ceil(0.99 * len(ms)) - 1]
        line = (f"{engine}: {len(ms)} moves, median {statistics.median(ms):g} ms, "
                f"99th percentile {p99} ms, slowest {ms[-1]} ms")
        if limit is not None:
            line += f", {sum(1 for t in ms if t > limit)} over {limit} ms"
        print(line)


if __name__ == "__main__":
    main()
