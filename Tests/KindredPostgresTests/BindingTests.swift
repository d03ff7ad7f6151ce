import Foundation
import KindredPostgres
import Testing

extension DatabaseTests {
    @Suite struct Binding {
        @Test func everySupportedTypeRoundTripsThroughABind() async throws {
            try await TestDatabase.withPool { pool in
                let date = Date(timeIntervalSince1970: 1_790_000_000.123456)
                let bytes: [UInt8] = [0, 1, 2, 0xFF, 0, 39, 92]
                let row = try await pool.query(
                    """
                    SELECT \(Int.max), \(Int32.min), \(Int64(-42)), \(true), \(2.5), \("héllo ✓"), \(bytes), \(date)
                    """)[0]
                let decoded = try row.decode((Int, Int32, Int64, Bool, Double, String, [UInt8], Date).self)
                #expect(decoded.0 == Int.max)
                #expect(decoded.1 == Int32.min)
                #expect(decoded.2 == -42)
                #expect(decoded.3 == true)
                #expect(decoded.4 == 2.5)
                #expect(decoded.5 == "héllo ✓")
                #expect(decoded.6 == bytes)
                #expect(abs(decoded.7.timeIntervalSince(date)) < 0.000_001)
            }
        }

        @Test func nullBindsAndDecodesAsOptional() async throws {
            try await TestDatabase.withPool { pool in
                let missing: Int? = nil
                let present: String? = "x"
                let row = try await pool.query("SELECT \(missing), \(present), NULL::bytea")[0]
                let (a, b, c) = try row.decode((Int?, String?, [UInt8]?).self)
                #expect(a == nil)
                #expect(b == "x")
                #expect(c == nil)
                #expect(throws: PostgresError.self) { try row.decode(Int.self, column: 0) }
            }
        }

        @Test func uuidTimestampAndNumericCastsDecodeAsDocumented() async throws {
            try await TestDatabase.withPool { pool in
                let id = "0190C3A4-5B6D-7E8F-9A0B-1C2D3E4F5A6B"
                let row = try await pool.query(
                    "SELECT \(id)::uuid, '2026-01-02 03:04:05.5+00'::timestamptz, 7::smallint, 1.5::real")[0]
                let (uuid, time, small, real) = try row.decode((String, Date, Int32, Double).self)
                #expect(uuid == id.lowercased())
                #expect(time == Date(timeIntervalSince1970: 1_767_323_045.5))
                #expect(small == 7)
                #expect(real == 1.5)
            }
        }

        @Test(arguments: [
            "Robert'); DROP TABLE students;--", "' OR '1'='1", "$1", "\\x00", "\"quoted\"",
            "; SELECT pg_sleep(10)",
        ])
        func injectionLookingStringsAreStoredVerbatim(text: String) async throws {
            try await TestDatabase.withPool { pool in
                try await TestDatabase.withSchema(pool) { schema in
                    try await pool.query(PostgresQuery(unsafeSQL: "CREATE TABLE \(schema).notes (body text)"))
                    var insert = PostgresQuery(unsafeSQL: "INSERT INTO \(schema).notes VALUES (")
                    insert.append(bind: text)
                    insert.append(unsafeSQL: ")")
                    try await pool.query(insert)
                    let rows = try await pool.query(
                        PostgresQuery(unsafeSQL: "SELECT body FROM \(schema).notes"))
                    #expect(try rows.map { try $0.decode(String.self, column: 0) } == [text])
                }
            }
        }

        @Test func arraysBindAsOneParameterForAnyAndUnnest() async throws {
            try await TestDatabase.withPool { pool in
                let ids = ["0190c3a4-5b6d-7e8f-9a0b-1c2d3e4f5a6b", "0190c3a4-5b6d-7e8f-9a0b-1c2d3e4f5a6c"]
                let matched = try await pool.query(
                    "SELECT \(ids[1])::uuid = ANY(\(PostgresArray(ids))::uuid[]), \(PostgresArray([Int]()))::text"
                )
                let (found, empty) = try matched[0].decode((Bool, String).self)
                #expect(found)
                #expect(empty == "{}")
                let numbers: [Int32?] = [3, nil, 1]
                let rows = try await pool.query("SELECT n FROM unnest(\(PostgresArray(numbers))) AS n")
                let unnested: [Int32?] = try rows.map { try $0.decode(Int32?.self, column: 0) }
                #expect(unnested == [3, nil, 1])
                let words = try await pool.query(
                    "SELECT array_to_string(\(PostgresArray(["a,b", "é\"'"])), '|')")
                #expect(try words[0].decode(String.self, column: 0) == "a,b|é\"'")
            }
        }

        @Test func aStringHoldingNulIsRejectedBeforeItReachesTheServer() async throws {
            try await TestDatabase.withPool { pool in
                let error = await #expect(throws: PostgresError.self) {
                    try await pool.query("SELECT \("a\u{0}b")")
                }
                #expect(error?.kind == .invalidBind)
                let after = try await pool.query("SELECT 1")
                #expect(after.count == 1)
            }
        }

        @Test func wrongTypeOrColumnCountIsAClearDecodingError() async throws {
            try await TestDatabase.withPool { pool in
                let row = try await pool.query("SELECT 'text'::text AS label, 1::int4 AS n")[0]
                let wrongType = #expect(throws: PostgresError.self) { try row.decode(Int.self, column: 0) }
                #expect(wrongType?.kind == .decoding)
                #expect(wrongType?.message.contains("label") == true)
                #expect(wrongType?.message.contains("text") == true)
                let wrongCount = #expect(throws: PostgresError.self) {
                    try row.decode((String, Int, Int).self)
                }
                #expect(wrongCount?.message.contains("2 columns") == true)
                let narrowing = #expect(throws: PostgresError.self) {
                    try row.decode(Bool.self, column: 1)
                }
                #expect(narrowing?.kind == .decoding)
            }
        }

        @Test func aFragmentsParametersAreNumberedOnAfterTheQuerysOwn() async throws {
            try await TestDatabase.withPool { pool in
                let word: String? = nil
                let inner: PostgresQuery = "SELECT \(Int32(7)) AS n, \("b") AS t"
                var query: PostgresQuery = "WITH f AS (\(inner)) SELECT \("a"), n, t, \(word), "
                let tail: PostgresQuery = "\(Int32(9))"
                query.append(tail)
                query.append(unsafeSQL: " FROM f")
                #expect(query.sql == "WITH f AS (SELECT $1 AS n, $2 AS t) SELECT $3, n, t, $4, $5 FROM f")
                let row = try await pool.query(query)[0]
                let decoded = try row.decode((String, Int32, String, String?, Int32).self)
                #expect(decoded.0 == "a" && decoded.1 == 7 && decoded.2 == "b")
                #expect(decoded.3 == nil && decoded.4 == 9)
            }
        }

        @Test func aFragmentsTwoDigitPlaceholdersAndOtherTextSurviveTheRenumbering() {
            var inner = PostgresQuery(unsafeSQL: "SELECT 'café ☕'")
            for value in 1...11 {
                inner.append(unsafeSQL: ", ")
                inner.append(bind: Int32(value))
            }
            var query: PostgresQuery = "SELECT \(Int32(0)), \("é"), \(Int32(2)) UNION ALL "
            query.append(inner)
            #expect(
                query.sql
                    == "SELECT $1, $2, $3 UNION ALL SELECT 'café ☕', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14"
            )
        }
    }
}
