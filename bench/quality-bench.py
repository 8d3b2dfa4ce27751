#!/usr/bin/python3
"""The answer-quality bench's python part (stdlib only), run by bench/quality-bench.sh:

  plan OUT SEED...        draws each seed's resolvers and their per-DC delays, before and after the
                          route change; writes OUT/plan.json and nfq-delay's rules files
                          OUT/rules-SEED.before and OUT/rules-SEED.after
  resolvers PLAN LOG STAGGER MODE=ADDR_A,ADDR_B...
                          the resolvers' namespace: every resolver address answers DNS on port 53
                          (REFUSED: any reply is a probe's reply), and asks www.example.com about
                          once a second per mode from its own address, of a random instance of the
                          mode's pair; the resolvers start one by one over STAGGER seconds; one
                          line per query to LOG; runs until SIGTERM
  report PLAN LOG TIMES [--check]
                          the figures per seed and mode; --check exits 1 when the regression bar fails

Addresses: data center A is 198.18.160.0/24 and B 198.18.161.0/24 (the virtual servers .10);
seed S's resolvers are 198.18.(163+S).11-22 (jittered group) and .31-42 (clean group).
"""
import heapq
import json
import os
import random
import selectors
import signal
import socket
import struct
import sys
import time

DC_NET = {"A": "198.18.160.0/24", "B": "198.18.161.0/24"}
VIP = {"198.18.160.10": "A", "198.18.161.10": "B"}
GROUP_SIZE = 12
JITTER_MS = 20
LOSS_PERCENT = 5
GAP_MS = 20        # RTT means this far apart or more: a clear case, the answer must be the lower one
NEAR_TIE_MS = 10   # RTT means closer than this: a near tie, the answer should stay put
FOLLOW_BAR_S = 60  # the freshness bar at defaults
CHECK_QUALITY = 95.0
CHECK_FOLLOW_S = 180


# ---------------------------------------------------------------- plan

def draw_pair(rng, rtt_gap):
    """One-way means (A, B) in 20-80 ms whose RTT means (2 x one way) differ by rtt_gap, the
    faster side drawn at random."""
    one_way = rtt_gap / 2
    low = rng.uniform(20, 80 - one_way)
    pair = [round(low, 1), round(low + one_way, 1)]
    rng.shuffle(pair)
    return pair


def draw(seeds):
    """The seeds' resolvers: address, group and per-DC one-way means before and after the change."""
    resolvers = []
    for seed in seeds:
        rng = random.Random(seed)
        # jittered: 3 near ties, 2 just past the 20 ms gap (the hard clear case), 7 wider gaps
        gaps = [rng.uniform(0, 8) for _ in range(3)] + [rng.uniform(20, 24) for _ in range(2)]
        gaps += [rng.uniform(24, 100) for _ in range(GROUP_SIZE - 5)]
        clean = [rng.uniform(20, 100) for _ in range(GROUP_SIZE)]
        for group, base, group_gaps in (("jittered", 11, gaps), ("clean", 31, clean)):
            # the route change swaps the two data centers' means of most resolvers (9 or 10 of 12,
            # the near ties among them); the rest keep theirs, so their answer must not move
            swapped = set(rng.sample(range(GROUP_SIZE), 9 if group == "jittered" else 10))
            for i, gap in enumerate(group_gaps):
                a, b = draw_pair(rng, gap)
                after = (b, a) if i in swapped else (a, b)
                resolvers.append({
                    "seed": seed, "group": group, "address": f"198.18.{163 + seed}.{base + i}",
                    "before": {"A": a, "B": b}, "after": {"A": after[0], "B": after[1]},
                })
    return resolvers


def plan(out, seeds):
    resolvers = draw(seeds)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "plan.json"), "w") as f:
        json.dump({"seeds": seeds, "resolvers": resolvers}, f, indent=1)
    for seed in seeds:
        for phase in ("before", "after"):
            with open(os.path.join(out, f"rules-{seed}.{phase}"), "w") as f:
                f.write(f"# seed {seed}, {phase} the route change: SRC DST MEAN_MS JITTER_MS LOSS_PERCENT\n")
                for r in resolvers:
                    if r["seed"] != seed:
                        continue
                    jitter, loss = (JITTER_MS, LOSS_PERCENT) if r["group"] == "jittered" else (0, 0)
                    for dc, net in DC_NET.items():
                        mean = r[phase][dc]
                        f.write(f"{net} {r['address']}/32 {mean} {jitter} {loss}\n")
                        f.write(f"{r['address']}/32 {net} {mean} {jitter} {loss}\n")


# ---------------------------------------------------------------- resolvers

QUERY_NAME = b"".join(bytes([len(p)]) + p for p in b"www.example.com".split(b".")) + b"\0"


