"""Three replicas of each service over the fault suite's cluster, as `KINDRED_REPLICAS=3 deploy/local/up` runs
them: replica I on 127.0.0.I, the same port for every replica of a service, each service calling every
replica of its peers by name (kindred-NAME) through a hosts file (KINDRED_HOSTS_FILE), as through a headless
Service in Kubernetes; and kindred-loadtest driving them through the same names, balanced by Kindred's client.

Pidfiles are named as deploy/local/up names them (NAME.pid, NAME-2.pid, ...) in `run_dir`, so
deploy/ops/rolling-restart finds and restarts every replica; Tests/Faults/run stops what they still name.
"""

import collections
import datetime
import json
import os
import pathlib
import signal
import socket
import subprocess
import time

from stack import SERVICES, Service, env, free_port

REPLICAS = 3
# The load tool's users: 200 seeded users hold ~300 streams (messages, and baby profiles' activity and
# notifications for the families among them).
USERS = 200
RAMP_UP = 5


def host(replica):
    return f"127.0.0.{replica}"


def port_free_on_every_replica():
    """A port free on 127.0.0.1 to 127.0.0.REPLICAS."""
    while True:
        port = free_port()
        try:
            for replica in range(2, REPLICAS + 1):
                with socket.socket() as probe:
                    probe.bind((host(replica), port))
            return port
        except OSError:
            continue


def alive(pid):
    """Whether process `pid` runs (a zombie nobody reaped yet does not)."""
    try:
        return pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


def stop_pid(pid, seconds=15):
    """SIGTERM (after SIGCONT), then SIGKILL if it has not exited within `seconds`."""
    for number in (signal.SIGCONT, signal.SIGTERM):
        try:
            os.kill(pid, number)
        except ProcessLookupError:
            return
    deadline = time.monotonic() + seconds
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if alive(pid):
        os.kill(pid, signal.SIGKILL)


class ReplicatedStack:
    """REPLICAS instances of each of the four services on one PostgreSQL."""

    def __init__(self, postgres):
        self.postgres = postgres
        self.run_dir = pathlib.Path(env("KINDRED_FAULTS_LOG_DIR"), "replicas")
        self.run_dir.mkdir(exist_ok=True)
        self.ports = {name: port_free_on_every_replica() for name in SERVICES}
        self.hosts_file = self.run_dir / "hosts"
        self.hosts_file.write_text("".join(f"{host(replica)} kindred-{name}\n"
                                           for name in SERVICES for replica in range(1, REPLICAS + 1)))
        self.hosts_file.chmod(0o644)
        self.targets = {name: f"kindred-{name}:{self.ports[name]}" for name in SERVICES}
        peers = [flag for name in SERVICES for flag in (f"--{name}-target", self.targets[name])]
        self.replicas = {name: [self.replica(name, replica, peers) for replica in range(1, REPLICAS + 1)]
                         for name in SERVICES}

    def replica(self, name, replica, peers):
        suffix = "" if replica == 1 else f"-{replica}"
        return Service(name, self.ports[name], peers, self.postgres, host=host(replica),
                       log=self.run_dir / f"kindred-{name}{suffix}.log", pidfile=self.run_dir / f"{name}{suffix}.pid",
                       environment={"KINDRED_HOSTS_FILE": str(self.hosts_file)})

    def all(self):
        return [replica for replicas in self.replicas.values() for replica in replicas]

    def start(self):
        for replica in self.all():
            replica.start()
        for replica in self.all():
            replica.wait_serving()

    def pids(self):
        """Every replica's pid as its pidfile names it (rolling-restart rewrites them)."""
        return {replica.address + " " + replica.name: int(replica.pidfile.read_text())
                for replica in self.all() if replica.pidfile.exists()}

    def stop(self):
        for pid in self.pids().values():
            stop_pid(pid)
        for replica in self.all():
            replica.pidfile.unlink(missing_ok=True)

    def all_serving(self):
        return all(replica.serving() for replica in self.all())

    def calls_answered(self, replica, since, until):
        """The calls `replica` logged (one access line each, health checks aside) from `since` to `until`
        (seconds since the epoch), each as its time."""
        times = []
        for line in replica.log.read_text(errors="replace").splitlines():
            if '"message":"call"' not in line:
                continue
            at = datetime.datetime.fromisoformat(json.loads(line)["time"].replace("Z", "+00:00")).timestamp()
            if since <= at <= until:
                times.append(at)
        return times


