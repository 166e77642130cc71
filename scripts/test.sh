#!/usr/bin/env bash
# Runs every test: unit tests, rule oracles, Gomocup acceptance positions, protocol
# transcripts, puzzle slices with the independent line checker, match-runner smoke games.
# The line checker (../shared/data/tools/check_line.py) needs Python 3 and, for renju,
# the PyPI package `renju` (the Gomocup referee's algorithm): installed here if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! python3 -c 'import renju' 2>/dev/null; then
    python3 -m pip install --quiet renju
fi
cargo test --release
