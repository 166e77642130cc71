#!/usr/bin/env python3
"""Scores of several match runs on the games they all finished.

`scripts/match.sh` plays the openings in file order, game 2k+1 and 2k+2 on opening k
with colours swapped, so game n of one run and game n of another start from the same
position. Runs stopped after different numbers of games, or run on another day, are
compared fairly only on their common games: this prints, for each log (match.sh's
output, W-L-D from NEW's side), NEW's score on the games every log finished and on all
of its own, and the difference of each run from the first on the common games with
its standard error (game by game, paired by number).

    scripts/compare_runs.py CONTROL.log RUN.log [RUN.log ...]
    scripts/compare_runs.py --openings OPENINGS.txt RUN.log [RUN.log ...]

With `--openings` (the file the runs played) it prints instead NEW's results over all
the logs together for each opening and colour: with few openings (freestyle15.txt has
12) a run is a few dozen start positions replayed, and this shows which of them are
won or lost every time.
"""
import math
import re
import sys

GAME = re.compile(r"game (\d+): (\w+) \(\w+\) vs \w+ \(\w+\): (\S+)")


def scores(path):
    """NEW's score of every finished game of a match.sh log, by game number."""
    out = {}
    with open(path, errors="replace") as f:
        for line in f:
            m = GAME.match(line)
            if not m:
                continue
            first_is_new = m.group(2) == "new"
            result = m.group(3)
            if result == "1-0":
                out[int(m.group(1))] = 1.0 if first_is_new else 0.0
            elif result == "0-1":
                out[int(m.group(1))] = 0.0 if first_is_new else 1.0
            else:
                out[int(m.group(1))] = 0.5
    return out


def by_opening(openings_path, paths):
    """NEW's W-L-D per opening and colour over every game of the logs."""
    with open(openings_path) as f:
        count = sum(1 for line in f if line.strip())
    table = {}
    for path in paths:
        for game, score in scores(path).items():
            # Game 2k+1 and 2k+2 play opening k (cycling), NEW Black in the first.
            key = ((game - 1) // 2 % count, "Black" if game % 2 == 1 else "White")
            wld = table.setdefault(key, [0, 0, 0])
            wld[0 if score == 1.0 else 1 if score == 0.0 else 2] += 1
    print("opening  NEW as Black (W-L-D, score)  NEW as White (W-L-D, score)")
    for k in range(count):
        cells = []
        for colour in ("Black", "White"):
            w, l, d = table.get((k, colour), [0, 0, 0])
            n = w + l + d
            share = f"{(w + d / 2) / n:.2f}" if n else "-"
            cells.append(f"{w:4d}-{l:3d}-{d:2d} {share:>5}")
        print(f"{k + 1:7d}  {cells[0]:>27}  {cells[1]:>27}")


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "--openings":
        by_opening(sys.argv[2], sys.argv[3:])
        return
    paths = sys.argv[1:]
    if len(paths) < 2:
        sys.exit(__doc__)
    runs = [scores(p) for p in paths]
    common = sorted(set.intersection(*(set(r) for r in runs)))
    if not common:
        sys.exit("no game finished in every run")
    n = len(common)
    print(f"{n} common games")
    for path, run in zip(paths, runs):
        own = sum(run.values()) / len(run)
        line = f"{path}: {sum(run[g] for g in common) / n:.3f} on the common games, "
        line += f"{own:.3f} on its {len(run)}"
        if run is not runs[0]:
            diffs = [run[g] - runs[0][g] for g in common]
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1)
            line += f"; vs the first {mean:+.3f} +/- {math.sqrt(var / n):.3f}"
        print(line)


if __name__ == "__main__":
    main()
