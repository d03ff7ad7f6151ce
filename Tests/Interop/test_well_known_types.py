"""The API in the ecosystem's own types (issue 31), as a stock client sees it: a time is the protobuf package's own
google.protobuf.Timestamp, which prints as RFC 3339; grpcli.py shows a response as grpcurl would; an update
names its fields in a google.protobuf.FieldMask.

Needs the identity and family targets in KINDRED_INTEROP_TARGETS and the services' maildir in
KINDRED_TEST_MAILDIR; Tests/run sets them.
"""

import datetime
import json
import re
import subprocess
import sys

from baby_support import eventually
from conftest import REPO, TARGETS
from family_support import signed_up
from google.protobuf import field_mask_pb2, timestamp_pb2
from kindred.family.v1 import family_pb2
from kindred.identity.v1 import identity_pb2
from rpc_support import bearer

RFC_3339_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3}|\.\d{6}|\.\d{9})?Z$")


def test_a_created_at_is_the_stock_timestamp_and_prints_as_rfc_3339(identity):
    keys = identity.GetSigningKeys(identity_pb2.GetSigningKeysRequest(), timeout=10).keys
    assert keys, "identity publishes no signing key"
    created_at = keys[0].created_at
    assert isinstance(created_at, timestamp_pb2.Timestamp)
    text = created_at.ToJsonString()
    print(f"signing key {keys[0].kid} created_at {text}")
    assert RFC_3339_UTC.match(text), text
    created = created_at.ToDatetime(tzinfo=datetime.timezone.utc)
    assert datetime.datetime(2000, 1, 1, tzinfo=datetime.timezone.utc) < created
    assert created <= datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=1)


def test_grpcli_prints_a_response_as_grpcurl_would(identity):
    keys = identity.GetSigningKeys(identity_pb2.GetSigningKeysRequest(), timeout=10).keys
    shown = subprocess.run(
        [sys.executable, str(REPO / "deploy" / "local" / "grpcli.py"), "call", TARGETS["identity"],
         "kindred.identity.v1.IdentityService/GetSigningKeys"],
        capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    printed = {key["kid"]: key for key in json.loads(shown.stdout)["keys"]}
    for key in keys:
        assert printed[key.kid]["createdAt"] == key.created_at.ToJsonString()
        assert RFC_3339_UTC.match(printed[key.kid]["createdAt"])
        assert "publicKey" in printed[key.kid] and "public_key" not in printed[key.kid]


def test_an_update_names_its_fields_in_a_field_mask(identity, family):
    _, _, token = signed_up(identity, 30)
    request = family_pb2.UpdateProfileRequest(
        update_mask=field_mask_pb2.FieldMask(paths=["display_name"]),
        profile=family_pb2.Profile(display_name="Wren", last_name="not named, so not changed"))
    changed = eventually("family made the new user's profile",
                         lambda: family.UpdateProfile(request, metadata=bearer(token), timeout=10))
    assert changed.profile.display_name == "Wren"
    assert changed.profile.last_name != "not named, so not changed"
