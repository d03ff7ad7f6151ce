@testable import IdentityService
import KindredMessages
import KindredPostgres

/// The events appended to the identity schema's outbox, in the order their transactions wrote them.
enum TestEvents {
    static func all(_ pool: PostgresPool) async throws -> [Kindred_Identity_V1_Event] {
        let rows = try await pool.query("SELECT type, payload FROM identity.event_outbox ORDER BY id")
        return try rows.map { row in
            let (type, payload) = try row.decode((String, [UInt8]).self)
            var event = try Kindred_Identity_V1_Event(serializedBytes: payload)
            event.type = type
            return event
        }
    }

    static func types(_ pool: PostgresPool) async throws -> [String] {
        try await all(pool).map(\.type)
    }
}
