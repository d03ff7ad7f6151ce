import KindredAuth

// Token verification throughput on one core: every token new to the verifier (an Ed25519 check each),
// then the same tokens again (cache hits), plus the issuer's signing rate for scale; then the same cached
// tokens through `TokenAuthenticator`, as the RPC layer checks them (synchronously from the headers, and
// through its async entry point). Build with `swift build -c release --product AuthBench`; the machine is
// shared, so compare numbers from one run.

let clock = ContinuousClock()
let key = SigningKey()
let signer = TokenSigner(key: key)
let now = TokenClock.system.now
let tokenCount = 2_000
let rounds = 5

func claims(_ index: Int) -> TokenClaims {
    TokenClaims(
        subject: "0192f5e0-7c1a-7b3e-8f00-\(String(100_000_000_000 + index))", role: .user, ageBand: .adult,
        parentalControls: false, scope: .full, issuedAt: now, expiresAt: now + 900,
        tokenID: "0192f5e0-7c1a-7b3e-8f00-\(String(200_000_000_000 + index))")
}

/// Prints the median rate of `operations` per round over `rounds` round durations.
func report(_ label: String, operations: Int, _ durations: [Duration]) {
    let median = durations.sorted()[durations.count / 2]
    let seconds = Double(median.components.seconds) + Double(median.components.attoseconds) * 1e-18
    let microseconds = (seconds * 1e8 / Double(operations)).rounded() / 100
    print("\(label) \(Int((Double(operations) / seconds).rounded()))/s, \(microseconds) µs each")
}

/// Runs `prepare` then times `body` over `rounds` rounds and prints the median rate.
func report(_ label: String, operations: Int, prepare: () -> Void = {}, _ body: () -> Void) {
    let durations = (0..<rounds).map { _ in
        prepare()
        return clock.measure(body)
    }
    report(label, operations: operations, durations)
}

var tokens: [String] = []
report("sign:                        ", operations: tokenCount) {
    tokens = (0..<tokenCount).map { signer.sign(claims($0)) }
}

// A fresh verifier per round, so every verification misses the cache and checks the signature.
var fresh = TokenVerifier(keys: [key.verificationKey])
report(
    "verify, uncached:            ", operations: tokenCount,
    prepare: { fresh = TokenVerifier(keys: [key.verificationKey]) }
) {
    for token in tokens { _ = try! fresh.verify(token) }
}

// One verifier that has seen every token: each call is a hash, a lock and a lookup.
let warm = TokenVerifier(keys: [key.verificationKey])
for token in tokens { _ = try! warm.verify(token) }
let repeats = 250
report("verify, cached:              ", operations: tokenCount * repeats) {
    for _ in 0..<repeats {
        for token in tokens { _ = try! warm.verify(token) }
    }
}

// The RPC layer's path: the token as a slice of its `authorization` header, keys loaded, token cached.
let headers = tokens.map { "Bearer \($0)" }
let slices = headers.map { $0.dropFirst(7) }
let authenticator = TokenAuthenticator(keySource: FixedSigningKeys([key.verificationKey]))
for slice in slices { _ = try! await authenticator.authenticate(slice) }
report("authenticator, cached (sync):", operations: tokenCount * repeats) {
    for _ in 0..<repeats {
        for slice in slices { _ = try! authenticator.verifyWithLoadedKeys(slice).get() }
    }
}

/// The async entry point timed off the main actor, as a handler's task calls it: no executor hop per call.
func timeAuthenticate() async -> [Duration] {
    var durations: [Duration] = []
    for _ in 0..<rounds {
        let start = clock.now
        for _ in 0..<repeats {
            for slice in slices { _ = try! await authenticator.authenticate(slice) }
        }
        durations.append(clock.now - start)
    }
    return durations
}
report("authenticator, cached (async):", operations: tokenCount * repeats, await timeAuthenticate())
