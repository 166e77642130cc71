#!/usr/bin/env bash
# Makes games to fit the evaluation to and fits it: plays ENGINE against itself on
# random openings with ferrum-arena (each opening twice, colours swapped), then runs
# `pbrain-ferrum tune` on those games and on any other game files given after them.
#
#   scripts/tune.sh ENGINE OPENINGS DIR [MORE_GAMES...]
#
# OPENINGS random openings are written to DIR/openings.txt (2 to 6 stones within 2 to
# 4 cells of the centre, from a fixed seed), the 2 x OPENINGS games go to DIR/games/
# as .psq files, and the fitted tables are printed (the first three go into
# src/eval/weights.rs, then each marker line `// ---- src/eval/FILE ----` starts a
# generated file, combo_weights.rs and mask_weights.rs: scripts/apply_tune.py writes
# them all; the change must then win a match). Environment: ARENA (default
# target/release/ferrum-arena), FERRUM (the tune tool, default target/release/pbrain-ferrum),
# TURN_MS (default 60), RULE (default 0), SEED (default 1), CONCURRENCY (default 2),
# TUNE_ARGS (e.g. "--combo-l2 1e-7"). ENGINE may be any pbrain engine: a stronger
# engine's games teach the evaluation more (how the current tables were fitted:
# docs/strength-log.md, "The tools").
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ $# -lt 3 ]; then
    sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
engine=$1
count=$2
dir=$3
shift 3
arena=${ARENA:-$root/target/release/ferrum-arena}
ferrum=${FERRUM:-$root/target/release/pbrain-ferrum}
mkdir -p "$dir/games"
awk -v n="$count" -v seed="${SEED:-1}" 'BEGIN {
    srand(seed)
    while (made < n) {
        stones = 2 + int(rand() * 5); r = 2 + int(rand() * 3)
        delete used; line = ""; k = 0
        while (k < stones) {
            x = int(rand() * (2 * r + 1)) - r; y = int(rand() * (2 * r + 1)) - r
            if ((x "," y) in used) continue
            used[x "," y] = 1; line = line (k ? ", " : "") x "," y; k++
        }
        if (line in seen) continue
        seen[line] = 1; print line; made++
    }
}' > "$dir/openings.txt"
# shellcheck disable=SC2086 # ENGINE may carry arguments
"$arena" --engine "$engine" --engine "$engine" --name a --name b --rule "${RULE:-0}" \
    --size 15 --turn-ms "${TURN_MS:-60}" --tolerance-ms 1000 --openings "$dir/openings.txt" \
    --games $((2 * count)) --concurrency "${CONCURRENCY:-2}" --psq "$dir/games" --quiet
# shellcheck disable=SC2086 # TUNE_ARGS is meant to split into options
"$ferrum" tune --rule "${RULE:-0}" ${TUNE_ARGS:-} "$dir"/games/*.psq "$@"
