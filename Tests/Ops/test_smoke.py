"""deploy/ops/smoke: passes on the healthy stack, fails naming the service that is down, refuses without a
client secret."""

import os
import pathlib
import signal
import socket

from conftest import SERVICES, refused, run_script, targets


def unused_address():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{probe.getsockname()[1]}"


def test_smoke_passes_on_a_healthy_stack():
    result = run_script("smoke")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == SERVICES
    assert all("SERVING, read:" in line for line in lines), lines


def test_smoke_fails_naming_the_service_that_is_down():
    down = unused_address()
    spec = ",".join(f"{name}={down if name == 'gamification' else address}" for name, address in targets().items())
    result = run_script("smoke", KINDRED_OPS_TARGETS=spec)
    assert result.returncode == 1
    failures = [line for line in result.stderr.splitlines()[1:] if line.startswith("smoke: ")]
    assert len(failures) == 1 and failures[0].startswith(f"smoke: gamification  {down}"), result.stderr
    assert "UNAVAILABLE" in failures[0]


def test_smoke_fails_naming_a_service_that_hangs():
    pid = int(pathlib.Path(os.environ["KINDRED_OPS_RUN_DIR"], "kindred-social.pid").read_text())
    os.kill(pid, signal.SIGSTOP)
    try:
        result = run_script("smoke")
    finally:
        os.kill(pid, signal.SIGCONT)
    assert result.returncode == 1
    failures = [line for line in result.stderr.splitlines()[1:] if line.startswith("smoke: ")]
    assert len(failures) == 1 and failures[0].startswith("smoke: social "), result.stderr
    # grpcio gives up on a server that accepts but never sends its SETTINGS as UNAVAILABLE.
    assert "UNAVAILABLE" in failures[0] or "DEADLINE_EXCEEDED" in failures[0]
    assert run_script("smoke").returncode == 0


def test_smoke_fails_when_identity_refuses_the_client(tmp_path):
    secret = tmp_path / "secret"
    secret.write_text("not-the-secret-of-family-0123456789abcdef\n")
    result = run_script("smoke", KINDRED_OPS_CLIENT_SECRET_FILE=str(secret))
    assert result.returncode == 1
    assert "no service token for family" in result.stderr and "INVALID_CLIENT" in result.stderr


def test_smoke_refuses_without_a_client_secret(tmp_path):
    refused(run_script("smoke", KINDRED_SECRETS_DIR=str(tmp_path)), "no client secret for family")


def test_smoke_refuses_targets_that_miss_a_service():
    spec = ",".join(f"{name}={address}" for name, address in targets().items() if name != "social")
    refused(run_script("smoke", KINDRED_OPS_TARGETS=spec), "KINDRED_OPS_TARGETS has no social=HOST:PORT")
