"""kindred-family from outside, as a stock grpcio client sees it: the guardian walk of issue 4. A 15-year-old
registers (family turns the controls on from identity's event), invites a guardian, who accepts from the
mailed link, sets the PIN (a mismatch first), mistypes it three times and is locked out, resets it by email,
and changes a control with a fresh guardian session. The guardian PIN guards the settings themselves: a
guardian reads them only with a session, while the status (PIN set, reset pending) needs none.

Needs the identity and family targets in KINDRED_INTEROP_TARGETS and the services' maildir in
KINDRED_TEST_MAILDIR; Tests/run sets them.
"""

import json
import subprocess
import sys
import uuid

import grpc
import pytest

from accounts_support import mailed_token
from conftest import REPO, TARGETS
from family_support import controls_of, guarded_minor, link_guardian, open_settings, signed_up
from google.protobuf import field_mask_pb2
from google.rpc import error_details_pb2, status_pb2
from kindred.family.v1 import family_pb2
from rpc_support import bearer, refusal


def retry_delay(call):
    """The RetryInfo delay (seconds) a refused call carries."""
    try:
        call()
    except grpc.RpcError as error:
        details = dict(error.trailing_metadata() or ()).get("grpc-status-details-bin")
        for detail in status_pb2.Status.FromString(details).details:
            info = error_details_pb2.RetryInfo()
            if detail.Unpack(info):
                return info.retry_delay.seconds
    raise AssertionError("the call did not carry RetryInfo")


def test_minor_registers_guardian_links_sets_pin_is_locked_out_resets_and_changes_a_control(identity, family):
    minor_id, _, minor_token = signed_up(identity, 15)
    controls = controls_of(family, minor_token)
    assert controls.active and controls.messaging_followed_only and controls.public_events_restricted
    assert controls.event_join_approval_required and controls.content_filtering
    profile = family.GetProfile(family_pb2.GetProfileRequest(), metadata=bearer(minor_token), timeout=10).profile
    assert profile.parental_controls_active

    guardian_id, guardian_email, guardian_token = signed_up(identity, 41)
    link = link_guardian(family, minor_token, guardian_email, guardian_token)
    assert (link.minor_user_id, link.guardian_user_id) == (minor_id, guardian_id)

    as_guardian = bearer(guardian_token)
    mismatch = refusal(lambda: family.SetGuardianPin(family_pb2.SetGuardianPinRequest(
        minor_user_id=minor_id, pin="2580", pin_confirmation="2581"), metadata=as_guardian, timeout=10))
    assert mismatch[:2] == (grpc.StatusCode.INVALID_ARGUMENT, "PIN_MISMATCH")
    family.SetGuardianPin(family_pb2.SetGuardianPinRequest(
        minor_user_id=minor_id, pin="2580", pin_confirmation="2580"), metadata=as_guardian, timeout=10)

    def verify(pin):
        return family.VerifyGuardianPin(family_pb2.VerifyGuardianPinRequest(
            minor_user_id=minor_id, pin=pin), metadata=as_guardian, timeout=10)

    for _ in range(2):
        assert refusal(lambda: verify("1357"))[0] == grpc.StatusCode.PERMISSION_DENIED
    third = refusal(lambda: verify("1357"))
    assert third[:2] == (grpc.StatusCode.RESOURCE_EXHAUSTED, "PIN_LOCKED")
    # Locked: even the right PIN is refused, and the answer says when to come back.
    assert refusal(lambda: verify("2580"))[:2] == (grpc.StatusCode.RESOURCE_EXHAUSTED, "PIN_LOCKED")
    assert 0 < retry_delay(lambda: verify("2580")) <= 15 * 60

    family.RequestGuardianPinReset(family_pb2.RequestGuardianPinResetRequest(
        minor_user_id=minor_id), metadata=as_guardian, timeout=10)
    pending = family.GetParentalControlsStatus(family_pb2.GetParentalControlsStatusRequest(
        user_id=minor_id), metadata=as_guardian, timeout=10).status
    assert pending.pin_set and pending.pin_reset_pending
    reset = family.ResetGuardianPin(family_pb2.ResetGuardianPinRequest(
        token=mailed_token(guardian_email, subject="Reset the guardian PIN"), pin="8642", pin_confirmation="8642"), timeout=10)
    assert reset.minor_user_id == minor_id

    session, settings = open_settings(family, guardian_token, minor_id, "8642")
    assert settings.messaging_followed_only and not settings.pin_reset_pending
    changed = family.UpdateParentalControls(family_pb2.UpdateParentalControlsRequest(
        minor_user_id=minor_id, guardian_session=session,
        update_mask=field_mask_pb2.FieldMask(paths=["messaging_followed_only"]),
        controls=family_pb2.ParentalControls(messaging_followed_only=False)), metadata=as_guardian, timeout=10)
    assert not changed.controls.messaging_followed_only and changed.controls.content_filtering
    # The change is what every later call sees, the minor's own included.
    assert not controls_of(family, minor_token).messaging_followed_only


