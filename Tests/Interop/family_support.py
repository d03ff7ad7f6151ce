"""People for the family and social walks: signed-up accounts of a given age, a minor's controls as family
makes them, a guardian linked through the mailed invitation, and the settings a guardian opens with the PIN."""

import datetime
import time
import uuid

from accounts_support import PASSWORD, mailed_token, register
from kindred.family.v1 import family_pb2
from kindred.identity.v1 import identity_pb2
from rpc_support import bearer


def signed_up(identity, age):
    """A new account `age` years old, email verified, signed in: (user id, email, access token)."""
    name = f"fam_{uuid.uuid4().hex[:12]}"
    email = f"{name}@example.com"
    today = datetime.date.today()
    account = register(identity, name, email, born=(today.year - age, 1, 1))
    identity.VerifyEmail(identity_pb2.VerifyEmailRequest(token=mailed_token(email)), timeout=10)
    token = identity.Token(identity_pb2.TokenRequest(
        grant_type="password", username=name, password=PASSWORD), timeout=10).access_token
    return account.user_id, email, token


def controls_of(family, token, seconds=15):
    """The caller's controls once family has made them from identity's user.registered event."""
    deadline = time.monotonic() + seconds
    while True:
        controls = family.GetParentalControls(
            family_pb2.GetParentalControlsRequest(), metadata=bearer(token), timeout=10).controls
        if controls.active or time.monotonic() > deadline:
            return controls
        time.sleep(0.2)


def link_guardian(family, minor_token, guardian_email, guardian_token):
    """The minor invites the guardian by email; the guardian accepts from the mailed link."""
    family.InviteGuardian(family_pb2.InviteGuardianRequest(
        request_id=str(uuid.uuid4()), guardian_email=guardian_email), metadata=bearer(minor_token), timeout=10)
    return family.AcceptGuardianInvitation(family_pb2.AcceptGuardianInvitationRequest(
        token=mailed_token(guardian_email, subject="invited to be a guardian")),
        metadata=bearer(guardian_token), timeout=10).link


def guarded_minor(identity, family, pin):
    """A 15-year-old with controls on and a guardian who set `pin`: (minor id, minor token, guardian token)."""
    minor_id, _, minor_token = signed_up(identity, 15)
    controls_of(family, minor_token)
    _, guardian_email, guardian_token = signed_up(identity, 41)
    link_guardian(family, minor_token, guardian_email, guardian_token)
    family.SetGuardianPin(family_pb2.SetGuardianPinRequest(
        minor_user_id=minor_id, pin=pin, pin_confirmation=pin), metadata=bearer(guardian_token), timeout=10)
    return minor_id, minor_token, guardian_token


def open_settings(family, guardian_token, minor_id, pin):
    """What a guardian's settings screen does: the PIN opens a guardian session, the session the minor's
    controls. Returns (session, controls)."""
    as_guardian = bearer(guardian_token)
    session = family.VerifyGuardianPin(family_pb2.VerifyGuardianPinRequest(
        minor_user_id=minor_id, pin=pin), metadata=as_guardian, timeout=10).guardian_session
    controls = family.GetParentalControls(family_pb2.GetParentalControlsRequest(
        user_id=minor_id, guardian_session=session), metadata=as_guardian, timeout=10).controls
    return session, controls
