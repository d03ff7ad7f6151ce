"""Accounts for the service suites: registering through identity and reading the mail the services send."""

import os
import pathlib
import re
import time
import uuid

import pytest

from google.type import date_pb2
from kindred.identity.v1 import identity_pb2

PASSWORD = "correct horse 1"
TOKEN_LINE = re.compile(r"^[A-Za-z0-9_-]{43}$", re.MULTILINE)


@pytest.fixture
def person():
    """A username and email nobody has used in this cluster."""
    name = "walk_" + uuid.uuid4().hex[:12]
    return name, f"{name}@example.com"


def register(identity, username, email, born=(1990, 4, 12), metadata=None):
    request = identity_pb2.RegisterAccountRequest(
        request_id=str(uuid.uuid4()), email=email, username=username, password=PASSWORD,
        date_of_birth=date_pb2.Date(year=born[0], month=born[1], day=born[2]))
    return identity.RegisterAccount(request, metadata=metadata, timeout=10).account


def service_token(identity):
    """A service's access token (client_credentials, with the client Tests/run configures)."""
    request = identity_pb2.TokenRequest(grant_type="client_credentials", client_id=os.environ["KINDRED_CLIENT_ID"],
                                        client_secret=os.environ["KINDRED_CLIENT_SECRET"])
    return identity.Token(request, timeout=10).access_token


def mailed_token(email, seconds=15, subject=""):
    """The token alone on its line in the newest mail to `email` (whose subject contains `subject`) that the
    delivery worker put in the maildir."""
    maildir = os.environ.get("KINDRED_TEST_MAILDIR", "")
    if not maildir:
        pytest.fail("KINDRED_TEST_MAILDIR must name the services' maildir (Tests/run sets it)")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        mails = sorted(pathlib.Path(maildir, "new").glob("*"), key=lambda path: path.stat().st_mtime)
        for mail in reversed(mails):
            head, _, body = mail.read_text(errors="replace").partition("\n\n")
            if f"\nTo: {email}\n" in head + "\n" and subject in head:
                return TOKEN_LINE.findall(body)[0]
        time.sleep(0.2)
    pytest.fail(f"no mail to {email} reached {maildir} within {seconds} s")
