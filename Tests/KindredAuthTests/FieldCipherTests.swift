import KindredAuth
import Testing

/// Sealing a column's values: a round trip, and each way a value must fail to open.
@Suite struct FieldCipherTests {
    static let old = "old:" + Base64.encode([UInt8](repeating: 7, count: 32))
    static let new = "new:" + Base64.encode([UInt8](repeating: 9, count: 32))

    @Test func aSealedValueOpensInItsPlaceOnlyAndHidesItsText() throws {
        let cipher = try FieldCipher(keyring: try DataKeyring(Self.new))
        let sealed = cipher.seal(Array("meet at the park".utf8), context: "social.messages.body/1")

        #expect(try cipher.open(sealed, context: "social.messages.body/1") == Array("meet at the park".utf8))
        #expect(!String(decoding: sealed, as: UTF8.self).contains("park"))
        #expect(FieldCipher.keyID(of: sealed) == "new")
        #expect(throws: FieldCipherError.cannotOpen) {
            try cipher.open(sealed, context: "social.messages.body/2")
        }
        var tampered = sealed
        tampered[tampered.count - 1] ^= 1
        #expect(throws: FieldCipherError.cannotOpen) {
            try cipher.open(tampered, context: "social.messages.body/1")
        }
        #expect(throws: FieldCipherError.malformed) {
            try cipher.open([1, 2, 3], context: "social.messages.body/1")
        }
        // Two seals of one text differ (a fresh nonce each time).
        #expect(cipher.seal(Array("x".utf8), context: "c") != cipher.seal(Array("x".utf8), context: "c"))
    }

    /// `seal` reads the plaintext in place when it is contiguous and copies it otherwise; both, and nothing at
    /// all, must round-trip.
    @Test func anEmptyValueAndOneNotContiguousInMemoryRoundTrip() throws {
        let cipher = try FieldCipher(keyring: try DataKeyring(Self.new))
        let empty = cipher.seal([UInt8](), context: "c")
        let spelled = cipher.seal("gently".utf8.lazy.map { $0 }, context: "c")

        #expect(empty.count == FieldCipher.sealedByteCount(of: 0, keyID: "new"))
        #expect(try cipher.open(empty, context: "c") == [])
        #expect(try cipher.open(spelled, context: "c") == Array("gently".utf8))
        #expect(throws: FieldCipherError.cannotOpen) { try cipher.open(empty, context: "d") }
    }

    @Test func anOlderKeyStillOpensWhatItSealedAndAnUnknownOneIsNamed() throws {
        let before = try FieldCipher(keyring: try DataKeyring(Self.old))
        let sealed = before.seal(Array("hello".utf8), context: "c")
        let after = try FieldCipher(keyring: try DataKeyring("\(Self.new),\(Self.old)"))

        #expect(after.keyring.current.id == "new")
        #expect(try after.open(sealed, context: "c") == Array("hello".utf8))
        #expect(FieldCipher.keyID(of: after.seal(Array("hello".utf8), context: "c")) == "new")
        let without = try FieldCipher(keyring: try DataKeyring(Self.new))
        #expect(throws: FieldCipherError.unknownKey("old")) { try without.open(sealed, context: "c") }
    }

    @Test func onlyAValueSealedUnderTheCurrentKeyIsCurrent() throws {
        let before = try FieldCipher(keyring: try DataKeyring(Self.old))
        let after = try FieldCipher(keyring: try DataKeyring("\(Self.new),\(Self.old)"))

        #expect(after.isCurrent(after.seal(Array("hello".utf8), context: "c")))
        #expect(!after.isCurrent(before.seal(Array("hello".utf8), context: "c")))
        #expect(!after.isCurrent(nil))
        #expect(!after.isCurrent(Array("hello".utf8)))
    }

    @Test func aKeyringSaysWhatIsWrongWithIt() {
        #expect(throws: DataKeyringError.empty) { try DataKeyring(" , ") }
        #expect(throws: DataKeyringError.badEntry) { try DataKeyring("no-colon") }
        #expect(throws: DataKeyringError.badEntry) {
            try DataKeyring("bad/id:" + Base64.encode([UInt8](repeating: 1, count: 32)))
        }
        #expect(throws: DataKeyringError.badKey("short")) {
            try DataKeyring("short:" + Base64.encode([1, 2, 3]))
        }
        #expect(throws: DataKeyringError.duplicateID("new")) { try DataKeyring("\(Self.new),\(Self.new)") }
        #expect(throws: DataKeyringError.missing) { try DataKeyring.configured(in: [:]) }
        #expect(throws: DataKeyringError.unreadable("/nonexistent/keys")) {
            try DataKeyring.configured(in: ["KINDRED_DATA_KEYS_FILE": "/nonexistent/keys"])
        }
        let generated = DataKeyring.generateEntry(id: "k1")
        #expect((try? DataKeyring(generated))?.current.id == "k1")
    }

    @Test func aBlindIndexMatchesEqualValuesInOneContextAndDependsOnItsKey() {
        let index = BlindIndex(key: [UInt8](repeating: 3, count: 32))
        let other = BlindIndex(key: [UInt8](repeating: 4, count: 32))
        let email = Array("ann@example.com".utf8)

        #expect(index.index(of: email, context: "email") == index.index(of: email, context: "email"))
        #expect(index.index(of: email, context: "email").count == 32)
        #expect(index.index(of: email, context: "email") != index.index(of: email, context: "username"))
        #expect(
            index.index(of: email, context: "email")
                != index.index(of: Array("bob@example.com".utf8), context: "email"))
        #expect(index.index(of: email, context: "email") != other.index(of: email, context: "email"))
    }
}

extension FieldCipherTests {
    @Test func aKeyringNeverPrintsItsKeys() throws {
        let keyring = try DataKeyring(Self.new)
        let printed = "\(keyring) \(String(reflecting: keyring)) \(keyring.current)"
        #expect(printed.contains("new") && !printed.contains("9, 9"))
    }
}
