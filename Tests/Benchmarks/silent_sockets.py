#!/usr/bin/env python3
"""Silent sockets against a server's connection limit: opens COUNT TCP connections that never send a byte, then
times a Health/Check from a real client (grpcio) while they sit there.

    Tests/Benchmarks/silent_sockets.py HOST:PORT [COUNT]      (COUNT: 10,200, past the 10,000 default limit)
"""

import resource
import socket
import sys
import time

import grpc

from grpc.health.v1 import health_pb2, health_pb2_grpc


def closed_by_server(sock):
    """Whether the server has closed `sock` (what it sent before, its SETTINGS, is read and dropped)."""
    sock.setblocking(False)
    try:
        while True:
            if sock.recv(65536) == b"":
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def main():
    address = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 10_200
    host, _, port = address.rpartition(":")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    silent = []
    started = time.monotonic()
    for _ in range(count):
        silent.append(socket.create_connection((host, int(port)), timeout=10))
    print(f"{count} silent sockets open in {time.monotonic() - started:.1f} s")
    started = time.monotonic()
    with grpc.insecure_channel(address) as channel:
        try:
            reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=30)
            outcome = health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)
        except grpc.RpcError as error:
            outcome = f"{error.code().name}: {error.details()}"
    print(f"Health/Check beside them: {outcome} after {time.monotonic() - started:.2f} s")
    print(f"closed by the server at once (shed): {sum(map(closed_by_server, silent))}")
    time.sleep(6)
    print(f"closed by the server 6 s later (handshake timeout): {sum(map(closed_by_server, silent))}")
    for sock in silent:
        sock.close()


if __name__ == "__main__":
    main()
