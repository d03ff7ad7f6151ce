"""kindred-identity's account side from outside, as a stock grpcio client sees it: the whole walk from
registration through the verification mail in the maildir to sign-in, GetMe, refresh and sign-out, and the
refusals an app has to show.

Needs the identity target in KINDRED_INTEROP_TARGETS and the services' maildir in KINDRED_TEST_MAILDIR;
Tests/run sets them.
"""

import base64
import hashlib
import json
import os
import struct
import subprocess
import time
import uuid

import grpc
import nacl.bindings
import nacl.signing
import pytest

from accounts_support import PASSWORD, mailed_token, person, register  # noqa: F401 (person is a fixture)
from google.type import date_pb2
from kindred.identity.v1 import identity_pb2
from rpc_support import b64url, bearer, refusal, unb64url

def test_register_verify_sign_in_read_refresh_and_sign_out(identity, person):
    username, email = person
    account = register(identity, username, email)
    assert account.age_band == identity_pb2.AGE_BAND_18_PLUS and not account.email_verified

    unverified = refusal(lambda: identity.Token(identity_pb2.TokenRequest(
        grant_type="password", username=username, password=PASSWORD), timeout=10))
    assert unverified[:2] == (grpc.StatusCode.FAILED_PRECONDITION, "EMAIL_NOT_VERIFIED")

    verified = identity.VerifyEmail(identity_pb2.VerifyEmailRequest(token=mailed_token(email)), timeout=10)
    assert verified.user_id == account.user_id

    tokens = identity.Token(identity_pb2.TokenRequest(
        grant_type="password", username=email, password=PASSWORD), timeout=10)
    me = identity.GetMe(identity_pb2.GetMeRequest(), metadata=bearer(tokens.access_token), timeout=10).account
    assert (me.user_id, me.username, me.email_verified) == (account.user_id, username, True)

    refreshed = identity.Token(identity_pb2.TokenRequest(
        grant_type="refresh_token", refresh_token=tokens.refresh_token), timeout=10)
    signed_out = identity.SignOutEverywhere(
        identity_pb2.SignOutEverywhereRequest(), metadata=bearer(refreshed.access_token), timeout=10)
    assert signed_out.revoked_refresh_tokens == 1
    after = refusal(lambda: identity.Token(identity_pb2.TokenRequest(
        grant_type="refresh_token", refresh_token=refreshed.refresh_token), timeout=10))
    assert after[:2] == (grpc.StatusCode.UNAUTHENTICATED, "REFRESH_TOKEN_INVALID")


def signed_in(identity, person):
    """A verified account's access token."""
    username, email = person
    register(identity, username, email)
    identity.VerifyEmail(identity_pb2.VerifyEmailRequest(token=mailed_token(email)), timeout=10)
    return identity.Token(identity_pb2.TokenRequest(
        grant_type="password", username=username, password=PASSWORD), timeout=10).access_token


def test_a_tampered_or_unsigned_token_cannot_read_an_account(identity, person):
    token = signed_in(identity, person)
    header, claims, signature = token.split(".")
    forged = json.loads(unb64url(claims))
    forged["role"] = "admin"
    tampered = ".".join([header, b64url(json.dumps(forged).encode()), signature])
    none_header = b64url(b'{"alg":"none","typ":"JWT"}')
    for bad, reason in ((tampered, "TOKEN_BAD_SIGNATURE"), (f"{none_header}.{claims}.", "TOKEN_UNSUPPORTED_ALGORITHM")):
        answer = refusal(lambda: identity.GetMe(identity_pb2.GetMeRequest(), metadata=bearer(bad), timeout=10))
        assert answer[:2] == (grpc.StatusCode.UNAUTHENTICATED, reason)


