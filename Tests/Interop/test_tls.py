"""TLS 1.3 and mutual TLS against a stock grpcio client and Python's ssl module.

Starts its own kindred-interop-server processes from KINDRED_BIN_DIR (Tests/run sets it), with a private CA and
certificates that deploy/local/tls-certificates makes in a temporary directory: one listener with TLS only, one
that requires client certificates and lets only `kindred-family` call UnaryCall.
"""

import os
import pathlib
import queue
import signal
import socket
import ssl
import subprocess
import time

import grpc
import pytest

from free_port import free_port
from grpc.health.v1 import health_pb2, health_pb2_grpc
from grpc.testing import empty_pb2, messages_pb2, test_pb2_grpc
from rpc_support import refusal

REPO = pathlib.Path(__file__).resolve().parents[2]
BIN_DIR = os.environ.get("KINDRED_BIN_DIR", "")
UNARY_CALL = "/grpc.testing.TestService/UnaryCall"


@pytest.fixture(scope="module")
def certificates(tmp_path_factory):
    if not BIN_DIR:
        pytest.fail("KINDRED_BIN_DIR must name the built executables (Tests/run sets it)")
    directory = tmp_path_factory.mktemp("tls")
    make_certificates(directory, "kindred-interop", "kindred-family", "kindred-tests")
    return directory


def make_certificates(directory, *names):
    subprocess.run([REPO / "deploy/local/tls-certificates", directory, *names], check=True)


class Server:
    """A kindred-interop-server on TLS, its address and its log (stderr, JSON lines)."""

    def __init__(self, certificates, log_path, *extra):
        self.certificates = certificates
        self.address = f"127.0.0.1:{free_port()}"
        self.port = int(self.address.rpartition(":")[2])
        self.log_path = log_path
        self.process = subprocess.Popen(
            [os.path.join(BIN_DIR, "kindred-interop-server"), "--listen", self.address, "--log-level", "info",
             "--tls-cert", certificates / "kindred-interop.pem", "--tls-key", certificates / "kindred-interop.key",
             *extra],
            stdout=subprocess.DEVNULL, stderr=open(log_path, "w"))

    def refusals(self):
        return [line for line in self.log_path.read_text().splitlines() if '"refused a TLS handshake"' in line]

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)


def credentials(certificates, name=None, ca="ca.pem"):
    """grpcio's TLS credentials: the CA, and `name`'s client certificate when given."""
    root = (certificates / ca).read_bytes()
    if name is None:
        return grpc.ssl_channel_credentials(root_certificates=root)
    return grpc.ssl_channel_credentials(root_certificates=root, private_key=(certificates / f"{name}.key").read_bytes(),
                                        certificate_chain=(certificates / f"{name}.pem").read_bytes())


def wait_serving(address, channel_credentials, deadline_seconds=30):
    deadline = time.monotonic() + deadline_seconds
    with grpc.secure_channel(address, channel_credentials) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while True:
            try:
                # wait_for_ready: grpcio's Python client drives a connection's I/O only while a call waits on it.
                answer = stub.Check(health_pb2.HealthCheckRequest(), timeout=1, wait_for_ready=True)
                if answer.status == health_pb2.HealthCheckResponse.SERVING:
                    return
            except grpc.RpcError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"{address} never reported SERVING over TLS")
            time.sleep(0.1)


@pytest.fixture(scope="module")
def tls_server(certificates, tmp_path_factory):
    server = Server(certificates, tmp_path_factory.mktemp("tls-log") / "server.log")
    try:
        wait_serving(server.address, credentials(certificates))
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def mtls_server(certificates, tmp_path_factory):
    server = Server(certificates, tmp_path_factory.mktemp("mtls-log") / "server.log",
                    "--tls-client-ca", certificates / "ca.pem", "--tls-allow-peers", f"{UNARY_CALL}=kindred-family")
    try:
        wait_serving(server.address, credentials(certificates, "kindred-tests"))
        yield server
    finally:
        server.stop()


def handshake(server, minimum=ssl.TLSVersion.TLSv1_2, maximum=ssl.TLSVersion.TLSv1_3, alpn=("h2",)):
    """A raw TLS handshake with Python's ssl: the negotiated version and ALPN protocol; raises if refused."""
    context = ssl.create_default_context(cafile=str(server.certificates / "ca.pem"))
    context.minimum_version, context.maximum_version = minimum, maximum
    if alpn:
        context.set_alpn_protocols(list(alpn))
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as raw:
        with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
            return tls.version(), tls.selected_alpn_protocol(), tls.recv(64)


def wait_for_refusals(server, count):
    deadline = time.monotonic() + 10
    while len(server.refusals()) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    return server.refusals()


def test_a_grpcio_client_with_the_ca_calls_over_tls(tls_server, certificates):
    with grpc.secure_channel(tls_server.address, credentials(certificates)) as channel:
        reply = test_pb2_grpc.TestServiceStub(channel).UnaryCall(
            messages_pb2.SimpleRequest(response_size=10), timeout=5)
    assert len(reply.payload.body) == 10


def test_the_handshake_is_tls_1_3_with_alpn_h2_and_the_server_speaks_http2_first(tls_server):
    version, protocol, first_bytes = handshake(tls_server)
    assert (version, protocol) == ("TLSv1.3", "h2")
    # The server's SETTINGS frame: 3-byte length, type 4.
    assert first_bytes[3] == 0x04


def test_a_client_offering_only_tls_1_2_is_refused_with_one_log_line(tls_server):
    before = len(tls_server.refusals())
    with pytest.raises(ssl.SSLError):
        handshake(tls_server, maximum=ssl.TLSVersion.TLSv1_2)
    refusals = wait_for_refusals(tls_server, before + 1)
    assert len(refusals) == before + 1
    assert "TLS 1.3 is required" in refusals[-1]


