internal import CSodium

/// One numbered schema change, shipped with the service binary.
public struct Migration: Sendable, Equatable {
    /// Ascending, unique within a schema; recorded once applied.
    public let version: Int
    /// A short human name (`create_accounts`), recorded beside the version.
    public let name: String
    /// The SQL, possibly several statements; runs inside the runner's transaction, so no BEGIN/COMMIT.
    public let sql: String

    /// Creates a migration.
    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    /// SHA-256 of the SQL text, lowercase hex: what `schema_migrations.checksum` records.
    public var checksum: String {
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        let bytes = Array(sql.utf8)
        _ = crypto_hash_sha256(&digest, bytes, UInt64(bytes.count))
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(digest.count * 2)
        for byte in digest {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}

/// The shipped and the recorded migrations disagree, or cannot be applied; the message names the version.
public enum MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The schema name is not a plain lowercase identifier.
    case invalidSchemaName(String)
    /// The schema does not exist: creating it (and the role owning it) is the deploy script's job.
    case schemaMissing(String)
    /// Two shipped migrations share a version, or a version is not positive.
    case invalidVersions(String)
    /// A recorded migration's SQL no longer matches the shipped one.
    case checksumMismatch(version: Int, name: String)
    /// The database records a version this binary does not ship (a newer binary ran, or one was removed).
    case unknownRecordedVersion(version: Int, name: String)
    /// A shipped version older than the newest recorded one was never applied.
    case skippedVersion(version: Int, newestRecorded: Int)

    /// One line for the operator.
    public var description: String {
        switch self {
        case .invalidSchemaName(let schema):
            "invalid schema name \"\(schema)\": use lowercase letters, digits and underscores"
        case .schemaMissing(let schema):
            "schema \"\(schema)\" does not exist: create it, owned by the service's role, before migrating"
        case .invalidVersions(let reason):
            "invalid migration list: \(reason)"
        case .checksumMismatch(let version, let name):
            "migration \(version) (\(name)) was changed after it was applied: ship a new migration instead"
        case .unknownRecordedVersion(let version, let name):
            "the database has migration \(version) (\(name)) applied, which this binary does not ship"
        case .skippedVersion(let version, let newest):
            "migration \(version) is not applied but migration \(newest) is: refusing to apply out of order"
        }
    }
}
