@testable import FamilyService
import KindredHandlers
import Foundation
import KindredPostgres
import KindredRuntime
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// `AcceptGuardianInvitation`: who may accept, what a link allows once, and two guardians at most however
/// many accept at once.
@Suite struct GuardianAcceptanceTests {
    @Test func anAdultWithAVerifiedEmailBecomesTheGuardianAndTheMinorIsTold() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool)
            let (mia, dad) = (FamilyCallers.minor(), FamilyCallers.adult())
            let (_, token) = try await rules.invite("dad@example.com", from: mia)
            let link = try await rules.guardians.accept(token: token, as: dad)
            #expect(link.minorID == mia.accountUserID && link.guardianID == dad.accountUserID)
            #expect(try await rules.guardians.isGuardian(dad.accountUserID!, of: mia.accountUserID!))
            let notices = try await pool.query(
                "SELECT kind, subject_user_id::text FROM family.notifications WHERE recipient_id = \(mia.id)::uuid"
            )
            #expect(
                try notices.map { try $0.decode((Int32, String?).self) }.map { "\($0.0) \($0.1 ?? "")" }
                    == ["\(Int32(7)) \(dad.id)"])
        }
    }

    @Test func acceptingAgainReturnsTheSameLinkAndChangesNothing() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool)
            let (mia, dad) = (FamilyCallers.minor(), FamilyCallers.adult())
            let (_, token) = try await rules.invite("dad@example.com", from: mia)
            let first = try await rules.guardians.accept(token: token, as: dad)
            rules.clock.advance(seconds: 8 * 24 * 3_600)
            #expect(try await rules.guardians.accept(token: token, as: dad) == first)
            let (_, second) = try await rules.invite("dad.work@example.com", from: mia)
            #expect(try await rules.guardians.accept(token: second, as: dad) == first)
            #expect(try await rules.count("guardian_links", "minor_id", mia.id) == 1)
            #expect(try await rules.count("notifications", "recipient_id", mia.id) == 1)
        }
    }

    @Test func aMinorCannotBecomeAGuardian() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool)
            let (_, token) = try await rules.invite("friend@example.com", from: FamilyCallers.minor())
            let error = await rpcError {
                try await rules.guardians.accept(token: token, as: FamilyCallers.minor(.sixteenToSeventeen))
            }
            #expect(error?.code == .permissionDenied && error?.reason == "GUARDIAN_MUST_BE_ADULT")
            _ = try await rules.guardians.accept(token: token, as: FamilyCallers.adult())
        }
    }

    @Test func anAdultWhoseEmailIsNotVerifiedIsToldToVerifyIt() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let dad = FamilyCallers.adult()
            let rules = GuardianRules(pool, unverified: [dad.id.description])
            let (_, token) = try await rules.invite("dad@example.com", from: FamilyCallers.minor())
            let error = await rpcError { try await rules.guardians.accept(token: token, as: dad) }
            #expect(error?.code == .failedPrecondition && error?.reason == "EMAIL_NOT_VERIFIED")
        }
    }

    @Test func aLinkUsedByAnotherAdultIsRefusedAsUsed() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool)
            let (_, token) = try await rules.invite("dad@example.com", from: FamilyCallers.minor())
            _ = try await rules.guardians.accept(token: token, as: FamilyCallers.adult())
            let replayed = await rpcError {
                try await rules.guardians.accept(token: token, as: FamilyCallers.adult())
            }
            #expect(replayed?.code == .failedPrecondition && replayed?.reason == "LINK_ALREADY_USED")
        }
    }

    @Test func aLinkWorksForSevenDaysAndNotASecondMore() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool)
            let (_, early) = try await rules.invite("dad@example.com", from: FamilyCallers.minor())
            let (_, late) = try await rules.invite("mum@example.com", from: FamilyCallers.minor())
            rules.clock.advance(seconds: 7 * 24 * 3_600 - 1)
            _ = try await rules.guardians.accept(token: early, as: FamilyCallers.adult())
            rules.clock.advance(seconds: 1)
            let expired = await rpcError {
                try await rules.guardians.accept(token: late, as: FamilyCallers.adult())
            }
            #expect(expired?.code == .failedPrecondition && expired?.reason == "LINK_EXPIRED")
        }
    }

    @Test(arguments: ["", "x", String(repeating: "A", count: 43), String(repeating: "A", count: 2_000)])
    func unknownOrMalformedTokensAreRefusedClearly(_ token: String) async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let error = await rpcError {
                try await GuardianRules(pool).guardians.accept(token: token, as: FamilyCallers.adult())
            }
            if token.isEmpty || token.utf8.count > 1_024 {
                #expect(error?.code == .invalidArgument && error?.badFields == ["token"])
            } else {
                #expect(error?.code == .notFound && error?.reason == "LINK_UNKNOWN")
            }
        }
    }

    @Test func aThirdGuardianIsRefusedAndTheLinkStaysUsableForLater() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool)
            let mia = FamilyCallers.minor()
            let (_, spare) = try await rules.invite("gran@example.com", from: mia)
            let dad = try await rules.link(FamilyCallers.adult(), to: mia)
            try await rules.link(FamilyCallers.adult(), to: mia)
            let gran = FamilyCallers.adult()
            let refused = await rpcError { try await rules.guardians.accept(token: spare, as: gran) }
            #expect(refused?.code == .failedPrecondition && refused?.reason == "GUARDIAN_LIMIT_REACHED")
            try await rules.guardians.remove(
                link: dad.id, as: FamilyCallers.caller(dad.guardianID.description))
            #expect(try await rules.guardians.accept(token: spare, as: gran).guardianID == gran.accountUserID)
        }
    }

    @Test(arguments: 0..<5)
    func twoAdultsAcceptingAtOnceForAMinorWithOneGuardianLeaveExactlyOneWinner(_ round: Int) async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let rules = GuardianRules(pool)
            let mia = FamilyCallers.minor()
            try await rules.link(FamilyCallers.adult(), to: mia)
            let (_, mum) = try await rules.invite("mum@example.com", from: mia)
            let (_, gran) = try await rules.invite("gran@example.com", from: mia)
            let (otherRules, other) = try await rules.secondInstance()
            let outcomes = try await GateTransaction.releasingTogether(2, minor: mia.id, on: pool) {
                async let first = rpcError {
                    try await rules.guardians.accept(token: mum, as: FamilyCallers.adult())
                }
                async let second = rpcError {
                    try await otherRules.accept(token: gran, as: FamilyCallers.adult())
                }
                return [await first, await second]
            }
            await other.close()
            #expect(outcomes.filter { $0 == nil }.count == 1)
            #expect(outcomes.compactMap { $0?.reason } == ["GUARDIAN_LIMIT_REACHED"])
            #expect(try await rules.count("guardian_links", "minor_id", mia.id) == 2)
        }
    }
}

