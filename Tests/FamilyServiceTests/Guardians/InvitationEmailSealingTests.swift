@testable import FamilyService
import KindredAPI
import KindredAuth
import KindredPostgres
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// The addresses invitations are mailed to, at rest (`InvitationEmails`): sealed when written, still compared
/// by the invitation rules (a retry, the re-invite interval, the newest link per address), listed whole, and
/// rows from before sealing read as they are until `keys rotate-data` seals them.
@Suite struct InvitationEmailSealingTests {
    @Test func aGuardianInvitationsAddressIsSealedAndOldRowsStillCountUntilTheRotationSealsThem() async throws
    {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool)
            let mia = FamilyCallers.minor()
            let (first, _) = try await rules.invite("quillon.dad@example.com", from: mia)
            #expect(first.guardianEmail == "quillon.dad@example.com")
            #expect(!(try await Self.rows("guardian_invitations", on: pool)).contains("quillon"))
            #expect(try await Self.pending(rules, mia) == ["quillon.dad@example.com"])

            try await pool.query(
                """
                UPDATE family.guardian_invitations
                SET guardian_email = 'quillon.dad@example.com', guardian_email_sealed = NULL
                """)
            #expect(try await Self.pending(rules, mia) == ["quillon.dad@example.com"])
            let tooSoon = await rpcError { try await rules.invite("Quillon.Dad@example.com", from: mia) }
            #expect(
                tooSoon?.reason == "INVITATIONS_RATE_LIMITED", "an address from before sealing still counts")

            let rotation = InvitationEmails(cipher: TestDataKeys.cipher).rotations(on: pool)[0]
            #expect(try await rotation.resealAll() == 1)
            #expect(try await rotation.resealAll() == 0)
            #expect(!(try await Self.rows("guardian_invitations", on: pool)).contains("quillon"))
            #expect(try await Self.pending(rules, mia) == ["quillon.dad@example.com"])
            rules.clock.advance(seconds: 10 * 60)
            let (_, newest) = try await rules.invite("QUILLON.dad@example.com", from: mia)
            #expect(try await Self.pending(rules, mia) == ["QUILLON.dad@example.com"], "the old link expired")
            _ = try await rules.guardians.accept(token: newest, as: FamilyCallers.adult())
        }
    }

    @Test func aBabyInvitationsAddressIsSealedAndOldRowsStillCountUntilTheRotationSealsThem() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 31)
            let profile = try await stack.createBaby(mum, name: "Ada").profileID
            let first = try await stack.invite(
                "zindlewood@example.com", to: profile, by: mum, requestID: "one")
            #expect(first.email == "zindlewood@example.com")
            #expect(!(try await Self.rows("baby_invitations", on: stack.pool)).contains("zindlewood"))

            try await stack.pool.query(
                "UPDATE family.baby_invitations SET email = 'zindlewood@example.com', email_sealed = NULL")
            #expect(try await Self.listed(profile, stack, mum) == ["zindlewood@example.com pending"])
            let retry = try await stack.invite(
                "Zindlewood@example.com", to: profile, by: mum, requestID: "one")
            #expect(
                retry.invitationID == first.invitationID, "a retry is told by an address from before sealing")
            _ = try await stack.invite("ZINDLEWOOD@example.com", to: profile, by: mum, requestID: "two")
            #expect(
                try await Self.listed(profile, stack, mum)
                    == ["ZINDLEWOOD@example.com pending", "zindlewood@example.com expired"])

            let rotation = InvitationEmails(cipher: TestDataKeys.cipher).rotations(on: stack.pool)[1]
            #expect(try await rotation.resealAll() == 1)
            #expect(try await rotation.resealAll() == 0)
            let rows = try await Self.rows("baby_invitations", on: stack.pool)
            #expect(!rows.contains("zindlewood") && !rows.contains("ZINDLEWOOD"))
            #expect(
                try await Self.listed(profile, stack, mum)
                    == ["ZINDLEWOOD@example.com pending", "zindlewood@example.com expired"])
        }
    }

    /// Every column of `table`'s rows as text (a bytea as hex), as a stolen dump would show them.
    static func rows(_ table: String, on pool: PostgresPool) async throws -> String {
        try await pool.query(
            PostgresQuery(
                unsafeSQL: "SELECT coalesce(string_agg(t::text, ' '), '') FROM family.\(table) t")
        )[0].decode(String.self)
    }

    static func pending(_ rules: GuardianRules, _ minor: Caller) async throws -> [String] {
        try await rules.guardians.links(of: minor).pending.map(\.guardianEmail)
    }

    /// `profile`'s invitations as its owner lists them, sorted: two made at the same instant of the test clock
    /// have UUIDv7 ids of the same millisecond, in no set order.
    static func listed(_ profile: String, _ stack: FamilyTestStack, _ owner: TestUser) async throws
        -> [String]
    {
        try await stack.family.listBabyProfileInvitations(.init(profileID: profile), options: owner.bearer)
            .invitations.map { "\($0.email) \($0.state == .pending ? "pending" : "expired")" }.sorted()
    }
}
