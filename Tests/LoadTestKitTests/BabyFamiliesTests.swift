import LoadTestKit
import Testing

@Suite struct BabyFamiliesTests {
    let families = BabyFamilies(tag: "0a1b2c3d", users: 100, profiles: 1_000)

    @Test func onlyTheGroupsTheUsersMakeAreLive() {
        #expect(families.liveProfiles == 10)
        #expect(BabyFamilies(tag: "0a1b2c3d", users: 100, profiles: 4).liveProfiles == 4)
    }

    @Test func eachGroupsFirstUserOwnsItsProfileAndTheNextThreeFollowItAndTheNext() {
        #expect(families.ownedProfile(of: 30) == 3)
        #expect(families.ownedProfile(of: 31) == nil)
        #expect(families.followedProfiles(of: 31) == [3, 4])
        #expect(families.followedProfiles(of: 93) == [9, 0])
        #expect(families.followedProfiles(of: 34).isEmpty)
    }

    // Who a write must reach is who follows or owns the profile: the two views must agree.
    @Test func membersAreExactlyTheOwnerAndTheUsersWhoFollowTheProfile() {
        for profile in 0..<families.liveProfiles {
            let followers = (0..<families.users).filter {
                families.followedProfiles(of: $0).contains(profile)
            }
            let members = families.members(of: profile)
            #expect(members.first == profile * BabyFamilies.groupSize)
            #expect(Set(members.dropFirst()) == Set(followers))
            #expect(members.count == 7)
        }
    }

    @Test func aSingleFamilyFollowsItsOwnProfileOnce() {
        let one = BabyFamilies(tag: "0a1b2c3d", users: 10, profiles: 1)
        #expect(one.followedProfiles(of: 2) == [0])
        #expect(one.members(of: 0) == [0, 1, 2, 3])
    }

    @Test func idsAreTheSeedsTagThenTheirSpaceAndNumberInHex() {
        #expect(families.profileID(255) == "0a1b2c3d-0006-4000-8000-0000000000ff")
        #expect(families.eventID(3, 1) == "0a1b2c3d-0007-4000-8000-000000000007")
        #expect(families.itemID(2, 3) == "0a1b2c3d-0008-4000-8000-00000000000b")
    }

    @Test func personasFollowTheFamiliesAndTheRestAreAdultsAndScreenTimeUsers() {
        let personas = (0..<10).map { Persona.of(user: $0, families: families) }
        #expect(
            personas == [
                .babyOwner, .grandparent, .grandparent, .grandparent, .screenTime, .adult, .adult, .guardian,
                .teen,
                .screenTime,
            ])
        // Beyond the live families (and with no baby profiles at all), their places are adults'.
        let none = BabyFamilies(tag: "0a1b2c3d", users: 100, profiles: 0)
        #expect((0..<10).map { Persona.of(user: $0, families: none) }.filter { $0 == .adult }.count == 6)
        #expect(Persona.of(user: 200, families: families) == .adult)
    }
}
