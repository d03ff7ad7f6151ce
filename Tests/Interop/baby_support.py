"""Baby profiles for the walks: members joined through the mailed invitation, a WatchProfileActivity
stream read on a thread of its own, and waiting for what another service's event consumer makes true."""

import queue
import threading
import time
import uuid

import grpc

from accounts_support import mailed_token
from kindred.family.v1 import baby_activity_pb2, baby_profiles_pb2
from rpc_support import bearer


class ActivityStream:
    """A WatchProfileActivity stream read on a thread of its own into a queue."""

    def __init__(self, family, token, profile_id):
        self.call = family.WatchProfileActivity(baby_activity_pb2.WatchProfileActivityRequest(
            profile_ids=[profile_id]), metadata=bearer(token), timeout=120)
        self.received = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            for response in self.call:
                self.received.put(response.activity)
        except grpc.RpcError as error:
            if error.code() != grpc.StatusCode.CANCELLED:
                self.received.put(error)

    def next(self, seconds=10):
        activity = self.received.get(timeout=seconds)
        assert not isinstance(activity, grpc.RpcError), activity
        return activity

    def close(self):
        self.call.cancel()


def invite_and_accept(family, owner_token, profile_id, email, token, role, relationship=0):
    family.InviteToBabyProfile(baby_profiles_pb2.InviteToBabyProfileRequest(
        request_id=str(uuid.uuid4()), profile_id=profile_id, email=email, role=role),
        metadata=bearer(owner_token), timeout=10)
    return family.AcceptBabyProfileInvitation(baby_profiles_pb2.AcceptBabyProfileInvitationRequest(
        token=mailed_token(email, subject="invited you to"), relationship=relationship),
        metadata=bearer(token), timeout=10).profile


def eventually(what, read, seconds=15):
    """`read()` once it answers without failing its condition (it raises AssertionError or an RpcError until
    then), retried for `seconds`: what an event consumer in another service makes true."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return read()
        except (AssertionError, grpc.RpcError):
            if time.monotonic() > deadline:
                raise AssertionError(f"never: {what}")
            time.sleep(0.2)
