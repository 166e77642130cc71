#!/usr/bin/env python3
"""Answer times of the engines in saved games (ferrum-arena --psq DIR).

    python3 scripts/answer_times.py PSQ_DIR [LIMIT_MS]

For each engine name: moves answered, median, 99th percentile and slowest time from
request to answer (the arena's clock), and with LIMIT_MS how many came later than it.
Opening stones (0 ms) are left out.
"""
import os
import sys


def read_psq(path):
    """(black name, white name, [ms of each move, in order])."""
    lines = [l.strip() for l in open(path) if l.strip()]
    stones = [l for l in lines[1:] if l.count(",") == 2 and l.replace(",", "").lstrip("-").isdigit()]
    rest = lines[1 + len(stones):]
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
        black, white, moves = read_psq(os.path.join(directory, name))
        # Opening stones carry 0 ms; the first move after them may be either colour's.
        first = next((i for i, ms in enumerate(moves) if ms > 0), len(moves))
        for i, ms in enumerate(moves[first:], start=first):
            times.setdefault(black if i % 2 == 0 else white, []).append(ms)
    for engine, ms in sorted(times.items()):
        ms.sort()
        line = (f"{engine}: {len(ms)} moves, median {ms[len(ms) // 2]} ms, "
                f"99th percentile {ms[min(len(ms) - 1, len(ms) * 99 // 100)]} ms, slowest {ms[-1]} ms")
        if limit is not None:
            line += f", {sum(1 for t in ms if t > limit)} over {limit} ms"
        print(line)


if __name__ == "__main__":
    main()