def identity_signing_key(kid):
    """identity's own Ed25519 key for `kid`, opened the way identity opens it: the seed sealed with
    XChaCha20-Poly1305 under a crypto_kdf subkey (id 0, context "kdsecret") of KINDRED_IDENTITY_SECRET_KEY,
    with the kid as associated data. Read from the database as the identity role."""
    url, secret = os.environ.get("KINDRED_LIFECYCLE_DATABASE_URL", ""), os.environ.get("KINDRED_IDENTITY_SECRET_KEY", "")
    if not url or not secret:
        pytest.fail("KINDRED_LIFECYCLE_DATABASE_URL and KINDRED_IDENTITY_SECRET_KEY must be set (Tests/run sets them)")
    result = subprocess.run(["psql", url, "-X", "-tA", "-v", f"kid={kid}"], capture_output=True, text=True, timeout=30,
                            input="SELECT encode(sealed_seed, 'hex') FROM identity.signing_keys WHERE kid = :'kid';")
    assert result.returncode == 0 and result.stdout.strip(), result.stderr
    sealed = bytes.fromhex(result.stdout.strip())
    sealing_key = hashlib.blake2b(b"", digest_size=32, key=base64.b64decode(secret),
                                  salt=struct.pack("<Q", 0) + bytes(8), person=b"kdsecret" + bytes(8)).digest()
    seed = nacl.bindings.crypto_aead_xchacha20poly1305_ietf_decrypt(sealed[24:], kid.encode(), sealed[:24], sealing_key)
    return nacl.signing.SigningKey(seed)


def test_an_expired_token_signed_by_identity_is_unauthenticated(identity, person):
    token = signed_in(identity, person)
    header, claims, _ = token.split(".")
    key = identity_signing_key(json.loads(unb64url(header))["kid"])

    def resigned(**changes):
        body = {**json.loads(unb64url(claims)), **changes}
        signing_input = f"{header}.{b64url(json.dumps(body, separators=(',', ':')).encode())}"
        return f"{signing_input}.{b64url(key.sign(signing_input.encode()).signature)}"

    # Re-signed but unexpired, it is served: so the refusal below is the expiry's and nothing else's.
    now = int(time.time())
    identity.GetMe(identity_pb2.GetMeRequest(), metadata=bearer(resigned(iat=now - 60, exp=now + 600)), timeout=10)
    expired = resigned(iat=now - 3600, exp=now - 1800)
    answer = refusal(lambda: identity.GetMe(identity_pb2.GetMeRequest(), metadata=bearer(expired), timeout=10))
    assert answer[:2] == (grpc.StatusCode.UNAUTHENTICATED, "TOKEN_EXPIRED")


def test_every_bad_field_is_named_and_an_under_13_is_told_why(identity, person):
    bad = identity_pb2.RegisterAccountRequest(
        request_id="r", email="not-an-email", username="x", password="short",
        date_of_birth=date_pb2.Date(year=2023, month=2, day=29))
    code, _, fields = refusal(lambda: identity.RegisterAccount(bad, timeout=10))
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert fields == ["email", "username", "password", "date_of_birth"]

    username, email = person
    young = time.gmtime()
    with pytest.raises(grpc.RpcError) as raised:
        register(identity, username, email, born=(young.tm_year - 10, 1, 1))
    assert raised.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert raised.value.details() == "You must be at least 13 years old to have a Kindred account."


def test_a_retried_registration_returns_the_first_account(identity, person):
    username, email = person
    request = identity_pb2.RegisterAccountRequest(
        request_id=str(uuid.uuid4()), email=email, username=username, password=PASSWORD,
        date_of_birth=date_pb2.Date(year=1990, month=4, day=12))
    first = identity.RegisterAccount(request, timeout=10).account
    assert identity.RegisterAccount(request, timeout=10).account.user_id == first.user_id
    taken = refusal(lambda: register(identity, username, f"other_{email}"))
    assert taken[:2] == (grpc.StatusCode.ALREADY_EXISTS, "USERNAME_TAKEN")


def test_resend_verification_answers_the_same_for_any_address(identity, person):
    username, email = person
    register(identity, username, email)
    for address in (email, f"nobody_{email}"):
        assert identity.ResendVerification(identity_pb2.ResendVerificationRequest(email=address), timeout=10) \
            == identity_pb2.ResendVerificationResponse()
