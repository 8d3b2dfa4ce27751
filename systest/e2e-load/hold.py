#!/usr/bin/env python3
"""Holds COUNT real HTTP downloads open through a balancer until it is stopped.

Each connection asks HOST:PORT for PATH (a large file on the application behind the balancer) and
reads it slowly, 4 KiB a second, so the balancer (and the application behind it) counts it as an
active connection for as long as this process runs. Prints one line once every download has its
response header; exits non-zero if the balancer refuses one or closes one early.

usage: hold.py HOST PORT COUNT PATH
"""
import socket
import sys
import time


def main():
    host, port, count, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    held = []
    for _ in range(count):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16384)  # little buffered: the download stays slow
        s.settimeout(5)
        s.connect((host, port))
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: gslb-e2e-hold\r\n\r\n".encode())
        held.append(s)
    for s in held:
        status = s.recv(4096).split(b"\r\n", 1)[0]
        if status.split(b" ")[1:2] != [b"200"]:
            sys.exit(f"hold.py: {host}:{port} answered {status!r}")
    print(f"holding {count} downloads of {path} from {host}:{port}", flush=True)
    while True:
        time.sleep(1)
        for s in held:
            try:
                if not s.recv(4096):
                    sys.exit(f"hold.py: {host}:{port} closed a held download")
            except socket.timeout:
                pass


if __name__ == "__main__":
    main()
