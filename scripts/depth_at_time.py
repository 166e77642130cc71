#!/usr/bin/env python3
"""How deep engines search in a fixed time, on positions from saved games.

Takes the positions after PLIES moves (default 12, 18, 24 and 30) of the first GAMES
games (default 12) of a directory of `.psq` files (the arena's `--psq`), gives each to
every engine with `INFO timeout_turn MS` (default 1000) and `timeout_match 0`, as a
match does, and reads the last progress line before the move: Ferrum's `MESSAGE depth
D-SD ev E n N ...`, or PentaZen's `MESSAGE dep D-SD ev E nd N ...` (PentaZen writes its
depths as raw bytes, so the output is read as bytes). Prints, for each engine, the depth
of its last completed iteration per position ("M" when it reported a forced result:
those positions are left out of the means, as are depths below 2: PentaZen answers a
forced or only move at depth 1 without searching), its mean depth, and, for every engine after
the first, the mean difference from the first on the positions where both gave a depth,
and how many moves it chose as the first did.

    scripts/depth_at_time.py PSQ_DIR ENGINE [ENGINE ...] [--ms MS] [--games N]
                             [--plies 12,18,24,30] [--rule R]

The board size is each game's (its `.psq` header); the rule is R, a Gomocup number
(default 0, freestyle: a `.psq` file names none).

An ENGINE is a shell command (`"target/release/pbrain-ferrum --threads 1"`); environment
settings may precede it (`"X=1 path/to/engine"`). One position at a time, so give it an
idle machine: the depth reached depends on the machine's load.
"""
import glob
import re
import statistics
import subprocess
import sys
import threading

FERRUM = re.compile(rb"MESSAGE depth (\d+)-\d+ ev (\S+)")
# PentaZen: " dep " then the depth and the selective depth as single bytes.
PENTAZEN = re.compile(rb"MESSAGE dep (.)-(.) ev (\S+)", re.S)
MOVE = re.compile(rb"(?:^|\n)(\d+,\d+)\r?\n")


def psq_moves(path):
    """The board size and the moves of a `.psq` game, 0-based (x, y)."""
    lines = open(path).read().splitlines()
    size = re.search(r"(\d+)x\1\b", lines[0] if lines else "")
    if not size:
        sys.exit(f"{path}: no square board size in its header")
    moves = []
    for line in lines[1:]:
        fields = line.split(",")
        if len(fields) != 3 or not fields[0].isdigit():
            break
        moves.append((int(fields[0]) - 1, int(fields[1]) - 1))
    return int(size.group(1)), moves


def think(engine, position, ms, rule):
    """(move, depth, forced) of one search on `position`, (board size, moves); depth
    is None when the engine gave no progress line."""
    size, moves = position
    lines = [f"START {size}", f"INFO timeout_turn {ms}", "INFO timeout_match 0",
             f"INFO rule {rule}", "BOARD"]
    for i, (x, y) in enumerate(moves):
        # 1 = the side to move's stone.
        lines.append(f"{x},{y},{1 if (len(moves) - i) % 2 == 0 else 2}")
    lines.append("DONE")
    proc = subprocess.Popen(engine, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    proc.stdin.write(("\n".join(lines) + "\n").encode())
    proc.stdin.flush()
    out = b""
    timer = threading.Timer(ms / 1000 * 3 + 5, proc.kill)
    timer.start()
    while not MOVE.search(out):
        chunk = proc.stdout.read1(4096)
        if not chunk:
            break
        out += chunk
    timer.cancel()
    try:
        proc.stdin.write(b"END\n")
        proc.stdin.flush()
    except BrokenPipeError:
        pass
    proc.wait(timeout=10)
    move = MOVE.search(out)
    body = out[: move.start()] if move else out
    depth, forced = None, False
    found = list(FERRUM.finditer(body))
    if found:
        depth, forced = int(found[-1].group(1)), b"M" in found[-1].group(2)
    else:
        found = list(PENTAZEN.finditer(body))
        if found:
            depth = found[-1].group(1)[0]
            forced = found[-1].group(3)[:2] in (b"+v", b"-v")
    return (move.group(1).decode() if move else None), depth, forced


def main():
    args = sys.argv[1:]
    options = {"--ms": "1000", "--games": "12", "--plies": "12,18,24,30", "--rule": "0"}
    for key in list(options):
        if key in args:
            i = args.index(key)
            options[key] = args[i + 1]
            del args[i : i + 2]
    if len(args) < 2:
        sys.exit(__doc__)
    directory, engines = args[0], args[1:]
    ms, games, rule = int(options["--ms"]), int(options["--games"]), int(options["--rule"])
    plies = [int(p) for p in options["--plies"].split(",")]
    positions = []
    for path in sorted(glob.glob(directory + "/*.psq"))[:games]:
        size, moves = psq_moves(path)
        positions += [(size, moves[:k]) for k in plies if k < len(moves) - 2]
    results = []
    for engine in engines:
        # No search: a forced result, or a depth-1 answer without one. The first
        # engine's rows are kept so marked too, for the pairing below.
        rows = [
            (m, d, f or (d is not None and d < 2))
            for m, d, f in (think(engine, p, ms, rule) for p in positions)
        ]
        results.append(rows)
        shown = " ".join("-" if d is None else ("M" if f else str(d)) for _, d, f in rows)
        print(f"{engine}\n  depths: {shown}")
        own = [d for _, d, f in rows if d is not None and not f]
        if own:
            print(f"  mean {statistics.mean(own):.2f} over {len(own)} positions")
        if len(results) > 1:
            pairs = [
                (a[1], b[1])
                for a, b in zip(results[0], rows)
                if None not in (a[1], b[1]) and not a[2] and not b[2]
            ]
            same = sum(a[0] is not None and a[0] == b[0] for a, b in zip(results[0], rows))
            if pairs:
                diff = statistics.mean(b - a for a, b in pairs)
                print(f"  vs the first: {diff:+.2f} plies over {len(pairs)}, same move {same}/{len(rows)}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
