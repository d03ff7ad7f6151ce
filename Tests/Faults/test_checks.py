"""The checks themselves, on made-up calls and rows (no stack): each fails on the fault it is there to find."""

import grpc
import pytest

from checks import check_statuses, check_writes
from steady_client import Attempt, SteadyClient, Write, longest_outage


def attempt(code=None, started=0.0, took=0.1, caller="messages"):
    return Attempt(caller, "SendMessage", started, started + took, 2.0, code)


def client_with(attempts=(), writes=()):
    client = SteadyClient()
    client.attempts.extend(attempts)
    client.writes.extend(writes)
    return client


def test_statuses_refuse_internal_unknown_and_late_answers():
    check_statuses(client_with([attempt(grpc.StatusCode.UNAVAILABLE), attempt(grpc.StatusCode.DEADLINE_EXCEEDED)]))
    for code in (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN, grpc.StatusCode.ALREADY_EXISTS):
        with pytest.raises(AssertionError, match=code.name):
            check_statuses(client_with([attempt(code)]))
    with pytest.raises(AssertionError, match="later than their deadline"):
        check_statuses(client_with([attempt(grpc.StatusCode.DEADLINE_EXCEEDED, took=2.6)]))


class Rows:
    """A database that holds `rows` (request_id, id, rows with the same content) for every query."""

    def __init__(self, rows):
        self.rows = rows

    def query(self, sql):
        return self.rows


def message_write(request_id, answer, attempts=1):
    return Write("SendMessage", request_id, None, None, None, attempts, answer)


def test_writes_must_be_stored_once_as_answered():
    check_writes(Rows([("r1", "m1", "1")]), client_with(writes=[message_write("r1", "m1")]))
    lost = client_with(writes=[message_write("r1", "m1"), message_write("r2", "m2")])
    with pytest.raises(AssertionError, match="not in the database"):
        check_writes(Rows([("r1", "m1", "1")]), lost)
    with pytest.raises(AssertionError, match="applied twice"):
        check_writes(Rows([("r1", "m1", "2")]), client_with(writes=[message_write("r1", "m1")]))
    with pytest.raises(AssertionError, match="database holds m0"):
        check_writes(Rows([("r1", "m0", "1")]), client_with(writes=[message_write("r1", "m1", attempts=2)]))
    with pytest.raises(AssertionError, match="never answered, was applied 2 times"):
        check_writes(Rows([("r1", "m1", "1"), ("r1", "m2", "1")]), client_with(writes=[message_write("r1", None)]))


def test_longest_outage_runs_from_the_first_failure_to_the_next_answer():
    calls = [attempt(None, 0.0), attempt(grpc.StatusCode.UNAVAILABLE, 1.0), attempt(grpc.StatusCode.UNAVAILABLE, 1.5),
             attempt(None, 3.0, took=0.2), attempt(grpc.StatusCode.UNAVAILABLE, 4.0, caller="search"),
             attempt(None, 4.5, caller="search")]
    assert longest_outage(calls) == pytest.approx(2.2)
