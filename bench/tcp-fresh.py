#!/usr/bin/env python3
"""DNS over TCP with a fresh connection per query: connect, ask example.com SOA, read the answer,
close; each timed. Used by bench/dns-bench.sh (section 6).

  tcp-fresh.py PORT COUNT          prints "median_us p99_us max_us connections_per_s"
  tcp-fresh.py PORT COUNT --raw    prints each connection's time in microseconds, a line each
  tcp-fresh.py --summary FILE      the first form's line over the times in FILE
"""
import socket
import struct
import sys
import time


def query(qid):
    q = struct.pack(">HHHHHH", qid, 0x0100, 1, 0, 0, 0)
    for label in ("example", "com"):
        q += bytes([len(label)]) + label.encode()
    return q + b"\x00" + struct.pack(">HH", 6, 1)


def summary(times_us, seconds):
    times_us = sorted(times_us)
    n = len(times_us)
    rate = n / seconds if seconds else 0
    return "%.0f %.0f %.0f %.0f" % (times_us[n // 2], times_us[min(n - 1, int(n * 0.99))], times_us[-1], rate)


def main():
    if sys.argv[1] == "--summary":
        times = [float(line) for line in open(sys.argv[2]) if line.strip()]
        print(summary(times, sum(times) / 1e6))
        return
    port, count = int(sys.argv[1]), int(sys.argv[2])
    times = []
    for i in range(count):
        t0 = time.perf_counter()
        c = socket.socket()
        c.connect(("127.0.0.1", port))
        q = query(i & 0xFFFF)
        c.sendall(struct.pack(">H", len(q)) + q)
        need = struct.unpack(">H", c.recv(2))[0]
        got = b""
        while len(got) < need:
            part = c.recv(need - len(got))
            if not part:
                raise SystemExit("tcp-fresh: the server closed before the whole answer")
            got += part
        c.close()
        times.append((time.perf_counter() - t0) * 1e6)
    if "--raw" in sys.argv:
        print("\n".join("%.1f" % t for t in times))
    else:
        print(summary(times, sum(times) / 1e6))


if __name__ == "__main__":
    main()
