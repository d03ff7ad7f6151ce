"""Prints a TCP port for a throwaway server: free now, below the kernel's ephemeral range, never handed out before.

bind(("127.0.0.1", 0)) alone hands out a port from the ephemeral range, which the kernel also gives to outgoing
connections: a service told to listen on it a moment later could find it taken by a connection another
process had opened meanwhile (a PostgreSQL pool's, a test client's), and two picks could be the same port. So
the port is drawn below that range, checked by binding it, and recorded in RECORD (locked while it is read and
written), so that no two picks of one checkout hand out the same port until the record is cleared (at 4,000).

    free_port.py RECORD      (deploy/local/lib.sh's free_port, with $KINDRED_PORT_RECORD)
    free_port()              from Python (the test suites): the record KINDRED_PORT_RECORD names, which
                             lib.sh exports (var/ports-handed-out when it is not set)

The Swift tests' freePort() (Tests/KindredTestSupport/FreePort.swift) keeps the same record by the same rule.
"""

import fcntl
import os
import pathlib
import random
import socket
import sys

LOWEST = 10000
FORGET_AFTER = 4000


def bindable(port):
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


def ephemeral_start():
    with open("/proc/sys/net/ipv4/ip_local_port_range") as ports:
        return int(ports.read().split()[0])


def handed_out_port(record_path):
    """A port as the module says, recorded in `record_path`; OSError when none is left."""
    highest = ephemeral_start() - 1
    with open(record_path, "a+") as record:
        fcntl.flock(record, fcntl.LOCK_EX)
        record.seek(0)
        handed_out = set(record.read().split())
        if len(handed_out) >= FORGET_AFTER:
            record.truncate(0)
            handed_out = set()
        for _ in range(1000):
            port = random.randint(LOWEST, highest)
            if str(port) not in handed_out and bindable(port):
                record.write(f"{port}\n")
                return port
    raise OSError(f"no free port found between {LOWEST} and {highest}")


def free_port():
    """A port as the module says, recorded where KINDRED_PORT_RECORD says (lib.sh exports it)."""
    default = pathlib.Path(__file__).resolve().parents[2] / "var" / "ports-handed-out"
    record = pathlib.Path(os.environ.get("KINDRED_PORT_RECORD") or default)
    record.parent.mkdir(parents=True, exist_ok=True)
    return handed_out_port(record)


if __name__ == "__main__":
    try:
        print(handed_out_port(sys.argv[1]))
    except OSError as error:
        sys.exit(f"free_port.py: {error}")
