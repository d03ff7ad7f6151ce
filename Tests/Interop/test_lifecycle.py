"""A service's life from outside: bad starts fail fast with one clear line, SIGTERM drains and exits 0.

Needs KINDRED_BIN_DIR (the built executables) and KINDRED_LIFECYCLE_DATABASE_URL (a database URL that
kindred-identity may use, with PGPASSFILE in the environment when it needs a password); Tests/run sets them.
"""

import os
import signal
import socket
import subprocess
import time

import grpc
import pytest

from free_port import free_port
from grpc.health.v1 import health_pb2, health_pb2_grpc
from grpc.testing import messages_pb2, test_pb2_grpc

BIN_DIR = os.environ.get("KINDRED_BIN_DIR", "")
DATABASE_URL = os.environ.get("KINDRED_LIFECYCLE_DATABASE_URL", "")


@pytest.fixture(scope="module", autouse=True)
def needs_executables():
    if not BIN_DIR or not DATABASE_URL:
        pytest.fail("KINDRED_BIN_DIR and KINDRED_LIFECYCLE_DATABASE_URL must be set (Tests/run sets them)")


def run(program, *arguments, timeout=30):
    return subprocess.run([os.path.join(BIN_DIR, program), *arguments], capture_output=True, text=True,
                          timeout=timeout)


def reason_lines(stderr):
    """What the executable said for itself: stderr without its JSON log lines."""
    return [line for line in stderr.splitlines() if line and not line.startswith("{")]


def wait_serving(address, deadline_seconds=30):
    deadline = time.monotonic() + deadline_seconds
    with grpc.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while True:
            try:
                if stub.Check(health_pb2.HealthCheckRequest(), timeout=1).status == health_pb2.HealthCheckResponse.SERVING:
                    return
            except grpc.RpcError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"{address} never reported SERVING")
            time.sleep(0.1)


@pytest.fixture
def identity():
    """A kindred-identity of the test's own on a free port, stopped (if still running) afterwards."""
    address = f"127.0.0.1:{free_port()}"
    process = subprocess.Popen([os.path.join(BIN_DIR, "kindred-identity"), "serve", "--listen", address,
                                "--database-url", DATABASE_URL, "--drain-timeout", "10"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_serving(address)
        yield address, process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)


def test_a_taken_port_is_one_line_and_exit_1(identity):
    address, _ = identity
    result = run("kindred-identity", "--listen", address, "--database-url", DATABASE_URL, "--no-migrate")
    assert result.returncode == 1
    lines = reason_lines(result.stderr)
    assert len(lines) == 1 and lines[0].startswith("kindred-identity: cannot listen on") and "in use" in lines[0]


def test_unreachable_postgres_is_one_line_and_exit_1_quickly():
    started = time.monotonic()
    result = run("kindred-family", "--listen", f"127.0.0.1:{free_port()}",
                 "--database-url", "postgresql://nobody@127.0.0.1:1/kindred")
    assert result.returncode == 1
    assert time.monotonic() - started < 15
    lines = reason_lines(result.stderr)
    assert len(lines) == 1 and "PostgreSQL is unreachable" in lines[0]
    assert "nobody@127.0.0.1:1" in lines[0]


@pytest.mark.parametrize("arguments, complaint", [
    (["--bogus"], "Unknown option"),
    (["--listen", "no-port", "--database-url", "postgresql://x@h/db"], "is not HOST:PORT"),
    (["--log-level", "chatty", "--database-url", "postgresql://x@h/db"], "unknown log level"),
])
def test_a_bad_command_line_says_what_is_wrong(arguments, complaint):
    result = run("kindred-social", *arguments)
    assert result.returncode in (1, 64)
    lines = reason_lines(result.stderr)
    assert len(lines) == 1 and complaint in lines[0]


def test_a_missing_database_url_names_the_variable():
    environment = {key: value for key, value in os.environ.items() if not key.startswith("KINDRED_GAMIFICATION")}
    result = subprocess.run([os.path.join(BIN_DIR, "kindred-gamification")], capture_output=True, text=True,
                            timeout=30, env=environment)
    assert result.returncode == 1
    assert "KINDRED_GAMIFICATION_DATABASE_URL" in reason_lines(result.stderr)[0]


def test_migrate_applies_and_exits_0():
    result = run("kindred-identity", "migrate", "--database-url", DATABASE_URL)
    assert result.returncode == 0, result.stderr
    assert reason_lines(result.stderr) == []


def test_sigterm_turns_health_not_serving_ends_watches_with_unavailable_and_exits_0(identity):
    address, process = identity
    with grpc.insecure_channel(address) as channel:
        watch = health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest(), timeout=20)
        assert next(watch).status == health_pb2.HealthCheckResponse.SERVING
        process.send_signal(signal.SIGTERM)
        statuses = []
        # Not OK: a client must be able to tell a shutdown, which it retries, from a normal end.
        with pytest.raises(grpc.RpcError) as ended:
            for response in watch:
                statuses.append(response.status)
    assert statuses[-1] == health_pb2.HealthCheckResponse.NOT_SERVING
    assert ended.value.code() == grpc.StatusCode.UNAVAILABLE
    assert ended.value.details() == "The server is shutting down. Please reconnect."
    assert process.wait(timeout=20) == 0


def test_sigterm_lets_a_call_in_flight_finish():
    address = f"127.0.0.1:{free_port()}"
    process = subprocess.Popen([os.path.join(BIN_DIR, "kindred-interop-server"), "--listen", address],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_serving(address)
        with grpc.insecure_channel(address) as channel:
            request = messages_pb2.StreamingOutputCallRequest(response_parameters=[
                messages_pb2.ResponseParameters(size=10, interval_us=200_000) for _ in range(5)])
            responses = test_pb2_grpc.TestServiceStub(channel).StreamingOutputCall(request, timeout=20)
            first = next(responses)
            process.send_signal(signal.SIGTERM)
            rest = list(responses)
        assert len(first.payload.body) == 10 and len(rest) == 4
        assert responses.code() == grpc.StatusCode.OK
        assert process.wait(timeout=20) == 0
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", int(address.rsplit(":", 1)[1])), timeout=2).close()
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)