def query(qid):
    return struct.pack("!HHHHHH", qid, 0, 1, 0, 0, 0) + QUERY_NAME + struct.pack("!HH", 1, 1)


def answer_of(packet):
    """The first A record's data center in a reply to our query ('-' when none)."""
    if len(packet) < 12:
        return "-"
    ancount = struct.unpack("!H", packet[6:8])[0]
    i = 12 + len(QUERY_NAME) + 4
    for _ in range(ancount):
        while i < len(packet):  # owner name: labels or a compression pointer
            if packet[i] >= 0xC0:
                i += 2
                break
            if packet[i] == 0:
                i += 1
                break
            i += packet[i] + 1
        if i + 10 > len(packet):
            return "-"
        rtype, _, _, length = struct.unpack("!HHIH", packet[i:i + 10])
        if rtype == 1 and length == 4:
            return VIP.get(socket.inet_ntoa(packet[i + 10:i + 14]), "?")
        i += 10 + length
    return "-"


def resolvers(plan_file, log_file, stagger, targets):
    with open(plan_file) as f:
        rs = json.load(f)["resolvers"]
    by_address = {r["address"]: r for r in rs}
    modes = {}
    for t in targets:
        mode, addrs = t.split("=", 1)
        modes[mode] = addrs.split(",")
    sel = selectors.DefaultSelector()
    askers = {}
    for r in rs:
        # the probes' target: port 53 of the resolver's own address, so replies leave from it
        server = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        server.bind((r["address"], 53))
        server.setblocking(False)
        sel.register(server, selectors.EVENT_READ, ("serve", r))
        asker = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        asker.bind((r["address"], 0))
        asker.setblocking(False)
        sel.register(asker, selectors.EVENT_READ, ("ask", r))
        askers[r["address"]] = asker
    tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)  # TCP probes: the accept is the reply
    tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    tcp.bind(("0.0.0.0", 53))
    tcp.listen(512)
    tcp.setblocking(False)
    sel.register(tcp, selectors.EVENT_READ, ("accept", None))
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    log = open(log_file, "w", buffering=1 << 16)
    rng = random.Random(0)
    pending = {}  # (resolver, qid) -> (sent, mode, instance)
    start = time.time()
    # Each resolver asks once a second per mode. They start one by one over `stagger` seconds, in
    # an order drawn from the plan's seeds: all starting together would measure every path in the
    # same second, and the refresh would then re-measure them all in step, so the route change
    # would land at one phase of the refresh cycle for everyone.
    order = list(range(len(rs)))
    random.Random(sum(r["seed"] for r in rs)).shuffle(order)
    schedule = [(start + 1 + stagger * (order[i] + 0.5) / len(rs), i, mode) for i in range(len(rs)) for mode in modes]
    heapq.heapify(schedule)  # (due, resolver index, mode): the next query first
    while not stop:
        now = time.time()
        while schedule[0][0] <= now:
            due, i, mode = schedule[0]
            r = rs[i]
            instance = rng.choice(modes[mode])
            qid = rng.randrange(65536)
            while (r["address"], qid) in pending:
                qid = rng.randrange(65536)
            try:
                askers[r["address"]].sendto(query(qid), (instance, 53))
                pending[(r["address"], qid)] = (now, mode, instance)
            except OSError:
                pass
            heapq.heapreplace(schedule, (due + 1, i, mode))
        due = schedule[0][0]
        for key, _ in sel.select(max(0.0, min(due - time.time(), 0.05))):
            what, r = key.data
            try:
                if what == "accept":
                    key.fileobj.accept()[0].close()
                    continue
                packet, peer = key.fileobj.recvfrom(4096)
            except OSError:
                continue
            if what == "serve":  # REFUSED, header only: any reply with the query's ID counts
                if len(packet) >= 2:
                    try:
                        key.fileobj.sendto(packet[:2] + struct.pack("!HHHHH", 0x8005, 0, 0, 0, 0), peer)
                    except OSError:
                        pass
            elif len(packet) >= 12:
                hit = pending.pop((r["address"], struct.unpack("!H", packet[:2])[0]), None)
                if hit:
                    sent, mode, instance = hit
                    log.write(f"{sent:.3f} {time.time():.3f} {mode} {r['seed']} {r['group']} {r['address']} "
                              f"{instance} {answer_of(packet)}\n")
        now = time.time()
        for key in [k2 for k2, v in pending.items() if now - v[0] > 2]:
            sent, mode, instance = pending.pop(key)
            r = by_address[key[0]]
            log.write(f"{sent:.3f} - {mode} {r['seed']} {r['group']} {r['address']} {instance} -\n")
    log.close()


# ---------------------------------------------------------------- report

