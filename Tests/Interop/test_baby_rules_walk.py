"""Issue 28's baby-profile rules walked from a stock grpcio client: the mother creates the profile and the
father co-owns it, so it reads "Baby <father's last name>"; each parent hears of the content the other adds;
the suggestions list every stage's; a follower's name suggestion reaches the owners, who remove it and end and
reset the secret vote without learning a vote; members read each other's activity counters, strangers do not.

Needs the identity, family and gamification targets in KINDRED_INTEROP_TARGETS and the maildir in
KINDRED_TEST_MAILDIR; Tests/run sets them.
"""

import uuid

import grpc

from baby_support import eventually, invite_and_accept
from family_support import signed_up
from google.protobuf import field_mask_pb2
from kindred.family.v1 import baby_activity_pb2, baby_content_pb2, baby_profiles_pb2, family_pb2
from kindred.gamification.v1 import baby_games_pb2, counters_pb2
from rpc_support import bearer, refusal

Gender = baby_games_pb2.BabyVoteGender


def named(family, token, last_name):
    family.UpdateProfile(family_pb2.UpdateProfileRequest(
        update_mask=field_mask_pb2.FieldMask(paths=["last_name"]), profile=family_pb2.Profile(last_name=last_name)),
        metadata=bearer(token), timeout=10)


def notices(family, token, kind):
    listed = family.ListNotifications(family_pb2.ListNotificationsRequest(), metadata=bearer(token), timeout=10)
    return [n for n in listed.notifications if n.kind == kind]


def test_the_father_names_the_baby_and_each_parent_hears_of_the_others_content(identity, family):
    _, _, mum = signed_up(identity, 31)
    _, dad_email, dad = signed_up(identity, 33)
    _, grandma_email, grandma = signed_up(identity, 66)
    named(family, mum, "Lopez")
    named(family, dad, "Okafor")
    pid = family.CreateBabyProfile(baby_profiles_pb2.CreateBabyProfileRequest(
        request_id=str(uuid.uuid4()), relationship=baby_profiles_pb2.RELATIONSHIP_MOTHER),
        metadata=bearer(mum), timeout=10).profile.profile_id
    profile = invite_and_accept(family, mum, pid, dad_email, dad, baby_profiles_pb2.BABY_ROLE_OWNER,
                                baby_profiles_pb2.RELATIONSHIP_FATHER)
    assert profile.display_name == "Baby Okafor"
    invite_and_accept(family, mum, pid, grandma_email, grandma, baby_profiles_pb2.BABY_ROLE_FOLLOWER,
                      baby_profiles_pb2.RELATIONSHIP_GRANDMA)

    family.CreateRegistryItem(baby_content_pb2.CreateRegistryItemRequest(
        request_id=str(uuid.uuid4()), profile_id=pid, item=baby_content_pb2.RegistryItem(name="Stroller")),
        metadata=bearer(dad), timeout=10)
    kind = family_pb2.NOTIFICATION_KIND_BABY_REGISTRY_ITEM
    assert [n.body for n in notices(family, mum, kind)] == ["New in the registry: Stroller"]
    assert [n.title for n in notices(family, grandma, kind)] == ["Baby Okafor"]
    assert notices(family, dad, kind) == []

    everything = family.ListSuggestions(baby_activity_pb2.ListSuggestionsRequest(
        profile_id=pid, all_stages=True), metadata=bearer(mum), timeout=10)
    assert len({s.stage for s in everything.suggestions}) == 16
    six = family.ListSuggestions(baby_activity_pb2.ListSuggestionsRequest(
        profile_id=pid, stage=baby_activity_pb2.BABY_STAGE_MONTH_6), metadata=bearer(mum), timeout=10)
    assert six.stage == baby_activity_pb2.BABY_STAGE_MONTH_6 and six.suggestions
    code, reason, _ = refusal(lambda: family.CreateBabyProfile(baby_profiles_pb2.CreateBabyProfileRequest(
        request_id=str(uuid.uuid4()), relationship=baby_profiles_pb2.RELATIONSHIP_GRANDPA),
        metadata=bearer(dad), timeout=10))
    assert code == grpc.StatusCode.INVALID_ARGUMENT


def test_owners_run_the_fun_and_members_see_each_others_counters(identity, family, gamification):
    mum_id, _, mum = signed_up(identity, 31)
    grandma_id, grandma_email, grandma = signed_up(identity, 66)
    _, _, stranger = signed_up(identity, 40)
    pid = family.CreateBabyProfile(baby_profiles_pb2.CreateBabyProfileRequest(
        request_id=str(uuid.uuid4())), metadata=bearer(mum), timeout=10).profile.profile_id
    invite_and_accept(family, mum, pid, grandma_email, grandma, baby_profiles_pb2.BABY_ROLE_FOLLOWER,
                      baby_profiles_pb2.RELATIONSHIP_GRANDMA)

    suggestion = gamification.SuggestBabyName(baby_games_pb2.SuggestBabyNameRequest(
        profile_id=pid, name="Isla", gender=Gender.BABY_VOTE_GENDER_GIRL),
        metadata=bearer(grandma), timeout=10).suggestion
    def mum_told():
        told = notices(family, mum, family_pb2.NOTIFICATION_KIND_BABY_NAME_SUGGESTED)
        assert len(told) == 1
        return told[0]
    assert eventually("mum hears of grandma's name idea", mum_told).body.endswith("suggested the name Isla.")
    remove = baby_games_pb2.DeleteBabyNameSuggestionRequest(profile_id=pid, suggestion_id=suggestion.suggestion_id)
    code, reason, _ = refusal(lambda: gamification.DeleteBabyNameSuggestion(
        remove, metadata=bearer(grandma), timeout=10))
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "BABY_PROFILE_OWNERS_ONLY")
    gamification.DeleteBabyNameSuggestion(remove, metadata=bearer(mum), timeout=10)
    assert not gamification.ListBabyNameSuggestions(baby_games_pb2.ListBabyNameSuggestionsRequest(
        profile_id=pid), metadata=bearer(mum), timeout=10).suggestions

    gamification.CastBabyVote(baby_games_pb2.CastBabyVoteRequest(
        profile_id=pid, gender=Gender.BABY_VOTE_GENDER_GIRL), metadata=bearer(grandma), timeout=10)
    ended = gamification.EndBabyVote(baby_games_pb2.EndBabyVoteRequest(profile_id=pid), metadata=bearer(mum),
                                     timeout=10)
    assert ended.SerializeToString() == b""
    code, reason, _ = refusal(lambda: gamification.CastBabyVote(baby_games_pb2.CastBabyVoteRequest(
        profile_id=pid, gender=Gender.BABY_VOTE_GENDER_BOY), metadata=bearer(grandma), timeout=10))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "VOTING_CLOSED")
    gamification.ResetBabyVote(baby_games_pb2.ResetBabyVoteRequest(profile_id=pid), metadata=bearer(mum),
                               timeout=10)
    gamification.CastBabyVote(baby_games_pb2.CastBabyVoteRequest(
        profile_id=pid, gender=Gender.BABY_VOTE_GENDER_BOY), metadata=bearer(grandma), timeout=10)

    counters = gamification.GetActivityCounters(counters_pb2.GetActivityCountersRequest(user_id=grandma_id),
                                               metadata=bearer(mum), timeout=10).counters
    assert counters.user_id == grandma_id
    code, reason, _ = refusal(lambda: gamification.GetActivityCounters(counters_pb2.GetActivityCountersRequest(
        user_id=mum_id), metadata=bearer(stranger), timeout=10))
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "ACTIVITY_COUNTERS_PRIVATE")
