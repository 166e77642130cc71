#!/usr/bin/env bash
# Builds the release archives into dist/:
#   pbrain-ferrum-VERSION-windows-x64.zip  the Gomocup entry: pbrain-ferrum.exe, README.md
#                                          and LICENSE at the zip's root
#   pbrain-ferrum-VERSION-linux-x64.tar.gz pbrain-ferrum-VERSION-linux-x64/ with the
#                                          Linux binary, README.md and LICENSE
# Both are release builds for the plain x86-64 baseline (SSE2: every 64-bit x86 CPU;
# x86-64-v2 and -v3 measured no faster; FERRUM_CPU overrides it), built by Debian's
# Rust (rustc-web, cargo-web) so that one compiler makes both: rustup cannot add the
# Windows target offline, and Debian ships the Windows std only as source
# (rust-web-src), hence -Zbuild-std (RUSTC_BOOTSTRAP=1). mingw-w64 links the exe.
# Missing Debian packages are installed with apt-get (scripts/install-missing.sh).
# Usage: bash scripts/dist.sh [windows|linux]   (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."

what=${1:-both}
case $what in
windows | linux | both) ;;
*)
    echo "usage: bash scripts/dist.sh [windows|linux]" >&2
    exit 2
    ;;
esac

source scripts/install-missing.sh
packages=(rustc-web cargo-web zip)
[[ $what != linux ]] && packages+=(rust-web-src gcc-mingw-w64-x86-64-win32)
need_packages --no-install-recommends "${packages[@]}"

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
# Explicit, so that a target-cpu=native in a cargo config cannot leak into a release.
cpu=${FERRUM_CPU:-x86-64}
# Debian's toolchain by full path: rustup's `cargo` stays the default one. Its own
# target folder, so that the two compilers never share (and rebuild) artifacts.
export RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc CARGO_TARGET_DIR=target/dist
export RUSTFLAGS="-C target-cpu=$cpu"
cargo=/usr/bin/cargo
mkdir -p dist
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

if [[ $what != linux ]]; then
    RUSTC_BOOTSTRAP=1 "$cargo" build --release --locked --bin pbrain-ferrum \
        --target x86_64-pc-windows-gnu -Zbuild-std
    zip="dist/pbrain-ferrum-$version-windows-x64.zip"
    mkdir "$stage/windows"
    cp target/dist/x86_64-pc-windows-gnu/release/pbrain-ferrum.exe README.md LICENSE "$stage/windows/"
    rm -f "$zip"
    (cd "$stage/windows" && zip -q -X "$OLDPWD/$zip" pbrain-ferrum.exe README.md LICENSE)
    echo "$zip"
fi

if [[ $what != windows ]]; then
    "$cargo" build --release --locked --bin pbrain-ferrum --target x86_64-unknown-linux-gnu
    name="pbrain-ferrum-$version-linux-x64"
    mkdir "$stage/$name"
    cp target/dist/x86_64-unknown-linux-gnu/release/pbrain-ferrum README.md LICENSE "$stage/$name/"
    tar -czf "dist/$name.tar.gz" -C "$stage" --owner=0 --group=0 --numeric-owner "$name"
    echo "dist/$name.tar.gz"
fi
