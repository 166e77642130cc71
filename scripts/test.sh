#!/usr/bin/env bash
# Runs every test: unit tests, rule oracles, Gomocup acceptance positions, protocol
# transcripts, puzzle slices with the independent line checker, match-runner smoke games.
# The line checker (scripts/check_line.py) needs Python 3 and, for renju,
# the PyPI package `renju` (the Gomocup referee's algorithm): installed here if missing.
# The web board in headless Chromium (scripts/board_test.py) needs Debian's chromium and
# chromium-driver and PyPI's selenium: installed here if missing; counted as one test;
# SKIP_BROWSER=1 leaves it out. Then the Windows build under wine (scripts/wine_check.sh,
# which installs its Debian packages when missing); SKIP_WINE=1 leaves it out. Last, the
# style gates: `cargo fmt --check` and clippy with warnings as errors (each counted as
# one test). What is missing is installed as scripts/install-missing.sh says (Debian 12,
# root or sudo, the network).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/install-missing.sh
if [[ ${SKIP_BROWSER:-0} != 1 ]]; then
    need_python_modules renju selenium
    if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
        need_packages chromium chromium-driver
    fi
else
    need_python_modules renju
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
# --no-fail-fast: a failing test binary must not hide the results of the others.
cargo test --release --no-fail-fast 2>&1 | tee "$log" || status=$?
# The binary `cargo test` just built, in a real browser.
if [[ ${SKIP_BROWSER:-0} == 1 ]]; then
    :
elif python3 scripts/board_test.py target/release/pbrain-ferrum 2>&1 | tee -a "$log"; then
    echo "test result: ok. 1 passed; 0 failed (browser board test)" | tee -a "$log"
else
    echo "test result: FAILED. 0 passed; 1 failed (browser board test)" | tee -a "$log"
    status=1
fi
if [[ ${SKIP_WINE:-0} != 1 ]]; then
    bash scripts/wine_check.sh 2>&1 | tee -a "$log" || status=$?
fi
for gate in "cargo fmt --check" "cargo clippy --release --all-targets --quiet -- -D warnings"; do
    if $gate; then
        echo "test result: ok. 1 passed; 0 failed ($gate)" | tee -a "$log"
    else
        echo "test result: FAILED. 0 passed; 1 failed ($gate)" | tee -a "$log"
        status=1
    fi
done
# One closing line for the whole run, summed over every test binary.
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } }
     END { printf "all tests: %d passed, %d failed\n", p, f }' "$log"
exit "$status"
