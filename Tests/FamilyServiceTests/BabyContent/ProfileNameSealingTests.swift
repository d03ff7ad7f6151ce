import Foundation
import KindredHandlers
import KindredMessages
import KindredTestSupport
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// People's first and last names at rest (`ProfileNames`): sealed when written, nowhere in a dump of family's
/// schema (nor in the notices and activity that show them), read where they are shown (the profile, a baby's
/// name after its namesake), and names from before sealing sealed by `keys rotate-data`.
@Suite struct ProfileNameSealingTests {
    @Test func namesAreNowhereInTheDumpAndAreReadWhereTheyAreShown() async throws {
        try await BabyContentFamily.with { home in
            try await Self.name(home, first: "Ottoline", last: "Brackwater")
            _ = try await home.createEvent()
            let dump = try await dataDump(of: "family", on: home.stack.pool)
            #expect(!dump.contains("Ottoline") && !dump.contains("Brackwater"))
            let mine = try await home.family.getProfile(.init(), options: home.mum.bearer).profile
            #expect(mine?.firstName == "Ottoline" && mine?.lastName == "Brackwater")
            let baby = try await home.family.getBabyProfile(
                .init(profileID: home.profile.description), options: home.grandma.bearer)
            #expect("\(baby)".contains("Baby Brackwater"), "the baby is shown after its namesake's last name")
        }
    }

    @Test func namesFromBeforeSealingAreReadAndSealedByTheRotation() async throws {
        try await BabyContentFamily.with { home in
            try await Self.name(home, first: "New", last: "Name")
            try await home.stack.pool.query(
                """
                UPDATE family.profiles SET first_name = 'Oldfirst', first_name_sealed = NULL,
                    last_name = 'Oldlast', last_name_sealed = NULL
                """)
            let before = try await home.family.getProfile(.init(), options: home.mum.bearer).profile
            #expect(before?.firstName == "Oldfirst" && before?.lastName == "Oldlast")
            for rotation in ProfileNames.rotations(cipher: TestDataKeys.cipher, on: home.stack.pool) {
                #expect(try await rotation.resealAll() == 1)
                #expect(try await rotation.resealAll() == 0)
            }
            let dump = try await dataDump(of: "family", on: home.stack.pool)
            #expect(!dump.contains("Oldfirst") && !dump.contains("Oldlast"))
            let after = try await home.family.getProfile(.init(), options: home.mum.bearer).profile
            #expect(after?.firstName == "Oldfirst" && after?.lastName == "Oldlast")
        }
    }

    /// Mum writes her first and last name (and no display name).
    static func name(_ home: BabyContentFamily, first: String, last: String) async throws {
        _ = try await home.family.updateProfile(
            .init(updateMask: ["first_name", "last_name"], profile: .init(firstName: first, lastName: last)),
            options: home.mum.bearer)
    }
}