def test_guardian_opens_the_settings_only_with_the_session_the_pin_opened(identity, family):
    minor_id, minor_token, guardian_token = guarded_minor(identity, family, "2580")
    as_guardian = bearer(guardian_token)

    def settings(token, session=""):
        return family.GetParentalControls(family_pb2.GetParentalControlsRequest(
            user_id=minor_id, guardian_session=session), metadata=bearer(token), timeout=10)

    with pytest.raises(grpc.RpcError) as locked:
        settings(guardian_token)
    assert locked.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert locked.value.details() == "Enter the guardian PIN to open these settings."
    assert refusal(lambda: settings(guardian_token))[1] == "GUARDIAN_SESSION_REQUIRED"
    status = family.GetParentalControlsStatus(family_pb2.GetParentalControlsStatusRequest(
        user_id=minor_id), metadata=as_guardian, timeout=10).status
    assert (status.user_id, status.active, status.pin_set, status.pin_reset_pending) == (minor_id, True, True, False)

    session, controls = open_settings(family, guardian_token, minor_id, "2580")
    # The guardian's settings are the controls the minor sees (and the services act on).
    assert controls.active and controls.content_filtering and controls == controls_of(family, minor_token)
    # The session is the guardian's and this minor's: in another adult's hands it opens nothing, and that
    # adult is told what a user id nobody has gets.
    _, _, stranger_token = signed_up(identity, 35)
    nobody = str(uuid.uuid4())
    for token, user_id in ((stranger_token, minor_id), (stranger_token, nobody), (guardian_token, nobody)):
        answer = refusal(lambda: family.GetParentalControls(family_pb2.GetParentalControlsRequest(
            user_id=user_id, guardian_session=session), metadata=bearer(token), timeout=10))
        assert answer[:2] == (grpc.StatusCode.NOT_FOUND, "USER_NOT_FOUND")


def test_grpcli_shows_the_refusal_and_opens_the_settings_with_a_session(identity, family):
    minor_id, _, guardian_token = guarded_minor(identity, family, "2580")

    def grpcli(method, request):
        return subprocess.run(
            [sys.executable, str(REPO / "deploy" / "local" / "grpcli.py"), "call", TARGETS["family"],
             f"kindred.family.v1.FamilyService/{method}", json.dumps(request), "--token", guardian_token],
            capture_output=True, text=True, timeout=60)

    locked = grpcli("GetParentalControls", {"user_id": minor_id})
    assert locked.returncode == 1
    assert locked.stderr.strip() == (
        "PERMISSION_DENIED: Enter the guardian PIN to open these settings. [GUARDIAN_SESSION_REQUIRED]")
    verified = grpcli("VerifyGuardianPin", {"minor_user_id": minor_id, "pin": "2580"})
    assert verified.returncode == 0, verified.stderr
    session = json.loads(verified.stdout)["guardianSession"]
    opened = grpcli("GetParentalControls", {"user_id": minor_id, "guardian_session": session})
    assert opened.returncode == 0, opened.stderr
    assert json.loads(opened.stdout)["controls"]["contentFiltering"] is True
