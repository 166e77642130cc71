#!/usr/bin/env bash
# Self-play in numbered chunks that a stopped run resumes: chunk K holds games
# K*CHUNK .. K*CHUNK+CHUNK-1 of the seed (selfplay's --first), so the chunks of one
# seed are one long run's games, cut where it suits the machine's hours.
#
#   scripts/selfplay_chunks.sh DIR NAME FROM TO [SELFPLAY OPTIONS...]
#
# Plays chunks FROM..TO (inclusive) into DIR/NAME-KKK.frsp, skipping chunks already
# written; a chunk is written to NAME-KKK.frsp.part and renamed when complete, so an
# interrupted chunk is played again from its start. Each chunk excludes the openings of
# the chunks before it in DIR (a run never plays an opening twice), so the chunks equal
# one uncut run only when those are all there. The options go to `pbrain-ferrum
# selfplay` (--rule, --seed, --nodes, --exclude, --threads...; not --first, --games or
# --out). Environment: CHUNK (games per chunk, default 1000), UNTIL (a time `date -d`
# reads: no chunk starts after it, and the script then exits 3), ENGINE (options before `selfplay`: `--eval classical`
# for the classical evaluation's games, `--net FILE` for another network's than the
# built-in one), BIN (the engine binary, default a fresh release build of this tree,
# copied into DIR so that a rebuild changes nothing under the run).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ $# -lt 4 ]; then
    sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
dir=$1 name=$2 from=$3 to=$4
shift 4
mkdir -p "$dir"
chunk=${CHUNK:-1000}
until_epoch=
if [ -n "${UNTIL:-}" ]; then until_epoch=$(date -d "$UNTIL" +%s); fi
# shellcheck source=scripts/engine-bin.sh
. "$root/scripts/engine-bin.sh"
engine_bin "$dir"
read -r -a engine <<<"${ENGINE:-}"
for ((k = from; k <= to; k++)); do
    file=$(printf '%s/%s-%03d.frsp' "$dir" "$name" "$k")
    if [ -f "$file" ]; then continue; fi
    if [ -n "$until_epoch" ] && [ "$(date +%s)" -ge "$until_epoch" ]; then
        echo "stopped before chunk $k: past $UNTIL"
        # Not 0: a caller must not go on as if every chunk were there.
        exit 3
    fi
    rm -f "$file.part"
    earlier=()
    for ((j = 0; j < k; j++)); do
        prev=$(printf '%s/%s-%03d.frsp' "$dir" "$name" "$j")
        if [ -f "$prev" ]; then earlier+=(--exclude "$prev"); fi
    done
    start=$(date +%s)
    "$bin" "${engine[@]}" selfplay "$@" "${earlier[@]}" --first $((k * chunk)) --games "$chunk" \
        --out "$file.part" | tail -1
    mv "$file.part" "$file"
    echo "chunk $k: $file in $(($(date +%s) - start)) s"
done
