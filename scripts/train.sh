#!/usr/bin/env bash
# From nothing to a network and its first match, in one command: builds the engine,
# plays self-play games at a fixed node count from random balanced openings (never
# those of the test set in openings/), trains a network on them, and plays it against
# the classical evaluation on the test openings. The network is residual (a learnt
# correction to the classical evaluation: the better fit on the data sizes tried).
#
#   scripts/train.sh DIR
#
# DIR receives games.frsp (appended to: run again to add games, from other openings),
# net.frnn, the training report train.txt and the match match.txt. Environment: RULE
# (freestyle, standard or renju; default freestyle), SIZE (default 15), GAMES (default
# 2000), NODES per move (default 20000), SEED (default 1),
# EPOCHS (default 3, 2 with NET), HOLDOUT (the games of one opening in N held out, default 20), TURN_MS
# of the match (default 100), MATCH_GAMES (default 200), THREADS (default: every core),
# NET (the previous generation's network: the self-play searches with it, into a new
# DIR, training goes on from its weights and the match is against it; unset for
# generation 0, the classical evaluation's games).
# The figures of each step are in docs/strength-log.md.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ $# -ne 1 ]; then
    sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
dir=$1
mkdir -p "$dir"
rule=${RULE:-freestyle}
size=${SIZE:-15}
test_set="$root/openings/$rule$size-test.txt"
exclude=()
if [ -f "$test_set" ]; then exclude=(--exclude "$test_set"); fi
threads=()
if [ -n "${THREADS:-}" ]; then threads=(--threads "$THREADS"); fi
# The evaluation the new network learns from: it plays the games and is the match's
# opponent (the classical one for generation 0, else the previous generation).
parent=(--eval classical)
opponent=classical
if [ -n "${NET:-}" ]; then
    parent=(--net "$NET")
    opponent=previous
fi
(cd "$root" && cargo build --release --quiet)
bin="$dir/bin"
mkdir -p "$bin"
# A copy, so that a rebuild under a running step changes nothing.
cp "$root/target/release/pbrain-ferrum" "$root/target/release/ferrum-arena" "$bin/"
step() { echo "== $1 ($(date +%H:%M:%S))"; }
# shellcheck source=scripts/train-recipe.sh
. "$root/scripts/train-recipe.sh"
step "self-play: ${GAMES:-2000} games, ${NODES:-20000} nodes per move ${NET:+with $NET}"
"$bin/pbrain-ferrum" "${parent[@]}" selfplay --rule "$rule" --size "$size" --games "${GAMES:-2000}" \
    --nodes "${NODES:-20000}" --seed "${SEED:-1}" "${exclude[@]}" "${threads[@]}" \
    --out "$dir/games.frsp"
step "training: ${TRAIN_RECIPE[*]}"
"$bin/pbrain-ferrum" train "$dir/games.frsp" "${TRAIN_RECIPE[@]}" "${threads[@]}" --out "$dir/net.frnn" \
    | tee "$dir/train.txt"
if [ ! -f "$test_set" ]; then
    echo "no test openings $test_set: no match"
    exit 0
fi
step "match: the network against the $opponent one, ${TURN_MS:-100} ms per move"
gomocup_rule=$(case $rule in freestyle) echo 0 ;; standard) echo 1 ;; renju) echo 4 ;; *) echo 0 ;; esac)
"$bin/ferrum-arena" --engine "$bin/pbrain-ferrum --threads 1 --net $dir/net.frnn" \
    --name net --engine "$bin/pbrain-ferrum --threads 1 ${parent[*]}" --name "$opponent" \
    --rule "$gomocup_rule" --size "$size" --turn-ms "${TURN_MS:-100}" \
    --openings "$test_set" --games "${MATCH_GAMES:-200}" --concurrency 1 --quiet \
    --sprt 0,10,0.05,0.05 | tee "$dir/match.txt"
step "done"
