"""The stack the fault suite breaks: a PostgreSQL cluster and the four services, started, stopped, killed and
frozen from here, so every fault and every restart is a real one.

Tests/run (faults_suite) makes the cluster and the secrets and passes, in the environment:
KINDRED_BIN_DIR (release executables), KINDRED_FAULTS_PG_BIN / _PG_DATA / _PG_LOG / _PG_SOCKET / _PG_PORT
(the cluster, started), KINDRED_FAULTS_ENV_DIR (one <service>.env of VAR=value lines per service: its
secrets), KINDRED_FAULTS_MAILDIR (where the services' mail goes), KINDRED_FAULTS_LOG_DIR (their logs),
KINDRED_FAULTS_RUN_USER (whom PostgreSQL and the services run as when this runs as root),
KINDRED_PORT_RECORD (the ports handed out so far: deploy/local/free_port.py) and PGPASSFILE.
"""

import os
import pathlib
import signal
import subprocess
import sys
import threading
import time

import grpc

from grpc.health.v1 import health_pb2, health_pb2_grpc

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "deploy" / "local"))
from free_port import free_port  # noqa: E402 (found through the path above)

SERVICES = ("identity", "family", "social", "gamification")


def env(name):
    value = os.environ.get(name, "")
    if not value:
        raise RuntimeError(f"{name} is not set (Tests/run's faults stage sets it)")
    return value


def as_run_user(command):
    """`command` as the unprivileged run user when this runs as root (PostgreSQL refuses root)."""
    user = os.environ.get("KINDRED_FAULTS_RUN_USER", "")
    if os.getuid() != 0 or not user:
        return command
    return ["setpriv", f"--reuid={user}", f"--regid={user}", "--init-groups", "--", *command]


def read_env_file(path):
    pairs = (line.split("=", 1) for line in pathlib.Path(path).read_text().splitlines() if "=" in line)
    return dict(pairs)


class Postgres:
    """The cluster the services use, stopped and started through pg_ctl as its owner."""

    def __init__(self):
        self.bin = pathlib.Path(env("KINDRED_FAULTS_PG_BIN"))
        self.data = env("KINDRED_FAULTS_PG_DATA")
        self.log = env("KINDRED_FAULTS_PG_LOG")
        self.socket = env("KINDRED_FAULTS_PG_SOCKET")
        self.port = env("KINDRED_FAULTS_PG_PORT")

    def ctl(self, *arguments):
        subprocess.run(as_run_user([str(self.bin / "pg_ctl"), "-D", self.data, *arguments]), check=True,
                       cwd="/", stdout=subprocess.DEVNULL, timeout=90)

    def stop(self, mode):
        self.ctl("-m", mode, "-w", "-t", "60", "stop")

    def start(self):
        self.ctl("-l", self.log, "-w", "-t", "60", "-o", f"-p {self.port} -k '{self.socket}'", "start")

    def role_url(self, service):
        return f"postgresql://kindred_{service}@127.0.0.1:{self.port}/kindred"

    def query(self, sql):
        """Rows of `sql` as the superuser over the unix socket, each a tuple of strings."""
        result = subprocess.run(
            as_run_user([str(self.bin / "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", self.socket,
                         "-p", self.port, "-U", "postgres", "-d", "kindred", "-tA", "-F", "\t", "-c", sql]),
            cwd="/", capture_output=True, text=True, check=True, timeout=60)
        return [tuple(line.split("\t")) for line in result.stdout.splitlines() if line]


class Service:
    """One kindred service on a fixed address: started, SIGKILLed, restarted, frozen and thawed. Its log and
    pidfile are kindred-NAME.log and .pid in the log directory unless `log` names another log (the pidfile
    beside it, `pidfile` if given); `environment` adds to its secrets."""

    def __init__(self, name, port, peers, postgres, host="127.0.0.1", log=None, pidfile=None, environment=None):
        self.name = name
        self.address = f"{host}:{port}"
        self.process = None
        self.command = [
            os.path.join(env("KINDRED_BIN_DIR"), f"kindred-{name}"), "serve", "--listen", self.address,
            "--database-url", postgres.role_url(name), "--log-level", "info",
            "--mail", f"maildir:{env('KINDRED_FAULTS_MAILDIR')}", "--drain-timeout", "5", *peers]
        self.environment = {**os.environ, **read_env_file(pathlib.Path(env("KINDRED_FAULTS_ENV_DIR"), f"{name}.env")),
                            **(environment or {})}
        self.log = log or pathlib.Path(env("KINDRED_FAULTS_LOG_DIR"), f"kindred-{name}.log")
        # Tests/Faults/run stops whatever a pidfile still names when pytest is gone (killed, interrupted).
        self.pidfile = pidfile or self.log.with_suffix(".pid")

    def start(self):
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(as_run_user(self.command), env=self.environment, cwd="/",
                                            stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                            start_new_session=True)
        self.pidfile.write_text(f"{self.process.pid}\n")
        # Reaped as soon as it exits, so its pid leaves /proc then, as deploy/ops scripts that stop it by its
        # pidfile (rolling-restart) expect.
        threading.Thread(target=self.process.wait, daemon=True).start()

    def signal(self, number):
        self.process.send_signal(number)

    def kill(self):
        self.signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self):
        if self.process is None or self.process.poll() is not None:
            return
        self.signal(signal.SIGCONT)
        self.signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.kill()

    def serving(self, timeout=0.5):
        try:
            with grpc.insecure_channel(self.address) as channel:
                answer = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=timeout)
                return answer.status == health_pb2.HealthCheckResponse.SERVING
        except grpc.RpcError:
            return False

    def wait_serving(self, seconds=60):
        deadline = time.monotonic() + seconds
        while not self.serving():
            if self.process.poll() is not None:
                raise AssertionError(f"kindred-{self.name} exited ({self.process.returncode}); see {self.log}")
            if time.monotonic() > deadline:
                raise AssertionError(f"kindred-{self.name} never reported SERVING; see {self.log}")
            time.sleep(0.05)


class Stack:
    """PostgreSQL and the four services, each told where its peers are."""

    def __init__(self):
        self.postgres = Postgres()
        ports = {name: free_port() for name in SERVICES}
        peers = [flag for name in SERVICES for flag in (f"--{name}-target", f"127.0.0.1:{ports[name]}")]
        self.services = {name: Service(name, ports[name], peers, self.postgres) for name in SERVICES}
        self.maildir = pathlib.Path(env("KINDRED_FAULTS_MAILDIR"))

    def start(self):
        for service in self.services.values():
            service.start()
        for service in self.services.values():
            service.wait_serving()

    def stop(self):
        for service in self.services.values():
            service.stop()

    def all_serving(self):
        return all(service.serving() for service in self.services.values())
