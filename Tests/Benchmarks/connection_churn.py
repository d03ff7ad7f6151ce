#!/usr/bin/env python3
"""A server's memory after connections come and go: ROUNDS rounds of COUNT connections that finish the HTTP/2
handshake and sit idle, then all close; prints the server's RSS after each round has closed.

    Tests/Benchmarks/connection_churn.py HOST:PORT SERVER_PID [ROUNDS] [COUNT]     (defaults 5 and 5,000)
"""

import resource
import socket
import sys
import time

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"  # + empty SETTINGS


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def main():
    address, pid = sys.argv[1], int(sys.argv[2])
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 5_000
    host, _, port = address.rpartition(":")
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(f"before: {rss_mib(pid):.0f} MiB")
    for round_number in range(1, rounds + 1):
        sockets = []
        for _ in range(count):
            sock = socket.create_connection((host, int(port)), timeout=10)
            sock.sendall(PREFACE)
            sockets.append(sock)
        for sock in sockets:  # the server's SETTINGS: it has taken the connection
            sock.recv(65536)
        peak = rss_mib(pid)
        for sock in sockets:
            sock.close()
        time.sleep(3)  # the loops see the closes and run their maintenance tick
        print(f"round {round_number}: {peak:.0f} MiB with {count} open, {rss_mib(pid):.0f} MiB after they closed")


if __name__ == "__main__":
    main()
