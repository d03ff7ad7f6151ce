"""People for the family and social walks: signed-up accounts of a given age, a minor's controls as family
makes them, and a guardian linked through the mailed invitation."""

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
