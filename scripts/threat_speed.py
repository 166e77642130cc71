#!/usr/bin/env python3
"""How fast Ferrum's main search sees a long forced win (threat-sequence speed).

Feeds each position of a puzzle file (default scripts/threat_positions.jsonl: 35
positions from games Ferrum lost to PentaZen 0.4.18, where PentaZen, to move, reported a
forced win of 17 to 34 plies) to the engine through the protocol, searching with a node
limit (INFO max_node) or a time limit, and reads the MESSAGE lines: a position counts as
found at the first iteration that reports a winning score (+M). Prints how many were
found and the geometric mean of the nodes (or milliseconds) spent, counting a miss at
the limit. Node limits make the figures independent of the machine's load (with a
node limit the turn time is long, so the root tactics run to their node budgets, where
a 1000 ms game gives them an eighth of the move's time). Rapfi's progress lines
(`MESSAGE Speed ... | Depth ... | Eval +M21 | Node 243K | Time 229ms`) are read too, so
that the same positions measure it; the stones go in alternating order (Black, White,
...), as a game's BOARD lists them, since Rapfi misreads a BOARD that lists one colour's
stones first.

    scripts/threat_speed.py [--time] [--search-only] ENGINE LIMIT [FILE.jsonl]
    scripts/threat_speed.py "target/release/pbrain-ferrum --threads 1" 2000000
    scripts/threat_speed.py --time "target/release/pbrain-ferrum --threads 1" 2000
    scripts/threat_speed.py --time rapfi-delay.py 1000
(rapfi-delay.py: a wrapper that passes each line on to Rapfi 20 ms late, as in the
issue's Rapfi matches; without it Rapfi's TURN handling races and it may not answer.)

With `--search-only`, Ferrum's count leaves out what its first progress line reports
(the root tactics, which run before the first iteration: with a node limit they spend
their whole budgets, 0.3-0.7 M nodes, on most of these positions), so that the figure
is the main search's alone (a win the tactics find, on that first line, counts whole);
the limit still counts every node. Rapfi has no such part.
"""
import json
import math
import os
import subprocess
import sys


def count(text):
    """A MESSAGE node count: 950, 52K or 1.2M."""
    scale = {"K": 1_000, "M": 1_000_000}.get(text[-1], 1)
    return int(float(text.rstrip("KM")) * scale)


# Gomocup's rule numbers of the puzzle files' rule names.
RULES = {"freestyle": 0, "standard": 1, "renju": 4, "caro": 8, "caro-exact": 9}


def run(engine, limit, by_time, puzzles, search_only=False):
    proc = subprocess.Popen(engine.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    found = []
    for p in puzzles:
        send(f"START {p['size']}")
        while True:
            answer = proc.stdout.readline()
            if not answer or answer.startswith("ERROR"):
                sys.exit(f"{engine}: START {p['size']} answered {answer.strip() or 'nothing'}")
            if answer.strip() == "OK":
                break
        send(f"INFO timeout_turn {limit if by_time else 1_000_000}")
        send(f"INFO max_node {0 if by_time else limit}")
        send(f"INFO rule {RULES[p.get('rule', 'freestyle')]}")
        # BOARD lines: 1 = own stone (the side to move), 2 = opponent's.
        me = p["to_move"]
        send("BOARD")
        black, white = p["black"], p["white"]
        for i in range(max(len(black), len(white))):
            for colour, stones in (("black", black), ("white", white)):
                if i < len(stones):
                    x, y = stones[i]
                    send(f"{x},{y},{1 if colour == me else 2}")
        send("DONE")
        first, before = None, None if search_only else 0
        while True:
            line = proc.stdout.readline()
            if not line:
                sys.exit(f"{engine} closed its output")
            words = line.split()
            if words[:2] == ["MESSAGE", "depth"]:
                # MESSAGE depth D-SD ev E n N n/ms S tm T pv ...
                spent = int(words[10]) if by_time else count(words[6])
                if first is None and words[4].startswith("+M"):
                    # A win on the first line is the root tactics' own: all of it counts.
                    first = spent - (before or 0)
                if search_only and before is None:
                    before = spent
            elif words[:2] == ["MESSAGE", "Speed"] and "| Eval" in line:
                # Rapfi: MESSAGE Speed S | Depth D-SD | Eval E | Node N | Time Tms
                fields = dict(f.strip().split(" ", 1) for f in line[8:].split("|"))
                if first is None and fields["Eval"].startswith("+M"):
                    first = int(fields["Time"].rstrip("ms")) if by_time else count(fields["Node"])
            elif words and words[0] not in ("MESSAGE", "DEBUG", "INFO"):
                break
        found.append(first)
    send("END")
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    return found


def main():
    args = sys.argv[1:]
    by_time = "--time" in args
    search_only = "--search-only" in args
    args = [a for a in args if a not in ("--time", "--search-only")]
    if len(args) not in (2, 3):
        sys.exit(__doc__)
    engine, limit = args[0], int(args[1])
    path = args[2] if len(args) == 3 else os.path.join(os.path.dirname(__file__),
                                                       "threat_positions.jsonl")
    puzzles = [json.loads(l) for l in open(path) if l.strip()]
    found = run(engine, limit, by_time, puzzles, search_only)
    spent = [f if f is not None else limit for f in found]
    geo = math.exp(sum(math.log(max(s, 1)) for s in spent) / len(spent))
    unit = "ms" if by_time else "nodes"
    print(f"found {sum(f is not None for f in found)}/{len(found)} within {limit} {unit}; "
          f"geometric mean {geo:.0f} {unit} (a miss counts as {limit})")
    print(" ".join("-" if f is None else str(f) for f in found))


if __name__ == "__main__":
    main()
