import KindredPostgres

extension SocialMigrations {
    /// Who reported what, once per person per content: the row that makes a second report by the same person
    /// change nothing, and the reason a moderator reads. `social.report_tallies` (migration 2) counts the rows.
    static let v6CreateReports = Migration(
        version: 6, name: "create_reports",
        sql: """
            -- Keyed like social.report_tallies (kindred.social.v1.ContentKind's number, the content's id), so
            -- that a content's reports and its tally live together when the tables are distributed.
            CREATE TABLE social.reports (
                content_kind smallint NOT NULL,
                content_id uuid NOT NULL,
                reporter_id uuid NOT NULL,
                reason text NOT NULL,
                reported_at timestamptz NOT NULL,
                PRIMARY KEY (content_kind, content_id, reporter_id)
            );
            """)
}
