#!/usr/bin/env python3
"""When Ferrum's lost games were lost, from its own logs.

Reads the log files Ferrum wrote during a match (`--log FILE`, one file per engine
process; a process plays many games, each starting at `START`; a log that grew past
4 MiB rotated to `FILE.log.old`, read first so a game cut by the rotation stays whole)
and takes, for every move Ferrum played, the score of its `Move: score S depth D`
line. A game counts as lost when Ferrum reported a forced loss in it (a score at or
below -WIN_BOUND), won when it reported a forced win and never a loss. For each lost
game it prints the first move whose score fell below the threshold (default -300), the
first move that saw the forced loss, and the scores just before; then how many games
had a claimed forced win that a later move gave up (scored below a win; a sign of a
search that claims wins it cannot prove), how many games were ahead by 600 or more
without ever claiming a forced win (an advantage not converted), how many losses were
seen coming (the score was already below the threshold the move before the loss was
seen), how many came as a surprise and how many were seen at Ferrum's first move.
Moves are numbered from 1, Ferrum's own in each game. An answer given without a
search (`Move: score 0 depth 0`: an overdue request answered from what was at hand)
carries no evaluation and is left out.

With `--positions`, for each surprise it also prints the position before the move that
let the loss in (Ferrum's move before the one that saw it), as `pbrain-ferrum analyze
--moves` takes it, with the move played and the opponent's answer: searched again
longer, it shows whether more depth avoids the move.

    scripts/loss_evals.py LOG_DIR [THRESHOLD] [--positions]

To log every game of a match, give match.sh a wrapper that logs per process:

    printf '#!/bin/sh\\nexec target/release/pbrain-ferrum --threads 1 --log DIR/$$.log\\n' > f.sh
"""
import glob
import os
import re
import statistics
import sys

WIN_BOUND = 29_000  # src/search/score.rs: WIN - 1000
AHEAD = 600  # a score this high that never became a win claim: an advantage let go


MOVE = re.compile(r"Move: score (-?\d+) depth (\d+)")
STONE = re.compile(r"^(?:<< (?:TURN )?|>> )(\d+),(\d+)(?:,(\d+))?$")


class Game:
    """One game of a log: Ferrum's (score, depth) per move, every stone played in order
    (the opening's stones, the opponent's and Ferrum's; walls left out) and, per
    Ferrum move, its index in that list."""

    def __init__(self):
        self.scores = []
        self.stones = []
        self.ferrum_moves = []


def process_logs(directory):
    """Each engine process's log as one stream of lines: the part that rotated away
    (`X.log.old`) first, then `X.log`, so a game cut by the rotation stays whole."""
    bases = sorted({p.removesuffix(".old") for p in glob.glob(os.path.join(directory, "*.log*"))
                    if p.endswith((".log", ".log.old"))})
    if not bases:
        sys.exit(f"{directory}: no Ferrum log (*.log) there")
    for base in bases:
        lines = []
        for path in (base + ".old", base):
            if os.path.exists(path):
                lines.extend(open(path, errors="replace"))
        yield lines


def parse_games(lines):
    """The games of one process's log, each from its `START` (a game whose `START`
    rotated out of both files is left out)."""
    found, current, in_board = [], None, False
    for line in lines:
        text = line.split("] ", 1)[-1].strip()
        if text.startswith(("<< START", "<< RESTART")):
            current, in_board = Game(), False
            found.append(current)
            continue
        if current is None:
            continue
        m = MOVE.search(text)
        if m:
            current.scores.append((int(m.group(1)), int(m.group(2))))
            continue
        if text == "<< BOARD":
            in_board = True
        elif text == "<< DONE":
            in_board = False
        elif text.startswith("<< TAKEBACK") and current.stones:
            current.stones.pop()
        else:
            m = STONE.match(text)
            # A BOARD line has a third field (1 own, 2 opponent, 3 wall); a TURN or
            # Ferrum's answer has none.
            if m and (m.group(3) is None) != in_board and m.group(3) != "3":
                if text.startswith(">>"):
                    current.ferrum_moves.append(len(current.stones))
                current.stones.append((int(m.group(1)), int(m.group(2))))
    return [g for g in found if g.scores]


