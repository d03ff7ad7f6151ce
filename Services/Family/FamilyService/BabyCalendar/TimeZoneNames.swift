import KindredPostgres
import Synchronization

/// The IANA time zone names an event may be given: those PostgreSQL knows (`pg_timezone_names`), the same
/// database that stores and compares the instants. Read once per process, at the first create or update:
/// the list only changes with the server's time zone data.
final class TimeZoneNames: Sendable {
    private let database: PostgresPool
    private let loaded = Mutex<Set<String>?>(nil)

    init(database: PostgresPool) {
        self.database = database
    }

    /// Every name known; read from the database the first time.
    func known() async throws -> Set<String> {
        if let names = loaded.withLock({ $0 }) { return names }
        let names = try await CalendarEventStore.timeZoneNames(on: database)
        loaded.withLock { $0 = names }
        return names
    }
}
