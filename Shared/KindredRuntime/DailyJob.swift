public import FoundationEssentials
package import KindredEvents
public import KindredPostgres
public import Logging

/// Work a service does once a day across all its instances (retention's purges): every instance looks hourly,
/// and the one whose claim of today's row in `<schema>.daily_jobs` commits first runs the job; the others leave
/// the day to it. What a run removed is stored on its claim and logged. A claim not finished within `lease`
/// lapses: its runner died (SIGKILL, a lost node) or failed, and the next instance that looks takes the day
/// over. Each job must be idempotent and catch up on what an earlier day left, since a run cut short may have
/// done part of its work, and a run outliving its lease may overlap its successor.
public struct DailyJob: Sendable {
    /// How long a claim holds without being finished: far longer than a run takes (retention's purges take
    /// seconds), so a slow run is not taken over, and short enough that a day's job survives its runner.
    public static let defaultLease: Duration = .seconds(3_600)

    /// The job's name in `daily_jobs`, and in the log.
    public let name: String
    let table: SchemaTable
    let pool: PostgresPool
    let now: @Sendable () -> Date
    let lease: Duration
    let logger: Logger
    let work: @Sendable (_ now: Date) async throws -> [String: Int]

    /// A job storing its claims in `schema`'s `daily_jobs` (see `migration`), each lapsing after `lease`
    /// unless finished. `work` does the job as of `now` and answers what it did, by name (e.g.
    /// `["profiles_purged": 3]`).
    public init(
        name: String, schema: String, pool: PostgresPool, logger: Logger, now: @escaping @Sendable () -> Date,
        lease: Duration = defaultLease, work: @escaping @Sendable (_ now: Date) async throws -> [String: Int]
    ) {
        self.name = name
        table = SchemaTable(schema: schema, table: "daily_jobs")
        self.pool = pool
        self.now = now
        self.lease = lease
        self.logger = logger
        self.work = work
    }

    /// The migration creating `schema`'s `daily_jobs`, for its migration list at `version`.
    public static func migration(schema: String, version: Int) -> Migration {
        Migration(
            version: version, name: "create_daily_jobs",
            sql: """
                CREATE TABLE \(SchemaTable(schema: schema, table: "daily_jobs").sql) (
                    job text NOT NULL,
                    day date NOT NULL,
                    claimed_at timestamptz NOT NULL,
                    finished_at timestamptz,
                    report jsonb,
                    PRIMARY KEY (job, day));
                """)
    }

    /// Runs the job if no instance holds today's (UTC) claim: none has claimed it, or its claim lapsed
    /// unfinished. What it did, or nil when today was taken.
    public func runIfUnclaimed() async throws -> [String: Int]? {
        let started = now()
        let lapsed = started.addingTimeInterval(-Double(lease.components.seconds))
        // The row lock of the conflicting claim makes concurrent takeovers wait for each other: one updates it,
        // the others then see the new claimed_at and update nothing.
        let claimed = try await pool.query(
            """
            INSERT INTO \(table) AS claim (job, day, claimed_at)
            VALUES (\(name), (\(started)::timestamptz AT TIME ZONE 'UTC')::date, \(started))
            ON CONFLICT (job, day) DO UPDATE SET claimed_at = excluded.claimed_at
            WHERE claim.finished_at IS NULL AND claim.claimed_at <= \(lapsed)
            """)
        guard claimed.affectedRows == 1 else { return nil }
        let report = try await work(started)
        let json = report.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(
            separator: ", ")
        try await pool.query(
            """
            UPDATE \(table) SET finished_at = \(now()), report = \("{\(json)}")::jsonb
            WHERE job = \(name) AND day = (\(started)::timestamptz AT TIME ZONE 'UTC')::date
            """)
        return report
    }

    /// Looks hourly until the drain, logging each run's report.
    public func run() async {
        await runHourly(name, logger: logger) {
            guard let report = try await runIfUnclaimed() else { return }
            logger.info(
                "\(name) ran", metadata: report.mapValues { Logger.MetadataValue.stringConvertible($0) })
        }
    }
}