class LoadTool:
    """kindred-loadtest: seeded once through the services' database roles, then runs against the replicas."""

    def __init__(self, stack):
        self.stack = stack
        self.binary = os.path.join(env("KINDRED_BIN_DIR"), "kindred-loadtest")
        self.dir = stack.run_dir / "loadtest"
        self.dir.mkdir(exist_ok=True)
        self.seed_file = self.dir / "seed.json"
        databases = ",".join(f"{name}={stack.postgres.role_url(name)}" for name in SERVICES)
        subprocess.run([self.binary, "seed", "--users", str(USERS), "--seed-file", str(self.seed_file),
                        "--databases", databases], check=True, cwd=self.dir, timeout=120,
                       stdout=subprocess.DEVNULL)

    def start(self, label, rate, duration):
        """A run of `duration` seconds after a RAMP_UP-second ramp-up, at `rate` calls a second (open loop)."""
        return LoadRun(self, label, rate, duration)


class LoadRun:
    def __init__(self, tool, label, rate, duration):
        self.report_file = tool.dir / f"{label}.json"
        self.output = tool.dir / f"{label}.out"
        self.duration = duration
        targets = ",".join(f"{name}={address}" for name, address in tool.stack.targets.items())
        command = [tool.binary, "run", "--users", str(USERS), "--duration", str(duration), "--ramp-up",
                   str(RAMP_UP), "--rate", str(rate), "--seed-file", str(tool.seed_file), "--targets", targets,
                   "--postgres-port", "0", "--json", str(self.report_file)]
        with open(self.output, "wb") as output:
            self.process = subprocess.Popen(command, cwd=tool.dir, stdout=output, stderr=subprocess.STDOUT,
                                            env={**os.environ, "KINDRED_HOSTS_FILE": str(tool.stack.hosts_file)})
        self.load_started = None

    def wait_ramped_up(self, more=2.0):
        """Until the users have started and `more` seconds of load ran. The tool checks the stack first, then
        ramps up; its first live line (every 5 s from the ramp-up's start) comes as the ramp-up of 5 s ends."""
        deadline = time.monotonic() + 60
        while "calls/s" not in self.output.read_text(errors="replace"):
            assert self.process.poll() is None, f"kindred-loadtest ended early: see {self.output}"
            assert time.monotonic() < deadline, f"kindred-loadtest never started its load: see {self.output}"
            time.sleep(0.2)
        self.load_started = time.time()
        time.sleep(more)

    def report(self):
        """The run's JSON report once it ended (its exit status is the test's to judge, from the report)."""
        self.process.wait(timeout=RAMP_UP + self.duration + 120)
        assert self.report_file.exists(), f"kindred-loadtest wrote no report: see {self.output}"
        return Report(json.loads(self.report_file.read_text()))


class Report:
    """What the tests read from a load report."""

    def __init__(self, raw):
        self.raw = raw

    def calls(self):
        return sum(rpc["count"] for rpc in self.raw["rpcs"].values())

    def failures(self, streams):
        """Failed calls as {(rpc, status, reason): count}; a stream's early ends only when `streams`."""
        failed = collections.Counter()
        for name, rpc in self.raw["rpcs"].items():
            if name.endswith(")") != streams:
                continue
            for status, reasons in rpc.get("failures", {}).items():
                for reason, count in reasons.items():
                    failed[(name, status, reason)] += count
        return failed

    def handed_over(self):
        """Streams a drain ended and the tool reopened elsewhere."""
        return sum(rpc["count"] for name, rpc in self.raw["rpcs"].items()
                   if name.endswith("(stream handed over by a drain)"))

    def deliveries(self):
        return self.raw["realtime"]["deliveries"], self.raw["realtime"]["missed"]

    def missed_per_stream(self):
        """{stream: missed} for the kinds of stream that missed any."""
        return {name: live["missed"] for name, live in sorted(self.raw.get("realtime_streams", {}).items())
                if live["missed"]}

    def per_replica(self, service):
        return dict(sorted(self.raw.get("replicas", {}).get(service, {}).items()))
