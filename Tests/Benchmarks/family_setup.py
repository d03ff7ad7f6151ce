"""Sets the scene for Tests/Benchmarks/family: a 15-year-old registered through identity (email verified from
the maildir), whose controls family made from identity's user.registered event. Prints, one per line: the
minor's id, the minor's access token, family's own service token; writes the framed GetParentalControls
request naming the minor to REQUEST_FILE.

  family_setup.py IDENTITY FAMILY MAILDIR CLIENT_ID CLIENT_SECRET REQUEST_FILE
"""

import datetime
import os
import pathlib
import struct
import sys
import time
import uuid

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "Interop"))
from stubs import generate_stubs  # noqa: E402

generate_stubs(pathlib.Path(__file__).resolve().parents[2] / "proto")

import grpc  # noqa: E402
from accounts_support import PASSWORD, mailed_token, register  # noqa: E402
from kindred.family.v1 import family_pb2, family_pb2_grpc  # noqa: E402
from kindred.identity.v1 import identity_pb2, identity_pb2_grpc  # noqa: E402


def main(identity_target, family_target, maildir, client_id, client_secret, request_file):
    os.environ["KINDRED_TEST_MAILDIR"] = maildir
    with grpc.insecure_channel(identity_target) as identity_channel, \
            grpc.insecure_channel(family_target) as family_channel:
        identity = identity_pb2_grpc.IdentityServiceStub(identity_channel)
        family = family_pb2_grpc.FamilyServiceStub(family_channel)
        name = "bench_" + uuid.uuid4().hex[:10]
        today = datetime.date.today()
        minor = register(identity, name, f"{name}@example.com", born=(today.year - 15, 1, 1))
        identity.VerifyEmail(identity_pb2.VerifyEmailRequest(token=mailed_token(f"{name}@example.com")), timeout=10)
        token = identity.Token(identity_pb2.TokenRequest(
            grant_type="password", username=name, password=PASSWORD), timeout=10).access_token
        service_token = identity.Token(identity_pb2.TokenRequest(
            grant_type="client_credentials", client_id=client_id, client_secret=client_secret),
            timeout=10).access_token
        request = family_pb2.GetParentalControlsRequest(user_id=minor.user_id)
        deadline = time.monotonic() + 30
        while True:
            controls = family.GetParentalControls(
                request, metadata=[("authorization", f"Bearer {service_token}")], timeout=10).controls
            if controls.active:
                break
            if time.monotonic() > deadline:
                sys.exit("family made no controls for the new minor within 30 s (is the identity consumer running?)")
            time.sleep(0.2)
        body = request.SerializeToString()
        pathlib.Path(request_file).write_bytes(struct.pack(">BI", 0, len(body)) + body)
        print(minor.user_id)
        print(token)
        print(service_token)


if __name__ == "__main__":
    main(*sys.argv[1:])
