import KindredPostgres
import KindredTestSupport
import Testing

@testable import KindredRPC

/// The reads one loop iteration sends share a pipeline segment: one sync, one implicit transaction. A failure
/// in a segment must still cost only the failing caller, and nothing may take effect twice.
@Suite(.serialized, .privateCluster("runtime-loop-segments")) struct PostgresLoopSegmentTests {
    @Test(.timeLimit(.minutes(2)))
    func readsSentInOneLoopIterationShareOneTransaction() async throws {
        try await LoopPool.with { pool, loops in
            let reads: [PostgresQuery] = (0..<8).map { "SELECT pg_current_xact_id()::text, \($0)::int8" }
            let answers = try await LoopPool.burst(pool, on: loops[0], reads)
            let transactions = try answers.map { try $0.get()[0].decode(String.self, column: 0) }
            #expect(Set(transactions).count == 1)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func writesSentInOneLoopIterationEachKeepATransactionOfTheirOwn() async throws {
        try await LoopPool.with { pool, loops in
            try await pool.query("CREATE TABLE public.written (id int8 PRIMARY KEY)")
            let writes: [PostgresQuery] = (0..<8).map {
                "INSERT INTO public.written VALUES (\($0)) RETURNING pg_current_xact_id()::text"
            }
            let answers = try await LoopPool.burst(pool, on: loops[0], writes)
            let transactions = try answers.map { try $0.get()[0].decode(String.self) }
            #expect(Set(transactions).count == writes.count)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aFailingReadFailsAloneAndItsNeighboursAreAnsweredOnce() async throws {
        try await LoopPool.with { pool, loops in
            // nextval is not transactional: the sequence shows how often each neighbour really ran.
            try await pool.query("CREATE SEQUENCE public.runs")
            let answers = try await LoopPool.burst(
                pool, on: loops[0],
                ["SELECT nextval('public.runs')", "SELECT 1 / \(0)", "SELECT nextval('public.runs')"])
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
            let answers = try await LoopPool.burst(pool, on: loops[0], [before, "SELECT 1 / \(0)", after])
            #expect(try answers[0].get()[0].decode(Int.self) == 1)
            #expect(try answers[2].get()[0].decode(Int.self) == 2)
            // PostgreSQL kept the first Parse through the rollback: its name was reused, not prepared twice.
            let prepared = try await LoopPool.burst(
                pool, on: loops[0],
                [
                    before, after,
                    """
                    SELECT count(*)::int8 FROM pg_prepared_statements
                    WHERE statement IN ('SELECT $1::int8 AS prepared_before', 'SELECT $1::int8 AS prepared_after')
                    """,
                ])
            #expect(try prepared[0].get()[0].decode(Int.self) == 1)
            #expect(try prepared[1].get()[0].decode(Int.self) == 2)
            #expect(try prepared[2].get()[0].decode(Int.self) == 2)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func copiesOfAReadWhosePrepareFailedReportThatFailureInItsSegmentAndInLaterOnes() async throws {
        try await LoopPool.with { pool, loops in
            let broken = { (value: Int) -> PostgresQuery in "SELECT x FROM public.missing WHERE x = \(value)"
            }
            // The sleep keeps the first segment running while the later copies go out in the next ones.
            let answers = try await LoopPool.burst(
                pool, on: loops[0], ["SELECT \(1)::int8 FROM pg_sleep(0.3)", broken(1), broken(2)],
                later: [broken(3), "SELECT \(4)::int8"])
            #expect(try answers[0].get()[0].decode(Int.self) == 1)
            #expect(answers[1...3].map(sqlState) == ["42P01", "42P01", "42P01"])
            #expect(try answers[4].get()[0].decode(Int.self) == 4)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aCopySentUnderANameWhosePrepareWasSkippedRunsAgainInsteadOfFailing() async throws {
        try await LoopPool.with { pool, loops in
            let skipped = { (value: Int) -> PostgresQuery in "SELECT \(value)::int8 AS skipped_prepare" }
            let answers = try await LoopPool.burst(
                pool, on: loops[0], ["SELECT \(0)::int8 FROM pg_sleep(0.3)", "SELECT 1 / \(0)", skipped(1)],
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
            // First in a shared segment, CREATE DATABASE would commit at once and then be re-sent when the
            // failing read after it rolled the rest back.
            let answers = try await LoopPool.burst(
                pool, on: loops[0],
                [
                    "CREATE DATABASE segment_created", "SELECT 1 / \(0)", "SELECT \(1)::int8",
                    "VACUUM public.vacuumed", "SELECT \(2)::int8", "DROP DATABASE segment_created",
                ])
            #expect(sqlState(answers[1]) == "22012")
            for index in [0, 2, 3, 4, 5] { #expect(throws: Never.self) { try answers[index].get() } }
            #expect(try answers[4].get()[0].decode(Int.self) == 2)
        }
    }

    private func sqlState(_ answer: Result<PostgresRows, PostgresError>) -> String? {
        if case .failure(let error) = answer { error.sqlState } else { nil }
    }
}
