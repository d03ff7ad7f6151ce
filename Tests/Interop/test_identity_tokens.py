"""kindred-identity's token side from outside, as a stock grpcio client sees it: GetSigningKeys, the Token grants'
answers, RevokeToken, and a start without a secret key.

Needs the identity target in KINDRED_INTEROP_TARGETS, the family client's credentials in KINDRED_CLIENT_ID and
KINDRED_CLIENT_SECRET (the ones deploy/local gives kindred-family), and for the start test KINDRED_BIN_DIR and
KINDRED_LIFECYCLE_DATABASE_URL; Tests/run sets them all.
"""

import hashlib
import json
import os
import subprocess
import time

import grpc
import pytest

from kindred.identity.v1 import identity_pb2
from accounts_support import service_token
from free_port import free_port
from rpc_support import b64url, refusal, unb64url


def test_signing_keys_are_ed25519_public_keys_named_by_their_derived_kid(identity):
    keys = identity.GetSigningKeys(identity_pb2.GetSigningKeysRequest(), timeout=10).keys
    assert keys, "identity publishes no signing key"
    for key in keys:
        assert key.alg == "EdDSA" and len(key.public_key) == 32
        assert key.kid == b64url(hashlib.blake2b(key.public_key, digest_size=32).digest()[:12])
        assert key.created_at.seconds > 0


def test_a_configured_service_gets_a_service_token_and_no_refresh_token(identity):
    client_id, secret = os.environ.get("KINDRED_CLIENT_ID", ""), os.environ.get("KINDRED_CLIENT_SECRET", "")
    assert client_id and secret, "KINDRED_CLIENT_ID and KINDRED_CLIENT_SECRET must be set (Tests/run sets them)"
    answer = identity.Token(identity_pb2.TokenRequest(grant_type="client_credentials", client_id=client_id,
                                                      client_secret=secret), timeout=10)
    assert answer.token_type == "Bearer" and answer.expires_in == 900 and answer.refresh_token == ""
    header_text, claims_text, _ = answer.access_token.split(".")
    header, claims = json.loads(unb64url(header_text)), json.loads(unb64url(claims_text))
    signer = identity.GetSigningKeys(identity_pb2.GetSigningKeysRequest(), timeout=10).keys[0]
    assert header == {"alg": "EdDSA", "kid": signer.kid, "typ": "JWT"}
    assert claims["sub"] == client_id and claims["role"] == "service" and claims["scope"] == "full"
    assert claims["exp"] - claims["iat"] == 900 and claims["jti"]


@pytest.mark.parametrize("request_fields, expected", [
    (dict(grant_type="client_credentials", client_id="family", client_secret="not-the-secret"),
     (grpc.StatusCode.UNAUTHENTICATED, "INVALID_CLIENT")),
    (dict(grant_type="client_credentials", client_id="nobody", client_secret="not-the-secret"),
     (grpc.StatusCode.UNAUTHENTICATED, "INVALID_CLIENT")),
    (dict(grant_type="password", username="nobody_at_all", password="guess 123"),
     (grpc.StatusCode.UNAUTHENTICATED, "INVALID_CREDENTIALS")),
    (dict(grant_type="refresh_token", refresh_token="bm90LWEtdG9rZW4"),
     (grpc.StatusCode.UNAUTHENTICATED, "REFRESH_TOKEN_INVALID")),
    (dict(grant_type="authorization_code"), (grpc.StatusCode.INVALID_ARGUMENT, None)),
    (dict(grant_type="password", username="someone"), (grpc.StatusCode.INVALID_ARGUMENT, None)),
])
def test_refused_grants_say_why_in_a_status_and_a_reason(identity, request_fields, expected):
    assert refusal(lambda: identity.Token(identity_pb2.TokenRequest(**request_fields), timeout=10))[:2] == expected


def test_revoking_an_unknown_refresh_token_answers_ok(identity):
    identity.RevokeToken(identity_pb2.RevokeTokenRequest(refresh_token="bm90LWEtdG9rZW4"), timeout=10)


def test_identity_without_a_secret_key_is_one_line_naming_it_and_exit_1():
    bin_dir, url = os.environ.get("KINDRED_BIN_DIR", ""), os.environ.get("KINDRED_LIFECYCLE_DATABASE_URL", "")
    if not bin_dir or not url:
        pytest.fail("KINDRED_BIN_DIR and KINDRED_LIFECYCLE_DATABASE_URL must be set (Tests/run sets them)")
    environment = {key: value for key, value in os.environ.items() if key != "KINDRED_IDENTITY_SECRET_KEY"}
    result = subprocess.run([os.path.join(bin_dir, "kindred-identity"), "--listen", f"127.0.0.1:{free_port()}",
                             "--database-url", url], capture_output=True, text=True, timeout=30, env=environment)
    assert result.returncode == 1
    lines = [line for line in result.stderr.splitlines() if line and not line.startswith("{")]
    assert len(lines) == 1 and "KINDRED_IDENTITY_SECRET_KEY" in lines[0]


@pytest.mark.parametrize("authorization, expected", [
    (None, (grpc.StatusCode.UNAUTHENTICATED, "TOKEN_MISSING")),
    ("Bearer not.a.token", (grpc.StatusCode.UNAUTHENTICATED, "TOKEN_MALFORMED")),
    ("service", (grpc.StatusCode.PERMISSION_DENIED, "ROLE_NOT_ALLOWED")),
])
def test_sign_out_everywhere_needs_a_user_token(identity, authorization, expected):
    if authorization == "service":
        authorization = f"Bearer {service_token(identity)}"
    metadata = [("authorization", authorization)] if authorization else None
    call = lambda: identity.SignOutEverywhere(identity_pb2.SignOutEverywhereRequest(), timeout=10, metadata=metadata)
    assert refusal(call)[:2] == expected


def test_a_reset_request_answers_ok_for_any_email_and_a_bad_reset_token_is_refused(identity):
    identity.RequestPasswordReset(identity_pb2.RequestPasswordResetRequest(email="nobody@example.com"), timeout=10)
    call = lambda: identity.ResetPassword(identity_pb2.ResetPasswordRequest(token="bm90LWEtdG9rZW4",
                                                                            new_password="a new one 1"), timeout=10)
    assert refusal(call)[:2] == (grpc.StatusCode.NOT_FOUND, "LINK_UNKNOWN")


def test_keys_rotate_makes_a_new_signer_that_the_running_identity_picks_up(identity):
    bin_dir, url = os.environ.get("KINDRED_BIN_DIR", ""), os.environ.get("KINDRED_LIFECYCLE_DATABASE_URL", "")
    if not bin_dir or not url:
        pytest.fail("KINDRED_BIN_DIR and KINDRED_LIFECYCLE_DATABASE_URL must be set (Tests/run sets them)")
    before = [key.kid for key in identity.GetSigningKeys(identity_pb2.GetSigningKeysRequest(), timeout=10).keys]
    result = subprocess.run([os.path.join(bin_dir, "kindred-identity"), "keys", "rotate", "--database-url", url],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    new_kid = result.stdout.strip()
    after = [key.kid for key in identity.GetSigningKeys(identity_pb2.GetSigningKeysRequest(), timeout=10).keys]
    assert after[0] == new_kid and after[1:] == before
    # The running instance re-reads the signer 30 s after its last look at the latest.
    deadline = time.monotonic() + 45
    while True:
        header = json.loads(unb64url(service_token(identity).split(".")[0]))
        if header["kid"] == new_kid:
            break
        assert time.monotonic() < deadline, "the running identity still signs with the old key after 45 s"
        time.sleep(1)
