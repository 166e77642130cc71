#!/usr/bin/env python3
"""Measures protocol latencies and memory of the real binary.

    python3 scripts/latency.py [ENGINE] [--load-only]   (default target/release/pbrain-ferrum)

Reports: reply time to START in fresh processes (sent as soon as the process answers
ABOUT, and right after it is started); reply time to TURN with `INFO timeout_turn 0`;
time from END (sent mid-search) to process exit; peak resident memory (VmHWM) under
several max_memory values, over three 2 s searches (so the transposition table and the
solvers' tables are in use), and before the limit arrived (START allocates nothing);
answer times of 60 moves at 100, 300 and 1000 ms per move on a quiet machine and with
two CPU-bound processes beside the engine (`--load-only` for just these).
"""
import os
import subprocess
import sys
import time

ENGINE = next((a for a in sys.argv[1:] if not a.startswith("--")), "target/release/pbrain-ferrum")


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


def start_latency(rounds=20):
    for after_about in (True, False):
        times = []
        for _ in range(rounds):
            p = start()
            if after_about:
                send(p, "ABOUT")
                read_reply(p)
            t0 = time.perf_counter()
            send(p, "START 15")
            assert read_reply(p) == "OK"
            times.append((time.perf_counter() - t0) * 1000)
            send(p, "END")
            p.wait(timeout=2)
        times.sort()
        when = "once ABOUT is answered" if after_about else "right after the process starts"
        print(f"START 15 sent {when}: median {times[rounds // 2]:.2f} ms, "
              f"slowest {times[-1]:.2f} ms over {rounds} fresh processes")


def answer_times(turn_ms, moves=60):
    """Answer times of one process playing both sides (a BOARD per move), --threads 1."""
    p = subprocess.Popen([ENGINE, "--threads", "1"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    send(p, "START 15")
    read_reply(p)
    send(p, f"INFO timeout_turn {turn_ms}")
    send(p, "INFO max_memory 367001600")
    stones = [(7, 7)]
    times = []
    for _ in range(moves):
        # The side to move owns the stones of the same parity from the last one back.
        lines = [f"{x},{y},{1 if (len(stones) - i) % 2 == 0 else 2}" for i, (x, y) in enumerate(stones)]
        t0 = time.perf_counter()
        send(p, "BOARD\n" + "\n".join(lines) + "\nDONE")
        reply = read_reply(p)
        times.append((time.perf_counter() - t0) * 1000)
        x, y = map(int, reply.split(","))
        stones.append((x, y))
    send(p, "END")
    p.wait(timeout=2)
    return times


def loaded_answers(load):
    busy = [subprocess.Popen(["bash", "-c", "while :; do :; done"]) for _ in range(load)]
    try:
        for turn in (100, 300, 1000):
            times = sorted(answer_times(turn, 60 if turn < 1000 else 30))
            late = sum(1 for t in times if t > turn)
            print(f"{turn} ms per move, {load} busy processes: median {times[len(times) // 2]:.0f} ms, "
                  f"slowest {times[-1]:.0f} ms, {late} of {len(times)} later than the limit")
    finally:
        for b in busy:
            b.kill()


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
    limit is known (the peak is reset then: /proc/PID/clear_refs 5), and before it."""
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
    if "--load-only" in sys.argv:
        loaded_answers(0)
        loaded_answers(2)
        sys.exit(0)
    start_latency()
    timeout_zero()
    end_mid_search()
    for m in [None, 367001600, 83886080, 52428800]:
        memory(m)
    loaded_answers(0)
    loaded_answers(2)
