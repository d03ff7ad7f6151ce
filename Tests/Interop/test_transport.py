"""The wire contract every server keeps, seen from a stock client: unknown methods, deadlines, size limits,
metadata, many concurrent calls on one channel, cancelled streams, and garbage on the socket."""

import concurrent.futures
import socket
import struct
import time

import grpc
import pytest

from grpc.health.v1 import health_pb2, health_pb2_grpc

from accounts_support import service_token

SERVING = health_pb2.HealthCheckResponse.SERVING
MAX_RECEIVE = 4 * 1024 * 1024
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA = 0x0


def check(channel, **kwargs):
    return health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=""), timeout=10, **kwargs)


def raw_call(channel, path):
    return channel.unary_unary(path)(b"", timeout=5)


@pytest.mark.parametrize("path", ["/grpc.health.v1.Health/NoSuchMethod", "/no.such.v1.Service/Method"])
def test_unknown_method_or_service_is_unimplemented(channel, path):
    with pytest.raises(grpc.RpcError) as failure:
        raw_call(channel, path)
    assert failure.value.code() == grpc.StatusCode.UNIMPLEMENTED


def test_stream_past_its_deadline_ends_with_deadline_exceeded_and_the_channel_still_works(channel):
    watch = health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest(service=""), timeout=0.5)
    assert next(watch).status == SERVING
    started = time.monotonic()
    with pytest.raises(grpc.RpcError) as failure:
        next(watch)
    assert failure.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert time.monotonic() - started < 5
    assert check(channel).status == SERVING


def test_request_over_the_receive_limit_is_resource_exhausted(channel):
    oversized = health_pb2.HealthCheckRequest(service="x" * (MAX_RECEIVE + 1024))
    with pytest.raises(grpc.RpcError) as failure:
        health_pb2_grpc.HealthStub(channel).Check(oversized, timeout=30)
    assert failure.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert check(channel).status == SERVING


def test_custom_text_and_binary_metadata_is_accepted(channel):
    metadata = [("x-kindred-test", "plain text value"), ("x-kindred-trace-bin", bytes(range(256))),
                ("x-kindred-long", "v" * 2000)]
    reply, call = health_pb2_grpc.HealthStub(channel).Check.with_call(
        health_pb2.HealthCheckRequest(service=""), metadata=metadata, timeout=10)
    assert reply.status == SERVING
    assert call.code() == grpc.StatusCode.OK
    assert call.initial_metadata() is not None and call.trailing_metadata() is not None


# Over TLS the calls' HEADERS and their WINDOW_UPDATEs arrive in one read, before any answer: the flood guard once
# counted those WINDOW_UPDATEs as frames without progress and cut the connection with ENHANCE_YOUR_CALM.
def test_thousand_concurrent_calls_on_one_channel_all_succeed(channel):
    stub = health_pb2_grpc.HealthStub(channel)
    calls = [stub.Check.future(health_pb2.HealthCheckRequest(service=""), timeout=60) for _ in range(1000)]
    statuses = [call.result().status for call in calls]
    assert statuses == [SERVING] * 1000


def test_server_stream_cancelled_half_way_leaves_the_channel_usable(channel):
    watches = [health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest(service=""), timeout=30)
               for _ in range(20)]
    for watch in watches:
        assert next(watch).status == SERVING
    for watch in watches:
        watch.cancel()
        assert watch.code() == grpc.StatusCode.CANCELLED
    assert check(channel).status == SERVING


def read_until_closed(sock, seconds):
    """Bytes the server sends until it closes the connection; None if it is still open after `seconds`."""
    sock.settimeout(0.5)
    received = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            continue
        except ConnectionResetError:
            return received
        if not chunk:
            return received
        received += chunk
    return None


def frame_types(data):
    types = []
    while len(data) >= 9:
        length = int.from_bytes(data[:3], "big")
        types.append(data[3])
        data = data[9 + length:]
    return types


def frame(kind, flags, stream, payload):
    return len(payload).to_bytes(3, "big") + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def test_garbage_bytes_close_that_connection_and_nothing_else(target, channel):
    assert check(channel).status == SERVING
    with socket.create_connection((target.host, target.port), timeout=5) as sock:
        sock.sendall(b"\x16\x03\x01 this is not HTTP/2 at all " + bytes(range(256)) * 16)
        assert read_until_closed(sock, 10) is not None, "the server kept a garbage connection open"
    assert check(channel).status == SERVING
    with target.channel() as fresh:
        assert check(fresh).status == SERVING


def test_broken_frame_after_a_valid_preface_ends_that_connection_and_nothing_else(target, channel):
    assert check(channel).status == SERVING
    # HEADERS on stream 1 (END_STREAM | END_HEADERS) whose HPACK block indexes a table entry that cannot exist.
    broken = frame(0x1, 0x5, 1, b"\xff\xff\xff\xff\x7f")
    with socket.create_connection((target.host, target.port), timeout=5) as sock:
        sock.sendall(PREFACE + frame(0x4, 0, 0, b"") + broken)
        received = read_until_closed(sock, 10)
    # RFC 9113 makes an HPACK decoding error a connection error (GOAWAY); gRPC C++ instead fails the stream and
    # closes. Either way the connection must end, and no response message (DATA frame) answers the broken request.
    assert received is not None, "the server kept the connection open after a broken frame"
    assert DATA not in frame_types(received), f"frames received: {frame_types(received)}"
    assert check(channel).status == SERVING
    with target.channel() as fresh:
        assert check(fresh).status == SERVING


def test_many_channels_at_once_are_served(target):
    def one_check(_):
        with target.channel() as fresh:
            return check(fresh).status

    with concurrent.futures.ThreadPoolExecutor(max_workers=16) as pool:
        assert list(pool.map(one_check, range(64))) == [SERVING] * 64


def test_a_watch_with_nothing_to_send_yet_sends_its_headers_at_once(identity):
    """WatchMessages sent no headers until its first message, so a client could not tell its stream was open."""
    from kindred.identity.v1 import identity_pb2
    watch = identity.WatchEvents(identity_pb2.WatchEventsRequest(after_cursor=2**62), timeout=30,
                                 metadata=[("authorization", f"Bearer {service_token(identity)}")])
    started = time.monotonic()
    assert watch.initial_metadata() is not None
    assert time.monotonic() - started < 5, "the headers waited for an event that never came"
    assert watch.is_active()
    watch.cancel()
