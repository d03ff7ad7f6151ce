"""kindred-family's baby-profile content (issue 13: calendar, comments, registry) as a stock grpcio client sees
it: a signed-up stranger asking about a profile they do not belong to hears NOT_FOUND BABY_PROFILE_NOT_FOUND
from every one of the sixteen RPCs, and a malformed request names each bad field in one INVALID_ARGUMENT. The
walk of a family through a shared profile needs the profile and invitation RPCs too: it is written after the
three parts of the issue are merged.

Needs the identity and family targets in KINDRED_INTEROP_TARGETS and the services' maildir in
KINDRED_TEST_MAILDIR; Tests/run sets them.
"""

import uuid

import grpc

from family_support import signed_up
from google.protobuf import field_mask_pb2, timestamp_pb2
from kindred.family.v1 import baby_content_pb2 as content
from rpc_support import bearer, refusal


def calls(family, token, profile, thing):
    """Every content RPC, as a call of no arguments, on `profile` and content id `thing`."""
    meta = bearer(token)
    event = content.CalendarEvent(
        name="Baby shower", start_time=timestamp_pb2.Timestamp(seconds=2_000_000_000), time_zone="Europe/Paris")
    target = content.CommentTarget(profile_id=profile, calendar_event_id=thing)
    return {
        "CreateCalendarEvent": lambda: family.CreateCalendarEvent(
            content.CreateCalendarEventRequest(request_id="r", profile_id=profile, event=event), metadata=meta),
        "GetCalendarEvent": lambda: family.GetCalendarEvent(
            content.GetCalendarEventRequest(profile_id=profile, event_id=thing), metadata=meta),
        "UpdateCalendarEvent": lambda: family.UpdateCalendarEvent(
            content.UpdateCalendarEventRequest(
                profile_id=profile, event_id=thing, update_mask=field_mask_pb2.FieldMask(paths=["name"]),
                event=event), metadata=meta),
        "DeleteCalendarEvent": lambda: family.DeleteCalendarEvent(
            content.DeleteCalendarEventRequest(profile_id=profile, event_id=thing), metadata=meta),
        "ListCalendarEvents": lambda: family.ListCalendarEvents(
            content.ListCalendarEventsRequest(profile_id=profile), metadata=meta),
        "SetRsvp": lambda: family.SetRsvp(
            content.SetRsvpRequest(profile_id=profile, event_id=thing, answer=content.RSVP_ANSWER_MAYBE),
            metadata=meta),
        "ListRsvps": lambda: family.ListRsvps(
            content.ListRsvpsRequest(profile_id=profile, event_id=thing), metadata=meta),
        "AddComment": lambda: family.AddComment(
            content.AddCommentRequest(request_id="r", target=target, text="Hello"), metadata=meta),
        "ListComments": lambda: family.ListComments(content.ListCommentsRequest(target=target), metadata=meta),
        "DeleteComment": lambda: family.DeleteComment(
            content.DeleteCommentRequest(profile_id=profile, comment_id=thing), metadata=meta),
        "CreateRegistryItem": lambda: family.CreateRegistryItem(
            content.CreateRegistryItemRequest(
                request_id="r", profile_id=profile, item=content.RegistryItem(name="Pram")), metadata=meta),
        "UpdateRegistryItem": lambda: family.UpdateRegistryItem(
            content.UpdateRegistryItemRequest(
                profile_id=profile, item_id=thing, update_mask=field_mask_pb2.FieldMask(paths=["name"]),
                item=content.RegistryItem(name="Cot")),
            metadata=meta),
        "DeleteRegistryItem": lambda: family.DeleteRegistryItem(
            content.DeleteRegistryItemRequest(profile_id=profile, item_id=thing), metadata=meta),
        "ListRegistryItems": lambda: family.ListRegistryItems(
            content.ListRegistryItemsRequest(profile_id=profile), metadata=meta),
        "PurchaseRegistryItem": lambda: family.PurchaseRegistryItem(
            content.PurchaseRegistryItemRequest(profile_id=profile, item_id=thing), metadata=meta),
        "UndoRegistryPurchase": lambda: family.UndoRegistryPurchase(
            content.UndoRegistryPurchaseRequest(profile_id=profile, item_id=thing), metadata=meta),
    }


def test_a_stranger_hears_not_found_from_every_content_rpc(identity, family):
    _, _, token = signed_up(identity, 40)
    every = calls(family, token, str(uuid.uuid4()), str(uuid.uuid4()))
    assert len(every) == 16
    for name, call in every.items():
        assert refusal(call) == (grpc.StatusCode.NOT_FOUND, "BABY_PROFILE_NOT_FOUND", []), name


def test_every_bad_field_of_a_registry_item_is_named_in_one_answer(identity, family):
    _, _, token = signed_up(identity, 40)
    bad = content.CreateRegistryItemRequest(
        request_id="", profile_id="nope", item=content.RegistryItem(name=" ", link_url="http://shop.example.com"))
    assert refusal(lambda: family.CreateRegistryItem(bad, metadata=bearer(token))) == (
        grpc.StatusCode.INVALID_ARGUMENT, None, ["request_id", "profile_id", "item.name", "item.link_url"])


def test_spanning_lists_of_someone_with_no_profile_are_empty(identity, family):
    _, _, token = signed_up(identity, 40)
    assert list(family.ListRegistryItems(content.ListRegistryItemsRequest(), metadata=bearer(token)).items) == []
    assert list(family.ListCalendarEvents(content.ListCalendarEventsRequest(), metadata=bearer(token)).events) == []
