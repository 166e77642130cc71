#!/usr/bin/env bash
# Judges a strength change: plays NEW_BINARY against OLD_BINARY with ferrum-arena on
# the shared freestyle 15x15 openings (each opening twice, colours swapped) at 200 ms
# per move and prints every game and the summary (W-L-D from NEW's side, score, Elo
# difference with its 95 % interval). Builds nothing: copy the binaries somewhere
# stable first (cargo rebuilds target/release under a running match otherwise).
#
#   scripts/match.sh OLD_BINARY NEW_BINARY [GAMES]     (GAMES default 48)
#
# Environment: ARENA (default target/release/ferrum-arena), CONCURRENCY (default 2),
# TURN_MS (default 200), RULE (default 0; 4 = renju), OPENINGS (default
# tests/data/openings/freestyle15.txt), DRAW_AFTER (stones after which the game is
# drawn; default 200 = 15*15-25 in renju, as GomocupJudge rules renju games, and the
# full board otherwise; 0 = full board), EXTRA (more ferrum-arena options, e.g.
# "--sprt 0,10,0.05,0.05 --psq games/"). OLD may be any pbrain engine, e.g. the
# acceptance match against Rapfi:
#   TURN_MS=1000 EXTRA="--tolerance-ms 2000" scripts/match.sh rapfi-delay.py \
#       "target/release/pbrain-ferrum --threads 1" 100
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
old=$1
new=$2
games=${3:-48}
arena=${ARENA:-$root/target/release/ferrum-arena}
openings=${OPENINGS:-$root/tests/data/openings/freestyle15.txt}
rule=${RULE:-0}
# GomocupJudge draws a renju game after N*N-25 stones: the full-board ending, where
# Black's last empty cell may be forbidden (no pass in the protocol), never comes.
if [ "$rule" = 4 ] || [ "$rule" = renju ]; then draw_after=${DRAW_AFTER:-200}; else draw_after=${DRAW_AFTER:-0}; fi
draw=()
if [ "$draw_after" != 0 ]; then draw=(--draw-after "$draw_after"); fi
# An engine may carry arguments ("pbrain-ferrum --threads 1"): check the program only.
for f in "${old%% *}" "${new%% *}" "$arena"; do
    if [ ! -x "$f" ]; then
        echo "match.sh: $f is not an executable file (ferrum-arena: cargo build --release)" >&2
        exit 2
    fi
done
# shellcheck disable=SC2086 # EXTRA is meant to split into options
exec "$arena" --engine "$new" --engine "$old" --name new --name old \
    --rule "$rule" --size 15 --turn-ms "${TURN_MS:-200}" --openings "$openings" \
    --games "$games" --concurrency "${CONCURRENCY:-2}" "${draw[@]}" ${EXTRA:-}
