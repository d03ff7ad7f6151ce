// What sealing costs a call (issue 33): AES-256-GCM seal and open of one field (`FieldCipher`) at a name's and a
// comment's size, a blind index (`ServiceSecret.keyedHash`, as identity's emails use it), and a PostgreSQL lookup
// by the blind index against the plain lookup it replaced (`lower(email) = lower($1)`), on a scratch table of
// 100,000 accounts with a unique index on each, alternately in each round, so both stand on the same machine;
// and the invitation rules' address comparison, which opens the minor's or profile's few invitations instead.
// Usage: sealing-bench <database-url> [lookups=2000] [rounds=3]
import Glibc
import KindredAuth
import KindredPostgres
import Logging

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: sealing-bench <database-url> [lookups=2000] [rounds=3]")
    exit(2)
}
let lookups = arguments.count > 2 ? Int(arguments[2]) ?? 2000 : 2000
let rounds = arguments.count > 3 ? Int(arguments[3]) ?? 3 : 3
let clock = ContinuousClock()

/// `value` with two decimals.
func decimals(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}

/// Microseconds per call of `body`, over `count` calls.
func microseconds(_ count: Int, _ body: () throws -> Void) rethrows -> Double {
    let elapsed = try clock.measure { for _ in 0..<count { try body() } }
    return Double(elapsed.components.attoseconds) / 1e12 / Double(count)
        + Double(elapsed.components.seconds) * 1e6 / Double(count)
}

let cipher = try FieldCipher(
    keyring: try DataKeyring("bench:" + Base64.encode([UInt8](repeating: 7, count: 32))))
let secret = ServiceSecret.generate()
for (what, size) in [("a name", 24), ("a comment", 500)] {
    let field = [UInt8](repeating: 0x61, count: size)
    let sealed = cipher.seal(field, context: "bench/1")
    let seal = microseconds(100_000) { _ = cipher.seal(field, context: "bench/1") }
    let open = try microseconds(100_000) { _ = try cipher.open(sealed, context: "bench/1") }
    print(
        "field of \(size) bytes (\(what)): seal \(decimals(seal)) µs, open \(decimals(open)) µs"
    )
}
// An invitation's address is compared with the others of its minor or profile opened in Swift (no blind index,
// family migration 32): a minor's day holds at most 10 invitations, a profile's live ones at most 30 a day for
// the 7 days a link works.
for (what, count) in [
    ("a minor's day of guardian invitations", 10), ("a profile's live invitations, at most", 210),
] {
    let addresses = (0..<count).map {
        cipher.seal(Array("aunt\($0)@example.com".utf8), context: "family.baby_invitations.email/\($0)")
    }
    let compare = try microseconds(2_000) {
        for (number, sealed) in addresses.enumerated() {
            let address = try cipher.open(sealed, context: "family.baby_invitations.email/\(number)")
            _ = String(decoding: address, as: UTF8.self).lowercased() == "uncle@example.com"
        }
    }
    print("an invitation's address compared with \(what) (\(count), opened): \(decimals(compare)) µs")
}
let index = microseconds(100_000) { _ = secret.keyedHash("identity.accounts.email\u{0}mia.r@example.com") }
print("blind index of an email: \(decimals(index)) µs")

let logger = {
    var logger = Logger(label: "sealing-bench")
    logger.logLevel = .error
    return logger
}()
let pool = PostgresPool(
    configuration: try PostgresConfiguration(url: arguments[1], poolSize: 1), logger: logger)
let schema = "sealing_bench_" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
try await pool.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"))
for statement in [
    "CREATE TABLE \(schema).accounts (id bigint PRIMARY KEY, email text, email_index bytea)",
    "CREATE UNIQUE INDEX ON \(schema).accounts (lower(email))",
    "CREATE UNIQUE INDEX ON \(schema).accounts (email_index)",
] {
    try await pool.query(PostgresQuery(unsafeSQL: statement))
}
let emails = (0..<100_000).map { "user\($0)@example.com" }
/// The blind index of `email` as hex text, for a batch insert.
func indexHex(_ email: String) -> String {
    secret.keyedHash("identity.accounts.email\u{0}\(email)").map {
        ($0 < 16 ? "0" : "") + String($0, radix: 16)
    }
    .joined()
}
for start in stride(from: 0, to: emails.count, by: 10_000) {
    let slice = Array(emails[start..<(start + 10_000)])
    try await pool.query(
        """
        INSERT INTO \(unsafeSQL: schema).accounts (id, email, email_index)
        SELECT \(start) + n, e, decode(h, 'hex')
        FROM unnest(\(PostgresArray(slice)), \(PostgresArray(slice.map(indexHex)))) WITH ORDINALITY AS t(e, h, n)
        """)
}
try await pool.query(PostgresQuery(unsafeSQL: "ANALYZE \(schema).accounts"))

for round in 1...rounds {
    let picked = (0..<lookups).map { _ in emails.randomElement()! }
    let plain = try await clock.measure {
        for email in picked {
            _ = try await pool.pureRead(
                "SELECT id FROM \(unsafeSQL: schema).accounts WHERE lower(email) = lower(\(email.uppercased()))"
            )
        }
    }
    let blind = try await clock.measure {
        for email in picked {
            let key = secret.keyedHash("identity.accounts.email\u{0}\(email.lowercased())")
            _ = try await pool.pureRead(
                "SELECT id FROM \(unsafeSQL: schema).accounts WHERE email_index = \(key)")
        }
    }
    func perLookup(_ duration: Duration) -> String {
        decimals(
            (Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12)
                / Double(lookups))
    }
    print(
        "round \(round): lookup by lower(email) \(perLookup(plain)) µs, by blind index (hash included) \(perLookup(blind)) µs"
    )
}
try await pool.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"))
await pool.close()
