@testable import FamilyService
import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// The default name is "Baby" and the father's last name: owners say how they relate to the baby when they
/// create the profile or accept ownership; with two fathers or none it is the creator's last name.
@Suite struct BabyNamesakeTests {
    /// Registers a user whose family profile has `last` as its last name.
    private func parent(_ name: String, last: String, in stack: FamilyTestStack) async throws -> TestUser {
        let user = try await stack.register(name, age: 32)
        _ = try await stack.family.updateProfile(
            .init(updateMask: ["last_name"], profile: .init(lastName: last)), options: user.bearer)
        return user
    }

    private func displayName(_ profile: String, as user: TestUser, in stack: FamilyTestStack) async throws
        -> String?
    {
        try await stack.family.getBabyProfile(.init(profileID: profile), options: user.bearer).profile?
            .displayName
    }

    @Test func aMotherCreatesAndTheFatherCoOwnsTheBabyTakesTheFathersLastName() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await parent("mum", last: "Lopez", in: stack)
            let dad = try await parent("dad", last: "Okafor", in: stack)
            let gran = try await stack.register("gran", age: 66)
            let created = try await stack.createBaby(mum, relationship: .mother)
            #expect(created.displayName == "Baby Lopez", "no father yet: the creator's")

            try await stack.join(dad, created.profileID, as: .owner, by: mum, relationship: .father)
            try await stack.join(gran, created.profileID, by: mum)
            for reader in [mum, dad, gran] {
                #expect(try await displayName(created.profileID, as: reader, in: stack) == "Baby Okafor")
            }
            let listed = try await stack.family.listMyBabyProfiles(.init(), options: gran.bearer)
            #expect(listed.profiles.map(\.displayName) == ["Baby Okafor"])
            let members = try await stack.members(of: created.profileID, as: mum)
            #expect(members.map(\.relationship) == [.mother, .father, .grandma])

            // The join reads the father's profile now: his later change shows, and so does leaving.
            _ = try await stack.family.updateProfile(
                .init(updateMask: ["last_name"], profile: .init(lastName: "Okafor-Reid")), options: dad.bearer
            )
            #expect(try await displayName(created.profileID, as: gran, in: stack) == "Baby Okafor-Reid")
            _ = try await stack.family.leaveBabyProfile(
                .init(profileID: created.profileID), options: dad.bearer)
            #expect(try await displayName(created.profileID, as: gran, in: stack) == "Baby Lopez")
        }
    }

    @Test(arguments: [
        (Kindred_Family_V1_Relationship.father, Kindred_Family_V1_Relationship.father),
        (.mother, .mother), (.parent, .unspecified), (.unspecified, .unspecified),
    ])
    func twoFathersOrNoneKeepTheCreatorsLastName(
        creator: Kindred_Family_V1_Relationship, coOwner: Kindred_Family_V1_Relationship
    ) async throws {
        try await FamilyTestStack.with { stack in
            let first = try await parent("first", last: "Lopez", in: stack)
            let second = try await parent("second", last: "Okafor", in: stack)
            let created = try await stack.createBaby(first, relationship: creator)
            try await stack.join(second, created.profileID, as: .owner, by: first, relationship: coOwner)
            #expect(try await displayName(created.profileID, as: second, in: stack) == "Baby Lopez")
        }
    }

    @Test func aFatherWhoCreatesKeepsHisNameWhenTheMotherJoins() async throws {
        try await FamilyTestStack.with { stack in
            let dad = try await parent("dad", last: "Okafor", in: stack)
            let mum = try await parent("mum", last: "Lopez", in: stack)
            let created = try await stack.createBaby(dad, relationship: .father)
            try await stack.join(mum, created.profileID, as: .owner, by: dad, relationship: .mother)
            #expect(try await displayName(created.profileID, as: mum, in: stack) == "Baby Okafor")
        }
    }

    @Test func aFollowerInvitedAsCoOwnerSaysFatherAndTheNameFollows() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await parent("mum", last: "Lopez", in: stack)
            let dad = try await parent("dad", last: "Okafor", in: stack)
            let created = try await stack.createBaby(mum, relationship: .mother)
            try await stack.join(dad, created.profileID, by: mum)
            _ = try await stack.invite(dad.email, to: created.profileID, as: .owner, by: mum)
            #expect(try await stack.acceptNewestLink(dad, relationship: .father).role == .owner)
            #expect(try await displayName(created.profileID, as: mum, in: stack) == "Baby Okafor")
            #expect(
                try await stack.members(of: created.profileID, as: mum).map(\.relationship) == [
                    .mother, .father,
                ])
        }
    }

    @Test func aRelationshipOfTheOtherRoleIsRefusedOnTheRelationshipField() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await parent("mum", last: "Lopez", in: stack)
            let dad = try await stack.register("dad", age: 33)
            let gran = try await stack.register("gran", age: 66)
            let create = await rpcError {
                try await stack.family.createBabyProfile(
                    .init(requestID: "create-1", relationship: .grandma), options: mum.bearer)
            }
            #expect(create?.code == .invalidArgument && create?.badFields == ["relationship"])
            #expect(try await stack.family.listMyBabyProfiles(.init(), options: mum.bearer).profiles.isEmpty)

            let created = try await stack.createBaby(mum, relationship: .mother)
            _ = try await stack.invite(dad.email, to: created.profileID, as: .owner, by: mum)
            let owner = await rpcError { try await stack.acceptNewestLink(dad, relationship: .uncle) }
            #expect(owner?.code == .invalidArgument && owner?.badFields == ["relationship"])
            _ = try await stack.invite(gran.email, to: created.profileID, by: mum)
            let follower = await rpcError { try await stack.acceptNewestLink(gran, relationship: .father) }
            #expect(follower?.code == .invalidArgument && follower?.badFields == ["relationship"])
            #expect(try await stack.members(of: created.profileID, as: mum).map(\.userID) == [mum.id])
        }
    }
}