def percentile(values, p):
    """Nearest rank; None for no values."""
    if not values:
        return None
    s = sorted(values)
    return s[max(0, min(len(s) - 1, -(-p * len(s) // 100) - 1))]


def rtt_gap(r, phase):
    return 2 * abs(r[phase]["A"] - r[phase]["B"])


def faster(r, phase):
    return "A" if r[phase]["A"] < r[phase]["B"] else "B"


def flips(answers):
    return sum(1 for x, y in zip(answers, answers[1:]) if x != y)


def follow_time(answers, change, new):
    """Seconds from the change until the resolver's answers are and stay `new`: from the change to
    the first answer of the last run of `new` answers; infinity when the last answer is not `new`."""
    t = None
    for when, dc in answers:
        if dc != new:
            t = None
        elif t is None:
            t = when
    return float("inf") if t is None else max(0.0, t - change)


def secs(v):
    return "-" if v is None else "never" if v == float("inf") else f"{v:.0f}"


def figures(rs, answers, steady0, steady1, change):
    """One seed's (or all seeds') figures for one mode; answers maps address -> [(time, dc)]."""
    hours = (steady1 - steady0) / 3600

    def steady(r):
        return [dc for when, dc in answers.get(r["address"], []) if steady0 <= when < steady1]

    clear = [r for r in rs if r["group"] == "jittered" and rtt_gap(r, "before") >= GAP_MS]
    right = sum(sum(1 for dc in steady(r) if dc == faster(r, "before")) for r in clear)
    total = sum(len(steady(r)) for r in clear)
    near = [flips(steady(r)) for r in rs if r["group"] == "jittered" and rtt_gap(r, "before") < NEAR_TIE_MS]
    every = [flips(steady(r)) for r in rs]

    def follows(group):  # resolvers of the group whose faster data center changed (a clear gap after)
        return [follow_time([(w, dc) for w, dc in answers.get(r["address"], []) if w >= change], change,
                            faster(r, "after"))
                for r in rs if r["group"] == group and faster(r, "before") != faster(r, "after")
                and rtt_gap(r, "after") >= GAP_MS]

    clean, jittered = follows("clean"), follows("jittered")
    return {
        "quality": 100 * right / total if total else 0.0, "right": right, "total": total,
        "near_h": sum(near) / (len(near) * hours) if near else 0.0,
        "near_stayed": sum(1 for n in near if n == 0), "near": len(near),
        "flips_h": sum(every) / (len(every) * hours) if every else 0.0,
        "max_h": max(every, default=0) / hours,
        "clean": clean, "jittered": jittered,
        "within": 100 * sum(1 for t in clean if t <= FOLLOW_BAR_S) / len(clean) if clean else 0.0,
        "within_check": 100 * sum(1 for t in clean if t <= CHECK_FOLLOW_S) / len(clean) if clean else 0.0,
    }


def explain(rs, answers, steady0, steady1):
    """After a failed check: each jittered resolver with a clear gap that got wrong answers in the
    steady window, with when (seconds into the window), so a real fault tells itself from bad luck."""
    for r in rs:
        if r["group"] != "jittered" or rtt_gap(r, "before") < GAP_MS:
            continue
        got = [(when - steady0, dc) for when, dc in answers.get(r["address"], []) if steady0 <= when < steady1]
        wrong = [when for when, dc in got if dc != faster(r, "before")]
        if wrong:
            print(f"      {r['address']}: RTT means A {2 * r['before']['A']:.0f} ms, B {2 * r['before']['B']:.0f} ms; "
                  f"{len(wrong)}/{len(got)} wrong, from {wrong[0]:.0f} s to {wrong[-1]:.0f} s of the window")


def report(plan_file, log_file, times_file, check):
    with open(plan_file) as f:
        p = json.load(f)
    with open(times_file) as f:  # "KEY VALUE..." lines written by quality-bench.sh
        times = {line.split()[0]: line.split()[1:] for line in f if line.strip()}
    steady0, steady1 = float(times["steady_start"][0]), float(times["steady_end"][0])
    change, end = float(times["change"][0]), float(times["end"][0])
    modes = times["modes"][0].split(",")
    answers, asked, lost = {m: {} for m in modes}, 0, 0  # answers[mode][address] = [(time, dc)]
    with open(log_file) as f:
        for line in f:
            _, recv, mode, _, _, addr, _, dc = line.split()
            asked += 1
            if recv == "-":
                lost += 1
            elif dc in ("A", "B") and mode in answers:
                answers[mode].setdefault(addr, []).append((float(recv), dc))
    for per_mode in answers.values():
        for v in per_mode.values():
            v.sort()
    rate = {}  # probe packets sent per second per instance in the steady window
    for mode in modes:
        for dc in "AB":
            v = times.get(f"probes_{mode}_{dc}", [])
            if len(v) == 2 and "n/a" not in v:
                rate[(mode, dc)] = (float(v[1]) - float(v[0])) / (steady1 - steady0)

    print(f"steady window {steady1 - steady0:.0f} s, then the route change, observed {end - change:.0f} s; "
          f"{asked} queries, {100 * lost / max(1, asked):.1f} % unanswered within 2 s")
    print("quality: answers to the lower-mean DC, over the jittered resolvers whose RTT means differ >= 20 ms")
    print("ties/h, stayed: the near ties' (RTT means < 10 ms apart) flips per resolver-hour; how many had none")
    print("flips/h: over all resolvers; max/h: the worst resolver's")
    print("follow: s from the change until a resolver's answers are and stay the new faster DC, over the clean")
    print("  resolvers whose faster DC changed (<=60s: the share within 60 s); jit: the jittered ones, for information")
    print(f"{'':14}{'steady window':-^40} {'follow the change (s)':-^43} {'probe pkt/s':-^15}")
    print(f"{'seed':>4} {'mode':<8} {'quality':>8} {'answers':>11} {'ties/h':>6} {'stayed':>6} {'flips/h':>7} "
          f"{'max/h':>5} {'p50':>5} {'p99':>5} {'max':>5} {'<=60s':>6} {'jit p50':>7} {'jit max':>7} "
          f"{'A':>7} {'B':>7}")
    failed, rows = [], {}
    for seed in p["seeds"] + (["all"] if len(p["seeds"]) > 1 else []):
        rs = [r for r in p["resolvers"] if seed == "all" or r["seed"] == seed]
        for mode in modes:
            f = rows[(seed, mode)] = figures(rs, answers[mode], steady0, steady1, change)
            # the instances serve every seed: their probe rate is printed once, on the all-seeds row
            shown = seed == "all" or len(p["seeds"]) == 1
            pa, pb = ((f"{rate[(mode, dc)]:.2f}" if (mode, dc) in rate else "n/a") if shown else "" for dc in "AB")
            print(f"{seed:>4} {mode:<8} {f['quality']:7.1f}% {f['right']:>5}/{f['total']:<5} {f['near_h']:6.1f} "
                  f"{f['near_stayed']:>3}/{f['near']:<2} {f['flips_h']:7.1f} {f['max_h']:5.0f} "
                  f"{secs(percentile(f['clean'], 50)):>5} {secs(percentile(f['clean'], 99)):>5} "
                  f"{secs(max(f['clean'], default=None)):>5} {f['within']:5.0f}% "
                  f"{secs(percentile(f['jittered'], 50)):>7} {secs(max(f['jittered'], default=None)):>7} "
                  f"{pa:>7} {pb:>7}")
            # the bars hold over every seed's resolvers together (one row): one resolver just past the
            # 20 ms gap whose estimates stay within the margin for a window is noise, not a fault
            # (bench/quality-sim.py)
            if check and mode == "defaults" and (seed == "all" or len(p["seeds"]) == 1):
                who = f"seed {seed}" if seed != "all" else "seeds " + " ".join(map(str, p["seeds"]))
                if f["quality"] < CHECK_QUALITY:
                    failed.append(f"{who}: steady quality {f['quality']:.1f} % < {CHECK_QUALITY:.0f} %")
                if f["within_check"] < 99:
                    failed.append(f"{who}: {f['within_check']:.0f} % of the clean resolvers followed the "
                                  f"change within {CHECK_FOLLOW_S} s (bar 99 %)")
    if "defaults" in modes and "old" in modes:
        d = [rate.get(("defaults", dc)) for dc in "AB"]
        o = [rate.get(("old", dc)) for dc in "AB"]
        if None in d or None in o or sum(o) == 0:
            print('probe budget defaults/old: n/a (no gslb_probe_packets_total{result="sent"} on /metrics)')
        else:
            print(f"probe budget defaults/old: {sum(d) / sum(o):.2f} ({sum(d) / 2:.2f} against {sum(o) / 2:.2f} "
                  f"probe packets/s per instance in the steady window; bar: at most 1.5)")
    if not check:
        return 0
    for line in failed:
        print("FAIL  " + line)
    if failed:
        explain(p["resolvers"], answers["defaults"], steady0, steady1)
    print("quality check: " + ("FAILED" if failed else f"passed (steady quality >= {CHECK_QUALITY:.0f} %, the "
                                                       f"change followed within {CHECK_FOLLOW_S} s by >= 99 % "
                                                       f"of the clean resolvers)"))
    return 1 if failed else 0


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "plan" and len(sys.argv) > 3:
        plan(sys.argv[2], [int(s) for s in sys.argv[3:]])
    elif cmd == "resolvers" and len(sys.argv) > 5:
        resolvers(sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5:])
    elif cmd == "report" and len(sys.argv) > 4:
        sys.exit(report(sys.argv[2], sys.argv[3], sys.argv[4], "--check" in sys.argv[5:]))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
