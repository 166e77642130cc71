#!/usr/bin/env bash
# Solve rates on the shared puzzle sets: runs `pbrain-ferrum solve` on each file and
# checks every claimed VCF line with scripts/check_line.py.
#   scripts/solve_rates.sh [TIME_MS (default 1000)] [FILE.jsonl ...]
set -euo pipefail
# The files are named from where the script was called, before it moves to the tree.
time_ms=${1:-1000}
shift || true
files=()
for f in "$@"; do files+=("$(realpath "$f")"); done
cd "$(dirname "$0")/.."
# check_line.py judges renju lines with the PyPI package `renju`, as the tests do.
# shellcheck source=scripts/install-missing.sh
. scripts/install-missing.sh
need_python_modules renju
data=tests/data
[ ${#files[@]} -gt 0 ] || files=("$data"/puzzles/*.jsonl)
cargo build --release --quiet
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for f in "${files[@]}"; do
    name=$(basename "$f" .jsonl)
    # A file that fails is reported and the others still run.
    if ! summary=$(target/release/pbrain-ferrum solve --time-ms "$time_ms" "$f" 2>&1 >"$out/$name.out"); then
        printf '%-16s solve failed: %s\n' "$name" "$summary"
        continue
    fi
    # Put our lines into the puzzle objects for the checker (VCF answers only).
    python3 - "$f" "$out/$name.out" "$out/$name.check" <<'PY'
import json, sys
puzzles = {}
for l in open(sys.argv[1]):
    if l.strip():
        d = json.loads(l); puzzles[d["id"]] = d
with open(sys.argv[3], "w") as out:
    for l in open(sys.argv[2]):
        s = json.loads(l)
        p = puzzles[s["id"]]
        if s["result"] == "win" and p.get("kind", "vcf") == "vcf":
            p = dict(p); p["line"] = s["line"]; out.write(json.dumps(p) + "\n")
PY
    # The checker exits 1 on a wrong line and 2 on a file without lines: its last line
    # says which, and the next file still runs.
    check=$(python3 scripts/check_line.py --jsonl "$out/$name.check" --quiet 2>&1 | tail -1 || true)
    printf '%-16s %s | checker: %s\n' "$name" "$summary" "$check"
done
