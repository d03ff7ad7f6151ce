"""Two friends walked through the Social Time Tracker from a stock grpcio client: Anna challenges Ben, both
upload usage and see the friend leaderboard and the challenge's; Ben forfeits; Anna's challenge is decided by a
second gamification instance that runs three days ahead (libfaketime), as the sweep of any instance decides it
once; then her coins, her badge and her place in the global ranking show.

Needs the identity, social and gamification targets in KINDRED_INTEROP_TARGETS, the executables in
KINDRED_BIN_DIR, the services' secrets in KINDRED_INTEROP_SECRETS_DIR and gamification's database URL in
KINDRED_INTEROP_GAMIFICATION_DATABASE_URL; Tests/run sets them.
"""

import os
import pathlib
import shutil
import signal
import subprocess
import time
import uuid

import grpc
import pytest

from conftest import TARGETS, tls_environment
from family_support import signed_up
from free_port import free_port
from kindred.gamification.v1 import challenges_pb2, standing_pb2, usage_pb2
from kindred.social.v1 import social_pb2
from rpc_support import bearer
from usage_support import session, zone_at_midday

BIN_DIR = os.environ.get("KINDRED_BIN_DIR", "")
SECRETS_DIR = os.environ.get("KINDRED_INTEROP_SECRETS_DIR", "")
DATABASE_URL = os.environ.get("KINDRED_INTEROP_GAMIFICATION_DATABASE_URL", "")
# The instance three days ahead logs here, beside the secrets Tests/run made: why a sweep decided nothing.
AHEAD_LOG = pathlib.Path(SECRETS_DIR or ".").parent / "kindred-gamification-ahead.log"


def befriend(social, token, other_token, other_id):
    sent = social.SendFriendRequest(social_pb2.SendFriendRequestRequest(
        to=social_pb2.UserRef(user_id=other_id)), metadata=bearer(token), timeout=10)
    social.AcceptFriendRequest(social_pb2.AcceptFriendRequestRequest(request_id=sent.request.request_id),
                               metadata=bearer(other_token), timeout=10)


def sweep_three_days_ahead():
    """Runs a gamification instance whose clock is three days ahead until its first sweep has run (its
    sweep starts with the process), then stops it."""
    if not (BIN_DIR and SECRETS_DIR and DATABASE_URL):
        pytest.fail("KINDRED_BIN_DIR, KINDRED_INTEROP_SECRETS_DIR and KINDRED_INTEROP_GAMIFICATION_DATABASE_URL "
                    "must be set (Tests/run sets them)")
    faketime = shutil.which("faketime")
    assert faketime, "faketime is missing: Tests/run installs it"
    environment = dict(os.environ, KINDRED_CLIENT_ID="gamification",
                       KINDRED_CLIENT_SECRET=pathlib.Path(SECRETS_DIR, "gamification-client-secret").read_text().strip(),
                       # Only the wall clock moves: timers and deadlines keep the real monotonic clock.
                       FAKETIME_DONT_FAKE_MONOTONIC="1", **tls_environment("gamification"))
    process = subprocess.Popen(
        [faketime, "-f", "+3d", os.path.join(BIN_DIR, "kindred-gamification"), "serve",
         "--listen", f"127.0.0.1:{free_port()}", "--database-url", DATABASE_URL, "--no-migrate",
         "--identity-target", TARGETS["identity"], "--social-target", TARGETS["social"],
         "--family-target", TARGETS["family"]],
        env=environment, stdout=subprocess.DEVNULL, stderr=AHEAD_LOG.open("ab"),
        # faketime runs the service as its child: a group of their own lets the walk stop both.
        start_new_session=True)
    return process


