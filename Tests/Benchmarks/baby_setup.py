"""Sets the scene for Tests/Benchmarks/baby: adults registered through identity (email verified from the
maildir), then fresh access tokens for them whenever a phase of the benchmark starts (they last 15 minutes).

  baby_setup.py register IDENTITY MAILDIR COUNT USERS_FILE   writes "user_id username" per adult
  baby_setup.py tokens IDENTITY USERS_FILE                   prints "user_id access_token" per adult
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


def register_adults(identity_target, maildir, count, users_file):
    os.environ["KINDRED_TEST_MAILDIR"] = maildir
    lines = []
    with grpc.insecure_channel(identity_target) as channel:
        identity = identity_pb2_grpc.IdentityServiceStub(channel)
        for _ in range(int(count)):
            name = "baby_" + uuid.uuid4().hex[:10]
            account = register(identity, name, f"{name}@example.com")
            identity.VerifyEmail(identity_pb2.VerifyEmailRequest(token=mailed_token(f"{name}@example.com")),
                                 timeout=10)
            lines.append(f"{account.user_id} {name}\n")
    pathlib.Path(users_file).write_text("".join(lines))


def tokens(identity_target, users_file):
    with grpc.insecure_channel(identity_target) as channel:
        identity = identity_pb2_grpc.IdentityServiceStub(channel)
        for line in pathlib.Path(users_file).read_text().splitlines():
            user_id, name = line.split()
            token = identity.Token(identity_pb2.TokenRequest(
                grant_type="password", username=name, password=PASSWORD), timeout=10).access_token
            print(user_id, token)


if __name__ == "__main__":
    if sys.argv[1] == "register":
        register_adults(*sys.argv[2:])
    else:
        tokens(*sys.argv[2:])
