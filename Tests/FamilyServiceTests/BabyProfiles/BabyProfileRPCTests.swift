@testable import FamilyService
import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Creating, reading, editing, deleting and listing baby profiles over the wire.
@Suite struct BabyProfileRPCTests {
    @Test func aProfileWithNoNameIsShownWithTheCreatorsLastNameAndFollowsItUntilANameIsSet() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 31)
            _ = try await stack.family.updateProfile(
                .init(updateMask: ["last_name"], profile: .init(lastName: "Okafor")), options: mum.bearer)
            let created = try await stack.createBaby(mum)
            #expect(created.displayName == "Baby Okafor" && created.name == "" && created.role == .owner)

            _ = try await stack.family.updateProfile(
                .init(updateMask: ["last_name"], profile: .init(lastName: "Okafor-Reid")), options: mum.bearer
            )
            let read = try await stack.family.getBabyProfile(
                .init(profileID: created.profileID), options: mum.bearer)
            #expect(read.profile?.displayName == "Baby Okafor-Reid")

            let named = try await stack.family.updateBabyProfile(
                .init(updateMask: ["name"], profile: .init(profileID: created.profileID, name: "Ada")),
                options: mum.bearer)
            #expect(named.profile?.displayName == "Ada" && named.profile?.name == "Ada")
            let cleared = try await stack.family.updateBabyProfile(
                .init(updateMask: ["name"], profile: .init(profileID: created.profileID)), options: mum.bearer
            )
            #expect(cleared.profile?.displayName == "Baby Okafor-Reid" && cleared.profile?.name == "")
        }
    }

    @Test func aCreatorWithNoLastNameGivesTheNameBaby() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 31)
            #expect(try await stack.createBaby(mum).displayName == "Baby")
        }
    }

    @Test func aRetriedCreateReturnsTheFirstProfileAndCreatesNoOther() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 31)
            let request = Kindred_Family_V1_CreateBabyProfileRequest(
                requestID: "create-1", name: "Ada", expectedBirthDate: .init(year: 2027, month: 2, day: 28),
                gender: .girl)
            async let first = stack.family.createBabyProfile(request, options: mum.bearer)
            async let second = stack.family.createBabyProfile(request, options: mum.bearer)
            let (a, b) = try await (first, second)
            #expect(a.profile?.profileID == b.profile?.profileID)
            let again = try await stack.family.createBabyProfile(request, options: mum.bearer)
            #expect(again.profile?.profileID == a.profile?.profileID)
            #expect(again.profile?.expectedBirthDate == .init(year: 2027, month: 2, day: 28))
            #expect(again.profile?.gender == .girl)
            let mine = try await stack.family.listMyBabyProfiles(.init(), options: mum.bearer)
            #expect(mine.profiles.map(\.profileID) == [a.profile?.profileID ?? "-"])
        }
    }

    @Test func everyBadFieldIsNamedInOneAnswerAndNothingIsStored() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 31)
            let created = await rpcError {
                try await stack.family.createBabyProfile(
                    .init(
                        requestID: "", name: String(repeating: "a", count: 51),
                        expectedBirthDate: .init(year: 2027, month: 2, day: 30), gender: .unrecognized(9)),
                    options: mum.bearer)
            }
            #expect(created?.code == .invalidArgument)
            #expect(created?.badFields == ["request_id", "name", "expected_birth_date", "gender"])
            #expect(try await stack.family.listMyBabyProfiles(.init(), options: mum.bearer).profiles.isEmpty)

            let profile = try await stack.createBaby(mum, name: "Ada")
            let updated = await rpcError {
                try await stack.family.updateBabyProfile(
                    .init(
                        updateMask: ["name", "eye_colour", "profile_photo_id"],
                        profile: .init(
                            profileID: profile.profileID, name: "A\u{7}da",
                            profilePhotoID: "not-a-photo-id")),
                    options: mum.bearer)
            }
            #expect(updated?.code == .invalidArgument)
            #expect(updated?.badFields == ["profile.name", "update_mask", "profile.profile_photo_id"])
            let unchanged = try await stack.family.getBabyProfile(
                .init(profileID: profile.profileID), options: mum.bearer)
            #expect(unchanged.profile?.name == "Ada")
        }
    }

    @Test func ownersEditTheFieldsTheMaskNamesAndClearThePhoto() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 31)
            let profile = try await stack.createBaby(mum, name: "Ada")
            let changed = try await stack.family.updateBabyProfile(
                .init(
                    updateMask: ["expected_birth_date", "gender", "profile_photo_id"],
                    profile: .init(
                        profileID: profile.profileID, name: "ignored",
                        expectedBirthDate: .init(year: 2028, month: 2, day: 29), gender: .surprise)),
                options: mum.bearer)
            #expect(changed.profile?.name == "Ada" && changed.profile?.gender == .surprise)
            #expect(changed.profile?.expectedBirthDate == .init(year: 2028, month: 2, day: 29))
            #expect(changed.profile?.profilePhotoID == "")
            let cleared = try await stack.family.updateBabyProfile(
                .init(updateMask: ["expected_birth_date"], profile: .init(profileID: profile.profileID)),
                options: mum.bearer)
            #expect(cleared.profile?.expectedBirthDate == nil && cleared.profile?.gender == .surprise)
        }
    }

    @Test func theSwitcherListsOwnedProfilesFirstThenFollowedOnesWithTheCallersRolePageByPage() async throws {
        try await FamilyTestStack.with { stack in
            let (mum, aunt) = (
                try await stack.register("mum", age: 31), try await stack.register("aunt", age: 35)
            )
            let followed = try await stack.createBaby(mum, name: "Ada")
            try await stack.join(aunt, followed.profileID, by: mum)
            stack.clock.advance(seconds: 1)
            let ownedFirst = try await stack.createBaby(aunt, name: "Ben")
            stack.clock.advance(seconds: 1)
            let ownedSecond = try await stack.createBaby(aunt, name: "Cy")

            var seen: [(String, Kindred_Family_V1_BabyRole)] = []
            var token = ""
            repeat {
                let page = try await stack.family.listMyBabyProfiles(
                    .init(page: .init(pageSize: 2, pageToken: token)), options: aunt.bearer)
                seen += page.profiles.map { ($0.profileID, $0.role) }
                token = page.page?.nextPageToken ?? ""
            } while !token.isEmpty
            #expect(seen.map(\.0) == [ownedFirst.profileID, ownedSecond.profileID, followed.profileID])
            #expect(seen.map(\.1) == [.owner, .owner, .follower])

            let forged = await rpcError {
                try await stack.family.listMyBabyProfiles(
                    .init(page: .init(pageToken: "bm90LWEtdG9rZW4")), options: aunt.bearer)
            }
            #expect(forged?.badFields == ["page.page_token"])
        }
    }

    @Test func anOwnerDeletesTheProfileAndAFollowerCannot() async throws {
        try await FamilyTestStack.with { stack in
            let (mum, gran) = (
                try await stack.register("mum", age: 31), try await stack.register("gran", age: 66)
            )
            let profile = try await stack.createBaby(mum, name: "Ada")
            try await stack.join(gran, profile.profileID, by: mum)
            let refused = await rpcError {
                try await stack.family.deleteBabyProfile(
                    .init(profileID: profile.profileID), options: gran.bearer)
            }
            #expect(refused?.code == .permissionDenied && refused?.reason == "BABY_PROFILE_OWNERS_ONLY")
            let byFollower = await rpcError {
                try await stack.family.updateBabyProfile(
                    .init(updateMask: ["name"], profile: .init(profileID: profile.profileID, name: "Gran's")),
                    options: gran.bearer)
            }
            #expect(byFollower?.reason == "BABY_PROFILE_OWNERS_ONLY")
            #expect(
                try await stack.family.getBabyProfile(
                    .init(profileID: profile.profileID), options: gran.bearer
                )
                .profile?.name == "Ada")

            _ = try await stack.family.deleteBabyProfile(
                .init(profileID: profile.profileID), options: mum.bearer)
            for user in [mum, gran] {
                let gone = await rpcError {
                    try await stack.family.getBabyProfile(
                        .init(profileID: profile.profileID), options: user.bearer)
                }
                #expect(gone?.code == .notFound && gone?.reason == "BABY_PROFILE_NOT_FOUND")
                #expect(
                    try await stack.family.listMyBabyProfiles(.init(), options: user.bearer).profiles.isEmpty)
            }
        }
    }
}
