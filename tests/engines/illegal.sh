#!/usr/bin/env bash
# Fixture engine: plays on an occupied point. After TURN x,y it answers x,y; after a
# BOARD it answers the last stone of the block; on BEGIN it plays 7,7 (legal) so that
# its next move is the illegal one.
last=""
while IFS= read -r line; do
    line=${line%$'\r'}
    case "${line^^}" in
    ABOUT) echo 'name="illegal", version="1", author="test", country="none"' ;;
    START*) echo OK ;;
    BEGIN) echo 7,7 ;;
    TURN*) echo "${line#* }" ;;
    BOARD) last="" ;;
    DONE) echo "$last" ;;
    END) exit 0 ;;
    INFO*) ;;
    *) IFS=, read -r x y _ <<<"$line" && last="$x,$y" ;;
    esac
done
