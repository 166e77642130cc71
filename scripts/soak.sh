#!/usr/bin/env bash
# Soak run: many short games of Ferrum against PentaZen and against itself through
# ferrum-arena, first on a quiet machine, then with LOAD CPU-bound processes beside
# them (busy shell loops, as two matches and a GUI on a two-core machine). For each
# run it prints the arena's summary (games, how they ended: illegal moves, forfeits and
# crashes are counted by who committed them; the slowest answer; peak memory, VmHWM)
# and the answer times against the turn limit (scripts/answer_times.py).
#
#   scripts/soak.sh PENTAZEN [GAMES] [LOADED_GAMES]
#
# GAMES (default 500; 0 skips these runs) games per opponent without load, LOADED_GAMES
# (default 100) per opponent with the load. Environment: TURN_MS (100), LOADED_TURN_MS
# (TURN_MS), CONCURRENCY (2 without load; 1 with it), LOAD (2), LOAD_CMD (the command of
# each load process; default a busy shell loop; `{}` becomes its number), OPENINGS
# (tests/data/openings/freestyle15.txt), OUT (a new temporary folder: games, output).
# Engines run with --threads 1 and the arena's max_memory (350 MiB, as c-gomoku-cli
# sends). Builds nothing: run `cargo build --release` first.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ $# -lt 1 ] || [ $# -gt 3 ]; then
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
pentazen=$1
games=${2:-500}
loaded_games=${3:-100}
turn=${TURN_MS:-100}
load=${LOAD:-2}
openings=${OPENINGS:-$root/tests/data/openings/freestyle15.txt}
out=${OUT:-$(mktemp -d /tmp/ferrum-soak.XXXXXX)}
# The arena splits an engine's command line on whitespace: the binaries' folder has none.
case "$out" in *[[:space:]]*)
    echo "soak.sh: OUT must not contain spaces (the engines' paths are split on them)" >&2
    exit 2
    ;;
esac
mkdir -p "$out"
# Frozen copies: a rebuild during the soak must not swap the binaries under it.
cp "$root/target/release/pbrain-ferrum" "$out/ferrum-a"
cp "$root/target/release/pbrain-ferrum" "$out/ferrum-b"
cp "$root/target/release/ferrum-arena" "$out/arena"
busy=()
stop_load() {
    for pid in "${busy[@]}"; do kill "$pid" 2>/dev/null || true; done
    busy=()
}
trap stop_load EXIT

run() { # NAME OPPONENT GAMES CONCURRENCY TURN_MS
    local name=$1 opponent=$2 n=$3 conc=$4 turn=$5
    echo "== $name: $n games at $turn ms, concurrency $conc, ${#busy[@]} busy processes"
    mkdir -p "$out/$name"
    "$out/arena" --engine "$out/ferrum-a --threads 1" --engine "$opponent" \
        --name ferrum --name opponent --turn-ms "$turn" --games "$n" \
        --concurrency "$conc" --openings "$openings" --psq "$out/$name" --quiet \
        | tee "$out/$name.txt"
    python3 "$root/scripts/answer_times.py" "$out/$name" "$turn"
}

echo "soak output: $out"
if [ "$games" -gt 0 ]; then
    run pentazen "$pentazen" "$games" "${CONCURRENCY:-2}" "$turn"
    run self "$out/ferrum-b --threads 1" "$games" "${CONCURRENCY:-2}" "$turn"
fi
for i in $(seq "$load"); do
    cmd=${LOAD_CMD:-while :; do :; done}
    bash -c "${cmd//\{\}/$i}" &
    busy+=($!)
done
loaded_turn=${LOADED_TURN_MS:-$turn}
run pentazen-loaded "$pentazen" "$loaded_games" 1 "$loaded_turn"
run self-loaded "$out/ferrum-b --threads 1" "$loaded_games" 1 "$loaded_turn"
