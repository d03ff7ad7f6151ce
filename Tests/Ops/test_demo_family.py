"""deploy/ops/demo-family: the family it makes on the test stack is what it says (every account signs in, the
teen is linked with controls on and a PIN, the follower sees the baby profile, the stranger does not), and it
refuses to run against a stack it was not pointed at."""

import json
import os

import grpc
import pytest

from conftest import refused, run_script, targets
from kindred.family.v1 import baby_profiles_pb2, family_pb2
from kindred.identity.v1 import identity_pb2
from rpc_support import bearer
from stack_support import claims, stubs


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    output = tmp_path_factory.mktemp("demo") / "family.json"
    result = run_script("demo-family", "--targets", os.environ["KINDRED_OPS_TARGETS"], "--maildir",
                        os.environ["KINDRED_TEST_MAILDIR"], "--json", str(output))
    assert result.returncode == 0, result.stdout + result.stderr
    channels = {name: grpc.insecure_channel(address) for name, address in targets().items()}
    yield json.loads(output.read_text()), result.stdout, stubs(channels)
    for channel in channels.values():
        channel.close()


def sign_in(services, person):
    return services["identity"].Token(identity_pb2.TokenRequest(
        grant_type="password", username=person["username"], password=person["password"]), timeout=10).access_token


def test_every_demo_account_signs_in_with_the_printed_password(demo):
    family, printed, services = demo
    assert set(family["people"]) == {"guardian", "teen", "stranger", "grandparent"}
    for role, person in family["people"].items():
        assert f"{person['username']:<24} {person['password']}" in printed
        token_claims = claims(sign_in(services, person))
        assert token_claims["sub"] == person["user_id"]
        assert token_claims["age_band"] == ("13-15" if role == "teen" else "18+")


def test_the_teen_is_linked_to_the_guardian_with_controls_on_and_a_pin(demo):
    family, printed, services = demo
    guardian = sign_in(services, family["people"]["guardian"])
    teen_id = family["people"]["teen"]["user_id"]
    links = services["family"].ListGuardianLinks(family_pb2.ListGuardianLinksRequest(), metadata=bearer(guardian),
                                                 timeout=10).links
    assert [(link.minor_user_id, link.guardian_user_id) for link in links] == [
        (teen_id, family["people"]["guardian"]["user_id"])]
    session = services["family"].VerifyGuardianPin(family_pb2.VerifyGuardianPinRequest(
        minor_user_id=teen_id, pin=family["guardian_pin"]), metadata=bearer(guardian), timeout=10).guardian_session
    controls = services["family"].GetParentalControls(family_pb2.GetParentalControlsRequest(
        user_id=teen_id, guardian_session=session), metadata=bearer(guardian), timeout=10).controls
    assert controls.active and controls.pin_set and controls.messaging_followed_only and controls.content_filtering
    assert f"Guardian PIN for the teen's settings: {family['guardian_pin']}" in printed


def test_the_follower_sees_the_baby_profile_and_the_stranger_does_not(demo):
    family, _, services = demo
    profile_id = family["baby_profile_id"]
    grandparent = sign_in(services, family["people"]["grandparent"])
    profiles = services["family"].ListMyBabyProfiles(baby_profiles_pb2.ListMyBabyProfilesRequest(),
                                                      metadata=bearer(grandparent), timeout=10).profiles
    assert [profile.profile_id for profile in profiles] == [profile_id]
    stranger = sign_in(services, family["people"]["stranger"])
    with pytest.raises(grpc.RpcError) as raised:
        services["family"].GetBabyProfile(baby_profiles_pb2.GetBabyProfileRequest(profile_id=profile_id),
                                          metadata=bearer(stranger), timeout=10)
    assert raised.value.code() == grpc.StatusCode.NOT_FOUND


def test_demo_family_refuses_without_a_named_stack():
    refused(run_script("demo-family"), "name the stack to write to")


def test_demo_family_refuses_targets_without_a_maildir():
    refused(run_script("demo-family", "--targets", os.environ["KINDRED_OPS_TARGETS"]), "--maildir is required")


def test_demo_family_refuses_a_maildir_that_is_no_directory(tmp_path):
    (tmp_path / "file").write_text("")
    refused(run_script("demo-family", "--targets", os.environ["KINDRED_OPS_TARGETS"], "--maildir",
                       str(tmp_path / "file")), "is not a directory")


def test_demo_family_refuses_targets_that_miss_a_service():
    spec = ",".join(f"{name}={address}" for name, address in targets().items() if name != "family")
    refused(run_script("demo-family", "--targets", spec, "--maildir", os.environ["KINDRED_TEST_MAILDIR"]),
            "--targets has no family=HOST:PORT")
