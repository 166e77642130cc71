#!/usr/bin/env python3
"""How deep Ferrum searched in a match, from its own logs.

Reads the log files Ferrum wrote during a match (`--log FILE`, one file per engine
process; see scripts/loss_evals.py for the wrapper that logs every game) and takes, for
each move Ferrum played, the depth of the last iteration it reported (`MESSAGE depth
D-SD ...`) before the move. Moves are counted per game from `START`, `BOARD` or
`RESTART`, so move 1 is Ferrum's first move after the opening; by default moves 3 to
20 count (the middle game, where both sides still have choices). Prints, per log
directory, how many moves were counted, their mean depth and the mean at every third
move number: the README's "mean last iteration over moves 3-20".

    scripts/log_depths.py LOG_DIR [LOG_DIR ...] [--moves FIRST-LAST]
"""
import glob
import re
import statistics
import sys

ITERATION = re.compile(r">> MESSAGE depth (\d+)-")
MOVE = re.compile(r">> \d+,\d+\s*$")
NEW_POSITION = ("<< START", "<< BOARD", "<< RESTART")


def depths(directory, first, last):
    """Depth of the last reported iteration per move number (first..=last)."""
    out = {}
    for path in glob.glob(directory + "/*.log*"):
        depth, move = None, 0
        for line in open(path, errors="replace"):
            m = ITERATION.search(line)
            if m:
                depth = int(m.group(1))
                continue
            if any(tag in line for tag in NEW_POSITION):
                move = 0
            if MOVE.search(line):
                move += 1
                if depth is not None and first <= move <= last:
                    out.setdefault(move, []).append(depth)
                depth = None
    return out


def main():
    args = sys.argv[1:]
    first, last = 3, 20
    if "--moves" in args:
        i = args.index("--moves")
        first, last = (int(v) for v in args[i + 1].split("-"))
        del args[i : i + 2]
    if not args:
        sys.exit(__doc__)
    for directory in args:
        by_move = depths(directory, first, last)
        every = [d for ds in by_move.values() for d in ds]
        if not every:
            print(f"{directory}: no moves with a reported depth")
            continue
        steps = " ".join(
            f"{k}:{statistics.mean(by_move[k]):.1f}" for k in sorted(by_move) if k % 3 == 0
        )
        print(
            f"{directory}: {len(every)} moves, mean depth {statistics.mean(every):.2f}"
            f" (moves {first}-{last}); by move {steps}"
        )


if __name__ == "__main__":
    main()