def test_two_friends_challenge_each_other_one_forfeits_and_one_completes(identity, social, gamification):
    anna_id, _, anna = signed_up(identity, 28)
    ben_id, _, ben = signed_up(identity, 29)
    befriend(social, anna, ben, ben_id)
    zone = zone_at_midday()
    for token in (anna, ben):
        gamification.SetUsageSettings(usage_pb2.SetUsageSettingsRequest(settings=usage_pb2.UsageSettings(
            time_zone=zone, standing_app_id="youtube")), metadata=bearer(token), timeout=10)

    challenge = gamification.CreateChallenge(challenges_pb2.CreateChallengeRequest(
        request_id=str(uuid.uuid4()), app_id="youtube", daily_limit_minutes=60, duration_days=1,
        difficulty=challenges_pb2.CHALLENGE_DIFFICULTY_EASY), metadata=bearer(anna), timeout=10).challenge
    gamification.InviteToChallenge(challenges_pb2.InviteToChallengeRequest(
        challenge_id=challenge.challenge_id, user_id=ben_id), metadata=bearer(anna), timeout=10)
    invitations = gamification.ListChallenges(challenges_pb2.ListChallengesRequest(
        list=challenges_pb2.CHALLENGE_LIST_INVITATIONS), metadata=bearer(ben), timeout=10)
    assert [c.challenge_id for c in invitations.challenges] == [challenge.challenge_id]
    gamification.RespondToChallengeInvitation(challenges_pb2.RespondToChallengeInvitationRequest(
        challenge_id=challenge.challenge_id, accept=True), metadata=bearer(ben), timeout=10)

    gamification.UploadUsage(usage_pb2.UploadUsageRequest(sessions=[session("a-1", "youtube", 100, 20)]),
                             metadata=bearer(anna), timeout=10)
    gamification.UploadUsage(usage_pb2.UploadUsageRequest(sessions=[session("b-1", "youtube", 90, 45)]),
                             metadata=bearer(ben), timeout=10)
    board = gamification.GetFriendLeaderboard(usage_pb2.GetFriendLeaderboardRequest(
        app_id="youtube", period=usage_pb2.USAGE_PERIOD_WEEK), metadata=bearer(anna), timeout=10)
    assert [(e.user_id, e.minutes, e.place) for e in board.entries] == [(anna_id, 20, 1), (ben_id, 45, 2)]
    assert board.your_place == 1

    forfeited = gamification.ForfeitChallenge(challenges_pb2.ForfeitChallengeRequest(
        challenge_id=challenge.challenge_id), metadata=bearer(ben), timeout=10)
    assert forfeited.balance == 0  # nothing earned yet: the deduction takes the balance to zero, never below
    with pytest.raises(grpc.RpcError) as again:
        gamification.ForfeitChallenge(challenges_pb2.ForfeitChallengeRequest(
            challenge_id=challenge.challenge_id), metadata=bearer(ben), timeout=10)
    assert again.value.code() == grpc.StatusCode.FAILED_PRECONDITION

    ahead = sweep_three_days_ahead()
    try:
        # Its first sweep runs as it starts, the next 60 s later (`Challenges.sweepInterval`): a CI run once
        # saw the first decide nothing (its log was not kept then; it is now), so the wait covers two sweeps.
        deadline = time.monotonic() + 150
        while True:
            finished = gamification.ListChallenges(challenges_pb2.ListChallengesRequest(
                list=challenges_pb2.CHALLENGE_LIST_FINISHED), metadata=bearer(anna), timeout=10)
            if finished.challenges or time.monotonic() > deadline:
                break
            time.sleep(0.5)
    finally:
        os.killpg(ahead.pid, signal.SIGTERM)
        ahead.wait(timeout=30)
    assert [c.challenge_id for c in finished.challenges] == [challenge.challenge_id], f"see {AHEAD_LOG}"

    standing = gamification.GetMyStanding(standing_pb2.GetMyStandingRequest(), metadata=bearer(anna), timeout=10)
    assert standing.coin_balance == 10  # easy (x1), one day: 10 x 1 x 1
    assert standing.weekly.place == 1 and standing.weekly.people == 2
    badges = gamification.ListBadges(challenges_pb2.ListBadgesRequest(), metadata=bearer(anna), timeout=10)
    assert len(badges.badges) == 1
    ranking = gamification.GetGlobalRanking(challenges_pb2.GetGlobalRankingRequest(), metadata=bearer(anna),
                                            timeout=10)
    assert ranking.user.user_id == anna_id and ranking.user.position == standing.global_position >= 1
    challenge_board = gamification.GetChallengeLeaderboard(challenges_pb2.GetChallengeLeaderboardRequest(
        challenge_id=challenge.challenge_id), metadata=bearer(ben), timeout=10)
    assert {(result.user_id, result.outcome) for result in challenge_board.results} == {
        (anna_id, challenges_pb2.PARTICIPANT_STATE_COMPLETED), (ben_id, challenges_pb2.PARTICIPANT_STATE_FORFEITED)}
