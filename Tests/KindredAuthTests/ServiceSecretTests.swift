@testable import KindredAuth
import Testing

@Suite struct ServiceSecretTests {
    // 32 bytes 0…31, standard base64, as an operator would configure them.
    static let configured = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="

    @Test func aSealedSigningKeyOpensAsTheSameKey() throws {
        let secret = try ServiceSecret(base64: Self.configured)
        let key = SigningKey()
        let sealed = secret.seal(key)
        #expect(sealed.count == 24 + 32 + 16)
        let opened = try ServiceSecret(base64: Self.configured).openSigningKey(sealed, keyID: key.keyID)
        #expect(opened.verificationKey == key.verificationKey)
    }

    @Test func sealingTheSameKeyTwiceGivesDifferentBytes() {
        let secret = ServiceSecret.generate()
        let key = SigningKey()
        #expect(secret.seal(key) != secret.seal(key))
    }

    @Test func anotherSecretCannotOpenIt() {
        let key = SigningKey()
        let sealed = ServiceSecret.generate().seal(key)
        #expect(throws: ServiceSecretError.cannotOpen) {
            try ServiceSecret.generate().openSigningKey(sealed, keyID: key.keyID)
        }
    }

    @Test func aSealedSeedIsBoundToItsKeyID() {
        let secret = ServiceSecret.generate()
        let sealed = secret.seal(SigningKey())
        #expect(throws: ServiceSecretError.cannotOpen) {
            try secret.openSigningKey(sealed, keyID: SigningKey().keyID)
        }
    }

    @Test(arguments: [0, 30, 71]) func anyAlteredByteIsRefused(index: Int) {
        let secret = ServiceSecret.generate()
        let key = SigningKey()
        var sealed = secret.seal(key)
        sealed[index] ^= 0x01
        #expect(throws: ServiceSecretError.cannotOpen) { try secret.openSigningKey(sealed, keyID: key.keyID) }
        #expect(throws: ServiceSecretError.cannotOpen) {
            try secret.openSigningKey(Array(sealed.prefix(39)), keyID: key.keyID)
        }
    }

    @Test(arguments: [
        "", "not base64!", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwd",
        "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gIQ==",
    ])
    func onlyThirtyTwoBytesOfBase64AreAccepted(text: String) {
        #expect(throws: ServiceSecretError.notThirtyTwoBytesOfBase64) { try ServiceSecret(base64: text) }
    }

    @Test func aTrailingNewlineFromAFileIsAccepted() throws {
        let secret = try ServiceSecret(base64: Self.configured + "\n")
        #expect(secret.keyedHash("mia") == (try ServiceSecret(base64: Self.configured)).keyedHash("mia"))
    }

    @Test func keyedHashesAreStablePerSecretAndDifferAcrossSecrets() throws {
        let secret = try ServiceSecret(base64: Self.configured)
        #expect(secret.keyedHash("mia@example.com") == secret.keyedHash("mia@example.com"))
        #expect(secret.keyedHash("mia@example.com") != secret.keyedHash("mia@example.org"))
        #expect(secret.keyedHash("mia@example.com") != ServiceSecret.generate().keyedHash("mia@example.com"))
        #expect(secret.keyedHash("mia").count == 32)
    }
}