def all_games(directory):
    """Every game of every process's log in a directory."""
    return [g for lines in process_logs(directory) for g in parse_games(lines)]


def game_moves(directory):
    """The (score, depth) of every Ferrum move of every game in a directory's logs
    (scripts/log_depths.py reads the depths)."""
    return [g.scores for g in all_games(directory)]


def notation(stones):
    """Moves as `pbrain-ferrum analyze --moves` takes them (letter = x, number = y + 1)."""
    return ",".join(f"{chr(ord('a') + x)}{y + 1}" for x, y in stones)


def main():
    args = sys.argv[1:]
    positions = "--positions" in args
    args = [a for a in args if a != "--positions"]
    if len(args) not in (1, 2):
        sys.exit(__doc__)
    threshold = int(args[1]) if len(args) == 2 else -300
    every = all_games(args[0])
    # Per game, Ferrum's searched moves: their indices among its moves, and scores.
    pairs = [(g, [i for i, sd in enumerate(g.scores) if sd != (0, 0)]) for g in every]
    pairs = [(g, k) for g, k in pairs if k]
    every, searched = [g for g, _ in pairs], [k for _, k in pairs]
    scores = [[g.scores[i][0] for i in k] for g, k in zip(every, searched)]
    lost = [(g, k, s) for g, k, s in zip(every, searched, scores) if min(s) <= -WIN_BOUND]
    won = [s for s in scores if max(s) >= WIN_BOUND and min(s) > -WIN_BOUND]
    print(f"{len(every)} games: Ferrum saw a forced loss in {len(lost)}, a forced win in {len(won)}")
    seen_coming, at_first, gaps = 0, 0, []
    for game, kept, g in lost:
        mate = next(i for i, s in enumerate(g) if s <= -WIN_BOUND)
        # A threshold at or below the loss scores is first crossed by the loss itself.
        low = next((i for i, s in enumerate(g) if s < threshold), mate)
        surprise = mate > 0 and g[mate - 1] >= threshold
        if mate == 0:
            at_first += 1
        elif not surprise:
            seen_coming += 1
            gaps.append(mate - low)
        print(f"  {len(g)} moves: below {threshold} at move {low + 1}, loss seen at move "
              f"{mate + 1}; before: {g[max(0, mate - 5):mate]}")
        if positions and surprise and len(game.ferrum_moves) == len(game.scores):
            # The move that let the loss in: Ferrum's move before the one that saw it.
            at = game.ferrum_moves[kept[mate - 1]]
            before, played = game.stones[:at], game.stones[at : at + 2]
            print(f"    before move {kept[mate - 1] + 1} (score {g[mate - 1]}; played, answered: "
                  f"{notation(played).replace(',', ' ')}): --moves {notation(before)}")
    # Claimed wins: a forced win reported, then a later move of the same game scored
    # below it (the claim given up), and how many of those games were lost.
    claimed = [s[next(i for i, v in enumerate(s) if v >= WIN_BOUND):]
               for s in scores if max(s) >= WIN_BOUND]
    given_up = [s for s in claimed if min(s) < WIN_BOUND]
    print(f"win claims: {len(claimed)} games; given up later in {len(given_up)}, "
          f"{sum(min(s) <= -WIN_BOUND for s in given_up)} of them lost after the claim")
    # Advantages not converted: a score of AHEAD or more, below a win, in a game that
    # never claimed a forced win (session 56: more of them with deeper pruning).
    ahead = [s for s in scores if any(AHEAD <= v < WIN_BOUND for v in s)]
    print(f"ahead by {AHEAD} or more: {len(ahead)} games; no win claimed in "
          f"{sum(max(s) < WIN_BOUND for s in ahead)}")
    if lost:
        print(f"{seen_coming} of {len(lost)} losses were below {threshold} the move before the "
              f"loss was seen (median {statistics.median(gaps) if gaps else 0} moves earlier); "
              f"{len(lost) - seen_coming - at_first} came as a surprise, {at_first} were seen "
              f"at the first move")


if __name__ == "__main__":
    main()
