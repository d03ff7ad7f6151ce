"""What every fault must leave true, and the figures it is measured by.

- Every failed call failed UNAVAILABLE or DEADLINE_EXCEEDED, and no call came back later than its deadline
  plus MARGIN.
- In the database: every answered write is there once, as the row it was answered with; one never answered is
  there at most once; and a retried request_id sent once more now is answered with the first result.
"""

import collections
import dataclasses

import grpc

from steady_client import EXPECTED_FAILURES, longest_outage

MARGIN = 0.5

# Per write method: its rows among the request_ids given, as (request_id, id, rows with the same content).
STORED = {
    # A message's text and an event's name are sealed at rest (deploy/SECURITY.md, "Encryption at rest"): their rows are told
    # apart by request_id.
    "SendMessage": """SELECT request_id, id::text, count(*) OVER (PARTITION BY request_id)
                      FROM social.messages WHERE request_id = ANY('{{{ids}}}')""",
    "CreateCalendarEvent": """SELECT request_id, event_id::text, count(*) OVER (PARTITION BY request_id)
                              FROM family.calendar_events WHERE request_id = ANY('{{{ids}}}')""",
    "RegisterAccount": """SELECT registration_request_id, id::text, count(*) OVER (PARTITION BY lower(username))
                          FROM identity.accounts WHERE registration_request_id = ANY('{{{ids}}}')""",
}


@dataclasses.dataclass
class Figures:
    fault: str
    lasted: float
    calls: int
    failed: dict
    longest_outage: float
    recovery: float
    writes: int
    retried: int

    def line(self):
        failed = ", ".join(f"{code} {count}" for code, count in sorted(self.failed.items())) or "none"
        return (f"{self.fault} for {self.lasted:.2f} s: {self.calls} calls, failed: {failed}; longest outage seen "
                f"{self.longest_outage:.2f} s; recovered {self.recovery:.2f} s after; {self.writes} writes answered, "
                f"{self.retried} retried")

    def as_dict(self):
        return dataclasses.asdict(self)


def figures(fault, client, lasted, recovery):
    failed = collections.Counter(a.code.name for a in client.attempts if a.code is not None)
    answered = [w for w in client.writes if w.answer is not None]
    return Figures(fault, lasted, len(client.attempts), dict(failed), longest_outage(client.attempts), recovery,
                   len(answered), sum(1 for w in answered if w.attempts > 1))


def check_statuses(client):
    wrong = [a for a in client.attempts if a.code is not None and a.code not in EXPECTED_FAILURES]
    assert not wrong, "calls failed with a status other than UNAVAILABLE or DEADLINE_EXCEEDED: " + "; ".join(
        f"{a.caller} {a.method} {a.code.name} {a.detail!r}" for a in wrong[:10])
    late = [a for a in client.attempts if a.ended - a.started > a.deadline + MARGIN]
    assert not late, "calls came back later than their deadline: " + "; ".join(
        f"{a.caller} {a.method} after {a.ended - a.started:.2f} s" for a in late[:10])


def check_writes(postgres, client):
    for method, sql in STORED.items():
        writes = [w for w in client.writes if w.method == method]
        if not writes:
            continue
        rows = postgres.query(sql.format(ids=",".join(w.request_id for w in writes)))
        stored = collections.defaultdict(list)
        for request_id, row_id, same_content in rows:
            stored[request_id].append((row_id, int(same_content)))
        for write in writes:
            found = stored[write.request_id]
            if write.answer is None:
                assert len(found) <= 1, f"{method} {write.request_id}, never answered, was applied {len(found)} times"
                continue
            assert found, f"{method} {write.request_id} was answered ({write.answer}) but is not in the database"
            assert len(found) == 1 and found[0][1] == 1, f"{method} {write.request_id} was applied twice: {found}"
            assert found[0][0] == write.answer, (
                f"{method} {write.request_id} was answered with {write.answer}, but the database holds {found[0][0]}")


def check_retries_answer_the_first_result(client, addresses):
    """Every retried write sent once more, on a fresh channel: the answer names what the first one made."""
    for write in (w for w in client.writes if w.answer is not None and w.attempts > 1):
        with grpc.insecure_channel(addresses[write.method]) as channel:
            again = write.key(write.call(channel)(write.request, timeout=10))
        assert again == write.answer, f"{write.method} {write.request_id} was answered {write.answer}, then {again}"
