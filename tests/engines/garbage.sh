#!/usr/bin/env bash
# Fixture engine: answers ABOUT and START, then at its first move request prints
# garbage forever: junk lines, near-moves, long lines, never a valid `x,y` line.
while IFS= read -r line; do
    line=${line%$'\r'}
    case "${line^^}" in
    ABOUT) echo 'name="garbage", version="1", author="test", country="none"' ;;
    START*) echo OK ;;
    BEGIN | TURN* | DONE) break ;;
    esac
done
long=$(printf 'x%.0s' {1..5000})
while :; do
    echo "garbage $RANDOM"
    echo "MESSAGE 7,7"
    echo "7, 7"
    echo "7,7,7"
    echo "-1,3"
    echo "$long"
done
