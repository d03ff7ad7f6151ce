public import FoundationEssentials
package import KindredEvents
public import KindredPostgres
public import Logging

/// Work a service does once a day across all its instances (retention's purges): every instance looks hourly,
/// and the one whose claim of today's row in `<schema>.daily_jobs` commits first runs the job; the others leave
/// the day to it. What a run removed is stored on its claim and logged. A run that fails keeps its claim, so
/// the job is tried again the next day: each job must be idempotent and catch up on what an earlier day left.
public struct DailyJob: Sendable {
    /// The job's name in `daily_jobs`, and in the log.
    public let name: String
    let table: SchemaTable
    let pool: PostgresPool
    let now: @Sendable () -> Date
    let logger: Logger
    let work: @Sendable (_ now: Date) async throws -> [String: Int]

    /// A job storing its claims in `schema`'s `daily_jobs` (see `migration`). `work` does the job as of `now`
    /// and answers what it did, by name (e.g. `["profiles_purged": 3]`).
    public init(
        name: String, schema: String, pool: PostgresPool, logger: Logger, now: @escaping @Sendable () -> Date,
        work: @escaping @Sendable (_ now: Date) async throws -> [String: Int]
    ) {
        self.name = name
        table = SchemaTable(schema: schema, table: "daily_jobs")
        self.pool = pool
        self.now = now
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

    /// Runs the job if no instance has claimed today (UTC) yet; what it did, or nil when today was taken.
    public func runIfUnclaimed() async throws -> [String: Int]? {
        let started = now()
        let claimed = try await pool.query(
            """
            INSERT INTO \(table) (job, day, claimed_at)
            VALUES (\(name), (\(started)::timestamptz AT TIME ZONE 'UTC')::date, \(started))
            ON CONFLICT (job, day) DO NOTHING
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
