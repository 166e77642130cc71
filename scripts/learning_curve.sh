#!/usr/bin/env bash
# Does more data still help? Trains train.sh's recipe on a growing share of the same
# self-play files (the first games of them, in the order given) and prints each
# network's held-out losses: the same held-out games every time, so the rows compare.
#
#   scripts/learning_curve.sh DIR DATA.frsp...
#
# DIR receives curve-SHARE.frnn and curve-SHARE.txt (the trainer's report) per share,
# curve-SHARE-on-NAME.txt (its scores on each EVAL file), curve.txt, the table, and
# gains.txt: the held-out losses' gain per doubling of the data between rows. A share
# whose network and report exist is not trained again, so a stopped run resumes.
# Environment: SHARES (default "0.125 0.25 0.5 1"), EPOCHS (default 3, with NET 2),
# THREADS (default: every core), NET (each share trains on from this network, as
# train.sh's next generation does: the curve of one generation's games), EVAL (other
# self-play files, of distinct file names: each network's value loss on all of each
# file's games, one more column a file, e.g. the games of the engine's own network),
# BIN (the engine binary, default a fresh release build of this tree, copied into DIR).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ $# -lt 2 ]; then
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
dir=$1
shift
mkdir -p "$dir"
read -r -a evals <<<"${EVAL:-}"
# A file's scores are kept under its name: two files of one name would share them.
names=$(for e in "${evals[@]}"; do basename "$e" .frsp; done | sort)
if [ "$names" != "$(uniq <<<"$names")" ]; then
    echo "learning_curve.sh: EVAL files need distinct names: ${EVAL}" >&2
    exit 2
fi
threads=()
if [ -n "${THREADS:-}" ]; then threads=(--threads "$THREADS"); fi
# shellcheck source=scripts/train-recipe.sh
. "$root/scripts/train-recipe.sh"
# shellcheck source=scripts/engine-bin.sh
. "$root/scripts/engine-bin.sh"
engine_bin "$dir"
{
    printf '%-6s %10s %8s %8s %6s %7s' share positions value policy top1 seconds
    for e in "${evals[@]}"; do printf ' %8s' "$(basename "$e" .frsp)"; done
    echo
} >"$dir/curve.txt"
# "wrote F (...: held-out value V policy P top1 T)" -> "V P T"
losses() { sed -n 's/^wrote .*held-out value \([0-9.]*\) policy \([0-9.]*\) top1 \([0-9.]*\))$/\1 \2 \3/p' "$1"; }
for share in ${SHARES:-0.125 0.25 0.5 1}; do
    net="$dir/curve-$share.frnn" report="$dir/curve-$share.txt"
    if [ ! -f "$net" ] || [ -z "$(losses "$report")" ]; then
        start=$(date +%s)
        "$bin" train "$@" "${TRAIN_RECIPE[@]}" "${threads[@]}" --fraction "$share" \
            --out "$net" >"$report"
        echo "seconds $(($(date +%s) - start))" >>"$report"
        rm -f "$dir/curve-$share-on-"*.txt
    fi
    # "N games (R repeats left out), P training positions, H held out"
    positions=$(sed -n 's/^[0-9]* games[^,]*, \([0-9]*\) training positions.*/\1/p' "$report")
    read -r value policy top1 < <(losses "$report")
    seconds=$(sed -n 's/^seconds //p' "$report")
    row=$(printf '%-6s %10s %8s %8s %6s %7s' "$share" "$positions" "$value" "$policy" "$top1" "${seconds:--}")
    for e in "${evals[@]}"; do
        # --epochs 0 scores the network as the engine loads it; --holdout 1: every game.
        scored="$dir/curve-$share-on-$(basename "$e" .frsp).txt"
        if [ -z "$(losses "$scored" 2>/dev/null)" ]; then
            "$bin" train "$e" --init "$net" "${SCORE_RECIPE[@]}" --epochs 0 \
                --holdout 1 "${threads[@]}" --out /dev/null >"$scored"
        fi
        read -r value _ < <(losses "$scored")
        name=$(basename "$e" .frsp)
        row+=$(printf ' %*s' $((${#name} > 8 ? ${#name} : 8)) "$value")
    done
    echo "$row" | tee -a "$dir/curve.txt"
done
cat "$dir/curve.txt"
# A gain per doubling near zero is what "more data stops helping" means here.
awk 'NR > 2 {
    d = log($2 / n) / log(2)
    printf "%s -> %s positions: value gain %.4f, policy gain %.4f per doubling\n", n, $2, (v - $3) / d, (p - $4) / d
}
{ n = $2; v = $3; p = $4 }' "$dir/curve.txt" | tee "$dir/gains.txt"
