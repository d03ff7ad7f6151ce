"""Screen-time rules of issue 28 as a stock grpcio client sees them: a challenge takes every app id an upload
takes; a friendship that ended ends at once for challenge invitations; someone who never joined a challenge
has a place in the global ranking; and the same minutes of one app on one device count once however they
are uploaded.

Needs the identity, social and gamification targets in KINDRED_INTEROP_TARGETS; Tests/run sets them.
"""

import uuid

import grpc

from family_support import signed_up
from kindred.gamification.v1 import challenges_pb2, standing_pb2, usage_pb2
from kindred.social.v1 import social_pb2
from rpc_support import bearer, refusal
from test_gamification_walk import befriend
from usage_support import session, zone_at_midday


def challenge_on(gamification, token, app):
    return gamification.CreateChallenge(challenges_pb2.CreateChallengeRequest(
        request_id=str(uuid.uuid4()), app_id=app, daily_limit_minutes=30, duration_days=1,
        difficulty=challenges_pb2.CHALLENGE_DIFFICULTY_EASY), metadata=bearer(token), timeout=10).challenge


def test_a_challenge_takes_the_app_ids_an_upload_takes(identity, gamification):
    _, _, anna = signed_up(identity, 30)
    gamification.UploadUsage(usage_pb2.UploadUsageRequest(sessions=[session("m1", "com.apple.MobileSMS", 30, 10)]),
                             metadata=bearer(anna), timeout=10)
    assert challenge_on(gamification, anna, "com.apple.MobileSMS").app_id == "com.apple.MobileSMS"
    code, _, _ = refusal(lambda: challenge_on(gamification, anna, "a" * 101))
    assert code == grpc.StatusCode.INVALID_ARGUMENT


def test_a_former_friend_cannot_be_invited_right_after_the_unfriend(identity, social, gamification):
    _, _, anna = signed_up(identity, 30)
    ben_id, _, ben = signed_up(identity, 30)
    befriend(social, anna, ben, ben_id)
    challenge = challenge_on(gamification, anna, "youtube")
    invite = challenges_pb2.InviteToChallengeRequest(challenge_id=challenge.challenge_id, user_id=ben_id)
    gamification.InviteToChallenge(invite, metadata=bearer(anna), timeout=10)
    second = challenge_on(gamification, anna, "tiktok")
    social.RemoveFriend(social_pb2.RemoveFriendRequest(user_id=ben_id), metadata=bearer(anna), timeout=10)
    invite.challenge_id = second.challenge_id
    code, reason, _ = refusal(lambda: gamification.InviteToChallenge(invite, metadata=bearer(anna), timeout=10))
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "NOT_FRIENDS")


def test_someone_who_never_joined_a_challenge_has_a_place_in_the_ranking(identity, gamification):
    anna_id, _, anna = signed_up(identity, 30)
    ranking = gamification.GetGlobalRanking(challenges_pb2.GetGlobalRankingRequest(), metadata=bearer(anna),
                                            timeout=10)
    assert ranking.user.user_id == anna_id and ranking.user.coins == 0
    assert 1 <= ranking.user.position <= ranking.ranked_users
    assert anna_id in [entry.user_id for entry in ranking.entries]
    standing = gamification.GetMyStanding(standing_pb2.GetMyStandingRequest(), metadata=bearer(anna), timeout=10)
    assert standing.global_position == ranking.user.position


def test_overlapping_minutes_of_one_app_on_one_device_count_once(identity, gamification):
    _, _, anna = signed_up(identity, 30)
    gamification.SetUsageSettings(usage_pb2.SetUsageSettingsRequest(
        settings=usage_pb2.UsageSettings(time_zone=zone_at_midday())), metadata=bearer(anna), timeout=10)
    upload = lambda *sessions: gamification.UploadUsage(usage_pb2.UploadUsageRequest(sessions=sessions),
                                                        metadata=bearer(anna), timeout=10)
    upload(session("a", "youtube", 60, 30))
    upload(session("b", "youtube", 45, 30))  # 15 minutes over the first: 45 minutes of wall-clock time
    tablet = session("c", "youtube", 60, 10)
    tablet.device_id = "tablet"
    upload(tablet)  # another device adds up
    day = gamification.GetUsageSummary(usage_pb2.GetUsageSummaryRequest(period=usage_pb2.USAGE_PERIOD_DAY),
                                       metadata=bearer(anna), timeout=10)
    assert [(app.app_id, app.minutes) for app in day.apps] == [("youtube", 55)]
