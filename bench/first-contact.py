#!/usr/bin/env python3
"""First contact: does the first hostile or unusual traffic after a start delay valid queries?

Run by bench/first-contact.sh against a freshly started server. One process asks a valid question
every millisecond from 127.0.0.1 (exempt from rate limiting) and times each answer; another, from
other loopback /24s, sends in turn: 1,000 malformed datagrams, a burst of one question that the
rate limiter limits, questions with client cookies, then fresh TCP connections (connect, query,
answer, close). Each phase runs twice: the first contact (cold) and again (warm), so the cost of
the first time is told from what the traffic itself costs on two cores. Prints, per phase, the
valid queries answered during it (and 100 ms after), their p99 and maximum latency, and how many
took over 5 ms.

  first-contact.py PORT
  first-contact.py PORT --first-answer PID   (waits for the server's first answer; prints its time, ns)
"""
import multiprocessing
import os
import random
import socket
import struct
import sys
import time

PORT = int(sys.argv[1])
SERVER = "127.0.0.1"


def query(qid, name, qtype=1, edns=None):
    """A DNS query; edns: None, or the bytes of its options (an OPT record with them is added)."""
    q = struct.pack(">HHHHHH", qid, 0x0100, 1, 0, 0, 1 if edns is not None else 0)
    for label in name.rstrip(".").split("."):
        q += bytes([len(label)]) + label.encode()
    q += b"\x00" + struct.pack(">HH", qtype, 1)
    if edns is not None:
        q += b"\x00" + struct.pack(">HHIH", 41, 1232, 0, len(edns)) + edns
    return q


def prober(stop, out):
    """Every millisecond a valid question; (send time, latency or None) of each. The prober runs
    at a real-time priority where it may (root), so that its own wake-up behind the attacker and
    the server's other threads on two cores is not timed as the server's delay."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
    except PermissionError:
        print("first-contact: the prober runs at normal priority (not root): its own waits are timed too",
              file=sys.stderr)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    s.settimeout(0.5)
    names = ["www.example.com", "example.com", "api.example.com"]
    results = []
    qid = 0
    next_at = time.monotonic()
    while not stop.is_set():
        qid = (qid + 1) & 0xFFFF
        t0 = time.monotonic()
        s.sendto(query(qid, names[qid % 3], 1 if qid % 3 != 1 else 6), (SERVER, PORT))
        lat = None
        while True:
            try:
                data = s.recv(4096)
            except socket.timeout:
                break
            if struct.unpack(">H", data[:2])[0] == qid:
                lat = time.monotonic() - t0
                break
        results.append((t0, lat))
        next_at += 0.001
        pause = next_at - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        else:
            next_at = time.monotonic()
    out.send(results)


def udp_from(address):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((address, 0))
    s.setblocking(False)
    return s


def drain(s):
    try:
        while True:
            s.recv(4096)
    except (BlockingIOError, OSError):
        pass


def malformed(r):
    def junk(i):
        kind = i % 4
        if kind == 0:
            return r.randbytes(r.randint(1, 11))  # shorter than a header
        if kind == 1:
            return r.randbytes(r.randint(12, 512))  # random bytes
        if kind == 2:
            return query(i, "www.example.com")[:-3]  # a question cut short
        return struct.pack(">HHHHHH", i, 0x0100, 1, 0, 0, 0) + b"\xc0\x0c" * 8  # a pointer loop
    burst("127.0.5.1", 1000, junk, 50)


def burst(address, count, make, pause_every):
    """count datagrams made by make(i), a millisecond's pause and the answers read every pause_every."""
    s = udp_from(address)
    for i in range(count):
        s.sendto(make(i), (SERVER, PORT))
        if i % pause_every == pause_every - 1:
            drain(s)
            time.sleep(0.001)
    drain(s)


def rate_limited(r):
    burst("127.0.6.1", 2000, lambda i: query(i, "example.com", 15), 50)


def cookies(r):
    burst("127.0.7.1", 500, lambda i: query(i, "example.com", 6, struct.pack(">HH", 10, 8) + r.randbytes(8)), 25)


def tcp(r):
    for i in range(200):
        c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        c.bind(("127.0.8.1", 0))
        c.settimeout(2)
        c.connect((SERVER, PORT))
        q = query(i, "example.com", 6)
        c.sendall(struct.pack(">H", len(q)) + q)
        need = struct.unpack(">H", c.recv(2))[0]
        got = b""
        while len(got) < need:
            got += c.recv(need - len(got))
        c.close()


PHASES = [("1,000 malformed datagrams", malformed), ("2,000 rate-limited questions", rate_limited),
          ("500 questions with client cookies", cookies), ("200 fresh TCP connections", tcp)]


def attacker(out):
    # Hostile traffic comes from other hosts, not from the server's own cores: here it shares the
    # machine, so it is kept to one core (the last) and the server's threads have the other.
    os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
    r = random.Random(1)
    windows = []
    time.sleep(1.0)  # the prober's own start first
    t = time.monotonic()
    time.sleep(1.0)
    windows.append(("quiet (before any)", "-", t, time.monotonic()))
    for round_name in ("first", "again"):
        for name, phase in PHASES:
            t0 = time.monotonic()
            phase(r)
            t1 = time.monotonic()
            windows.append((name, round_name, t0, t1))
            time.sleep(0.3)
    out.send(windows)


def main():
    stop = multiprocessing.Event()
    p_in, p_out = multiprocessing.Pipe(False)
    a_in, a_out = multiprocessing.Pipe(False)
    prob = multiprocessing.Process(target=prober, args=(stop, p_out))
    att = multiprocessing.Process(target=attacker, args=(a_out,))
    prob.start()
    att.start()
    windows = a_in.recv()
    att.join()
    time.sleep(0.2)
    stop.set()
    results = p_in.recv()
    prob.join()
    print("%-36s %-6s %8s %8s %9s %9s %7s %6s" % ("phase", "round", "ms", "valid", "p99 us", "max us",
                                                   ">5 ms", "lost"))
    worst_first = 0
    for name, round_name, t0, t1 in windows:
        inside = [lat for (t, lat) in results if t0 <= t <= t1 + 0.1]
        got = sorted(lat for lat in inside if lat is not None)
        lost = sum(1 for lat in inside if lat is None)
        p99 = got[min(len(got) - 1, int(0.99 * len(got)))] * 1e6 if got else 0
        worst = got[-1] * 1e6 if got else 0
        if round_name == "first":
            worst_first = max(worst_first, worst)
        print("%-36s %-6s %8.0f %8d %9.0f %9.0f %7d %6d" % (
            name, round_name, (t1 - t0) * 1e3, len(got), p99, worst, sum(1 for x in got if x > 0.005), lost))
    print("first-contact maximum: %.1f ms (bar: 5 ms)" % (worst_first / 1e3))


def first_answer(pid):
    """Asks for the SOA every 2 ms until answered, the way a resolver would notice the server is up
    (a dig a try costs tens of ms of its own start); prints the answer's wall-clock time in ns, for
    the caller to subtract its start time from. Gives up when process PID has exited."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(0.002)
    while True:
        s.sendto(query(0x5EED, "example.com", 6), (SERVER, PORT))
        try:
            if s.recv(4096)[:2] == b"\x5e\xed":
                print(time.time_ns())
                return
        except (socket.timeout, ConnectionRefusedError):
            pass
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            sys.exit("first-contact: the server stopped")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[2] == "--first-answer":
        first_answer(int(sys.argv[3]))
    else:
        main()
