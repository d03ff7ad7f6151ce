"""`KINDRED_TLS=1 deploy/local/up`, end to end: a second local stack (its own var/, PostgreSQL port and service
ports, beside anyone's stack on 50051-50054) comes up on TLS 1.3 with mutual TLS between the services;
deploy/local/status and grpcli speak TLS to it; a person signs up, family follows identity's events and asks
identity for child-mode tokens over mutual TLS; a plaintext client and a client without a certificate are refused.
CI cost: about 40 s (initdb, four services migrating, the walk), on the release build the deploy stage reuses."""

import os
import pathlib
import socket
import subprocess
import sys

import grpc
import pytest

from conftest import DEPLOY, REPO, SERVICES
from free_port import free_port

# The interop suite's stubs and sign-up walk, not copied (as Tests/Ops does).
sys.path.insert(0, str(REPO / "Tests" / "Interop"))
from stubs import generate_stubs  # noqa: E402

generate_stubs(REPO / "proto")

from baby_support import eventually  # noqa: E402
from family_support import guarded_minor  # noqa: E402
from grpc_health.v1 import health_pb2, health_pb2_grpc  # noqa: E402
from kindred.family.v1 import family_pb2, family_pb2_grpc  # noqa: E402
from kindred.identity.v1 import identity_pb2, identity_pb2_grpc  # noqa: E402
from rpc_support import bearer, refusal  # noqa: E402

# What a test stack must not inherit from Tests/run's own TLS stage.
INHERITED = ["KINDRED_TLS_DIR", "KINDRED_TLS_NO_PEER_RULES", "KINDRED_CLIENT_TLS_CA", "KINDRED_CLIENT_TLS_CERT",
             "KINDRED_CLIENT_TLS_KEY", "KINDRED_TEST_MAILDIR"]


def free_ports_in_a_row(count):
    """The first of `count` consecutive ports nobody listens on (the stack's ports are a base and the next three)."""
    for _ in range(50):
        base = free_port()
        if base + count > 65535:
            continue
        try:
            for port in range(base, base + count):
                with socket.socket() as probe:
                    probe.bind(("127.0.0.1", port))
        except OSError:
            continue
        return base
    pytest.fail("no run of free ports found")


class Stack:
    def __init__(self, var, environment):
        self.var = var
        self.environment = environment
        base = int(environment["KINDRED_PORT_BASE"])
        self.addresses = {name: f"127.0.0.1:{base + index}" for index, name in enumerate(SERVICES)}

    def run(self, script, *args, **extra):
        return subprocess.run([str(script), *args], env=dict(self.environment, **extra), capture_output=True,
                              text=True, timeout=300)

    def grpcli(self, *args, tls=True):
        environment = {"KINDRED_TLS_DIR": str(self.var / "tls")} if tls else {}
        return self.run(sys.executable, str(DEPLOY / "local" / "grpcli.py"), *args, **environment)

    def credentials(self, name="kindred-cli"):
        read = lambda file: (self.var / "tls" / file).read_bytes()
        if name is None:
            return grpc.ssl_channel_credentials(root_certificates=read("ca.pem"))
        return grpc.ssl_channel_credentials(root_certificates=read("ca.pem"), private_key=read(f"{name}.key"),
                                            certificate_chain=read(f"{name}.pem"))

    def channel(self, service, name="kindred-cli"):
        return grpc.secure_channel(self.addresses[service], self.credentials(name))

    def log(self, service):
        return (self.var / "log" / f"{service}.log").read_text()

    def require_logged(self, service, text):
        """Fails unless the service's log holds the text. A server logs a refused handshake after it sent its alert
        (and the log writer gathers lines for 20 ms), so a test waits for the line with `eventually`."""
        assert text in self.log(service), self.log(service)[-2000:]


@pytest.fixture(scope="module")
def stack(bin_dir, tmp_path_factory):
    var = tmp_path_factory.mktemp("tls-stack")
    environment = {key: value for key, value in os.environ.items() if key not in INHERITED}
    environment.update(KINDRED_TLS="1", KINDRED_SKIP_BUILD="1", KINDRED_BIN_DIR=str(bin_dir), KINDRED_VAR=str(var),
                       KINDRED_PG_PORT=str(free_port()), KINDRED_PORT_BASE=str(free_ports_in_a_row(4)))
    stack = Stack(var, environment)
    try:
        up = stack.run(DEPLOY / "local" / "up")
        assert up.returncode == 0, up.stdout + up.stderr[-4000:]
        yield stack
    finally:
        down = stack.run(DEPLOY / "local" / "down")
        assert down.returncode == 0, down.stderr


def test_status_and_grpcli_speak_tls_to_every_service(stack):
    status = stack.run(DEPLOY / "local" / "status")
    assert status.returncode == 0, status.stdout + status.stderr
    for name, address in stack.addresses.items():
        line = next(line for line in status.stdout.splitlines() if line.startswith(name))
        assert address in line and "SERVING" in line, status.stdout
    listing = stack.grpcli("list", stack.addresses["family"])
    assert listing.returncode == 0, listing.stderr
    assert "kindred.family.v1.FamilyService" in listing.stdout.split()


def test_a_plaintext_client_is_refused(stack):
    assert stack.grpcli("health", stack.addresses["identity"], tls=False).returncode != 0
    with grpc.insecure_channel(stack.addresses["identity"]) as channel:
        code, _, _ = refusal(lambda: health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(),
                                                                                timeout=5))
    assert code == grpc.StatusCode.UNAVAILABLE
    eventually("identity logs the refused handshake",
               lambda: stack.require_logged("identity", "refused a TLS handshake"), seconds=5)


def test_a_client_without_a_certificate_is_refused(stack):
    with stack.channel("family", name=None) as channel:
        code, _, _ = refusal(lambda: health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(),
                                                                                timeout=5))
    assert code == grpc.StatusCode.UNAVAILABLE
    eventually("family logs the missing client certificate",
               lambda: stack.require_logged("family", "no client certificate"), seconds=5)


def test_family_calls_identity_over_mutual_tls(stack, monkeypatch):
    monkeypatch.setenv("KINDRED_TEST_MAILDIR", str(stack.var / "mail"))
    with stack.channel("identity") as to_identity, stack.channel("family") as to_family:
        identity = identity_pb2_grpc.IdentityServiceStub(to_identity)
        family = family_pb2_grpc.FamilyServiceStub(to_family)
        # Family made the minor's controls from identity's user.registered, which it follows over mutual TLS.
        _, child, _ = guarded_minor(identity, family, pin="4826")
        # Child mode: family asks identity's IssueDeviceModeTokens, which only kindred-family's certificate may call.
        tokens = family.EnterChildMode(family_pb2.EnterChildModeRequest(), metadata=bearer(child), timeout=10).tokens
        assert tokens.access_token
        code, reason, _ = refusal(lambda: identity.IssueDeviceModeTokens(
            identity_pb2.IssueDeviceModeTokensRequest(), metadata=bearer(child), timeout=10))
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "PEER_NOT_ALLOWED")
