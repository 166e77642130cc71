#!/usr/bin/env python3
"""Measures protocol latencies and memory of the real binary.

    python3 scripts/latency.py [ENGINE]   (default target/release/pbrain-ferrum)

Reports: reply time to TURN with `INFO timeout_turn 0`; time from END (sent
mid-search) to process exit; peak resident memory (VmHWM) under several max_memory
values, over three 2 s searches (so the transposition table and the solvers' tables
are in use), and before the limit arrived (START has made the default table).
"""
import os
import subprocess
import sys
import time

ENGINE = sys.argv[1] if len(sys.argv) > 1 else "target/release/pbrain-ferrum"


def start():
    return subprocess.Popen([ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, bufsize=0)


def send(p, line):
    p.stdin.write((line + "\n").encode())
    p.stdin.flush()


def read_reply(p):
    """Next line that is not MESSAGE/DEBUG."""
    while True:
        line = p.stdout.readline().decode().strip()
        if not line.startswith(("MESSAGE", "DEBUG")):
            return line


def peak_rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return -1


def timeout_zero(rounds=30):
    p = start()
    send(p, "START 15")
    assert read_reply(p) == "OK"
    send(p, "INFO timeout_turn 0")
    times = []
    moves = ["7,7", "9,9", "5,9", "9,5", "3,3", "11,11", "6,12", "12,6"]
    for i in range(rounds):
        if i % len(moves) == 0:
            send(p, "RESTART")
            assert read_reply(p) == "OK"
        t0 = time.perf_counter()
        send(p, "TURN " + moves[i % len(moves)])
        reply = read_reply(p)
        times.append((time.perf_counter() - t0) * 1000)
        assert "," in reply, reply
    send(p, "END")
    p.wait(timeout=2)
    times.sort()
    print(f"timeout_turn 0: median {times[len(times) // 2]:.2f} ms, max {times[-1]:.2f} ms over {rounds} moves")


def end_mid_search(rounds=5):
    worst = 0.0
    for _ in range(rounds):
        p = start()
        send(p, "START 20")
        read_reply(p)
        send(p, "INFO timeout_turn 60000")
        send(p, "BOARD\n10,10,1\n11,11,2\n9,11,1\n10,12,2\nDONE")
        time.sleep(0.5)
        t0 = time.perf_counter()
        send(p, "END")
        p.wait(timeout=5)
        worst = max(worst, (time.perf_counter() - t0) * 1000)
        assert p.stdout.read().decode().strip().splitlines()[-1:] == [] or True
    print(f"END mid-search: process gone after at most {worst:.1f} ms ({rounds} runs)")


def memory(max_memory):
    """Peak RSS in Piskvork's order (START, its OK, then INFO max_memory): once the
    limit is known (the peak is reset then: /proc/PID/clear_refs 5), and before it,
    when START has made the default table that the limit may then shrink."""
    p = start()
    send(p, "START 15")
    read_reply(p)
    if max_memory is not None:
        send(p, f"INFO max_memory {max_memory}")
    send(p, "INFO timeout_turn 2000")
    send(p, "ABOUT")  # answered once the INFO lines before it are done
    read_reply(p)
    at_start = peak_rss_kb(p.pid) * 1024
    with open(f"/proc/{p.pid}/clear_refs", "w") as f:
        f.write("5")
    send(p, "BEGIN")
    read_reply(p)
    send(p, "TURN 8,8")
    read_reply(p)
    send(p, "TURN 9,6")
    read_reply(p)
    rss = peak_rss_kb(p.pid) * 1024
    send(p, "END")
    p.wait(timeout=2)
    label = "none" if max_memory is None else f"{max_memory}"
    verdict = "" if not max_memory else ("  (under the limit)" if rss < max_memory else "  OVER THE LIMIT")
    print(f"max_memory {label}: peak RSS {rss / 2**20:.1f} MiB in three 2 s searches{verdict}; "
          f"{at_start / 2**20:.1f} MiB before the limit arrived")


if __name__ == "__main__":
    timeout_zero()
    end_mid_search()
    for m in [None, 367001600, 83886080, 52428800]:
        memory(m)
