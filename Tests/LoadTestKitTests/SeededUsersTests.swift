import LoadTestKit
import Testing

// The seed's SQL derives the same ids, tokens and friendships (Tests/LoadTest/SeedWriter.swift); a run whose
// users all resume their sessions and message their friends is the end-to-end check.
@Suite struct SeededUsersTests {
    let users = SeededUsers(secret: "0123456789abcdef", count: 11)

    @Test func anIdIsTheSecretsTagAndTheIndexInHex() {
        #expect(users.userID(255) == "01234567-0000-4000-8000-0000000000ff")
        #expect(users.userID(0).count == 36)
    }

    @Test func theFirstRefreshTokenIsHexOfSHA256OfSecretAndIndex() {
        #expect(
            users.firstRefreshToken(7) == "f22084742dee3db5bd790c9b2b2860b4f085d4b4d4cac8c2033e8368bf5fac6e")
    }

    // The seed writes one row per user and friend: a one-sided ring would leave half of each friendship out.
    @Test func friendshipIsSymmetricWithoutSelfOrRepeats() {
        for user in 0..<users.count {
            let friends = users.friends(of: user, perSide: 3)
            #expect(friends.count == 6)
            #expect(!friends.contains(user))
            #expect(Set(friends).count == friends.count)
            for friend in friends { #expect(users.friends(of: friend, perSide: 3).contains(user)) }
        }
    }

    @Test func aSmallSeedHasAsManyFriendsAsThereAreOthers() {
        #expect(SeededUsers(secret: "0123456789abcdef", count: 2).friends(of: 0, perSide: 5) == [1])
        #expect(Set(SeededUsers(secret: "0123456789abcdef", count: 3).friends(of: 0, perSide: 5)) == [1, 2])
    }

    // A teenager's refused message must go to someone they neither befriend nor follow (the seed follows
    // every friend), and their guardian is the adult just before them.
    @Test func aMinorsStrangerIsNoFriendAndTheirGuardianIsNoMinor() {
        let users = SeededUsers(secret: "0123456789abcdef", count: 200)
        let minors = (0..<200).filter(SeededUsers.isMinor)
        #expect(minors.count == 20)
        for minor in minors {
            #expect(!users.friends(of: minor, perSide: 5).contains(users.stranger(of: minor)))
            #expect(users.stranger(of: minor) != minor)
            #expect(!SeededUsers.isMinor(SeededUsers.guardian(of: minor)))
        }
    }

    // The seed makes the sixth of each ten users' events public; a teenager must need approval to join one,
    // so its organizer must be neither friend nor followed (the seed follows exactly the friends).
    @Test func aTeenagersPublicOrganizersArePublicAndStrangers() throws {
        let users = SeededUsers(secret: "0123456789abcdef", count: 200)
        for minor in (0..<200).filter(SeededUsers.isMinor) {
            let organizers = try (0..<3).map { try #require(users.publicOrganizer(farFrom: minor, pick: $0)) }
            #expect(Set(organizers).count == 3)
            for organizer in organizers {
                #expect(organizer % 10 == 5 && organizer < 200)
                #expect(!users.friends(of: minor, perSide: 5).contains(organizer))
            }
        }
        #expect(SeededUsers(secret: "0123456789abcdef", count: 9).publicOrganizer(farFrom: 8, pick: 0) == nil)
        #expect(users.eventID(organizer: 26) == "01234567-000c-4000-8000-00000000001a")
    }
}
