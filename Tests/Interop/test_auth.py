"""Authentication from outside, as a stock grpcio client sees it: kindred-interop-server --require-token serves
grpc.testing.TestService as a protected service (tokens signed by a key it makes, written to a file), while health
and reflection stay public.

Needs KINDRED_BIN_DIR (the built executables); Tests/run sets it.
"""

import os
import subprocess
import time

import grpc
import pytest

from free_port import free_port
from google.rpc import error_details_pb2, status_pb2
from grpc.health.v1 import health_pb2, health_pb2_grpc
from grpc.testing import empty_pb2, test_pb2_grpc

BIN_DIR = os.environ.get("KINDRED_BIN_DIR", "")


@pytest.fixture(scope="module")
def protected(tmp_path_factory):
    """A protected kindred-interop-server: its address, then its full-scope and child-mode tokens."""
    if not BIN_DIR:
        pytest.fail("KINDRED_BIN_DIR must be set (Tests/run sets it)")
    tokens = tmp_path_factory.mktemp("auth") / "tokens.txt"
    address = f"127.0.0.1:{free_port()}"
    process = subprocess.Popen([os.path.join(BIN_DIR, "kindred-interop-server"), "--listen", address,
                                "--require-token", str(tokens)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        with grpc.insecure_channel(address) as channel:
            while True:
                try:
                    health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=1)
                    break
                except grpc.RpcError:
                    assert time.monotonic() < deadline, "the protected interop server never answered health"
                    time.sleep(0.1)
        full, child = tokens.read_text().split()
        yield address, full, child
    finally:
        process.kill()
        process.wait(timeout=10)


def empty_call(address, token=None):
    metadata = [("authorization", f"Bearer {token}")] if token else None
    with grpc.insecure_channel(address) as channel:
        return test_pb2_grpc.TestServiceStub(channel).EmptyCall(empty_pb2.Empty(), timeout=10, metadata=metadata)


def refusal(address, token=None):
    """The status code and ErrorInfo reason of a refused EmptyCall."""
    with pytest.raises(grpc.RpcError) as raised:
        empty_call(address, token)
    details = dict(raised.value.trailing_metadata() or ())["grpc-status-details-bin"]
    status = status_pb2.Status.FromString(details)
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info)
    assert info.domain == "kindred.auth"
    return raised.value.code(), info.reason


def test_a_valid_token_is_served(protected):
    address, full, _ = protected
    assert empty_call(address, full) == empty_pb2.Empty()


def test_no_token_is_unauthenticated_with_a_reason(protected):
    address, _, _ = protected
    assert refusal(address) == (grpc.StatusCode.UNAUTHENTICATED, "TOKEN_MISSING")


def test_a_tampered_token_is_unauthenticated(protected):
    address, full, _ = protected
    header, payload, signature = full.split(".")
    flipped = "A" if signature[10] != "A" else "B"
    forged = f"{header}.{payload}.{signature[:10]}{flipped}{signature[11:]}"
    assert refusal(address, forged) == (grpc.StatusCode.UNAUTHENTICATED, "TOKEN_BAD_SIGNATURE")


def test_a_child_mode_token_may_not_call_a_method_that_changes_something(protected):
    address, _, child = protected
    # EmptyCall is not marked NO_SIDE_EFFECTS, so a child_readonly token may not call it.
    assert refusal(address, child) == (grpc.StatusCode.PERMISSION_DENIED, "CHILD_MODE_READ_ONLY")


def test_health_needs_no_token(protected):
    address, _, _ = protected
    with grpc.insecure_channel(address) as channel:
        response = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=10)
    assert response.status == health_pb2.HealthCheckResponse.SERVING
