#!/usr/bin/env bash
# Checks the Windows build under wine: builds the Gomocup zip (scripts/dist.sh windows),
# takes pbrain-ferrum.exe out of it and runs `--version`, every protocol transcript of
# protocol-tests/ (tests/protocol.rs with FERRUM_ENGINE) and a short ferrum-arena match
# against the Linux build (4 games at 200 ms: no illegal move, forfeit or crash allowed).
# Installs wine64 and unzip from Debian when missing. Wine 8.0 lacks ProcessPrng, which Rust's std
# imports: a test-only stand-in (scripts/wine/bcryptprimitives.c) goes into a private
# wine prefix under target/wine, never into the zip.
# Usage: bash scripts/wine_check.sh [bench]   (bench: also `bench` under wine and on Linux)
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS

bash scripts/dist.sh windows >/dev/null
source scripts/install-missing.sh
need_packages --no-install-recommends wine64 unzip
# The Linux engine and the arena come from the ordinary release build (cargo test
# --release builds both: a no-op after scripts/test.sh's run).
cargo build --release --quiet --bin pbrain-ferrum --bin ferrum-arena
echo "wine check: build and install took $((SECONDS - start)) s"

work=$PWD/target/wine
export WINEPREFIX=$work/prefix WINEDEBUG=-all WINEARCH=win64
# No Mono or Gecko install prompts (there is no network, and the engine needs neither).
export WINEDLLOVERRIDES="mscoree,mshtml="
wine=/usr/lib/wine/wine64 wineserver=/usr/lib/wine/wineserver
mkdir -p "$work" "$WINEPREFIX"
# One persistent wineserver for every engine start (a new one per start costs about a
# second); one left from an earlier run of this prefix is stopped first.
"$wineserver" -k 2>/dev/null || true
"$wineserver" -p </dev/null >/dev/null 2>&1
trap '"$wineserver" -k 2>/dev/null || true' EXIT
trap 'exit 1' INT TERM
# wineboot starts wine's services now: started by the first engine instead, they would
# inherit its stdout and keep the pipe open after the engine exits.
if [[ -d $WINEPREFIX/drive_c/windows/system32 ]]; then
    "$wine" wineboot </dev/null >/dev/null 2>&1
else
    "$wine" wineboot --init </dev/null >/dev/null 2>&1
fi
x86_64-w64-mingw32-gcc -shared -O2 -s -o "$work/bcryptprimitives.dll" \
    scripts/wine/bcryptprimitives.c -ladvapi32
cp "$work/bcryptprimitives.dll" "$WINEPREFIX/drive_c/windows/system32/"

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
rm -f "$work/pbrain-ferrum.exe"
unzip -q -o "dist/pbrain-ferrum-$version-windows-x64.zip" pbrain-ferrum.exe -d "$work"
exe="$wine $work/pbrain-ferrum.exe"

fail() {
    echo "wine check FAILED: $*" >&2
    exit 1
}

out=$($exe --version) || fail "--version exited $?"
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
[[ $out == "pbrain-ferrum $version ($commit)" ]] || fail "--version printed '$out'"
echo "wine check: $out"

transcripts() {
    FERRUM_ENGINE="$exe" cargo test --release --quiet --test protocol protocol_transcripts \
        -- --nocapture >"$work/transcripts.log" 2>&1
}
t=$SECONDS
# Wine 8.0 itself sometimes prints "wine client error: sendmsg: ..." as a process exits
# while a thread talks to wineserver (about 1 run in 8 on END mid-search, more on a
# loaded machine); the harness fails on any stderr. Rarer, a wine process exits with
# status 1 before the engine prints anything (seen once, at START; the harness may
# report it as the exit or as the broken pipe of its next line); the engine itself only
# exits with 0 or 2 (a panic gives 101, and its message on stderr). Only these are
# retried, up to four runs, and a failed run's "test result" line is left out of
# scripts/test.sh's count.
for attempt in 1 2 3 4; do
    if transcripts; then
        break
    fi
    if ! grep -Eq 'wine client error|the engine exited with exit status: 1($|;)|has the engine exited\?' \
        "$work/transcripts.log" || grep -q 'stderr: .*panicked' "$work/transcripts.log" ||
        [[ $attempt == 4 ]]; then
        cat "$work/transcripts.log"
        fail "protocol transcripts"
    fi
    grep -v '^test result:' "$work/transcripts.log"
    echo "wine check: a wine start-up or exit failure in a transcript; running them again"
done
cat "$work/transcripts.log"
echo "wine check: protocol transcripts took $((SECONDS - t)) s"

t=$SECONDS
log=$work/arena.log
target/release/ferrum-arena --engine "$exe --threads 1" --name windows \
    --engine "target/release/pbrain-ferrum --threads 1" --name linux \
    --turn-ms 200 --games 4 --openings tests/data/openings/freestyle15.txt \
    >"$log" 2>&1 || fail "ferrum-arena exited $?: $(cat "$log")"
cat "$log"
grep -q '^Finished 4 games' "$log" || fail "the match did not finish"
if grep -Eq 'illegal|forbidden|forfeit|crash' "$log"; then
    fail "illegal move, forfeit or crash in the match"
fi
echo "wine check: 4 games took $((SECONDS - t)) s"

if [[ ${1:-} == bench ]]; then
    linux=target/dist/x86_64-unknown-linux-gnu/release/pbrain-ferrum
    bash scripts/dist.sh linux >/dev/null
    for run in 1 2 3; do
        echo "bench $run: windows (wine) $($exe bench | grep '^Bench:')"
        echo "bench $run: linux          $($linux bench | grep '^Bench:')"
    done
fi
echo "wine check passed in $((SECONDS - start)) s"
