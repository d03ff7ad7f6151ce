import FoundationEssentials
import KindredAuth
import KindredHandlers

/// Usage sessions as they are stored: which app on which device, when it started and ended and the device's
/// `updated_at`, sealed together under gamification's data keys (`FieldCipher`, AES-256-GCM) and bound to the
/// user and the device's session id, so a dump of the database shows no app and no time of any session, and a value moved
/// to another row does not open. Sessions stored before sealing began keep their plaintext columns until
/// `keys rotate-data` seals them, and are read as they are meanwhile.
struct UsageSessions: Sendable {
    /// A stored row as it is: exactly one of `plain` (from before sealing) and `sealed` is set.
    struct Stored: Sendable {
        let clientSessionID: String
        let plain: UsageBatch.Session?
        let sealed: [UInt8]?
    }

    let cipher: FieldCipher

    /// `session` of `user`, sealed.
    func seal(_ session: UsageBatch.Session, of user: UserID) -> [UInt8] {
        var bytes: [UInt8] = []
        for instant in [session.start, session.end, session.updatedAt] {
            withUnsafeBytes(of: Self.microseconds(instant).bigEndian) { bytes.append(contentsOf: $0) }
        }
        bytes.append(contentsOf: session.appID.utf8)
        // An app id holds no control character, so a NUL ends it unambiguously; values sealed before devices
        // were recorded end with the app, and read as the one unnamed device.
        if !session.deviceID.isEmpty {
            bytes.append(0)
            bytes.append(contentsOf: session.deviceID.utf8)
        }
        return cipher.seal(bytes, context: Self.context(session.clientSessionID, of: user))
    }

    /// The session `stored` holds, from whichever form it is in.
    func open(_ stored: Stored, of user: UserID) throws -> UsageBatch.Session {
        if let plain = stored.plain { return plain }
        let bytes = try cipher.open(
            stored.sealed ?? [], context: Self.context(stored.clientSessionID, of: user))
        guard bytes.count >= 24 else { throw FieldCipherError.malformed }
        let instants = (0..<3).map { index in
            Self.instant(bytes[(index * 8)..<(index * 8 + 8)].reduce(Int64(0)) { $0 << 8 | Int64($1) })
        }
        let rest = bytes[24...]
        let appEnd = rest.firstIndex(of: 0) ?? rest.endIndex
        return UsageBatch.Session(
            clientSessionID: stored.clientSessionID, appID: String(decoding: rest[..<appEnd], as: UTF8.self),
            start: instants[0], end: instants[1], updatedAt: instants[2],
            deviceID: appEnd == rest.endIndex ? "" : String(decoding: rest[(appEnd + 1)...], as: UTF8.self))
    }

    private static func context(_ clientSessionID: String, of user: UserID) -> String {
        "gamification.usage_sessions/\(user)/\(clientSessionID)"
    }

    // Instants are kept to the microsecond from 2000-01-01, as PostgreSQL kept them in the plaintext columns,
    // so a session reads back, and compares by updated_at, exactly as it did before sealing.
    private static let epoch2000 = Date(timeIntervalSince1970: 946_684_800)

    static func microseconds(_ instant: Date) -> Int64 {
        Int64((instant.timeIntervalSince(epoch2000) * 1_000_000).rounded())
    }

    static func instant(_ microseconds: Int64) -> Date {
        epoch2000.addingTimeInterval(Double(microseconds) / 1_000_000)
    }
}
