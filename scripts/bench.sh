#!/usr/bin/env bash
# The bench signature: fixed positions, fixed depth, one thread. Prints every position
# and the last line `Bench: <nodes> nodes <nps> nps`; the node count must not change
# for a change that is not meant to alter the search.
#   scripts/bench.sh [DEPTH]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
target/release/pbrain-ferrum bench "$@"
