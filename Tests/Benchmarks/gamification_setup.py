"""Sets the scene for Tests/Benchmarks/gamification through identity's RPCs: UPLOADERS (128) adults whose
devices upload usage, and one reader of friend leaderboards. Writes SCENE_JSON for kindred-social-bench's
`upload` scenario (the uploaders' ids and tokens; the social lists empty) and prints the reader's user id,
then their access token. The reader's 500 friends and their usage are seeded by SQL afterwards.

  gamification_setup.py IDENTITY MAILDIR SCENE_JSON
"""

import concurrent.futures
import datetime
import json
import os
import pathlib
import sys
import uuid

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "Interop"))
from stubs import generate_stubs  # noqa: E402

generate_stubs(pathlib.Path(__file__).resolve().parents[2] / "proto")

import grpc  # noqa: E402
from accounts_support import PASSWORD, mailed_token, register  # noqa: E402
from kindred.identity.v1 import identity_pb2, identity_pb2_grpc  # noqa: E402

UPLOADERS = int(os.environ.get("KINDRED_BENCH_UPLOADERS", "128"))


def signed_up(identity):
    """(user id, access token) of a new verified adult."""
    name = "bench_" + uuid.uuid4().hex[:10]
    email = f"{name}@example.com"
    account = register(identity, name, email, born=(datetime.date.today().year - 30, 1, 1))
    identity.VerifyEmail(identity_pb2.VerifyEmailRequest(token=mailed_token(email, seconds=60)), timeout=30)
    token = identity.Token(identity_pb2.TokenRequest(
        grant_type="password", username=name, password=PASSWORD), timeout=30).access_token
    return account.user_id, token


def main(identity_target, maildir, scene_path):
    os.environ["KINDRED_TEST_MAILDIR"] = maildir
    with grpc.insecure_channel(identity_target) as channel, \
            concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        identity = identity_pb2_grpc.IdentityServiceStub(channel)
        uploaders = list(pool.map(lambda _: signed_up(identity), range(UPLOADERS)))
        reader_id, reader_token = signed_up(identity)
    scene = {
        "unrestricted": [], "restricted": [], "refused": [], "watched": [],
        "uploaders": [{"id": user_id, "token": token} for user_id, token in uploaders],
    }
    pathlib.Path(scene_path).write_text(json.dumps(scene))
    print(reader_id)
    print(reader_token)


if __name__ == "__main__":
    main(*sys.argv[1:])
