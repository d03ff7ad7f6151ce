"""deploy/ops/rolling-restart: every service restarted one at a time while steady callers keep calling each of
them, and not one call fails; the restarted processes are new and serve the same addresses."""

import os
import pathlib
import threading
import time

import grpc

from conftest import SERVICES, refused, run_script, targets
from stack_support import protected_read, signed_up, stubs

CALLERS = 4


class SteadyCallers:
    """CALLERS threads, each calling every service in turn with a user's token until stopped, on one channel per
    service, waiting for a connection (wait_for_ready) rather than failing while a service is away."""

    def __init__(self, token):
        self.channels = {name: grpc.insecure_channel(address) for name, address in targets().items()}
        self.stubs = stubs(self.channels)
        self.token = token
        self.stop = threading.Event()
        self.calls = {name: 0 for name in SERVICES}
        self.failures = []
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.call_loop, daemon=True) for _ in range(CALLERS)]

    def call_loop(self):
        while not self.stop.is_set():
            for service in SERVICES:
                try:
                    protected_read(self.stubs, service, self.token, wait_for_ready=True)
                    with self.lock:
                        self.calls[service] += 1
                except grpc.RpcError as error:
                    with self.lock:
                        self.failures.append(f"{service}: {error.code().name}: {error.details()}")

    def __enter__(self):
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_):
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=30)
        for channel in self.channels.values():
            channel.close()


def pids():
    run_dir = pathlib.Path(os.environ["KINDRED_OPS_RUN_DIR"])
    return {name: (run_dir / f"kindred-{name}.pid").read_text().strip() for name in SERVICES}


def test_rolling_restart_loses_no_call_of_steady_callers():
    identity = grpc.insecure_channel(targets()["identity"])
    _, _, token = signed_up(stubs({"identity": identity})["identity"], 30)
    identity.close()
    before = pids()
    with SteadyCallers(token) as callers:
        time.sleep(1)
        warm = dict(callers.calls)
        result = run_script("rolling-restart")
        time.sleep(1)
    assert result.returncode == 0, result.stderr
    assert callers.failures == []
    assert all(callers.calls[name] > warm[name] > 0 for name in SERVICES), (warm, callers.calls)
    after = pids()
    assert all(after[name] != before[name] and pathlib.Path(f"/proc/{after[name]}").exists() for name in SERVICES)
    for name in SERVICES:
        assert f"rolling-restart: {name} SERVING again" in result.stderr


def test_rolling_restart_refuses_when_a_service_is_not_running(tmp_path):
    refused(run_script("rolling-restart", KINDRED_OPS_RUN_DIR=str(tmp_path)), "kindred-identity is not running")


def test_rolling_restart_refuses_an_unknown_service():
    refused(run_script("rolling-restart", "payments"), "unknown service 'payments'")
