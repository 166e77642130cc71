#!/usr/bin/env bash
# Fixture engine: legal but weak. Tracks every stone it hears of (BEGIN, TURN,
# BOARD) and its own, and plays the first free point scanning from 0,0 row by row.
size=15
declare -A taken
in_board=0

reply() {
    local x y
    for ((y = 0; y < size; y++)); do
        for ((x = 0; x < size; x++)); do
            if [[ -z ${taken[$x,$y]} ]]; then
                taken[$x,$y]=1
                echo "$x,$y"
                return
            fi
        done
    done
}

while IFS= read -r line; do
    line=${line%$'\r'}
    case "${line^^}" in
    ABOUT) echo 'name="legal", version="1", author="test", country="none"' ;;
    START*) size=${line#* }; taken=(); echo OK ;;
    RESTART) taken=(); echo OK ;;
    BEGIN) reply ;;
    TURN*) taken[${line#* }]=1; reply ;;
    BOARD) in_board=1; taken=() ;;
    DONE) in_board=0; reply ;;
    END) exit 0 ;;
    INFO*) ;;
    *)
        if ((in_board)); then
            IFS=, read -r x y _ <<<"$line"
            taken[$x,$y]=1
        fi
        ;;
    esac
done
