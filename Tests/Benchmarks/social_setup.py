"""Sets the scene for Tests/Benchmarks/social through the services' own RPCs: 32 adults and 32 fifteen-year-olds
(every parental restriction on, from family), each minor following 4 adults; 10 events by each adult (half
public, every fifth mature); and KINDRED_BENCH_WATCHED (100) more adults whose WatchMessages streams the 32
adults' messages reach. Writes SCENE_JSON for kindred-social-bench (who sends to whom, who is watched) and
prints, one per line, the access tokens of the feed readers: an adult following 16 organizers, then a minor
following 4.

  social_setup.py IDENTITY FAMILY SOCIAL MAILDIR SCENE_JSON
"""

import concurrent.futures
import datetime
import json
import os
import pathlib
import sys
import time
import uuid

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "Interop"))
from stubs import generate_stubs  # noqa: E402

generate_stubs(pathlib.Path(__file__).resolve().parents[2] / "proto")

import grpc  # noqa: E402
from accounts_support import PASSWORD, mailed_token, register  # noqa: E402
from google.protobuf import timestamp_pb2  # noqa: E402
from kindred.family.v1 import family_pb2, family_pb2_grpc  # noqa: E402
from kindred.identity.v1 import identity_pb2, identity_pb2_grpc  # noqa: E402
from kindred.social.v1 import social_pb2, social_pb2_grpc  # noqa: E402

PEOPLE = 32
WATCHED = int(os.environ.get("KINDRED_BENCH_WATCHED", "100"))


def bearer(token):
    return [("authorization", f"Bearer {token}")]


def signed_up(identity, age):
    """(user id, access token) of a new verified account `age` years old."""
    name = "bench_" + uuid.uuid4().hex[:10]
    email = f"{name}@example.com"
    account = register(identity, name, email, born=(datetime.date.today().year - age, 1, 1))
    identity.VerifyEmail(identity_pb2.VerifyEmailRequest(token=mailed_token(email, seconds=60)), timeout=30)
    token = identity.Token(identity_pb2.TokenRequest(
        grant_type="password", username=name, password=PASSWORD), timeout=30).access_token
    return account.user_id, token


def wait_for_controls(family, token):
    deadline = time.monotonic() + 30
    while not family.GetParentalControls(
            family_pb2.GetParentalControlsRequest(), metadata=bearer(token), timeout=10).controls.active:
        if time.monotonic() > deadline:
            sys.exit("family made no controls for a new minor within 30 s")
        time.sleep(0.2)


def create_events(social, token, index):
    for number in range(10):
        social.CreateEvent(social_pb2.CreateEventRequest(
            request_id=str(uuid.uuid4()), title=f"Meetup {index}.{number}", description="Bring a friend",
            place="Town hall", starts_at=timestamp_pb2.Timestamp(seconds=int(time.time()) + 86400 * (number + 1)),
            visibility=social_pb2.EVENT_VISIBILITY_PUBLIC if number % 2 == 0 else social_pb2.EVENT_VISIBILITY_PRIVATE,
            mature=number % 5 == 0), metadata=bearer(token), timeout=30)


def main(identity_target, family_target, social_target, maildir, scene_path):
    os.environ["KINDRED_TEST_MAILDIR"] = maildir
    with grpc.insecure_channel(identity_target) as identity_channel, \
            grpc.insecure_channel(family_target) as family_channel, \
            grpc.insecure_channel(social_target) as social_channel, \
            concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        identity = identity_pb2_grpc.IdentityServiceStub(identity_channel)
        family = family_pb2_grpc.FamilyServiceStub(family_channel)
        social = social_pb2_grpc.SocialServiceStub(social_channel)
        adults = list(pool.map(lambda _: signed_up(identity, 30), range(PEOPLE)))
        minors = list(pool.map(lambda _: signed_up(identity, 15), range(PEOPLE)))
        watched = list(pool.map(lambda _: signed_up(identity, 40), range(WATCHED)))
        list(pool.map(lambda minor: wait_for_controls(family, minor[1]), minors))
        list(pool.map(lambda pair: create_events(social, pair[1][1], pair[0]), enumerate(adults)))

        def others(index, offset):
            return [adults[(index + offset + step) % PEOPLE][0] for step in range(1, 5)]

        for index, (_, token) in enumerate(minors):
            for followed in others(index, 0):
                social.Follow(social_pb2.FollowRequest(user_id=followed), metadata=bearer(token), timeout=30)
        _, reader_token = adults[0]
        for followed, _ in adults[1:17]:
            social.Follow(social_pb2.FollowRequest(user_id=followed), metadata=bearer(reader_token), timeout=30)
        scene = {
            "unrestricted": [{"token": token, "recipients": others(i, 0)} for i, (_, token) in enumerate(adults)],
            "restricted": [{"token": token, "recipients": others(i, 0)} for i, (_, token) in enumerate(minors)],
            "refused": [{"token": token, "recipients": others(i, 8)} for i, (_, token) in enumerate(minors)],
            "watched": [{"id": user_id, "token": token} for user_id, token in watched],
        }
        pathlib.Path(scene_path).write_text(json.dumps(scene))
        print(reader_token)
        print(minors[0][1])


if __name__ == "__main__":
    main(*sys.argv[1:])
