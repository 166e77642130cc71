#!/usr/bin/env python3
"""Labels positions with a stronger engine's verdict, for `pbrain-ferrum tune --positions`.

Reads lines of moves (`x,y` from 0, Black first, space-separated: the output of
`pbrain-ferrum sample-leaves`), sends each position to a Gomocup engine (START 15,
fixed depth through `INFO max_depth`, BOARD with the side to move as the engine) and
appends the line with a tab and the probability that the side to move wins:
sigmoid(eval / SCALE) of the last `Depth D-S | Eval E` message (Rapfi's format; Rapfi's
own scale is 200), 1 or 0 for a mate score (`+M9`, `-M10`). A position the engine
does not answer within 8 s is skipped (the engine is restarted), and so is one it
answers without such a message (counted apart: an engine that never prints one, as
Ferrum, labels nothing).

    scripts/label_positions.py ENGINE DEPTH SCALE IN OUT [START STEP]
    scripts/label_positions.py /path/to/pbrain-rapfi 12 200 leaves.txt labelled.txt

START and STEP label every STEP-th line from START (to split the work across
processes); OUT is appended to.
"""
import math
import os
import queue
import re
import subprocess
import sys
import threading
import time

EVAL = re.compile(r"Depth (\d+)-\d+ \| Eval ([-+]?M?\d+)")
MOVE = re.compile(r"^\d+,\d+\s*$")


class Engine:
    def __init__(self, path):
        # The engine runs in /tmp (its files stay out of the tree); a relative path
        # names it from here.
        self.proc = subprocess.Popen([os.path.abspath(path)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1, cwd="/tmp")
        self.lines = queue.Queue()
        threading.Thread(target=self.pump, daemon=True).start()

    def pump(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def line(self, timeout):
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            return None


TIMEOUT = "timeout"


def verdict(engine, moves, depth):
    """The engine's last eval of the position (mates as +/-30000); None when it
    answered without one, TIMEOUT when it did not answer."""
    me = len(moves) % 2
    for cmd in ["START 15", "INFO rule 0", "INFO timeout_turn 5000",
                "INFO timeout_match 1000000000", "INFO time_left 1000000000",
                f"INFO max_depth {depth}", "INFO thread_num 1", "BOARD"]:
        engine.send(cmd)
    for i, (x, y) in enumerate(moves):
        engine.send(f"{x},{y},{1 if i % 2 == me else 2}")
    engine.send("DONE")
    value = None
    while True:
        line = engine.line(8)
        if line is None:
            return TIMEOUT
        m = EVAL.search(line)
        if m:
            e = m.group(2)
            value = (-30000 if e.startswith("-") else 30000) if "M" in e else int(e)
        if MOVE.match(line):
            return value


def main():
    if len(sys.argv) not in (6, 8):
        sys.exit(__doc__)
    path, depth, scale, src, dst = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), \
        sys.argv[4], sys.argv[5]
    start, step = (int(sys.argv[6]), int(sys.argv[7])) if len(sys.argv) == 8 else (0, 1)
    lines = open(src).read().splitlines()[start::step]
    engine = Engine(path)
    t0, done, skipped, no_eval = time.time(), 0, 0, 0
    with open(dst, "a") as out:
        for line in lines:
            moves = [tuple(map(int, m.split(","))) for m in line.split()]
            value = verdict(engine, moves, depth)
            if value is TIMEOUT:
                engine.proc.kill()
                engine = Engine(path)
                skipped += 1
                continue
            if value is None:
                no_eval += 1
                continue
            if abs(value) >= 30000:
                p = 1.0 if value > 0 else 0.0
            else:
                p = 1 / (1 + math.exp(-value / scale))
            out.write(f"{line}\t{p:.4f}\n")
            done += 1
            if done % 500 == 0:
                out.flush()
                print(done, "labelled", f"{(time.time() - t0) / done * 1000:.1f} ms each",
                      flush=True)
    engine.send("END")
    print(done, "labelled,", skipped, "skipped (no answer),", no_eval, "answered without an eval")


if __name__ == "__main__":
    main()
