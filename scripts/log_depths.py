#!/usr/bin/env python3
"""How deep Ferrum searched in a match, from its own logs.

Reads the log files Ferrum wrote during a match (`--log FILE`, one file per engine
process; see scripts/loss_evals.py for the wrapper that logs every game) and takes, for
each move Ferrum played, the depth of its `Move: score S depth D` line (the line
loss_evals.py reads the score from, with its parser): the last iteration it completed.
Moves are counted per game from `START`, so move 1 is Ferrum's first move after the
opening (a process's rotated `.log.old` is read before its `.log`, so a game cut by
the rotation stays whole; one whose `START` rotated out of both is left out); moves played without a search (depth 0: a forced
block, a win on the board) count but give no depth. By default moves 3 to 20 count (the
middle game, where both sides still have choices). Prints, per log directory, how many
moves were counted, their mean depth and the mean at every third move number: the
strength log's "mean last iteration over moves 3-20".

    scripts/log_depths.py LOG_DIR [LOG_DIR ...] [--moves FIRST-LAST]
"""
import statistics
import sys

from loss_evals import game_moves


def depths(directory, first, last):
    """Searched depths per move number (first..=last)."""
    out = {}
    for game in game_moves(directory):
        for move, (_, depth) in enumerate(game, start=1):
            if depth > 0 and first <= move <= last:
                out.setdefault(move, []).append(depth)
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
