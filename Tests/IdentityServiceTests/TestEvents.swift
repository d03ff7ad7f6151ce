@testable import IdentityService
import KindredMessages
import KindredTestSupport
import KindredEvents
import KindredPostgres

/// The events appended to the identity schema's outbox, in the order their transactions wrote them.
enum TestEvents {
    static func all(_ pool: PostgresPool) async throws -> [Kindred_Identity_V1_Event] {
        try await EventOutbox(schema: "identity").appended(on: pool).map { type, payload in
            var event = try Kindred_Identity_V1_Event(serializedBytes: payload)
            event.type = type
            return event
        }
    }

    static func types(_ pool: PostgresPool) async throws -> [String] {
        try await all(pool).map(\.type)
    }
}
