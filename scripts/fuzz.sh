#!/usr/bin/env bash
# The long protocol fuzz: tests/fuzz.rs with LINES lines (default 1000000) from seed
# SEED (default 1), in bursts of 300 lines (FUZZ_BURST), each burst in a fresh engine
# process. Builds the release binary and the test, prints a progress line every 100
# bursts, any failing burst (with where its bytes and log are kept) and, last, the
# figure: `fuzz: N lines in B bursts, F failures, seed S, slowest END exit X ms ...`.
# Exits non-zero on a failure. 10^6 lines (1.14 M with whole blocks) take about 17
# minutes on the 2-core machine.
#   scripts/fuzz.sh [LINES] [SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
lines=${1:-1000000}
seed=${2:-1}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
FUZZ_LINES=$lines FUZZ_SEED=$seed cargo test --release --test fuzz -- --nocapture 2>&1 \
    | tee "$out" || status=$?
grep '^fuzz:' "$out" || echo "fuzz: no summary (the test did not finish)"
exit "$status"
