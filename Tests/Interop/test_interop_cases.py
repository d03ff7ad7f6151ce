"""gRPC's standard interop cases (doc/interop-test-descriptions.md) against kindred-interop-server.

The cases the description runs on FullDuplexCall (custom_metadata's and status_code_and_message's second
halves, cancel_after_first_response, timeout_on_sleeping_server) run on it here too; the same checks on
StreamingOutputCall cover server streaming as well.
"""

import queue
import shutil
import subprocess
import time

import grpc
import pytest

from conftest import nghttp_arguments
from grpc.testing import empty_pb2, messages_pb2, test_pb2_grpc

SPECIAL_MESSAGE = "\t\ntest with whitespace\r\nand Unicode BMP ☺ and non-BMP 😈\t\n"
ECHO_INITIAL = ("x-grpc-test-echo-initial", "test_initial_metadata_value")
ECHO_TRAILING = ("x-grpc-test-echo-trailing-bin", b"\xab\xab\xab")


@pytest.fixture
def stub(interop_channel):
    return test_pb2_grpc.TestServiceStub(interop_channel)


def large_request(**fields):
    return messages_pb2.SimpleRequest(response_size=314159, payload=messages_pb2.Payload(body=bytes(271828)), **fields)


def streaming_request(sizes, interval_us=0, **fields):
    parameters = [messages_pb2.ResponseParameters(size=size, interval_us=interval_us) for size in sizes]
    return messages_pb2.StreamingOutputCallRequest(response_parameters=parameters, **fields)


class Requests:
    """A request stream the test feeds one message at a time; `close()` half-closes the call."""

    def __init__(self, *requests):
        self.queue = queue.Queue()
        for request in requests:
            self.queue.put(request)

    def send(self, request):
        self.queue.put(request)

    def close(self):
        self.queue.put(None)

    def __iter__(self):
        return self

    def __next__(self):
        request = self.queue.get()
        if request is None:
            raise StopIteration
        return request


def test_empty_unary(stub):
    reply = stub.EmptyCall(empty_pb2.Empty(), timeout=10)
    assert reply == empty_pb2.Empty() and reply.ByteSize() == 0


def test_large_unary(stub):
    reply = stub.UnaryCall(large_request(), timeout=10)
    assert reply.payload.body == bytes(314159)


def test_server_streaming(stub):
    replies = list(stub.StreamingOutputCall(streaming_request([31415, 9, 2653, 58979]), timeout=10))
    assert [len(reply.payload.body) for reply in replies] == [31415, 9, 2653, 58979]
    assert all(reply.payload.body == bytes(len(reply.payload.body)) for reply in replies)


def test_custom_metadata_unary(stub):
    reply, call = stub.UnaryCall.with_call(large_request(), metadata=[ECHO_INITIAL, ECHO_TRAILING], timeout=10)
    assert len(reply.payload.body) == 314159
    assert ECHO_INITIAL in list(call.initial_metadata())
    assert ECHO_TRAILING in list(call.trailing_metadata())


def test_custom_metadata_server_streaming(stub):
    call = stub.StreamingOutputCall(streaming_request([314159], payload=messages_pb2.Payload(body=bytes(271828))),
                                    metadata=[ECHO_INITIAL, ECHO_TRAILING], timeout=10)
    assert [len(reply.payload.body) for reply in call] == [314159]
    assert ECHO_INITIAL in list(call.initial_metadata())
    assert ECHO_TRAILING in list(call.trailing_metadata())


def test_custom_metadata_full_duplex(stub):
    requests = Requests(streaming_request([314159], payload=messages_pb2.Payload(body=bytes(271828))))
    requests.close()
    call = stub.FullDuplexCall(requests, metadata=[ECHO_INITIAL, ECHO_TRAILING], timeout=10)
    assert [len(reply.payload.body) for reply in call] == [314159]
    assert ECHO_INITIAL in list(call.initial_metadata())
    assert ECHO_TRAILING in list(call.trailing_metadata())


@pytest.mark.parametrize("message", ["test status message", SPECIAL_MESSAGE],
                         ids=["status_code_and_message", "special_status_message"])
def test_status_code_and_message_unary(stub, message):
    with pytest.raises(grpc.RpcError) as failure:
        stub.UnaryCall(messages_pb2.SimpleRequest(response_status=messages_pb2.EchoStatus(code=2, message=message)),
                       timeout=10)
    assert failure.value.code() == grpc.StatusCode.UNKNOWN
    assert failure.value.details() == message


def test_status_code_and_message_server_streaming(stub):
    request = messages_pb2.StreamingOutputCallRequest(
        response_status=messages_pb2.EchoStatus(code=2, message="test status message"))
    with pytest.raises(grpc.RpcError) as failure:
        list(stub.StreamingOutputCall(request, timeout=10))
    assert failure.value.code() == grpc.StatusCode.UNKNOWN
    assert failure.value.details() == "test status message"


