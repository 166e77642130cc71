#!/usr/bin/env bash
# Fixture engine: answers ABOUT and START, then sleeps far past any move limit before
# each move (and ignores END while asleep).
while IFS= read -r line; do
    line=${line%$'\r'}
    case "${line^^}" in
    ABOUT) echo 'name="sleeper", version="1", author="test", country="none"' ;;
    START*) echo OK ;;
    BEGIN | TURN* | DONE) sleep 60; echo 7,7 ;;
    END) exit 0 ;;
    esac
done
