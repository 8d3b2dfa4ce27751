#!/usr/bin/env python3
"""snmpd pass_persist agent: hrProcessorLoad.1 is the CPU use of the data center's application.

Serves 1.3.6.1.2.1.25.3.3.1.2.1 (HOST-RESOURCES-MIB hrProcessorLoad, one processor) as the CPU
time the application process PID used over the last 3 seconds, in percent of one core, measured
from /proc/PID/stat every half second. Why not snmpd's own hrProcessorLoad: that is the whole
test machine's, shared with everything else running on it, and averaged over a minute; this is
the same figure for the one server the test loads, measured for real.

usage (snmpd.conf): pass_persist -p 10 .1.3.6.1.2.1.25.3.3.1.2 /usr/bin/python3 cpu-agent.py PID
"""
import collections
import os
import sys
import threading
import time

COLUMN = ".1.3.6.1.2.1.25.3.3.1.2"
ROW = COLUMN + ".1"
WINDOW = 3.0
TICK = os.sysconf("SC_CLK_TCK")

pid = int(sys.argv[1])
samples = collections.deque()  # (monotonic seconds, CPU seconds of the process)
lock = threading.Lock()


def cpu_seconds():
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime


def sample():
    while True:
        try:
            now, used = time.monotonic(), cpu_seconds()
        except OSError:
            return  # the application is gone: the value stops at its last figure
        with lock:
            samples.append((now, used))
            while len(samples) > 2 and now - samples[1][0] >= WINDOW:
                samples.popleft()
        time.sleep(0.5)


def percent():
    with lock:
        if len(samples) < 2:
            return 0
        (t0, c0), (t1, c1) = samples[0], samples[-1]
    return max(0, min(100, round((c1 - c0) / (t1 - t0) * 100)))


def answer(*lines):
    sys.stdout.write("".join(line + "\n" for line in lines))
    sys.stdout.flush()


def main():
    threading.Thread(target=sample, daemon=True).start()
    for line in sys.stdin:
        command = line.strip()
        if command == "PING":
            answer("PONG")
        elif command in ("get", "getnext"):
            oid = sys.stdin.readline().strip()
            if (command == "get" and oid == ROW) or (command == "getnext" and oid in (COLUMN, COLUMN + ".0")):
                answer(ROW, "integer", str(percent()))
            else:
                answer("NONE")
        elif command == "set":
            sys.stdin.readline()
            sys.stdin.readline()
            answer("not-writable")
        else:
            answer("NONE")


if __name__ == "__main__":
    main()
