"""Three replicas of every service (issue 30, item 3) under kindred-loadtest in open loop: one family replica
SIGKILLed and started again, then deploy/ops/rolling-restart through all twelve processes. The load tool's
report counts every call and stream end by status, every real-time delivery and every miss, and the calls each
replica answered; the replicas' access logs say when the killed one answered again.
"""

import dataclasses
import os
import pathlib
import subprocess
import time

import pytest

from replicas import REPLICAS, LoadTool, ReplicatedStack

# Calls a second, open loop. The issue asks for half the capacity the product-path issue measured; on the
# shared 2-core machine twelve service processes, PostgreSQL and the tool hold this much with room to spare
# while a process is away or starting (the figures in README.md). KINDRED_FAULTS_REPLICA_RATE runs the two
# cases at another rate, as on a quiet machine at half the capacity.
RATE = int(os.environ.get("KINDRED_FAULTS_REPLICA_RATE", "200"))
BASELINE = 3.0
HOLD = 3.0
# Load after the killed replica is back, to see it take its share again.
AFTER_REJOIN = 12
# A client reconnects to an address whose connection failed after its backoff, at most 5 s (+20 % jitter),
# well within its resolver's 30 s interval: the replica takes calls again within this.
REJOIN_BOUND = 10.0
# Calls in flight on the killed replica are the only ones that may fail: at most a second of its share.
IN_FLIGHT_BOUND = RATE // REPLICAS
ROLLING_DURATION = 60
REPO = pathlib.Path(__file__).resolve().parents[2]


@dataclasses.dataclass
class ReplicaFigures:
    fault: str
    calls: int
    failed: dict
    streams_ended: int
    handed_over: int
    deliveries: int
    missed: int
    per_replica: dict
    note: str

    def line(self):
        failed = ", ".join(f"{rpc} {status} {count}" for (rpc, status, _), count in self.failed.items()) or "none"
        return (f"{self.fault}: {self.calls} calls, failed: {failed}; streams ended {self.streams_ended}, handed "
                f"over by drains {self.handed_over}; deliveries {self.deliveries}, missed {self.missed}; calls per "
                f"replica {self.per_replica}; {self.note}")

    def as_dict(self):
        measured = dataclasses.asdict(self)
        measured["failed"] = {" ".join(key): count for key, count in self.failed.items()}
        return measured


@pytest.fixture(scope="module")
def replicated(stack):
    # The single-instance stack idles meanwhile: stopped, to leave the cores to the twelve, started again after.
    stack.stop()
    started = ReplicatedStack(stack.postgres)
    try:
        started.start()
        yield started
    finally:
        started.stop()
        stack.start()


@pytest.fixture(scope="module")
def load(replicated):
    return LoadTool(replicated)


def test_a_replica_killed_under_load_costs_only_its_calls_in_flight(replicated, load, figures):
    family = replicated.replicas["family"]
    victim, others = family[1], [family[0], family[2]]
    run = load.start("killed", RATE, int(BASELINE + HOLD + 2 + AFTER_REJOIN))
    run.wait_ramped_up(BASELINE)
    victim.kill()
    time.sleep(HOLD)
    victim.start()
    victim.wait_serving()
    back = time.time()
    report = run.report()
    load_end = run.load_started + run.duration

    unary, streams = report.failures(streams=False), report.failures(streams=True)
    deliveries, missed = report.deliveries()
    answered = replicated.calls_answered(victim, back, load_end)
    rejoined = answered[0] - back if answered else None
    # Over the same window once it rejoined, its calls a second beside the mean of the other two.
    window = (answered[0] + 1, load_end) if answered else (back, load_end)
    share = [len(replicated.calls_answered(replica, *window)) for replica in (victim, *others)]
    note = (f"killed replica answered again {rejoined:.2f} s after SERVING" if answered else "never answered again")
    note += f"; calls in the {window[1] - window[0]:.1f} s after: {share[0]} (restarted) vs {share[1]}, {share[2]}"
    figures.append(ReplicaFigures(f"kindred-family replica 2 of {REPLICAS} SIGKILLed, restarted after {HOLD:.0f} s "
                                  f"(load {RATE} calls/s)", report.calls(), dict(unary), sum(streams.values()),
                                  report.handed_over(), deliveries, missed, report.per_replica("family"), note))

    assert all(status == "UNAVAILABLE" for _, status, _ in unary), f"calls failed other than UNAVAILABLE: {unary}"
    assert sum(unary.values()) <= IN_FLIGHT_BOUND, f"more calls failed than were in flight on the replica: {unary}"
    assert all(rpc.startswith(("profile_activity", "notifications")) for rpc, _, _ in streams), (
        f"streams of other services ended: {streams}")
    assert deliveries > 0 and missed == 0, (
        f"{missed} real-time deliveries missed of {deliveries}: {report.missed_per_stream()}")
    assert answered, f"the restarted replica answered no call in the {load_end - back:.1f} s of load after it was back"
    assert rejoined <= REJOIN_BOUND, f"the restarted replica answered its first call {rejoined:.1f} s after SERVING"
    assert share[0] >= 0.5 * (share[1] + share[2]) / 2, f"the restarted replica is not taking its share: {share}"
    assert len(report.per_replica("family")) == REPLICAS


def test_rolling_restart_of_every_replica_under_load_fails_no_call_and_misses_no_delivery(replicated, load, figures):
    before = replicated.pids()
    run = load.start("rolling", RATE, ROLLING_DURATION)
    run.wait_ramped_up(BASELINE)
    began = time.time()
    result = subprocess.run([str(REPO / "deploy/ops/rolling-restart")], capture_output=True, text=True, timeout=300,
                            env={**os.environ, "KINDRED_OPS_RUN_DIR": str(replicated.run_dir),
                                 "KINDRED_DRAIN_WAIT": "15"})
    restarted = time.time()
    report = run.report()
    load_end = run.load_started + run.duration

    unary, streams = report.failures(streams=False), report.failures(streams=True)
    deliveries, missed = report.deliveries()
    figures.append(ReplicaFigures(
        f"deploy/ops/rolling-restart of {len(before)} processes ({REPLICAS} of each service, load {RATE} calls/s)",
        report.calls(), {**unary, **streams}, sum(streams.values()), report.handed_over(), deliveries, missed,
        {name: report.per_replica(name) for name in replicated.replicas},
        f"the restart took {restarted - began:.1f} s"))

    assert result.returncode == 0, result.stdout + result.stderr
    assert restarted <= load_end - 1, (
        f"the load ended {restarted - load_end:.1f} s before the restart did: raise ROLLING_DURATION")
    after = replicated.pids()
    assert all(after[replica] != pid for replica, pid in before.items()), f"not every process was restarted: {after}"
    assert not unary and not streams, f"calls failed: {dict(unary)}; streams ended: {dict(streams)}"
    assert report.handed_over() > 0, "no drain handed a stream over: the restart did not reach the streams"
    assert deliveries > 0 and missed == 0, (
        f"{missed} real-time deliveries missed of {deliveries}: {report.missed_per_stream()}")
