import KindredPostgres
import KindredTestSupport
import Testing

@testable import KindredRPC

/// The reads one loop iteration sends share a pipeline segment: one sync, one implicit transaction. A failure
/// in a segment must still cost only the failing caller, and nothing may take effect twice.
@Suite(.serialized, .privateCluster("runtime-loop-segments")) struct PostgresLoopSegmentTests {
    @Test(.timeLimit(.minutes(2)))
    func pureReadsSentInOneLoopIterationShareOneTransaction() async throws {
        try await LoopPool.with { pool, loops in
            let reads: [LoopPool.Statement] = (0..<8).map {
                .pureRead("SELECT pg_current_xact_id()::text, \($0)::int8")
            }
            let answers = try await LoopPool.burst(pool, on: loops[0], reads)
            let transactions = try answers.map { try $0.get()[0].decode(String.self, column: 0) }
            #expect(Set(transactions).count == 1)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func readsNotDeclaredPureEachKeepATransactionOfTheirOwn() async throws {
        try await LoopPool.with { pool, loops in
            let reads: [LoopPool.Statement] = (0..<8).map {
                .query("SELECT pg_current_xact_id()::text, \($0)::int8")
            }
            let answers = try await LoopPool.burst(pool, on: loops[0], reads)
            let transactions = try answers.map { try $0.get()[0].decode(String.self, column: 0) }
            #expect(Set(transactions).count == reads.count)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func writesSentInOneLoopIterationEachKeepATransactionOfTheirOwn() async throws {
        try await LoopPool.with { pool, loops in
            try await pool.query("CREATE TABLE public.written (id int8 PRIMARY KEY)")
            let writes: [LoopPool.Statement] = (0..<8).map {
                .query("INSERT INTO public.written VALUES (\($0)) RETURNING pg_current_xact_id()::text")
            }
            let answers = try await LoopPool.burst(pool, on: loops[0], writes)
            let transactions = try answers.map { try $0.get()[0].decode(String.self) }
            #expect(Set(transactions).count == writes.count)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aFailingReadFailsAloneAndItsNeighboursAreAnswered() async throws {
        try await LoopPool.with { pool, loops in
            let answers = try await LoopPool.burst(
                pool, on: loops[0],
                [
                    .pureRead("SELECT \(1)::int8"), .pureRead("SELECT 1 / \(0)"),
                    .pureRead("SELECT \(3)::int8"),
                ])
            #expect(sqlState(answers[1]) == "22012")
            #expect(try answers[0].get()[0].decode(Int.self) == 1)
            #expect(try answers[2].get()[0].decode(Int.self) == 3)
        }
    }

    /// The regression: a SELECT whose function writes (here `nextval`, and a PL/pgSQL function that inserts)
    /// reads like any SELECT, and was batched with strangers' reads, so a failing neighbour rolled it back
    /// and it ran again. Not declared pure, it runs exactly once, in a transaction of its own.
    @Test(.timeLimit(.minutes(2)))
    func aSelectCallingAWritingFunctionIsNeverBatchedWithAFailingNeighbour() async throws {
        try await LoopPool.with { pool, loops in
            try await createWritingFunctions(pool)
            let answers = try await LoopPool.burst(
                pool, on: loops[0],
                [
                    .query("SELECT nextval('public.runs')"), .query("SELECT public.remember(\(10))"),
                    .pureRead("SELECT 1 / \(0)"),
                    .query("SELECT nextval('public.runs')"), .query("SELECT public.remember(\(20))"),
                ])
            #expect(sqlState(answers[2]) == "22012")
            // A rolled-back run would have used up a sequence value: each ran once, so none is missing.
            #expect(try answers[0].get()[0].decode(Int.self) == 1)
            #expect(try answers[3].get()[0].decode(Int.self) == 2)
            #expect(try answers[1].get()[0].decode(Int.self) == 1)
            #expect(try answers[4].get()[0].decode(Int.self) == 2)
            let remembered = try await pool.query("SELECT id, value FROM public.remembered ORDER BY id")
            let rows = try remembered.map { try $0.decode((Int, Int).self) }
            #expect(rows.map(\.0) == [1, 2])
            #expect(rows.map(\.1) == [10, 20])
        }
    }

    /// Why the declaration matters: a read declared pure shares its segment, so when a neighbour fails it is
    /// rolled back and runs again. A function with effects shows it, which is why one is never declared pure.
    @Test(.timeLimit(.minutes(2)))
    func aReadDeclaredPureRunsAgainWhenAFailingNeighbourRollsItsSegmentBack() async throws {
        try await LoopPool.with { pool, loops in
            try await createWritingFunctions(pool)
            let answers = try await LoopPool.burst(
                pool, on: loops[0],
                [
                    .pureRead("SELECT nextval('public.runs')"), .pureRead("SELECT 1 / \(0)"),
                    .pureRead("SELECT nextval('public.runs')"),
                ])
            #expect(sqlState(answers[1]) == "22012")
            // The first ran, was rolled back with the segment and ran again alone; the last was skipped after
            // the failure, then ran alone.
            #expect(try answers[0].get()[0].decode(Int.self) == 2)
            #expect(try answers[2].get()[0].decode(Int.self) == 3)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aPrepareBeforeAFailureInItsSegmentSurvivesTheRollbackAndOneSkippedAfterItIsPreparedAgain()
        async throws
    {
        try await LoopPool.with { pool, loops in
            let before: PostgresQuery = "SELECT \(1)::int8 AS prepared_before"
            let after: PostgresQuery = "SELECT \(2)::int8 AS prepared_after"
            let answers = try await LoopPool.burst(
                pool, on: loops[0], [.pureRead(before), .pureRead("SELECT 1 / \(0)"), .pureRead(after)])
            #expect(try answers[0].get()[0].decode(Int.self) == 1)
            #expect(try answers[2].get()[0].decode(Int.self) == 2)
            // PostgreSQL kept the first Parse through the rollback: its name was reused, not prepared twice.
            let prepared = try await LoopPool.burst(
                pool, on: loops[0],
                [
                    .pureRead(before), .pureRead(after),
                    .pureRead(
                        """
                        SELECT count(*)::int8 FROM pg_prepared_statements
                        WHERE statement IN ('SELECT $1::int8 AS prepared_before', 'SELECT $1::int8 AS prepared_after')
                        """),
                ])
            #expect(try prepared[0].get()[0].decode(Int.self) == 1)
            #expect(try prepared[1].get()[0].decode(Int.self) == 2)
            #expect(try prepared[2].get()[0].decode(Int.self) == 2)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func copiesOfAReadWhosePrepareFailedReportThatFailureInItsSegmentAndInLaterOnes() async throws {
        try await LoopPool.with { pool, loops in
            let broken = { (value: Int) -> LoopPool.Statement in
                .pureRead("SELECT x FROM public.missing WHERE x = \(value)")
            }
            // The sleep keeps the first segment running while the later copies go out in the next ones.
            let answers = try await LoopPool.burst(
                pool, on: loops[0],
                [.pureRead("SELECT \(1)::int8 FROM pg_sleep(0.3)"), broken(1), broken(2)],
                later: [broken(3), .pureRead("SELECT \(4)::int8")])
            #expect(try answers[0].get()[0].decode(Int.self) == 1)
            #expect(answers[1...3].map(sqlState) == ["42P01", "42P01", "42P01"])
            #expect(try answers[4].get()[0].decode(Int.self) == 4)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aCopySentUnderANameWhosePrepareWasSkippedRunsAgainInsteadOfFailing() async throws {
        try await LoopPool.with { pool, loops in
            let skipped = { (value: Int) -> LoopPool.Statement in
                .pureRead("SELECT \(value)::int8 AS skipped_prepare")
            }
            let answers = try await LoopPool.burst(
                pool, on: loops[0],
                [
                    .pureRead("SELECT \(0)::int8 FROM pg_sleep(0.3)"), .pureRead("SELECT 1 / \(0)"),
                    skipped(1),
                ],
                later: [skipped(2)])
            #expect(sqlState(answers[1]) == "22012")
            #expect(try answers[2].get()[0].decode(Int.self) == 1)
            #expect(try answers[3].get()[0].decode(Int.self) == 2)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func statementsThatRefuseATransactionBlockRunBetweenReadsFromALoop() async throws {
        try await LoopPool.with { pool, loops in
            try await pool.query("CREATE TABLE public.vacuumed (id int8)")
            // Declared pure by mistake, their words still keep them alone: first in a shared segment, CREATE
            // DATABASE would commit at once and then be re-sent when the failing read after it rolled the
            // rest back.
            let answers = try await LoopPool.burst(
                pool, on: loops[0],
                [
                    .pureRead("CREATE DATABASE segment_created"), .pureRead("SELECT 1 / \(0)"),
                    .pureRead("SELECT \(1)::int8"), .pureRead("VACUUM public.vacuumed"),
                    .pureRead("SELECT \(2)::int8"), .pureRead("DROP DATABASE segment_created"),
                ])
            #expect(sqlState(answers[1]) == "22012")
            for index in [0, 2, 3, 4, 5] { #expect(throws: Never.self) { try answers[index].get() } }
            #expect(try answers[4].get()[0].decode(Int.self) == 2)
        }
    }

    /// A sequence, and a function that inserts into a table, both called from a SELECT; made afresh.
    private func createWritingFunctions(_ pool: PostgresPool) async throws {
        try await pool.query("DROP SEQUENCE IF EXISTS public.runs")
        try await pool.query("DROP FUNCTION IF EXISTS public.remember(int8)")
        try await pool.query("DROP TABLE IF EXISTS public.remembered")
        try await pool.query("CREATE SEQUENCE public.runs")
        try await pool.query("CREATE TABLE public.remembered (id bigserial PRIMARY KEY, value int8 NOT NULL)")
        try await pool.query(
            """
            CREATE FUNCTION public.remember(v int8) RETURNS int8 LANGUAGE plpgsql AS $$
            DECLARE made int8;
            BEGIN
                INSERT INTO public.remembered (value) VALUES (v) RETURNING id INTO made;
                RETURN made;
            END $$
            """)
    }

    private func sqlState(_ answer: Result<PostgresRows, PostgresError>) -> String? {
        if case .failure(let error) = answer { error.sqlState } else { nil }
    }
}