def test_a_plaintext_client_is_refused_in_words(tls_server):
    before = len(tls_server.refusals())
    with grpc.insecure_channel(tls_server.address) as channel:
        code, _, _ = refusal(lambda: test_pb2_grpc.TestServiceStub(channel).EmptyCall(empty_pb2.Empty(), timeout=2))
    assert code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
    line = wait_for_refusals(tls_server, before + 1)[-1]
    assert "a plaintext client connected to the TLS port" in line
    assert '"level":"notice"' in line


def test_a_client_offering_alpn_without_h2_is_refused(tls_server):
    before = len(tls_server.refusals())
    with pytest.raises(ssl.SSLError):
        handshake(tls_server, alpn=("http/1.1",))
    assert "no h2" in wait_for_refusals(tls_server, before + 1)[-1]


def test_a_client_offering_no_alpn_is_closed_after_the_handshake(tls_server):
    before = len(tls_server.refusals())
    try:
        _, protocol, first_bytes = handshake(tls_server, alpn=())
    except (ssl.SSLError, ConnectionError):
        protocol, first_bytes = None, b""
    assert protocol is None and first_bytes == b""
    assert "no ALPN h2" in wait_for_refusals(tls_server, before + 1)[-1]


def test_a_client_that_does_not_trust_the_ca_cannot_call(tls_server, certificates, tmp_path):
    make_certificates(tmp_path, "stranger")
    with grpc.secure_channel(tls_server.address, credentials(tmp_path)) as channel:
        code, _, _ = refusal(lambda: test_pb2_grpc.TestServiceStub(channel).EmptyCall(empty_pb2.Empty(), timeout=5))
    assert code == grpc.StatusCode.UNAVAILABLE


def test_mutual_tls_refuses_a_client_without_a_certificate(mtls_server, certificates):
    before = len(mtls_server.refusals())
    with grpc.secure_channel(mtls_server.address, credentials(certificates)) as channel:
        code, _, _ = refusal(lambda: test_pb2_grpc.TestServiceStub(channel).EmptyCall(empty_pb2.Empty(), timeout=5))
    assert code == grpc.StatusCode.UNAVAILABLE
    assert "no client certificate" in wait_for_refusals(mtls_server, before + 1)[-1]


def test_mutual_tls_refuses_a_certificate_from_another_ca(mtls_server, certificates, tmp_path):
    make_certificates(tmp_path, "kindred-family")
    # The server is trusted (the right CA); the client's own certificate, named kindred-family, is not.
    (tmp_path / "right-ca.pem").write_bytes((certificates / "ca.pem").read_bytes())
    with grpc.secure_channel(mtls_server.address, credentials(tmp_path, "kindred-family", ca="right-ca.pem")) as channel:
        code, _, _ = refusal(lambda: test_pb2_grpc.TestServiceStub(channel).EmptyCall(empty_pb2.Empty(), timeout=5))
    assert code == grpc.StatusCode.UNAVAILABLE


def test_mutual_tls_lets_a_certificate_off_the_allow_list_call_only_other_methods(mtls_server, certificates):
    with grpc.secure_channel(mtls_server.address, credentials(certificates, "kindred-tests")) as channel:
        stub = test_pb2_grpc.TestServiceStub(channel)
        stub.EmptyCall(empty_pb2.Empty(), timeout=5)
        code, reason, _ = refusal(lambda: stub.UnaryCall(messages_pb2.SimpleRequest(response_size=1), timeout=5))
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "PEER_NOT_ALLOWED")


def test_mutual_tls_lets_an_allowed_certificate_call_its_method(mtls_server, certificates):
    with grpc.secure_channel(mtls_server.address, credentials(certificates, "kindred-family")) as channel:
        reply = test_pb2_grpc.TestServiceStub(channel).UnaryCall(
            messages_pb2.SimpleRequest(response_size=3), timeout=5)
    assert len(reply.payload.body) == 3


def test_sighup_reloads_the_certificate_and_a_call_in_flight_goes_on(certificates, tmp_path):
    served = tmp_path / "served"
    served.mkdir()
    copy_identity(certificates, served)
    server = Server(served, tmp_path / "server.log")
    try:
        wait_serving(server.address, credentials(certificates))
        requests = queue.Queue()
        ask = messages_pb2.StreamingOutputCallRequest(response_parameters=[messages_pb2.ResponseParameters(size=1)])
        with grpc.secure_channel(server.address, credentials(certificates)) as old_channel:
            call = test_pb2_grpc.TestServiceStub(old_channel).FullDuplexCall(iter(requests.get, None), timeout=30)
            requests.put(ask)
            next(call)  # the call is open on the old credentials
            renewed = tmp_path / "renewed"
            make_certificates(renewed, "kindred-interop")  # a new CA: only its clients can connect after
            copy_identity(renewed, served)
            server.process.send_signal(signal.SIGHUP)
            wait_serving(server.address, credentials(renewed), deadline_seconds=10)
            requests.put(ask)
            assert len(next(call).payload.body) == 1  # the same connection, still on the old certificate
            requests.put(None)
            assert list(call) == []
        assert '"TLS credentials reloaded"' in server.log_path.read_text()
        with grpc.secure_channel(server.address, credentials(certificates)) as stale:
            code, _, _ = refusal(lambda: test_pb2_grpc.TestServiceStub(stale).EmptyCall(empty_pb2.Empty(), timeout=5))
        assert code == grpc.StatusCode.UNAVAILABLE
    finally:
        server.stop()


def copy_identity(source, destination):
    for suffix in ("pem", "key"):
        (destination / f"kindred-interop.{suffix}").write_bytes((source / f"kindred-interop.{suffix}").read_bytes())
