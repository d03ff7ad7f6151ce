"""Signed-in people on the test stack, and one protected read per service with a user's token."""

import base64
import json

from family_support import signed_up
from kindred.family.v1 import family_pb2, family_pb2_grpc
from kindred.gamification.v1 import challenges_pb2, gamification_pb2_grpc
from kindred.identity.v1 import identity_pb2, identity_pb2_grpc
from kindred.social.v1 import social_pb2, social_pb2_grpc
from rpc_support import bearer

STUBS = {"identity": identity_pb2_grpc.IdentityServiceStub, "family": family_pb2_grpc.FamilyServiceStub,
         "social": social_pb2_grpc.SocialServiceStub, "gamification": gamification_pb2_grpc.GamificationServiceStub}


def stubs(channels):
    return {name: STUBS[name](channel) for name, channel in channels.items()}


def protected_read(stubs, service, token, **options):
    """One read each service answers only to a valid token, from its database."""
    metadata = bearer(token)
    if service == "identity":
        return stubs["identity"].GetMe(identity_pb2.GetMeRequest(), metadata=metadata, timeout=10, **options)
    if service == "family":
        return stubs["family"].GetParentalControlsStatus(family_pb2.GetParentalControlsStatusRequest(),
                                                         metadata=metadata, timeout=10, **options)
    if service == "social":
        return stubs["social"].ListFriends(social_pb2.ListFriendsRequest(), metadata=metadata, timeout=10,
                                           **options)
    return stubs["gamification"].GetCoinBalance(challenges_pb2.GetCoinBalanceRequest(), metadata=metadata,
                                                timeout=10, **options)


def key_id(token):
    header = token.split(".")[0]
    return json.loads(base64.urlsafe_b64decode(header + "=" * (-len(header) % 4)))["kid"]


def claims(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


__all__ = ["signed_up", "stubs", "protected_read", "key_id", "claims"]
