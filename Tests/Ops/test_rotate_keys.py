"""deploy/ops/rotate-keys: after a rotation identity signs new tokens with the new key, both keys verify on every
service, and the old key stays published for as long as any token it signed lives."""

import time

import grpc
import pytest

from accounts_support import PASSWORD
from conftest import SERVICES, psql, refused, run_script, targets
from kindred.identity.v1 import identity_pb2
from stack_support import claims, key_id, protected_read, signed_up, stubs


@pytest.fixture(scope="module")
def services():
    channels = {name: grpc.insecure_channel(address) for name, address in targets().items()}
    yield stubs(channels)
    for channel in channels.values():
        channel.close()


def published(identity):
    return [key.kid for key in identity.GetSigningKeys(identity_pb2.GetSigningKeysRequest(), timeout=10).keys]


def sign_in(identity, username, password):
    return identity.Token(identity_pb2.TokenRequest(grant_type="password", username=username, password=password),
                          timeout=10).access_token


def test_rotation_keeps_old_tokens_valid_and_new_tokens_verify_everywhere(services):
    identity = services["identity"]
    user_id, email, old_token = signed_up(identity, 30)
    old_kid = key_id(old_token)

    result = run_script("rotate-keys")
    assert result.returncode == 0, result.stderr
    new_kid = result.stdout.strip()
    assert new_kid and new_kid != old_kid
    assert published(identity)[0] == new_kid and old_kid in published(identity)

    # Identity instances look at the signer again at most 30 s after their last look.
    deadline = time.monotonic() + 40
    new_token = sign_in(identity, email, PASSWORD)
    while key_id(new_token) != new_kid and time.monotonic() < deadline:
        time.sleep(1)
        new_token = sign_in(identity, email, PASSWORD)
    assert key_id(new_token) == new_kid, "identity kept signing with the old key"
    assert claims(new_token)["sub"] == user_id

    for service in SERVICES:
        protected_read(services, service, new_token)
        protected_read(services, service, old_token)

    # The old key is published until every token it signed has expired.
    (superseded,) = psql("kindred", f"SELECT extract(epoch FROM superseded_at)::bigint FROM identity.signing_keys "
                                    f"WHERE kid = '{old_kid}'")[0]
    assert claims(old_token)["exp"] <= int(superseded) + 20 * 60
    assert old_kid in published(identity)


def test_rotate_keys_refuses_without_identitys_secret_key(tmp_path):
    refused(run_script("rotate-keys", KINDRED_IDENTITY_SECRET_KEY=None, KINDRED_SECRETS_DIR=str(tmp_path)),
            "no identity secret key")


def test_rotate_keys_refuses_when_identity_does_not_answer():
    spec = ",".join(f"{name}={'127.0.0.1:1' if name == 'identity' else address}"
                    for name, address in targets().items())
    result = run_script("rotate-keys", KINDRED_OPS_TARGETS=spec)
    refused(result, "does not answer GetSigningKeys")


def test_rotate_keys_with_another_secret_key_changes_nothing(services):
    before = published(services["identity"])
    wrong = "A" * 43 + "="
    result = run_script("rotate-keys", KINDRED_IDENTITY_SECRET_KEY=wrong)
    assert result.returncode == 1, result.stderr
    assert "keys rotate failed" in result.stderr
    assert published(services["identity"]) == before
