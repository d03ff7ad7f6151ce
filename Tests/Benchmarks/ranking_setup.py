"""Sets the scene for Tests/Benchmarks/ranking: one verified adult signed in through identity's RPCs. Prints their
access token; the million ranked users are seeded by SQL (the script, after gamification migrated).

  ranking_setup.py IDENTITY MAILDIR
"""

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


def main(identity_target, maildir):
    os.environ["KINDRED_TEST_MAILDIR"] = maildir
    with grpc.insecure_channel(identity_target) as channel:
        identity = identity_pb2_grpc.IdentityServiceStub(channel)
        name = "bench_" + uuid.uuid4().hex[:10]
        email = f"{name}@example.com"
        register(identity, name, email)
        identity.VerifyEmail(identity_pb2.VerifyEmailRequest(token=mailed_token(email, seconds=60)), timeout=30)
        print(identity.Token(identity_pb2.TokenRequest(
            grant_type="password", username=name, password=PASSWORD), timeout=30).access_token)


if __name__ == "__main__":
    main(*sys.argv[1:])