/// Makes concurrent transactions on one minor really overlap: an open transaction inserts the minor's controls
/// row, so every acceptance waits on it at its first write; once `count` wait, it commits and they all go on
/// at the same instant. What keeps them apart from then on is the rule's own row lock.
enum GateTransaction {
    static func releasingTogether<T: Sendable>(
        _ count: Int, minor: UserID, on pool: PostgresPool, _ racers: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await pool.query("DELETE FROM family.parental_controls WHERE minor_id = \(minor)::uuid")
        let (inserted, signal) = AsyncStream<Void>.makeStream()
        let gate = Task {
            try await pool.transaction { tx in
                try await ControlsLifecycleStore.createForMinor(minor, now: Date(), in: tx)
                signal.yield()
                try await waitForWaiters(count, in: tx)
            }
        }
        for await _ in inserted { break }
        async let outcome = racers()
        try await gate.value
        return try await outcome
    }

    /// Returns once `count` other sessions of this database wait on a lock.
    private static func waitForWaiters(_ count: Int, in tx: PostgresTransaction) async throws {
        try await eventually("the racing transactions wait at the gate") {
            try await tx.query("SELECT pg_stat_clear_snapshot()")
            return try await tx.query(
                """
                SELECT count(*) FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock'
                """)[0].decode(Int64.self, column: 0) >= count
        }
    }
}
