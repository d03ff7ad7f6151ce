"""The gallery's social side walked from a stock grpcio client: an owner uploads a photo, two followers squish
it (once each, however often they press), and the owner announces the arrival while a follower's activity
stream and home show each step.

Needs the identity and family targets in KINDRED_INTEROP_TARGETS and the services' maildir in
KINDRED_TEST_MAILDIR; Tests/run sets them.
"""

import datetime
import io
import uuid

from PIL import Image

from baby_support import ActivityStream, invite_and_accept
from family_support import signed_up
from google.type import date_pb2
from kindred.family.v1 import baby_activity_pb2, baby_arrival_pb2, baby_profiles_pb2
from rpc_support import bearer
from test_gallery_wire import upload

Kind = baby_activity_pb2.BabyActivityKind


def small_jpeg():
    out = io.BytesIO()
    Image.new("RGB", (64, 48), (200, 120, 90)).save(out, "JPEG", quality=90)
    return out.getvalue()


def next_of_kind(stream, kind):
    """The stream's next entry of `kind`, passing over the others (entries from before it opened)."""
    entry = stream.next()
    while entry.kind != kind:
        entry = stream.next()
    return entry


def test_two_followers_squish_a_photo_and_the_arrival_reaches_a_followers_stream_and_home(identity, family):
    _, _, mum = signed_up(identity, 31)
    grandma_id, grandma_email, grandma = signed_up(identity, 66)
    grandpa_id, grandpa_email, grandpa = signed_up(identity, 68)
    profile = family.CreateBabyProfile(baby_profiles_pb2.CreateBabyProfileRequest(
        request_id=str(uuid.uuid4())), metadata=bearer(mum), timeout=10).profile.profile_id
    invite_and_accept(family, mum, profile, grandma_email, grandma, baby_profiles_pb2.BABY_ROLE_FOLLOWER,
                      baby_profiles_pb2.RELATIONSHIP_GRANDMA)
    invite_and_accept(family, mum, profile, grandpa_email, grandpa, baby_profiles_pb2.BABY_ROLE_FOLLOWER,
                      baby_profiles_pb2.RELATIONSHIP_GRANDPA)
    photo = upload(family, mum, profile, small_jpeg(), caption="First scan")

    stream = ActivityStream(family, grandma, profile)
    try:
        for follower, follower_id in ((grandma, grandma_id), (grandpa, grandpa_id)):
            for _ in range(2):  # pressing twice squishes once
                squished = family.SquishPhoto(baby_arrival_pb2.SquishPhotoRequest(
                    profile_id=profile, photo_id=photo.photo_id), metadata=bearer(follower), timeout=10)
                assert squished.squished_by_me
            assert next_of_kind(stream, Kind.BABY_ACTIVITY_KIND_PHOTO_SQUISHED).actor_id == follower_id
        assert squished.squish_count == 2

        today = datetime.date.today()
        family.AnnounceArrival(baby_arrival_pb2.AnnounceArrivalRequest(
            profile_id=profile, arrival=baby_arrival_pb2.BabyArrival(
                name="Olivia", birth_date=date_pb2.Date(year=today.year, month=today.month, day=today.day),
                weight_grams=3450, photo_id=photo.photo_id, message="She is here!")),
            metadata=bearer(mum), timeout=10)
        arrived = next_of_kind(stream, Kind.BABY_ACTIVITY_KIND_BABY_ARRIVED)
        assert arrived.detail == "Olivia"
    finally:
        stream.close()

    home = family.GetHome(baby_activity_pb2.GetHomeRequest(profile_id=profile), metadata=bearer(grandma),
                          timeout=10)
    assert [(a.name, a.photo_id, a.weight_grams) for a in home.arrivals] == [("Olivia", photo.photo_id, 3450)]
