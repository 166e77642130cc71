# The engine binary a long-running script uses: $BIN, or a fresh release build of this
# tree copied into the script's output folder, so that a rebuild changes nothing under
# the run. Sourced; `engine_bin DIR` sets `bin` (needs `root`, the repository).
# shellcheck shell=bash
engine_bin() {
    bin=${BIN:-}
    if [ -z "$bin" ]; then
        (cd "$root" && cargo build --release --quiet)
        bin="$1/pbrain-ferrum"
        cp "$root/target/release/pbrain-ferrum" "$bin"
    fi
}
