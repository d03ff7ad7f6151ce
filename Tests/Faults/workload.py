"""What the steady client does: two adults message each other, one keeps a baby profile's calendar, new people
sign up (identity sends each a verification mail), and everyone reads, including social's user search, which
asks identity on every call, and a gamification read. Writes carry a request_id and text unique to them, so
the database shows whether each was applied once.
"""

import datetime
import time
import uuid

import grpc

from family_support import signed_up
from google.protobuf import timestamp_pb2
from google.type import date_pb2
from kindred.common.v1 import paging_pb2
from kindred.family.v1 import baby_content_pb2, baby_profiles_pb2, family_pb2_grpc
from kindred.gamification.v1 import gamification_pb2_grpc, usage_pb2
from kindred.identity.v1 import identity_pb2, identity_pb2_grpc
from kindred.social.v1 import social_pb2, social_pb2_grpc
from rpc_support import bearer
from steady_client import SteadyClient, Write


def identity(channel):
    return identity_pb2_grpc.IdentityServiceStub(channel)


def family(channel):
    return family_pb2_grpc.FamilyServiceStub(channel)


def social(channel):
    return social_pb2_grpc.SocialServiceStub(channel)


def gamification(channel):
    return gamification_pb2_grpc.GamificationServiceStub(channel)


class People:
    """Two signed-up adults, Ada and Ben, and a baby profile Ada owns."""

    def __init__(self, stack):
        self.stack = stack
        with grpc.insecure_channel(stack.services["identity"].address) as channel:
            self.ada_id, _, self.ada_token = signed_up(identity(channel), 34)
            self.ben_id, _, self.ben_token = signed_up(identity(channel), 36)
        with grpc.insecure_channel(stack.services["family"].address) as channel:
            self.profile_id = family(channel).CreateBabyProfile(baby_profiles_pb2.CreateBabyProfileRequest(
                request_id=str(uuid.uuid4()), name="Fault"), metadata=bearer(self.ada_token), timeout=10,
            ).profile.profile_id


def message(sender_token, recipient_id):
    request_id = str(uuid.uuid4())
    request = social_pb2.SendMessageRequest(request_id=request_id, recipient_user_id=recipient_id,
                                            text=f"fault message {request_id}")
    return Write("SendMessage", request_id, request,
                 lambda channel: lambda r, timeout: social(channel).SendMessage(
                     r, timeout=timeout, metadata=bearer(sender_token)),
                 lambda response: response.message.message_id)


def calendar_event(token, profile_id):
    request_id = str(uuid.uuid4())
    starts = timestamp_pb2.Timestamp(seconds=int(time.time()) + 30 * 86400)
    request = baby_content_pb2.CreateCalendarEventRequest(
        request_id=request_id, profile_id=profile_id, event=baby_content_pb2.CalendarEvent(
            name=f"fault {request_id}", start_time=starts, time_zone="Europe/Berlin"))
    return Write("CreateCalendarEvent", request_id, request,
                 lambda channel: lambda r, timeout: family(channel).CreateCalendarEvent(
                     r, timeout=timeout, metadata=bearer(token)),
                 lambda response: response.event.event_id)


def sign_up():
    request_id = str(uuid.uuid4())
    name = f"fault_{request_id[:8]}{request_id[9:13]}"
    born = datetime.date.today().year - 30
    request = identity_pb2.RegisterAccountRequest(
        request_id=request_id, email=f"{name}@example.com", username=name, password="correct horse 1",
        date_of_birth=date_pb2.Date(year=born, month=3, day=1))
    return Write("RegisterAccount", request_id, request,
                 lambda channel: lambda r, timeout: identity(channel).RegisterAccount(r, timeout=timeout),
                 lambda response: response.account.user_id)


def write_addresses(stack):
    """Where each kind of write goes."""
    return {"SendMessage": stack.services["social"].address,
            "CreateCalendarEvent": stack.services["family"].address,
            "RegisterAccount": stack.services["identity"].address}


def steady_client(stack, people):
    """The callers, one channel each: every service is written to or read from all the time."""
    address = {name: service.address for name, service in stack.services.items()}
    ada, ben = bearer(people.ada_token), bearer(people.ben_token)
    page = paging_pb2.PageRequest(page_size=20)
    client = SteadyClient()
    client.add("messages", address["social"],
               lambda c: c.write(message(people.ada_token, people.ben_id)),
               lambda c: c.read("ListConversations", lambda ch: lambda r, timeout: social(ch).ListConversations(
                   r, timeout=timeout, metadata=ben), social_pb2.ListConversationsRequest(page=page)))
    client.add("calendar", address["family"],
               lambda c: c.write(calendar_event(people.ada_token, people.profile_id)),
               lambda c: c.read("ListCalendarEvents", lambda ch: lambda r, timeout: family(ch).ListCalendarEvents(
                   r, timeout=timeout, metadata=ada),
                   baby_content_pb2.ListCalendarEventsRequest(profile_id=people.profile_id, page=page)))
    client.add("sign-ups", address["identity"],
               lambda c: c.write(sign_up()),
               lambda c: c.read("GetMe", lambda ch: lambda r, timeout: identity(ch).GetMe(
                   r, timeout=timeout, metadata=ben), identity_pb2.GetMeRequest()))
    client.add("search", address["social"],
               lambda c: c.read("SearchUsers", lambda ch: lambda r, timeout: social(ch).SearchUsers(
                   r, timeout=timeout, metadata=ben), social_pb2.SearchUsersRequest(username_prefix="fam_", page=page)))
    client.add("usage", address["gamification"],
               lambda c: c.read("GetUsageSettings", lambda ch: lambda r, timeout: gamification(ch).GetUsageSettings(
                   r, timeout=timeout, metadata=ada), usage_pb2.GetUsageSettingsRequest()))
    return client
