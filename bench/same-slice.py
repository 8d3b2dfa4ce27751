#!/usr/bin/env python3
"""Gives every thread of the given processes (and of their children) the scheduler slice our DNS
threads ask for themselves (TimeSlice: 0.2 ms through sched_setattr's sched_runtime, Linux 6.12
and later), so that a bench compares the servers' code, not their slices: in dns-bench.sh's
latency section gdnsd and ours share CPU 0, and a waking thread with the shorter slice preempts
the other. Threads under a policy other than SCHED_OTHER or SCHED_BATCH are left alone, as
TimeSlice leaves them. Prints how many threads now have the slice.

  python3 bench/same-slice.py PID [PID ...]
"""
import ctypes
import os
import platform
import struct
import sys

NANOS = 200_000
SETATTR, GETATTR = {"x86_64": (314, 315), "aarch64": (274, 275)}[platform.machine()]
# struct sched_attr, first version: size, policy, flags, nice, priority, runtime, deadline, period
LAYOUT = "=IIQiIQQQ"
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def tids(pid):
    """The threads of pid and of every process below it."""
    found = []
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return found
    for tid in threads:
        found.append(int(tid))
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                for child in f.read().split():
                    found += tids(int(child))
        except FileNotFoundError:
            pass
    return found


def give(tid):
    attr = ctypes.create_string_buffer(struct.calcsize(LAYOUT))
    if libc.syscall(GETATTR, tid, attr, len(attr), 0) != 0:
        return False
    size, policy, flags, nice, priority, _, deadline, period = struct.unpack(LAYOUT, attr.raw)
    if policy not in (0, 3):
        return False
    attr = ctypes.create_string_buffer(struct.pack(LAYOUT, len(attr), policy, 0, nice, priority, NANOS, 0, 0))
    return libc.syscall(SETATTR, tid, attr, 0) == 0


pids = [int(p) for p in sys.argv[1:]]
threads = [tid for pid in pids for tid in tids(pid)]
given = sum(1 for tid in threads if give(tid))
print(f"{given} of {len(threads)} threads of {' '.join(map(str, pids))} given a {NANOS // 1000} us slice")
sys.exit(0 if given > 0 else 1)
