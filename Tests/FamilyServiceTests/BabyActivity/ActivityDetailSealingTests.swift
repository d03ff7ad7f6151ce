@testable import FamilyService
import FoundationEssentials
import KindredHandlers
import KindredPostgres
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// The activity's details at rest (`ActivityDetails`): sealed when recorded, shown whole on the home screen,
/// and plaintext entries from before sealing sealed by `keys rotate-data`.
@Suite struct ActivityDetailSealingTests {
    @Test func aCommentsTextIsSealedInTheActivityAndShownWholeOnTheHome() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let grandma = try await stack.register("grandma", age: 70)
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [grandma])
            try await stack.record(.commentAdded, on: profile, by: grandma, detail: "Quillon Vexmoor!")
            try await stack.record(.commentAdded, on: profile, by: grandma, detail: "Second")

            let rows = try await stack.pool.query(
                "SELECT coalesce(string_agg(a::text, ' '), '') FROM family.baby_activity a")[0].decode(
                    String.self)
            #expect(!rows.contains("Quillon") && !rows.contains("Second"))
            #expect(try await Self.details(stack, mum) == ["Second", "Quillon Vexmoor!"])

            try await stack.pool.query(
                """
                UPDATE family.baby_activity SET detail = 'Before', detail_sealed = NULL
                WHERE profile_id = \(profile)::uuid AND activity_id = (
                    SELECT activity_id FROM family.baby_activity WHERE profile_id = \(profile)::uuid
                    ORDER BY activity_id LIMIT 1)
                """)
            #expect(try await Self.details(stack, mum) == ["Second", "Before"])
            let rotation = ActivityDetails.rotation(cipher: TestDataKeys.cipher, on: stack.pool)
            #expect(try await rotation.resealAll() == 1)
            #expect(try await rotation.resealAll() == 0)
            #expect(try await Self.details(stack, mum) == ["Second", "Before"])
            let plain = try await stack.pool.query(
                "SELECT count(*)::int FROM family.baby_activity WHERE detail IS NOT NULL")[0].decode(Int.self)
            #expect(plain == 0)
        }
    }

    /// The comment details `user`'s home shows, newest first.
    static func details(_ stack: FamilyTestStack, _ user: TestUser) async throws -> [String] {
        try await stack.family.getHome(.init(), options: user.bearer).activity
            .filter { $0.kind == .commentAdded }.map(\.detail)
    }
}
