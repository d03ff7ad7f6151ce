"""Learning points and reward apps walked from a stock grpcio client, as a family uses them: the guardian's
device, handed over in child mode, refuses the setup until the guardian proves they are the parent with the
PIN (parent mode); the child's learning usage earns points; on the child's device in child mode the dashboard
reads and an unlock is refused; the child's own full token is refused too (only a guardian unlocks); the
child's device in parent mode, proven with the guardian PIN, unlocks and reserves points once, however often
it is retried with its request id.

Needs the identity, family and gamification targets in KINDRED_INTEROP_TARGETS; Tests/run sets them.
"""

import datetime
import uuid

import grpc

from family_support import guarded_minor
from google.protobuf import timestamp_pb2
from kindred.family.v1 import family_pb2
from kindred.gamification.v1 import rewards_pb2, usage_pb2
from rpc_support import bearer, refusal

Kind = rewards_pb2.RewardAppKind


def learning_session(minutes):
    # Whole minutes, so a session across midnight still earns all of them (points count whole minutes a day).
    end = datetime.datetime.now(datetime.timezone.utc).replace(second=0, microsecond=0) - datetime.timedelta(minutes=5)
    start = end - datetime.timedelta(minutes=minutes)
    stamp = lambda moment: timestamp_pb2.Timestamp(seconds=int(moment.timestamp()))
    return usage_pb2.UsageSession(client_session_id=str(uuid.uuid4()), app_id="duolingo", start_time=stamp(start),
                                  end_time=stamp(end), updated_at=stamp(end))


def child_mode(family, token):
    return family.EnterChildMode(family_pb2.EnterChildModeRequest(), metadata=bearer(token),
                                 timeout=10).tokens.access_token


def parent_mode(family, device_token, child_id, pin):
    """The device's account in parent mode, proven with the child's guardian PIN."""
    return family.EnterParentMode(family_pb2.EnterParentModeRequest(
        guardian_pin=family_pb2.GuardianPinProof(minor_user_id=child_id, pin=pin)),
        metadata=bearer(device_token), timeout=10).tokens.access_token


def test_a_guardian_in_parent_mode_sets_rewards_and_only_a_guardian_unlocks(identity, family, gamification):
    child_id, child, guardian = guarded_minor(identity, family, pin="4826")
    setup = rewards_pb2.SetRewardSetupRequest(
        child_user_id=child_id, points_per_learning_minute=2, points_per_reward_minute=3,
        apps=[rewards_pb2.RewardApp(app_id="duolingo", kind=Kind.REWARD_APP_KIND_LEARNING),
              rewards_pb2.RewardApp(app_id="minecraft", kind=Kind.REWARD_APP_KIND_REWARD)])

    # The guardian's phone was handed to the child in child mode: the setup is refused until parent mode.
    handed_over = child_mode(family, guardian)
    code, reason, _ = refusal(lambda: gamification.SetRewardSetup(setup, metadata=bearer(handed_over), timeout=10))
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "CHILD_MODE_READ_ONLY")
    parent = parent_mode(family, handed_over, child_id, "4826")
    saved = gamification.SetRewardSetup(setup, metadata=bearer(parent), timeout=10).setup
    assert [(a.app_id, a.kind) for a in saved.apps] == [
        ("duolingo", Kind.REWARD_APP_KIND_LEARNING), ("minecraft", Kind.REWARD_APP_KIND_REWARD)]

    gamification.UploadUsage(usage_pb2.UploadUsageRequest(sessions=[learning_session(30)]), metadata=bearer(child),
                             timeout=10)
    on_device = child_mode(family, child)
    dashboard = gamification.GetChildDashboard(rewards_pb2.GetChildDashboardRequest(), metadata=bearer(on_device),
                                               timeout=10).dashboard
    assert (dashboard.total_earned_points, dashboard.available_points) == (60, 60)
    assert [(a.app_id, a.points_earned) for a in dashboard.learning_apps] == [("duolingo", 60)]

    unlock = rewards_pb2.UnlockRewardAppRequest(app_id="minecraft", minutes=10, request_id=str(uuid.uuid4()))
    code, reason, _ = refusal(lambda: gamification.UnlockRewardApp(unlock, metadata=bearer(on_device), timeout=10))
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "CHILD_MODE_READ_ONLY")
    code, reason, _ = refusal(lambda: gamification.UnlockRewardApp(unlock, metadata=bearer(child), timeout=10))
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "GUARDIANS_ONLY")
    device_parent = parent_mode(family, on_device, child_id, "4826")
    first = gamification.UnlockRewardApp(unlock, metadata=bearer(device_parent), timeout=10).dashboard
    retried = gamification.UnlockRewardApp(unlock, metadata=bearer(device_parent), timeout=10).dashboard
    assert (first.available_points, first.reserved_points) == (30, 30)
    assert retried == first

    # The guardian sees the same numbers and locks the app: the unused points come back.
    seen = gamification.GetChildDashboard(rewards_pb2.GetChildDashboardRequest(child_user_id=child_id),
                                          metadata=bearer(guardian), timeout=10).dashboard
    assert (seen.available_points, seen.reserved_points) == (30, 30)
    locked = gamification.LockRewardApp(rewards_pb2.LockRewardAppRequest(child_user_id=child_id, app_id="minecraft"),
                                        metadata=bearer(guardian), timeout=10).dashboard
    assert (locked.available_points, locked.reserved_points, locked.spent_points) == (60, 0, 0)
