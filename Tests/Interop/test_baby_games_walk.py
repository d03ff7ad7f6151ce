"""The baby-profile games walked from a stock grpcio client: two followers vote on the birth date, the gender
and the name, secretly; one suggests a name and the other likes it, and family tells the suggester (from
gamification's baby_name.liked event); the owner announces the arrival and the votes are revealed to members.

Needs the identity, family and gamification targets in KINDRED_INTEROP_TARGETS and the maildir in
KINDRED_TEST_MAILDIR; Tests/run sets them.
"""

import datetime
import uuid

import grpc

from baby_support import eventually, invite_and_accept
from family_support import signed_up
from google.type import date_pb2
from kindred.family.v1 import baby_arrival_pb2, baby_profiles_pb2, family_pb2
from kindred.gamification.v1 import baby_games_pb2
from rpc_support import bearer, refusal

Gender = baby_games_pb2.BabyVoteGender


def vote(gamification, token, profile, **choice):
    gamification.CastBabyVote(baby_games_pb2.CastBabyVoteRequest(profile_id=profile, **choice),
                              metadata=bearer(token), timeout=10)


def test_followers_vote_suggest_and_like_names_and_the_arrival_reveals_the_votes(identity, family, gamification):
    _, _, mum = signed_up(identity, 31)
    grandma_id, grandma_email, grandma = signed_up(identity, 66)
    grandpa_id, grandpa_email, grandpa = signed_up(identity, 68)
    _, _, stranger = signed_up(identity, 40)
    profile = family.CreateBabyProfile(baby_profiles_pb2.CreateBabyProfileRequest(
        request_id=str(uuid.uuid4())), metadata=bearer(mum), timeout=10).profile.profile_id
    for email, token, relationship in ((grandma_email, grandma, baby_profiles_pb2.RELATIONSHIP_GRANDMA),
                                       (grandpa_email, grandpa, baby_profiles_pb2.RELATIONSHIP_GRANDPA)):
        invite_and_accept(family, mum, profile, email, token, baby_profiles_pb2.BABY_ROLE_FOLLOWER, relationship)

    today = datetime.date.today()
    born = date_pb2.Date(year=today.year, month=today.month, day=today.day)
    near = today - datetime.timedelta(days=2)
    vote(gamification, grandma, profile, birth_date=date_pb2.Date(year=near.year, month=near.month, day=near.day))
    vote(gamification, grandma, profile, gender=Gender.BABY_VOTE_GENDER_GIRL)
    vote(gamification, grandma, profile, name="Olivia")
    vote(gamification, grandpa, profile, birth_date=born)
    vote(gamification, grandpa, profile, gender=Gender.BABY_VOTE_GENDER_BOY)
    vote(gamification, grandpa, profile, name="olivia ")
    # Secret until the arrival, for every member; a stranger learns nothing of the profile at all.
    results = lambda token: gamification.GetBabyVoteResults(
        baby_games_pb2.GetBabyVoteResultsRequest(profile_id=profile), metadata=bearer(token), timeout=10)
    code, reason, _ = refusal(lambda: results(mum))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "VOTES_NOT_REVEALED")
    code, reason, _ = refusal(lambda: results(stranger))
    assert (code, reason) == (grpc.StatusCode.NOT_FOUND, "BABY_PROFILE_NOT_FOUND")

    suggestion = gamification.SuggestBabyName(baby_games_pb2.SuggestBabyNameRequest(
        profile_id=profile, name="Isla", gender=Gender.BABY_VOTE_GENDER_GIRL),
        metadata=bearer(grandma), timeout=10).suggestion
    code, reason, _ = refusal(lambda: gamification.SuggestBabyName(baby_games_pb2.SuggestBabyNameRequest(
        profile_id=profile, name="isla", gender=Gender.BABY_VOTE_GENDER_GIRL), metadata=bearer(mum), timeout=10))
    assert (code, reason) == (grpc.StatusCode.ALREADY_EXISTS, "NAME_ALREADY_SUGGESTED")
    for _ in range(2):  # liking twice likes once
        liked = gamification.LikeBabyNameSuggestion(baby_games_pb2.LikeBabyNameSuggestionRequest(
            profile_id=profile, suggestion_id=suggestion.suggestion_id), metadata=bearer(grandpa), timeout=10)
    assert liked.suggestion.likes == 1 and liked.suggestion.liked_by_me

    def grandma_told():
        notices = family.ListNotifications(family_pb2.ListNotificationsRequest(), metadata=bearer(grandma),
                                           timeout=10).notifications
        liked = [n for n in notices if n.kind == family_pb2.NOTIFICATION_KIND_BABY_NAME_LIKED]
        assert len(liked) == 1
        return liked[0]
    notice = eventually("grandma hears her name idea was liked", grandma_told)
    assert notice.body.endswith("liked your name idea Isla.")

    family.AnnounceArrival(baby_arrival_pb2.AnnounceArrivalRequest(
        profile_id=profile, arrival=baby_arrival_pb2.BabyArrival(name="Olivia", birth_date=born)),
        metadata=bearer(mum), timeout=10)
    revealed = eventually("the votes are revealed", lambda: results(grandma))
    assert revealed.arrival.name == "Olivia" and revealed.arrival.birth_date == born
    assert [(t.name, t.votes) for t in revealed.name_tallies] == [("Olivia", 2)]
    assert sorted((t.gender, t.votes) for t in revealed.gender_tallies) == [
        (Gender.BABY_VOTE_GENDER_GIRL, 1), (Gender.BABY_VOTE_GENDER_BOY, 1)]
    assert [(g.user_id, g.days_off) for g in revealed.closest_date_guesses] == [(grandpa_id, 0), (grandma_id, 2)]
    guessed = date_pb2.Date(year=near.year, month=near.month, day=near.day)
    assert revealed.my_votes.name == "Olivia" and revealed.my_votes.birth_date == guessed  # grandma's own votes
    code, reason, _ = refusal(lambda: results(stranger))
    assert (code, reason) == (grpc.StatusCode.NOT_FOUND, "BABY_PROFILE_NOT_FOUND")
