import KindredTestSupport
import Testing

@testable import KindredPostgres

/// Which statements a loop's connection may put in one transaction with other callers' statements: only
/// those their caller declared pure reads (`pureRead(_:)`), and of those only the ones whose words,
/// outside comments, agree. The real-database side (a SELECT calling a writing function, undeclared, next to a
/// failing neighbour) is in KindredRuntimeTests' `PostgresLoopSegmentTests`, which has event loops.
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
    func theWordsOfAPlainReadAllowADeclaredReadToShare(sql: String) {
        #expect(PostgresConnection.wordsAllowSharing(sql))
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
    func theWordsOfAnythingElseVetoADeclaration(sql: String) {
        #expect(!PostgresConnection.wordsAllowSharing(sql))
    }
}

extension DatabaseTests {
    /// The declaration travels with each call, not with the prepared statement: the same text sent once as a
    /// pure read and once as a plain query shares only the first time.
    @Suite struct DeclaredSharing {
        @Test func onlyAStatementDeclaredAPureReadSharesATransaction() throws {
            let connection = try PostgresConnection(configuration: configuration())
            let read: PostgresQuery = "SELECT nextval('public.runs'), \(1)::int8"
            var declared = read
            declared.isPureRead = true
            #expect(!connection.plan(read).sharesTransaction)
            #expect(connection.plan(declared).sharesTransaction)
        }

        @Test func aPreparedStatementDeclaredOnceIsNotSharedWhenSentUndeclared() throws {
            let connection = try PostgresConnection(configuration: configuration())
            let read: PostgresQuery = "SELECT \(1)::int8"
            var declared = read
            declared.isPureRead = true
            #expect(connection.send(declared, as: connection.plan(declared)))
            let again = connection.plan(read)
            #expect(!again.preparing)
            #expect(!again.sharesTransaction)
        }

        @Test func aDeclaredStatementThatLocksRowsStillKeepsATransactionOfItsOwn() throws {
            let connection = try PostgresConnection(configuration: configuration())
            var locking: PostgresQuery = "SELECT id FROM public.things WHERE id = \(1) FOR UPDATE"
            locking.isPureRead = true
            #expect(!connection.plan(locking).sharesTransaction)
        }

        private func configuration() throws -> PostgresConfiguration {
            try PostgresConfiguration(url: PrivateCluster.current.url, poolSize: 1)
        }
    }
}
