#!/usr/bin/env bash
# Fixture engine: legal.sh with every line it prints ended by CR alone (the protocol
# allows CR, LF or CR LF).
echo() { printf '%s\r' "$*"; }
source "$(dirname "$0")/legal.sh"
