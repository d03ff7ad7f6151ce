"""kindred-social from outside, as a stock grpcio client sees it: the restricted-minor walk of issue 5. A
15-year-old (every restriction on, a guardian linked) may not message a stranger nor be messaged by one, may
message someone they follow; may create a private event but not a public one; joining a stranger's public
event needs the guardian's approval, which family records and social honours; the join reaches the guardian
as an alert.

Needs the identity, family and social targets in KINDRED_INTEROP_TARGETS and the services' maildir in
KINDRED_TEST_MAILDIR; Tests/run sets them.
"""

import time
import uuid

import grpc

from family_support import controls_of, link_guardian, signed_up
from google.protobuf import timestamp_pb2
from kindred.family.v1 import family_pb2
from kindred.social.v1 import social_pb2
from rpc_support import bearer, error_info, refusal

RESTRICTED = (grpc.StatusCode.PERMISSION_DENIED, "PARENTAL_CONTROLS_MESSAGING_RESTRICTED")


def send(social, token, to, text):
    return social.SendMessage(social_pb2.SendMessageRequest(
        request_id=str(uuid.uuid4()), recipient_user_id=to, text=text), metadata=bearer(token), timeout=10).message


def event_request(visibility, title):
    return social_pb2.CreateEventRequest(
        request_id=str(uuid.uuid4()), title=title, description="Bring gloves", place="North beach",
        starts_at=timestamp_pb2.Timestamp(seconds=int(time.time()) + 7 * 86400), visibility=visibility)


def guardian_alerts(family, guardian_token, kind, seconds=15):
    """The guardian's notifications of `kind`, once family's consumer of social's events has posted one."""
    deadline = time.monotonic() + seconds
    while True:
        notes = family.ListNotifications(
            family_pb2.ListNotificationsRequest(), metadata=bearer(guardian_token), timeout=10).notifications
        found = [note for note in notes if note.kind == kind]
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def test_restricted_minor_messages_creates_events_and_joins_with_the_guardians_approval(identity, family, social):
    minor_id, _, minor_token = signed_up(identity, 15)
    controls = controls_of(family, minor_token)
    assert controls.messaging_followed_only and controls.public_events_restricted
    assert controls.event_join_approval_required
    _, guardian_email, guardian_token = signed_up(identity, 42)
    link_guardian(family, minor_token, guardian_email, guardian_token)
    stranger_id, _, stranger_token = signed_up(identity, 35)
    friend_id, _, friend_token = signed_up(identity, 19)

    # Messaging: strangers are refused both ways, and the refusal does not say whose settings refused it.
    assert refusal(lambda: send(social, minor_token, stranger_id, "hi"))[:2] == RESTRICTED
    assert refusal(lambda: send(social, stranger_token, minor_id, "hi"))[:2] == RESTRICTED
    social.Follow(social_pb2.FollowRequest(user_id=friend_id), metadata=bearer(minor_token), timeout=10)
    sent = send(social, minor_token, friend_id, "see you at the beach?")
    reply = send(social, friend_token, minor_id, "yes!")
    assert sent.conversation_id == reply.conversation_id
    listed = social.ListMessages(social_pb2.ListMessagesRequest(
        conversation_id=sent.conversation_id), metadata=bearer(minor_token), timeout=10).messages
    assert [message.text for message in listed] == ["yes!", "see you at the beach?"]

    # Events: private yes, public no.
    public = social_pb2.EVENT_VISIBILITY_PUBLIC
    assert refusal(lambda: social.CreateEvent(event_request(public, "Open party"), metadata=bearer(minor_token),
                                              timeout=10))[:2] == (
        grpc.StatusCode.PERMISSION_DENIED, "PARENTAL_CONTROLS_PUBLIC_EVENT_RESTRICTED")
    private = social.CreateEvent(event_request(social_pb2.EVENT_VISIBILITY_PRIVATE, "Study group"),
                                 metadata=bearer(minor_token), timeout=10).event
    assert private.visibility == social_pb2.EVENT_VISIBILITY_PRIVATE

    # Joining a stranger's public event: the guardian is asked first.
    cleanup = social.CreateEvent(event_request(public, "Beach cleanup"), metadata=bearer(stranger_token),
                                 timeout=10).event
    join = social_pb2.JoinEventRequest(event_id=cleanup.event_id)
    refused = refusal(lambda: social.JoinEvent(join, metadata=bearer(minor_token), timeout=10))
    assert refused[:2] == (grpc.StatusCode.FAILED_PRECONDITION, "GUARDIAN_APPROVAL_REQUIRED")
    # Asking again names the same pending request rather than a second one.
    _, metadata = error_info(lambda: social.JoinEvent(join, metadata=bearer(minor_token), timeout=10))
    approval_id = metadata["approval_id"]
    pending = family.ListApprovalRequests(family_pb2.ListApprovalRequestsRequest(),
                                          metadata=bearer(guardian_token), timeout=10).approvals
    assert [(a.approval_id, a.subject_id, a.kind) for a in pending] == [
        (approval_id, cleanup.event_id, family_pb2.APPROVAL_KIND_JOIN_EVENT)]

    family.DecideApprovalRequest(family_pb2.DecideApprovalRequestRequest(approval_id=approval_id, approve=True),
                                 metadata=bearer(guardian_token), timeout=10)
    joined = social.JoinEvent(join, metadata=bearer(minor_token), timeout=10).event
    assert joined.joined and joined.attendee_count == 1

    # Family tells the guardian, from social's event.joined.
    alerts = guardian_alerts(family, guardian_token, family_pb2.NOTIFICATION_KIND_MINOR_JOINED_PUBLIC_EVENT)
    assert [alert.subject_user_id for alert in alerts] == [minor_id]
