#!/usr/bin/env bash
# Fixture engine: answers ABOUT and START, then at its first move request prints
# MESSAGE lines without end, as fast as the pipe takes them, never a move.
while IFS= read -r line; do
    line=${line%$'\r'}
    case "${line^^}" in
    ABOUT) echo 'name="flood", version="1", author="test", country="none"' ;;
    START*) echo OK ;;
    BEGIN | TURN* | DONE) exec yes "MESSAGE thinking" ;;
    esac
done
