/// A screen-time user's phone as it records use: one app in the foreground at a time, its session growing until
/// the user switches to the next app, and each upload sending the session in progress as it stands now (a newer
/// version of the same id, which replaces the last one sent). So a device's sessions never overlap, and a day
/// holds one stretch of use a session, as a real phone's does. Sessions overlapping those of earlier uploads
/// split the day's counts at every boundary, and the mix's cost grew through each UTC day (Tests/Benchmarks/
/// README.md, "Session 28").
public struct ScreenTimePhone: Sendable {
    /// One version of a session, in whole seconds since 1970; uploaded with its end as its `updated_at`.
    public struct Session: Sendable, Equatable {
        public let id: String
        public let app: String
        public let start: Int64
        public let end: Int64

        public init(id: String, app: String, start: Int64, end: Int64) {
            (self.id, self.app, self.start, self.end) = (id, app, start, end)
        }
    }

    /// How long the user stays in one app before switching to the next.
    public static let sessionLength: Int64 = 120
    /// How far back the first session of a phone starts.
    public static let firstSessionLength: Int64 = 60

    /// What makes this phone's session ids its own: the user and the run.
    let idPrefix: String
    let apps: [String]
    private var current: Session?
    private var sessions = 0

    public init(idPrefix: String, apps: [String]) {
        precondition(!apps.isEmpty, "a phone uses at least one app")
        self.idPrefix = idPrefix
        self.apps = apps
    }

    /// The version to upload at `now`: the session in progress, ended now; or, once it has lasted
    /// `sessionLength` (or on the first upload), a new session of the next app from where the last one ended.
    /// A clock that has not moved past the last version's end sends that version again (a retry, which stores
    /// nothing).
    public mutating func upload(at now: Int64) -> Session {
        if let current, now - current.start < Self.sessionLength || now <= current.end {
            let grown = Session(
                id: current.id, app: current.app, start: current.start, end: max(current.end, now))
            self.current = grown
            return grown
        }
        let start = current?.end ?? now - Self.firstSessionLength
        let next = Session(
            id: "\(idPrefix)-\(sessions)", app: apps[sessions % apps.count], start: start, end: now)
        sessions += 1
        current = next
        return next
    }
}
