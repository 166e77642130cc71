#!/usr/bin/env python3
"""When Ferrum's lost games were lost, from its own logs.

Reads the log files Ferrum wrote during a match (`--log FILE`, one file per engine
process; a process plays many games, each starting at `START`) and takes, for every
move Ferrum played, the score of its `Move: score S depth D` line. A game counts as
lost when Ferrum reported a forced loss in it (a score at or below -WIN_BOUND), won
when it reported a forced win and never a loss. For each lost game it prints the
first move whose score fell below the threshold (default -300), the first move that
saw the forced loss, and the scores just before; then how many losses were seen coming
(the score was already below the threshold the move before the loss was seen) and how
many came as a surprise.

    scripts/loss_evals.py LOG_DIR [THRESHOLD]

To log every game of a match, give match.sh a wrapper that logs per process:

    printf '#!/bin/sh\\nexec target/release/pbrain-ferrum --threads 1 --log DIR/$$.log\\n' > f.sh
"""
import glob
import os
import re
import statistics
import sys

WIN_BOUND = 29_000  # src/search/score.rs: WIN - 1000


MOVE = re.compile(r"Move: score (-?\d+) depth (\d+)")


def game_moves(path):
    """The (score, depth) of every move of every game in one log file (scripts/log_depths.py
    reads the depths)."""
    found, current = [], None
    for line in open(path, errors="replace"):
        if "<< START" in line:
            current = []
            found.append(current)
        m = MOVE.search(line)
        if m and current is not None:
            current.append((int(m.group(1)), int(m.group(2))))
    return [g for g in found if g]


def games(path):
    """The per-move scores of every game in one log file."""
    return [[score for score, _ in g] for g in game_moves(path)]


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    threshold = int(sys.argv[2]) if len(sys.argv) == 3 else -300
    every = [g for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.log"))) for g in games(f)]
    lost = [g for g in every if min(g) <= -WIN_BOUND]
    won = [g for g in every if max(g) >= WIN_BOUND and min(g) > -WIN_BOUND]
    print(f"{len(every)} games: Ferrum saw a forced loss in {len(lost)}, a forced win in {len(won)}")
    seen_coming, gaps = 0, []
    for g in lost:
        mate = next(i for i, s in enumerate(g) if s <= -WIN_BOUND)
        low = next(i for i, s in enumerate(g) if s < threshold)
        if mate > 0 and g[mate - 1] < threshold:
            seen_coming += 1
            gaps.append(mate - low)
        print(f"  {len(g)} moves: below {threshold} at move {low}, loss seen at move {mate}; "
              f"before: {g[max(0, mate - 5):mate]}")
    if lost:
        print(f"{seen_coming} of {len(lost)} losses were below {threshold} the move before the "
              f"loss was seen (median {statistics.median(gaps) if gaps else 0} moves earlier); "
              f"{len(lost) - seen_coming} came as a surprise")


if __name__ == "__main__":
    main()
