"""kindred-social's refusals as a stock grpcio client receives them: a stranger's report of a private event is
answered exactly as a report of an id that names nothing (status, message and status details, byte for byte),
and a restricted minor's refused message says, in a sentence an app can show, that parental controls
restrict it.

Needs the identity, family and social targets in KINDRED_INTEROP_TARGETS; Tests/run sets them.
"""

import os
import re
import time
import uuid

import grpc
import pytest

from family_support import controls_of, signed_up
from kindred.social.v1 import social_pb2
from rpc_support import bearer, refusal
from test_social_walk import RESTRICTED, event_request, send


def uuid7():
    """A random UUIDv7: the milliseconds since the epoch, the version, the variant and random bits."""
    random = int.from_bytes(os.urandom(10), "big")
    value = (int(time.time() * 1000) << 80) | (0x7 << 76) | ((random >> 62) & 0xFFF) << 64
    return str(uuid.UUID(int=value | (0b10 << 62) | (random & ((1 << 62) - 1))))


def answer(call):
    """Everything a failed call tells its caller: code, message and the status details' bytes."""
    with pytest.raises(grpc.RpcError) as raised:
        call()
    error = raised.value
    return error.code(), error.details(), dict(error.trailing_metadata() or ()).get("grpc-status-details-bin")


def test_a_strangers_report_of_a_private_event_gets_exactly_the_answer_a_random_id_gets(identity, social):
    _, _, host_token = signed_up(identity, 34)
    _, _, stranger_token = signed_up(identity, 29)
    private = social.CreateEvent(event_request(social_pb2.EVENT_VISIBILITY_PRIVATE, "Family dinner"),
                                 metadata=bearer(host_token), timeout=10).event

    def report(content_id, token=stranger_token):
        return lambda: social.ReportContent(social_pb2.ReportContentRequest(
            content_kind=social_pb2.CONTENT_KIND_EVENT, content_id=content_id, reason="spam"),
            metadata=bearer(token), timeout=10)

    refused = answer(report(private.event_id))
    assert refused[0] == grpc.StatusCode.NOT_FOUND and refused[2]
    assert refused == answer(report(uuid7()))
    assert refusal(report(private.event_id))[:2] == (grpc.StatusCode.NOT_FOUND, "CONTENT_NOT_FOUND")
    # Nothing was counted: an invited guest's report is the first.
    guest_id, _, guest_token = signed_up(identity, 31)
    social.InviteToEvent(social_pb2.InviteToEventRequest(event_id=private.event_id, user_ids=[guest_id]),
                         metadata=bearer(host_token), timeout=10)
    assert report(private.event_id, guest_token)().report_count == 1


def test_a_restricted_minors_refused_message_says_parental_controls_restrict_it(identity, family, social):
    _, _, minor_token = signed_up(identity, 14)
    assert controls_of(family, minor_token).messaging_followed_only
    stranger_id, _, _ = signed_up(identity, 40)
    assert refusal(lambda: send(social, minor_token, stranger_id, "hi"))[:2] == RESTRICTED
    code, message, _ = answer(lambda: send(social, minor_token, stranger_id, "hi"))
    assert code == grpc.StatusCode.PERMISSION_DENIED
    assert re.fullmatch(r"[A-Z][^\n]{0,158}[.?!]", message), message
    assert message.startswith("Parental controls") and "guardian" in message
