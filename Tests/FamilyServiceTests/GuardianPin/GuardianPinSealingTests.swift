@testable import FamilyService
import KindredAuth
import KindredHandlers
import KindredRuntime
import KindredTestSupport
import Testing

/// Guardian PIN hashes and reset addresses are sealed at rest (family migration 21); rows from before stay
/// usable until `keys rotate-data` seals them.
@Suite struct GuardianPinSealingTests {
    @Test func aDumpOfTheDatabaseHoldsNoPinHashAndNoResetAddress() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            _ = try await test.pins().requestReset(of: test.minor.id, caller: test.guardian)
            let dump = try await dataDump(of: "family", on: test.pool)
            #expect(dump.contains("family.guardian_pins") && !dump.contains("$argon2id$"))
            // The mail outbox keeps the address until its own retention: the reset link's row must not.
            let resets = try #require(Self.table("guardian_pin_resets", in: dump))
            #expect(
                resets.count == 3 && !resets.contains { $0.contains(PinTest.email(test.guardian.id)) })
            #expect(try await !test.session().isEmpty)
        }
    }

    @Test func aPinAndAResetStoredBeforeSealingStillWorkAndTheRotationSealsThem() async throws {
        try await PinTest.with { test in
            let minorID = try #require(test.minor.accountUserID)
            let hash = try await PinTest.hasher.hash(PinTest.pin)
            try await test.pool.query(
                """
                INSERT INTO family.guardian_pins (minor_id, pin_hash, updated_at)
                VALUES (\(minorID)::uuid, \(hash), now())
                """)
            _ = await rpcError { try await test.session(pin: "1111") }
            #expect(try await !test.session().isEmpty)
            _ = try await test.pins().requestReset(of: test.minor.id, caller: test.guardian)
            try await test.pool.query(
                "UPDATE family.guardian_pin_resets SET email = \(PinTest.email(test.guardian.id)), email_sealed = NULL"
            )

            #expect(try await Self.rotate(test) == [1, 1])
            #expect(try await Self.keys(test) == ["test-2", "test-2"])
            #expect(try await Self.rotate(test) == [0, 0])
            let token = try await TestMailbox(test.pool, schema: "family").token(
                to: PinTest.email(test.guardian.id))
            _ = try await test.pins().reset(token: token, pin: "1357", confirmation: "1357")
            let done = try await TestMailbox(test.pool, schema: "family").all().last
            #expect(
                done?.kind == "guardian_pin_reset_done" && done?.to == PinTest.email(test.guardian.id))
            #expect(try await !test.session(pin: "1357").isEmpty)
        }
    }

    @Test func aHashMovedToAnotherMinorDoesNotOpen() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            let other = FamilyCallers.adult()
            try await test.addControls(of: other)
            try await test.link(test.guardian, to: other)
            try await test.pool.query(
                """
                INSERT INTO family.guardian_pins (minor_id, pin_hash_sealed, updated_at)
                SELECT \(other.id)::uuid, pin_hash_sealed, now() FROM family.guardian_pins
                """)
            await #expect(throws: FieldCipherError.cannotOpen) {
                _ = try await test.pins().verify(
                    try test.attempt(PinTest.pin, of: other.id), caller: test.guardian)
            }
        }
    }

    @Test func aRotationFromTheOldKeyWhileGuardiansCheckPins() async throws {
        try await PinTest.with { test in
            let hash = try await PinTest.hasher.hash(PinTest.pin)
            let oldHashes = SealedText(cipher: TestDataKeys.old, context: PinTest.secrets.hashes.context)
            var minors: [Caller] = []
            for _ in 0..<12 {
                let minor = FamilyCallers.adult()
                try await test.addControls(of: minor)
                try await test.link(test.guardian, to: minor)
                let minorID = try #require(minor.accountUserID)
                let sealed = oldHashes.seal(hash, of: minorID)
                try await test.pool.query(
                    """
                    INSERT INTO family.guardian_pins (minor_id, pin_hash_sealed, updated_at)
                    VALUES (\(minorID)::uuid, \(sealed)::bytea, now())
                    """)
                minors.append(minor)
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    let resealed = try await Self.rotate(test)
                    #expect(resealed == [12, 0])
                }
                for minor in minors {
                    group.addTask {
                        let session = try await test.pins().verify(
                            try test.attempt(PinTest.pin, of: minor.id), caller: test.guardian)
                        #expect(!session.token.text.isEmpty)
                    }
                }
                try await group.waitForAll()
            }
            let keys = try await test.pool.query("SELECT pin_hash_sealed FROM family.guardian_pins").decode(
                [UInt8].self
            ).map(FieldCipher.keyID(of:))
            #expect(keys == Array(repeating: "test-2", count: 12))
        }
    }

    /// Re-seals both columns; how many values each re-sealed.
    static func rotate(_ test: PinTest) async throws -> [Int] {
        var counts: [Int] = []
        for column in PinTest.secrets.rotations(on: test.pool) { counts.append(try await column.resealAll()) }
        return counts
    }

    /// The key the minor's PIN hash and its reset link's address are sealed under (nil: plaintext).
    static func keys(_ test: PinTest) async throws -> [String?] {
        let (hash, email) = try await test.pool.query(
            """
            SELECT (SELECT pin_hash_sealed FROM family.guardian_pins), (SELECT email_sealed FROM family.guardian_pin_resets)
            """
        )[0].decode(([UInt8]?, [UInt8]?).self)
        return [hash.flatMap(FieldCipher.keyID(of:)), email.flatMap(FieldCipher.keyID(of:))]
    }

    /// The lines of `table`'s COPY block in a `pg_dump`, the header and the end mark included.
    static func table(_ table: String, in dump: String) -> [Substring]? {
        let lines = dump.split(separator: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("COPY family.\(table) ") }),
            let end = lines[start...].firstIndex(of: "\\.")
        else { return nil }
        return Array(lines[start...end])
    }
}
