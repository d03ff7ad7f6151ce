import KindredAuth

#if canImport(Glibc)
import Glibc
#endif

/// Argon2id at the costs worth considering, on a hasher bounded like identity's (one thread per core):
/// one hash alone (what a user waits when the server is idle), then the pool saturated by twice as many
/// callers as threads (the most sign-ins per second the machine does, and what each waits then).
enum Argon2Costs {
    static let candidates: [(String, PasswordHasher.Cost)] = [
        ("OWASP floor t=2 19 MiB", .init(iterations: 2, memoryKiB: 19 * 1024)),
        ("t=1 47 MiB (OWASP alt.)", .init(iterations: 1, memoryKiB: 47 * 1024)),
        ("t=2 32 MiB", .init(iterations: 2, memoryKiB: 32 * 1024)),
        ("t=3 32 MiB", .init(iterations: 3, memoryKiB: 32 * 1024)),
        ("t=2 64 MiB (standard)", .init(iterations: 2, memoryKiB: 64 * 1024)),
        ("t=3 64 MiB", .init(iterations: 3, memoryKiB: 64 * 1024)),
        ("t=3 256 MiB", .init(iterations: 3, memoryKiB: 256 * 1024)),
    ]

    static func run(seconds: Int) async {
        let threads = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        print("Argon2id on \(threads) hashing threads; \(seconds) s saturated per cost")
        print("| cost | one hash alone | saturated: hashes/s | saturated latency |")
        print("|---|---|---|---|")
        for (label, cost) in candidates {
            let hasher = PasswordHasher(cost: cost, concurrency: threads)
            let stored = try! await hasher.hash("correct horse 1")
            var alone = Latencies()
            for _ in 0..<5 {
                alone.append(await timed { _ = try? await hasher.verify("correct horse 1", against: stored) })
            }
            let (rate, loaded) = await saturate(
                hasher, stored: stored, callers: 2 * threads, seconds: seconds)
            print(
                "| \(label) | \(format(alone.milliseconds(at: 0.5))) ms | \(format(rate)) | \(loaded.summary) |"
            )
        }
    }

    /// `callers` tasks verifying back to back for `seconds`: verifications per second and their latencies.
    static func saturate(
        _ hasher: PasswordHasher, stored: String, callers: Int, seconds: Int
    ) async -> (Double, Latencies) {
        let clock = ContinuousClock()
        let end = clock.now + .seconds(seconds)
        let started = clock.now
        let all = await withTaskGroup(of: Latencies.self) { group in
            for _ in 0..<callers {
                group.addTask {
                    var latencies = Latencies()
                    while clock.now < end {
                        latencies.append(
                            await timed { _ = try? await hasher.verify("correct horse 1", against: stored) })
                    }
                    return latencies
                }
            }
            return await group.reduce(into: Latencies()) { $0.append(contentsOf: $1) }
        }
        return (Double(all.samples.count) / (clock.now - started).milliseconds * 1_000, all)
    }
}

/// How long `body` took.
func timed(_ body: () async -> Void) async -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    await body()
    return clock.now - start
}
