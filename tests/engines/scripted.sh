#!/usr/bin/env bash
# Fixture engine: plays its arguments in order, one per move request
# (`bash scripted.sh 7,7 8,8`), whatever the position.
moves=("$@")
next=0
while IFS= read -r line; do
    line=${line%$'\r'}
    case "${line^^}" in
    ABOUT) echo 'name="scripted", version="1", author="test", country="none"' ;;
    START*) next=0; echo OK ;;
    BEGIN | TURN* | DONE) echo "${moves[next]}"; next=$((next + 1)) ;;
    END) exit 0 ;;
    esac
done
