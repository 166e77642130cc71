#!/usr/bin/env bash
# Has more data stopped helping? The test fixed in docs/strength-log.md (sessions 85
# and 87) before its figures: renju generation 0's data, the classical evaluation's
# games of seed 201 (380 chunks of 1000 games, about 12.3 M training positions; about
# 11 hours of two cores in all), the recipe trained on the first half of them and on
# all, both scored on games of the engine's own networks and played against each other.
#
#   scripts/doubling_test.sh DIR
#
# Each step is skipped when its output exists, so the same command resumes a stopped
# run. DIR receives classical/ (the games), own/ (OWN_GAMES games of `renju-gen0-3m`, seed
# 301, and of `renju-gen1`, seed 302, at 10000 nodes a move, from openings no game of
# classical/ had), curve/ (learning_curve.sh with SHARES "0.5 1": the networks,
# curve.txt with their losses on the held-out games and on each own set), match.txt
# (all data against half, 200 ms a move, GAMES games on the first GAMES/2 openings of
# openings/renju15-test.txt) and verdict.txt. Environment:
# CHUNKS (380), CHUNK (games a chunk, 1000), OWN_GAMES (2000), GAMES (400), THREADS
# (every core), BIN and ARENA (`pbrain-ferrum` and `ferrum-arena`: default, a release
# build of this tree). The builds, these scripts, nets/ and the openings are copied into
# DIR the first time and the run reads only those (the tree may change under it); a
# resumed run with other sizes than DIR/stamp.txt records is refused.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ $# -ne 1 ]; then
    sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
mkdir -p "$1"
dir="$(cd "$1" && pwd)"
chunks=${CHUNKS:-380} own_games=${OWN_GAMES:-2000} games=${GAMES:-400}
threads=${THREADS:-$(nproc)}
cd "$root"
# One build plays and trains throughout, so that a run resumed after a rebuild goes on
# with the same engine: BIN and ARENA, or this tree's, copied into DIR the first time.
if [ ! -x "$dir/pbrain-ferrum" ]; then
    if [ -z "${BIN:-}" ] || [ -z "${ARENA:-}" ]; then cargo build --release --quiet; fi
    cp "${BIN:-target/release/pbrain-ferrum}" "$dir/pbrain-ferrum"
    cp "${ARENA:-target/release/ferrum-arena}" "$dir/ferrum-arena"
fi
stamp="CHUNKS=$chunks CHUNK=${CHUNK:-1000} OWN_GAMES=$own_games GAMES=$games"
if [ ! -f "$dir/stamp.txt" ]; then echo "$stamp" >"$dir/stamp.txt"; fi
if [ "$(cat "$dir/stamp.txt")" != "$stamp" ]; then
    echo "$dir was begun with $(cat "$dir/stamp.txt"), not $stamp" >&2
    exit 2
fi
# The run goes on from its own copy of what it reads, so that an edit, a pull or a
# rewritten network in the tree changes nothing under a run of many sessions.
if [ "$root" != "$dir/tree" ]; then
    if [ ! -d "$dir/tree" ]; then
        rm -rf "$dir/tree.part"
        mkdir -p "$dir/tree.part/tests/data"
        cp -r scripts openings nets "$dir/tree.part/"
        cp -r tests/data/openings "$dir/tree.part/tests/data/"
        mv "$dir/tree.part" "$dir/tree"
    fi
    exec bash "$dir/tree/scripts/doubling_test.sh" "$dir"
fi
play=(--rule renju --nodes 10000 --balance-nodes 10000 --exclude openings/renju15-test.txt
    --exclude tests/data/openings/renju26.txt --threads "$threads")
BIN="$dir/pbrain-ferrum" ENGINE="--eval classical" scripts/selfplay_chunks.sh \
    "$dir/classical" s201 0 $((chunks - 1)) --seed 201 "${play[@]}"
# The own sets start from no opening of the training games: a game that shares its
# first positions with the training data would favour the network that saw more.
own=() trained=()
for f in "$dir"/classical/s201-*.frsp; do trained+=(--exclude "$f"); done
for net_seed in renju-gen0-3m:301 renju-gen1:302; do
    net=${net_seed%:*}
    BIN="$dir/pbrain-ferrum" ENGINE="--net nets/$net.frnn" CHUNK=$own_games \
        scripts/selfplay_chunks.sh "$dir/own" "$net" 0 0 --seed "${net_seed#*:}" "${play[@]}" \
        "${trained[@]}"
    own+=("$dir/own/$net-000.frsp")
done
SHARES="0.5 1" EPOCHS=3 NET="" EVAL="${own[*]}" THREADS=$threads BIN="$dir/pbrain-ferrum" \
    scripts/learning_curve.sh "$dir/curve" "$dir"/classical/s201-*.frsp
if [ ! -f "$dir/match.txt" ] || ! grep -q '^Finished' "$dir/match.txt"; then
    head -n $((games / 2)) openings/renju15-test.txt >"$dir/openings.txt"
    "$dir/ferrum-arena" --engine "$dir/pbrain-ferrum --threads 1 --net $dir/curve/curve-1.frnn" \
        --engine "$dir/pbrain-ferrum --threads 1 --net $dir/curve/curve-0.5.frnn" \
        --name all --name half --rule 4 --turn-ms 200 --draw-after 200 \
        --openings "$dir/openings.txt" --games "$games" --concurrency 2 --quiet >"$dir/match.txt"
fi
# More data has stopped helping when doubling lowers the value loss on both own sets by
# less than 0.003 and the network of all the data does not beat the one of half in play
# (its 95 % interval reaches 0). The losses are compared as printed (four decimals) in
# units of 0.0001: in floating point a gain printed 0.0030 could fall just under.
{
    awk 'NR == 2 { for (i = 7; i <= NF; i++) half[i] = $i }
        NR == 3 { for (i = 7; i <= NF; i++) { g = int(half[i] * 10000 + 0.5) - int($i * 10000 + 0.5); printf "own set %d: value %s -> %s, gain %.4f\n", i - 6, half[i], $i, g / 10000; if (g >= 30) more = 1 } }
        END { print (more ? "loss: more data still helps" : "loss: more data stopped helping") }' \
        "$dir/curve/curve.txt"
    grep 'scored' "$dir/match.txt"
    # The first engine is the network of all the data; W-L-D decides where Elo is infinite.
    sed -n 's/.*W-L-D \([0-9]*\)-\([0-9]*\)-[0-9]*, Elo difference \([^ ]*\) +\/- \([^ ]*\).*/\1 \2 \3 \4/p' \
        "$dir/match.txt" | awk '{ beats = ($3 ~ /inf/ || $4 ~ /inf/) ? $1 > $2 : $3 - $4 > 0
            print (beats ? "play: all the data beats half" : "play: all the data does not beat half") }'
} >"$dir/verdict.part"
# Both halves of the rule together.
if grep -q '^loss: more data stopped helping' "$dir/verdict.part" &&
    grep -q '^play: all the data does not beat half' "$dir/verdict.part"; then
    echo "verdict: more data has stopped helping" >>"$dir/verdict.part"
else
    echo "verdict: more data still helps" >>"$dir/verdict.part"
fi
mv "$dir/verdict.part" "$dir/verdict.txt"
cat "$dir/verdict.txt"
