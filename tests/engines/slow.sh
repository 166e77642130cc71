#!/usr/bin/env bash
# Fixture engine: `bash slow.sh DELAY NBEST MOVES...` plays MOVES in order, one per move
# request, each after DELAY seconds whatever it is told meanwhile (no YXSTOP); it
# refuses YXNBEST with an ERROR line and then, DELAY later, answers NBEST all the same
# while it goes on reading commands (as an engine that searches on its own thread).
delay=$1 nbest=$2
shift 2
moves=("$@")
next=0
block=
while IFS= read -r line; do
    line=${line%$'\r'}
    case "${line^^}" in
    ABOUT) echo 'name="slow", version="1", author="test", country="none"' ;;
    START*) next=0; echo OK ;;
    BOARD | YXBOARD) block=${line^^} ;;
    DONE) [ "$block" = BOARD ] && { sleep "$delay"; echo "${moves[next]}"; next=$((next + 1)); }; block= ;;
    BEGIN | TURN*) sleep "$delay"; echo "${moves[next]}"; next=$((next + 1)) ;;
    YXNBEST*) echo "ERROR unknown command"; (sleep "$delay"; echo "$nbest") & ;;
    END) exit 0 ;;
    esac
done
