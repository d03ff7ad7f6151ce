@testable import FamilyService
import Foundation
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredEvents
import KindredPostgres
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// The guardian PIN and the controls over a test database, at the cheapest Argon2id cost, on a clock the
/// test moves: a minor with controls on, two guardians, and a stranger.
struct PinTest {
    static let hasher = PasswordHasher(cost: .testsOnly, concurrency: 2)
    static let mail = FamilyTestStack.mail
    static let pin = "2580"
    /// PIN hashes and reset addresses sealed under the tests' data keys.
    static let secrets = GuardianPinSecrets(cipher: TestDataKeys.cipher)

    let pool: PostgresPool
    let clock: TestClock
    let minor = FamilyCallers.adult()
    let guardian = FamilyCallers.adult()
    let otherGuardian = FamilyCallers.adult()
    let stranger = FamilyCallers.adult()

    /// Runs `body` on a fresh database where `guardian` and `otherGuardian` guard `minor`, whose controls
    /// are on; `clock` starts at `start`.
    static func with(
        start: Date = TestClock.parse("2026-06-15T12:00:00Z"), _ body: (PinTest) async throws -> Void
    ) async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let test = PinTest(pool: pool, clock: TestClock(at: start))
            try await test.addControls(of: test.minor)
            try await test.link(test.guardian, to: test.minor)
            try await test.link(test.otherGuardian, to: test.minor)
            try await body(test)
        }
    }

    /// The PIN rules of one instance of the service on `pool` (another instance: another pool).
    func pins(on pool: PostgresPool? = nil) -> GuardianPins {
        GuardianPins(
            database: pool ?? self.pool, hasher: Self.hasher, clock: WallClock { clock.now }, mail: Self.mail,
            secrets: Self.secrets,
            account: { id in
                Kindred_Identity_V1_Account(
                    userID: id.description, username: PinTest.username(id), email: PinTest.email(id))
            })
    }

    /// Runs `body` with a pool of its own on the same database: what another instance of the service, or
    /// one restarted, would use.
    func withSecondPool(_ body: (PostgresPool) async throws -> Void) async throws {
        let other = PostgresPool(configuration: pool.configuration, logger: FamilyTestDatabase.logger)
        do {
            try await body(other)
        } catch {
            await other.close()
            throw error
        }
        await other.close()
    }

    var controls: MinorControls {
        MinorControls(database: pool, cipher: TestDataKeys.cipher, clock: WallClock { clock.now })
    }

    static func username(_ id: UserID) -> String { "user_\(id.description.suffix(6))" }
    static func email(_ id: UserID) -> String { "\(id.description.suffix(12))@example.com" }

    /// Makes `guardian` a guardian of `minor`, as the guardian links part does.
    func link(_ guardian: Caller, to minor: Caller) async throws {
        try await PinRows.link(guardian.id.description, to: minor.id.description, at: clock.now, on: pool)
    }

    func unlink(_ guardian: Caller, from minor: Caller) async throws {
        try await pool.query(
            """
            DELETE FROM family.guardian_links
            WHERE minor_id = \(minor.id)::uuid AND guardian_id = \(guardian.id)::uuid
            """)
    }

    func addControls(of minor: Caller, active: Bool = true) async throws {
        try await PinRows.addControls(of: minor.id.description, active: active, at: clock.now, on: pool)
    }

    /// `guardian` sets the minor's first PIN.
    func setPin(_ pin: String = PinTest.pin, by guardian: Caller? = nil) async throws {
        try await pins().set(try newPin(pin), caller: guardian ?? self.guardian)
    }

    /// A guardian session `caller` opens with `pin`.
    func session(_ caller: Caller? = nil, pin: String = PinTest.pin) async throws -> String {
        try await pins().verify(try attempt(pin), caller: caller ?? guardian).token.text
    }

    /// `SetGuardianPin`'s draft: `pin` typed twice for `minorID` (the minor's unless given), with `session`.
    func newPin(_ pin: String, confirmation: String? = nil, session: String = "", of minorID: UserID? = nil)
        throws -> NewGuardianPin
    {
        try NewGuardianPin(
            .init(
                minorUserID: (minorID ?? minor.id).description, pin: pin,
                pinConfirmation: confirmation ?? pin,
                guardianSession: session))
    }

    /// `pin` typed to be checked against the PIN of `minorID` (the minor's unless given).
    func attempt(_ pin: String, of minorID: UserID? = nil) throws -> PinAttempt {
        try PinAttempt(minorUserID: (minorID ?? minor.id).description, pin: pin)
    }

    /// `UpdateParentalControls`' draft: `changes` to the toggles `mask` names, on `minorID` (the minor's unless
    /// given), with `session`.
    func update(
        _ mask: [String], to changes: Kindred_Family_V1_ParentalControls? = .init(), session: String,
        of minorID: UserID? = nil
    ) throws -> ControlsUpdate {
        try ControlsUpdate(
            .init(
                minorUserID: (minorID ?? minor.id).description, guardianSession: session, updateMask: mask,
                controls: changes))
    }

    /// How many rows `table` (a family table named by the test) holds.
    func count(_ table: String) async throws -> Int {
        try await pool.query(PostgresQuery(unsafeSQL: "SELECT count(*)::int FROM family.\(table)"))[0]
            .decode(Int.self, column: 0)
    }

    /// The events appended to the family outbox, oldest first, with their types.
    func events() async throws -> [Kindred_Family_V1_Event] {
        try await FamilyEvents.outbox.appended(on: pool).map { type, payload in
            var event = try Kindred_Family_V1_Event(serializedBytes: payload)
            event.type = type
            return event
        }
    }
}

/// The rows other parts of the service write, written directly for the tests of this one.
enum PinRows {
    /// Makes `guardianID` a guardian of `minorID`, as accepting an invitation does.
    static func link(_ guardianID: String, to minorID: String, at now: Date, on pool: PostgresPool)
        async throws
    {
        try await pool.query(
            """
            INSERT INTO family.guardian_links (id, minor_id, guardian_id, created_at)
            VALUES (\(UUIDv7.generate(at: now))::uuid, \(minorID)::uuid, \(guardianID)::uuid, \(now))
            """)
    }

    /// Gives `minorID` controls with every restriction on, as registration does; `active: false` as coming of
    /// age leaves them.
    static func addControls(of minorID: String, active: Bool = true, at now: Date, on pool: PostgresPool)
        async throws
    {
        try await pool.query(
            """
            INSERT INTO family.parental_controls (minor_id, active, messaging_followed_only,
                public_events_restricted, event_join_approval_required, content_filtering, updated_at)
            VALUES (\(minorID)::uuid, \(active), true, true, true, true, \(now))
            """)
    }
}

// Beside KindredTestSupport's `reason` and `retryDelay`; prefixed, since other parts' tests may add readers
// of the same names.
extension RPCError {
    /// `ErrorInfo`, if there is one.
    var pinErrorInfo: (reason: String, domain: String, metadata: [String: String])? {
        details.lazy.compactMap { detail -> (String, String, [String: String])? in
            if case .errorInfo(let reason, let domain, let metadata) = detail {
                (reason, domain, metadata)
            } else {
                nil
            }
        }.first
    }
}
