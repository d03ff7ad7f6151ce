import KindredAPI
import KindredAuth
import KindredMessages
import KindredPostgres
import KindredRPC
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// The Token password grant of a running kindred-identity, end to end over gRPC: first one caller at a time
/// (right password, wrong password, unknown user: the three should take about as long), then `clients`
/// callers back to back for `seconds`, each on an account of its own (a failure counter is per identifier).
enum SignInLatency {
    static let password = "bench password 1"

    static func run(target: String, databaseURL: String, clients: Int, seconds: Int) async {
        do {
            try await seed(databaseURL, accounts: clients)
            let identity = Kindred_Identity_V1_IdentityService.Client(try RPCClient(target: target))
            try await compareAnswers(identity)
            try await saturate(identity, clients: clients, seconds: seconds)
        } catch {
            print("SignInBench signin failed: \(error)")
        }
    }

    /// Prints an access token of `bench_0` (seeded by `run`), or a line on standard error and exit status 1.
    static func printAccessToken(target: String) async {
        do {
            let identity = Kindred_Identity_V1_IdentityService.Client(try RPCClient(target: target))
            print(try await identity.token(grant("bench_0", password)).accessToken)
        } catch {
            var line = "SignInBench access-token failed: \(error)\n"
            _ = line.withUTF8 { write(2, $0.baseAddress, $0.count) }
            exit(1)
        }
    }

    /// Verified accounts `bench_0`… with `password` hashed at the standard cost, as registration would store it.
    static func seed(_ url: String, accounts: Int) async throws {
        var logger = Logger(label: "signin-bench")
        logger.logLevel = .error
        let pool = PostgresPool(
            configuration: try PostgresConfiguration(url: url, poolSize: 1), logger: logger)
        let hash = try await PasswordHasher(cost: .standard, concurrency: 1).hash(password)
        for index in 0..<accounts {
            try await pool.query(
                """
                INSERT INTO identity.accounts (id, username, email, password_hash, date_of_birth, age_band,
                    age_assurance_method, age_assured_at, email_verified_at, parental_controls)
                VALUES (gen_random_uuid(), \("bench_\(index)"), \("bench_\(index)@example.com"), \(hash), '1990-01-01',
                    '18+', 'self_declared', now(), now(), false)
                ON CONFLICT DO NOTHING
                """)
        }
        await pool.close()
    }

    static func grant(_ username: String, _ password: String) -> Kindred_Identity_V1_TokenRequest {
        Kindred_Identity_V1_TokenRequest(grantType: "password", username: username, password: password)
    }

    /// One caller, alternating: 20 samples each of a right password, a wrong one and an unknown user.
    static func compareAnswers(_ identity: Kindred_Identity_V1_IdentityService.Client) async throws {
        var right = Latencies(), wrong = Latencies(), unknown = Latencies()
        for round in 0..<20 {
            right.append(await timed { _ = try? await identity.token(grant("bench_0", password)) })
            wrong.append(await timed { _ = try? await identity.token(grant("bench_0", "not it \(round)")) })
            unknown.append(await timed { _ = try? await identity.token(grant("nobody_\(round)", password)) })
        }
        _ = try await identity.token(grant("bench_0", password))
        print(
            "| one caller | right password \(right.summary) | wrong password \(wrong.summary) | unknown user \(unknown.summary) |"
        )
    }

    /// `clients` callers signing in back to back for `seconds`.
    static func saturate(_ identity: Kindred_Identity_V1_IdentityService.Client, clients: Int, seconds: Int)
        async throws
    {
        let clock = ContinuousClock()
        let started = clock.now
        let end = started + .seconds(seconds)
        let (all, failures) = await withTaskGroup(of: (Latencies, Int).self) { group in
            for index in 0..<clients {
                group.addTask {
                    var latencies = Latencies()
                    var failures = 0
                    while clock.now < end {
                        latencies.append(
                            await timed {
                                do { _ = try await identity.token(grant("bench_\(index)", password)) } catch {
                                    failures += 1
                                }
                            })
                    }
                    return (latencies, failures)
                }
            }
            return await group.reduce(into: (Latencies(), 0)) { total, next in
                total.0.append(contentsOf: next.0)
                total.1 += next.1
            }
        }
        let rate = Double(all.samples.count) / (clock.now - started).milliseconds * 1_000
        print(
            "| \(clients) callers, \(seconds) s | \(format(rate)) sign-ins/s | \(all.summary) | \(failures) failed |"
        )
    }
}
