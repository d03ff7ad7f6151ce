import KindredPostgres
import Synchronization

/// The IANA time zone names an event may be given: those PostgreSQL knows (`pg_timezone_names`), the same
/// database that stores and compares the instants. Read once per process, at the first create or update:
/// the list only changes with the server's time zone data.
final class TimeZoneNames: Sendable {
    private let readNames: @Sendable () async throws -> Set<String>
    /// The one read, shared by the calls that come while it runs (a scan of the zone files, ~200 ms of
    /// PostgreSQL's CPU: the first creates after a start each read it before); forgotten when it fails.
    private let loading = Mutex<Task<Set<String>, any Error>?>(nil)

    /// Names read by `readNames`, once.
    init(readNames: @escaping @Sendable () async throws -> Set<String>) {
        self.readNames = readNames
    }

    /// Names read from `database`, once.
    convenience init(database: PostgresPool) {
        self.init { try await CalendarEventStore.timeZoneNames(on: database) }
    }

    /// Every name known; read from the database the first time.
    func known() async throws -> Set<String> {
        let load = loading.withLock { loading in
            if let loading { return loading }
            let load = Task { [readNames] in try await readNames() }
            loading = load
            return load
        }
        do {
            return try await load.value
        } catch {
            loading.withLock { if $0 == load { $0 = nil } }
            throw error
        }
    }
}
