import FoundationEssentials
import KindredAuth
import KindredPostgres

/// The signing keys in `identity.signing_keys`: one signer, plus the keys it superseded for as long as a
/// token they signed may still be valid. Seeds are sealed under the service secret; nothing else reads them.
struct SigningKeyStore: Sendable {
    let database: PostgresPool
    let secret: ServiceSecret

    /// How long a superseded key keeps verifying: the 15-minute token lifetime, plus up to 30 s while a
    /// running instance still signs with it before it notices the rotation, plus verifiers' 60 s clock
    /// leeway, rounded up.
    static let retirement: Duration = .seconds(20 * 60)

    /// A key as `GetSigningKeys` publishes it.
    struct PublishedKey: Sendable, Equatable {
        let verificationKey: VerificationKey
        let createdAt: Date
    }

    /// Creates the first signing key unless one exists; several instances starting at once make one key.
    func ensureSigner() async throws {
        let key = SigningKey()
        // The unique index on the signer admits one row without superseded_at: the first insert wins.
        try await database.query(
            """
            INSERT INTO identity.signing_keys (kid, public_key, sealed_seed)
            VALUES (\(key.keyID), \(key.verificationKey.publicKey), \(secret.seal(key)))
            ON CONFLICT DO NOTHING
            """)
    }

    /// Makes a new key the signer; the old signer keeps verifying until `retirement` has passed, and keys
    /// retired before now are deleted.
    func rotate() async throws -> VerificationKey {
        let key = SigningKey()
        try await database.transaction { tx in
            // Rotations one at a time (readers are not blocked), so two at once still leave one signer.
            try await tx.query("LOCK TABLE identity.signing_keys IN SHARE ROW EXCLUSIVE MODE")
            try await tx.query(
                """
                DELETE FROM identity.signing_keys
                WHERE superseded_at < now() - \(Self.retirement.wholeSeconds) * interval '1 second'
                """)
            try await tx.query(
                "UPDATE identity.signing_keys SET superseded_at = now() WHERE superseded_at IS NULL")
            try await tx.query(
                """
                INSERT INTO identity.signing_keys (kid, public_key, sealed_seed)
                VALUES (\(key.keyID), \(key.verificationKey.publicKey), \(secret.seal(key)))
                """)
        }
        return key.verificationKey
    }

    /// The current signer's key id, and the key itself unless it is `knownKeyID` (no need to open it again).
    func signer(unless knownKeyID: String?) async throws -> (keyID: String, key: SigningKey?) {
        let rows = try await database.pureRead(
            """
            SELECT kid, CASE WHEN kid = \(knownKeyID) THEN NULL ELSE sealed_seed END
            FROM identity.signing_keys WHERE superseded_at IS NULL
            """)
        guard let row = rows.first else { throw SigningKeyError.noSigner }
        let (keyID, sealed) = try row.decode((String, [UInt8]?).self)
        guard let sealed else { return (keyID, nil) }
        do {
            return (keyID, try secret.openSigningKey(sealed, keyID: keyID))
        } catch {
            throw SigningKeyError.cannotOpen(keyID: keyID)
        }
    }

    /// Every key that may have signed a token still valid, the signer first.
    func publishedKeys() async throws -> [PublishedKey] {
        let rows = try await database.pureRead(
            """
            SELECT public_key, created_at FROM identity.signing_keys
            WHERE superseded_at IS NULL
                OR superseded_at > now() - \(Self.retirement.wholeSeconds) * interval '1 second'
            ORDER BY superseded_at IS NOT NULL, created_at DESC
            """)
        return try rows.map { row in
            let (publicKey, createdAt) = try row.decode(([UInt8], Date).self)
            return PublishedKey(
                verificationKey: try VerificationKey(publicKey: publicKey), createdAt: createdAt)
        }
    }
}

/// Identity's own verifier reads the table too: the same keys `GetSigningKeys` publishes, fresh at each fetch.
extension SigningKeyStore: SigningKeySource {
    func verificationKeys() async throws -> [VerificationKey] {
        try await publishedKeys().map(\.verificationKey)
    }
}

/// Why no token can be signed.
enum SigningKeyError: Error, CustomStringConvertible {
    /// The table has no signer: `ensureSigner` never ran against this database.
    case noSigner
    /// The signer's seed does not open with the configured secret.
    case cannotOpen(keyID: String)

    var description: String {
        switch self {
        case .noSigner: "identity.signing_keys has no signing key"
        case .cannotOpen(let keyID):
            "signing key \(keyID) does not open with KINDRED_IDENTITY_SECRET_KEY: is it the secret the keys were sealed with?"
        }
    }
}

extension Duration {
    /// The whole seconds in this duration, for SQL intervals.
    var wholeSeconds: Int { Int(components.seconds) }
}
