#!/usr/bin/env python3
"""Side by side: Ferrum's VCF solver against quintet's on one renju puzzle file.

    scripts/vs_quintet.py QUINTET_SOLVE [FILE.jsonl] [FERRUM]

QUINTET_SOLVE is quintet's example CLI (renju-note/quintet, `cargo build --release
--examples`, target/release/examples/solve), built by hand outside this repository.
FILE defaults to tests/data/puzzles/renju_vcf.jsonl, FERRUM to
target/release/pbrain-ferrum. Both solvers get each puzzle's depth limit (attacker
moves, the five included; 100 when the puzzle sets none, Ferrum's default) and one
thread. Times are each solver's own: the sum of quintet's `Elapsed` lines (its search,
without process start-up and parsing) and Ferrum's `solve` total (every puzzle's
solve, board copy included, parsing excluded). Run it on an idle machine: the two run
one after the other. Quintet is renju-only, so only renju VCF puzzles are compared.
"""
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UNITS_MS = {"ns": 1e-6, "µs": 1e-3, "us": 1e-3, "ms": 1.0, "s": 1000.0}


def point(p):
    return chr(ord("A") + p[0]) + str(p[1] + 1)


def quintet_time(quintet, puzzle):
    """Quintet's search time (ms) and whether it found a VCF."""
    board = ",".join(map(point, puzzle["black"])) + "/" + ",".join(map(point, puzzle["white"]))
    attacker = "o" if puzzle["to_move"] == "black" else "x"
    depth = str(puzzle.get("depth", 100))
    out = subprocess.run(
        [quintet, "vcf", depth, "0", attacker, board], capture_output=True, text=True, check=True
    ).stdout
    m = re.search(r"Elapsed: ([\d.]+)\s*(ns|µs|us|ms|s)\b", out)
    if not m:
        sys.exit(f"vs_quintet: no Elapsed line from quintet on {puzzle['id']}:\n{out}")
    return float(m.group(1)) * UNITS_MS[m.group(2)], "Moves:" in out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    quintet = sys.argv[1]
    file = sys.argv[2] if len(sys.argv) > 2 else str(ROOT / "tests/data/puzzles/renju_vcf.jsonl")
    ferrum = sys.argv[3] if len(sys.argv) > 3 else str(ROOT / "target/release/pbrain-ferrum")
    puzzles = [json.loads(l) for l in open(file) if l.strip()]
    puzzles = [p for p in puzzles if p.get("rule", "renju") == "renju" and p.get("kind", "vcf") == "vcf"]

    ours = subprocess.run(
        [ferrum, "solve", "--time-ms", "10000", "--threads", "1", "/dev/stdin"],
        input="".join(json.dumps(p) + "\n" for p in puzzles),
        capture_output=True,
        text=True,
        check=True,
    )
    summary = ours.stderr.strip().splitlines()[-1]
    m = re.search(r"solved (\d+) failed (\d+) of (\d+) in ([\d.]+) s \(slowest (\d+) ms\)", summary)
    if not m:
        sys.exit(f"vs_quintet: unexpected summary from ferrum: {summary}")
    ferrum_solved, ferrum_ms, ferrum_slowest = int(m.group(1)), float(m.group(4)) * 1000, int(m.group(5))

    quintet_ms, quintet_solved, slowest = 0.0, 0, (0.0, "")
    for p in puzzles:
        ms, solved = quintet_time(quintet, p)
        quintet_ms += ms
        quintet_solved += solved
        slowest = max(slowest, (ms, p["id"]))

    print(f"{len(puzzles)} renju VCF puzzles from {file}")
    print(f"ferrum:  solved {ferrum_solved}, total {ferrum_ms:.0f} ms, slowest {ferrum_slowest} ms")
    print(f"quintet: solved {quintet_solved}, total {quintet_ms:.0f} ms, slowest {slowest[0]:.0f} ms ({slowest[1]})")
    print(f"ferrum / quintet time: {ferrum_ms / quintet_ms:.2f}")


if __name__ == "__main__":
    main()
