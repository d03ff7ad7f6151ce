"""Metrics and traces (issue 19): each service's /metrics moves as calls are made, and a trace id a client
sends in `traceparent` is in the log lines of every service the call touched, the consumers of the events it
wrote included.

Tests/run starts every service with --metrics-listen and names the addresses in KINDRED_INTEROP_METRICS
("identity=HOST:PORT,..."), and the directory of the services' logs (kindred-<name>.log, one JSON object a
line) in KINDRED_INTEROP_LOG_DIR.
"""

import datetime
import json
import os
import pathlib
import re
import secrets
import time
import urllib.request

import grpc
import pytest

from accounts_support import register
from family_support import signed_up
from grpc.health.v1 import health_pb2, health_pb2_grpc
from kindred.family.v1 import family_pb2
from rpc_support import bearer

METRICS = dict(
    item.split("=", 1) for item in filter(None, os.environ.get("KINDRED_INTEROP_METRICS", "").split(",")))
LOG_DIR = os.environ.get("KINDRED_INTEROP_LOG_DIR")

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$')


def scrape(name):
    """Every sample of service `name`'s /metrics: {(metric, ((label, value), ...)): value}."""
    if name not in METRICS:
        pytest.fail(f"KINDRED_INTEROP_METRICS has no {name}=HOST:PORT (Tests/run sets it)")
    with urllib.request.urlopen(f"http://{METRICS[name]}/metrics", timeout=10) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        text = response.read().decode()
    samples = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        match = SAMPLE.match(line)
        assert match, f"not a Prometheus sample line: {line!r}"
        labels = tuple(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"', match.group(3) or ""))
        samples[(match.group(1), labels)] = float(match.group(4))
    return samples


def calls(samples, method, code="OK"):
    return samples.get(("kindred_rpc_calls_total", (("method", method), ("code", code))), 0)


def test_counters_move_as_calls_are_made(service):
    method = "/grpc.health.v1.Health/Check"
    before = scrape(service.name)
    with service.channel() as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        for _ in range(5):
            stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=10)
        after = scrape(service.name)  # while this connection is open
    assert calls(after, method) >= calls(before, method) + 5
    count = ("kindred_rpc_duration_seconds_count", (("method", method),))
    inf_bucket = ("kindred_rpc_duration_seconds_bucket", (("method", method), ("le", "+Inf")))
    assert after[count] >= before.get(count, 0) + 5
    assert after[inf_bucket] == after[count]
    assert after[("kindred_rpc_open_connections", ())] >= 1
    # The service's pool is there, by database and role.
    assert any(metric == "kindred_postgres_pool_connections" for metric, _ in after)


def test_an_unknown_method_counts_as_unknown(service):
    before = scrape(service.name)
    with service.channel() as channel:
        with pytest.raises(grpc.RpcError) as refused:
            channel.unary_unary("/kindred.nothing.v1.Nothing/Call")(b"", timeout=10)
    assert refused.value.code() == grpc.StatusCode.UNIMPLEMENTED
    after = scrape(service.name)
    assert calls(after, "unknown", "UNIMPLEMENTED") == calls(before, "unknown", "UNIMPLEMENTED") + 1


def test_event_and_mail_queues_are_shown():
    identity = scrape("identity")
    assert ("kindred_event_outbox_backlog", (("outbox", "identity.event_outbox"),)) in identity
    assert ("kindred_mail_queue_messages", (("outbox", "identity"),)) in identity
    family = scrape("family")
    assert ("kindred_event_consumer_cursor", (("source", "identity"), ("consumer", "family"))) in family


def test_a_metrics_port_answers_only_metrics():
    address = METRICS["identity"]
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(f"http://{address}/other", timeout=10)
    assert missing.value.code == 404


def log_lines_with(name, text, seconds=10):
    """Service `name`'s log lines containing `text`, once at least one is written (logs are written by a
    thread of their own, a moment after the call)."""
    if not LOG_DIR:
        pytest.fail("KINDRED_INTEROP_LOG_DIR is not set (Tests/run sets it)")
    path = pathlib.Path(LOG_DIR) / f"kindred-{name}.log"
    deadline = time.monotonic() + seconds
    while True:
        lines = [json.loads(line) for line in path.read_text().splitlines() if text in line]
        if lines or time.monotonic() > deadline:
            return lines
        time.sleep(0.1)


def test_a_callers_trace_reaches_every_service_the_call_touches(identity, family):
    _, _, token = signed_up(identity, 35)
    trace_id = secrets.token_hex(16)
    parent = secrets.token_hex(8)
    traceparent = f"00-{trace_id}-{parent}-01"
    family.EnterChildMode(
        family_pb2.EnterChildModeRequest(), metadata=bearer(token) + [("traceparent", traceparent)],
        timeout=10)

    family_lines = log_lines_with("family", trace_id)
    served = [line for line in family_lines if line.get("rpc") == "/kindred.family.v1.FamilyService/EnterChildMode"]
    assert served, f"no family log line carries trace {trace_id}"
    # Family's own span is new: the caller's id is its parent, not its own.
    assert all(line["trace_id"] == trace_id and line["span_id"] != parent for line in served)

    # Family asked identity for the tokens, carrying the trace with family's span as the parent.
    identity_lines = log_lines_with("identity", trace_id)
    assert identity_lines, f"no identity log line carries trace {trace_id}"
    spans = {line["span_id"] for line in identity_lines}
    assert not spans & {parent, served[0]["span_id"]}


def test_the_consumers_of_an_event_handle_it_in_the_trace_that_wrote_it(identity):
    trace_id = secrets.token_hex(16)
    parent = secrets.token_hex(8)
    name = f"trace_{secrets.token_hex(6)}"
    # A minor, so that family's handler of user.registered has something to do (the parental controls).
    register(identity, name, f"{name}@example.com", born=(datetime.date.today().year - 14, 1, 1),
             metadata=[("traceparent", f"00-{trace_id}-{parent}-01")])

    rpc = "/kindred.identity.v1.IdentityService/RegisterAccount"
    served = [line for line in log_lines_with("identity", trace_id) if line.get("rpc") == rpc]
    assert served, f"no identity log line of {rpc} carries trace {trace_id}"

    # Each consumer of identity's events logs the handling of user.registered in that trace, in a span of
    # its own: neither the caller's nor identity's (the writer's span is the event's parent).
    for consumer in ("family", "social", "gamification"):
        handled = [line for line in log_lines_with(consumer, trace_id)
                   if line.get("message") == "handling event" and line.get("event_source") == "identity"]
        assert handled, f"{consumer} handled no identity event in trace {trace_id}"
        assert all(line["trace_id"] == trace_id for line in handled)
        assert not {line["span_id"] for line in handled} & {parent, served[0]["span_id"]}


def test_a_malformed_traceparent_starts_a_new_trace(identity, family):
    _, _, token = signed_up(identity, 35)
    request_id = f"malformed-trace-{secrets.token_hex(6)}"
    bad = "00-" + "0" * 32 + "-" + secrets.token_hex(8) + "-01"  # an all-zero trace id is invalid
    family.GetParentalControls(
        family_pb2.GetParentalControlsRequest(),
        metadata=bearer(token) + [("traceparent", bad), ("x-request-id", request_id)], timeout=10)
    (line,) = [line for line in log_lines_with("family", request_id) if line.get("message") == "call"]
    assert re.fullmatch(r"[0-9a-f]{32}", line["trace_id"]) and line["trace_id"] != "0" * 32
