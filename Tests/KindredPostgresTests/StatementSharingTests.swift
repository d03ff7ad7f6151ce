import Testing

@testable import KindredPostgres

/// Which statements a loop's connection may put in one transaction with other callers' statements: plain
/// reads only. Judged once per statement and connection, by its words outside comments.
@Suite struct StatementSharing {
    @Test(arguments: [
        "SELECT abalance FROM pgbench_accounts WHERE aid = $1",
        "  select 1",
        "/* a comment naming update */ SELECT 1 -- and delete",
        "-- leading comment\nWITH ids AS (SELECT 1 AS id) SELECT id FROM ids",
        "VALUES (1), (2)",
        "TABLE public.things",
        "SHOW statement_timeout",
        "SELECT updated_at, deleted FROM public.things",
    ])
    func aPlainReadSharesATransaction(sql: String) {
        #expect(PostgresConnection.canShareTransaction(sql))
    }

    @Test(arguments: [
        "INSERT INTO public.things VALUES ($1)",
        "UPDATE public.things SET x = 1",
        "delete from public.things",
        "MERGE INTO public.things USING public.other ON true WHEN MATCHED THEN DO NOTHING",
        "WITH gone AS (DELETE FROM public.things RETURNING id) SELECT count(*) FROM gone",
        "SELECT id FROM public.things FOR UPDATE SKIP LOCKED",
        "SELECT id FROM public.things FOR KEY SHARE",
        "SELECT * INTO public.copy FROM public.things",
        "VACUUM public.things",
        "CREATE DATABASE other",
        "/* first */ DROP DATABASE other",
        "CREATE INDEX CONCURRENTLY things_x ON public.things (x)",
        "BEGIN", "COMMIT", "CALL public.procedure()", "DO $$ BEGIN END $$",
        "", "-- only a comment",
    ])
    func anythingElseKeepsATransactionOfItsOwn(sql: String) {
        #expect(!PostgresConnection.canShareTransaction(sql))
    }
}
