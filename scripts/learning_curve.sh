#!/usr/bin/env bash
# Does more data still help? Trains train.sh's recipe on a growing share of the same
# self-play files (the first games of them, in the order given) and prints each
# network's held-out losses: the same held-out games every time, so the rows compare.
#
#   scripts/learning_curve.sh DIR DATA.frsp...
#
# DIR receives curve-SHARE.frnn and curve-SHARE.txt (the trainer's report) per share,
# curve.txt, the table, and gains.txt: the held-out losses' gain per doubling of the
# data between rows. Environment: SHARES (default "0.125 0.25 0.5 1"), EPOCHS
# (default 3), THREADS (default: every core), NET (each share trains on from this
# network, as train.sh's next generation does: the curve of one generation's games).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ $# -lt 2 ]; then
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
dir=$1
shift
mkdir -p "$dir"
threads=()
if [ -n "${THREADS:-}" ]; then threads=(--threads "$THREADS"); fi
# shellcheck source=scripts/train-recipe.sh
. "$root/scripts/train-recipe.sh"
(cd "$root" && cargo build --release --quiet)
cp "$root/target/release/pbrain-ferrum" "$dir/pbrain-ferrum"
printf '%-6s %10s %8s %8s %6s %7s\n' share positions value policy top1 seconds >"$dir/curve.txt"
for share in ${SHARES:-0.125 0.25 0.5 1}; do
    start=$(date +%s)
    "$dir/pbrain-ferrum" train "$@" "${TRAIN_RECIPE[@]}" "${threads[@]}" --fraction "$share" \
        --out "$dir/curve-$share.frnn" >"$dir/curve-$share.txt"
    seconds=$(($(date +%s) - start))
    # "N games, P training positions, H held out" ... "wrote F (...: held-out value V policy P top1 T)"
    positions=$(sed -n 's/^[0-9]* games, \([0-9]*\) training positions.*/\1/p' "$dir/curve-$share.txt")
    read -r value policy top1 < <(sed -n 's/^wrote .*held-out value \([0-9.]*\) policy \([0-9.]*\) top1 \([0-9.]*\))$/\1 \2 \3/p' \
        "$dir/curve-$share.txt")
    printf '%-6s %10s %8s %8s %6s %7s\n' "$share" "$positions" "$value" "$policy" "$top1" "$seconds" >>"$dir/curve.txt"
    tail -1 "$dir/curve.txt"
done
cat "$dir/curve.txt"
# A gain per doubling near zero is what "more data stops helping" means here.
awk 'NR > 2 {
    d = log($2 / n) / log(2)
    printf "%s -> %s positions: value gain %.4f, policy gain %.4f per doubling\n", n, $2, (v - $3) / d, (p - $4) / d
}
{ n = $2; v = $3; p = $4 }' "$dir/curve.txt" | tee "$dir/gains.txt"
