"""A family's baby profile walked from a stock grpcio client: two owners share a profile, invite a grandmother
who accepts from the mailed link; she RSVPs, comments and buys a registry item while a third member's
WatchProfileActivity stream sees each step arrive in order. A stranger hears NOT_FOUND, as for no profile.

Needs the identity and family targets in KINDRED_INTEROP_TARGETS and the services' maildir in
KINDRED_TEST_MAILDIR; Tests/run sets them.
"""

import datetime
import uuid

import grpc
import pytest

from baby_support import ActivityStream, invite_and_accept
from family_support import signed_up
from google.protobuf import timestamp_pb2
from google.type import date_pb2
from kindred.family.v1 import baby_activity_pb2, baby_content_pb2, baby_profiles_pb2
from rpc_support import bearer

Kind = baby_activity_pb2.BabyActivityKind


def test_two_owners_and_a_grandmother_share_a_baby_while_an_aunt_watches(identity, family):
    _, _, mum = signed_up(identity, 32)
    _, dad_email, dad = signed_up(identity, 34)
    _, aunt_email, aunt = signed_up(identity, 29)
    grandma_id, grandma_email, grandma = signed_up(identity, 67)
    _, _, stranger = signed_up(identity, 40)
    due = datetime.date.today() + datetime.timedelta(days=40)
    profile = family.CreateBabyProfile(baby_profiles_pb2.CreateBabyProfileRequest(
        request_id=str(uuid.uuid4()), name="Olivia",
        expected_birth_date=date_pb2.Date(year=due.year, month=due.month, day=due.day)),
        metadata=bearer(mum), timeout=10).profile
    pid = profile.profile_id

    shared = invite_and_accept(family, mum, pid, dad_email, dad, baby_profiles_pb2.BABY_ROLE_OWNER)
    assert shared.profile_id == pid
    invite_and_accept(family, dad, pid, aunt_email, aunt, baby_profiles_pb2.BABY_ROLE_FOLLOWER,
                      baby_profiles_pb2.RELATIONSHIP_AUNT)
    stream = ActivityStream(family, aunt, pid)
    try:
        invite_and_accept(family, mum, pid, grandma_email, grandma, baby_profiles_pb2.BABY_ROLE_FOLLOWER,
                          baby_profiles_pb2.RELATIONSHIP_GRANDMA)
        # The aunt's stream may begin with the activity before it opened; skip to the grandmother's arrival.
        joined = stream.next()
        while not (joined.kind == Kind.BABY_ACTIVITY_KIND_MEMBER_JOINED and joined.actor_id == grandma_id):
            joined = stream.next()

        start = timestamp_pb2.Timestamp(seconds=int((datetime.datetime.now() + datetime.timedelta(days=7))
                                                    .timestamp()))
        shower = family.CreateCalendarEvent(baby_content_pb2.CreateCalendarEventRequest(
            request_id=str(uuid.uuid4()), profile_id=pid, event=baby_content_pb2.CalendarEvent(
                name="Baby shower", start_time=start, time_zone="Europe/Rome")),
            metadata=bearer(dad), timeout=10).event
        assert stream.next().kind == Kind.BABY_ACTIVITY_KIND_CALENDAR_EVENT_ADDED

        family.SetRsvp(baby_content_pb2.SetRsvpRequest(
            profile_id=pid, event_id=shower.event_id, answer=baby_content_pb2.RSVP_ANSWER_ATTENDING),
            metadata=bearer(grandma), timeout=10)
        rsvp = stream.next()
        assert (rsvp.kind, rsvp.actor_id) == (Kind.BABY_ACTIVITY_KIND_RSVP_CHANGED, grandma_id)

        family.AddComment(baby_content_pb2.AddCommentRequest(
            request_id=str(uuid.uuid4()), target=baby_content_pb2.CommentTarget(
                profile_id=pid, calendar_event_id=shower.event_id), text="I will bring the cake!"),
            metadata=bearer(grandma), timeout=10)
        comment = stream.next()
        assert (comment.kind, comment.actor_id) == (Kind.BABY_ACTIVITY_KIND_COMMENT_ADDED, grandma_id)

        item = family.CreateRegistryItem(baby_content_pb2.CreateRegistryItemRequest(
            request_id=str(uuid.uuid4()), profile_id=pid, item=baby_content_pb2.RegistryItem(
                name="Stroller", link_url="https://shop.example/stroller")),
            metadata=bearer(mum), timeout=10).item
        assert stream.next().kind == Kind.BABY_ACTIVITY_KIND_REGISTRY_ITEM_ADDED
        bought = family.PurchaseRegistryItem(baby_content_pb2.PurchaseRegistryItemRequest(
            profile_id=pid, item_id=item.item_id), metadata=bearer(grandma), timeout=10).item
        assert bought.purchase.purchased_by_user_id == grandma_id
        purchase = stream.next()
        assert (purchase.kind, purchase.actor_id) == (Kind.BABY_ACTIVITY_KIND_REGISTRY_ITEM_PURCHASED, grandma_id)
    finally:
        stream.close()

    with pytest.raises(grpc.RpcError) as refused:
        family.GetBabyProfile(baby_profiles_pb2.GetBabyProfileRequest(profile_id=pid),
                              metadata=bearer(stranger), timeout=10)
    assert refused.value.code() == grpc.StatusCode.NOT_FOUND
