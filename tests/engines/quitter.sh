#!/usr/bin/env bash
# Fixture engine: plays 0,0 2,0 4,0 ... in order whatever the position; as White (its
# first request a TURN or BOARD) it exits right after its fourth move.
next=0 white=0
while IFS= read -r line; do
    line=${line%$'\r'}
    case "${line^^}" in
    ABOUT) echo 'name="quitter", version="1", author="test", country="none"' ;;
    START*) next=0; white=0; echo OK ;;
    BEGIN | TURN* | DONE)
        [[ $next == 0 && ${line^^} != BEGIN ]] && white=1
        echo "$((2 * next)),0"
        next=$((next + 1))
        ((white && next == 4)) && exit 0
        ;;
    END) exit 0 ;;
    esac
done