def test_status_code_and_message_full_duplex(stub):
    requests = Requests(messages_pb2.StreamingOutputCallRequest(
        response_status=messages_pb2.EchoStatus(code=2, message="test status message")))
    requests.close()
    with pytest.raises(grpc.RpcError) as failure:
        list(stub.FullDuplexCall(requests, timeout=10))
    assert failure.value.code() == grpc.StatusCode.UNKNOWN
    assert failure.value.details() == "test status message"


def test_unimplemented_method(stub):
    with pytest.raises(grpc.RpcError) as failure:
        stub.UnimplementedCall(empty_pb2.Empty(), timeout=10)
    assert failure.value.code() == grpc.StatusCode.UNIMPLEMENTED


def test_unimplemented_service(interop_channel):
    with pytest.raises(grpc.RpcError) as failure:
        test_pb2_grpc.UnimplementedServiceStub(interop_channel).UnimplementedCall(empty_pb2.Empty(), timeout=10)
    assert failure.value.code() == grpc.StatusCode.UNIMPLEMENTED


def test_cancel_after_first_response(stub):
    # The request stream stays open, so the call is certainly still running when the client cancels.
    requests = Requests(streaming_request([31415], payload=messages_pb2.Payload(body=bytes(27182))))
    call = stub.FullDuplexCall(requests, timeout=30)
    assert len(next(call).payload.body) == 31415
    call.cancel()
    requests.close()
    assert call.code() == grpc.StatusCode.CANCELLED
    assert stub.EmptyCall(empty_pb2.Empty(), timeout=10) == empty_pb2.Empty()


def test_server_stream_read_to_its_end_and_one_cancelled_half_way(stub):
    sizes = [1000 + i for i in range(10)]
    assert [len(r.payload.body) for r in stub.StreamingOutputCall(streaming_request(sizes, 20_000), timeout=10)] == sizes
    call = stub.StreamingOutputCall(streaming_request(sizes, 200_000), timeout=30)
    assert [len(next(call).payload.body) for _ in range(5)] == sizes[:5]
    call.cancel()
    assert call.code() == grpc.StatusCode.CANCELLED
    assert len(stub.UnaryCall(messages_pb2.SimpleRequest(response_size=10), timeout=10).payload.body) == 10


def test_timeout_on_sleeping_server(stub):
    requests = Requests(messages_pb2.StreamingOutputCallRequest(payload=messages_pb2.Payload(body=bytes(27182))))
    started = time.monotonic()
    with pytest.raises(grpc.RpcError) as failure:
        list(stub.FullDuplexCall(requests, timeout=0.001))
    requests.close()
    assert failure.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert time.monotonic() - started < 2


def test_deadline_exceeded_on_a_sleeping_stream_leaves_the_channel_usable(stub):
    request = streaming_request([10, 10], interval_us=3_000_000)
    call = stub.StreamingOutputCall(request, timeout=1)
    started = time.monotonic()
    with pytest.raises(grpc.RpcError) as failure:
        list(call)
    assert failure.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert 0.5 < time.monotonic() - started < 2.5
    assert stub.EmptyCall(empty_pb2.Empty(), timeout=10) == empty_pb2.Empty()


def test_oversized_request_is_resource_exhausted(stub):
    with pytest.raises(grpc.RpcError) as failure:
        stub.UnaryCall(messages_pb2.SimpleRequest(payload=messages_pb2.Payload(body=bytes(5 * 1024 * 1024))),
                       timeout=30)
    assert failure.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_thousand_concurrent_unary_calls_get_their_own_answers(stub):
    calls = [stub.UnaryCall.future(messages_pb2.SimpleRequest(response_size=i), timeout=60) for i in range(1000)]
    assert [len(call.result().payload.body) for call in calls] == list(range(1000))


@pytest.mark.parametrize("compressed", [True, False])
def test_server_compressed_unary(stub, interop, compressed, tmp_path):
    request = large_request(response_compressed=messages_pb2.BoolValue(value=compressed))
    assert stub.UnaryCall(request, timeout=10).payload.body == bytes(314159)
    # grpcio hides the per-message compressed flag, so read the raw response with nghttp (nghttp2-client).
    nghttp = shutil.which("nghttp")
    assert nghttp, "nghttp (Debian's nghttp2-client) is needed to see the compressed flag"
    body = tmp_path / "request.bin"
    serialized = request.SerializeToString()
    body.write_bytes(b"\x00" + len(serialized).to_bytes(4, "big") + serialized)
    url, tls = nghttp_arguments(interop.address)
    result = subprocess.run(
        [nghttp, "--no-content-length", *tls, "-d", str(body), "-H", "content-type: application/grpc", "-H",
         "te: trailers", "-H", "grpc-accept-encoding: gzip", f"{url}/grpc.testing.TestService/UnaryCall"],
        capture_output=True, timeout=30, check=True)
    response = result.stdout
    assert len(response) >= 5, f"no gRPC message in the response: {result.stderr[-500:]!r}"
    flag, length = response[0], int.from_bytes(response[1:5], "big")
    assert len(response) == 5 + length
    assert flag == (1 if compressed else 0)
    if compressed:
        assert length < 314159 // 10, "a compressed run of zeros should be far smaller than the payload"
