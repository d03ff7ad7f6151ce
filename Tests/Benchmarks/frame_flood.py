#!/usr/bin/env python3
"""Frames that carry no progress, as fast as the socket takes them, on CONNECTIONS connections for SECONDS; a
closed connection is opened again. Prints how many frames were written and how often the server cut a
connection off. Run it beside h2load to see what a flood costs the neighbours.

    Tests/Benchmarks/frame_flood.py HOST:PORT KIND [CONNECTIONS] [SECONDS]     KIND: data, window, priority, ping
"""

import socket
import struct
import sys
import threading
import time

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"


def frame(kind, payload_type, flags, stream, payload):
    return struct.pack(">I", len(payload))[1:] + bytes([payload_type, flags]) + struct.pack(">I", stream) + payload


# A request on stream 1 that stays open (no END_STREAM): HEADERS with literal, never-indexed fields.
def literal(name, value):
    return b"\x10" + bytes([len(name)]) + name + bytes([len(value)]) + value


HEADERS = frame(None, 1, 0x4, 1, b"".join(literal(n, v) for n, v in [
    (b":method", b"POST"), (b":scheme", b"http"), (b":path", b"/grpc.health.v1.Health/Check"),
    (b":authority", b"x"), (b"content-type", b"application/grpc"), (b"te", b"trailers")]))

FLOODS = {
    "data": frame(None, 0x0, 0, 1, b""),
    "window": frame(None, 0x8, 0, 0, struct.pack(">I", 1)),
    "priority": frame(None, 0x2, 0, 1, struct.pack(">IB", 0, 15)),
    "ping": frame(None, 0x6, 0, 0, b"\x00" * 8),
}


def flood(address, burst, stop, counts):
    host, _, port = address.rpartition(":")
    while not stop.is_set():
        try:
            with socket.create_connection((host, int(port))) as sock:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 16)
                sock.sendall(PREFACE + HEADERS)
                while not stop.is_set():
                    sock.sendall(burst)
                    counts["frames"] += 1000
        except OSError:
            counts["cut off"] += 1


def main():
    address, kind = sys.argv[1], sys.argv[2]
    connections = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 10
    burst = FLOODS[kind] * 1000
    stop, counts = threading.Event(), {"frames": 0, "cut off": 0}
    threads = [threading.Thread(target=flood, args=(address, burst, stop, counts)) for _ in range(connections)]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    print(f"{kind}: {counts['frames']} frames written, connections cut off {counts['cut off']} times")


if __name__ == "__main__":
    main()
