#!/usr/bin/env bash
# Fixture engine: answers ABOUT, answers START with OK and exits at once.
while IFS= read -r line; do
    line=${line%$'\r'}
    case "${line^^}" in
    ABOUT) echo 'name="exiter", version="1", author="test", country="none"' ;;
    START*) echo OK; exit 0 ;;
    esac
done
