"""Captures what a grpcio client really sends (preface, SETTINGS, HPACK HEADERS, DATA, WINDOW_UPDATE) as
seeds for the connection fuzzer: each call of grpc.testing.TestService that FuzzConnection's server serves,
one connection per file, plus all of them on one connection.

A stand-in server answers the client's preface with an empty SETTINGS and acknowledges the client's, so
grpcio sends its calls; it records every byte it receives for a moment and never answers a call.

    <venv>/bin/python Tests/Fuzz/capture-grpcio.py <token-seed-file> Tests/Fuzz/corpus/connection
"""

import os
import socket
import sys
import threading
import time

import grpc

SETTINGS = bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
SETTINGS_ACK = bytes([0, 0, 0, 4, 1, 0, 0, 0, 0])
HELLO_PAYLOAD = b"\x12\x05hello"  # grpc.testing.Payload{body: "hello"}
SIMPLE_REQUEST = b"\x10\x05\x1a" + bytes([len(HELLO_PAYLOAD)]) + HELLO_PAYLOAD
STREAMING_OUTPUT_REQUEST = b"\x12\x02\x08\x03\x12\x02\x08\x05"  # two ResponseParameters{size}
STREAMING_INPUT_REQUEST = b"\x0a" + bytes([len(HELLO_PAYLOAD)]) + HELLO_PAYLOAD


def record(listener, captured, done):
    connection, _ = listener.accept()
    connection.settimeout(0.2)
    connection.sendall(SETTINGS)
    acknowledged = False
    deadline = time.monotonic() + 1.5
    while time.monotonic() < deadline:
        try:
            chunk = connection.recv(65536)
        except socket.timeout:
            continue
        if not chunk:
            break
        captured.extend(chunk)
        if not acknowledged:
            connection.sendall(SETTINGS_ACK)
            acknowledged = True
    connection.close()
    done.set()


def capture(calls, token):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    captured = bytearray()
    done = threading.Event()
    threading.Thread(target=record, args=(listener, captured, done), daemon=True).start()
    channel = grpc.insecure_channel("127.0.0.1:%d" % listener.getsockname()[1])
    identity = dict(request_serializer=lambda b: b, response_deserializer=lambda b: b)
    futures = []
    for call in calls:
        futures.append(call(channel, identity, token))
    done.wait(5)
    for future in futures:
        future.cancel()
    channel.close()
    listener.close()
    return bytes(captured)


def unary(channel, identity, token):
    method = channel.unary_unary("/grpc.testing.TestService/UnaryCall", **identity)
    return method.future(SIMPLE_REQUEST, timeout=3, metadata=[("x-request-id", "fuzz-seed-1")])


def unary_gzip(channel, identity, token):
    method = channel.unary_unary("/grpc.testing.TestService/UnaryCall", **identity)
    return method.future(SIMPLE_REQUEST, timeout=3, compression=grpc.Compression.Gzip)


def protected(channel, identity, token):
    method = channel.unary_unary("/grpc.testing.TestService/EmptyCall", **identity)
    return method.future(b"", timeout=3, metadata=[("authorization", "Bearer " + token)])


def server_stream(channel, identity, token):
    method = channel.unary_stream("/grpc.testing.TestService/StreamingOutputCall", **identity)
    stream = method(STREAMING_OUTPUT_REQUEST, timeout=3)
    return stream


def client_stream(channel, identity, token):
    method = channel.stream_unary("/grpc.testing.TestService/StreamingInputCall", **identity)
    return method.future(iter([STREAMING_INPUT_REQUEST, STREAMING_INPUT_REQUEST]), timeout=3)


def main():
    with open(sys.argv[1], "rb") as seed:
        token = seed.read()[1:].decode()  # the token seed's first byte is the fuzzer's mode
    output = sys.argv[2]
    os.makedirs(output, exist_ok=True)
    captures = {
        "grpcio-unary": [unary],
        "grpcio-unary-gzip": [unary_gzip],
        "grpcio-bearer-token": [protected],
        "grpcio-server-streaming": [server_stream],
        "grpcio-client-streaming": [client_stream],
        "grpcio-four-calls": [unary, protected, server_stream, client_stream],
    }
    for name, calls in captures.items():
        data = capture(calls, token)
        assert data.startswith(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"), name
        with open(os.path.join(output, name), "wb") as file:
            file.write(data)
        print("%s: %d bytes" % (name, len(data)))


if __name__ == "__main__":
    main()
