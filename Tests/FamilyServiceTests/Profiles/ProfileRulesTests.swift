@testable import FamilyService
import Foundation
import KindredHandlers
import KindredMessages
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Profiles as each caller may see them, and the owner's changes through an update mask.
@Suite struct ProfileRulesTests {
    let full = Kindred_Family_V1_Profile(
        displayName: "Mia", firstName: "Mia", lastName: "Rossi", avatarURL: "https://cdn.example.com/mia.png",
        bio: "Drums and dinosaurs.")
    let allFields = ["display_name", "first_name", "last_name", "avatar_url", "bio"]

    @Test func aUserWithoutAProfileRowHasAnEmptyProfile() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool)
            let nobody = UserID.generate(at: Date())
            let profile = try await rules.profiles.profile(of: nobody, as: FamilyCallers.adult())
            #expect(profile == Kindred_Family_V1_Profile(userID: nobody.description))
        }
    }

    @Test func anEmptyUserIDReadsTheCallersOwnProfile() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool)
            let mia = FamilyCallers.minor()
            _ = try await rules.profiles.update(mask: allFields, to: full, as: mia)
            let own = try await rules.profiles.profile(of: try Profiles.subject(named: "", for: mia), as: mia)
            #expect(own.userID == mia.id.description && own.firstName == "Mia" && own.lastName == "Rossi")
            #expect(own.updatedAt != nil)
        }
    }

    @Test(arguments: ["not-a-uuid", "0192f5e0-7c1a-7b3e-8f00", "'; DROP TABLE family.profiles; --"])
    func aMalformedUserIDIsInvalidArgument(_ userID: String) async throws {
        let error = await rpcError { _ = try Profiles.subject(named: userID, for: FamilyCallers.adult()) }
        #expect(error?.code == .invalidArgument && error?.badFields == ["user_id"])
    }

    @Test func anyCaseOfAUserIDNamesTheSameProfile() throws {
        let mia = FamilyCallers.minor().id
        let named = try Profiles.subject(named: mia.description.uppercased(), for: FamilyCallers.adult())
        #expect(named == mia)
    }

    @Test func aServiceMustNameTheProfileItReads() async throws {
        let error = await rpcError { _ = try Profiles.subject(named: "", for: FamilyCallers.service) }
        #expect(error?.code == .invalidArgument && error?.badFields == ["user_id"])
    }

    @Test func namesAreForTheUserTheirGuardiansAndServicesOnly() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool)
            let (mia, dad, stranger, otherGuardian) = (
                FamilyCallers.minor(), FamilyCallers.adult(), FamilyCallers.adult(), FamilyCallers.adult()
            )
            _ = try await rules.profiles.update(mask: allFields, to: full, as: mia)
            try await rules.link(dad, to: mia)
            try await rules.link(otherGuardian, to: FamilyCallers.minor())
            for reader in [mia, dad, FamilyCallers.service] {
                let seen = try await rules.profiles.profile(of: mia.id, as: reader)
                #expect(seen.firstName == "Mia" && seen.lastName == "Rossi")
            }
            for reader in [stranger, otherGuardian] {
                let seen = try await rules.profiles.profile(of: mia.id, as: reader)
                #expect(seen.firstName.isEmpty && seen.lastName.isEmpty)
                #expect(seen.displayName == "Mia" && seen.bio == full.bio && seen.avatarURL == full.avatarURL)
            }
        }
    }

    @Test func onlyTheMaskedFieldsChange() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool)
            let mia = FamilyCallers.minor()
            _ = try await rules.profiles.update(mask: allFields, to: full, as: mia)
            let changed = try await rules.profiles.update(
                mask: ["bio"], to: Kindred_Family_V1_Profile(displayName: "ignored", bio: ""), as: mia)
            #expect(changed.displayName == "Mia" && changed.firstName == "Mia" && changed.bio.isEmpty)
            let firstWrite = try await rules.profiles.update(
                mask: ["display_name"], to: Kindred_Family_V1_Profile(displayName: "Dad", bio: "ignored"),
                as: FamilyCallers.adult())
            #expect(firstWrite.displayName == "Dad" && firstWrite.bio.isEmpty)
        }
    }

    @Test func everyUnknownMaskPathIsNamed() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let error = await rpcError {
                try await GuardianRules(pool).profiles.update(
                    mask: ["bio", "email", "user_id"], to: full, as: FamilyCallers.adult())
            }
            #expect(error?.code == .invalidArgument)
            #expect(error?.badFields == ["update_mask", "update_mask"])
            let descriptions = error?.badFieldDescriptions.joined(separator: " ") ?? ""
            #expect(descriptions.contains("\"email\"") && descriptions.contains("\"user_id\""))
        }
    }

    static let refusedValues: [(field: String, value: String)] = [
        ("display_name", String(repeating: "a", count: 51)),
        ("first_name", String(repeating: "é", count: 51)),
        ("last_name", "Ross\u{7}i"),
        ("bio", String(repeating: "b", count: 281)),
        ("bio", "line one\nline two"),
        ("avatar_url", "http://cdn.example.com/mia.png"),
        ("avatar_url", "https://"),
        ("avatar_url", "https://cdn.example.com/a b.png"),
        ("avatar_url", "javascript:alert(1)"),
        ("avatar_url", "https://cdn.example.com/" + String(repeating: "x", count: 2_025)),
    ]

    @Test(arguments: refusedValues)
    func refusedValuesAreNamedAndNothingIsStored(_ refused: (field: String, value: String)) async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool)
            let mia = FamilyCallers.minor()
            var row = ProfileStore.Row()
            try #require(ProfileField(rawValue: refused.field)).assign(refused.value, to: &row)
            let profile = row.proto(of: mia.accountUserID!, withNames: true)
            let error = await rpcError {
                try await rules.profiles.update(mask: [refused.field], to: profile, as: mia)
            }
            #expect(error?.code == .invalidArgument && error?.badFields == ["profile.\(refused.field)"])
            #expect(try await rules.count("profiles", "user_id", mia.id) == 0)
        }
    }

    @Test func theLimitsThemselvesAreAccepted() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let longest = Kindred_Family_V1_Profile(
                displayName: String(repeating: "👩‍👧", count: 50), firstName: String(repeating: "é", count: 50),
                lastName: String(repeating: "z", count: 50),
                avatarURL: "https://cdn.example.com/" + String(repeating: "x", count: 2_024),
                bio: String(repeating: "b", count: 280))
            let stored = try await GuardianRules(pool).profiles.update(
                mask: allFields, to: longest, as: FamilyCallers.adult())
            #expect(stored.displayName == longest.displayName && stored.avatarURL.utf8.count == 2_048)
        }
    }

    @Test func nobodyWritesAnotherUsersProfileNorAServiceAny() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool)
            let other = Kindred_Family_V1_Profile(userID: UUIDv7.generate(at: Date()), bio: "hijacked")
            let foreign = await rpcError {
                try await rules.profiles.update(mask: ["bio"], to: other, as: FamilyCallers.adult())
            }
            #expect(foreign?.badFields == ["profile.user_id"])
            let service = await rpcError {
                try await rules.profiles.update(mask: ["bio"], to: full, as: FamilyCallers.service)
            }
            #expect(service?.code == .permissionDenied && service?.reason == "ACCOUNT_REQUIRED")
        }
    }
}
